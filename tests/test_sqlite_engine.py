"""SQLite-faithful execution: ``sqlite``-dialect queries run on SQLite itself, sandboxed.

Every test runs Python's real ``sqlite3``; nothing is mocked. The semantic pairs
are the ones a transpile to DuckDB judges differently (or refuses).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest
from sqlglot import exp

from sqlequiv import check
from sqlequiv.database import Database
from sqlequiv.errors import QueryFailed
from sqlequiv.execute import shared_executor
from sqlequiv.execute.sqlite_engine import SQLiteExecutor, sqlite_value
from sqlequiv.guard import guard_query
from sqlequiv.options import Options
from sqlequiv.schema import load_schema
from sqlequiv.schema.model import Column, Schema, Table
from sqlequiv.search.domains import build_domains
from sqlequiv.search.harvest import harvest

CARS = """
CREATE TABLE makers (id INTEGER PRIMARY KEY, maker TEXT, country TEXT);
CREATE TABLE cars (
    id INTEGER PRIMARY KEY,
    maker_id INTEGER REFERENCES makers (id),
    horsepower TEXT,
    weight INTEGER,
    year INTEGER CHECK (year > 1900)
);
"""


def _executor(timeout: float = 1.0) -> SQLiteExecutor:
    ex = SQLiteExecutor(timeout=timeout)
    ex.prepare(load_schema(CARS, "sqlite"))
    ex.load(
        Database(
            {
                "makers": ((1, "amc", "usa"), (2, "bmw", "germany")),
                "cars": ((1, 1, "96", 3000, 1970), (2, 2, "150", 2500, 1971)),
            }
        )
    )
    return ex


# -- the engine's semantics -----------------------------------------------------


def test_text_column_compared_with_a_number_is_compared_as_text() -> None:
    ex = _executor()
    # '96' > '150' as text; a transpile to DuckDB refuses the comparison outright.
    assert ex.run("SELECT id FROM cars WHERE horsepower > 150").rows == ((1,),)
    assert ex.run("SELECT id FROM cars WHERE CAST(horsepower AS INT) > 150").rows == ()


def test_integer_division_like_and_null_order_are_sqlites() -> None:
    ex = _executor()
    assert ex.run("SELECT weight / 7 FROM cars WHERE id = 1").rows == ((428,),)
    assert ex.run("SELECT count(*) FROM makers WHERE maker LIKE 'A%'").rows == ((1,),)
    ex.load(Database({"makers": ((1, "amc", None), (2, "bmw", "usa"))}))
    assert ex.run("SELECT country FROM makers ORDER BY country").rows == ((None,), ("usa",))


def test_values_are_stored_as_sqlite_stores_them() -> None:
    import datetime as dt
    import decimal

    assert sqlite_value(dt.date(2026, 9, 30)) == "2026-09-30"
    assert sqlite_value(dt.datetime(2026, 9, 30, 14, 0, 0, 1)) == "2026-09-30 14:00:00.000001"
    assert sqlite_value(decimal.Decimal("2.50")) == 2.5
    assert sqlite_value(True) == 1
    assert sqlite_value(float("nan")) is None


def test_a_failure_that_depends_on_the_data_is_not_static() -> None:
    ex = _executor()
    ex.load(Database({"cars": ((1, None, "1", 2**62, 1970), (2, None, "2", 2**62, 1971))}))
    with pytest.raises(QueryFailed) as overflow:
        ex.run("SELECT sum(weight) FROM cars")
    assert not overflow.value.static  # integer overflow: this data only
    with pytest.raises(QueryFailed) as unknown:
        ex.run("SELECT nosuch FROM cars")
    assert unknown.value.static


# -- check() on SQLite ------------------------------------------------------------


def test_check_runs_the_source_text_on_sqlite() -> None:
    cand = 'SELECT id FROM cars WHERE horsepower > 150'
    ref = "SELECT id FROM cars WHERE CAST(horsepower AS INTEGER) > 150"
    v = check(cand, ref, CARS, dialect="sqlite")
    assert v.verdict == "not_equivalent", v.evidence
    assert v.executed == {
        "engine": "sqlite",
        "server": f"SQLite {sqlite3.sqlite_version}",  # the library that ran them
        "candidate": cand,
        "reference": ref,
    }
    assert v.counterexample is not None
    # The counterexample really separates the two on SQLite, from scratch.
    con = sqlite3.connect(":memory:")
    con.execute("CREATE TABLE makers (id INTEGER, maker TEXT, country TEXT)")
    con.execute("CREATE TABLE cars (id INTEGER, maker_id INTEGER, horsepower TEXT, "
                "weight INTEGER, year INTEGER)")  # fmt: skip
    for table, rows in v.counterexample.tables.items():
        for row in rows:
            marks = ", ".join("?" for _ in row)
            con.execute(f"INSERT INTO {table} ({', '.join(row)}) VALUES ({marks})",
                        tuple(row.values()))  # fmt: skip
        for row in rows:
            if table == "cars":
                assert row["year"] is None or row["year"] > 1900  # the CHECK holds
    assert con.execute(cand).fetchall() != con.execute(ref).fetchall()


def test_other_dialects_still_run_on_duckdb() -> None:
    v = check("SELECT a FROM t", "SELECT a FROM t", "CREATE TABLE t (a INT)", dialect="mysql")
    assert v.executed["engine"] == "duckdb"


@pytest.mark.parametrize(
    ("cand", "ref"),
    [
        (
            "SELECT maker FROM makers WHERE maker LIKE 'a%'",
            "SELECT maker FROM makers WHERE maker LIKE 'A%'",
        ),
        (
            'SELECT maker FROM makers WHERE country = "usa"',
            "SELECT maker FROM makers WHERE country = 'usa'",
        ),
        (
            "SELECT julianday(year || '-01-01') FROM cars",
            "SELECT JULIANDAY(year || '-01-01') FROM cars",
        ),
    ],
)
def test_sqlite_only_equivalences_are_proved(cand: str, ref: str) -> None:
    v = check(cand, ref, CARS, dialect="sqlite")
    assert (v.verdict, v.method) == ("equivalent", "normalized"), v.error


def test_double_quoted_column_names_still_resolve() -> None:
    q = guard_query('SELECT "maker" FROM makers WHERE "country" = "usa"',
                    load_schema(CARS, "sqlite"), dialect="sqlite")  # fmt: skip
    literals = [lit.name for lit in q.qualified.find_all(exp.Literal)]
    assert literals == ["usa"]
    assert q.executed_sql == 'SELECT "maker" FROM makers WHERE "country" = "usa"'


def test_functions_are_looked_up_in_sqlite() -> None:
    v = check("SELECT list_value(1, 2) FROM cars", "SELECT 1 FROM cars", CARS, dialect="sqlite")
    assert v.verdict == "error" and v.error is not None
    assert v.error.kind == "unknown_function"
    assert "SQLite" in v.error.message


def test_symbolic_proofs_only_where_sqlite_and_duckdb_agree() -> None:
    # Integers compared with integers mean the same on both engines: z3's proof holds.
    v = check("SELECT count(*) FROM cars WHERE weight > 2000",
              "SELECT count(*) FROM cars WHERE weight >= 2001", CARS, dialect="sqlite")  # fmt: skip
    assert (v.verdict, v.method) == ("equivalent", "symbolic")
    # A TEXT column compared with numbers is compared as text on SQLite: '1505' > '150'
    # but not >= '151'. DuckDB's proof would be about another engine, so none is claimed.
    cand = "SELECT count(*) FROM cars WHERE horsepower > 150"
    ref = "SELECT count(*) FROM cars WHERE horsepower >= 151"
    assert check(cand, ref, CARS, dialect="sqlite").verdict == "not_equivalent"
    # LIKE ignores case on SQLite, a range does not: refuted, never proved.
    like = check("SELECT maker FROM makers WHERE maker LIKE 'a%'",
                 "SELECT maker FROM makers WHERE maker >= 'a' AND maker < 'b'",
                 CARS, dialect="sqlite")  # fmt: skip
    assert like.verdict == "not_equivalent"


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ("SELECT maker FROM makers WHERE country IN ('usa', 'uk') AND id > 2", True),
        (
            "SELECT m.maker, count(*) FROM makers AS m JOIN cars AS c ON c.maker_id = m.id "
            "GROUP BY m.id HAVING count(*) > 1 ORDER BY m.maker LIMIT 3",
            True,
        ),
        ("SELECT id FROM cars WHERE horsepower > 150", False),  # text against a number
        ("SELECT id FROM cars WHERE weight + 1 > 150", False),  # arithmetic
        ("SELECT id FROM cars WHERE upper(horsepower) = 'X'", False),  # a function
        ("SELECT id FROM cars WHERE CAST(horsepower AS INT) > 1", False),  # a cast
        ("SELECT maker FROM makers WHERE maker LIKE 'a%'", False),
        ("SELECT id FROM cars WHERE horsepower IS 150", False),  # IS compares like =
        ("SELECT id FROM cars WHERE horsepower IS NULL", True),
        ("SELECT sum(horsepower) FROM cars", False),  # sum of text
        ("SELECT price FROM things WHERE price > 1", False),  # NUMERIC affinity
        ("SELECT name FROM things WHERE name = 'x'", False),  # COLLATE NOCASE
        ("SELECT born FROM things WHERE born > '2020-01-01'", False),  # dates are text
        ("SELECT maker FROM makers WHERE id IN (SELECT maker_id FROM cars)", True),
        ("SELECT maker FROM makers WHERE id NOT IN (SELECT max(weight) FROM cars)", True),
        ("SELECT maker FROM makers WHERE id IN (SELECT horsepower FROM cars)", False),
        ("SELECT maker FROM makers WHERE id IN (SELECT id FROM cars UNION SELECT 1)", False),
        # What an EXISTS subquery outputs is never read: only its plain columns may be
        # of any type; its condition is checked as any other.
        ("SELECT id FROM cars WHERE EXISTS (SELECT born FROM things)", True),
        ("SELECT id FROM cars WHERE EXISTS (SELECT * FROM things WHERE price > 1)", False),
        ("SELECT id FROM cars WHERE EXISTS (SELECT upper(born) FROM things)", False),
    ],
)
def test_the_portable_fragment(sql: str, expected: bool) -> None:
    from sqlequiv.execute.portable import portable

    ddl = CARS + "CREATE TABLE things (price number, name TEXT COLLATE NOCASE, born DATE);"
    schema = load_schema(ddl, "sqlite")
    assert portable(guard_query(sql, schema, dialect="sqlite").qualified, schema) is expected


def test_text_columns_compared_with_numbers_get_numeric_strings() -> None:
    schema = Schema((Table("t", (Column("hp", exp.DataType.build("TEXT")),)),))
    harvested = harvest([guard_query("SELECT hp FROM t WHERE hp > 150", schema).qualified])
    plain = build_domains(schema, harvested, 3).of("t", "hp").values
    sqlite = build_domains(schema, harvested, 3, numeric_text=True).of("t", "hp").values
    assert "99" not in plain
    assert {"150", "99", "1000"} <= set(sqlite)


def test_seed_data_values_join_the_pools() -> None:
    schema = Schema((Table("t", (Column("city", exp.DataType.build("TEXT")),)),))
    samples = {"t": [("Reykjavík",), (None,), ("Oslo",)]}
    values = build_domains(schema, harvest([]), 3, samples=samples).of("t", "city").values
    assert "Reykjavík" in values and "Oslo" in values
    v = check("SELECT city FROM t WHERE length(city) > 5", "SELECT city FROM t", schema,
              dialect="sqlite", seed_data=samples)  # fmt: skip
    assert v.verdict == "not_equivalent"


# -- the sandbox ----------------------------------------------------------------

ATTACKS = [
    ("ATTACH DATABASE 'canary.db' AS x", "not authorized"),
    ("PRAGMA case_sensitive_like = 1", "not authorized"),
    ("SELECT load_extension('canary')", "load_extension"),
    ("SELECT fts3_tokenizer('simple')", "fts3_tokenizer"),
    ("SELECT writefile('canary.txt', 'x')", "writefile"),
    ("SELECT readfile('canary.txt')", "readfile"),
    ("SELECT * FROM sqlite_master", "sqlite_master"),
    ("SELECT * FROM pragma_table_info('cars')", "not authorized"),
    ("INSERT INTO cars (id) VALUES (9)", "not authorized"),
    ("DELETE FROM cars", "not authorized"),
    ("CREATE TABLE canary (a)", "not authorized"),
    ("VACUUM INTO 'canary.db'", "authoriz"),
    ("SELECT 1; SELECT 2", "one statement"),
]


@pytest.fixture
def sandbox_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory holding a canary file, to show nothing was read or created."""
    monkeypatch.chdir(tmp_path)
    canary = tmp_path / "canary.txt"
    canary.write_text("secret-canary")
    os.utime(canary, (1_000_000, 1_000_000))
    return tmp_path


