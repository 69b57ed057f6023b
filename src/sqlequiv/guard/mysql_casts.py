"""MySQL's implicit conversions, spelled out for DuckDB (run on the annotated tree).

MySQL converts operands to the type an operator needs
(https://dev.mysql.com/doc/refman/8.4/en/type-conversion.html); DuckDB either
refuses the same expression or reads it differently. Each rule below writes the
conversion MySQL makes explicitly, so the DuckDB text means what MySQL computes:

* **A date string in date arithmetic** (``'2019-07-05' - INTERVAL 1 DAY``,
  ``TIMESTAMPDIFF(DAY, '2019-07-01', d)``): MySQL reads a string operand of
  temporal arithmetic as a DATE or DATETIME ("Date and Time Functions": "If you
  use a string as a date, it must be in a valid format"); the literal is cast to
  DATE (``YYYY-MM-DD``) or TIMESTAMP (with a time). Other strings are left, and
  DuckDB refuses them (an ``error``, never a guess).
* **A date plus or minus a number, or a date minus a date**: MySQL has no date
  arithmetic without INTERVAL; ``+``/``-`` convert a DATE to the number
  ``YYYYMMDD`` ("a date value is converted to a number in numeric context"), so
  ``DATE '2019-01-31' + 1`` is ``20190132`` and ``DATE '2019-02-01' - DATE
  '2019-01-31'`` is ``70``. DuckDB reads both as day arithmetic; here the date
  operand becomes ``CAST(STRFTIME(d, '%Y%m%d') AS BIGINT)``.
* **A CASE (or IF) whose branches mix strings with numbers or booleans**: the
  result is a string in MySQL (its type aggregation rule), and TRUE/FALSE are the
  integers 1/0; DuckDB instead casts the strings to the other type (``'TRUE'``
  becomes true, ``'a'`` fails). Integer and boolean branches become their MySQL
  text (``'1'``, ``'0'``).
* **TIMESTAMPDIFF(unit, a, b)** counts *complete* units from a to b in MySQL,
  where sqlglot's ``DATE_DIFF`` counts unit boundaries crossed (``DATE_DIFF('DAY',
  23:00, 01:00 next day)`` is 1, MySQL's answer is 0). For units of fixed length
  (MICROSECOND to WEEK) DuckDB's ``DATE_SUB(unit, a, b)`` counts complete units as
  MySQL does; MONTH, QUARTER and YEAR (where DuckDB's end-of-month rule differs from
  MySQL's) are refused.

``DATEDIFF(a, b)`` (days from b to a, times ignored), ``DATE_SUB``/``DATE_ADD``,
``IF``, ``IFNULL``, ``DIV``, ``/`` (NULL on division by zero) and ``DATE_FORMAT``'s
common formats already come out of sqlglot with MySQL's meaning.
"""

from __future__ import annotations

import re

from sqlglot import exp

__all__ = ["MySQLCastError", "mysql_casts"]

_DATE = re.compile(r"\d{4}-\d{1,2}-\d{1,2}")
_DATETIME = re.compile(r"\d{4}-\d{1,2}-\d{1,2}[ T]\d{1,2}:\d{1,2}(:\d{1,2}(\.\d{1,6})?)?")
_T = exp.DataType.Type
_FIXED_UNITS = frozenset({"MICROSECOND", "SECOND", "MINUTE", "HOUR", "DAY", "WEEK"})


class MySQLCastError(ValueError):
    """A MySQL construct whose meaning is not reproduced on DuckDB (the guard refuses it)."""

    def __init__(self, message: str, node: exp.Expr) -> None:
        super().__init__(message)
        self.message = message
        self.node = node


def mysql_casts(tree: exp.Expression) -> exp.Expression:
    """Make MySQL's implicit conversions explicit; in place (``tree`` is type-annotated).

    Raises:
        MySQLCastError: a TIMESTAMPDIFF in MONTH, QUARTER or YEAR.

    Example:
        >>> from sqlglot import parse_one
        >>> from sqlglot.optimizer.annotate_types import annotate_types
        >>> def show(sql):
        ...     tree = annotate_types(parse_one(sql, read="mysql"), dialect="mysql")
        ...     return mysql_casts(tree).sql("duckdb")
        >>> show("SELECT '2019-07-05' - INTERVAL 1 DAY")
        "SELECT CAST('2019-07-05' AS DATE) - INTERVAL '1' DAY"
        >>> show("SELECT CAST('2019-01-31' AS DATE) + 1")
        "SELECT CAST(STRFTIME(CAST('2019-01-31' AS DATE), '%Y%m%d') AS BIGINT) + 1"
        >>> show("SELECT CASE WHEN 1 > 0 THEN 'TRUE' ELSE FALSE END")
        "SELECT CASE WHEN 1 > 0 THEN 'TRUE' ELSE '0' END"
    """
    for binary in list(tree.find_all(exp.Add, exp.Sub)):
        if isinstance(binary, (exp.Add, exp.Sub)):
            _arithmetic(binary)
    for diff in list(tree.find_all(exp.TimestampDiff)):
        _timestamp_diff(diff)
    for node in list(tree.find_all(exp.Case, exp.If)):
        if isinstance(node, exp.If) and isinstance(node.parent, exp.Case):
            continue  # a WHEN branch, handled with its CASE
        if isinstance(node, (exp.Case, exp.If)):
            _mixed_branches(node)
    return tree


