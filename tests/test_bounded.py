"""Bounded verification (``sqlequiv.symbolic.bounded.verify``), against real z3 and DuckDB.

Three kinds of checks:

* the corpus: every ``differ`` is a database that satisfies the constraints
  and really separates the queries on DuckDB; no equivalent pair is refuted;
* literature pairs that random fixtures miss (duplicate join partners,
  groups of 5-11 rows), found with the suggested row bounds;
* exactness: on random small concrete databases the encoded result of each
  query (the symbolic rows pinned to the database's values) equals DuckDB's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

import pytest
import z3
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlglot import exp

from sqlequiv.compare.rows import compare_results
from sqlequiv.corpus import CorpusCase, load_corpus
from sqlequiv.database import Database
from sqlequiv.database.constraints import python_violations, sql_violations
from sqlequiv.errors import QueryFailed
from sqlequiv.execute.duckdb_engine import DuckDBExecutor
from sqlequiv.guard import GuardedQuery, guard_query
from sqlequiv.options import Options
from sqlequiv.results import ResultSet
from sqlequiv.schema import Schema, load_schema
from sqlequiv.search.probe import order_keys_for
from sqlequiv.symbolic.bounded.averages import Averages
from sqlequiv.symbolic.bounded.encode import Encoder
from sqlequiv.symbolic.bounded.relations import same_value
from sqlequiv.symbolic.bounded.tables import build_database
from sqlequiv.symbolic.bounded.verify import bounded_check, suggest_row_bounds
from sqlequiv.symbolic.terms import model_value
from sqlequiv.symbolic.terms.domain import constant
from sqlequiv.symbolic.terms.formulas import disj, neg
from sqlequiv.symbolic.terms.functions import SIGNATURES, duckdb_call

EXECUTOR = DuckDBExecutor(timeout=5.0)
OPTIONS = Options()


def _guard(
    candidate: str, reference: str, schema: Schema, dialect: str
) -> tuple[GuardedQuery, ...]:
    return (
        guard_query(candidate, schema, dialect=dialect, side="candidate"),
        guard_query(reference, schema, dialect=dialect, side="reference"),
    )


def _separates(db: Database, cand: GuardedQuery, ref: GuardedQuery, schema: Schema) -> bool:
    """Whether ``db`` is valid and the two queries really return different rows on DuckDB."""
    assert python_violations(db, schema) == [], python_violations(db, schema)
    EXECUTOR.prepare(schema)
    EXECUTOR.load(db)
    assert sql_violations(schema, EXECUTOR.scalar) == []
    try:
        cand_rows = EXECUTOR.run(cand.duckdb_sql)
        ref_rows = EXECUTOR.run(ref.duckdb_sql)
    except QueryFailed:
        return False
    comparison = compare_results(cand_rows, ref_rows, OPTIONS, order_keys_for(ref, OPTIONS))
    return not comparison.equal and not comparison.ambiguous


# -- the corpus ------------------------------------------------------------------------

# The bounded encoding follows DuckDB's semantics; pairs in the sqlite dialect run on SQLite,
# whose type affinity and case-insensitive LIKE it does not model (there its models are only
# candidates, re-executed on SQLite, and its "same" is no evidence).
CASES = [c for c in load_corpus() if c.expect != "error" and c.dialect != "sqlite"]
OUTCOMES: Counter[tuple[str, str, int]] = Counter()
#: Not-equivalent pairs the encoding calls "same" up to bound 2, and why (issue 15).
KNOWN_SAME = {
    # LIMIT 1 keeps one of two tied countries, the reference both: no tie-break gives the
    # candidate's row count, but the encoding of LIMIT accepts any cut through the tie.
    "text2sql/the-country-with-the-most-cities-limit-1-vs-every-country-with-the-maximum-count",
    # Differences that need more rows than bound 2 gives: two countries of one name with
    # two cities each against a third with three (7 cities), a country with five cities.
    "search/the-country-with-the-most-cities-grouped-by-name-instead-of-by-code",
    "search/countries-with-more-than-five-cities-5-instead-of-5",
}


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_corpus_pair(case: CorpusCase) -> None:
    schema = load_schema(case.schema_ddl, case.dialect)
    cand, ref = _guard(case.candidate, case.reference, schema, case.dialect)
    bounds = suggest_row_bounds(cand, ref, schema)
    result = bounded_check(cand, ref, schema, max_bound=2, time_budget=0.75, row_bounds=bounds)
    if case.id not in KNOWN_SAME:
        OUTCOMES[(case.expect, result.status, result.bound)] += 1
    where = f"{case.file.name}:{case.line} {case.title}"
    if result.status == "differ":
        assert result.database is not None
        if _uninterpreted(cand, ref):
            # z3 interprets an uninterpreted function freely: its model is a candidate
            # the pipeline re-executes, valid but not necessarily separating.
            assert python_violations(result.database, schema) == [], where
            return
        # A refuted equivalent pair would be a corpus bug (or ours): either way, loud.
        assert case.expect == "not_equivalent", (where, result.database)
        assert _separates(result.database, cand, ref, schema), (where, result.database)


def _uninterpreted(*queries: GuardedQuery) -> bool:
    """Whether a query calls a function the term layer may leave uninterpreted."""
    for query in queries:
        for node in query.qualified.find_all(exp.Func):
            if isinstance(node, exp.Cast | exp.TsOrDsToDate):
                return True
            call = duckdb_call(node)
            if call is not None and call.name in SIGNATURES:
                return True
    return False


def test_corpus_summary() -> None:
    """Runs after the pairs (file order): most pairs are refuted or proved up to the bound."""
    if not OUTCOMES:
        pytest.skip("run with the corpus pairs")
    refuted = sum(n for (expect, status, _), n in OUTCOMES.items() if status == "differ")
    same = sum(n for (expect, status, _), n in OUTCOMES.items() if status == "same")
    wrong = [k for k in OUTCOMES if k[0] == "not_equivalent" and k[1] == "same"]
    print(f"\ncorpus: {refuted} refuted, {same} same up to bound 2; {sorted(OUTCOMES.items())}")
    assert not wrong, "a not-equivalent pair found the same: does its difference need more rows?"
    assert refuted >= 45
    assert same >= 50


# -- literature pairs random fixtures miss ----------------------------------------------

_UNIVERSITY = """
CREATE TABLE COURSE (COURSE_ID INTEGER, TITLE INTEGER, DEPT_NAME INTEGER, CREDITS INTEGER);
CREATE TABLE DEPARTMENT (DEPT_NAME INTEGER, BUILDING INTEGER, BUDGET INTEGER);
CREATE TABLE INSTRUCTOR (ID INTEGER, NAME INTEGER, SALARY INTEGER, DEPT_NAME INTEGER);
CREATE TABLE TEACHES (ID INTEGER, COURSE_ID INTEGER, SEC_ID INTEGER, YEAR INTEGER,{semester}
  INSTRUCTOR INTEGER);
