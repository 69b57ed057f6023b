"""The prover's normal form: each rewrite proves what it should, and its near miss is refuted.

Every equivalence below is proved by the symbolic layer (``method == "symbolic"``), and
every near miss — the same rewrite where a key, a NOT NULL, a GROUP BY or an order is
missing — gets a counterexample that DuckDB re-executed. Real z3, real DuckDB.
"""

from __future__ import annotations

import math
import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sqlequiv import Options, check
from sqlequiv.pipeline import PROVING_STAGES, REFUTING_STAGES

SCHEMA = """
CREATE TABLE dept (
  deptno INTEGER PRIMARY KEY, name VARCHAR NOT NULL, code VARCHAR NOT NULL UNIQUE, budget INTEGER
);
CREATE TABLE emp (
  empno INTEGER PRIMARY KEY,
  ename VARCHAR,
  job VARCHAR NOT NULL,
  sal INTEGER NOT NULL,
  comm INTEGER,
  deptno INTEGER NOT NULL REFERENCES dept (deptno),
  mgr INTEGER REFERENCES emp (empno),
  badge VARCHAR UNIQUE
);
CREATE TABLE bonus (ename VARCHAR, amount INTEGER);
"""

PROVED = {
    # (Its FILTERs on a boolean column are left as they are: the prover reads this shape.)
    "Calcite's GROUPING SETS rewrite of two COUNT(DISTINCT ...)": (
        "SELECT deptno, COUNT(DISTINCT ename), COUNT(DISTINCT job) FROM emp GROUP BY deptno",
        "SELECT deptno, COUNT(ename) FILTER (WHERE g_1), COUNT(job) FILTER (WHERE g_2) "
        "FROM (SELECT deptno, ename, job, GROUPING(deptno, ename, job) = 1 AS g_1, "
        "GROUPING(deptno, ename, job) = 2 AS g_2 FROM emp "
        "GROUP BY GROUPING SETS ((ename, deptno), (job, deptno))) AS t1 GROUP BY deptno",
    ),
    "an aggregate's FILTER as a CASE on its argument": (
        "SELECT job, AVG(comm) FILTER (WHERE comm IS NOT NULL), "
        "COUNT(*) FILTER (WHERE sal > 10), SUM(DISTINCT sal) FILTER (WHERE comm > 0) "
        "FROM emp GROUP BY job",
        "SELECT job, AVG(comm), COUNT(CASE WHEN sal > 10 THEN 0 END), "
        "SUM(DISTINCT CASE WHEN comm > 0 THEN sal END) FROM emp GROUP BY job",
    ),
    "ORDER BY inside a derived table": (
        "SELECT t.ename FROM (SELECT ename FROM emp ORDER BY sal) t",
        "SELECT ename FROM emp",
    ),
    "derived columns in another order": (
        "SELECT t.job, SUM(t.sal) FROM (SELECT job, sal FROM emp UNION ALL "
        "SELECT job, sal FROM emp) t GROUP BY t.job",
        "SELECT t.job, SUM(t.sal) FROM (SELECT sal, job FROM emp UNION ALL "
        "SELECT sal, job FROM emp) t GROUP BY t.job",
    ),
    "a grouping key the WHERE fixes": (
        "SELECT COUNT(*) FROM emp WHERE deptno = 10 GROUP BY deptno, sal",
        "SELECT COUNT(*) FROM emp WHERE deptno = 10 GROUP BY sal",
    ),
    "GROUP BY a UNIQUE NOT NULL column vs the key": (
        "SELECT d.code, COUNT(*) FROM dept d JOIN emp e ON e.deptno = d.deptno "
        "GROUP BY d.deptno, d.code",
        "SELECT d.code, COUNT(*) FROM dept d JOIN emp e ON e.deptno = d.deptno "
        "GROUP BY d.code",
    ),
    "DISTINCT over a key of every joined row": (
        "SELECT DISTINCT e.empno, d.name FROM emp e JOIN dept d ON d.deptno = e.deptno",
        "SELECT e.empno, d.name FROM emp e JOIN dept d ON d.deptno = e.deptno",
    ),
    "a LEFT JOIN read only by IS NOT NULL is EXISTS": (
        "SELECT e.empno FROM emp e LEFT JOIN (SELECT DISTINCT ename FROM bonus) b "
        "ON b.ename = e.ename WHERE b.ename IS NOT NULL OR e.sal > 10",
        "SELECT e.empno FROM emp e WHERE EXISTS "
        "(SELECT 1 FROM bonus b WHERE b.ename = e.ename) OR e.sal > 10",
    ),
    "an unread LEFT JOIN on a key": (
        "SELECT e.empno FROM emp e LEFT JOIN dept d ON d.deptno = e.mgr",
        "SELECT empno FROM emp",
    ),
    "NOT IN over NOT NULL columns is NOT EXISTS": (
        "SELECT d.name FROM dept d WHERE d.deptno NOT IN (SELECT e.deptno FROM emp e)",
        "SELECT d.name FROM dept d WHERE NOT EXISTS "
        "(SELECT 1 FROM emp e WHERE e.deptno = d.deptno)",
    ),
    "LEFT JOIN … IS NULL on a NOT NULL column is NOT EXISTS": (
        "SELECT d.name FROM dept d LEFT JOIN emp e ON e.deptno = d.deptno WHERE e.job IS NULL",
        "SELECT d.name FROM dept d WHERE NOT EXISTS "
        "(SELECT 1 FROM emp e WHERE e.deptno = d.deptno)",
    ),
    "COUNT(DISTINCT) vs COUNT over a finer grouping": (
        "SELECT deptno, COUNT(DISTINCT job) FROM emp GROUP BY deptno",
        "SELECT t.deptno, COUNT(t.job) FROM (SELECT deptno, job FROM emp "
        "GROUP BY deptno, job) t GROUP BY t.deptno",
    ),
    "SUM of partial SUMs": (
        "SELECT deptno, SUM(sal) FROM emp GROUP BY deptno",
        "SELECT t.deptno, SUM(t.s) FROM (SELECT deptno, job, SUM(sal) AS s FROM emp "
        "GROUP BY deptno, job) t GROUP BY t.deptno",
    ),
    "a strict derived column on the padded side": (
        "SELECT b.amount, e.s FROM bonus b LEFT JOIN (SELECT ename, "
        "CASE WHEN sal < 10 THEN -sal ELSE sal END AS s FROM emp) e ON e.ename = b.ename",
        "SELECT b.amount, CASE WHEN e.sal < 10 THEN -e.sal ELSE e.sal END "
        "FROM bonus b LEFT JOIN emp e ON e.ename = b.ename",
    ),
    "an ON condition the WHERE already implies": (
        "SELECT e.empno, d.name FROM emp e LEFT JOIN dept d ON d.deptno = 10 "
        "WHERE e.empno = 10",
        "SELECT e.empno, d.name FROM emp e LEFT JOIN dept d ON d.deptno = e.empno "
        "WHERE e.empno = 10",
    ),
    "EXISTS vs a cross join with a grouped constant": (
        "SELECT empno FROM emp WHERE EXISTS (SELECT 1 FROM dept WHERE budget > 5)",
        "SELECT e.empno FROM emp e, (SELECT 1 AS i FROM dept WHERE budget > 5 GROUP BY TRUE) t",
    ),
    "UNION of two filters vs DISTINCT with OR": (
        "SELECT job FROM emp WHERE sal > 10 UNION SELECT job FROM emp WHERE comm > 5",
        "SELECT DISTINCT job FROM emp WHERE sal > 10 OR comm > 5",
    ),
    "EXCEPT vs NOT IN on NOT NULL keys": (
        "SELECT deptno FROM dept EXCEPT SELECT deptno FROM emp",
        "SELECT deptno FROM dept WHERE deptno NOT IN (SELECT deptno FROM emp)",
    ),
    "HAVING vs a filtered aggregate": (
        "SELECT deptno, COUNT(*) FROM emp GROUP BY deptno HAVING COUNT(*) > 3",
        "SELECT t.deptno, t.c FROM (SELECT deptno, COUNT(*) AS c FROM emp GROUP BY deptno) t "
        "WHERE t.c > 3",
    ),
    "a join on a nullable foreign key is its IS NOT NULL": (
        "SELECT e.empno FROM emp e JOIN emp m ON m.empno = e.mgr",
        "SELECT empno FROM emp WHERE mgr IS NOT NULL",
    ),
    "a correlated COUNT vs LEFT JOIN + GROUP BY": (
        "SELECT d.name, (SELECT COUNT(*) FROM emp e WHERE e.deptno = d.deptno) FROM dept d",
        "SELECT d.name, COUNT(e.empno) FROM dept d LEFT JOIN emp e ON e.deptno = d.deptno "
        "GROUP BY d.deptno, d.name",
    ),
    "SUM(COALESCE(x, 0)) in a group": (
        "SELECT deptno, COALESCE(SUM(comm), 0) FROM emp GROUP BY deptno",
        "SELECT deptno, SUM(COALESCE(comm, 0)) FROM emp GROUP BY deptno",
    ),
    "COUNT(DISTINCT x) vs COUNT(*) of its non-NULL values": (
        "SELECT COUNT(DISTINCT ename) FROM emp",
        "SELECT COUNT(*) FROM (SELECT DISTINCT ename FROM emp WHERE ename IS NOT NULL) t",
    ),
    "IN over a key is a join": (
        "SELECT e.ename FROM emp e WHERE e.deptno IN (SELECT d.deptno FROM dept d "
        "WHERE d.budget > 3)",
        "SELECT e.ename FROM emp e JOIN dept d ON d.deptno = e.deptno WHERE d.budget > 3",
    ),
    "COUNT of no row and of NULLs": (
        "SELECT COUNT(*), COUNT(NULL) FROM emp WHERE FALSE",
        "SELECT 0, 0",
    ),
    "ROLLUP vs GROUPING SETS": (
        "SELECT deptno, job, SUM(sal) FROM emp GROUP BY ROLLUP (deptno, job)",
        "SELECT deptno, job, SUM(sal) FROM emp "
        "GROUP BY GROUPING SETS ((deptno, job), (deptno), ())",
    ),
    "a FULL JOIN whose WHERE rejects one padding": (
        "SELECT d.name, e.empno FROM dept d FULL JOIN emp e ON e.deptno = d.deptno "
        "WHERE d.budget > 5",
        "SELECT d.name, e.empno FROM dept d LEFT JOIN emp e ON e.deptno = d.deptno "
        "WHERE d.budget > 5",
    ),
    "a LIMIT in a derived table read in its order": (
        "SELECT t.empno FROM (SELECT empno, sal FROM emp ORDER BY empno LIMIT 3) t "
        "ORDER BY t.empno",
        "SELECT empno FROM emp ORDER BY empno LIMIT 3",
    ),
    "a LEFT JOIN LATERAL aggregate is a scalar subquery": (
        "SELECT e.empno, s.m FROM emp e LEFT JOIN LATERAL "
        "(SELECT MAX(x.sal) AS m FROM emp x WHERE x.mgr = e.empno) s ON TRUE",
        "SELECT e.empno, (SELECT MAX(x.sal) FROM emp x WHERE x.mgr = e.empno) FROM emp e",
    ),
    "a sort key after the key never breaks a tie": (
        "SELECT empno, ename FROM emp ORDER BY empno, ename LIMIT 5",
        "SELECT empno, ename FROM emp ORDER BY empno LIMIT 5",
    ),
    "MAX vs the first row in descending order": (
        "SELECT MAX(sal) FROM emp WHERE deptno = 3",
        "SELECT (SELECT sal FROM emp WHERE deptno = 3 ORDER BY sal DESC LIMIT 1)",
    ),
    "a LEFT JOIN on a NOT NULL foreign key is the inner join": (
        "SELECT e.empno, d.name FROM emp e LEFT JOIN dept d ON d.deptno = e.deptno",
        "SELECT e.empno, d.name FROM emp e JOIN dept d ON d.deptno = e.deptno",
    ),
    "DISTINCT over a join read only by its condition is IN": (
        "SELECT DISTINCT d.deptno, d.name FROM dept d JOIN emp e ON e.deptno = d.deptno",
        "SELECT deptno, name FROM dept WHERE deptno IN (SELECT deptno FROM emp)",
    ),
    # (Over the one table read, normalization already sees it: drop_key_count_distinct.)
    "COUNT(DISTINCT key) is COUNT(key) under a join to the key's parent": (
        "SELECT d.deptno, COUNT(DISTINCT e.empno) FROM dept d JOIN emp e "
        "ON e.deptno = d.deptno GROUP BY d.deptno",
        "SELECT d.deptno, COUNT(e.empno) FROM dept d JOIN emp e "
        "ON e.deptno = d.deptno GROUP BY d.deptno",
    ),
    "a derived table's GROUP BY under an outer GROUP BY (Calcite's pushed DISTINCT)": (
        "SELECT m.ename FROM (SELECT * FROM emp WHERE ename = 'A') t LEFT JOIN emp m "
        "ON t.job = m.job GROUP BY m.ename",
        "SELECT t6.ename FROM (SELECT job FROM emp WHERE ename = 'A' GROUP BY job) t5 "
        "LEFT JOIN (SELECT ename, job FROM emp GROUP BY ename, job) t6 ON t5.job = t6.job "
        "GROUP BY t6.ename",
    ),
    "a derived table's DISTINCT under MAX and EXISTS": (
        "SELECT d.name, MAX(t.sal) FROM dept d JOIN (SELECT DISTINCT deptno, sal FROM emp) t "
        "ON t.deptno = d.deptno WHERE EXISTS (SELECT 1 FROM (SELECT DISTINCT job FROM emp) j "
        "WHERE j.job = d.name) GROUP BY d.name",
        "SELECT d.name, MAX(e.sal) FROM dept d JOIN emp e ON e.deptno = d.deptno "
        "WHERE EXISTS (SELECT 1 FROM emp j WHERE j.job = d.name) GROUP BY d.name",
    ),
    "a GROUP BY holding the primary key: one row per group (Calcite's AggregateRemoveRule)": (
        "SELECT empno, COUNT(comm), COUNT(*), MAX(sal), SUM(sal), BIT_OR(sal) FROM emp "
        "GROUP BY empno, deptno",
        "SELECT empno, CASE WHEN comm IS NOT NULL THEN 1 ELSE 0 END, 1, sal, sal, sal FROM emp",
    ),
    "equal windows over the same rows": (
        "SELECT empno, ROW_NUMBER() OVER (PARTITION BY deptno ORDER BY sal, empno) FROM emp "
        "WHERE sal > 1 AND sal < 3",
        "SELECT empno, ROW_NUMBER() OVER (PARTITION BY deptno ORDER BY sal, empno) FROM emp "
        "WHERE sal = 2",
    ),
}