def _untouched(directory: Path) -> None:
    assert sorted(p.name for p in directory.iterdir()) == ["canary.txt"]
    canary = directory / "canary.txt"
    assert canary.read_text() == "secret-canary"
    assert canary.stat().st_mtime == 1_000_000


@pytest.mark.parametrize(("sql", "message"), ATTACKS, ids=[a[0][:40] for a in ATTACKS])
def test_the_executor_refuses_what_is_not_a_read(sandbox_dir: Path, sql: str, message: str) -> None:
    ex = _executor()
    with pytest.raises(QueryFailed) as failed:
        ex.run(sql)
    assert message in str(failed.value)
    _untouched(sandbox_dir)
    assert ex.run("SELECT count(*) FROM cars").rows == ((2,),)  # still healthy, data intact


@pytest.mark.parametrize(("sql", "message"), ATTACKS, ids=[a[0][:40] for a in ATTACKS])
def test_check_turns_attacks_into_errors(sandbox_dir: Path, sql: str, message: str) -> None:
    v = check(sql, "SELECT id FROM cars", CARS, dialect="sqlite")
    assert v.verdict == "error" and v.error is not None, v.verdict
    assert v.error.side == "candidate"
    _untouched(sandbox_dir)


def test_the_executors_own_statements_are_refused_as_queries(sandbox_dir: Path) -> None:
    # The executor's own writes run in a trusted mode and stay compiled in its statement
    # cache: the same texts from a query (without the connection's secret mark) must
    # still be compiled under the authorizer, and refused.
    ex = _executor()
    car = (1, 1, "96", 3000, 1970)
    ex.load(Database({"cars": (car,)}))
    own = (
        'DELETE FROM "cars"',
        'INSERT INTO "cars" VALUES (?, ?, ?, ?, ?)',
        "BEGIN",
        "COMMIT",
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
    )
    for sql in own:
        with pytest.raises(QueryFailed):
            ex.run(sql)
    ex.load(Database({"cars": (car, (2, 2, "150", 2500, 1971))}))
    assert ex.run("SELECT count(*) FROM cars").rows == ((2,),)
    ex.load(Database({}))  # a table left empty is emptied all the same
    assert ex.run("SELECT count(*) FROM cars").rows == ((0,),)
    _untouched(sandbox_dir)


