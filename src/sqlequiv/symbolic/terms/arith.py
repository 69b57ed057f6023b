"""Arithmetic, casts and string functions, with the conditions under which DuckDB fails.

Every function returns ``(result, error)``: ``error`` is the condition under
which DuckDB raises an error instead of producing a value (integer or decimal
overflow, division by zero, a cast out of range). Results are exact whenever
``error`` does not hold; a NULL operand never errs here.

Result types follow DuckDB's binder (checked against DuckDB 1.x/2.0):

* int op int: the wider width; overflow is an error.
* decimals: ``+``/``-`` scale max(s1, s2), precision max(p1-s1, p2-s2)+scale+1;
  ``*`` scale s1+s2, precision p1+p2 -- capped at 18 when both inputs fit in
  18 digits, else at 38 -- with results beyond the precision an error;
  ``%`` scale max, precision max(p1-s1, p2-s2)+scale; ints join as
  DECIMAL(3/5/10/19/38, 0).
* ``/`` is always floating point (DOUBLE, or REAL for two REALs); ``//`` on
  ints truncates towards zero, on anything else it is ``/`` that errs on a
  zero divisor; ``%`` truncates (the sign of the dividend).
* floats: IEEE round-to-nearest-even, no errors (division by zero gives
  infinities or NaN, as in DuckDB).
"""

from __future__ import annotations

import z3
from sqlglot import exp

from sqlequiv.symbolic.terms.domain import MICROS_PER_DAY, type_info
from sqlequiv.symbolic.terms.formulas import bool_and, bool_not, bool_or
from sqlequiv.symbolic.terms.sqlvalue import (
    DECIMAL_DIGITS_OF_INT,
    MAX_PRECISION,
    SymValue,
    Unsupported,
    convert,
    int_range,
    null_of,
    to_float,
    unify,
)

__all__ = [
    "Result",
    "absolute",
    "add_interval",
    "arith",
    "cast",
    "concat",
    "decimal_text",
    "divide",
    "int_divide",
    "int_text",
    "length",
    "modulo",
    "negate",
    "round_half_away",
    "trunc_divide",
]

Result = tuple[SymValue, z3.BoolRef]
_NO_ERROR = z3.BoolVal(False)
_INT64_DIGITS = 18


def _present(*vs: SymValue) -> z3.BoolRef:
    return bool_and(*[bool_not(v.null) for v in vs])


def _null(*vs: SymValue) -> z3.BoolRef:
    return bool_or(*[v.null for v in vs]) if len(vs) > 1 else vs[0].null


def _out_of_int(value: z3.ArithRef, bits: int) -> z3.BoolRef:
    low, high = int_range(bits)
    return bool_or(value < low, value > high)


def _out_of_decimal(value: z3.ArithRef, precision: int) -> z3.BoolRef:
    bound = 10**precision
    return bool_or(value <= -bound, value >= bound)


def _digits(v: SymValue) -> int:
    return DECIMAL_DIGITS_OF_INT.get(v.bits, MAX_PRECISION) if v.kind == "int" else v.precision


def _as_decimal(v: SymValue) -> SymValue:
    if v.kind == "decimal":
        return v
    return SymValue("decimal", v.value, v.null, 0, precision=_digits(v))


def _rescale(value: z3.ArithRef, by: int) -> z3.ArithRef:
    return value * (10**by) if by else value


def tdiv(a: z3.ArithRef, b: z3.ArithRef) -> z3.ArithRef:
    """Integer division truncating towards zero (z3's ``/`` on Ints floors for b > 0)."""
    magnitude = z3.If(a >= 0, a, -a) / z3.If(b >= 0, b, -b)
    return z3.If((a >= 0) == (b >= 0), magnitude, -magnitude)


def tmod(a: z3.ArithRef, b: z3.ArithRef) -> z3.ArithRef:
    """The remainder of :func:`tdiv` (it has the sign of ``a``)."""
    return a - b * tdiv(a, b)


def _fp_op(op: str, x: z3.ExprRef, y: z3.ExprRef) -> z3.ExprRef:
    rm = z3.RNE()
    if op == "+":
        return z3.fpAdd(rm, x, y)
    if op == "-":
        return z3.fpSub(rm, x, y)
    if op == "*":
        return z3.fpMul(rm, x, y)
    return z3.fpDiv(rm, x, y)