REFUTED = {
    "COUNT(*) FILTER vs a COUNT of the filtered column, which skips its NULLs": (
        "SELECT job, COUNT(*) FILTER (WHERE sal > 10) FROM emp GROUP BY job",
        "SELECT job, COUNT(CASE WHEN sal > 10 THEN comm END) FROM emp GROUP BY job",
    ),
    "a grouping key the WHERE does not fix": (
        "SELECT COUNT(*) FROM emp GROUP BY deptno, sal",
        "SELECT COUNT(*) FROM emp GROUP BY sal",
    ),
    "GROUP BY a name that is not unique": (
        "SELECT COUNT(*) FROM emp GROUP BY empno, ename",
        "SELECT COUNT(*) FROM emp GROUP BY ename",
    ),
    "DISTINCT over no key": (
        "SELECT DISTINCT job FROM emp",
        "SELECT job FROM emp",
    ),
    "an unread LEFT JOIN on no key": (
        "SELECT b.amount FROM bonus b LEFT JOIN emp e ON e.job = b.ename",
        "SELECT amount FROM bonus",
    ),
    "NOT IN over a nullable column": (
        "SELECT d.name FROM dept d WHERE d.deptno NOT IN (SELECT e.mgr FROM emp e)",
        "SELECT d.name FROM dept d WHERE NOT EXISTS (SELECT 1 FROM emp e WHERE e.mgr = d.deptno)",
    ),
    "LEFT JOIN … IS NULL on a nullable column": (
        "SELECT d.name FROM dept d LEFT JOIN emp e ON e.deptno = d.deptno WHERE e.comm IS NULL",
        "SELECT d.name FROM dept d WHERE NOT EXISTS "
        "(SELECT 1 FROM emp e WHERE e.deptno = d.deptno)",
    ),
    "SUM over a finer grouping's keys": (
        "SELECT deptno, SUM(sal) FROM emp GROUP BY deptno",
        "SELECT t.deptno, SUM(t.sal) FROM (SELECT deptno, sal FROM emp "
        "GROUP BY deptno, sal) t GROUP BY t.deptno",
    ),
    "a derived column not NULL on the padded side": (
        "SELECT b.amount, e.s FROM bonus b LEFT JOIN (SELECT ename, "
        "COALESCE(comm, 0) AS s FROM emp) e ON e.ename = b.ename",
        "SELECT b.amount, COALESCE(e.comm, 0) FROM bonus b LEFT JOIN emp e ON e.ename = b.ename",
    ),
    "UNION ALL of two filters vs OR": (
        "SELECT job FROM emp WHERE sal > 10 UNION ALL SELECT job FROM emp WHERE comm > 5",
        "SELECT job FROM emp WHERE sal > 10 OR comm > 5",
    ),
    "a join on a nullable column without a foreign key": (
        "SELECT b.amount FROM bonus b JOIN emp e ON e.ename = b.ename",
        "SELECT amount FROM bonus WHERE ename IS NOT NULL",
    ),
    "a correlated COUNT vs COUNT(*) over a LEFT JOIN": (
        "SELECT d.name, (SELECT COUNT(*) FROM emp e WHERE e.deptno = d.deptno) FROM dept d",
        "SELECT d.name, COUNT(*) FROM dept d LEFT JOIN emp e ON e.deptno = d.deptno "
        "GROUP BY d.deptno, d.name",
    ),
    "SUM(COALESCE(x, 0)) without GROUP BY": (
        "SELECT COALESCE(SUM(comm), 0) FROM emp",
        "SELECT SUM(COALESCE(comm, 0)) FROM emp",
    ),
    "IN over a column that is not a key": (
        "SELECT e.ename FROM emp e WHERE e.job IN (SELECT b.ename FROM bonus b)",
        "SELECT e.ename FROM emp e JOIN bonus b ON b.ename = e.job",
    ),
    "ROLLUP vs a plain GROUP BY": (
        "SELECT deptno, job, SUM(sal) FROM emp GROUP BY ROLLUP (deptno, job)",
        "SELECT deptno, job, SUM(sal) FROM emp GROUP BY deptno, job",
    ),
    "a FULL JOIN whose WHERE keeps both paddings": (
        "SELECT d.name, b.ename FROM dept d FULL JOIN bonus b ON b.amount = d.deptno",
        "SELECT d.name, b.ename FROM dept d LEFT JOIN bonus b ON b.amount = d.deptno",
    ),
    "a sort key after a name that is not unique": (
        "SELECT ename, empno FROM emp ORDER BY ename, empno LIMIT 2",
        "SELECT ename, empno FROM emp ORDER BY ename, empno DESC LIMIT 2",
    ),
    "MAX vs the first row in ascending order": (
        "SELECT MAX(sal) FROM emp",
        "SELECT (SELECT sal FROM emp ORDER BY sal LIMIT 1)",
    ),
    "a LEFT JOIN on a nullable foreign key": (
        "SELECT e.empno, m.ename FROM emp e LEFT JOIN emp m ON m.empno = e.mgr",
        "SELECT e.empno, m.ename FROM emp e JOIN emp m ON m.empno = e.mgr",
    ),
    "a join read only by its condition, without DISTINCT": (
        "SELECT d.deptno, d.name FROM dept d JOIN emp e ON e.deptno = d.deptno",
        "SELECT deptno, name FROM dept WHERE deptno IN (SELECT deptno FROM emp)",
    ),
    "COUNT(DISTINCT x) of a column that is no key": (
        "SELECT deptno, COUNT(DISTINCT job) FROM emp GROUP BY deptno",
        "SELECT deptno, COUNT(job) FROM emp GROUP BY deptno",
    ),
    "a window computed before the filter, not after": (
        "SELECT x.empno, x.r FROM (SELECT empno, sal, RANK() OVER (ORDER BY sal) AS r "
        "FROM emp) x WHERE x.sal > 1",
        "SELECT empno, RANK() OVER (ORDER BY sal) FROM emp WHERE sal > 1",
    ),
    "a derived table's GROUP BY under an outer COUNT(*)": (
        "SELECT t.job, COUNT(*) FROM (SELECT job, deptno FROM emp GROUP BY job, deptno) t "
        "GROUP BY t.job",
        "SELECT job, COUNT(*) FROM emp GROUP BY job",
    ),
    "a derived table's DISTINCT under UNION ALL": (
        "SELECT t.job FROM (SELECT DISTINCT job FROM emp) t UNION ALL SELECT name FROM dept",
        "SELECT job FROM emp UNION ALL SELECT name FROM dept",
    ),
    "a derived table's GROUP BY that projects a column it does not group by": (
        "SELECT DISTINCT t.job, t.s FROM (SELECT job, MAX(sal) AS s FROM emp GROUP BY job) t",
        "SELECT DISTINCT job, sal FROM emp",
    ),
    "a GROUP BY a nullable UNIQUE column: the NULLs are one group": (
        "SELECT badge, COUNT(*) FROM emp GROUP BY badge",
        "SELECT badge, 1 FROM emp",
    ),
    "a GROUP BY no key, counting a nullable column": (
        "SELECT job, COUNT(comm) FROM emp GROUP BY job",
        "SELECT job, CASE WHEN comm IS NOT NULL THEN 1 ELSE 0 END FROM emp",
    ),
    "an aggregate sqlglot does not know, over a derived table's DISTINCT": (
        "SELECT t.job, PRODUCT(t.sal) FROM (SELECT DISTINCT job, sal FROM emp) t GROUP BY t.job",
        "SELECT job, PRODUCT(sal) FROM emp GROUP BY job",
    ),
    "a LIMIT in a derived table read in another order": (
        "SELECT t.empno FROM (SELECT empno, sal FROM emp ORDER BY sal DESC, empno LIMIT 3) t "
        "ORDER BY t.empno",
        "SELECT empno FROM emp ORDER BY empno LIMIT 3",
    ),
}


