"""Coverage-guided fuzzing of the parser, guard and schema loader with atheris.

Usage (``pip install atheris`` first; libFuzzer flags pass through)::

    python benchmarks/fuzz_atheris.py -max_total_time=300 -timeout=20 \
        -artifact_prefix=/tmp/atheris_crashes/ /tmp/atheris_corpus

The first run seeds the corpus directory (the last argument, created if missing) with
every query and schema of ``corpus/``. Where ``benchmarks/fuzz.py`` mutates blindly,
libFuzzer keeps the inputs that reach new lines of sqlglot and sqlequiv, so it goes
deeper into the parser; it only runs the cheap targets (no DuckDB, no z3).

Input layout: byte 0 picks the target (even: ``guard_query``, odd: ``load_schema``),
byte 1 the dialect, the rest is the text (UTF-8, bad bytes kept as lone surrogates).
A crash is any exception other than ``QueryError`` / ``SchemaError``, or a
``QueryError("unsupported")`` whose message names an internal exception
(``KeyError``, ``TypeError``...): the guard turned a bug into a refusal.
"""

from __future__ import annotations

import contextlib
import re
import sys
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

with atheris.instrument_imports(include=["sqlequiv", "sqlglot"]):
    from sqlequiv.errors import QueryError, SchemaError
    from sqlequiv.guard import guard_query
    from sqlequiv.schema import load_schema

from support import fuzz_inputs as fi

DIALECTS = ("duckdb", "postgres", "mysql", "sqlite", "trino", "spark", *fi.DIALECT_NAMES)
_MASKED = re.compile(r"could not be analysed \((\w+Error|\w+Exception)\b")


class MaskedError(Exception):
    """The guard reported an internal error as an ``unsupported`` query."""


def _schema():  # type: ignore[no-untyped-def]
    return load_schema(max(fi.corpus().schemas, key=len))


SCHEMA = _schema()


def test_one_input(data: bytes) -> None:
    if len(data) < 2:
        return
    dialect = DIALECTS[data[1] % len(DIALECTS)]
    text = data[2:].decode("utf-8", "surrogateescape")
    if data[0] % 2:
        with contextlib.suppress(SchemaError):
            load_schema(text if "CREATE" in text.upper() else "CREATE TABLE " + text, dialect)
        return
    try:
        guard_query(text, SCHEMA, dialect=dialect)
    except QueryError as err:
        if err.kind == "unsupported" and _MASKED.search(err.message):
            raise MaskedError(err.message) from err


def seed(directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    if any(directory.iterdir()):
        return
    corpus = fi.corpus()
    for i, query in enumerate(corpus.queries):
        d = DIALECTS.index(query.dialect) if query.dialect in DIALECTS else 0
        (directory / f"query-{i}").write_bytes(bytes([0, d]) + query.sql.encode())
    for i, ddl in enumerate(corpus.schemas):
        (directory / f"schema-{i}").write_bytes(bytes([1, 0]) + ddl.encode())


def main() -> None:
    dirs = [a for a in sys.argv[1:] if not a.startswith("-")]
    if dirs:
        seed(Path(dirs[-1]))
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
