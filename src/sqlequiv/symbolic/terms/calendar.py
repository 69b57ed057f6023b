"""Calendar fields of dates and timestamps as linear integer arithmetic.

Dates are days since 1970-01-01 and timestamps microseconds since then (see
``sqlvalue``). The conversions to and from (year, month, day) are Howard
Hinnant's ``civil_from_days``/``days_from_civil``: only divisions by
constants, so z3 keeps them in linear integer arithmetic. Years are
astronomical (1 BC is year 0), as DuckDB reports them.
"""

from __future__ import annotations

import datetime as dt

import z3

from sqlequiv.symbolic.terms.domain import MICROS_PER_DAY
from sqlequiv.symbolic.terms.sqlvalue import SymValue, Unsupported

__all__ = ["PARTS", "TRUNC_UNITS", "date_part", "date_trunc", "truncation_range", "year_start"]

_MICROS = {"HOUR": 3_600_000_000, "MINUTE": 60_000_000, "SECOND": 1_000_000}

#: Fields :func:`date_part` extracts (DuckDB's names; DOW counts from Sunday = 0).
PARTS = frozenset({"YEAR", "QUARTER", "MONTH", "DAY", "DAYOFWEEK", "DAYOFYEAR", *_MICROS})
#: Units :func:`date_trunc` truncates to.
TRUNC_UNITS = frozenset({"YEAR", "QUARTER", "MONTH", "DAY", *_MICROS})


def civil(days: z3.ArithRef) -> tuple[z3.ArithRef, z3.ArithRef, z3.ArithRef]:
    """(year, month, day) of a day number.

    Example:
        >>> [z3.simplify(x) for x in civil(z3.IntVal(19753))]
        [2024, 1, 31]
    """
    z = days + 719468
    era = z / 146097  # z3's Int division floors for a positive divisor
    doe = z - era * 146097
    yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
    doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    mp = (5 * doy + 2) / 153
    day = doy - (153 * mp + 2) / 5 + 1
    month = z3.If(mp < 10, mp + 3, mp - 9)
    year = yoe + era * 400 + z3.If(month <= 2, 1, 0)
    return year, month, day


def days_from_civil(year: z3.ArithRef, month: z3.ArithRef, day: z3.ArithRef) -> z3.ArithRef:
    """The day number of (year, month, day).

    Example:
        >>> z3.simplify(days_from_civil(z3.IntVal(2024), z3.IntVal(1), z3.IntVal(31)))
        19753
    """
    y = year - z3.If(month <= 2, 1, 0)
    era = y / 400
    yoe = y - era * 400
    mp = z3.If(month > 2, month - 3, month + 9)
    doy = (153 * mp + 2) / 5 + day - 1
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146097 + doe - 719468


def _days(v: SymValue) -> z3.ArithRef:
    if v.kind == "date":
        return v.value
    if v.kind == "timestamp":
        return v.value / MICROS_PER_DAY
    raise Unsupported(f"calendar fields of a {v.kind} value")


def date_part(part: str, v: SymValue) -> SymValue:
    """EXTRACT(part FROM v) as DuckDB computes it for a DATE or TIMESTAMP (a BIGINT).

    Raises:
        Unsupported: other parts (EPOCH, WEEK, ISODOW, milliseconds, ...), and
            time-of-day parts of a DATE.
    """
    if part not in PARTS:
        raise Unsupported(f"EXTRACT({part} FROM ...)")
    if part in _MICROS:
        if v.kind != "timestamp":
            raise Unsupported(f"EXTRACT({part}) of a {v.kind} value")
        unit = _MICROS[part]
        value = (v.value % (unit * (24 if part == "HOUR" else 60))) / unit
        return SymValue("int", value, v.null, bits=64)
    days = _days(v)
    year, month, day = civil(days)
    if part == "YEAR":
        value = year
    elif part == "QUARTER":
        value = (month - 1) / 3 + 1
    elif part == "MONTH":
        value = month
    elif part == "DAY":
        value = day
    elif part == "DAYOFWEEK":
        value = (days + 4) % 7  # 1970-01-01 was a Thursday; Sunday is 0
    else:  # DAYOFYEAR
        value = days - days_from_civil(year, z3.IntVal(1), z3.IntVal(1)) + 1
    return SymValue("int", value, v.null, bits=64)


