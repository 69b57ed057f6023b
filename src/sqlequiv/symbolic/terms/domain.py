"""Symbolic column values, constants, and the way back to Python values.

Domain decisions (the constraints :func:`variable` returns):

* integers stay within their SQL width; unsigned integer types are not supported;
* decimals within their precision (``|value| < 10**(precision - scale)``);
* DOUBLE and REAL range over every IEEE value, NaN and infinities included;
* text is restricted to printable ASCII (U+0020..U+007E). Proofs are
  therefore over ASCII strings; this keeps ILIKE's case folding exact and
  witnesses readable. Literals in queries may hold any character;
* dates and timestamps lie in years 1..9999 (what Python's ``datetime`` can
  hold, so every model converts back); DuckDB's wider range and its
  ``infinity`` values are not produced.

Python representations are those of the fixtures and of DuckDB's Python API:
``int``, ``decimal.Decimal`` (quantized to the scale), ``float``, ``str``,
``bool``, ``datetime.date``, ``datetime.datetime`` (naive), ``None`` for NULL.
"""

from __future__ import annotations

import ctypes
import datetime as dt
import decimal
import math
import re
import struct
from typing import Any

import z3
from sqlglot import exp

from sqlequiv.symbolic.terms.formulas import bool_not
from sqlequiv.symbolic.terms.sqlvalue import (
    MAX_PRECISION,
    SymValue,
    Unsupported,
    fp_sort,
    int_range,
    null_of,
    text_value,
)
from sqlequiv.values import Kind, decimal_scale, kind_of

__all__ = [
    "EPOCH_DATE",
    "MAX_DAY",
    "MAX_MICROS",
    "MICROS_PER_DAY",
    "MIN_DAY",
    "MIN_MICROS",
    "constant",
    "date_to_days",
    "evaluate",
    "model_value",
    "parse_literal",
    "timestamp_to_micros",
    "type_info",
    "variable",
]

EPOCH_DATE = dt.date(1970, 1, 1)
_EPOCH = dt.datetime(1970, 1, 1)
MICROS_PER_DAY = 86_400_000_000
MIN_DAY = (dt.date(1, 1, 1) - EPOCH_DATE).days
MAX_DAY = (dt.date(9999, 12, 31) - EPOCH_DATE).days
MIN_MICROS = MIN_DAY * MICROS_PER_DAY
MAX_MICROS = (MAX_DAY + 1) * MICROS_PER_DAY - 1

_T = exp.DataType.Type
_INT_BITS = {
    _T.TINYINT: 8,
    _T.SMALLINT: 16,
    _T.INT: 32,
    _T.MEDIUMINT: 32,
    _T.BIGINT: 64,
    _T.INT128: 128,
}
if "HUGEINT" in _T.__members__:  # the name differs between sqlglot releases
    _INT_BITS[_T["HUGEINT"]] = 128

_ASCII = z3.Star(z3.Range(" ", "~"))
#: What the terms model over ASCII text only (ILIKE's case folding, LENGTH in characters):
#: a proof about any text, which drops the ASCII facts of :func:`variable`, refuses them.
ASCII_ONLY_NODES: tuple[type[exp.Expr], ...] = (exp.ILike, exp.Length)
# Decimal's default context keeps 28 digits; DECIMAL(38, s) needs more, exactly.
_EXACT = decimal.Context(prec=100)


def date_to_days(value: dt.date) -> int:
    """Days since 1970-01-01."""
    return (value - EPOCH_DATE).days