def test_runaway_queries_end_with_their_limit(sandbox_dir: Path) -> None:
    options = Options(query_timeout=0.5)
    forever = (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
    )
    v = check(forever, "SELECT 1", CARS, dialect="sqlite", options=options)
    assert v.error is not None and v.error.kind == "timeout"
    blob = "SELECT length(randomblob(1000000000)) FROM cars"
    v = check(blob, "SELECT 1 FROM cars", CARS, dialect="sqlite", options=options)
    assert v.error is not None and v.error.kind == "resource_limit", v.error
    cross = "SELECT count(*) FROM cars a, cars b, cars c, cars d, cars e, cars f, cars g, cars h"
    # Generated tables are tiny, so this one runs; it is the timeout that bounds it anyway.
    assert check(cross, cross, CARS, dialect="sqlite", options=options).verdict == "equivalent"
    _untouched(sandbox_dir)
    # The shared executor is healthy for the next pair.
    executor = shared_executor(options.query_timeout, "sqlite")
    assert executor.dialect == "sqlite"
    assert check("SELECT id FROM cars", "SELECT id FROM cars", CARS, dialect="sqlite").verdict == (
        "equivalent"
    )


def test_grade_runs_a_sqlite_item_on_sqlite() -> None:
    from sqlequiv.grading.worker import Settings, Task, Worker
    from sqlequiv.suite import SuiteDocument

    doc = SuiteDocument(
        {
            "items": [
                {
                    "id": "hp",
                    "question": "Which cars have more than 150 horsepower?",
                    "reference_kind": "query",
                    "dialect": "sqlite",
                    "schema": CARS,
                    "accepted_references": [
                        {
                            "name": "gold",
                            "sql": "SELECT id FROM cars WHERE CAST(horsepower AS INT) > 150",
                        }
                    ],
                }
            ]
        }
    )
    worker = Worker(doc, Settings())
    wrong = worker.handle(Task("grade", "hp", 0, "SELECT id FROM cars WHERE horsepower > 150"))
    assert wrong["status"] == "fail", wrong
    right = worker.handle(
        Task("grade", "hp", 1, "SELECT id FROM cars WHERE CAST(horsepower AS INTEGER) > 150")
    )
    assert right["status"] == "pass", right