# Dates are kept where DuckDB can also turn them into timestamps (|days| below
# ~106.75 million, year 294247): a date + int beyond that counts as a possible
# error. That over-approximates DuckDB (its dates reach year 5881580), which the
# contract allows, and it lets date -> timestamp conversions never fail.
_MAX_TIMESTAMP_MICROS = 2**63 - 2
_MAX_DAYS = _MAX_TIMESTAMP_MICROS // MICROS_PER_DAY


def _temporal(op: str, a: SymValue, b: SymValue) -> Result:
    kinds = (a.kind, b.kind)
    null = _null(a, b)
    if op == "-" and kinds == ("date", "date"):
        return SymValue("int", a.value - b.value, null, bits=64), _NO_ERROR
    if kinds in (("date", "int"), ("int", "date")) and (op == "+" or kinds[0] == "date"):
        days = b if a.kind == "date" else a
        if days.bits > 32:
            raise Unsupported("DATE + BIGINT (DuckDB has no such operator)")
        value = a.value + b.value if op == "+" else a.value - b.value
        err = bool_and(_present(a, b), bool_or(value < -_MAX_DAYS, value > _MAX_DAYS))
        return SymValue("date", value, null), err
    raise Unsupported(f"{a.kind} {op} {b.kind}")


def arith(op: str, a: SymValue, b: SymValue) -> Result:
    """``a op b`` for op in ``+ - *`` (and dates: date ± int, date - date).

    Example:
        >>> one = SymValue("int", z3.IntVal(2**31 - 1), z3.BoolVal(False), bits=32)
        >>> _, error = arith("+", one, one)
        >>> z3.simplify(error)
        True
    """
    if {a.kind, b.kind} & {"date", "timestamp"}:
        return _temporal(op, a, b)
    for v in (a, b):
        if v.kind not in ("int", "decimal", "float", "other"):
            raise Unsupported(f"arithmetic ({op}) on {v.kind} values")
    if "float" in (a.kind, b.kind):
        a, b = unify(a, b)
        value = _fp_op(op, a.value, b.value)
        return SymValue("float", value, _null(a, b), bits=a.bits), _NO_ERROR
    if a.kind == "other" or b.kind == "other":
        kind_source = b if a.kind == "other" else a
        return null_of(kind_source.kind, scale=kind_source.scale, bits=kind_source.bits), _NO_ERROR
    if a.kind == b.kind == "int":
        bits = max(a.bits, b.bits)
        if op == "+":
            value = a.value + b.value
        elif op == "-":
            value = a.value - b.value
        else:
            value = a.value * b.value
        err = bool_and(_present(a, b), _out_of_int(value, bits))
        return SymValue("int", value, _null(a, b), bits=bits), err
    a, b = _as_decimal(a), _as_decimal(b)
    if op == "*":
        scale = a.scale + b.scale
        if scale > MAX_PRECISION:
            raise Unsupported("a decimal product with a scale above 38 (a DuckDB error)")
        precision = a.precision + b.precision
        if precision > _INT64_DIGITS and a.precision <= _INT64_DIGITS >= b.precision:
            precision = _INT64_DIGITS
        precision = min(precision, MAX_PRECISION)
        value = a.value * b.value
    else:
        scale = max(a.scale, b.scale)
        whole = max(a.precision - a.scale, b.precision - b.scale)
        precision = min(whole + scale + 1, MAX_PRECISION)
        x, y = _rescale(a.value, scale - a.scale), _rescale(b.value, scale - b.scale)
        value = x + y if op == "+" else x - y
    err = bool_and(_present(a, b), _out_of_decimal(value, precision))
    return SymValue("decimal", value, _null(a, b), scale, precision=precision), err


def _float_bits(a: SymValue, b: SymValue) -> int:
    """REAL op REAL (or REAL with an int) stays REAL; a DOUBLE or decimal makes it DOUBLE."""
    floats = [v.bits for v in (a, b) if v.kind == "float"]
    if floats and max(floats) == 32 and "decimal" not in (a.kind, b.kind):
        return 32
    return 64


