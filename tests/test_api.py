"""End-to-end behaviour of ``check``: the contract, the classic traps, soundness."""

from __future__ import annotations

import json

import duckdb
import pytest

from conftest import SHOP_DDL
from sqlequiv import Options, check, distinguishing_fixtures
from sqlequiv.export import insert_script
from sqlequiv.schema import load_schema

NOFK_DDL = SHOP_DDL.replace("REFERENCES customers (customer_id)", "")


def test_equivalent_by_normalization_does_not_search() -> None:
    v = check(
        "SELECT o.amount AS a, c.name FROM orders o, customers c "
        "WHERE c.customer_id = o.customer_id AND o.amount BETWEEN 1 AND 5",
        "SELECT cu.name, ord.amount FROM customers cu JOIN orders ord "
        "ON ord.customer_id = cu.customer_id WHERE ord.amount <= 5 AND ord.amount >= 1",
        SHOP_DDL,
    )
    assert (v.verdict, v.method) == ("equivalent", "normalized")
    assert "fixture_search" not in v.timings


def test_inner_join_vs_correlated_count_finds_zero_order_customer() -> None:
    reference = (
        "SELECT c.customer_id, c.name, (SELECT COUNT(*) FROM orders o "
        "WHERE o.customer_id = c.customer_id AND o.placed_at >= '2026-07-01' "
        "AND o.placed_at < '2026-10-01') AS n FROM customers c WHERE c.plan = 'enterprise'"
    )
    candidate = (
        "SELECT c.customer_id, c.name, COUNT(o.order_id) AS n FROM customers c "
        "JOIN orders o ON o.customer_id = c.customer_id WHERE c.plan = 'enterprise' "
        "AND o.placed_at >= '2026-07-01' AND o.placed_at < '2026-10-01' "
        "GROUP BY c.customer_id, c.name"
    )
    v = check(candidate, reference, SHOP_DDL)
    assert v.verdict == "not_equivalent"
    ce = v.counterexample
    assert ce is not None
    assert ce.cause in ("missing_rows", "empty_result")
    assert set(ce.tables) == {"customers", "orders"}
    # The reference has a row with count 0 that the candidate lacks.
    assert any(row[-1] == 0 for row in ce.reference_rows)
    assert ce.name == "customers_without_orders"


def test_between_on_timestamp_vs_half_open_range() -> None:
    v = check(
        "SELECT order_id FROM orders WHERE placed_at BETWEEN '2026-07-01' AND '2026-09-30'",
        "SELECT order_id FROM orders WHERE placed_at >= '2026-07-01' AND placed_at < '2026-10-01'",
        SHOP_DDL,
    )
    assert v.verdict == "not_equivalent"
    ce = v.counterexample
    assert ce is not None
    placed = [r["placed_at"] for r in ce.tables["orders"]]
    assert any(p.startswith("2026-09-30") and p != "2026-09-30T00:00:00" for p in placed)
    assert ce.cause in ("filter_window", "missing_rows")


def test_foreign_key_decides_both_ways() -> None:
    candidate = "SELECT o.order_id FROM orders o JOIN customers c ON o.customer_id = c.customer_id"
    reference = "SELECT order_id FROM orders WHERE customer_id IS NOT NULL"
    with_fk = check(candidate, reference, SHOP_DDL)
    assert with_fk.verdict != "not_equivalent"
    without_fk = check(candidate, reference, NOFK_DDL)
    assert without_fk.verdict == "not_equivalent"


def test_counterexample_is_valid_and_replays_on_enforcing_duckdb() -> None:
    v = check(
        "SELECT c.name FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id "
        "WHERE o.amount > 10",
        "SELECT c.name FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id "
        "AND o.amount > 10",
        SHOP_DDL,
    )
    assert v.verdict == "not_equivalent"
    assert v.counterexample is not None
    schema = load_schema(SHOP_DDL)
    con = duckdb.connect()
    con.execute(schema.ddl(constraints=True))
    con.execute(insert_script(v.counterexample, schema))  # raises on any constraint violation
    assert v.executed["candidate"] and v.executed["reference"]
    cand = con.execute(v.executed["candidate"]).fetchall()
    ref = con.execute(v.executed["reference"]).fetchall()
    assert sorted(map(repr, cand)) != sorted(map(repr, ref))