@pytest.mark.parametrize("name", list(PROVED))
def test_proved(name: str) -> None:
    candidate, reference = PROVED[name]
    verdict = check(candidate, reference, SCHEMA)
    method = "normalized" if name in CANONICAL else "symbolic"
    assert (verdict.verdict, verdict.method) == ("equivalent", method), (
        name,
        verdict.verdict,
        verdict.evidence.to_dict() if verdict.evidence else None,
    )


#: Rewrites of PROVED that the normalizer has since made part of the canonical form
#: (``not_in_to_not_exists``, ``key_join_to_exists``): equal canonical forms prove them
#: before the prover runs.
CANONICAL = {
    "NOT IN over NOT NULL columns is NOT EXISTS",
    "IN over a key is a join",
    # foreign_key_joins (through emp.mgr -> emp.empno) and distinct_key_semijoin.
    "a join on a nullable foreign key is its IS NOT NULL",
    "DISTINCT over a join read only by its condition is IN",
    # set_consumed_sources, then merge_derived_tables.
    "a derived table's DISTINCT under MAX and EXISTS",
    # set_consumed_sources, then merge_derived_tables on the padded side of a LEFT JOIN.
    "a derived table's GROUP BY under an outer GROUP BY (Calcite's pushed DISTINCT)",
    # single_row_groups.
    "a GROUP BY holding the primary key: one row per group (Calcite's AggregateRemoveRule)",
    # merge_aggregates.
    "SUM of partial SUMs",
    "COUNT(DISTINCT) vs COUNT over a finer grouping",
    # left_join_semijoin.
    "a LEFT JOIN read only by IS NOT NULL is EXISTS",
    # null_tests_under_aggregates, then merge_aggregates.
    "COUNT(DISTINCT x) vs COUNT(*) of its non-NULL values",
}