def timestamp_to_micros(value: dt.datetime) -> int:
    """Microseconds since 1970-01-01 00:00:00 (a naive timestamp)."""
    delta = value.replace(tzinfo=None) - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def type_info(dtype: exp.DataType) -> tuple[Kind, int, int, int]:
    """(kind, scale, bits, precision) of a SQL type, as DuckDB stores it.

    Raises:
        Unsupported: for types outside the supported kinds (unsigned integers,
            TIME, intervals, nested types, time zones, ...).
    """
    kind = kind_of(dtype)
    t = dtype.this
    if kind == "int":
        bits = _INT_BITS.get(t)
        if bits is None:
            raise Unsupported(f"the integer type {dtype.sql('duckdb')}")
        return kind, 0, bits, 0
    if kind == "decimal":
        if t not in (_T.DECIMAL, _T.BIGDECIMAL) and t.name not in ("DECIMAL32", "DECIMAL64"):
            raise Unsupported(f"the decimal type {dtype.sql('duckdb')}")
        params = [p for p in dtype.expressions if isinstance(p, exp.DataTypeParam)]
        try:
            precision = int(params[0].name) if params else 18
        except ValueError as err:
            raise Unsupported(f"the decimal type {dtype.sql('duckdb')}") from err
        return kind, decimal_scale(dtype), 0, precision
    if kind == "float":
        return kind, 0, 32 if t == _T.FLOAT else 64, 0
    if kind == "timestamp":
        if t not in (_T.TIMESTAMP, _T.DATETIME, _T.TIMESTAMPNTZ):
            raise Unsupported(f"the timestamp type {dtype.sql('duckdb')} (precision or time zone)")
        return kind, 0, 0, 0
    if kind in ("text", "bool", "date"):
        return kind, 0, 0, 0
    raise Unsupported(f"the type {dtype.sql('duckdb')}")


def variable(
    name: str, dtype: exp.DataType, *, nullable: bool = True
) -> tuple[SymValue, list[z3.BoolRef]]:
    """Fresh z3 constants for a column value of ``dtype``, and its domain constraints.

    The value constant is called ``name``, the null flag ``name + "!null"``.

    Example:
        >>> v, domain = variable("t.i", exp.DataType.build("TINYINT"), nullable=False)
        >>> v.kind, v.bits, [str(c) for c in domain]
        ('int', 8, ['t.i >= -128', 't.i <= 127', 'Not(t.i!null)'])
    """
    kind, scale, bits, precision = type_info(dtype)
    null = z3.Bool(f"{name}!null")
    domain: list[z3.BoolRef] = []
    value: z3.ExprRef
    if kind in ("int", "decimal", "date", "timestamp"):
        value = z3.Int(name)
        if kind == "int":
            low, high = int_range(bits)
        elif kind == "decimal":
            high = 10**precision - 1
            low = -high
        elif kind == "date":
            low, high = MIN_DAY, MAX_DAY
        else:
            low, high = MIN_MICROS, MAX_MICROS
        domain += [value >= low, value <= high]
    elif kind == "float":
        value = z3.FP(name, fp_sort(bits))
    elif kind == "text":
        value = z3.String(name)
        domain.append(z3.InRe(value, _ASCII))
    else:
        value = z3.Bool(name)
    if not nullable:
        domain.append(bool_not(null))
    sym = SymValue(kind, value, null, scale, bits or 64, precision or MAX_PRECISION)
    return sym, domain


def beyond_ascii(domain: list[z3.BoolRef]) -> list[z3.BoolRef]:
    """``domain`` without the facts that keep a text value to printable ASCII."""
    return [fact for fact in domain if not z3.is_app_of(fact, z3.Z3_OP_SEQ_IN_RE)]


