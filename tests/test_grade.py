"""grade(item, candidate): proved and unrefuted passes, refutations, errors, anomalies,
predicates."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import pytest

from conftest import SHOP_DDL
from sqlequiv import Options
from sqlequiv.grading import RECORD_KEYS, Record, grade
from sqlequiv.grading.anomalies import audit_item
from sqlequiv.suite import SuiteDocument, build_suite
from sqlequiv.suite.model import Item

DDL = SHOP_DDL

Q3_LEFT_JOIN = """
SELECT c.customer_id, COUNT(o.order_id) AS order_count
FROM customers c
LEFT JOIN orders o ON o.customer_id = c.customer_id
 AND o.placed_at >= '2026-07-01' AND o.placed_at < '2026-10-01'
WHERE c.plan = 'enterprise'
GROUP BY c.customer_id
"""

FIXTURES = {
    "base": {
        "rows": {
            "customers": [{"customer_id": 1, "name": "Ann", "plan": "enterprise"}],
            "orders": [
                {"order_id": 10, "customer_id": 1, "placed_at": "2026-08-01 10:00:00"},
                {"order_id": 11, "customer_id": 1, "placed_at": "2026-09-30 14:00:00"},
            ],
        }
    },
    "enterprise_with_no_orders": {
        "rows": {"customers": [{"customer_id": 2, "name": "Bo", "plan": "enterprise"}]}
    },
}

FAST = Options(max_fixtures=40, time_budget=2.0, bounded_time_budget=1.0)


def make_item(**fields: Any) -> Item:
    item = {"id": "q", "question": "?", "schema": DDL, "reference_kind": "query", **fields}
    return build_suite(SuiteDocument({"fixtures": FIXTURES, "items": [item]})).item("q")


def refs(*sqls: str) -> list[dict[str, str]]:
    return [{"name": f"r{n}", "sql": sql} for n, sql in enumerate(sqls, start=1)]


Q3 = make_item(accepted_references=refs(Q3_LEFT_JOIN), fixtures=list(FIXTURES))


def test_correlated_subquery_passes_and_inner_join_fails_on_the_named_fixture() -> None:
    correlated = """
        SELECT c.customer_id,
               (SELECT COUNT(*) FROM orders o WHERE o.customer_id = c.customer_id
                  AND o.placed_at >= '2026-07-01' AND o.placed_at < '2026-10-01') AS n
        FROM customers c WHERE c.plan = 'enterprise'"""
    record = grade(Q3, correlated, FAST)
    assert record.status == "pass" and record.passed is True
    assert record.matched_reference == "r1"
    assert record.fixtures == {"base": "match", "enterprise_with_no_orders": "match"}

    inner = Q3_LEFT_JOIN.replace("LEFT JOIN", "JOIN")
    record = grade(Q3, inner, FAST)
    assert record.status == "fail" and record.passed is False and record.proved is None
    assert record.cause == "empty_result" and record.method == "fixture"
    assert record.fixtures["enterprise_with_no_orders"] == "differ"
    assert record.counterexample is not None
    assert record.counterexample["name"] == "enterprise_with_no_orders"
    assert record.counterexample["missing_rows"] == [[2, 0]]
    assert record.references[0].fixture == "enterprise_with_no_orders"


def test_proved_pass_names_reference_and_method() -> None:
    reordered = Q3_LEFT_JOIN.replace(
        "SELECT c.customer_id, COUNT(o.order_id) AS order_count",
        "SELECT COUNT(o.order_id) AS n, c.customer_id AS id",
    )
    record = grade(Q3, reordered, FAST)
    assert record.status == "pass" and record.proved is True
    assert record.method in {"normalized", "symbolic"}


def test_fixture_search_refutes_when_no_named_fixture_does() -> None:
    item = make_item(accepted_references=refs("SELECT order_id FROM orders WHERE amount > 10"))
    record = grade(item, "SELECT order_id FROM orders WHERE amount >= 10", FAST)
    assert record.status == "fail" and record.cause == "filter_window"
    assert record.method in {"fixture_search", "bounded"}
    # The counterexample is a legal database: it loads into tables that enforce every
    # constraint, and both queries disagree on it there too.
    ce = record.counterexample
    assert ce is not None
    con = duckdb.connect()
    con.execute(DDL)
    for table in ("customers", "orders"):
        for row in ce["tables"][table]:
            cols = ", ".join(row)
            con.execute(f"INSERT INTO {table} ({cols}) VALUES ({', '.join('?' * len(row))})",
                        list(row.values()))  # fmt: skip
    gt = con.execute("SELECT order_id FROM orders WHERE amount > 10").fetchall()
    ge = con.execute("SELECT order_id FROM orders WHERE amount >= 10").fetchall()
    assert sorted(gt) != sorted(ge)


def test_unrefuted_pass_is_marked_and_strict_makes_it_unknown() -> None:
    item = make_item(
        accepted_references=refs(
            "SELECT c.customer_id FROM customers c LEFT JOIN orders o "
            "ON o.customer_id = c.customer_id WHERE o.order_id IS NULL"
        ),
        fixtures=list(FIXTURES),
    )
    anti = (
        "SELECT c.customer_id FROM customers c WHERE NOT EXISTS "
        "(SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id)"
    )
    record = grade(item, anti, FAST)
    if record.proved:  # a stronger prover later is welcome; then the pass is proved
        assert record.status == "pass"
        return
    assert record.status == "pass" and record.proved is False and record.method == "unrefuted"
    assert record.references[0].verdict == "unknown"
    strict = grade(item, anti, FAST, strict=True)
    assert strict.status == "unknown" and strict.passed is False


def test_second_reference_can_match_without_a_search_against_the_first() -> None:
    item = make_item(
        accepted_references=refs(
            "SELECT customer_id FROM customers WHERE plan = 'enterprise'",
            "SELECT customer_id FROM customers WHERE plan IN ('enterprise', 'pro')",
        )
    )
    record = grade(item, "SELECT customer_id FROM customers WHERE plan <> 'free'", FAST)
    assert record.status == "pass" and record.matched_reference == "r2"
    first, second = record.references
    # The proofs are tried first: no database was searched for against r1.
    assert first.verdict == "not_checked" and first.counterexample is None
    assert second.verdict == "equivalent"


def test_an_unproved_first_reference_is_searched_before_a_pass_is_unrefuted() -> None:
    item = make_item(
        accepted_references=refs(
            "SELECT customer_id FROM customers WHERE plan = 'enterprise'",
            "SELECT customer_id FROM customers WHERE plan = 'pro'",
        )
    )
    record = grade(item, "SELECT customer_id FROM customers WHERE plan <> 'free'", FAST)
    assert record.status == "fail"
    first, second = record.references
    assert first.verdict == "not_equivalent" and first.counterexample is not None
    assert second.verdict == "not_equivalent"


def test_fail_needs_every_reference_refuted() -> None:
    item = make_item(
        accepted_references=refs(
            "SELECT customer_id FROM customers WHERE plan = 'enterprise'",
            "SELECT customer_id FROM customers WHERE plan = 'pro'",
        )
    )
    record = grade(item, "SELECT customer_id FROM customers", FAST)
    assert record.status == "fail"
    assert [r.verdict for r in record.references] == ["not_equivalent", "not_equivalent"]
    assert record.cause == record.references[0].cause


@pytest.mark.parametrize(
    ("sql", "kind"),
    [
        ("SELEC customer_id FROM customers", "parse_error"),
        ("DELETE FROM orders", "not_read_only"),
        ("SELECT nope FROM customers", "unknown_column"),
        ("SELECT CAST(name AS INTEGER) FROM customers", "execution_error"),
        ("", "empty_query"),
    ],
)
def test_candidate_that_is_not_a_runnable_query_is_an_error(sql: str, kind: str) -> None:
    record = grade(Q3, sql, FAST)
    assert record.status == "error" and record.passed is False
    assert record.error is not None and record.error["kind"] == kind
    assert record.error["side"] == "candidate"


def test_execution_error_names_the_fixture() -> None:
    record = grade(Q3, "SELECT CAST(name AS INTEGER) FROM customers", FAST)
    assert record.error is not None and "fixture 'base'" in record.error["message"]


@pytest.mark.parametrize(
    ("references", "kind"),
    [
        (None, "missing_reference"),
        ([], "missing_reference"),
        ([{"name": "blank", "sql": "  "}], "missing_reference"),
        ([{"name": "typo", "sql": "SELECT nope FROM customers"}], "reference_error"),
        ([{"name": "dml", "sql": "DROP TABLE orders"}], "reference_error"),
    ],
)
def test_item_without_a_runnable_reference_is_an_anomaly(
    references: list[dict[str, str]] | None, kind: str
) -> None:
    fields: dict[str, Any] = {} if references is None else {"accepted_references": references}
    item = make_item(**fields)
    record = grade(item, "SELECT customer_id FROM customers", FAST)
    assert record.status == "anomaly" and record.passed is None and record.proved is None
    assert record.anomaly is not None and record.anomaly["kind"] == kind
    assert record.reference_kind == "query" and record.matched_reference is None
    audit = audit_item(item, FAST)
    assert [(a["kind"], a["severity"]) for a in audit] == [(kind, "blocking")]


def test_broken_reference_beside_a_good_one_is_reported_but_grading_goes_on() -> None:
    item = make_item(
        accepted_references=[
            {"name": "good", "sql": "SELECT customer_id FROM customers"},
            {"name": "bad", "sql": "SELECT nope FROM customers"},
        ]
    )
    record = grade(item, "SELECT c.customer_id FROM customers AS c", FAST)
    assert record.status == "pass" and record.matched_reference == "good"
    assert record.references[1].verdict == "error"
    kinds = [(a["kind"], a["reference"]) for a in audit_item(item, FAST)]
    assert kinds == [("reference_error", "bad")]


def test_audit_finds_disagreeing_references_ties_and_empty_fixtures() -> None:
    item = make_item(
        accepted_references=[
            {"name": "all", "sql": "SELECT customer_id FROM customers"},
            {"name": "pro", "sql": "SELECT customer_id FROM customers WHERE plan = 'pro'"},
            {"name": "top", "sql": "SELECT customer_id FROM customers ORDER BY plan LIMIT 1"},
            {"name": "any", "sql": "SELECT customer_id FROM customers LIMIT 1"},
        ],
        fixtures=["enterprise_with_no_orders"],
    )
    found = {(a["kind"], a["reference"]) for a in audit_item(item, FAST)}
    assert ("references_disagree", "pro") in found
    assert ("nondeterministic_reference", "top") in found
    assert ("nondeterministic_reference", "any") in found
    tie = next(a for a in audit_item(item, FAST) if a["reference"] == "top")
    assert tie["counterexample"] is not None  # two tie-breaks, two answers, one database
    deterministic = make_item(
        accepted_references=refs("SELECT customer_id FROM customers ORDER BY customer_id LIMIT 1")
    )
    assert audit_item(deterministic, FAST) == []
    empty = make_item(
        accepted_references=refs("SELECT order_id FROM orders WHERE amount > 1000"),
        fixtures=list(FIXTURES),
    )
    assert [a["kind"] for a in audit_item(empty, FAST)] == ["empty_on_all_fixtures"]


PREDICATE_MODULE = """
def enterprise_only(rows, tables):
    plans = {c["customer_id"]: c["plan"] for c in tables["customers"]}
    return all(plans.get(r["customer_id"]) == "enterprise" for r in rows)