@pytest.mark.parametrize("name", list(REFUTED))
def test_near_miss_refuted(name: str) -> None:
    candidate, reference = REFUTED[name]
    verdict = check(candidate, reference, SCHEMA)
    assert verdict.verdict == "not_equivalent", (name, verdict.verdict)
    assert verdict.counterexample is not None


@pytest.mark.parametrize("name", list(PROVED))
def test_proof_survives_the_search(name: str) -> None:
    """Each proof checked against execution: the counterexample search alone (prover off)
    finds no database that separates the pair (``benchmarks/soundness.py`` does this at 360
    databases for every benchmark pair)."""
    candidate, reference = PROVED[name]
    options = Options(max_fixtures=60, seed=1)
    verdict = check(candidate, reference, SCHEMA, options=options, stages=REFUTING_STAGES)
    assert verdict.verdict == "unknown", (name, verdict.verdict, verdict.counterexample)
    assert verdict.evidence is not None and verdict.evidence.search is not None
    assert verdict.evidence.search.fixtures_tried > 0


PRICES = "CREATE TABLE items (id INTEGER PRIMARY KEY, price DECIMAL(10, 2), weight REAL)"


@pytest.mark.parametrize("engine", ["duckdb", "postgres"])
@pytest.mark.parametrize(
    ("written", "folded"),
    [
        # TPC-H 6 writes 0.06 - 0.01 and 0.06 + 0.01; an optimizer writes 0.05 and 0.07.
        ("price BETWEEN 0.06 - 0.01 AND 0.06 + 0.01", "price >= 0.05 AND price <= 0.07"),
        ("weight <= 0.06 + 0.01 AND weight > 2 * 0.5", "weight <= 0.07 AND weight > 1.0"),
    ],
)
def test_decimal_literal_arithmetic_is_folded_where_it_is_exact(
    engine: str, written: str, folded: str
) -> None:
    verdict = check(
        f"SELECT id FROM items WHERE {written}", f"SELECT id FROM items WHERE {folded}",
        PRICES, engine,
    )  # fmt: skip
    assert (verdict.verdict, verdict.method) == ("equivalent", "normalized")