def constant(value: Any, kind: Kind, scale: int = 0) -> SymValue:
    """A Python value (as the fixtures hold it) as a constant SymValue; None is NULL.

    Ints get the width of DuckDB's integer literal (INTEGER, BIGINT, HUGEINT);
    decimals the precision of their digits at ``scale``.

    Example:
        >>> v = constant(decimal.Decimal("1.5"), "decimal", 2)
        >>> v.value, v.scale, v.precision
        (150, 2, 3)
    """
    if value is None:
        return null_of(kind, scale=scale)
    absent = z3.BoolVal(False)
    if kind == "int":
        number = int(value)
        bits = next((b for b in (32, 64, 128) if int_range(b)[0] <= number <= int_range(b)[1]), 0)
        if not bits:
            raise Unsupported(f"the integer {number} (beyond HUGEINT)")
        return SymValue("int", z3.IntVal(number), absent, bits=bits)
    if kind == "decimal":
        scaled = decimal.Decimal(value).scaleb(scale, _EXACT)
        if scaled != scaled.to_integral_value():
            raise ValueError(f"{value!r} has more than {scale} decimal places")
        number = int(scaled)
        precision = max(len(str(abs(number))), scale + 1, 1)
        if precision > MAX_PRECISION:
            raise Unsupported(f"the decimal {value} (more than 38 digits)")
        return SymValue("decimal", z3.IntVal(number), absent, scale, precision=precision)
    if kind == "float":
        return SymValue("float", z3.FPVal(float(value), z3.Float64()), absent, bits=64)
    if kind == "text":
        return SymValue("text", text_value(str(value)), absent)
    if kind == "bool":
        return SymValue("bool", z3.BoolVal(bool(value)), absent)
    if kind == "date":
        if isinstance(value, dt.datetime):
            value = value.date()
        return SymValue("date", z3.IntVal(date_to_days(value)), absent)
    if kind == "timestamp":
        if not isinstance(value, dt.datetime):
            value = dt.datetime.combine(value, dt.time())
        return SymValue("timestamp", z3.IntVal(timestamp_to_micros(value)), absent)
    raise Unsupported(f"constants of kind {kind}")


def evaluate(model: z3.ModelRef, term: z3.ExprRef) -> z3.ExprRef:
    """``term`` in ``model``, simplified until it is a literal where z3 can make it one.

    ``model.eval`` rewrites once; some rewrites (``str.<`` with an empty
    string) need a second round to reach a value.
    """
    value = model.eval(term, model_completion=True)
    for _ in range(4):
        if _is_literal(value):
            break
        value = z3.simplify(value)
    return value


def _is_literal(value: z3.ExprRef) -> bool:
    # After model completion a term without arguments is a value (numeral,
    # true/false, string or floating-point literal); a term with arguments is
    # one the rewriter left half-done. One C call instead of a chain of is_* tests.
    return bool(value.num_args() == 0)


def model_value(model: z3.ModelRef, v: SymValue) -> Any:
    """The Python value ``v`` takes in ``model`` (None for NULL).

    Unconstrained parts take z3's defaults (``model_completion``). Values of
    the kinds above load back into DuckDB unchanged through the fixture path
    (``sql_literal`` casts them to the column type).

    Raises:
        Unsupported: the value does not evaluate to a literal, or is a date
            outside what Python can hold.
    """
    if v.kind == "other" or z3.is_true(evaluate(model, v.null)):
        return None
    value = evaluate(model, v.value)
    if v.kind in ("int", "decimal", "date", "timestamp"):
        number = _as_int(value)
        if v.kind == "int":
            return number
        if v.kind == "decimal":
            return decimal.Decimal(number).scaleb(-v.scale, _EXACT)
        try:
            if v.kind == "date":
                return EPOCH_DATE + dt.timedelta(days=number)
            return _EPOCH + dt.timedelta(microseconds=number)
        except OverflowError:
            raise Unsupported(f"a {v.kind} outside years 1..9999 (not a Python value)") from None
    if v.kind == "float":
        # fpToIEEEBV leaves NaN's encoding unspecified: ask about NaN first.
        if z3.is_true(evaluate(model, z3.fpIsNaN(value))):
            return math.nan
        bits = _as_int(evaluate(model, z3.fpToIEEEBV(value)))
        if v.bits == 32:
            return float(struct.unpack("<f", struct.pack("<I", bits))[0])
        return float(struct.unpack("<d", struct.pack("<Q", bits))[0])
    if v.kind == "text":
        if not z3.is_string_value(value):
            raise Unsupported(f"a text model value that is not a literal: {value}")
        return _string_contents(value)
    if v.kind == "bool":
        if not (z3.is_true(value) or z3.is_false(value)):
            raise Unsupported(f"a boolean model value that is not a literal: {value}")
        return z3.is_true(value)
    raise Unsupported(f"model values of kind {v.kind}")


def _string_contents(value: z3.ExprRef) -> str:
    """The characters of a z3 string literal (``as_string`` escapes non-Latin-1 ones)."""
    ctx = value.ctx_ref()
    length = z3.z3core.Z3_get_string_length(ctx, value.as_ast())
    codes = (ctypes.c_uint * max(length, 1))()
    z3.z3core.Z3_get_string_contents(ctx, value.as_ast(), length, codes)
    return "".join(chr(codes[k]) for k in range(length))


