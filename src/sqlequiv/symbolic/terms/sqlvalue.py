"""Symbolic SQL values and SQL truth values, and the operations that never fail.

A :class:`SymValue` is one SQL value of a known kind: a z3 term for the value
and a z3 condition for "is NULL". A :class:`SymBool` is a SQL truth value:
two conditions, "is TRUE" and "is FALSE"; UNKNOWN is neither.

What ``SymValue.value`` holds, per kind (the value is meaningless when
``null`` holds):

=========  ===============================================================
int        z3 Int, the integer. ``bits`` is DuckDB's width (8, 16, 32, 64,
           128): arithmetic results outside it are DuckDB errors.
decimal    z3 Int holding ``value * 10**scale`` exactly. ``precision`` is the
           DECIMAL precision (|scaled value| < 10**precision).
float      z3 floating point: Float64 for DOUBLE (``bits=64``), Float32 for
           REAL (``bits=32``). IEEE semantics with DuckDB's ordering: NaN
           equals NaN and is larger than everything, -0.0 equals 0.0.
text       z3 String (Unicode code points; DuckDB compares UTF-8 bytes, and
           byte order equals code point order).
bool       z3 Bool.
date       z3 Int, days since 1970-01-01.
timestamp  z3 Int, microseconds since 1970-01-01 00:00:00 (no time zone).
other      only for an untyped NULL literal; it takes the kind of whatever
           it meets (see :func:`unify`).
=========  ===============================================================

Everything here is total: comparisons, IS NOT DISTINCT FROM, 3VL connectives
and the implicit casts of :func:`unify` never raise a DuckDB error. What can
fail (overflow, division by zero, failed casts) lives in ``arith``.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from dataclasses import dataclass, replace

import z3

from sqlequiv.symbolic.terms.formulas import bool_and, bool_not, bool_or
from sqlequiv.values import Kind

__all__ = [
    "DECIMAL_DIGITS_OF_INT",
    "SymBool",
    "SymValue",
    "Unsupported",
    "and_",
    "as_predicate",
    "compare",
    "convert",
    "fp_sort",
    "int_range",
    "ite",
    "not_",
    "null_of",
    "or_",
    "same",
    "sql_eq",
    "text_value",
    "truth_value",
    "unify",
    "unify_all",
]

COMPARISONS = ("=", "<>", "<", "<=", ">", ">=")

#: Digits of the DECIMAL an integer of this width becomes when mixed with decimals.
DECIMAL_DIGITS_OF_INT = {8: 3, 16: 5, 32: 10, 64: 19, 128: 38}

#: DuckDB's largest DECIMAL precision.
MAX_PRECISION = 38


class Unsupported(Exception):
    """The translator cannot express this SQL faithfully; the message names the construct."""


@dataclass(frozen=True)
class SymValue:
    """A SQL value: ``value`` (meaningful only when not null) and the condition ``null``.

    ``scale`` applies to decimals (``value`` is the decimal times ``10**scale``);
    ``bits`` is the width of an int (8..128) or float (32, 64); ``precision``
    is the precision of a decimal. Callers that build values for aggregates
    should pass the width/precision of DuckDB's result type (e.g. ``SUM`` of
    INTEGER is HUGEINT, ``bits=128``) or use :func:`variable`.
    """

    kind: Kind
    value: z3.ExprRef
    null: z3.BoolRef
    scale: int = 0
    bits: int = 64
    precision: int = MAX_PRECISION


@dataclass(frozen=True)
class SymBool:
    """A SQL truth value: TRUE when ``true`` holds, FALSE when ``false`` holds, else UNKNOWN.

    Invariant: ``true`` and ``false`` never hold together.
    """

    true: z3.BoolRef
    false: z3.BoolRef

    @property
    def unknown(self) -> z3.BoolRef:
        """The condition under which this truth value is UNKNOWN."""
        return bool_and(bool_not(self.true), bool_not(self.false))


def fp_sort(bits: int) -> z3.FPSortRef:
    """The z3 floating-point sort of DOUBLE (64) or REAL (32)."""
    return z3.Float32() if bits == 32 else z3.Float64()


def text_value(text: str) -> z3.SeqRef:
    """A z3 string literal holding exactly ``text``.

    ``z3.StringVal`` reads escape sequences such as ``\\u{41}`` in its
    argument; SQL text must be taken character for character.

    Example:
        >>> escaped = r"\\u{41}"
        >>> length = lambda s: z3.simplify(z3.Length(s))
        >>> length(text_value(escaped)), length(z3.StringVal(escaped))
        (6, 1)
    """
    ctx = z3.main_ctx()
    codes = [ord(c) for c in text]
    array = (ctypes.c_uint * max(len(codes), 1))(*codes)
    return z3.SeqRef(z3.z3core.Z3_mk_u32string(ctx.ref(), len(codes), array), ctx)


def int_range(bits: int) -> tuple[int, int]:
    """The inclusive range of DuckDB's signed integer of ``bits`` bits."""
    return -(2 ** (bits - 1)), 2 ** (bits - 1) - 1