def divide(a: SymValue, b: SymValue) -> Result:
    """DuckDB's ``/``: floating-point division of any two numbers (never an error)."""
    for v in (a, b):
        if v.kind not in ("int", "decimal", "float", "other"):
            raise Unsupported(f"division of {v.kind} values")
    bits = _float_bits(a, b)
    if a.kind == "other" or b.kind == "other":
        return null_of("float", bits=bits), _NO_ERROR
    x, y = to_float(a, bits), to_float(b, bits)
    return SymValue("float", _fp_op("/", x, y), _null(a, b), bits=bits), _NO_ERROR


def int_divide(a: SymValue, b: SymValue) -> Result:
    """DuckDB's ``//`` on ints: truncating division; a zero divisor errs.

    On decimals and floats DuckDB's ``//`` is a floating-point division with
    its own sign-of-zero behaviour (``-0.0 // 2`` is ``0.0``); not modelled.
    """
    if a.kind == "other" or b.kind == "other":
        other = b if a.kind == "other" else a
        return null_of(other.kind, bits=other.bits), _NO_ERROR
    if a.kind == b.kind == "int":
        bits = max(a.bits, b.bits)
        value = tdiv(a.value, b.value)
        zero = b.value == 0
        wraps = bool_and(bool_not(zero), _out_of_int(value, bits))
        err = bool_and(_present(a, b), bool_or(zero, wraps))
        return SymValue("int", value, _null(a, b), bits=bits), err
    raise Unsupported(f"// on {a.kind} and {b.kind} values")


def _is_zero(v: SymValue) -> z3.BoolRef:
    if v.kind == "float":
        return z3.fpIsZero(v.value)
    return v.value == 0


def modulo(a: SymValue, b: SymValue) -> Result:
    """DuckDB's ``%`` on ints and decimals: truncated remainder; zero divisor errs."""
    if a.kind == "other" or b.kind == "other":
        other = b if a.kind == "other" else a
        return null_of(other.kind, scale=other.scale, bits=other.bits), _NO_ERROR
    kinds = {a.kind, b.kind}
    if not kinds <= {"int", "decimal"}:
        raise Unsupported(f"% on {' and '.join(sorted(kinds))} values")
    err = bool_and(_present(a, b), b.value == 0)
    if a.kind == b.kind == "int":
        value = tmod(a.value, b.value)
        return SymValue("int", value, _null(a, b), bits=max(a.bits, b.bits)), err
    a, b = _as_decimal(a), _as_decimal(b)
    scale = max(a.scale, b.scale)
    whole = max(a.precision - a.scale, b.precision - b.scale)
    x, y = _rescale(a.value, scale - a.scale), _rescale(b.value, scale - b.scale)
    result = SymValue(
        "decimal", tmod(x, y), _null(a, b), scale, precision=min(whole + scale, MAX_PRECISION)
    )
    return result, err


def trunc_divide(a: SymValue, b: SymValue) -> Result:
    """``CAST(TRUNC(a / b) AS BIGINT)``: how sqlglot renders a typed (Postgres-style) int division.

    For ints of at most 32 bits the double quotient never rounds across an
    integer (|a| < 2**31 keeps the gap to the next integer far above the
    rounding error), so exact truncated division is used; wider operands go
    through the floating-point quotient. A zero divisor errs (the cast of an
    infinity or NaN).
    """
    if a.kind == "other" or b.kind == "other":
        return null_of("int", bits=64), _NO_ERROR
    if a.kind == b.kind == "int" and max(a.bits, b.bits) <= 32:
        value = tdiv(a.value, b.value)
        err = bool_and(_present(a, b), b.value == 0)
        return SymValue("int", value, _null(a, b), bits=64), err
    quotient, _ = divide(a, b)
    truncated = z3.fpRoundToIntegral(z3.RTZ(), quotient.value)
    as_int, bad = _fp_to_int(truncated, 64)
    return SymValue("int", as_int, quotient.null, bits=64), bool_and(_present(a, b), bad)


def _fp_to_int(integral: z3.ExprRef, bits: int) -> tuple[z3.ArithRef, z3.BoolRef]:
    """An integral float as an Int, and when converting it to an int of ``bits`` fails."""
    as_int = z3.ToInt(z3.fpToReal(integral))
    bad = bool_or(z3.fpIsNaN(integral), z3.fpIsInf(integral), _out_of_int(as_int, bits))
    return as_int, bad