def _as_int(value: z3.ExprRef) -> int:
    if z3.is_int_value(value) or z3.is_bv_value(value):
        return int(value.as_long())
    raise Unsupported(f"a model value that is not a number: {value}")


# -- string literals coerced to a typed operand -------------------------------------

_INT_TEXT = re.compile(r"\s*[+-]?\d+\s*")
_DECIMAL_TEXT = re.compile(r"\s*([+-]?)(\d*)(?:\.(\d*))?\s*")
_FLOAT_TEXT = re.compile(r"\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*")
_FLOAT_SPECIALS = {
    "nan": math.nan,
    "inf": math.inf,
    "+inf": math.inf,
    "-inf": -math.inf,
    "infinity": math.inf,
    "+infinity": math.inf,
    "-infinity": -math.inf,
}
_DATE_TEXT = re.compile(r"\d{4}-\d{2}-\d{2}")
_TIMESTAMP_TEXT = re.compile(r"\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?)?")


def _exact_in_float32(number: float, text: str) -> bool:
    if math.isnan(number) or math.isinf(number):
        return True
    single = struct.unpack("<f", struct.pack("<f", number))[0]
    return single == number and decimal.Decimal(single) == decimal.Decimal(text.strip())


def parse_literal(text: str, target: SymValue) -> SymValue:
    """A string literal as DuckDB casts it to the type of ``target`` (e.g. ``ts >= '2024-01-01'``).

    Only unambiguous spellings are accepted: the literal must mean exactly
    one value under DuckDB's cast and the obvious reading.

    Raises:
        Unsupported: for any other spelling (DuckDB may accept it, reject it,
            or read it differently; we do not guess).
    """
    kind = target.kind
    refuse = Unsupported(f"the string {text!r} as a {kind} value")
    if kind == "text":
        return constant(text, "text")
    if kind == "int":
        if not _INT_TEXT.fullmatch(text):
            raise refuse
        number = int(text)
        low, high = int_range(target.bits)
        if not low <= number <= high:
            raise refuse
        return SymValue("int", z3.IntVal(number), z3.BoolVal(False), bits=target.bits)
    if kind == "decimal":
        match = _DECIMAL_TEXT.fullmatch(text)
        if not match or not (match.group(2) or match.group(3)):
            raise refuse
        fraction = match.group(3) or ""
        if len(fraction.rstrip("0")) > target.scale:
            raise refuse  # DuckDB would round; not modelled
        exact = decimal.Decimal(text.strip())
        if abs(exact) >= decimal.Decimal(10) ** (target.precision - target.scale):
            raise refuse
        scaled = int(exact.scaleb(target.scale, _EXACT))
        return SymValue(
            "decimal", z3.IntVal(scaled), z3.BoolVal(False), target.scale,
            precision=target.precision,
        )  # fmt: skip
    if kind == "float":
        special = _FLOAT_SPECIALS.get(text.strip().lower())
        if special is None and not _FLOAT_TEXT.fullmatch(text):
            raise refuse
        number_f = special if special is not None else float(text)
        if math.isinf(number_f) and special is None:
            raise refuse  # an overflowing literal: DuckDB's handling is not modelled
        if target.bits == 32 and not _exact_in_float32(number_f, text):
            raise refuse  # text -> REAL rounds once; text -> double -> REAL might differ
        sort = fp_sort(target.bits)
        return SymValue("float", z3.FPVal(number_f, sort), z3.BoolVal(False), bits=target.bits)
    if kind == "date":
        if not _DATE_TEXT.fullmatch(text):
            raise refuse
        try:
            return constant(dt.date.fromisoformat(text), "date")
        except ValueError:
            raise refuse from None
    if kind == "timestamp":
        if not _TIMESTAMP_TEXT.fullmatch(text):
            raise refuse
        try:
            return constant(dt.datetime.fromisoformat(text), "timestamp")
        except ValueError:
            raise refuse from None
    raise refuse
