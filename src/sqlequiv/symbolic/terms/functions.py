"""Scalar function calls: exact terms where z3 models DuckDB exactly, else sound
uninterpreted functions.

A call is first read off its DuckDB rendering (:func:`duckdb_call`): the query
runs ``.duckdb_sql``, so what a call means is what DuckDB does with
``NAME(arg1, ..., argn)``. A call is only translated when its rendering is
exactly that, with each argument rendered as it is on its own; anything else
(a dialect rewrite that adds a CASE around an argument, say) is
:class:`Unsupported`.

Exact terms (:func:`exact_call`) -- checked against DuckDB in
``tests/test_symbolic_functions.py``:

* ``SUBSTRING(s, start[, length])`` with constant ``start >= 1`` and
  ``length >= 0``; ``LEFT``/``RIGHT(s, n)`` with constant ``n >= 0``. DuckDB
  counts code points, as z3's strings do;
* ``STRPOS``/``INSTR``, ``CONTAINS``, ``STARTS_WITH``/``PREFIX``,
  ``ENDS_WITH``/``SUFFIX``;
* ``CONCAT`` (DuckDB's skips NULLs) of text, integers and decimals;
* ``GREATEST``/``LEAST`` (which skip NULLs too), in the arguments' common type;
* ``FLOOR``/``CEIL`` of decimals (``DECIMAL(p, 0)``) and floats;
* ``DATE_PART('year' | 'month' | 'dow' | ..., x)``, as :mod:`.calendar` extracts them;
* ``DATE_DIFF('day' | 'month' | 'quarter' | 'year', a, b)`` of dates and
  timestamps: the number of boundaries crossed, from the calendar fields;
* ``ROUND(x[, n])`` of an integer or decimal with a constant ``n``: half away
  from zero, with DuckDB's result type (an integer keeps its type and errs on
  overflow; ``DECIMAL(p, s)`` becomes ``DECIMAL(p, min(n, s))`` for
  ``n >= 0``, ``DECIMAL(max(p, p - s + 1), 0)`` for ``n < 0``).

Uninterpreted functions (:func:`uninterpreted`) for the deterministic functions
listed in :data:`SIGNATURES` and for casts the arithmetic does not model
(text to DATE or INTEGER, dates to text, ...). ``f(x1, ..., xn)`` becomes the
application of a z3 function named after the engine, the function, the
argument types and the result type. Any proof then holds for every function of
those types, DuckDB's included, because a deterministic function gives equal
results on equal arguments and that is all z3 assumes. What makes this sound:

* only functions known to be deterministic (never volatile, never the clock:
  their list is an allowlist, not a denylist), whose result type follows from
  the argument types by a rule checked against DuckDB's ``typeof``;
* NULL: every listed function is strict (a NULL argument gives NULL) and
  gives a value on non-NULL arguments (checked against DuckDB on samples of
  every argument type); ``TRY_CAST``
  may also give NULL, through a second uninterpreted predicate;
* runtime errors: a listed function may raise on some inputs (a cast of
  ``'x'`` to DATE or INTEGER). The layer's convention covers that: a
  database on which a query fails at run time is outside every claim (the
  search does not count it, bounded verification excludes it), and on every
  other database the function's value is what the term stands for.

Witness generation and bounded verification share these terms: a model
interprets each function freely, so its database is only a candidate, which
the search and the pipeline execute on DuckDB before anything is reported; an
UNSAT answer holds for every interpretation and therefore for DuckDB's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import sqlglot
import z3
from sqlglot import exp

from sqlequiv.symbolic.terms import calendar
from sqlequiv.symbolic.terms.arith import Result, decimal_text, int_text, round_half_away
from sqlequiv.symbolic.terms.domain import MICROS_PER_DAY
from sqlequiv.symbolic.terms.formulas import bool_and, bool_not, bool_or
from sqlequiv.symbolic.terms.sqlvalue import (
    MAX_PRECISION,
    SymValue,
    Unsupported,
    compare,
    fp_sort,
    int_range,
    ite,
    null_of,
    text_value,
    to_float,
    unify_all,
)

__all__ = [
    "ENGINE",
    "SIGNATURES",
    "Call",
    "duckdb_call",
    "exact_call",
    "listed_call",
    "type_name",
    "uninterpreted",
]

#: The engine whose functions the terms stand for (the translator means DuckDB).
ENGINE = "duckdb"

_NO_ERROR = z3.BoolVal(False)
_CALL = re.compile(r"([A-Za-z_][A-Za-z_0-9]*)\((.*)\)", re.S)


@dataclass(frozen=True)
class Call:
    """A function call as DuckDB runs it: its lower-case name and its argument nodes."""

    name: str
    args: tuple[exp.Expr, ...]


def duckdb_call(node: exp.Func) -> Call | None:
    """``node`` as ``NAME(arg, ...)`` in its DuckDB rendering, or None when it is not one.

    Example:
        >>> call = duckdb_call(sqlglot.parse_one("SUBSTRING(x FROM 2 FOR 3)", read="trino"))
        >>> call.name, [a.sql() for a in call.args]
        ('substring', ['x', '2', '3'])
        >>> duckdb_call(sqlglot.parse_one("SUBSTRING(x, 2, 3)", read="spark")) is None
        True
    """
    try:
        rendered = node.sql("duckdb")
    except Exception:  # a node the generator cannot render is no call we can read
        return None
    match = _CALL.fullmatch(rendered)
    if not match:
        return None
    children: list[exp.Expr] = []
    for value in node.args.values():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, exp.Expr):
                children.append(item)
    rendered_args = [child.sql("duckdb") for child in children]
    if rendered != f"{match.group(1)}({', '.join(rendered_args)})":
        return None
    # An argument whose own rendering has a top-level comma would split differently
    # when DuckDB reads the call: parse it back and count.
    try:
        reparsed = sqlglot.parse_one(rendered, read="duckdb")
    except sqlglot.errors.SqlglotError:
        return None
    again = [
        item
        for value in reparsed.args.values()
        for item in (value if isinstance(value, list) else [value])
        if isinstance(item, exp.Expr)
    ]
    if [a.sql("duckdb") for a in again] != rendered_args:
        return None
    return Call(match.group(1).lower(), tuple(children))


def type_name(v: SymValue) -> str:
    """DuckDB's name of ``v``'s type, as the keys of uninterpreted functions spell it."""
    if v.kind == "int":
        return {8: "TINYINT", 16: "SMALLINT", 32: "INTEGER", 64: "BIGINT"}.get(v.bits, "HUGEINT")
    if v.kind == "decimal":
        return f"DECIMAL({v.precision},{v.scale})"
    if v.kind == "float":
        return "REAL" if v.bits == 32 else "DOUBLE"
    return {"text": "VARCHAR", "bool": "BOOLEAN", "date": "DATE", "timestamp": "TIMESTAMP"}.get(
        v.kind, "NULL"
    )


def _sort(v: SymValue) -> z3.SortRef:
    if v.kind in ("int", "decimal", "date", "timestamp"):
        return z3.IntSort()
    if v.kind == "float":
        return fp_sort(v.bits)
    if v.kind == "text":
        return z3.StringSort()
    if v.kind == "bool":
        return z3.BoolSort()
    raise Unsupported(f"an uninterpreted function over {v.kind} values")


def uninterpreted(
    name: str, args: Sequence[SymValue], result: SymValue, *, may_be_null: bool = False
) -> SymValue:
    """A strict deterministic function of ``args`` with the type of ``result``, uninterpreted.

    Its value is ``f(args)`` for a z3 function ``f`` keyed by the engine, ``name``,
    the argument types and the result type; it is NULL when an argument is NULL (and,
    with ``may_be_null``, when an uninterpreted predicate of the arguments says so).

    Example:
        >>> x = SymValue("text", z3.String("x"), z3.Bool("x!null"))
        >>> up = uninterpreted("upper", [x], null_of("text"))
        >>> str(up.value), str(up.null)
        ('duckdb:upper(VARCHAR)->VARCHAR(x)', 'x!null')
    """
    if any(a.kind == "other" for a in args):
        return result  # an untyped NULL argument: NULL, as for every strict function
    signature = f"{ENGINE}:{name}({', '.join(type_name(a) for a in args)})"
    key = f"{signature}->{type_name(result)}"
    sorts = [_sort(a) for a in args]
    values = [a.value for a in args]
    value = (
        z3.Function(key, *sorts, _sort(result))(*values) if args else z3.Const(key, _sort(result))
    )
    nulls = [a.null for a in args]
    if may_be_null:
        gives_null = z3.Function(f"{key}!null", *sorts, z3.BoolSort())
        nulls.append(gives_null(*values))
    null = bool_or(*nulls) if len(nulls) > 1 else (nulls[0] if nulls else z3.BoolVal(False))
    return SymValue(result.kind, value, null, result.scale, result.bits, result.precision)


# -- the allowlist of uninterpreted functions ---------------------------------------------

#: Argument classes of a signature: one kind, or a set of kinds DuckDB casts to DOUBLE.
_TEXT = "text"
_INT = "int"
_NUMBER = "number"  # int, decimal or float, cast to DOUBLE (DuckDB's only overload)
_TEMPORAL = "temporal"  # a DATE or a TIMESTAMP; each keeps its own type in the key
_DOUBLE_ARG = "double"  # a DOUBLE (ROUND of an integer or decimal is exact, of a REAL a REAL)

_DOUBLE = null_of("float", bits=64)
_VARCHAR = null_of("text")
_BIGINT = null_of("int", bits=64)

#: Deterministic DuckDB functions translated as uninterpreted functions: name ->
#: accepted argument classes per arity -> result type. All are strict and total on
#: non-NULL well-typed arguments or raise an error (checked against DuckDB).
SIGNATURES: dict[str, dict[tuple[str, ...], SymValue]] = {
    **{
        name: {(_TEXT,): _VARCHAR}
        for name in ("upper", "lower", "ucase", "lcase", "reverse", "md5")
    },
    **{name: {(_TEXT,): _VARCHAR, (_TEXT, _TEXT): _VARCHAR} for name in ("trim", "ltrim", "rtrim")},
    "replace": {(_TEXT, _TEXT, _TEXT): _VARCHAR},
    "lpad": {(_TEXT, _INT, _TEXT): _VARCHAR},
    "rpad": {(_TEXT, _INT, _TEXT): _VARCHAR},
    "repeat": {(_TEXT, _INT): _VARCHAR},
    "substring": {(_TEXT, _INT): _VARCHAR, (_TEXT, _INT, _INT): _VARCHAR},
    "substr": {(_TEXT, _INT): _VARCHAR, (_TEXT, _INT, _INT): _VARCHAR},
    "left": {(_TEXT, _INT): _VARCHAR},
    "right": {(_TEXT, _INT): _VARCHAR},
    "strlen": {(_TEXT,): _BIGINT},
    **{
        name: {(_NUMBER,): _DOUBLE}
        for name in ("sqrt", "cbrt", "ln", "log10", "log2", "exp", "sin", "cos", "tan", "atan")
    },
    "round": {(_DOUBLE_ARG,): _DOUBLE, (_DOUBLE_ARG, _INT): _DOUBLE},
    "power": {(_NUMBER, _NUMBER): _DOUBLE},
    "pow": {(_NUMBER, _NUMBER): _DOUBLE},
    "strftime": {(_TEMPORAL, _TEXT): _VARCHAR},
    "dayname": {(_TEMPORAL,): _VARCHAR},
    "monthname": {(_TEMPORAL,): _VARCHAR},
}


def _fits(arg: SymValue, cls: str) -> bool:
    if cls == _NUMBER:
        return arg.kind in ("int", "decimal", "float") and not (arg.kind == "int" and arg.bits > 64)
    if cls == _DOUBLE_ARG:
        return arg.kind == "float" and arg.bits == 64
    if cls == _TEMPORAL:
        return arg.kind in ("date", "timestamp")
    return arg.kind == cls


def listed_call(name: str, args: Sequence[SymValue]) -> SymValue | None:
    """``name(args)`` as an uninterpreted function if :data:`SIGNATURES` lists it, else None."""
    overloads = SIGNATURES.get(name)
    if overloads is None:
        return None
    typed = [a for a in args if a.kind != "other"]
    for classes, result in overloads.items():
        if len(classes) != len(args):
            continue
        if not all(a.kind == "other" or _fits(a, c) for a, c in zip(args, classes, strict=True)):
            continue
        if len(typed) < len(args):
            return result  # an untyped NULL argument
        converted = [
            SymValue("float", to_float(a, 64), a.null, bits=64) if c == _NUMBER else a
            for a, c in zip(args, classes, strict=True)
        ]
        return uninterpreted(name, converted, result)
    return None


# -- exact terms ----------------------------------------------------------------------------


def _int_constant(v: SymValue) -> int | None:
    if v.kind != "int":
        return None
    simplified = z3.simplify(v.value)
    if z3.is_false(z3.simplify(v.null)) and z3.is_int_value(simplified):
        return int(simplified.as_long())
    return None


def _text(v: SymValue) -> z3.SeqRef:
    if v.kind == "text":
        return v.value
    if v.kind == "int":
        return int_text(v.value)
    if v.kind == "decimal":
        return decimal_text(v.value, v.scale)
    raise Unsupported(f"CONCAT of a {v.kind} value")


def _any_null(args: Sequence[SymValue]) -> z3.BoolRef:
    return bool_or(*[a.null for a in args]) if len(args) > 1 else args[0].null


def _substring(args: Sequence[SymValue]) -> Result | None:
    s = args[0]
    start = _int_constant(args[1])
    length = _int_constant(args[2]) if len(args) == 3 else None
    if s.kind != "text" or start is None or start < 1:
        return None
    if len(args) == 3 and (length is None or length < 0):
        return None
    size = z3.IntVal(length) if length is not None else z3.Length(s.value)
    value = z3.SubString(s.value, start - 1, size)
    return SymValue("text", value, _any_null(args)), _NO_ERROR


def _left(args: Sequence[SymValue]) -> Result | None:
    s, n = args[0], _int_constant(args[1])
    if s.kind != "text" or n is None or n < 0:
        return None
    return SymValue("text", z3.SubString(s.value, 0, n), _any_null(args)), _NO_ERROR


def _right(args: Sequence[SymValue]) -> Result | None:
    s, n = args[0], _int_constant(args[1])
    if s.kind != "text" or n is None or n < 0:
        return None
    length = z3.Length(s.value)
    value = z3.If(length <= n, s.value, z3.SubString(s.value, length - n, n))
    return SymValue("text", value, _any_null(args)), _NO_ERROR


def _texts(args: Sequence[SymValue], arity: int) -> bool:
    return len(args) == arity and all(a.kind == "text" for a in args)


def _strpos(args: Sequence[SymValue]) -> Result | None:
    if not _texts(args, 2):
        return None
    position = z3.IndexOf(args[0].value, args[1].value, 0) + 1  # -1 when absent: 0
    return SymValue("int", position, _any_null(args), bits=64), _NO_ERROR


def _string_test(
    test: Callable[[z3.SeqRef, z3.SeqRef], z3.BoolRef],
) -> Callable[..., Result | None]:
    def translate(args: Sequence[SymValue]) -> Result | None:
        if not _texts(args, 2):
            return None
        return SymValue("bool", test(args[0].value, args[1].value), _any_null(args)), _NO_ERROR

    return translate


def _concat(args: Sequence[SymValue]) -> Result | None:
    # DuckDB's CONCAT skips NULL arguments (never NULL itself); `||` does not.
    if not args or not any(a.kind == "text" for a in args):
        return None
    parts = [z3.If(a.null, text_value(""), _text(a)) for a in args if a.kind != "other"]
    value = parts[0] if len(parts) == 1 else z3.Concat(*parts)
    return SymValue("text", value, z3.BoolVal(False)), _NO_ERROR


def _round(args: Sequence[SymValue]) -> Result | None:
    x = args[0]
    digits = _int_constant(args[1]) if len(args) == 2 else 0
    if digits is None or x.kind not in ("int", "decimal") or abs(digits) > 2 * MAX_PRECISION:
        return None
    present = bool_not(_any_null(args))
    if x.kind == "int":
        if digits >= 0:
            return x, _NO_ERROR
        unit = 10**-digits
        value = round_half_away(x.value, -digits) * unit
        low, high = int_range(x.bits)
        error = bool_and(present, bool_or(value < low, value > high))
        return SymValue("int", value, x.null, bits=x.bits), error
    if digits >= x.scale:
        return x, _NO_ERROR
    if digits >= 0:
        value = round_half_away(x.value, x.scale - digits)
        return SymValue("decimal", value, x.null, digits, precision=x.precision), _NO_ERROR
    precision = min(max(x.precision, x.precision - x.scale + 1), MAX_PRECISION)
    value = round_half_away(x.value, x.scale - digits) * 10**-digits
    bound = 10**precision
    error = bool_and(present, bool_or(value <= -bound, value >= bound))
    return SymValue("decimal", value, x.null, 0, precision=precision), error


def _extreme(largest: bool) -> Callable[[Sequence[SymValue]], Result | None]:
    # DuckDB's GREATEST/LEAST skip NULLs (NULL only when every argument is) and
    # compare in the arguments' common type.
    def translate(args: Sequence[SymValue]) -> Result | None:
        typed = [a for a in args if a.kind != "other"]
        if not typed or any(a.kind == "bool" for a in typed):
            return None
        values = unify_all(typed)
        best = values[0]
        for v in values[1:]:
            better = compare(">" if largest else "<", v, best).true
            best = ite(bool_or(best.null, better), v, best)
        return best, _NO_ERROR

    return translate


def _rounded(up: bool) -> Callable[[Sequence[SymValue]], Result | None]:
    def translate(args: Sequence[SymValue]) -> Result | None:
        (x,) = args
        if x.kind == "float" and x.bits == 64:
            mode = z3.RTP() if up else z3.RTN()
            return replace(x, value=z3.fpRoundToIntegral(mode, x.value)), _NO_ERROR
        if x.kind != "decimal":
            return None  # FLOOR of an integer is a DOUBLE in DuckDB: not modelled
        unit = 10**x.scale
        value = -((-x.value) / unit) if up else x.value / unit  # z3's / floors
        return SymValue("decimal", value, x.null, 0, precision=x.precision), _NO_ERROR

    return translate


def _string_constant(v: SymValue) -> str | None:
    simplified = z3.simplify(v.value)
    if v.kind == "text" and z3.is_string_value(simplified) and z3.is_false(z3.simplify(v.null)):
        return str(simplified.as_string())
    return None


def _date_diff(args: Sequence[SymValue]) -> Result | None:
    unit = _string_constant(args[0])
    a, b = args[1], args[2]
    if unit is None or a.kind not in ("date", "timestamp") or b.kind not in ("date", "timestamp"):
        return None
    unit = unit.strip().upper().removesuffix("S")
    if unit not in ("DAY", "MONTH", "QUARTER", "YEAR"):
        return None  # finer units count boundaries with C++ division: not modelled

    def index(v: SymValue) -> z3.ArithRef:
        days = v.value if v.kind == "date" else v.value / MICROS_PER_DAY
        if unit == "DAY":
            return days
        year, month, _ = calendar.civil(days)
        if unit == "YEAR":
            return year
        if unit == "QUARTER":
            return year * 4 + (month - 1) / 3
        return year * 12 + month - 1

    value = index(b) - index(a)
    return SymValue("int", value, _any_null([a, b]), bits=64), _NO_ERROR


#: DuckDB's names for the fields of ``DATE_PART`` that :mod:`.calendar` extracts.
_DATE_PARTS = {
    **{part: part for part in ("YEAR", "QUARTER", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND")},
    "DOW": "DAYOFWEEK",
    "DAYOFWEEK": "DAYOFWEEK",
    "DOY": "DAYOFYEAR",
    "DAYOFYEAR": "DAYOFYEAR",
}


def _date_part(args: Sequence[SymValue]) -> Result | None:
    part = _string_constant(args[0])
    if part is None or args[1].kind not in ("date", "timestamp"):
        return None
    field = _DATE_PARTS.get(part.strip().upper())
    if field is None:
        return None
    return calendar.date_part(field, args[1]), _NO_ERROR


_EXACT: dict[str, Callable[[Sequence[SymValue]], Result | None]] = {
    "date_part": _date_part,
    "datepart": _date_part,
    "greatest": _extreme(largest=True),
    "least": _extreme(largest=False),
    "floor": _rounded(up=False),
    "ceil": _rounded(up=True),
    "ceiling": _rounded(up=True),
    "date_diff": _date_diff,
    "datediff": _date_diff,
    "substring": _substring,
    "substr": _substring,
    "left": _left,
    "right": _right,
    "strpos": _strpos,
    "instr": _strpos,
    "contains": _string_test(z3.Contains),
    "starts_with": _string_test(lambda s, t: z3.PrefixOf(t, s)),
    "prefix": _string_test(lambda s, t: z3.PrefixOf(t, s)),
    "ends_with": _string_test(lambda s, t: z3.SuffixOf(t, s)),
    "suffix": _string_test(lambda s, t: z3.SuffixOf(t, s)),
    "concat": _concat,
    "round": _round,
}

_ARITIES = {
    "substring": (2, 3),
    "substr": (2, 3),
    "round": (1, 2),
    "concat": None,
    "greatest": None,
    "least": None,
    "floor": (1,),
    "ceil": (1,),
    "ceiling": (1,),
    "date_diff": (3,),
    "datediff": (3,),
}  # the others take two arguments
_SKIPS_NULLS = ("concat", "greatest", "least")


def exact_call(name: str, args: Sequence[SymValue]) -> Result | None:
    """``name(args)`` as an exact term and its error condition, or None if not modelled."""
    translate = _EXACT.get(name)
    if translate is None:
        return None
    arities = _ARITIES.get(name, (2,))
    if arities is not None and len(args) not in arities:
        return None
    if name not in _SKIPS_NULLS and any(a.kind == "other" for a in args):
        return None  # an untyped NULL: left to the uninterpreted path (it gives NULL)
    return translate(args)