CREATE TABLE SECTION (COURSE_ID INTEGER, SEC_ID INTEGER, YEAR INTEGER, BUILDING INTEGER,
  ROOM_NUMBER INTEGER, TIME_SLOT_ID INTEGER);
CREATE TABLE TAKES (ID INTEGER, COURSE_ID INTEGER, SEC_ID INTEGER, YEAR INTEGER, GRADE INTEGER);
CREATE TABLE STUDENT (ID INTEGER, NAME INTEGER, DEPT_NAME INTEGER, TOT_CRED INTEGER);
"""
UNIVERSITY = _UNIVERSITY.format(semester="")
UNIVERSITY_SEMESTER = _UNIVERSITY.format(semester=" SEMESTER INTEGER,")

#: (id, DDL, candidate, reference), from VeriEQL's benchmarks/literature (Trino dialect).
LITERATURE = [
    (
        "verieql_literature_6",
        "CREATE TABLE PAYROLL (SSNO INTEGER, DEPTNO INTEGER);"
        "CREATE TABLE APPLICANT (SSNO INTEGER, JOBTITILE INTEGER, OFFICENO INTEGER);",
        "SELECT Y.* FROM PAYROLL X, APPLICANT Y WHERE X.SSNO = Y.SSNO AND X.DEPTNO = 29",
        "SELECT C.* FROM PAYROLL A, (SELECT Y.SSNO, Y.DEPTNO FROM PAYROLL Y) B, APPLICANT C "
        "WHERE A.SSNO = B.SSNO AND C.SSNO = A.SSNO AND B.DEPTNO = 29",
    ),
    (
        "verieql_literature_7",
        "CREATE TABLE EMP (NAME INTEGER, DEPT INTEGER, EMP INTEGER);"
        "CREATE TABLE DEPT (DEPT INTEGER, LOC INTEGER, MGR INTEGER);",
        "SELECT X.NAME AS XN FROM EMP X WHERE EXISTS (SELECT * FROM DEPT Y WHERE Y.LOC = 3 "
        "AND X.EMP = Y.MGR AND X.DEPT = Y.DEPT)",
        "SELECT X.NAME AS XN FROM EMP X, DEPT Y WHERE X.DEPT = Y.DEPT AND Y.LOC = 3 "
        "AND X.EMP = Y.MGR",
    ),
    (
        "verieql_literature_38",
        UNIVERSITY,
        "SELECT C.DEPT_NAME, SUM(C.CREDITS) FROM COURSE C INNER JOIN DEPARTMENT D ON "
        "(C.DEPT_NAME = D.DEPT_NAME) GROUP BY C.DEPT_NAME HAVING SUM(C.CREDITS) > 10 "
        "AND COUNT(DISTINCT C.CREDITS) > 5",
        "SELECT C.DEPT_NAME, SUM(C.CREDITS) FROM COURSE C INNER JOIN DEPARTMENT D ON "
        "(C.DEPT_NAME = D.DEPT_NAME) GROUP BY C.DEPT_NAME HAVING SUM(C.CREDITS) > 10 "
        "AND COUNT(DISTINCT C.CREDITS) > 8",
    ),
    (
        "verieql_literature_44",
        UNIVERSITY,
        "WITH S AS (SELECT ID, TIME_SLOT_ID, YEAR FROM TAKES NATURAL JOIN SECTION GROUP BY ID, "
        "TIME_SLOT_ID, YEAR HAVING COUNT(TIME_SLOT_ID)>4) SELECT DISTINCT ID,NAME FROM S "
        "NATURAL JOIN STUDENT",
        "WITH S AS (SELECT ID, TIME_SLOT_ID, YEAR FROM TAKES NATURAL JOIN SECTION GROUP BY ID, "
        "TIME_SLOT_ID, YEAR HAVING COUNT(TIME_SLOT_ID)>5) SELECT DISTINCT ID,NAME FROM S "
        "NATURAL JOIN STUDENT",
    ),
    (
        "verieql_literature_51",
        UNIVERSITY_SEMESTER,
        "SELECT C.DEPT_NAME, SUM(I.SALARY) FROM COURSE C INNER JOIN DEPARTMENT D ON "
        "(C.DEPT_NAME = D.DEPT_NAME) INNER JOIN INSTRUCTOR I ON (D.DEPT_NAME = I.DEPT_NAME) "
        "GROUP BY C.DEPT_NAME HAVING SUM(I.SALARY)>100 AND MAX(I.SALARY)<75",
        "SELECT C.DEPT_NAME, SUM(I.SALARY) FROM COURSE C INNER JOIN DEPARTMENT D ON "
        "(C.DEPT_NAME = D.DEPT_NAME) INNER JOIN INSTRUCTOR I ON (D.DEPT_NAME = I.DEPT_NAME) "
        "GROUP BY C.DEPT_NAME HAVING SUM(I.SALARY)>=100 AND MAX(I.SALARY)<75",
    ),
    (
        "verieql_literature_52",
        UNIVERSITY_SEMESTER,
        "SELECT C.DEPT_NAME, SUM(D.BUDGET) FROM COURSE C INNER JOIN DEPARTMENT D ON "
        "(C.DEPT_NAME = D.DEPT_NAME) INNER JOIN TEACHES T ON (C.COURSE_ID = T.COURSE_ID) "
        "GROUP BY C.DEPT_NAME HAVING SUM(D.BUDGET)>100000 AND COUNT(D.BUDGET)>10",
        "SELECT C.DEPT_NAME, SUM(D.BUDGET) FROM COURSE C INNER JOIN DEPARTMENT D ON "
        "(C.DEPT_NAME = D.DEPT_NAME) INNER JOIN TEACHES T ON (C.COURSE_ID = T.COURSE_ID) "
        "GROUP BY C.DEPT_NAME HAVING SUM(D.BUDGET)>100000 AND COUNT(DISTINCT D.BUDGET)>10",
    ),
    (
        "verieql_literature_54",
        UNIVERSITY_SEMESTER,
        "SELECT T.SEMESTER, SUM(C.CREDITS) FROM DEPARTMENT D INNER JOIN TEACHES T ON "
        "(D.BUDGET = T.YEAR + 4) INNER JOIN COURSE C ON (C.DEPT_NAME = D.DEPT_NAME) GROUP BY "
        "T.SEMESTER HAVING AVG(C.CREDITS)>2 AND COUNT(D.BUILDING)=2",
        "SELECT T.SEMESTER, SUM(C.CREDITS) FROM DEPARTMENT D INNER JOIN TEACHES T ON "
        "(D.BUDGET = T.YEAR + 4) INNER JOIN COURSE C ON (C.DEPT_NAME = D.DEPT_NAME) GROUP BY "
        "T.SEMESTER HAVING AVG(C.CREDITS)>2 AND COUNT(D.BUILDING)>=2",
    ),
    (
        "verieql_literature_58",
        UNIVERSITY_SEMESTER,
        "SELECT SUM(T) AS SU FROM (SELECT YEAR AS T FROM TEACHES NATURAL JOIN INSTRUCTOR "
        "GROUP BY YEAR, COURSE_ID HAVING COUNT(ID)>4) AS TEMP GROUP BY T",
        "SELECT SUM(T) AS SU FROM (SELECT YEAR AS T FROM TEACHES NATURAL JOIN INSTRUCTOR "
        "GROUP BY YEAR HAVING COUNT(ID)>4) AS TEMP GROUP BY T",
    ),
]


@pytest.mark.parametrize(
    ("ddl", "candidate", "reference"), [p[1:] for p in LITERATURE], ids=[p[0] for p in LITERATURE]
)
def test_literature_pair_is_refuted(ddl: str, candidate: str, reference: str) -> None:
    schema = load_schema(ddl, "trino")
    cand, ref = _guard(candidate, reference, schema, "trino")
    bounds = suggest_row_bounds(cand, ref, schema)
    result = bounded_check(cand, ref, schema, max_bound=2, time_budget=10.0, row_bounds=bounds)
    assert result.status == "differ", result
    assert result.database is not None
    assert _separates(result.database, cand, ref, schema), result.database


def test_suggested_row_bounds_follow_count_thresholds() -> None:
    schema = load_schema(UNIVERSITY_SEMESTER, "trino")
    cand, ref = _guard(LITERATURE[5][2], LITERATURE[5][3], schema, "trino")
    assert suggest_row_bounds(cand, ref, schema) == {"department": 11}
    schema = load_schema("CREATE TABLE t (g INT, x INT)", "duckdb")
    cand, ref = _guard(
        "SELECT g FROM t GROUP BY g HAVING COUNT(*) > 1000",
        "SELECT g FROM t ORDER BY g LIMIT 3 OFFSET 1",
        schema,
        "duckdb",
    )
    # Out of reach (ignored) and LIMIT + OFFSET + 1.
    assert suggest_row_bounds(cand, ref, schema) == {"t": 5}


# -- results the claim rests on -------------------------------------------------------

SHOP = """
CREATE TABLE p (id INTEGER PRIMARY KEY, g INTEGER, name VARCHAR, amt DECIMAL(6, 2));
CREATE TABLE c (id INTEGER PRIMARY KEY, pid INTEGER REFERENCES p (id), v INTEGER, tag VARCHAR);
"""


@pytest.mark.parametrize(
    ("candidate", "reference", "status"),
    [
        # Keys make DISTINCT redundant; the FK makes the join a no-op.
        ("SELECT DISTINCT id, g FROM p", "SELECT id, g FROM p", "same"),
        ("SELECT c.id FROM c JOIN p ON p.id = c.pid", "SELECT id FROM c WHERE pid IS NOT NULL",
         "same"),
        # NOT IN over a nullable column is not NOT EXISTS.
        ("SELECT id FROM p WHERE g NOT IN (SELECT v FROM c)",
         "SELECT id FROM p WHERE NOT EXISTS (SELECT 1 FROM c WHERE c.v = p.g)", "differ"),
        # Queries that read no table are checked once, not skipped.
        ("SELECT 1 AS a", "SELECT 2 AS a", "differ"),
        ("SELECT 1 AS a", "SELECT 3 - 2 AS a", "same"),
        # Different column counts differ even on the empty database.
        ("SELECT id FROM p", "SELECT id, g FROM p", "differ"),
        # Columns matched by name, as the comparison ignores their order.
        ("SELECT g, id FROM p", "SELECT id, g FROM p", "same"),
        # Only the order differs, and the reference's order counts: no claim.
        ("SELECT id FROM p ORDER BY id DESC", "SELECT id FROM p ORDER BY id", "unsupported"),
        # Window functions are outside the fragment.
        ("SELECT id, ROW_NUMBER() OVER (ORDER BY id) FROM p", "SELECT id, 1 FROM p",
         "unsupported"),
        # The same top-2 by a unique key.
        ("SELECT id FROM p ORDER BY id LIMIT 2", "SELECT id FROM p ORDER BY id ASC LIMIT 2",
         "same"),
        # Tied rows that are identical leave the result determined.
        ("SELECT g FROM p WHERE g IS NOT NULL ORDER BY g LIMIT 1",
         "SELECT MIN(g) FROM p HAVING COUNT(g) > 0", "same"),
        ("SELECT g FROM p ORDER BY g LIMIT 1", "SELECT MIN(g) FROM p HAVING COUNT(g) > 0",
         "differ"),
        # AVG is proved through its abstraction, and refuted with a genuine model.
        ("SELECT g, AVG(v) FROM p JOIN c ON c.pid = p.id GROUP BY g",
         "SELECT g, AVG(v) FROM c JOIN p ON p.id = c.pid GROUP BY g", "same"),
        ("SELECT g FROM p JOIN c ON c.pid = p.id GROUP BY g HAVING AVG(v) > 2",
         "SELECT g FROM p JOIN c ON c.pid = p.id GROUP BY g HAVING AVG(v) >= 2", "differ"),
        # A float SUM depends on the addition order: found different, never proved the same.
        ("SELECT SUM(CAST(v AS DOUBLE)) FROM c", "SELECT SUM(CAST(v AS DOUBLE)) FROM c WHERE true",
         "unsupported"),
    ],
)  # fmt: skip
def test_targeted_claims(candidate: str, reference: str, status: str) -> None:
    schema = load_schema(SHOP, "duckdb")
    cand, ref = _guard(candidate, reference, schema, "duckdb")
    result = bounded_check(cand, ref, schema, max_bound=2, time_budget=10.0)
    assert result.status == status, result
    if status == "same":
        assert result.bound == 2
    if status == "differ":
        assert result.database is not None
        assert _separates(result.database, cand, ref, schema), result.database


def test_timeout_keeps_the_bound_proven() -> None:
    schema = load_schema(SHOP, "duckdb")
    cand, ref = _guard("SELECT id FROM p", "SELECT id FROM p WHERE id = id", schema, "duckdb")
    result = bounded_check(cand, ref, schema, max_bound=50, time_budget=0.5)
    assert result.status == "timeout"
    assert result.bound >= 1
    assert result.reason is not None and "budget" in result.reason


# -- exactness of the encoding against DuckDB --------------------------------------------

#: One query per operator (and a few combinations), over SHOP.
QUERIES = [
    "SELECT p.id, c.v FROM p JOIN c ON c.pid = p.id",
    "SELECT p.id, c.v FROM p LEFT JOIN c ON c.pid = p.id AND c.v > 0",
    "SELECT p.g, c.tag FROM p RIGHT JOIN c ON c.pid = p.id",
    "SELECT p.g, c.v FROM p FULL JOIN c ON c.v = p.g",
    "SELECT p.g, c.v FROM p, c WHERE p.g < c.v",
    "SELECT g, COUNT(*), COUNT(name), COUNT(DISTINCT name), SUM(amt), MIN(name), MAX(amt) "
    "FROM p GROUP BY g",
    "SELECT g, AVG(amt), AVG(g), AVG(DISTINCT g) FROM p GROUP BY g",
    "SELECT COUNT(*), SUM(v), MAX(tag), AVG(v) FROM c WHERE v > 5",
    "SELECT pid, SUM(v) FROM c GROUP BY pid HAVING COUNT(*) > 1",
    "SELECT COUNT(*) FILTER (WHERE v > 0), SUM(DISTINCT v), COUNT(DISTINCT tag) FROM c",
    "SELECT DISTINCT g, name FROM p",
    "SELECT g FROM p UNION SELECT v FROM c",
    "SELECT g FROM p UNION ALL SELECT v FROM c",
    "SELECT g FROM p INTERSECT SELECT v FROM c",
    "SELECT g FROM p INTERSECT ALL SELECT v FROM c",
    "SELECT g FROM p EXCEPT SELECT v FROM c",
    "SELECT g FROM p EXCEPT ALL SELECT v FROM c",
    "SELECT id FROM p WHERE g IN (SELECT v FROM c)",
    "SELECT id FROM p WHERE g NOT IN (SELECT v FROM c)",
    "SELECT id FROM p WHERE (g, name) IN (SELECT v, tag FROM c)",
    "SELECT id FROM p WHERE EXISTS (SELECT 1 FROM c WHERE c.pid = p.id AND c.v > p.g)",
    "SELECT id FROM p WHERE NOT EXISTS (SELECT 1 FROM c WHERE c.pid = p.id)",
    "SELECT id, (SELECT MAX(v) FROM c WHERE c.pid = p.id) FROM p",
    "SELECT id, (SELECT c.v FROM c WHERE c.id = p.g) FROM p",
    "SELECT id FROM p WHERE g > ALL (SELECT v FROM c WHERE c.pid = p.id)",
    "SELECT id FROM p WHERE g = ANY (SELECT v FROM c)",
    "SELECT id, name FROM p ORDER BY g DESC NULLS FIRST, id LIMIT 2",
    "SELECT g FROM p ORDER BY g LIMIT 2 OFFSET 1",
    "SELECT v FROM c LIMIT 1",
    "WITH t AS (SELECT pid, COUNT(*) AS n FROM c GROUP BY pid) "
    "SELECT p.id, t.n FROM p LEFT JOIN t ON t.pid = p.id",
    "SELECT x.g, x.n FROM (SELECT g, COUNT(*) AS n FROM p GROUP BY g) AS x WHERE x.n > 1",
    "SELECT g, COUNT(*) AS n FROM p GROUP BY g ORDER BY n DESC, g LIMIT 1",
    "SELECT CASE WHEN v > 1 THEN 'big' ELSE tag END, COALESCE(v, 0) + 1 FROM c",
    "SELECT name || 'x', amt * 2 FROM p WHERE name LIKE 'a%'",
    "SELECT p.name, COUNT(c.id) FROM p LEFT JOIN c ON c.pid = p.id GROUP BY p.name",
    "SELECT id FROM p WHERE id IN (SELECT pid FROM c GROUP BY pid HAVING SUM(v) > 1)",
    "SELECT DISTINCT g FROM p ORDER BY g DESC LIMIT 2",
    "SELECT g FROM p UNION ALL SELECT v FROM c ORDER BY 1 LIMIT 3",
    "SELECT COUNT(*) FROM p HAVING COUNT(*) > 1",
    "WITH t AS (SELECT id, g FROM p WHERE g > 0) SELECT a.id, b.id FROM t AS a JOIN t AS b "
    "ON a.g = b.g",
    "SELECT x, y FROM (VALUES (1, 'a'), (2, 'b')) AS t(x, y) WHERE x IN (SELECT g FROM p)",
    "SELECT id FROM p WHERE amt > (SELECT AVG(amt) FROM p)",
    "SELECT id, tag FROM p NATURAL JOIN c",
    "SELECT name, COUNT(*) FROM p JOIN c USING (id) GROUP BY name",
    "SELECT id FROM p WHERE EXISTS (SELECT 1 FROM c WHERE c.v IN "
    "(SELECT p2.g FROM p AS p2 WHERE p2.id = p.id))",
    "SELECT g, COUNT(*) FROM p GROUP BY g HAVING EXISTS (SELECT 1 FROM c WHERE c.v = p.g)",
    "SELECT id FROM p WHERE g IN (WITH w AS (SELECT v FROM c WHERE c.pid = p.id) SELECT v FROM w)",
]

_SCHEMA = load_schema(SHOP, "duckdb")
_GUARDED = [guard_query(q, _SCHEMA, dialect="duckdb") for q in QUERIES]


@st.composite
def shop_databases(draw: st.DrawFn) -> Database:
    ids = draw(st.lists(st.integers(0, 4), max_size=3, unique=True))
    p = tuple(
        (
            i,
            draw(st.sampled_from([None, 0, 1, 2])),
            draw(st.sampled_from([None, "a", "ab", "b"])),
            draw(st.sampled_from([None, "0", "1.50", "2.25"])),
        )
        for i in ids
    )
    c_ids = draw(st.lists(st.integers(0, 4), max_size=3, unique=True))
    c = tuple(
        (
            i,
            draw(st.sampled_from([None, *ids])),
            draw(st.sampled_from([None, -1, 0, 1, 2, 3])),
            draw(st.sampled_from([None, "a", "x"])),
        )
        for i in c_ids
    )
    p = tuple((i, g, n, None if a is None else Decimal(a)) for i, g, n, a in p)
    return Database({"p": p, "c": c})


def _encoded_results(db: Database) -> list[list[tuple[Any, ...]] | None]:
    """Each query's rows as the encoding computes them with the tables pinned to ``db``.

    None where the database leaves the result undetermined (a LIMIT through ties).
    """
    sizes = {t.name: max(1, len(db.rows(t.name))) for t in _SCHEMA}
    sdb = build_database(_SCHEMA, sizes)
    pins = []
    for table in _SCHEMA:
        rows = db.rows(table.name)
        for i, row in enumerate(sdb.tables[table.name].rows):
            if i >= len(rows):
                pins.append(neg(row.exists))
                continue
            pins.append(row.exists)
            for value, concrete in zip(row.values, rows[i], strict=True):
                pins.append(same_value(value, constant(concrete, value.kind, value.scale)))
    encoder = Encoder(sdb, averages=Averages("exact"))
    relations = []
    undetermined = []
    for query in _GUARDED:
        before = len(encoder.nondeterministic)
        relations.append(encoder.top(query.qualified))
        undetermined.append(disj(encoder.nondeterministic[before:]))
    solver = z3.Solver()
    solver.add(*sdb.constraints, *encoder.constraints, *pins)
    for _ in range(50):  # refine the AVG abstraction until the model is DuckDB's
        # A valid database must satisfy the encoded constraints: UNSAT would be a bug.
        assert solver.check() == z3.sat
        lemmas = encoder.averages.refute(solver.model())
        if not lemmas:
            break
        solver.add(*lemmas)
    model = solver.model()
    out: list[list[tuple[Any, ...]] | None] = []
    for rel, cut in zip(relations, undetermined, strict=True):
        if z3.is_true(model.eval(cut, model_completion=True)):
            out.append(None)
            continue
        out.append(
            [
                tuple(model_value(model, v) for v in row.values)
                for row in rel.rows
                if z3.is_true(model.eval(row.exists, model_completion=True))
            ]
        )
    return out


def _compare(query: str, duck: ResultSet, ours: Sequence[tuple[Any, ...]], db: Database) -> None:
    comparison = compare_results(ResultSet(duck.columns, tuple(ours)), duck, OPTIONS)
    assert comparison.equal, (query, db, duck.rows, list(ours))


@settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(db=shop_databases())
def test_encoding_matches_duckdb(db: Database) -> None:
    assert python_violations(db, _SCHEMA) == []
    encoded = _encoded_results(db)
    EXECUTOR.prepare(_SCHEMA)
    EXECUTOR.load(db)
    for query, guarded, ours in zip(QUERIES, _GUARDED, encoded, strict=True):
        try:
            duck = EXECUTOR.run(guarded.duckdb_sql)
        except QueryFailed:
            continue  # e.g. a scalar subquery with two rows: no result to agree with
        if ours is not None:
            _compare(query, duck, ours, db)


def test_model_becomes_a_valid_database() -> None:
    """A model's database keeps every constraint and lists tables in schema column order."""
    cand, ref = _guard(
        "SELECT c.tag FROM c JOIN p ON p.id = c.pid WHERE p.amt > 1",
        "SELECT c.tag FROM c WHERE c.pid IS NOT NULL",
        _SCHEMA,
        "duckdb",
    )
    result = bounded_check(cand, ref, _SCHEMA, max_bound=2, time_budget=10.0)
    assert result.status == "differ"
    assert result.database is not None
    assert set(result.database.tables) == {"p", "c"}
    assert python_violations(result.database, _SCHEMA) == []
    assert all(len(row) == 4 for rows in result.database.tables.values() for row in rows)
    assert _separates(result.database, cand, ref, _SCHEMA)


