"""The corpus format and its parser (``sqlequiv.corpus``); running the pairs is test_corpus.py."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import duckdb
import pytest
import sqlglot

from sqlequiv.corpus import (
    CAUSES,
    EXPECTS,
    METHODS,
    CorpusCase,
    CorpusError,
    default_root,
    load_corpus,
    load_file,
)

CASES = load_corpus()
SCHEMA_DIR = default_root() / "schemas"


def test_corpus_is_big_enough() -> None:
    assert len(CASES) >= 70
    assert len({c.schema_name for c in CASES}) >= 4
    counts = Counter(c.expect for c in CASES)
    assert counts["equivalent"] >= 20
    assert counts["not_equivalent"] >= 20
    assert counts["error"] >= 8
    assert sum(c.method == "normalized" for c in CASES) >= 12


def test_ids_are_unique() -> None:
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids)), [i for i, n in Counter(ids).items() if n > 1]


def test_labels_are_valid() -> None:
    for case in CASES:
        where = f"{case.file.name}:{case.line}"
        assert case.expect in EXPECTS, where
        assert case.cause is None or (case.cause in CAUSES and case.expect == "not_equivalent")
        assert case.method is None or (case.method in METHODS and case.expect == "equivalent")
        assert case.kind is None or case.expect == "error", where
        assert case.title and case.candidate and case.reference, where
        assert not case.candidate.endswith(";") and not case.reference.endswith(";"), where


def test_every_cause_is_exercised() -> None:
    assert {c.cause for c in CASES if c.cause} == set(CAUSES)


@pytest.mark.parametrize("path", sorted(SCHEMA_DIR.glob("*.sql")), ids=lambda p: p.stem)
def test_schema_ddl_executes_on_duckdb(path: Path) -> None:
    con = duckdb.connect()
    try:
        con.execute(path.read_text(encoding="utf-8"))
        tables = con.execute("SELECT count(*) FROM duckdb_tables()").fetchone()
    finally:
        con.close()
    assert tables is not None and tables[0] >= 1


def test_every_schema_is_used() -> None:
    assert {p.stem for p in SCHEMA_DIR.glob("*.sql")} == {c.schema_name for c in CASES}


@pytest.mark.parametrize("case", [c for c in CASES if c.expect != "error"], ids=lambda c: c.id)
def test_queries_parse_in_their_dialect(case: CorpusCase) -> None:
    for sql in (case.candidate, case.reference):
        statements = sqlglot.parse(sql, read=case.dialect)
        assert len(statements) == 1 and statements[0] is not None, case.id


@pytest.mark.parametrize("case", [c for c in CASES if c.expect == "error"], ids=lambda c: c.id)
def test_error_cases_name_a_kind_and_a_valid_reference(case: CorpusCase) -> None:
    assert case.kind, case.id
    assert len(sqlglot.parse(case.reference, read=case.dialect)) == 1, case.id


# -- the parser on small, hand-written files ---------------------------------------------

SCHEMA = "CREATE TABLE t (a INTEGER PRIMARY KEY, b VARCHAR);\n"

GOOD = """\
# A comment line: no lower-case key before the colon.
# schema: tiny
# dialect: postgres

# title: Renamed alias
# expect: equivalent
# method: normalized
SELECT x.a
FROM t AS x;
SELECT t.a FROM t;

# title: A boundary
# schema: other
# dialect: duckdb
# expect: not_equivalent
# cause: filter_window
# note: a = 1 is in one and not the other
SELECT a FROM t WHERE a > 1;
SELECT a FROM t WHERE a >= 1;

