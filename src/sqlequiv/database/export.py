"""Write distinguishing databases as fixtures: a ``.sql`` INSERT script and the same as JSON."""

from __future__ import annotations

import json
from pathlib import Path

from sqlequiv.database import Database
from sqlequiv.database import insert_script as database_inserts
from sqlequiv.schema.model import Schema
from sqlequiv.verdict import Counterexample


def write_fixtures(examples: list[Counterexample], schema: Schema, out: Path) -> list[Path]:
    """Write each example as ``<name>.sql`` and ``<name>.json`` in ``out``; returns the .sql paths.

    The script runs on DuckDB after the schema DDL (``schema.ddl()``): tables
    are filled parents first, so it satisfies enforced foreign keys too.
    """
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    used: set[str] = set()
    for example in examples:
        name = example.name
        n = 2
        while name in used:
            name, n = f"{example.name}_{n}", n + 1
        used.add(name)
        sql_path = out / f"{name}.sql"
        sql_path.write_text(counterexample_inserts(example, schema), encoding="utf-8")
        (out / f"{name}.json").write_text(
            json.dumps(example.to_dict(), indent=2) + "\n", encoding="utf-8"
        )
        written.append(sql_path)
    return written


def counterexample_inserts(example: Counterexample, schema: Schema) -> str:
    """INSERT statements for the JSON-form tables of a counterexample.

    Values are the JSON forms (ISO strings for dates, strings for decimals);
    each is cast to its column type, which turns them back into exact values.
    """
    db = Database(
        {
            table.name: tuple(
                tuple(row[c] for c in table.column_names)
                for row in example.tables.get(table.name, [])
            )
            for table in schema
        }
    )
    header = _comment(f"{example.name}: {example.cause}\n{example.detail}")
    return f"{header}\n{database_inserts(db, schema)}\n"


def _comment(text: str) -> str:
    """``text`` as SQL line comments, every line of it: the detail quotes the queries'
    values, and a value holding a newline must not end the comment and become SQL."""
    return "\n".join(f"-- {line}" for line in text.splitlines() or [""])