def test_a_nocase_column_keeps_its_collation(tmp_path: Path) -> None:
    path = tmp_path / "people.sqlite"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE p (id INTEGER PRIMARY KEY, name TEXT COLLATE NOCASE, code TEXT)")
    con.commit()
    con.close()
    schema = load_schema(path)
    assert schema.table("p").column("name").collation == "NOCASE"
    # Under NOCASE these are the same filter: a counterexample would be a false fail.
    same = check("SELECT id FROM p WHERE name = 'bob'", "SELECT id FROM p WHERE name = 'BOB'",
                 schema, dialect="sqlite")  # fmt: skip
    assert same.verdict != "not_equivalent"
    differ = check("SELECT id FROM p WHERE code = 'bob'", "SELECT id FROM p WHERE code = 'BOB'",
                   schema, dialect="sqlite")  # fmt: skip
    assert differ.verdict == "not_equivalent"


def test_reported_tables_replay_on_sqlite_as_they_are() -> None:
    # Timestamps are text in SQLite: the tables must show the stored text (space, not 'T'),
    # or replaying them would compare differently.
    ddl = "CREATE TABLE e (id INTEGER PRIMARY KEY, ts DATETIME)"
    cand = "SELECT id FROM e WHERE ts <= '2020-01-01'"
    ref = "SELECT id FROM e WHERE ts < '2020-01-02'"
    v = check(cand, ref, ddl, dialect="sqlite")
    assert v.verdict == "not_equivalent" and v.counterexample is not None
    con = sqlite3.connect(":memory:")
    con.execute(ddl)
    for row in v.counterexample.tables["e"]:
        assert "T" not in str(row["ts"])
        con.execute("INSERT INTO e VALUES (?, ?)", (row["id"], row["ts"]))
    example = v.counterexample
    assert sorted(con.execute(cand).fetchall()) == sorted(map(tuple, example.candidate_rows))
    assert sorted(con.execute(ref).fetchall()) == sorted(map(tuple, example.reference_rows))


def test_like_patterns_are_lowered_for_the_canonical_form_only_where_they_change() -> None:
    from sqlequiv.pipeline.prove import _sqlite_like_patterns

    schema = load_schema(CARS, "sqlite")
    lower = guard_query("SELECT id FROM makers WHERE maker LIKE 'a%'", schema, dialect="sqlite")
    # Nothing to lower: the tree itself, whose canonical form the prover reuses.
    assert _sqlite_like_patterns(lower.qualified) is lower.qualified
    upper = guard_query("SELECT id FROM makers WHERE maker LIKE 'A%'", schema, dialect="sqlite")
    lowered = _sqlite_like_patterns(upper.qualified)
    assert lowered is not upper.qualified and "'a%'" in lowered.sql()
    assert "'A%'" in upper.qualified.sql()  # the guarded tree is left as written
