"""Translate qualified sqlglot scalar expressions and predicates into z3 terms.

The trees are the ``.qualified`` trees of :func:`sqlequiv.guard.guard_query`,
in the source dialect; the meaning given to them is what DuckDB does when it
runs the query's ``.duckdb_sql``. Where sqlglot's DuckDB rendering depends on
source-dialect arguments (typed and safe division), the rules mirror its
generator. Function calls the rules below do not cover go to
:mod:`.functions` (an exact term, or an uninterpreted function for a listed
deterministic one). Anything without a faithful translation raises
:class:`Unsupported` naming the construct.

Errors: DuckDB raises an error, instead of producing a value, on integer or
decimal overflow, division by zero in ``//`` and ``%``, and casts out of range.
:attr:`Translator.errors` collects the conditions under which that *may*
happen: when none of them holds, DuckDB evaluates the expression without an
error and its result equals the translated term. Conditions from CASE
branches, COALESCE arguments and IF arms are guarded by the condition that
selects them (DuckDB evaluates those lazily); both sides of AND/OR count
(DuckDB may evaluate both).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

import sqlglot
import z3
from sqlglot import exp

from sqlequiv.policy import function_name, varies_between_runs
from sqlequiv.policy.opaque import opaque_class
from sqlequiv.symbolic.terms import arith, calendar, functions
from sqlequiv.symbolic.terms.domain import MICROS_PER_DAY, constant, parse_literal
from sqlequiv.symbolic.terms.formulas import bool_and, bool_not, bool_or
from sqlequiv.symbolic.terms.like import like_regex
from sqlequiv.symbolic.terms.sqlvalue import (
    SymBool,
    SymValue,
    Unsupported,
    and_,
    as_predicate,
    compare,
    int_range,
    ite,
    not_,
    null_of,
    or_,
    same,
    truth_value,
    unify_all,
)
from sqlequiv.values import Kind

__all__ = ["COMPARISON_OPS", "Hook", "Resolver", "Translator"]

Resolver = Callable[[exp.Column], SymValue]
Hook = Callable[[exp.Expr], "SymValue | SymBool | None"]

#: sqlglot comparison nodes and the operator :func:`compare` takes.
COMPARISON_OPS: dict[type[exp.Expr], str] = {
    exp.EQ: "=",
    exp.NEQ: "<>",
    exp.LT: "<",
    exp.LTE: "<=",
    exp.GT: ">",
    exp.GTE: ">=",
}
_ARITH_OPS: dict[type[exp.Expr], str] = {exp.Add: "+", exp.Sub: "-", exp.Mul: "*"}

# Fixed-length interval units, in microseconds. Months and years have no fixed
# length (and DuckDB's month arithmetic clamps days), so they are unsupported.
_INTERVAL_UNITS = {
    "MICROSECOND": 1,
    "MILLISECOND": 1_000,
    "SECOND": 1_000_000,
    "MINUTE": 60_000_000,
    "HOUR": 3_600_000_000,
    "DAY": 86_400_000_000,
    "WEEK": 7 * 86_400_000_000,
}
_INTERVAL_TEXT = re.compile(r"\s*([+-]?\d+)\s*([A-Za-z]*)\s*")

_DUCKDB = sqlglot.Dialect.get_or_raise("duckdb")
# The division rules below mirror sqlglot's Generator.div_sql for these settings.
_DIVISION_MIRRORED = (
    not _DUCKDB.TYPED_DIVISION
    and not _DUCKDB.SAFE_DIVISION
    and bool(getattr(_DUCKDB.generator_class, "SAFE_INT_DIVISION", False))
    and bool(getattr(_DUCKDB.generator_class, "CAST_TO_INT_ROUNDS", False))
)

_NO_ERROR = z3.BoolVal(False)
#: ``a op b`` is ``b op' a``.
_MIRRORED_ORDER = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}


def _is_string_literal(node: exp.Expr) -> bool:
    return isinstance(node, exp.Literal) and node.is_string


def _int_literal_value(node: exp.Expr) -> int | None:
    """The value of an integer literal, possibly negated (DuckDB folds the sign in)."""
    if isinstance(node, exp.Paren):
        return _int_literal_value(node.this)
    if isinstance(node, exp.Neg):
        inner = _int_literal_value(node.this)
        return None if inner is None else -inner
    if isinstance(node, exp.Literal) and not node.is_string and re.fullmatch(r"\d+", node.name):
        return int(node.name) if len(node.name.lstrip("0")) <= _MAX_INT_DIGITS else None
    return None


class Translator:
    """Translate one query's scalar expressions, with columns supplied by ``resolve``.

    Args:
        resolve: The value of a column reference.
        hook: Consulted first for every node; returns the translation of
            nodes the caller handles itself (subqueries, aggregates, window
            functions, correlated columns) or None to use the built-in rules.

    Attributes:
        errors: Conditions under which DuckDB may raise an error while
            evaluating what was translated (see the module docstring).

    Example:
        >>> from sqlequiv.symbolic.terms.domain import variable
        >>> i, _ = variable("i", exp.DataType.build("INT"))
        >>> tr = Translator(lambda column: i)
        >>> p = tr.predicate(sqlglot.parse_one("i NOT IN (1, NULL)"))
        >>> z3.Solver().check(p.true)
        unsat
    """

    def __init__(self, resolve: Resolver, *, hook: Hook | None = None) -> None:
        self.resolve = resolve
        self.hook = hook
        self.errors: list[z3.BoolRef] = []
        self._guards: list[z3.BoolRef] = []

    # -- public entry points ---------------------------------------------------

    def value(self, node: exp.Expr) -> SymValue:
        """The SQL value of a scalar expression (a predicate becomes a BOOLEAN value)."""
        result = self._translate(node)
        return truth_value(result) if isinstance(result, SymBool) else result

    def predicate(self, node: exp.Expr) -> SymBool:
        """The SQL truth value of a condition (a BOOLEAN expression)."""
        result = self._translate(node)
        return result if isinstance(result, SymBool) else as_predicate(result)

    # -- plumbing --------------------------------------------------------------

    def _record(self, error: z3.BoolRef) -> None:
        if z3.is_false(error):
            return
        self.errors.append(bool_and(*self._guards, error) if self._guards else error)

    def _guarded(self, guard: z3.BoolRef, node: exp.Expr) -> SymValue:
        """Translate ``node`` as evaluated only when ``guard`` holds (lazy branches)."""
        self._guards.append(guard)
        try:
            return self.value(node)
        finally:
            self._guards.pop()

    def _translate(self, node: exp.Expr) -> SymValue | SymBool:
        if self.hook is not None:
            hooked = self.hook(node)
            if hooked is not None:
                return hooked
        handler = _HANDLERS.get(type(node))
        if handler is not None:
            return handler(self, node)
        return self._fallback(node)

    def _fallback(self, node: exp.Expr) -> SymValue | SymBool:
        if isinstance(node, (exp.Subquery, exp.Exists, exp.Query)):
            raise Unsupported(f"a subquery ({_snippet(node)}) without a hook")
        if isinstance(node, exp.AggFunc):
            raise Unsupported(f"the aggregate {_snippet(node)} without a hook")
        if isinstance(node, exp.Window):
            raise Unsupported(f"the window function {_snippet(node)} without a hook")
        if isinstance(node, exp.Collate):
            raise Unsupported(f"COLLATE ({_snippet(node)})")
        if isinstance(node, exp.Func):
            return self._function(node)
        raise Unsupported(f"{type(node).__name__} ({_snippet(node)})")

    def _operands(self, nodes: Sequence[exp.Expr]) -> list[SymValue]:
        """Values of operands that DuckDB brings to one type (comparisons, IN, BETWEEN)."""
        return self._harmonize(nodes, [self.value(n) for n in nodes])

    def _harmonize(
        self, nodes: Sequence[exp.Expr | None], values: Sequence[SymValue]
    ) -> list[SymValue]:
        """Give literals the type DuckDB gives them next to the other operands.

        String literals take the type of the other operands, as DuckDB casts
        them; integer literals take the width of the other integers when they
        fit, as DuckDB's integer literals do.
        """
        literal = [n is not None and _is_string_literal(n) for n in nodes]
        typed = [v for v, lit in zip(values, literal, strict=True) if not lit and v.kind != "other"]
        if any(literal) and typed:
            target = unify_all(typed)[0]
            values = [
                self._string_literal(n.name, target) if lit and n is not None else v
                for v, n, lit in zip(values, nodes, literal, strict=True)
            ]
        return _adapt_int_literals(nodes, values)

    def _string_literal(self, text: str, target: SymValue | None) -> SymValue:
        if target is None or target.kind == "text":
            return _text_constant(text)
        return parse_literal(text, target)

    # -- leaves ----------------------------------------------------------------

    def _column(self, node: exp.Column) -> SymValue:
        return self.resolve(node)

    def _literal(self, node: exp.Literal) -> SymValue:
        if node.is_string:
            return _text_constant(node.name)
        return _number(node.name)

    def _boolean(self, node: exp.Boolean) -> SymValue:
        return constant(bool(node.this), "bool")

    def _null(self, node: exp.Null) -> SymValue:
        return null_of("other")

    def _paren(self, node: exp.Expr) -> SymValue | SymBool:
        return self._translate(node.this)

    # -- predicates --------------------------------------------------------------

    def _comparison(self, node: exp.Binary) -> SymBool:
        ranged = self._truncated_equal(node) if isinstance(node, exp.EQ) else None
        if ranged is None:
            ranged = self._year_compared(node)
        if ranged is None:
            ranged = self._quotient_compared(node)
        if ranged is not None:
            return ranged
        a, b = self._operands([node.this, node.expression])
        return compare(COMPARISON_OPS[type(node)], a, b)

    def _truncated_equal(self, node: exp.EQ) -> SymBool | None:
        """``DATE_TRUNC(unit, x) = c`` for a constant ``c``, as the range of ``x`` it
        means (:func:`~sqlequiv.symbolic.terms.calendar.truncation_range`); None otherwise."""
        for side, other in ((node.this, node.expression), (node.expression, node.this)):
            trunc = side.unnest()  # as _year_of reads its operand
            if not isinstance(trunc, exp.DateTrunc | exp.TimestampTrunc):
                continue
            unit, as_date = _truncation(trunc)
            if unit is None or as_date:
                return None
            bound = self.value(other)
            start = z3.simplify(bound.value) if bound.kind == "timestamp" else None
            if start is None or not z3.is_int_value(start):
                return None
            window = calendar.truncation_range(unit, start.as_long())
            if window is None:
                return None
            x = self.value(trunc.this)
            if x.kind not in ("date", "timestamp"):
                return None
            m = _micros(x)
            return _known_test(x, bound, bool_and(m >= window[0], m < window[1]))
        return None

    def _year_compared(self, node: exp.Binary) -> SymBool | None:
        """``YEAR(x) op c`` for an integer constant ``c`` (``EXTRACT(YEAR FROM x)`` too), as
        the range of ``x`` it means (:func:`~sqlequiv.symbolic.terms.calendar.year_start`): the
        same truth value on every ``x``, without the calendar arithmetic of a year, whose
        divisions cost z3 integer cuts (``YEAR(placed_at) = 2026`` against
        ``placed_at >= '2026-01-01' AND placed_at < '2027-01-01'``); None otherwise."""
        op = COMPARISON_OPS[type(node)]
        for part, other, flipped in ((node.this, node.expression, False),
                                     (node.expression, node.this, True)):  # fmt: skip
            operand = self._year_of(part)
            if operand is None:
                continue
            bound = self.value(other)
            if bound.kind != "int":
                return None
            year = z3.simplify(bound.value)
            if not z3.is_int_value(year):
                return None
            x = self.value(operand)
            if x.kind not in ("date", "timestamp"):
                return None
            c = year.as_long()
            starts = calendar.year_start(c), calendar.year_start(c + 1)
            if None in starts:
                return None
            lo, hi = starts
            if flipped:  # c op YEAR(x) is YEAR(x) op' c
                op = _MIRRORED_ORDER.get(op, op)
            m = _micros(x)
            holds = {
                "=": bool_and(m >= lo, m < hi),
                "<>": bool_or(m < lo, m >= hi),
                "<": m < lo,
                "<=": m < hi,
                ">": m >= hi,
                ">=": m >= lo,
            }[op]
            return _known_test(x, bound, holds)
        return None

    def _quotient_compared(self, node: exp.Binary) -> SymBool | None:
        """``x / c op k`` for an integer ``x`` and integer constants ``c`` (not 0) and
        ``k`` with ``|k * c| < 2**52``, as ``x op k * c`` (the order turned for a
        negative ``c``); None otherwise.

        DuckDB's ``/`` divides in DOUBLE, which z3 can only bit-blast (a proof that
        ``duration / 60 < 5`` is ``duration < 300`` spent its whole floating-point
        share and more than a second). The integer form is exact: with ``m = k * c``
        every integer near ``m`` is a double, rounding is monotone, and an ``x`` that
        is not ``m`` puts ``x / c`` at least ``1 / c`` from ``k``, more than half the
        spacing of doubles at ``k`` (``|k| * 2**-53``) when ``|k * c| < 2**53``; so
        ``round(round(x) / c)`` is on the same side of ``k`` as ``x / c``, and equal
        to ``k`` exactly when ``x`` is ``m``.
        """
        if not _DIVISION_MIRRORED:
            return None
        op = COMPARISON_OPS[type(node)]
        for side, other, flipped in ((node.this, node.expression, False),
                                     (node.expression, node.this, True)):  # fmt: skip
            div = side.unnest() if isinstance(side, exp.Paren) else side
            if not isinstance(div, exp.Div):
                continue
            c, k = _int_literal_value(div.right), _int_literal_value(other)
            if c is None or k is None or c == 0 or abs(k * c) >= 2**52:
                return None
            if div.args.get("typed") and all(
                e.is_type(*exp.DataType.INTEGER_TYPES) for e in (div.left, div.right)
            ):
                return None  # integer division (a source dialect's), translated as such
            x = self.value(div.left)
            if x.kind != "int":
                return None
            if flipped != (c < 0):  # k op x / c, or a negative c: the order turns
                op = _MIRRORED_ORDER.get(op, op)
            return compare(op, x, constant(k * c, "int"))
        return None

    @staticmethod
    def _year_of(node: exp.Expr) -> exp.Expr | None:
        """The operand of ``YEAR(x)`` / ``EXTRACT(YEAR FROM x)``, read off its DuckDB
        rendering as :meth:`_date_part` reads it (inside parentheses too: a derived
        table's column, substituted, comes in them); None for anything else."""
        node = node.unnest()
        if not isinstance(node, exp.Year | exp.Extract):
            return None
        part, operand = _date_part_of(node)
        return operand if part == "YEAR" else None

    def _null_safe(self, node: exp.Binary) -> SymBool:
        a, b = self._operands([node.this, node.expression])
        holds = same(a, b)
        if isinstance(node, exp.NullSafeNEQ):
            holds = bool_not(holds)
        return SymBool(holds, bool_not(holds))

    def _and(self, node: exp.And) -> SymBool:
        return self.conjunction(list(node.flatten()))

    def conjunction(self, conjuncts: Sequence[exp.Expr]) -> SymBool:
        """The AND of ``conjuncts``' predicates, a year's month or quarter read as a range
        (:meth:`_month_windows`)."""
        windows = self._month_windows(conjuncts)
        replaced = {i for pair in windows for i in pair}
        rest = [self.predicate(n) for i, n in enumerate(conjuncts) if i not in replaced]
        return and_(*windows.values(), *rest)

    def _month_windows(self, conjuncts: Sequence[exp.Expr]) -> dict[tuple[int, int], SymBool]:
        """``YEAR(x) = c AND MONTH(x) = m`` (or ``QUARTER(x) = q``) among ``conjuncts``,
        for integer literals and one date or timestamp ``x``, as the month's (quarter's)
        range of ``x``, keyed by the two conjuncts' positions.

        Each conjunct alone is true, false or unknown (``x`` NULL) as their conjunction
        is with the range, so AND of the rest is unchanged; but a month or a quarter
        alone recurs every year and stays calendar arithmetic, whose divisions cost z3
        integer cuts (a third of a second for ``year(placed_at) = 2026 AND
        quarter(placed_at) = 3`` against a range of ``placed_at``).
        """
        years: dict[str, tuple[int, int, exp.Expr]] = {}
        parts: dict[str, tuple[int, str, int]] = {}
        for i, conjunct in enumerate(conjuncts):
            if not isinstance(conjunct, exp.EQ):
                continue
            for side, other in ((conjunct.this, conjunct.expression),
                                (conjunct.expression, conjunct.this)):  # fmt: skip
                node, k = side.unnest(), _int_literal_value(other)
                if k is None or type(node) not in _DATE_PARTS:
                    continue
                part, operand = _date_part_of(node)
                key = _rendered(operand)
                if part == "YEAR":
                    years.setdefault(key, (i, k, operand))
                elif part in ("MONTH", "QUARTER"):
                    parts.setdefault(key, (i, part, k))
                break
        windows: dict[tuple[int, int], SymBool] = {}
        for key, (j, part, k) in parts.items():
            if key not in years:
                continue
            i, year, operand = years[key]
            first = k if part == "MONTH" else 3 * (k - 1) + 1
            start = calendar.month_start(year, first)  # None for a month or quarter past 12 or 4
            window = None if start is None else calendar.truncation_range(part, start)
            x = self.value(operand)
            if window is None or x.kind not in ("date", "timestamp"):
                continue
            m = _micros(x)
            windows[(i, j)] = _known_test(
                x, constant(year, "int"), bool_and(m >= window[0], m < window[1])
            )
        return windows

    def _or(self, node: exp.Or) -> SymBool:
        return or_(*[self.predicate(n) for n in node.flatten()])

    def _not(self, node: exp.Not) -> SymBool:
        return not_(self.predicate(node.this))

    def _is(self, node: exp.Is) -> SymBool:
        target = node.expression
        if isinstance(target, exp.Null):
            operand = self.value(node.this)
            holds = operand.null
        elif isinstance(target, exp.Boolean):
            p = self.predicate(node.this)
            holds = p.true if target.this else p.false
        else:
            raise Unsupported(f"IS with {_snippet(target)}")
        if node.args.get("negate"):
            holds = bool_not(holds)
        return SymBool(holds, bool_not(holds))

    def _in(self, node: exp.In) -> SymBool:
        if node.args.get("query") is not None:
            raise Unsupported(f"IN with a subquery ({_snippet(node)}) without a hook")
        if node.args.get("unnest") is not None or node.args.get("field") is not None:
            raise Unsupported(f"IN over an array ({_snippet(node)})")
        items = node.expressions
        if not items:
            raise Unsupported("an empty IN list")
        values = self._operands([node.this, *items])
        return or_(*[compare("=", values[0], v) for v in values[1:]])

    def _between(self, node: exp.Between) -> SymBool:
        x, low, high = self._operands([node.this, node.args["low"], node.args["high"]])
        forward = and_(compare(">=", x, low), compare("<=", x, high))
        if node.args.get("symmetric"):
            return or_(forward, and_(compare(">=", x, high), compare("<=", x, low)))
        return forward

    def _like(self, node: exp.Like | exp.ILike, escape: str | None = None) -> SymBool:
        pattern_node = node.expression
        if isinstance(pattern_node, (exp.Any, exp.All)):
            raise Unsupported(f"LIKE ANY/ALL ({_snippet(node)})")
        fold = isinstance(node, exp.ILike)
        subject = self.value(node.this)
        if subject.kind not in ("text", "other"):
            raise Unsupported(f"LIKE on a {subject.kind} value")
        if fold and not _ascii_literals(node.this):
            raise Unsupported("ILIKE on non-ASCII text (Unicode case folding)")
        if isinstance(pattern_node, exp.Null) or subject.kind == "other":
            result = SymBool(_NO_ERROR, _NO_ERROR)
        else:
            if not _is_string_literal(pattern_node):
                raise Unsupported(f"LIKE with a pattern that is not a literal ({_snippet(node)})")
            _text_constant(pattern_node.name + (escape or ""))  # the alphabet check
            regex = like_regex(pattern_node.name, escape=escape, fold=fold)
            matches = z3.InRe(subject.value, regex)
            present = bool_not(subject.null)
            result = SymBool(bool_and(present, matches), bool_and(present, bool_not(matches)))
        return not_(result) if node.args.get("negate") else result

    def _escape(self, node: exp.Escape) -> SymBool:
        inner, escape = node.this, node.expression
        if not isinstance(inner, (exp.Like, exp.ILike)) or not _is_string_literal(escape):
            raise Unsupported(f"ESCAPE ({_snippet(node)})")
        return self._like(inner, escape.name)

    # -- conditional expressions -------------------------------------------------

    def _case(self, node: exp.Case) -> SymValue:
        operand = node.this
        ifs = node.args.get("ifs") or []
        default = node.args.get("default")
        conditions: list[z3.BoolRef] = []
        taken = z3.BoolVal(True)  # no earlier WHEN matched
        arms: list[exp.Expr] = []
        subject = self.value(operand) if operand is not None else None
        for arm in ifs:
            if subject is not None and operand is not None:
                # CASE x WHEN v: x is evaluated once and compared with each v.
                when = self._guarded_comparison(taken, operand, subject, arm.this)
            else:
                when = self._guarded_predicate(taken, arm.this)
            conditions.append(bool_and(taken, when.true))
            taken = bool_and(taken, bool_not(when.true))
            arms.append(arm.args["true"])
        branches = [self._guarded(c, n) for c, n in zip(conditions, arms, strict=True)]
        branches.append(self._guarded(taken, default) if default else null_of("other"))
        return self._choose(conditions, branches, [*arms, default])

    def _guarded_comparison(
        self, guard: z3.BoolRef, left: exp.Expr, subject: SymValue, right: exp.Expr
    ) -> SymBool:
        self._guards.append(guard)
        try:
            a, b = self._harmonize([left, right], [subject, self.value(right)])
            return compare("=", a, b)
        finally:
            self._guards.pop()

    def _guarded_predicate(self, guard: z3.BoolRef, node: exp.Expr) -> SymBool:
        self._guards.append(guard)
        try:
            return self.predicate(node)
        finally:
            self._guards.pop()

    def _choose(
        self,
        conditions: Sequence[z3.BoolRef],
        branches: Sequence[SymValue],
        nodes: Sequence[exp.Expr | None],
    ) -> SymValue:
        """``branches[k]`` under ``conditions[k]`` (the first that holds), else the last branch."""
        branches = unify_all(self._harmonize(nodes, branches))
        result = branches[-1]
        for cond, branch in zip(reversed(conditions), reversed(branches[:-1]), strict=True):
            result = ite(cond, branch, result)
        return result

    def _if(self, node: exp.If) -> SymValue:
        cond = self.predicate(node.this).true
        yes = self._guarded(cond, node.args["true"])
        false_node = node.args.get("false")
        no = self._guarded(bool_not(cond), false_node) if false_node else null_of("other")
        return self._choose([cond], [yes, no], [node.args["true"], false_node])

    def _coalesce(self, node: exp.Coalesce) -> SymValue:
        nodes = [node.this, *node.expressions]
        values: list[SymValue] = []
        earlier_null = z3.BoolVal(True)
        for arg in nodes:
            v = self._guarded(earlier_null, arg) if values else self.value(arg)
            values.append(v)
            earlier_null = bool_and(earlier_null, v.null)
        values = unify_all(self._harmonize(nodes, values))
        result = values[-1]
        for v in reversed(values[:-1]):
            result = ite(bool_not(v.null), v, result)
        return result

    def _nullif(self, node: exp.Nullif) -> SymValue:
        a_node, b_node = node.this, node.expression
        a, b = self._operands([a_node, b_node])
        # The comparison happens in the common type; the result keeps a's type.
        equal = compare("=", a, b).true
        return replace(a, null=bool_or(a.null, equal))

    # -- arithmetic -----------------------------------------------------------------

    def _arith(self, node: exp.Binary) -> SymValue:
        op = _ARITH_OPS[type(node)]
        interval = self._interval_operand(node)
        if interval is not None:
            return interval
        a, b = self._numeric_operands(node)
        result, error = arith.arith(op, a, b)
        self._record(error)
        return result

    def _interval_operand(self, node: exp.Binary) -> SymValue | None:
        left, right = node.this, node.expression
        if not isinstance(right, exp.Interval) and not isinstance(left, exp.Interval):
            return None
        if isinstance(left, exp.Interval) and isinstance(right, exp.Interval):
            raise Unsupported("INTERVAL arithmetic")
        if isinstance(left, exp.Interval):
            if not isinstance(node, exp.Add):
                raise Unsupported("INTERVAL - value")
            left, right = right, left
        micros = _interval_micros(right)
        if isinstance(node, exp.Sub):
            micros = -micros
        elif not isinstance(node, exp.Add):
            raise Unsupported(f"INTERVAL with {type(node).__name__}")
        result, error = arith.add_interval(self.value(left), micros)
        self._record(error)
        return result

    def _date_shift(self, node: exp.DateAdd | exp.DateSub) -> SymValue:
        """``DATE_ADD(d, INTERVAL n UNIT)`` / ``DATE_SUB`` (MySQL's, DuckDB's): DuckDB runs
        them as ``d +/- INTERVAL 'n' UNIT`` (a TIMESTAMP), for a fixed-length unit."""
        unit, amount = node.args.get("unit"), node.expression
        sign = "-" if isinstance(node, exp.DateSub) else "+"
        runs_as = f"{_rendered(node.this)} {sign} INTERVAL "
        if not _rendered(node).startswith(runs_as):
            raise Unsupported(f"the date arithmetic {_snippet(node)}")  # runs as something else
        if unit is None and isinstance(amount, exp.Interval):
            micros = _interval_micros(amount)  # DuckDB's own DATE_ADD(d, INTERVAL ...)
        elif unit is not None and isinstance(amount, exp.Literal):
            interval = exp.Interval(this=exp.Literal.string(amount.name), unit=unit.copy())
            micros = _interval_micros(interval)
        else:
            raise Unsupported(f"the date arithmetic {_snippet(node)}")
        result, error = arith.add_interval(
            self.value(node.this), -micros if isinstance(node, exp.DateSub) else micros
        )
        self._record(error)
        return result

    def _numeric_operands(self, node: exp.Binary) -> tuple[SymValue, SymValue]:
        nodes = [node.this, node.expression]
        if any(_is_string_literal(n) for n in nodes):
            raise Unsupported(f"a string literal in arithmetic ({_snippet(node)})")
        a, b = _adapt_int_literals(nodes, [self.value(n) for n in nodes])
        return a, b

    def _div(self, node: exp.Div) -> SymValue:
        if not _DIVISION_MIRRORED:
            raise Unsupported("division (sqlglot's DuckDB division rules changed)")
        left, right = node.left, node.right
        a, b = self._numeric_operands(node)
        if node.args.get("safe"):
            # DuckDB has no safe division: sqlglot divides by NULLIF(divisor, 0).
            zero = b.value == 0 if b.kind != "float" else z3.fpIsZero(b.value)
            b = replace(b, null=bool_or(b.null, zero)) if b.kind != "other" else b
        if (
            node.args.get("typed")
            and left.is_type(*exp.DataType.INTEGER_TYPES)
            and right.is_type(*exp.DataType.INTEGER_TYPES)
        ):
            literal_or_cast = all(e.is_int or isinstance(e, exp.Cast) for e in (left, right))
            if node.args.get("safe") and literal_or_cast:
                result, error = arith.int_divide(a, b)  # rendered as a // b
            else:
                result, error = arith.trunc_divide(a, b)  # CAST(TRUNC(a / b) AS BIGINT)
        else:
            result, error = arith.divide(a, b)
        self._record(error)
        return result

    def _int_div(self, node: exp.IntDiv) -> SymValue:
        a, b = self._numeric_operands(node)
        result, error = arith.int_divide(a, b)
        self._record(error)
        return result

    def _mod(self, node: exp.Mod) -> SymValue:
        a, b = self._numeric_operands(node)
        result, error = arith.modulo(a, b)
        self._record(error)
        return result

    def _neg(self, node: exp.Neg) -> SymValue:
        literal = _int_literal_value(node)
        if literal is not None:
            return constant(literal, "int")
        inner = node.this.this if isinstance(node.this, exp.Paren) else node.this
        if isinstance(inner, exp.Literal) and not inner.is_string:
            return _number("-" + inner.name)
        result, error = arith.negate(self.value(node.this))
        self._record(error)
        return result

    def _abs(self, node: exp.Abs) -> SymValue:
        result, error = arith.absolute(self.value(node.this))
        self._record(error)
        return result

    def _dpipe(self, node: exp.DPipe) -> SymValue:
        if _DUCKDB.STRICT_STRING_CONCAT and node.args.get("safe"):
            raise Unsupported("|| rendered as CONCAT")
        parts = node.flatten()
        result = self.value(next(parts))
        for part in parts:
            result, error = arith.concat(result, self.value(part))
            self._record(error)
        return result

    def _length(self, node: exp.Length) -> SymValue:
        if node.args.get("binary"):
            raise Unsupported("LENGTH of binary values")
        result, error = arith.length(self.value(node.this))
        self._record(error)
        return result

    def _cast(self, node: exp.Cast) -> SymValue:
        for arg in ("format", "action", "default", "requires_string", "null_on_text_overflow"):
            if node.args.get(arg):
                raise Unsupported(f"CAST with {arg.upper()} ({_snippet(node)})")
        if node.args.get("probe_date_format"):
            raise Unsupported(f"TRY_CAST with date probing ({_snippet(node)})")
        safe = isinstance(node, exp.TryCast)
        if node.args.get("safe") and not safe:
            raise Unsupported(f"a safe CAST ({_snippet(node)})")
        target = arith.cast_target(node.to)
        source = node.this
        if _is_string_literal(source):
            # Only unambiguous spellings are accepted, for TRY_CAST too: a
            # spelling we refuse might still be one DuckDB reads.
            return self._string_literal(source.name, target)
        return self._cast_value(self.value(source), target, safe=safe)

    def _cast_value(self, value: SymValue, target: SymValue, *, safe: bool) -> SymValue:
        try:
            result, error = arith.cast(value, target)
        except Unsupported:
            if not _uninterpreted_cast(value, target):
                raise
            # A cast is deterministic: what the arithmetic does not model of the casts
            # DuckDB has is an uninterpreted function of the two types (see .functions).
            name = "try_cast" if safe else "cast"
            return functions.uninterpreted(name, [value], target, may_be_null=safe)
        if safe:
            return replace(result, null=bool_or(result.null, error))
        self._record(error)
        return result

    def _to_date(self, node: exp.TsOrDsToDate) -> SymValue:
        # MySQL's DATE(x) and similar: sqlglot renders them as a plain cast for DuckDB
        # (and a conversion of a conversion as the inner one).
        rendered, inner = _rendered(node), _rendered(node.this)
        if rendered == inner and isinstance(node.this, exp.TsOrDsToDate):
            return self.value(node.this)
        if rendered != f"CAST({inner} AS DATE)":
            raise Unsupported(f"the date conversion {_snippet(node)}")
        return self._cast_value(self.value(node.this), null_of("date"), safe=False)

    def _date_diff(self, node: exp.DateDiff) -> SymValue:
        # sqlglot keeps the end first (``this``) and renders DuckDB's DATE_DIFF(unit,
        # start, end); read the unit and the order off that rendering.
        start, end = node.expression, node.this
        match = re.fullmatch(
            rf"DATE_DIFF\('(\w+)', {re.escape(_rendered(start))}, {re.escape(_rendered(end))}\)",
            _rendered(node),
        )
        if not match:
            raise Unsupported(f"the date difference {_snippet(node)}")
        args = [constant(match.group(1), "text"), self.value(start), self.value(end)]
        exact = functions.exact_call("date_diff", args)
        if exact is None:
            raise Unsupported(f"the date difference {_snippet(node)}")
        result, error = exact
        self._record(error)
        return result

    # -- other functions ----------------------------------------------------------------

    def _function(self, node: exp.Func) -> SymValue:
        """An exact term where :mod:`.functions` has one, else an uninterpreted function."""
        opaque = _opaque_kind(node)
        if opaque is not None:
            # SQLite's own expression, made opaque by sqlequiv.execute.opaque: strict,
            # deterministic, and possibly NULL (a malformed date), nothing more known.
            args = [self.value(arg) for arg in node.expressions]
            result = null_of(opaque, bits=64)
            return functions.uninterpreted(node.name.lower(), args, result, may_be_null=True)
        name = function_name(node).upper()
        if varies_between_runs(node):
            raise Unsupported(f"the function {name} (its value may change between calls)")
        call = functions.duckdb_call(node)
        if call is None:
            raise Unsupported(f"the function {name} ({_snippet(node)})")
        args = [self.value(arg) for arg in call.args]
        exact = functions.exact_call(call.name, args)
        if exact is not None:
            result, error = exact
            self._record(error)
            return result
        listed = functions.listed_call(call.name, args)
        if listed is None:
            raise Unsupported(f"the function {name} ({_snippet(node)})")
        return listed

    # -- dates ------------------------------------------------------------------------

    def _date_part(self, node: exp.Expr) -> SymValue:
        part, operand = _date_part_of(node)
        if part is None:
            raise Unsupported(f"the date part {_snippet(node)}")
        return calendar.date_part(part, self.value(operand))

    def _date_trunc(self, node: exp.Expr) -> SymValue:
        unit, as_date = _truncation(node)
        if unit is None:
            raise Unsupported(f"the truncation {_snippet(node)}")
        result = calendar.date_trunc(unit, self.value(node.this))
        if as_date:
            result, error = arith.cast(result, null_of("date"))
            self._record(error)
        return result


#: The kind of value each class of opaque call (:mod:`sqlequiv.policy.opaque`) is.
_OPAQUE_KINDS: dict[str, Kind] = {"text": "text", "int": "int", "real": "float"}


def _opaque_kind(node: exp.Func) -> Kind | None:
    """The kind of an opaque call's value; None for any other function."""
    opaque = opaque_class(node)
    return _OPAQUE_KINDS[opaque] if opaque is not None else None


def _micros(x: SymValue) -> z3.ArithRef:
    """A date or timestamp as microseconds since 1970 (a date is its midnight)."""
    return x.value * MICROS_PER_DAY if x.kind == "date" else x.value


def _known_test(x: SymValue, bound: SymValue, holds: z3.BoolRef) -> SymBool:
    """``holds`` (a test of ``x``) as a predicate that is unknown when ``x`` or the
    constant it is compared with (``bound``) is NULL."""
    known = bool_not(bool_or(x.null, bound.null))
    return SymBool(bool_and(known, holds), bool_and(known, bool_not(holds)))


def _date_part_of(node: exp.Expr) -> tuple[str | None, exp.Expr]:
    """The field a date-part node (``EXTRACT``, ``YEAR``, ``MONTH``, ...) extracts (upper
    case; None if not read) and its operand: the field is read off the DuckDB rendering,
    as :func:`_truncation` reads a unit, rather than guessed from the node's class."""
    operand = node.expression if isinstance(node, exp.Extract) else node.this
    rendered, inner = _rendered(node), re.escape(_rendered(operand))
    found = re.fullmatch(rf"EXTRACT\((\w+) FROM {inner}\)", rendered) or re.fullmatch(
        rf"(\w+)\({inner}\)", rendered
    )
    return (found.group(1).upper() if found else None), operand


def _truncation(node: exp.Expr) -> tuple[str | None, bool]:
    """The unit a DATE_TRUNC truncates to (upper case; None if not read), and whether
    the result is cast back to DATE: sqlglot renders some dialects' DATE_TRUNC so, and
    the meaning is read off the DuckDB rendering rather than guessed."""
    rendered = _rendered(node)
    core = rf"DATE_TRUNC\('(\w+)', {re.escape(_rendered(node.this))}\)"
    plain = re.fullmatch(core, rendered)
    as_date = re.fullmatch(rf"CAST\({core} AS DATE\)", rendered)
    found = plain or as_date
    return (found.group(1).upper() if found else None), as_date is not None


def _uninterpreted_cast(value: SymValue, target: SymValue) -> bool:
    """Casts left uninterpreted: text to any type, any type to text, DOUBLE to DECIMAL."""
    if value.kind == "other":
        return False
    return "text" in (value.kind, target.kind) or (value.kind, target.kind) == ("float", "decimal")


#: z3's strings range over code points up to U+2FFFF, DuckDB's up to U+10FFFF. A proof
#: over z3's alphabet still holds for DuckDB's when every DuckDB counterexample maps
#: into it by an order-preserving renaming of characters that fixes those of the
#: literals: characters above the literals' then take the room left above them. Keeping
#: literals below U+20000 leaves 65,536 such characters, far more than the string
#: terms a query of the accepted size can tell apart. Without this, ``LEFT(s, 1) >
#: '\U0002FFFF'`` (or ``s LIKE '_' AND ...``) is "never true" to z3, but U+30000 is a
#: character DuckDB stores.
_MAX_LITERAL_CHAR = 0x1FFFF


def _text_constant(text: str) -> SymValue:
    if any(ord(char) > _MAX_LITERAL_CHAR for char in text):
        raise Unsupported("a string literal with a character beyond U+1FFFF (z3's alphabet)")
    return constant(text, "text")


def _rendered(node: exp.Expr) -> str:
    return node.sql("duckdb")


def _snippet(node: exp.Expr) -> str:
    try:
        text = node.sql("duckdb")
    except Exception:  # an unsupported node may not render; its class name still says what it is
        text = type(node).__name__
    return text if len(text) <= 60 else text[:57] + "..."


#: Digits of the widest integer DuckDB types a literal as (HUGEINT: 2**127 has 39).
_MAX_INT_DIGITS = 39


def _number(text: str) -> SymValue:
    """A numeric literal as DuckDB types it: INTEGER/BIGINT/HUGEINT, DECIMAL(p, s) or DOUBLE."""
    body = text.lstrip("+-")
    negative = text.startswith("-")
    if re.fullmatch(r"\d+", body):
        if len(body.lstrip("0")) > _MAX_INT_DIGITS:
            # Past HUGEINT (and, past 4,300 digits, past what int() converts at all).
            raise Unsupported(f"an integer literal of {len(body):,} digits (beyond HUGEINT)")
        return constant(-int(body) if negative else int(body), "int")
    match = re.fullmatch(r"(\d*)\.(\d*)", body)
    if match and (match.group(1) or match.group(2)):
        digits = len(match.group(1)) + len(match.group(2))
        scale = len(match.group(2))
        if digits <= 38:
            unscaled = int((match.group(1) + match.group(2)) or "0")
            value = z3.IntVal(-unscaled if negative else unscaled)
            return SymValue("decimal", value, z3.BoolVal(False), scale, precision=max(digits, 1))
    if re.fullmatch(r"(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", body):
        return SymValue("float", z3.FPVal(float(text), z3.Float64()), z3.BoolVal(False), bits=64)
    raise Unsupported(f"the numeric literal {text}")


def _adapt_int_literals(
    nodes: Sequence[exp.Expr | None], values: Sequence[SymValue]
) -> list[SymValue]:
    """Give integer literals the width of the other integer operands when they fit.

    DuckDB types ``tinyint_col + 1`` as TINYINT (and overflows there), but
    ``tinyint_col + 300`` as INTEGER.
    """
    literal = [n is not None and _int_literal_value(n) is not None for n in nodes]
    widths = [
        v.bits for v, lit in zip(values, literal, strict=False) if v.kind == "int" and not lit
    ]
    if not widths or not any(literal):
        return list(values)
    width = max(widths)
    low, high = int_range(width)
    adapted = []
    for v, node, lit in zip(values, nodes, literal, strict=False):
        number = _int_literal_value(node) if lit and node is not None else None
        fits = number is not None and v.kind == "int" and low <= number <= high
        adapted.append(replace(v, bits=width) if fits else v)
    return adapted


def _interval_micros(node: exp.Interval) -> int:
    """A fixed-length INTERVAL literal in microseconds."""
    this = node.this
    unit = node.args.get("unit")
    text = this.name if isinstance(this, exp.Literal) else None
    if text is None:
        raise Unsupported(f"a non-literal INTERVAL ({_snippet(node)})")
    match = _INTERVAL_TEXT.fullmatch(text)
    if not match:
        raise Unsupported(f"the INTERVAL {_snippet(node)}")
    amount, inline_unit = int(match.group(1)), match.group(2)
    unit_name = (unit.name if unit is not None else inline_unit).upper()
    if inline_unit and unit is not None:
        raise Unsupported(f"the INTERVAL {_snippet(node)}")
    unit_name = unit_name[:-1] if unit_name.endswith("S") else unit_name
    if unit_name not in _INTERVAL_UNITS:
        raise Unsupported(f"INTERVAL in {unit_name or 'unknown'} units (not a fixed length)")
    return amount * _INTERVAL_UNITS[unit_name]


def _ascii_literals(node: exp.Expr) -> bool:
    """Whether every string literal inside ``node`` is ASCII."""
    return all(lit.name.isascii() for lit in node.find_all(exp.Literal) if lit.is_string)


# Handlers take the node's own class; the table is typed loosely for that reason.
_HANDLERS: dict[type[exp.Expr], Callable[..., SymValue | SymBool]] = {
    exp.Column: Translator._column,
    exp.Literal: Translator._literal,
    exp.Boolean: Translator._boolean,
    exp.Null: Translator._null,
    exp.Paren: Translator._paren,
    exp.Alias: Translator._paren,
    exp.EQ: Translator._comparison,
    exp.NEQ: Translator._comparison,
    exp.LT: Translator._comparison,
    exp.LTE: Translator._comparison,
    exp.GT: Translator._comparison,
    exp.GTE: Translator._comparison,
    exp.NullSafeEQ: Translator._null_safe,
    exp.NullSafeNEQ: Translator._null_safe,
    exp.And: Translator._and,
    exp.Or: Translator._or,
    exp.Not: Translator._not,
    exp.Is: Translator._is,
    exp.In: Translator._in,
    exp.Between: Translator._between,
    exp.Like: Translator._like,
    exp.ILike: Translator._like,
    exp.Escape: Translator._escape,
    exp.Case: Translator._case,
    exp.If: Translator._if,
    exp.Coalesce: Translator._coalesce,
    exp.Nullif: Translator._nullif,
    exp.Add: Translator._arith,
    exp.Sub: Translator._arith,
    exp.DateAdd: Translator._date_shift,
    exp.DateSub: Translator._date_shift,
    exp.Mul: Translator._arith,
    exp.Div: Translator._div,
    exp.IntDiv: Translator._int_div,
    exp.Mod: Translator._mod,
    exp.Neg: Translator._neg,
    exp.Abs: Translator._abs,
    exp.DPipe: Translator._dpipe,
    exp.Length: Translator._length,
    exp.Cast: Translator._cast,
    exp.TryCast: Translator._cast,
    exp.TsOrDsToDate: Translator._to_date,
    exp.DateDiff: Translator._date_diff,
    exp.Extract: Translator._date_part,
    exp.Year: Translator._date_part,
    exp.Month: Translator._date_part,
    exp.Day: Translator._date_part,
    exp.Quarter: Translator._date_part,
    exp.DayOfWeek: Translator._date_part,
    exp.DayOfYear: Translator._date_part,
    exp.TimestampTrunc: Translator._date_trunc,
    exp.DateTrunc: Translator._date_trunc,
}
#: The node classes :meth:`Translator._date_part` translates.
_DATE_PARTS = frozenset(k for k, rule in _HANDLERS.items() if rule is Translator._date_part)