def date_trunc(unit: str, v: SymValue) -> SymValue:
    """DATE_TRUNC(unit, v) for a DATE or TIMESTAMP: a TIMESTAMP, as DuckDB returns it."""
    if unit not in TRUNC_UNITS:
        raise Unsupported(f"DATE_TRUNC('{unit}', ...)")
    micros = v.value * MICROS_PER_DAY if v.kind == "date" else v.value
    if v.kind not in ("date", "timestamp"):
        raise Unsupported(f"DATE_TRUNC of a {v.kind} value")
    if unit in _MICROS:
        size = _MICROS[unit]
        return SymValue("timestamp", micros - micros % size, v.null)
    days = _days(v)
    if unit == "DAY":
        return SymValue("timestamp", days * MICROS_PER_DAY, v.null)
    year, month, day = civil(days)
    if unit == "MONTH":
        # The first of the month is day - 1 days back: one conversion instead of a
        # conversion there and back, which z3 proves range facts about much faster.
        return SymValue("timestamp", (days - day + 1) * MICROS_PER_DAY, v.null)
    first_month = {"YEAR": z3.IntVal(1), "QUARTER": (month - 1) / 3 * 3 + 1}[unit]
    start = days_from_civil(year, first_month, z3.IntVal(1))
    return SymValue("timestamp", start * MICROS_PER_DAY, v.null)


_EPOCH = dt.datetime(1970, 1, 1)


def truncation_range(unit: str, start_micros: int) -> tuple[int, int] | None:
    """``[start, end)`` in microseconds: the values ``v`` with ``DATE_TRUNC(unit, v)`` equal
    to the timestamp ``start_micros``; ``(0, 0)`` (no value) when ``start_micros`` is not the
    start of a ``unit``; None for a unit or a time this does not handle.

    ``DATE_TRUNC('quarter', ts) = TIMESTAMP '2026-07-01'`` then reads as a range of ``ts``,
    which z3 decides at once, instead of the calendar arithmetic of a truncation.

    Example:
        >>> q3 = int((dt.datetime(2026, 7, 1) - _EPOCH).total_seconds()) * 1_000_000
        >>> lo, hi = truncation_range("QUARTER", q3)
        >>> _EPOCH + dt.timedelta(microseconds=hi)
        datetime.datetime(2026, 10, 1, 0, 0)
        >>> truncation_range("MONTH", q3 + 1)
        (0, 0)
    """
    if unit not in TRUNC_UNITS:
        return None
    try:
        start = _EPOCH + dt.timedelta(microseconds=start_micros)
        if unit in _MICROS:
            size = _MICROS[unit]
            return (start_micros, start_micros + size) if start_micros % size == 0 else (0, 0)
        if start.time() != dt.time(0):
            return (0, 0)
        if unit == "DAY":
            end = start + dt.timedelta(days=1)
        else:
            months = {"MONTH": 1, "QUARTER": 3, "YEAR": 12}[unit]
            if start.day != 1 or (start.month - 1) % months:
                return (0, 0)
            index = start.year * 12 + start.month - 1 + months
            end = dt.datetime(index // 12, index % 12 + 1, 1)
    except (OverflowError, ValueError):
        return None  # past the calendar's ends
    return start_micros, int((end - _EPOCH) / dt.timedelta(microseconds=1))


def month_start(year: int, month: int) -> int | None:
    """Microseconds since 1970 of ``year``-``month``-01 00:00; None outside years 1 to
    9999 or months 1 to 12.

    ``YEAR(x) = 2026 AND MONTH(x) = 3`` is then ``month_start(2026, 3) <= x <
    month_start(2026, 4)``.

    Example:
        >>> _EPOCH + dt.timedelta(microseconds=month_start(2026, 3))
        datetime.datetime(2026, 3, 1, 0, 0)
        >>> month_start(2026, 13) is None, month_start(0, 1) is None
        (True, True)
    """
    if not (1 <= year <= 9999 and 1 <= month <= 12):
        return None
    return int((dt.datetime(year, month, 1) - _EPOCH) / dt.timedelta(microseconds=1))


def year_start(year: int) -> int | None:
    """Microseconds since 1970 of ``year``-01-01 00:00; None outside years 1 to 9999.

    ``YEAR(x) = 2026`` is then ``year_start(2026) <= x < year_start(2027)``.

    Example:
        >>> _EPOCH + dt.timedelta(microseconds=year_start(2026))
        datetime.datetime(2026, 1, 1, 0, 0)
        >>> year_start(0) is None, year_start(10000) is None
        (True, True)
    """
    return month_start(year, 1)