# -- work, not the clock, ends a run --------------------------------------------

#: VeriEQL's literature benchmark (github.com/VeriEQL/VeriEQL@bf5856d, cex-benchmarks CA6
#: and CA8): five NATURAL joins grouped, and a grouped join under a grouped join. Both
#: once ran until the 2 s clock stopped them, at a bound that depended on the machine.
_UNIVERSITY = """
CREATE TABLE COURSE (COURSE_ID INTEGER, TITLE INTEGER, DEPT_NAME INTEGER, CREDITS INTEGER);
CREATE TABLE DEPARTMENT (DEPT_NAME INTEGER, BUILDING INTEGER, BUDGET INTEGER);
CREATE TABLE TAKES (ID INTEGER, COURSE_ID INTEGER, SEC_ID INTEGER, YEAR INTEGER, GRADE INTEGER);
CREATE TABLE SECTION (COURSE_ID INTEGER, SEC_ID INTEGER, YEAR INTEGER, BUILDING INTEGER,
                      ROOM_NUMBER INTEGER, TIME_SLOT_ID INTEGER);
CREATE TABLE STUDENT (ID INTEGER, NAME INTEGER, DEPT_NAME INTEGER, TOT_CRED INTEGER);
"""
_FIVE_JOINS = (
    "SELECT STUDENT.ID FROM COURSE NATURAL JOIN DEPARTMENT NATURAL JOIN STUDENT NATURAL JOIN "
    "TAKES NATURAL JOIN SECTION GROUP BY STUDENT.ID, STUDENT.DEPT_NAME HAVING COUNT(DEPT_NAME) {}"
)
_NESTED_GROUPS = (
    "SELECT STUDENT.ID, STUDENT.NAME FROM STUDENT JOIN (SELECT TAKES.ID, S.TIME_SLOT_ID, S.YEAR "
    "FROM TAKES JOIN SECTION AS S ON TAKES.COURSE_ID = S.COURSE_ID AND TAKES.SEC_ID = S.SEC_ID "
    "GROUP BY TAKES.ID, S.TIME_SLOT_ID, S.YEAR HAVING {}(S.TIME_SLOT_ID) > 1) AS A "
    "ON STUDENT.ID = A.ID GROUP BY STUDENT.ID, STUDENT.NAME HAVING COUNT(DISTINCT STUDENT.ID) > 2"
)