def null_of(kind: Kind, *, scale: int = 0, bits: int = 64, precision: int = 18) -> SymValue:
    """The NULL of a kind (its value is an arbitrary placeholder of the right sort)."""
    placeholder: z3.ExprRef
    if kind in ("int", "decimal", "date", "timestamp"):
        placeholder = z3.IntVal(0)
    elif kind == "float":
        placeholder = z3.FPVal(0.0, fp_sort(bits))
    elif kind == "text":
        placeholder = text_value("")
    else:
        placeholder = z3.BoolVal(False)
    return SymValue(kind, placeholder, z3.BoolVal(True), scale, bits, precision)


# -- three-valued logic ----------------------------------------------------------


def and_(*ps: SymBool) -> SymBool:
    """SQL AND: TRUE if all are TRUE, FALSE if any is FALSE, else UNKNOWN."""
    if not ps:
        return SymBool(z3.BoolVal(True), z3.BoolVal(False))
    if len(ps) == 1:
        return ps[0]
    return SymBool(bool_and(*[p.true for p in ps]), bool_or(*[p.false for p in ps]))


def or_(*ps: SymBool) -> SymBool:
    """SQL OR: TRUE if any is TRUE, FALSE if all are FALSE, else UNKNOWN."""
    if not ps:
        return SymBool(z3.BoolVal(False), z3.BoolVal(True))
    if len(ps) == 1:
        return ps[0]
    return SymBool(bool_or(*[p.true for p in ps]), bool_and(*[p.false for p in ps]))


def not_(p: SymBool) -> SymBool:
    """SQL NOT: swaps TRUE and FALSE, keeps UNKNOWN."""
    return SymBool(p.false, p.true)


def truth_value(p: SymBool) -> SymValue:
    """A predicate as a BOOLEAN value (UNKNOWN becomes NULL)."""
    return SymValue("bool", p.true, p.unknown)


def as_predicate(v: SymValue) -> SymBool:
    """A BOOLEAN value as a predicate (NULL becomes UNKNOWN)."""
    if v.kind == "other":
        return SymBool(z3.BoolVal(False), z3.BoolVal(False))
    if v.kind != "bool":
        raise Unsupported(f"a {v.kind} value used as a condition")
    present = bool_not(v.null)
    return SymBool(bool_and(present, v.value), bool_and(present, bool_not(v.value)))


# -- implicit casts --------------------------------------------------------------

_NUMERIC = ("int", "decimal", "float")
_MICROS_PER_DAY = 86_400_000_000


def _rank(kind: Kind) -> int:
    return _NUMERIC.index(kind)