def test_fixtures_for_an_equivalent_pair_are_none() -> None:
    verdict, examples = distinguishing_fixtures("SELECT 1 AS x", "SELECT 1 AS y", SHOP_DDL)
    assert verdict.verdict == "equivalent"
    assert examples == []


def test_several_distinct_fixtures_are_found() -> None:
    verdict, examples = distinguishing_fixtures(
        "SELECT order_id FROM orders WHERE amount > 5",
        "SELECT order_id FROM orders WHERE amount >= 5",
        SHOP_DDL,
        limit=3,
    )
    assert verdict.verdict == "not_equivalent"
    assert 1 <= len(examples) <= 3
    assert len({json.dumps(e.tables, sort_keys=True) for e in examples}) == len(examples)


def test_same_seed_same_verdict_and_counterexample() -> None:
    args = (
        "SELECT customer_id FROM orders WHERE amount >= 5",
        "SELECT customer_id FROM orders WHERE amount > 5",
        SHOP_DDL,
    )
    a = check(*args, options=Options(seed=3))
    b = check(*args, options=Options(seed=3))
    assert a.verdict == "not_equivalent"
    assert a.counterexample == b.counterexample


def test_unknown_when_nothing_found_carries_evidence() -> None:
    v = check(
        "SELECT customer_id FROM customers WHERE customer_id IN (SELECT customer_id FROM orders)",
        "SELECT c.customer_id FROM customers c WHERE EXISTS "
        "(SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id)",
        SHOP_DDL,
        options=Options(max_fixtures=60),
    )
    assert v.verdict in ("unknown", "equivalent")
    if v.verdict == "unknown":
        assert v.evidence["fixtures_tried"] > 0
        assert v.evidence["seed"] == 0


@pytest.mark.parametrize(
    ("candidate", "kind"),
    [
        ("SELEC 1", "parse_error"),
        ("SELECT nme FROM customers", "unknown_column"),
        ("SELECT * FROM custmers", "unknown_table"),
        ("DELETE FROM orders", "not_read_only"),
        ("SELECT 1; SELECT 2", "multiple_statements"),
        ("SELECT * FROM read_csv('/etc/passwd')", "forbidden_function"),
        ("", "empty_query"),
    ],
)
def test_bad_candidate_is_an_error_not_a_traceback(candidate: str, kind: str) -> None:
    v = check(candidate, "SELECT name FROM customers", SHOP_DDL)
    assert v.verdict == "error"
    assert v.error is not None
    assert (v.error.side, v.error.kind) == ("candidate", kind)
    assert v.exit_code == 2


def test_bad_schema_is_an_error() -> None:
    v = check("SELECT 1", "SELECT 1", "CREATE TABLE (")
    assert v.verdict == "error"
    assert v.error is not None and v.error.side == "schema"


def test_runaway_candidate_times_out_as_error() -> None:
    v = check(
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) "
        "SELECT count(*) AS c FROM r",
        "SELECT count(*) AS c FROM customers",
        SHOP_DDL,
        options=Options(query_timeout=0.3),
    )
    assert v.verdict == "error"
    assert v.error is not None and (v.error.side, v.error.kind) == ("candidate", "timeout")


def test_postgres_integer_division_survives_transpiling() -> None:
    ddl = "CREATE TABLE t (a INT NOT NULL)"
    v = check("SELECT a / 2 FROM t", "SELECT a / 2.0 FROM t", ddl, dialect="postgres")
    assert v.verdict == "not_equivalent"
    same = check("SELECT a / 2 FROM t", "SELECT a / 2 FROM t AS x", ddl, dialect="postgres")
    assert same.verdict == "equivalent"


def test_json_form_has_every_contract_key() -> None:
    v = check("SELECT name FROM customers", "SELECT plan FROM customers", SHOP_DDL)
    data = json.loads(v.to_json())
    for key in ("verdict", "method", "counterexample", "error", "evidence", "options", "timings"):
        assert key in data
    assert data["verdict"] == "not_equivalent"
    ce = data["counterexample"]
    for key in ("tables", "candidate_rows", "reference_rows", "cause", "detail"):
        assert key in ce
    assert data["options"]["seed"] == 0