def test_decimal_literals_are_reals_in_sqlite_and_their_sum_is_not_folded() -> None:
    # In SQLite 0.06 + 0.01 is the REAL 0.06999999999999999: a price of 0.07 tells them apart.
    verdict = check(
        "SELECT id FROM items WHERE price <= 0.06 + 0.01",
        "SELECT id FROM items WHERE price <= 0.07",
        PRICES,
        "sqlite",
    )
    assert verdict.verdict == "not_equivalent"


DATES = "CREATE TABLE events (id INTEGER PRIMARY KEY, day DATE, note VARCHAR(20))"


@pytest.mark.parametrize("engine", ["duckdb", "postgres"])
def test_a_cast_of_a_column_to_its_declared_type_is_the_column(engine: str) -> None:
    verdict = check(
        "SELECT id, note FROM events WHERE CAST(day AS DATE) < DATE '2020-02-01'",
        "SELECT id, note FROM events WHERE day < DATE '2020-02-01'",
        DATES, engine,
    )  # fmt: skip
    assert (verdict.verdict, verdict.method) == ("equivalent", "normalized")


def test_a_cast_to_the_declared_type_keeps_its_parameters() -> None:
    # A text column is left alone: its collation need not survive the cast.
    text = check("SELECT CAST(note AS VARCHAR(20)) FROM events", "SELECT note FROM events", DATES)
    assert text.method != "normalized"
    # A cast to a DECIMAL of another scale rounds: it is no identity.
    other = check("SELECT CAST(id AS DECIMAL(4, 1)) FROM events", "SELECT id FROM events", DATES)
    assert other.method != "normalized"