def _target(values: Sequence[SymValue]) -> SymValue | None:
    """The common type of ``values`` as a NULL of that type, as DuckDB's max-type rules pick it."""
    typed = [v for v in values if v.kind != "other"]
    if not typed:
        return None
    kinds = {v.kind for v in typed}
    if len(kinds) == 1:
        kind = typed[0].kind
        if kind == "int":
            return null_of("int", bits=max(v.bits for v in typed))
        if kind == "float":
            return null_of("float", bits=max(v.bits for v in typed))
        if kind == "decimal":
            return _decimal_target(typed)
        return null_of(kind)
    if kinds <= set(_NUMERIC):
        top = max(kinds, key=_rank)
        if top == "float":
            floats = [v for v in typed if v.kind == "float"]
            return null_of("float", bits=max(v.bits for v in floats))
        return _decimal_target(typed)
    if kinds == {"date", "timestamp"}:
        return null_of("timestamp")
    names = " and ".join(sorted(kinds))
    raise Unsupported(f"mixing {names} values (implicit cast)")


def _decimal_target(values: Sequence[SymValue]) -> SymValue:
    scale = max(v.scale if v.kind == "decimal" else 0 for v in values)
    digits = max(_int_digits(v) for v in values)
    return null_of("decimal", scale=scale, precision=min(digits + scale, MAX_PRECISION))


def _int_digits(v: SymValue) -> int:
    """Digits before the point of an int or decimal type."""
    if v.kind == "int":
        return DECIMAL_DIGITS_OF_INT.get(v.bits, MAX_PRECISION)
    return v.precision - v.scale


def convert(v: SymValue, target: SymValue) -> SymValue:
    """``v`` implicitly cast to the type of ``target``, for casts that cannot fail.

    Covers int -> wider int, int/decimal -> decimal of a larger or equal
    scale, int/decimal/float -> float (IEEE round-to-nearest-even, as DuckDB's
    casts), date -> timestamp, and an untyped NULL to anything.

    Raises:
        Unsupported: for any other pair (those may fail or round in ways not modelled).
    """
    kind = target.kind
    if v.kind == "other":
        return replace(target, null=v.null) if kind != "other" else v
    if v.kind == kind and kind not in ("decimal", "float", "int"):
        return v
    if kind == "int" and v.kind == "int":
        return replace(v, bits=max(v.bits, target.bits))
    if kind == "decimal" and v.kind in ("int", "decimal"):
        shift = target.scale - (v.scale if v.kind == "decimal" else 0)
        if shift < 0:
            raise Unsupported("an implicit cast that would round a decimal")
        value = v.value * (10**shift) if shift else v.value
        return SymValue("decimal", value, v.null, target.scale, precision=target.precision)
    if kind == "float" and v.kind in _NUMERIC:
        return SymValue("float", to_float(v, target.bits), v.null, bits=target.bits)
    if kind == "timestamp" and v.kind == "date":
        return SymValue("timestamp", v.value * _MICROS_PER_DAY, v.null)
    raise Unsupported(f"an implicit cast from {v.kind} to {kind}")


def to_float(v: SymValue, bits: int) -> z3.ExprRef:
    """The IEEE value DuckDB gets when casting an int, decimal or float to DOUBLE/REAL.

    DuckDB's integer and decimal casts to DOUBLE are correctly rounded
    (checked against DuckDB for decimals beyond 2**53), which is z3's
    ``fpToFP`` from a real with round-to-nearest-even.
    """
    sort = fp_sort(bits)
    if v.kind == "float":
        if v.bits == bits:
            return v.value
        return z3.fpFPToFP(z3.RNE(), v.value, sort)
    if v.kind == "int":
        if v.bits > 64:
            raise Unsupported("casting a HUGEINT to a floating-point type")
        return z3.fpToFP(z3.RNE(), z3.ToReal(v.value), sort)
    if v.kind == "decimal":
        if bits == 32:
            raise Unsupported("casting a DECIMAL to REAL")
        real = z3.ToReal(v.value)
        if v.scale:
            real = real / z3.RealVal(10**v.scale)
        return z3.fpToFP(z3.RNE(), real, sort)
    raise Unsupported(f"casting {v.kind} to a floating-point type")


def unify(a: SymValue, b: SymValue) -> tuple[SymValue, SymValue]:
    """Both values cast to their common type (what DuckDB does before comparing them).

    Raises:
        Unsupported: for kinds DuckDB would not mix implicitly, or mixes in ways not modelled.
    """
    unified = unify_all([a, b])
    return unified[0], unified[1]


