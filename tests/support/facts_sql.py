"""A mined fact re-checked in SQL on DuckDB, over a counterexample's tables: not with
the Python that mined it (``sqlequiv.data.mining``). Shared by ``tests/test_data.py`` and
``benchmarks/data_tiers.py``."""

from __future__ import annotations

from typing import Any

import duckdb

from sqlequiv.data.mining import Fact
from sqlequiv.schema.model import Schema


def holds_in_sql(fact: Fact, tables: dict[str, list[dict[str, Any]]], schema: Schema) -> bool:
    """Whether ``fact`` holds on ``tables`` (a counterexample's, as JSON), in SQL."""
    con = duckdb.connect()
    for table in schema:
        columns = ", ".join(f'"{c}" VARCHAR' for c in table.column_names)
        con.execute(f'CREATE TABLE "{table.name}" ({columns})')
        for row in tables.get(table.name, []):
            values = [None if v is None else str(v) for v in row.values()]
            marks = ", ".join("?" for _ in values)
            con.execute(f'INSERT INTO "{table.name}" VALUES ({marks})', values)
    t, c = f'"{fact.table}"', f'"{fact.column}"'
    number = f"TRY_CAST({c} AS DOUBLE)"
    if fact.kind == "non_empty":
        sql = f"SELECT COUNT(*) > 0 FROM {t}"
    elif fact.kind == "not_null":
        sql = f"SELECT COUNT(*) = 0 FROM {t} WHERE {c} IS NULL"
    elif fact.kind == "unique":
        sql = f"SELECT COUNT({c}) = COUNT(DISTINCT {c}) FROM {t}"
    elif fact.kind == "references":
        rt, rc = fact.detail
        sql = (
            f"SELECT COUNT(*) = 0 FROM {t} WHERE {c} IS NOT NULL AND {number} NOT IN "
            f'(SELECT TRY_CAST("{rc}" AS DOUBLE) FROM "{rt}" WHERE "{rc}" IS NOT NULL)'
        )
    elif fact.kind == "values":
        listed = ", ".join("'" + str(v).replace("'", "''") + "'" for v in fact.detail)
        sql = f"SELECT COUNT(*) = 0 FROM {t} WHERE {c} NOT IN ({listed})"
    elif fact.kind == "shape":
        pattern = {
            "date": r"[0-9]{4}-[0-9]{2}-[0-9]{2}",
            "timestamp": r"[0-9]{4}-[0-9]{2}-[0-9]{2}[ T][0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]+)?)?",
            "number": r"[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)",
        }.get(fact.detail)
        kept = (
            f"regexp_full_match({c}, '{pattern}')" if pattern else f"{c} = trim({c}) AND {c} <> ''"
        )
        if fact.detail in ("date", "timestamp"):  # a real day, not only its shape
            kept += f" AND TRY_CAST({c} AS TIMESTAMP) IS NOT NULL"
        sql = f"SELECT COUNT(*) = 0 FROM {t} WHERE {c} IS NOT NULL AND NOT ({kept})"
    elif fact.kind == "determines":
        other = f'"{fact.detail}"'
        sql = (
            f"SELECT COUNT(*) = 0 FROM (SELECT {c} FROM {t} GROUP BY {c} "
            f"HAVING COUNT(DISTINCT coalesce({other}, chr(0))) > 1)"
        )
    else:
        low, high = fact.detail
        sql = f"SELECT COUNT(*) = 0 FROM {t} WHERE {number} NOT BETWEEN {low} AND {high}"
    result = con.execute(sql).fetchone()
    return bool(result and result[0])