def only_for_zed(rows, tables):
    # Written for a fixture the item does not have: says nothing about any database.
    names = {c["name"] for c in tables["customers"]}
    return None if names != {"Zed"} else bool(rows)

def explodes(rows):
    return rows[0]["missing_column"]
"""


@pytest.fixture
def predicate_item(tmp_path: Path) -> Any:
    (tmp_path / "preds.py").write_text(PREDICATE_MODULE)

    def make(predicate: str) -> Item:
        item = {
            "id": "p",
            "question": "Some enterprise customers",
            "schema": DDL,
            "reference_kind": "predicate",
            "predicate": predicate,
            "fixtures": list(FIXTURES),
        }
        doc = SuiteDocument({"fixtures": FIXTURES, "items": [item]}, base_dir=str(tmp_path))
        return build_suite(doc).item("p")

    return make


def test_predicate_pass_and_failures(predicate_item: Any) -> None:
    item = predicate_item("preds:enterprise_only")
    good = grade(item, "SELECT customer_id FROM customers WHERE plan = 'enterprise' LIMIT 2")
    assert good.status == "pass" and good.proved is False and good.method == "predicate"
    assert good.reference_kind == "predicate" and good.matched_reference is None
    assert good.predicate is not None and good.predicate["generated"] > 0
    # Right on both fixtures (every customer there is enterprise), wrong on generated data.
    bad = grade(item, "SELECT customer_id FROM customers")
    assert bad.status == "fail" and bad.predicate is not None
    assert bad.predicate["violated_on"] == "generated"
    assert bad.counterexample is not None and bad.counterexample["tables"]["customers"]
    raising = grade(predicate_item("preds:explodes"), "SELECT customer_id FROM customers")
    assert raising.status == "fail" and "KeyError" in (raising.detail or "")


def test_predicate_that_applies_nowhere_is_unknown(predicate_item: Any) -> None:
    item = predicate_item("preds:only_for_zed")
    record = grade(item, "SELECT customer_id FROM customers WHERE customer_id > 100")
    assert record.status == "unknown" and record.passed is False
    assert record.fixtures["base"] == "not_applicable"


def test_every_record_has_every_key_and_survives_json() -> None:
    records: list[Record] = [
        grade(Q3, Q3_LEFT_JOIN, FAST),
        grade(Q3, "SELECT", FAST),
        grade(Q3, Q3_LEFT_JOIN.replace("LEFT JOIN", "JOIN"), FAST),
        grade(make_item(), "SELECT 1", FAST),
    ]
    assert {r.status for r in records} == {"pass", "error", "fail", "anomaly"}
    for record in records:
        data = json.loads(record.to_json())
        assert tuple(data) == RECORD_KEYS
        assert data["reference_kind"] == "query"
        for ref in data["references"]:
            assert set(ref) == {"name", "verdict", "method", "cause", "detail", "fixture",
                                "counterexample", "evidence"}  # fmt: skip