def unify_all(values: Sequence[SymValue]) -> list[SymValue]:
    """Every value cast to the common type of all of them (CASE, COALESCE, IN lists)."""
    target = _target(values)
    if target is None:
        return list(values)
    return [convert(v, target) for v in values]


# -- comparison ------------------------------------------------------------------


def _fp_eq(a: z3.ExprRef, b: z3.ExprRef) -> z3.BoolRef:
    # DuckDB: NaN = NaN is true, -0.0 = 0.0 is true.
    return bool_or(bool_and(z3.fpIsNaN(a), z3.fpIsNaN(b)), z3.fpEQ(a, b))


def _fp_lt(a: z3.ExprRef, b: z3.ExprRef) -> z3.BoolRef:
    # DuckDB orders NaN above every other value, +inf included.
    return bool_and(bool_not(z3.fpIsNaN(a)), bool_or(z3.fpIsNaN(b), z3.fpLT(a, b)))


def _raw_compare(op: str, a: SymValue, b: SymValue) -> z3.BoolRef:
    """``a op b`` on non-null values of the same (unified) type."""
    if op not in COMPARISONS:
        raise Unsupported(f"comparison operator {op}")
    x, y = a.value, b.value
    if op == ">":
        return _raw_compare("<", b, a)
    if op == ">=":
        return _raw_compare("<=", b, a)
    if op == "<>":
        return bool_not(_raw_compare("=", a, b))
    kind = a.kind
    if kind == "float":
        if op == "=":
            return _fp_eq(x, y)
        lt = _fp_lt(x, y)
        return lt if op == "<" else bool_or(lt, _fp_eq(x, y))
    if op == "=":
        return x == y
    if kind == "bool":
        # FALSE < TRUE
        lt = bool_and(bool_not(x), y)
        return lt if op == "<" else bool_or(lt, x == y)
    if kind in ("int", "decimal", "date", "timestamp", "text"):
        return x < y if op == "<" else x <= y
    raise Unsupported(f"ordering {kind} values")


def compare(op: str, a: SymValue, b: SymValue) -> SymBool:
    """SQL comparison ``a op b`` for op in ``=, <>, <, <=, >, >=``; NULL gives UNKNOWN.

    Example:
        >>> one = SymValue("int", z3.IntVal(1), z3.BoolVal(False))
        >>> p = compare("<", one, SymValue("int", z3.IntVal(2), z3.BoolVal(False)))
        >>> z3.simplify(p.true), z3.simplify(p.false)
        (True, False)
    """
    a, b = unify(a, b)
    if a.kind == "other" or b.kind == "other":
        return SymBool(z3.BoolVal(False), z3.BoolVal(False))
    holds = _raw_compare(op, a, b)
    present = bool_and(bool_not(a.null), bool_not(b.null))
    return SymBool(bool_and(present, holds), bool_and(present, bool_not(holds)))


def sql_eq(a: SymValue, b: SymValue) -> SymBool:
    """SQL ``a = b``: UNKNOWN when either side is NULL."""
    return compare("=", a, b)


def same(a: SymValue, b: SymValue) -> z3.BoolRef:
    """``a IS NOT DISTINCT FROM b``: both NULL, or both present and equal.

    This is the equality of grouping, DISTINCT and set operations.
    """
    a, b = unify(a, b)
    if a.kind == "other" or b.kind == "other":
        return bool_and(a.null, b.null)
    both_present = bool_and(bool_not(a.null), bool_not(b.null), _raw_compare("=", a, b))
    return bool_or(bool_and(a.null, b.null), both_present)


def ite(cond: z3.BoolRef, a: SymValue, b: SymValue) -> SymValue:
    """``a`` when ``cond`` holds, else ``b`` (cast to their common type first)."""
    a, b = unify(a, b)
    if a.kind == "other" and b.kind == "other":
        return a
    null = z3.If(cond, a.null, b.null)
    return replace(a, value=z3.If(cond, a.value, b.value), null=null)