def test_in_sqlite_a_cast_to_the_declared_type_converts() -> None:
    # A DATE column holds text in SQLite, and CAST(day AS DATE) makes a number of it:
    # 2021 < '2020-02-01' (a number sorts before any text) while '2021-01-01' does not.
    verdict = check(
        "SELECT id FROM events WHERE CAST(day AS DATE) < '2020-02-01'",
        "SELECT id FROM events WHERE day < '2020-02-01'",
        DATES, "sqlite",
    )  # fmt: skip
    assert verdict.verdict == "not_equivalent"


@pytest.mark.parametrize("engine", ["duckdb", "postgres"])
def test_a_date_string_compared_with_a_date_is_cast_to_it(engine: str) -> None:
    verdict = check(
        "SELECT id FROM events WHERE day >= '2020-02-01' AND day BETWEEN '2019-01-01' AND day",
        "SELECT id FROM events WHERE day >= CAST('2020-02-01' AS DATE) "
        "AND day >= CAST('2019-01-01' AS DATE) AND day <= day",
        DATES, engine,
    )  # fmt: skip
    assert (verdict.verdict, verdict.method) == ("equivalent", "normalized")


def test_in_sqlite_a_date_string_is_compared_as_text() -> None:
    # CAST('2020-02-01' AS DATE) is the number 2020 in SQLite, below any text.
    verdict = check(
        "SELECT id FROM events WHERE day >= '2020-02-01'",
        "SELECT id FROM events WHERE day >= CAST('2020-02-01' AS DATE)",
        DATES, "sqlite",
    )  # fmt: skip
    assert verdict.verdict == "not_equivalent"