# title: Two statements
# expect: error
# kind: multiple_statements
SELECT 1; SELECT 2;
SELECT a FROM t;
"""


def _corpus(tmp_path: Path, text: str, name: str = "pairs.sql") -> Path:
    (tmp_path / "schemas").mkdir(exist_ok=True)
    (tmp_path / "schemas" / "tiny.sql").write_text(SCHEMA, encoding="utf-8")
    (tmp_path / "schemas" / "other.sql").write_text(SCHEMA, encoding="utf-8")
    (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def test_parses_a_well_formed_file(tmp_path: Path) -> None:
    cases = load_corpus(_corpus(tmp_path, GOOD))
    assert [c.id for c in cases] == [
        "pairs/renamed-alias",
        "pairs/a-boundary",
        "pairs/two-statements",
    ]
    first, second, third = cases
    assert (first.schema_name, first.dialect, first.method, first.line) == (
        "tiny",
        "postgres",
        "normalized",
        5,
    )
    assert first.candidate == "SELECT x.a\nFROM t AS x"
    assert first.reference == "SELECT t.a FROM t"
    assert first.schema_ddl == SCHEMA
    assert (second.schema_name, second.dialect, second.cause) == (
        "other",
        "duckdb",
        "filter_window",
    )
    assert second.note == "a = 1 is in one and not the other"
    assert (third.expect, third.kind, third.candidate) == (
        "error",
        "multiple_statements",
        "SELECT 1; SELECT 2",
    )


def test_load_file_finds_schemas_beside_it(tmp_path: Path) -> None:
    root = _corpus(tmp_path, GOOD)
    assert len(load_file(root / "pairs.sql")) == 3


def test_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        load_corpus(tmp_path / "nope")


CASE = "# title: T\n# expect: equivalent\nSELECT a FROM t;\nSELECT a FROM t;\n"


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (
            "# schema: tiny\n\n# expect: equivalent\nSELECT a FROM t;\nSELECT a FROM t;\n",
            3,
            "title",
        ),
        ("# schema: tiny\n\n# title: T\nSELECT a FROM t;\nSELECT a FROM t;\n", 3, "expect"),
        ("# schema: tiny\n\n# title: T\n# expect: maybe\nSELECT 1;\nSELECT 1;\n", 4, "expect"),
        (
            "# schema: tiny\n\n# title: T\n# expect: not_equivalent\n# cause: typo\n"
            "SELECT 1;\nSELECT 2;\n",
            5,
            "cause",
        ),
        (
            "# schema: tiny\n\n# title: T\n# expect: equivalent\n# cause: grain\n"
            "SELECT 1;\nSELECT 1;\n",
            5,
            "only for",
        ),
        ("# schema: nowhere\n\n" + CASE, 1, "unknown schema"),
        (
            "# schema: tiny\n\n# title: T\n# schema: nowhere\n# expect: error\nX;\nY;\n",
            4,
            "nowhere",
        ),
        ("# schema: tiny\n# dialect: klingon\n\n" + CASE, 2, "dialect"),
        (
            "# schema: tiny\n\n# title: T\n# expect: equivalent\nSELECT a FROM t;\n",
            3,
            "1 statement",
        ),
        (
            "# schema: tiny\n\n# title: T\n# expect: equivalent\nSELECT 1;\nSELECT 1;\nSELECT 1;\n",
            7,
            "more than two",
        ),
        (
            "# schema: tiny\n\n# title: T\n# expect: equivalent\nSELECT 1;\nSELECT 1\n\n" + CASE,
            6,
            "does not end with ';'",
        ),
        ("# schema: tiny\n\n" + CASE + "\n" + CASE, 8, "duplicate title"),
        ("# schema: tiny\n\n# title: T\n# expected: equivalent\nSELECT 1;\nSELECT 1;\n", 4, "key"),
        ("# schema: tiny\n\nSELECT 1;\n", 3, "before the first"),
        ("# title: T\n# expect: equivalent\nSELECT 1;\nSELECT 1;\n", 1, "no schema"),
        (
            "# schema: tiny\n\n# title: T\nSELECT 1;\n# expect: equivalent\nSELECT 1;\n",
            5,
            "metadata goes before",
        ),
    ],
    ids=[
        "no-title",
        "no-expect",
        "bad-expect",
        "bad-cause",
        "cause-on-equivalent",
        "unknown-schema",
        "unknown-schema-override",
        "unknown-dialect",
        "one-statement",
        "three-statements",
        "unterminated",
        "duplicate-title",
        "unknown-key",
        "sql-before-title",
        "no-schema",
        "metadata-after-sql",
    ],
)
def test_malformed_files_name_file_and_line(
    tmp_path: Path, text: str, line: int, message: str
) -> None:
    root = _corpus(tmp_path, text)
    with pytest.raises(ValueError, match=message) as info:
        load_corpus(root)
    err = info.value
    assert isinstance(err, CorpusError)
    assert (err.file, err.line) == (root / "pairs.sql", line)
    assert f"pairs.sql:{line}:" in str(err)