@pytest.mark.parametrize(
    ("candidate", "reference", "stopped_by"),
    [
        (_FIVE_JOINS.format("> 1"), _FIVE_JOINS.format(">= 2"), "would take about"),
        (_NESTED_GROUPS.format("COUNT"), _NESTED_GROUPS.format("SUM"), "z3 units in all"),
    ],
    ids=["projected_terms", "total_units"],
)
def test_a_budget_of_work_ends_a_run_the_clock_once_ended(
    candidate: str, reference: str, stopped_by: str
) -> None:
    schema = load_schema(_UNIVERSITY)
    cand, ref = _guard(candidate, reference, schema, "duckdb")
    bounds = suggest_row_bounds(cand, ref, schema)
    result = bounded_check(cand, ref, schema, time_budget=120.0, row_bounds=bounds)
    assert result.status == "timeout"
    assert result.reason is not None and stopped_by in result.reason
    assert result.seconds < 60  # well inside the clock: the work budget stopped it
    # The same work, the same answer: the run ends at the same bound.
    again = bounded_check(cand, ref, schema, time_budget=120.0, row_bounds=bounds)
    assert (again.status, again.bound, again.reason) == (result.status, result.bound, result.reason)


def test_projected_terms_follow_the_growth_of_the_bounds_before() -> None:
    from sqlequiv.symbolic.bounded.verify import _projected_terms

    assert _projected_terms([], 9) == 0
    assert _projected_terms([(3, 10)], 6) == 40  # quadratic from one bound
    assert _projected_terms([(3, 10), (6, 80)], 9) == 270  # cubic through two
    assert _projected_terms([(3, 10), (6, 10)], 9) == 10  # flat stays flat
