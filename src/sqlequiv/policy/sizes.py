"""How big a value a scalar function call would build, computed from its constant arguments.

Inside one DuckDB call neither the watchdog nor the memory limit holds: a scalar
``repeat('x', 1000*1000*1000)``, ``generate_series`` of timestamps one microsecond
apart, or ``format('{:>2000000000}', 'x')`` builds its whole value before DuckDB next
looks at its interrupt flag. So the guard computes the size such a call asks for,
by arithmetic on its constant arguments, and refuses it past
:data:`~sqlequiv.policy.functions.MAX_BUILT_SIZE` (``resource_limit``). A size that
depends on the data cannot be known here; there the engine's limits are the net.

Example:
    >>> import sqlglot
    >>> numeric_constant(sqlglot.parse_one("1000 * 1000 * (1000 + 1)"))
    1001000000.0
    >>> series = sqlglot.parse_one(
    ...     "generate_series(TIMESTAMP '2000-01-01', TIMESTAMP '2000-01-02', INTERVAL 1 SECOND)",
    ...     read="duckdb")
    >>> series_length(series)
    86401.0
    >>> format_width(sqlglot.parse_one("printf('%2000000000s', 'x')"))
    2000000000
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Callable

from sqlglot import exp


def _power(a: float, b: float) -> float:
    try:
        return float(a**b)
    except (OverflowError, ZeroDivisionError):
        return math.inf


_ARITHMETIC: dict[type[exp.Expr], Callable[[float, float], float]] = {
    exp.Add: lambda a, b: a + b,
    exp.Sub: lambda a, b: a - b,
    exp.Mul: lambda a, b: a * b,
    exp.Div: lambda a, b: a / b if b else math.inf,
    exp.IntDiv: lambda a, b: a // b if b else math.inf,
    exp.Pow: _power,
}

#: Microseconds per interval unit, for series of dates and timestamps.
_UNIT_MICROSECONDS = {
    "microsecond": 1,
    "microseconds": 1,
    "us": 1,
    "millisecond": 1_000,
    "milliseconds": 1_000,
    "ms": 1_000,
    "second": 1_000_000,
    "seconds": 1_000_000,
    "minute": 60_000_000,
    "minutes": 60_000_000,
    "hour": 3_600_000_000,
    "hours": 3_600_000_000,
    "day": 86_400_000_000,
    "days": 86_400_000_000,
}

#: Widths and precisions in a format string: fmt's ``{:>N}`` / ``{:.N}`` (DuckDB's
#: ``format``) and printf's ``%Ns`` / ``%.Ns``.
_FMT_SPEC = re.compile(r"\{[^{}]*:([^{}]*)\}")
_PRINTF_SPEC = re.compile(r"%[-+ #0']*(\d*|\*)(?:\.(\d*|\*))?[a-zA-Z%]")


def numeric_constant(node: exp.Expr) -> float | None:
    """The value of a constant numeric expression (literals, signs, parentheses,
    + - * / // ^ and casts of them), else None. Too big a value is ``inf``."""
    if isinstance(node, exp.Paren | exp.Cast | exp.TryCast):
        return numeric_constant(node.this)
    if isinstance(node, exp.Neg):
        inner = numeric_constant(node.this)
        return None if inner is None else -inner
    if isinstance(node, exp.Literal) and not node.is_string:
        try:
            return float(node.this)
        except (ValueError, OverflowError):
            return None
    operation = _ARITHMETIC.get(type(node))
    if operation is not None:
        left, right = numeric_constant(node.this), numeric_constant(node.expression)
        if left is None or right is None:
            return None
        try:
            value = operation(left, right)
        except (OverflowError, ArithmeticError):
            return math.inf
        return value if not math.isnan(value) else None
    return None


def series_length(node: exp.Expr) -> float | None:
    """How many elements a ``range`` / ``generate_series`` of constant dates or timestamps
    with a constant interval step would hold, else None."""
    if isinstance(node, exp.GenerateSeries):
        start, end, step = (node.args.get(k) for k in ("start", "end", "step"))
    elif isinstance(node, exp.Anonymous) and len(node.expressions) == 3:
        start, end, step = node.expressions
    else:
        return None
    first, last, micros = _instant(start), _instant(end), _interval_microseconds(step)
    if first is None or last is None or not micros:
        return None
    span = abs((last - first) / dt.timedelta(microseconds=1))
    return span / abs(micros) + 1


def format_width(node: exp.Expr) -> int | None:
    """The largest width or precision in a constant format string of ``format`` or
    ``printf``, else None (a ``*`` width takes an argument: its constant value counts)."""
    if isinstance(node, exp.Format):
        numbers = _fmt_numbers(_text(node.this) or "")
    elif isinstance(node, exp.Anonymous) and node.name.lower() in ("printf", "format"):
        if not node.expressions:
            return None
        template, *rest = node.expressions
        text = _text(template) or ""
        if node.name.lower() == "format" and "{" in text:
            numbers = _fmt_numbers(text)
        else:
            parts = [part for m in _PRINTF_SPEC.finditer(text) for part in m.groups() if part]
            numbers = [int(part) for part in parts if part.isdigit()]
            if "*" in parts:
                numbers += [int(v) for v in map(numeric_constant, rest) if v and math.isfinite(v)]
    else:
        return None
    return max(numbers, default=None)


def _fmt_numbers(template: str) -> list[int]:
    """Every width and precision in the ``{...:spec}`` fields of an fmt template."""
    return [int(n) for m in _FMT_SPEC.finditer(template) for n in re.findall(r"\d+", m.group(1))]


def _text(node: exp.Expr | None) -> str | None:
    return node.name if isinstance(node, exp.Literal) and node.is_string else None


def _instant(node: exp.Expr | None) -> dt.datetime | None:
    """A constant DATE or TIMESTAMP (a cast of a string literal)."""
    if not isinstance(node, exp.Cast) or _text(node.this) is None:
        return None
    try:
        return dt.datetime.fromisoformat(str(_text(node.this)).strip())
    except ValueError:
        return None


def _interval_microseconds(node: exp.Expr | None) -> float | None:
    if not isinstance(node, exp.Interval):
        return None
    unit = node.args.get("unit")
    text = node.this.name if isinstance(node.this, exp.Literal) else None
    if text is None:
        return None
    parts = text.split()
    if unit is None and len(parts) == 2:  # INTERVAL '1 microsecond'
        text, unit_name = parts
    else:
        unit_name = unit.name if unit is not None else ""
    scale = _UNIT_MICROSECONDS.get(unit_name.lower())
    try:
        return float(text) * scale if scale else None
    except ValueError:
        return None
