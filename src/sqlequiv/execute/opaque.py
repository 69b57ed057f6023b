"""SQLite's own expressions as opaque functions, so that a proof can be about SQLite.

The symbolic prover's terms mean what DuckDB computes; :func:`~.portable.portable`
lets a SQLite query be proved only where the two engines agree. Text-to-SQL queries
rarely stay there: BIRD's golds and predictions read dates with ``STRFTIME``, cut text
with ``SUBSTR``, join ``||``, divide integers, ``CAST(... AS REAL)``. Two such queries
are still equivalent whatever those expressions compute when they use **the same
expression** over values that agree: a gold and a prediction that filter on
``STRFTIME('%Y', m.played_on) = '2022'``, one through a join and one through ``IN``.

:func:`opaque_sqlite` rewrites a query so that each maximal scalar expression made of
SQLite functions and operators that :func:`~.portable.portable` refuses becomes a call
of an opaque function, ``sqlequiv_sqlite_<class>_<digest>(args)``:

* its **arguments** are the expression's largest portable parts that read a row (a
  column, an aggregate, a CASE), each of which means the same on both engines;
* its **name** is the digest of the expression's text with the arguments as ``?1``,
  ``?2`` (``STRFTIME('%Y', ?1)``): the same expression gets the same function in both
  queries of a pair, whatever the tables' aliases;
* its **class** is the class of value SQLite returns, which it always has: text
  (``STRFTIME``, ``SUBSTR``, ``||``, ``UPPER``, ``DATE``, ``CAST AS TEXT``), an integer
  (``LENGTH``, ``INSTR``, ``CAST AS INTEGER``, integer arithmetic and division) or a
  real (``ROUND``, ``CAST AS REAL``, ``JULIANDAY``, arithmetic with a real).

A TEXT column compared with ``=`` to an INTEGER column (a Spider join of ``'7'`` to
``7``) is an opaque integer of the text where the comparison is a conjunct of a WHERE,
a HAVING or an ON (:func:`_numeric_affinity` says why that is exact there).

The prover treats such a call as an uninterpreted function that is NULL when an
argument is NULL and may be NULL otherwise (a malformed date). Every listed expression
is deterministic and strict in exactly that way on SQLite, and its value depends only
on the values of its arguments (whose storage class their kind fixes: only columns whose
affinity matches their kind are accepted, as by :func:`~.portable.portable`), so a
proof over every such function holds for the one SQLite computes. The rest of the query
must be portable, opaque calls included (``STRFTIME(...) = '1995'`` compares text with
text; ``STRFTIME(...) = 1995`` stays refused).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from sqlglot import exp

from sqlequiv.execute.portable import node_checker, only_column, portable
from sqlequiv.policy.opaque import OPAQUE_PREFIX, opaque_class
from sqlequiv.schema.model import Schema

__all__ = ["OPAQUE_PREFIX", "opaque_class", "opaque_sqlite"]

#: The type an opaque call of each class carries, for the portability check and the
#: translator (SQLite's INTEGER is 64 bits, its REAL a double).
_TYPES = {"text": "TEXT", "int": "BIGINT", "real": "DOUBLE"}

#: SQLite functions sqlglot leaves anonymous, with the class of what they return.
_ANONYMOUS = {
    "date": "text", "datetime": "text", "time": "text", "julianday": "real",
    "unixepoch": "int", "printf": "text", "format": "text", "char": "text", "hex": "text",
    "ltrim": "text", "rtrim": "text", "substr": "text", "instr": "int",
}  # fmt: skip
#: Strict text functions of sqlglot's own classes.
_TEXT_NODES: tuple[type[exp.Expr], ...] = (
    exp.Substring, exp.TimeToStr, exp.TsOrDsToTimestamp, exp.TsOrDsToDate, exp.Upper,
    exp.Lower, exp.Trim, exp.DPipe, exp.Replace, exp.Date,
)  # fmt: skip
_INT_NODES: tuple[type[exp.Expr], ...] = (exp.Length, exp.StrPosition)
_ARITHMETIC: tuple[type[exp.Expr], ...] = (exp.Add, exp.Sub, exp.Mul, exp.Div, exp.Mod)
#: Arguments of a date function that make it read the clock.
_CLOCK = ("now", "localtime", "utc")


def opaque_sqlite(query: exp.Expression, schema: Schema) -> exp.Expression | None:
    """``query`` (qualified and type-annotated, in the SQLite dialect) with its SQLite-only
    expressions made opaque calls; None when something else keeps it from being
    portable (see the module docstring).

    Example:
        >>> from sqlequiv.guard import guard_query
        >>> from sqlequiv.schema import load_schema
        >>> s = load_schema("CREATE TABLE t (a INTEGER, d TEXT)", "sqlite")
        >>> q = guard_query("SELECT a FROM t WHERE STRFTIME('%Y', d) = '1995'", s, dialect="sqlite")
        >>> tree = opaque_sqlite(q.qualified, s)
        >>> [(opaque_class(f), f.expressions[0].sql()) for f in tree.find_all(exp.Anonymous)]
        [('text', 't.d')]
        >>> q = guard_query("SELECT a FROM t WHERE STRFTIME('%Y', d) = 1995", s, dialect="sqlite")
        >>> opaque_sqlite(q.qualified, s) is None
        True
    """
    tree = query.copy()
    ok = node_checker(tree, schema)

    def portable_subtree(node: exp.Expr) -> bool:
        return all(ok(n) for n in node.walk())

    _numeric_affinity(tree, portable_subtree)

    def rewrite(node: exp.Expr) -> None:
        for child in list(node.iter_expressions()):
            if portable_subtree(child):
                continue
            made = _opaque(child, portable_subtree)
            if made is not None:
                child.replace(made)
            else:
                rewrite(child)

    rewrite(tree)
    if not any(isinstance(n, exp.Anonymous) and opaque_class(n) for n in tree.walk()):
        return None  # nothing was made opaque: the query is refused as it was
    return tree if portable(tree, schema) else None


#: The opaque function that stands for SQLite's numeric affinity applied to a TEXT value
#: compared with an INTEGER column: the integer the text converts to, else no match.
_AFFINITY = f"{OPAQUE_PREFIX}int_" + hashlib.sha256(b"NUMERIC_AFFINITY(?1)").hexdigest()[:16]


def _numeric_affinity(tree: exp.Expr, portable_subtree: Callable[[exp.Expr], bool]) -> None:
    """A TEXT column compared with ``=`` to an INTEGER one (a join, a correlated EXISTS,
    ``IN (SELECT ...)``: SQLite applies the INTEGER side's numeric affinity to the text,
    so ``'7'``, ``'07'``, ``'7.0'`` and ``' 7'`` meet 7) as an opaque integer of the text.

    Why this is sound: for a text value ``t`` at most one integer ``i`` makes ``t = i``
    TRUE (the number ``t`` converts to, if it is a whole one), so ``t = i`` is TRUE
    exactly when ``f(t) = i`` for the function ``f`` giving that integer (NULL when
    there is none), which the opaque call may be. The two differ only where ``t = i`` is
    FALSE and ``f(t) = i`` NULL, which a WHERE, a HAVING or an ON cannot tell apart: only
    comparisons that are conjuncts there are rewritten (never under NOT, OR or in an
    output), and ``IN`` only with a subquery (an IN list compares otherwise in SQLite)."""
    for node in list(tree.find_all(exp.EQ, exp.In)):
        if not _conjunct(node):
            continue
        if isinstance(node, exp.EQ):
            sides = [node.this, node.expression]
        else:
            query = node.args.get("query")
            column = only_column(query) if query is not None and not node.expressions else None
            if column is None:
                continue
            sides = [node.this, column]
        classes = [_affinity_class(side, portable_subtree) for side in sides]
        if sorted(c or "" for c in classes) != ["int", "text"]:
            continue
        text_side = sides[classes.index("text")]
        if isinstance(node, exp.In) and text_side is not node.this:
            continue  # the subquery's own column: its output would change
        call = exp.Anonymous(this=_AFFINITY, expressions=[text_side.copy()])
        call.type = exp.DataType.build("BIGINT")
        text_side.replace(call)


def _conjunct(node: exp.Expr) -> bool:
    """Whether ``node`` is a conjunct of a WHERE, a HAVING or a JOIN's ON."""
    child, parent = node, node.parent
    while isinstance(parent, exp.And | exp.Paren):
        child, parent = parent, parent.parent
    if isinstance(parent, exp.Where | exp.Having):
        return True
    return isinstance(parent, exp.Join) and parent.args.get("on") is child