UNION = "SELECT id, note FROM events WHERE day IS NULL UNION ALL SELECT id, note FROM events"


def test_a_sort_is_no_part_of_the_rows_where_the_order_is_not_compared() -> None:
    # The reference does not sort: the candidate's ORDER BY (of its UNION too) picks no rows.
    verdict = check(f"({UNION}) ORDER BY note DESC", UNION, DATES)
    assert (verdict.verdict, verdict.method) == ("equivalent", "normalized")


def test_a_sort_stays_where_the_order_is_compared_or_a_limit_reads_it() -> None:
    # Where the reference sorts, an unsorted candidate is not proved to follow its order.
    assert check(UNION, f"({UNION}) ORDER BY note", DATES).verdict != "equivalent"
    # Under a LIMIT, the sort picks the rows: the near miss is refuted.
    first, last = "SELECT id FROM events ORDER BY id", "SELECT id FROM events ORDER BY id DESC"
    assert check(f"{first} LIMIT 1", f"{last} LIMIT 1", DATES).verdict == "not_equivalent"


MATCHES = "CREATE TABLE match (id INTEGER PRIMARY KEY, home INTEGER, away INTEGER)"


def test_in_sqlite_a_product_with_one_point_zero_is_a_cast_to_real() -> None:
    verdict = check(
        "SELECT home * 1.0 / away FROM match WHERE away > 0",
        "SELECT CAST(home AS REAL) / away FROM match WHERE away > 0",
        MATCHES, "sqlite",
    )  # fmt: skip
    assert (verdict.verdict, verdict.method) == ("equivalent", "normalized")


def test_in_duckdb_a_product_with_one_point_zero_stays_a_decimal() -> None:
    # 1.0 is a DECIMAL there: x * 1.0 is exact where a DOUBLE rounds (past 2**53), so the
    # canonical forms must not meet (the comparison's tolerance hides the last digit).
    verdict = check(
        "SELECT home * 1.0 / away FROM match WHERE away > 0",
        "SELECT CAST(home AS DOUBLE) / away FROM match WHERE away > 0",
        MATCHES,
    )
    assert verdict.method != "normalized"


