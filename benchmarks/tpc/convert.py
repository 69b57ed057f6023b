"""Convert sqlglot's TPC-H and TPC-DS optimizer fixtures into benchmark pairs.

Usage::

    git --git-dir=SQLGLOT/.git show HEAD:tests/fixtures/optimizer/tpc-h/tpc-h.sql > tpc-h.sql
    git --git-dir=SQLGLOT/.git show HEAD:tests/fixtures/optimizer/tpc-ds/tpc-ds.sql > tpc-ds.sql
    git --git-dir=SQLGLOT/.git show HEAD:tests/helpers.py > helpers.py
    python benchmarks/tpc/convert.py tpc-h.sql tpc-ds.sql helpers.py COMMIT

Each fixture holds a query and sqlglot's optimized version of it, separated by
``;`` as in sqlglot's ``load_sql_fixture_pairs``: one pair per query, candidate the
optimized version, reference the original (sqlglot's tests check them equal by
executing both on DuckDB). The column types are sqlglot's (``tests/helpers.py``:
TPC-H dates are strings, as its optimized queries assume); the keys are the
specifications' and live in ``tpch.sql`` / ``tpcds.sql`` beside this file.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).parent

_TYPES = {"bigint": "BIGINT", "double": "DOUBLE", "int": "INTEGER", "string": "VARCHAR"}


def pairs(text: str) -> list[tuple[str, str, str]]:
    """(title, original, optimized) for each query of a fixture file."""
    lines = text.splitlines()
    statements: list[tuple[str, str]] = []
    title, current = "", []
    for line in lines:
        match = re.match(r"--\s*(TPC-[HD]S? \d+.*)$", line)
        if match:
            title = match.group(1).strip()
            continue
        if line.startswith(("--", "#")) or not line.strip():
            continue  # comments, and sqlglot's metadata lines ("# execute: true")
        current.append(line)
        if line.rstrip().endswith(";"):
            statements.append((title, "\n".join(current).rstrip().rstrip(";")))
            current = []
    out = []
    for i in range(0, len(statements) - 1, 2):
        (name, original), (_, optimized) = statements[i], statements[i + 1]
        out.append((name, original, optimized))
    return out


def schema_columns(helpers: str, name: str) -> dict[str, dict[str, str]]:
    """A schema dict of sqlglot's tests/helpers.py, read without importing it."""
    start = helpers.index(f"{name} = {{")
    body = helpers[start + len(name) + 3 :]
    depth = 0
    for end, ch in enumerate(body):  # noqa: B007 (the loop's end is the dict's)
        depth += ch == "{"
        depth -= ch == "}"
        if depth == 0:
            break
    value: dict[str, dict[str, str]] = json.loads(re.sub(r",(\s*})", r"\1", body[: end + 1]))
    return value


def main(argv: list[str]) -> int:
    tpch, tpcds, helpers_path, commit = argv
    helpers = Path(helpers_path).read_text(encoding="utf-8")
    for fixture, schema_name, ddl_file, out_name, prefix in (
        (tpch, "TPCH_SCHEMA", "tpch.sql", "tpch.jsonl", "tpch"),
        (tpcds, "TPCDS_SCHEMA", "tpcds.sql", "tpcds.jsonl", "tpcds"),
    ):
        ddl = (HERE / ddl_file).read_text(encoding="utf-8")
        _check_columns(ddl, schema_columns(helpers, schema_name))
        path = f"tests/fixtures/optimizer/{Path(fixture).stem}/{Path(fixture).name}"
        records = []
        for name, original, optimized in pairs(Path(fixture).read_text(encoding="utf-8")):
            number = name.split()[1]
            records.append(
                {
                    "id": f"{prefix}/{number}",
                    "source": f"tobymao/sqlglot@{commit} {path} ({name})",
                    "schema_ddl": ddl,
                    "dialect": "duckdb",
                    "candidate": optimized,
                    "reference": original,
                    "label": "equivalent",
                    "label_source": "sqlglot's optimizer test: both run on DuckDB and compared",
                    "notes": "candidate: sqlglot's optimize() of the reference",
                }
            )
        with (HERE / out_name).open("w", encoding="utf-8") as out:
            for record in records:
                out.write(json.dumps(record) + "\n")
        print(f"{out_name}: {len(records)} pairs")
    return 0


def _check_columns(ddl: str, columns: dict[str, dict[str, str]]) -> None:
    """The DDL declares every table and column of sqlglot's schema, with its type (or,
    for a date column sqlglot keeps as a string, DATE)."""
    for table, cols in columns.items():
        body = re.search(rf"CREATE TABLE {table} \((.*?)\n\);", ddl, re.S)
        assert body, table
        for col, typ in cols.items():
            types = _TYPES[typ] + ("|DATE" if typ == "string" else "")
            assert re.search(rf"\b{col}\s+({types})\b", body.group(1)), (table, col)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