def _affinity_class(node: exp.Expr, portable_subtree: Callable[[exp.Expr], bool]) -> str | None:
    """``text`` or ``int`` for a column of the schema whose affinity matches its kind."""
    if not isinstance(node, exp.Column) or not portable_subtree(node):
        return None
    kind = _portable_class(node)
    return kind if kind in ("text", "int") else None


def _opaque(node: exp.Expr, portable_subtree: Callable[[exp.Expr], bool]) -> exp.Expr | None:
    """``node`` as an opaque call, if it is an expression of the listed kind; else None."""
    if _result_class(node, portable_subtree) is None:
        return None
    args: list[exp.Expr] = []
    template = node.copy()
    holes: list[exp.Expr] = []
    _collect(template, portable_subtree, holes)
    for hole in holes:
        args.append(hole.copy())
        hole.replace(exp.Placeholder(this=str(len(args))))
    if not args:
        return None  # a constant: nothing of a row in it (and nothing to prove about)
    kind = _result_class(node, portable_subtree)
    text = template.sql(dialect="sqlite")
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    call = exp.Anonymous(this=f"{OPAQUE_PREFIX}{kind}_{digest}", expressions=args)
    call.type = exp.DataType.build(_TYPES[str(kind)])
    return call


def _collect(
    node: exp.Expr, portable_subtree: Callable[[exp.Expr], bool], holes: list[exp.Expr]
) -> None:
    """The arguments of the opaque call ``node`` becomes: its largest portable parts that
    read a row (in order), leaving literals and the listed operators in the template."""
    for child in list(node.iter_expressions()):
        if isinstance(child, exp.Literal | exp.DataType | exp.Var | exp.Null):
            continue
        if portable_subtree(child) and any(
            isinstance(n, exp.Column | exp.AggFunc) for n in child.walk()
        ):
            holes.append(child)
        else:
            _collect(child, portable_subtree, holes)