#: Values SQLite may hold in an INTEGER column (its affinity keeps what does not convert).
_SQLITE_VALUES = st.one_of(
    st.none(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=False),
    st.text(alphabet="0123456789.-+eEx abc", max_size=12),
    st.binary(max_size=6),
)


def _same_in_sqlite(value: object, left: str, right: str) -> None:
    """``left`` and ``right`` (expressions of a column ``x`` holding ``value``) give SQLite's
    very same value, of the same storage class."""
    connection = sqlite3.connect(":memory:")
    connection.execute("CREATE TABLE t (x INTEGER)")
    connection.execute("INSERT INTO t VALUES (?)", (value,))
    one, other = connection.execute(f"SELECT {left}, {right} FROM t").fetchone()
    assert type(one) is type(other), (left, right, value)
    assert one == other or (math.isnan(one) and math.isnan(other)), (left, right, value)


_REAL_LITERALS = st.floats(min_value=0, allow_nan=False, allow_infinity=False).map(repr)


@settings(max_examples=300, deadline=None)
@given(value=_SQLITE_VALUES, real=_REAL_LITERALS, integer=st.integers(0, 2**53))
def test_sqlite_computes_real_arithmetic_as_the_fold_writes_it(
    value: object, real: str, integer: int
) -> None:
    """Each rule of ``normalize.sqlite_reals``, against SQLite itself, on any stored value."""
    _same_in_sqlite(value, "x * 1.0", "CAST(x AS REAL)")
    _same_in_sqlite(value, "1.0 * x", "CAST(x AS REAL)")
    _same_in_sqlite(value, f"x * {real}", f"CAST(x AS REAL) * {real}")
    _same_in_sqlite(value, f"{real} * x", f"CAST(x AS REAL) * {real}")
    real_x = "CAST(x AS REAL)"
    for op in ("*", "/", "+", "-"):
        _same_in_sqlite(value, f"{real_x} {op} {integer}", f"{real_x} {op} {integer}.0")
        _same_in_sqlite(value, f"{integer} {op} {real_x}", f"{integer}.0 {op} {real_x}")


def test_in_sqlite_the_spellings_of_a_percentage_meet() -> None:
    share = "SUM(CASE WHEN away > home THEN 1 ELSE 0 END)"
    spellings = [
        f"SELECT CAST({share} AS REAL) * 100 / COUNT(*) FROM match",
        f"SELECT 100.0 * {share} / COUNT(*) FROM match",
        f"SELECT {share} * 100.0 / COUNT(*) FROM match",
        f"SELECT {share} * 1.0 * 100 / COUNT(*) FROM match",
    ]
    for spelling in spellings[1:]:
        verdict = check(spelling, spellings[0], MATCHES, "sqlite")
        assert (verdict.verdict, verdict.method) == ("equivalent", "normalized"), spelling
    # An integer division is another number: 100 * share / COUNT(*) truncates.
    verdict = check(f"SELECT 100 * {share} / COUNT(*) FROM match", spellings[0], MATCHES, "sqlite")
    assert verdict.verdict == "not_equivalent"


def test_a_case_with_a_true_first_condition_is_its_column_in_duckdb() -> None:
    verdict = check(
        "SELECT id FROM match WHERE CASE WHEN TRUE THEN home ELSE NULL END > 2",
        "SELECT id FROM match WHERE home > 2",
        MATCHES,
    )
    assert (verdict.verdict, verdict.method) == ("equivalent", "normalized")


def test_in_sqlite_a_case_has_no_affinity_where_its_column_has_one() -> None:
    # home = '1' converts the text to the column's INTEGER affinity; the CASE does not.
    pair = (
        "SELECT id FROM match WHERE CASE WHEN TRUE THEN home ELSE NULL END = '1'",
        "SELECT id FROM match WHERE home = '1'",
    )
    assert check(*pair, MATCHES, "sqlite").verdict == "not_equivalent"
    # ... and no proving stage says otherwise (the search above runs first).
    assert check(*pair, MATCHES, "sqlite", stages=PROVING_STAGES).verdict != "equivalent"


def test_in_sqlite_a_product_by_one_point_zero_has_no_affinity() -> None:
    # CAST(home AS REAL) = '1' converts the text to a REAL; home * 1.0 = '1' does not.
    pair = (
        "SELECT id FROM match WHERE home * 1.0 = '1'",
        "SELECT id FROM match WHERE CAST(home AS REAL) = '1'",
    )
    assert check(*pair, MATCHES, "sqlite").verdict == "not_equivalent"
    assert check(*pair, MATCHES, "sqlite", stages=PROVING_STAGES).verdict != "equivalent"