def negate(a: SymValue) -> Result:
    """Unary minus; negating the smallest int of a width errs."""
    if a.kind == "other":
        return a, _NO_ERROR
    if a.kind == "int":
        value = -a.value
        return SymValue("int", value, a.null, bits=a.bits), bool_and(
            bool_not(a.null), _out_of_int(value, a.bits)
        )
    if a.kind == "decimal":
        return SymValue("decimal", -a.value, a.null, a.scale, precision=a.precision), _NO_ERROR
    if a.kind == "float":
        return SymValue("float", z3.fpNeg(a.value), a.null, bits=a.bits), _NO_ERROR
    raise Unsupported(f"unary minus on {a.kind} values")


def absolute(a: SymValue) -> Result:
    """ABS; the smallest int of a width errs."""
    if a.kind == "other":
        return a, _NO_ERROR
    if a.kind in ("int", "decimal"):
        value = z3.If(a.value < 0, -a.value, a.value)
        err = _NO_ERROR
        if a.kind == "int":
            err = bool_and(bool_not(a.null), _out_of_int(value, a.bits))
        return SymValue(a.kind, value, a.null, a.scale, a.bits, a.precision), err
    if a.kind == "float":
        return SymValue("float", z3.fpAbs(a.value), a.null, bits=a.bits), _NO_ERROR
    raise Unsupported(f"ABS of {a.kind} values")


def add_interval(a: SymValue, micros: int) -> Result:
    """A date or timestamp plus a fixed interval (no months): always a TIMESTAMP in DuckDB."""
    if a.kind == "other":
        return null_of("timestamp"), _NO_ERROR
    if a.kind == "date":
        value = a.value * MICROS_PER_DAY + micros
    elif a.kind == "timestamp":
        value = a.value + micros
    else:
        raise Unsupported(f"{a.kind} + INTERVAL")
    outside = bool_or(value < -_MAX_TIMESTAMP_MICROS, value > _MAX_TIMESTAMP_MICROS)
    return SymValue("timestamp", value, a.null), bool_and(bool_not(a.null), outside)


# -- strings ---------------------------------------------------------------------


def int_text(value: z3.ArithRef) -> z3.SeqRef:
    """An integer as DuckDB casts it to text."""
    # z3's IntToStr is "" for negative numbers.
    return z3.If(value >= 0, z3.IntToStr(value), z3.Concat(z3.StringVal("-"), z3.IntToStr(-value)))


def decimal_text(value: z3.ArithRef, scale: int) -> z3.SeqRef:
    """A decimal (``value`` scaled by ``10**scale``) as DuckDB casts it to text."""
    if scale == 0:
        return int_text(value)
    magnitude = z3.If(value < 0, -value, value)
    unit = 10**scale
    padded = z3.Concat(z3.StringVal("0" * scale), z3.IntToStr(magnitude % unit))
    fraction = z3.SubString(padded, z3.Length(padded) - scale, scale)
    digits = z3.Concat(z3.IntToStr(magnitude / unit), z3.StringVal("."), fraction)
    return z3.If(value < 0, z3.Concat(z3.StringVal("-"), digits), digits)


def _text(v: SymValue) -> z3.SeqRef:
    if v.kind == "text":
        return v.value
    if v.kind == "int":
        return int_text(v.value)
    if v.kind == "decimal":
        return decimal_text(v.value, v.scale)
    if v.kind == "bool":
        return z3.If(v.value, z3.StringVal("true"), z3.StringVal("false"))
    raise Unsupported(f"{v.kind} as text")


def concat(a: SymValue, b: SymValue) -> Result:
    """``a || b``: NULL if either is NULL; ints, decimals and booleans are cast to text."""
    if a.kind == "other" or b.kind == "other":
        return null_of("text"), _NO_ERROR
    if "text" not in (a.kind, b.kind):
        raise Unsupported(f"{a.kind} || {b.kind}")
    return SymValue("text", z3.Concat(_text(a), _text(b)), _null(a, b)), _NO_ERROR


def length(a: SymValue) -> Result:
    """LENGTH of text: the number of code points, a BIGINT."""
    if a.kind == "other":
        return null_of("int"), _NO_ERROR
    if a.kind != "text":
        raise Unsupported(f"LENGTH of {a.kind} values")
    return SymValue("int", z3.Length(a.value), a.null, bits=64), _NO_ERROR


# -- casts -----------------------------------------------------------------------