def _is(node: exp.Expr, *types: exp.DType) -> bool:
    return node.type is not None and node.type.is_type(*types)


def _date_literal(node: exp.Expr) -> exp.Expr | None:
    """``CAST('2019-07-05' AS DATE)`` for a date-shaped string literal, else None."""
    if not (isinstance(node, exp.Literal) and node.is_string):
        return None
    text = node.name.strip()
    if _DATE.fullmatch(text):
        kind = "DATE"
    elif _DATETIME.fullmatch(text):
        kind = "TIMESTAMP"
    else:
        return None
    cast = exp.cast(exp.Literal.string(text), kind)
    cast.type = exp.DataType.build(kind)
    return cast


def _arithmetic(node: exp.Add | exp.Sub) -> None:
    left, right = node.this, node.expression
    if isinstance(left, exp.Interval) or isinstance(right, exp.Interval):
        for side in (left, right):
            cast = _date_literal(side)
            if cast is not None:
                side.replace(cast)
        return
    dates = [side for side in (left, right) if _is(side, _T.DATE)]
    others = [side for side in (left, right) if side not in dates]
    if not dates or not all(_numeric(o) for o in others):
        return
    for side in dates:
        number = exp.cast(
            exp.Anonymous(this="STRFTIME", expressions=[side.copy(), exp.Literal.string("%Y%m%d")]),
            "BIGINT",
        )
        number.type = exp.DataType.build("BIGINT")
        side.replace(number)
    node.type = exp.DataType.build("BIGINT") if all(_integer(o) for o in others) else None


def _numeric(node: exp.Expr) -> bool:
    if isinstance(node, exp.Literal):
        return not node.is_string
    return _is(node, *exp.DataType.NUMERIC_TYPES)


def _integer(node: exp.Expr) -> bool:
    if isinstance(node, exp.Literal):
        return node.is_int
    return _is(node, *exp.DataType.INTEGER_TYPES)


def _timestamp_diff(node: exp.TimestampDiff) -> None:
    unit = node.args.get("unit")
    name = unit.name.upper() if isinstance(unit, exp.Expr) else "DAY"
    if name not in _FIXED_UNITS:
        raise MySQLCastError(
            f"TIMESTAMPDIFF({name}, ...) is not supported: MySQL counts complete months "
            "by its own end-of-month rule, which DuckDB's functions do not reproduce",
            node,
        )
    # sqlglot reads TIMESTAMPDIFF(unit, start, end) as this=end, expression=start.
    start, end = node.expression, node.this
    args = []
    for arg in (start, end):
        cast = _date_literal(arg)
        args.append(cast if cast is not None else arg.copy())
    call = exp.Anonymous(this="DATE_SUB", expressions=[exp.Literal.string(name), *args])
    call.type = exp.DataType.build("BIGINT")
    node.replace(call)


def _branches(node: exp.Case | exp.If) -> list[exp.Expr]:
    if isinstance(node, exp.If):
        values = [node.args.get("true"), node.args.get("false")]
    else:
        values = [i.args.get("true") for i in node.args.get("ifs") or ()]
        values.append(node.args.get("default"))
    return [v for v in values if isinstance(v, exp.Expr) and not isinstance(v, exp.Null)]


def _mixed_branches(node: exp.Case | exp.If) -> None:
    values = _branches(node)
    strings = [v for v in values if _is(v, *exp.DataType.TEXT_TYPES)]
    others = [v for v in values if v not in strings]
    if not strings or not others:
        return
    if not all(_textual(v) for v in others):
        return  # a decimal or a date branch: left to DuckDB (its text may differ)
    for value in others:
        value.replace(_as_text(value))
    node.type = exp.DataType.build("VARCHAR")


def _textual(node: exp.Expr) -> bool:
    """A branch whose MySQL text DuckDB's CAST AS VARCHAR reproduces."""
    if isinstance(node, exp.Boolean):
        return True
    if isinstance(node, exp.Literal):
        return not node.is_string and bool(re.fullmatch(r"-?\d+(\.\d+)?", node.name))
    return _is(node, *exp.DataType.INTEGER_TYPES, _T.BOOLEAN)


def _as_text(node: exp.Expr) -> exp.Expr:
    if isinstance(node, exp.Boolean):
        text: exp.Expr = exp.Literal.string("1" if node.this else "0")
    elif isinstance(node, exp.Literal):
        text = exp.Literal.string(node.name)
    elif _is(node, _T.BOOLEAN):
        text = exp.cast(exp.cast(node.copy(), "INT"), "VARCHAR")
    else:
        text = exp.cast(node.copy(), "VARCHAR")
    text.type = exp.DataType.build("VARCHAR")
    return text