def _result_class(node: exp.Expr, portable_subtree: Callable[[exp.Expr], bool]) -> str | None:
    """The class of value SQLite's ``node`` always returns, when ``node`` is made of the
    listed deterministic, strict operators over portable parts and literals; else None."""
    if isinstance(node, exp.Paren):
        return _result_class(node.this, portable_subtree)
    if isinstance(node, exp.Literal):
        if node.is_string:
            return "text"
        return "int" if node.name.lstrip("-").isdigit() else "real"
    if portable_subtree(node):
        return _portable_class(node)
    if any(isinstance(n, exp.Query | exp.Window | exp.Subquery) for n in node.walk()):
        return None
    if not _operands_ok(node, portable_subtree):
        return None
    if isinstance(node, exp.Cast | exp.TryCast):
        return _cast_class(node.args.get("to"))
    if isinstance(node, _TEXT_NODES):
        return None if _reads_clock(node) else "text"
    if isinstance(node, _INT_NODES):
        return "int"
    if isinstance(node, exp.Round):
        return "real"
    if isinstance(node, exp.Anonymous):
        kind = _ANONYMOUS.get(str(node.name).lower())
        return None if kind is None or _reads_clock(node) else kind
    if isinstance(node, exp.Neg | exp.Abs):
        inner = _result_class(node.this, portable_subtree)
        return inner if inner in ("int", "real") else None
    if isinstance(node, _ARITHMETIC):
        left = _result_class(node.this, portable_subtree)
        right = _result_class(node.expression, portable_subtree)
        if left not in ("int", "real") or right not in ("int", "real"):
            return None  # text in arithmetic is read as a number: not listed
        return "int" if left == right == "int" else "real"
    return None


def _operands_ok(node: exp.Expr, portable_subtree: Callable[[exp.Expr], bool]) -> bool:
    """Whether every operand of ``node`` is a literal, a portable part or itself listed."""
    for child in node.iter_expressions():
        if isinstance(child, exp.Literal | exp.DataType | exp.Var | exp.Null):
            continue
        if not portable_subtree(child) and _result_class(child, portable_subtree) is None:
            return False
    return True


def _portable_class(node: exp.Expr) -> str | None:
    """int, real or text for a portable part, from its type annotation."""
    dtype = node.type
    if dtype is None:
        return None
    if dtype.is_type(*exp.DataType.INTEGER_TYPES):
        return "int"
    if dtype.is_type(*exp.DataType.REAL_TYPES):
        return "real"
    if dtype.is_type(*exp.DataType.TEXT_TYPES):
        return "text"
    return None


def _cast_class(to: object) -> str | None:
    if not isinstance(to, exp.DataType):
        return None
    if to.is_type(*exp.DataType.TEXT_TYPES):
        return "text"
    if to.is_type(*exp.DataType.INTEGER_TYPES):
        return "int"
    if to.is_type(exp.DataType.Type.DOUBLE, exp.DataType.Type.FLOAT):
        return "real"
    return None  # NUMERIC and DECIMAL keep an integer or a real as SQLite sees fit


def _reads_clock(node: exp.Expr) -> bool:
    """A date function given 'now' (or a time zone modifier) reads the clock."""
    for literal in node.find_all(exp.Literal):
        if literal.is_string and str(literal.this).strip().lower() in _CLOCK:
            return True
    return not list(node.find_all(exp.Column, exp.AggFunc))