def round_half_away(value: z3.ArithRef, by: int) -> z3.ArithRef:
    """``value / 10**by`` rounded half away from zero (DuckDB's decimal rounding)."""
    unit = 10**by
    magnitude = (z3.If(value < 0, -value, value) + unit // 2) / unit
    return z3.If(value < 0, -magnitude, magnitude)


def cast(v: SymValue, target: SymValue) -> Result:
    """``CAST(v AS type)`` where ``target`` is any value of the target type.

    Supported: between int widths, int <-> decimal, decimal -> decimal (half
    away from zero), int/decimal -> float, float -> int (half to even), float
    -> float, int/decimal/bool -> text, int <-> bool, date <-> timestamp
    (a timestamp truncated to its day), and identities.

    Raises:
        Unsupported: text -> anything (except text), float -> decimal/text,
            dates -> text, and anything else.
    """
    kind = target.kind
    if v.kind == "other":
        return null_of(kind, scale=target.scale, bits=target.bits, precision=target.precision), (
            _NO_ERROR
        )
    present = bool_not(v.null)
    if kind == "int":
        value: z3.ExprRef
        if v.kind == "int":
            value = v.value
        elif v.kind == "decimal":
            value = round_half_away(v.value, v.scale)
        elif v.kind == "bool":
            value = z3.If(v.value, z3.IntVal(1), z3.IntVal(0))
        elif v.kind == "float":
            integral = z3.fpRoundToIntegral(z3.RNE(), v.value)
            value, bad = _fp_to_int(integral, target.bits)
            return SymValue("int", value, v.null, bits=target.bits), bool_and(present, bad)
        else:
            raise Unsupported(f"CAST of {v.kind} to an integer type")
        err = bool_and(present, _out_of_int(value, target.bits))
        return SymValue("int", value, v.null, bits=target.bits), err
    if kind == "decimal":
        if v.kind not in ("int", "decimal"):
            raise Unsupported(f"CAST of {v.kind} to DECIMAL")
        scale = v.scale if v.kind == "decimal" else 0
        shift = target.scale - scale
        value = _rescale(v.value, shift) if shift >= 0 else round_half_away(v.value, -shift)
        err = bool_and(present, _out_of_decimal(value, target.precision))
        result = SymValue("decimal", value, v.null, target.scale, precision=target.precision)
        return result, err
    if kind == "float":
        if v.kind not in ("int", "decimal", "float"):
            raise Unsupported(f"CAST of {v.kind} to a floating-point type")
        converted = to_float(v, target.bits)
        err = _NO_ERROR
        if v.kind == "float" and v.bits > target.bits:
            # DOUBLE -> REAL: a finite value that overflows REAL is an error.
            finite = bool_not(bool_or(z3.fpIsInf(v.value), z3.fpIsNaN(v.value)))
            err = bool_and(present, finite, z3.fpIsInf(converted))
        return SymValue("float", converted, v.null, bits=target.bits), err
    if kind == "text":
        return SymValue("text", _text(v), v.null), _NO_ERROR
    if kind == "bool":
        if v.kind == "bool":
            return v, _NO_ERROR
        if v.kind == "int":
            return SymValue("bool", v.value != 0, v.null), _NO_ERROR
        raise Unsupported(f"CAST of {v.kind} to BOOLEAN")
    if kind == "date":
        if v.kind == "date":
            return v, _NO_ERROR
        if v.kind == "timestamp":
            # z3's Int division floors, which is what truncating to the day means
            # for timestamps before 1970 too.
            return SymValue("date", v.value / MICROS_PER_DAY, v.null), _NO_ERROR
        raise Unsupported(f"CAST of {v.kind} to DATE")
    if kind == "timestamp":
        if v.kind in ("date", "timestamp"):
            return convert(v, target), _NO_ERROR
        raise Unsupported(f"CAST of {v.kind} to TIMESTAMP")
    raise Unsupported(f"CAST to {kind}")


def cast_target(dtype: object) -> SymValue:
    """A NULL of the SQL type ``dtype`` (a sqlglot DataType), to pass to :func:`cast`."""
    if not isinstance(dtype, exp.DataType):
        raise Unsupported("a CAST without a type")
    kind, scale, bits, precision = type_info(dtype)
    return null_of(kind, scale=scale, bits=bits or 64, precision=precision or 18)
