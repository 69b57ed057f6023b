"""Loading suites: YAML and JSONL, fixtures, predicates, and every problem reported at once."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from pathlib import Path

import pytest

from conftest import SHOP_DDL
from sqlequiv.suite import SuiteDocument, SuiteError, build_suite, load_suite

DDL = SHOP_DDL

SUITE_YAML = """
suite: demo
schemas:
  shop: schema.sql
fixtures:
  base:
    description: one customer, one order
    rows:
      customers:
        - {customer_id: 1, name: Ann, plan: enterprise}
      orders:
        - {order_id: 10, customer_id: 1, placed_at: "2026-07-01 00:00:00", amount: "12.50"}
  no_orders:
    sql: |
      INSERT INTO customers VALUES (2, 'Bo', 'enterprise');  -- a customer without orders
  from_file:
    file: fixtures/boundary.sql
items:
  - id: q-1
    question: Enterprise customers?
    clarification: plan = 'enterprise'
    schema: shop
    reference_kind: query
    accepted_references:
      - name: plain
        sql: SELECT customer_id FROM customers WHERE plan = 'enterprise'
    fixtures: [base, no_orders, from_file]
    difficulty: easy
    tags: [filter]
    meta: {db_id: shop}
  - id: q-2
    question: Any enterprise customer
    schema: shop
    reference_kind: predicate
    predicate: checks:one_enterprise
    fixtures:
      - name: inline
        rows: {customers: [{customer_id: 5, name: Eve, plan: enterprise}]}
"""

PREDICATES = """
def one_enterprise(rows, tables):
    plans = {c["customer_id"]: c["plan"] for c in tables["customers"]}
    return all(plans.get(r["customer_id"]) == "enterprise" for r in rows)
"""


@pytest.fixture
def suite_dir(tmp_path: Path) -> Path:
    (tmp_path / "schema.sql").write_text(DDL)
    (tmp_path / "fixtures").mkdir()
    (tmp_path / "fixtures" / "boundary.sql").write_text(
        "INSERT INTO customers VALUES (3, 'Cy', 'pro');\n"
        "INSERT INTO orders VALUES (30, 3, TIMESTAMP '2026-09-30 14:00:00', NULL);\n"
    )
    (tmp_path / "checks.py").write_text(PREDICATES)
    (tmp_path / "suite.yaml").write_text(SUITE_YAML)
    return tmp_path


def test_yaml_suite_loads_with_named_inline_and_file_fixtures(suite_dir: Path) -> None:
    suite = load_suite(suite_dir / "suite.yaml")
    assert suite.name == "demo" and len(suite) == 2
    item = suite.item("q-1")
    assert [f.name for f in item.fixtures] == ["base", "no_orders", "from_file"]
    base = item.fixtures[0]
    assert base.description == "one customer, one order"
    # Values arrive typed as DuckDB returns them, whatever the YAML spelled.
    assert base.database.rows("orders") == (
        (10, 1, dt.datetime(2026, 7, 1, 0, 0), Decimal("12.50")),
    )
    assert item.fixtures[2].database.rows("orders")[0][2] == dt.datetime(2026, 9, 30, 14, 0)
    assert item.meta == {"difficulty": "easy", "tags": ["filter"], "db_id": "shop"}
    assert item.reference_kind == "query" and item.references[0].name == "plain"
    assert suite.item("q-2").predicate == "checks:one_enterprise"


def test_document_carries_the_files_it_names(suite_dir: Path) -> None:
    from sqlequiv.suite import read_document

    doc = read_document(suite_dir / "suite.yaml")
    assert set(doc.files) == {"schema.sql", "fixtures/boundary.sql", "checks.py"}
    # A worker elsewhere rebuilds the suite from the document alone.
    moved = SuiteDocument(doc.data, base_dir=None, files=doc.files)
    assert build_suite(moved).item("q-1").fixtures[2].database.size == 2


def test_every_problem_is_reported_at_once_with_item_and_field(suite_dir: Path) -> None:
    bad = """
fixtures:
  broken_fk:
    rows: {orders: [{order_id: 1, customer_id: 99, placed_at: "2026-01-01 00:00:00"}]}
items:
  - id: a
    question: q
    schema: schema.sql
    reference_kind: query
    fixtures: [broken_fk, nope]
  - id: a
    question: q
    schema: missing.sql
    reference_kind: querry
    acepted_references: []
  - id: c
    question: q
    schema: schema.sql
    reference_kind: predicate
    predicate: checks:no_such_function
"""
    (suite_dir / "bad.yaml").write_text(bad)
    with pytest.raises(SuiteError) as info:
        load_suite(suite_dir / "bad.yaml")
    text = str(info.value)
    messages = [str(p) for p in info.value.problems]
    assert "fixtures.broken_fk: violates the schema's constraints" in text
    assert any("items[0]" in m and "no fixture named 'nope'" in m for m in messages)
    assert any("items[1]" in m and "duplicate id" in m for m in messages)
    assert any("items[1]" in m and "schema: " in m and "missing.sql" in m for m in messages)
    assert any("'querry' is not one of" in m for m in messages)
    assert any("acepted_references: unknown field (did you mean 'accepted_references'?)" in m
               for m in messages)  # fmt: skip
    assert any("items[2]" in m and "no function 'no_such_function'" in m for m in messages)
    assert len(info.value.problems) >= 7


def test_missing_references_load_and_are_left_to_grading(suite_dir: Path) -> None:
    doc = SuiteDocument(
        {"items": [{"id": "x", "question": "?", "schema": DDL, "reference_kind": "query"}]}
    )
    assert build_suite(doc).item("x").references == ()


@pytest.mark.parametrize(
    ("script", "message"),
    [
        ("DROP TABLE customers;", "only hold INSERT"),
        ("INSERT INTO customers SELECT 1, 'a', 'pro';", "must insert VALUES"),
        ("INSERT INTO customers VALUES (1, getenv('HOME'), 'pro');", "must be constants"),
        ("INSERT INTO nowhere VALUES (1);", "unknown table"),
        ("INSERT INTO customers VALUES (1, 'a', 'gold');", "CHECK"),
        ("INSERT INTO customers VALUES (1, 'a', 'pro'), (1, 'b', 'pro');", "repeats"),
        ("INSERT INTO customers VALUES ('x', 'a', 'pro');", "DuckDB rejects the rows"),
    ],
)
def test_fixture_scripts_are_constants_into_schema_tables(script: str, message: str) -> None:
    doc = SuiteDocument(
        {
            "items": [
                {
                    "id": "x",
                    "question": "?",
                    "schema": DDL,
                    "reference_kind": "query",
                    "fixtures": [{"name": "f", "sql": script}],
                }
            ]
        }
    )
    with pytest.raises(SuiteError, match=message):
        build_suite(doc)


def test_jsonl_suite(tmp_path: Path) -> None:
    (tmp_path / "schema.sql").write_text(DDL)
    lines = [
        {
            "id": "j1",
            "question": "ids",
            "schema": "schema.sql",
            "reference_kind": "query",
            "accepted_references": [{"name": "r", "sql": "SELECT customer_id FROM customers"}],
            "fixtures": [
                {
                    "name": "one",
                    "rows": {"customers": [{"customer_id": 1, "name": "A", "plan": "pro"}]},
                }
            ],
        },
        {"id": 2, "question": "n", "schema": DDL, "reference_kind": "query"},
    ]
    path = tmp_path / "suite.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    suite = load_suite(path)
    assert [i.id for i in suite.items] == ["j1", "2"]
    assert suite.item("j1").fixtures[0].database.rows("customers") == ((1, "A", "pro"),)
    path.write_text("{not json\n" + json.dumps(lines[0]) + "\n[1,\n")
    with pytest.raises(SuiteError) as info:
        load_suite(path)
    assert [p.field for p in info.value.problems] == ["file", "file"]
    assert "line 1" in str(info.value) and "line 3" in str(info.value)


def test_fixtures_built_one_after_another_see_only_their_own_rows() -> None:
    # One scratch connection serves every fixture of a thread: each must start empty,
    # whatever the one before it left (rows, other tables, a failed insert).
    from sqlequiv.schema import load_schema
    from sqlequiv.suite.fixtures import FixtureError, rows_database, script_database

    wide = load_schema("CREATE TABLE t (a INT PRIMARY KEY, b VARCHAR); CREATE TABLE u (x INT)")
    narrow = load_schema("CREATE TABLE t (a INT PRIMARY KEY)")
    assert rows_database({"t": [{"a": 1, "b": "x"}], "u": [{"x": 5}]}, wide).rows("u") == ((5,),)
    with pytest.raises(FixtureError, match="rejects the rows"):
        script_database("INSERT INTO t VALUES (2, 'y', 3);", wide)
    with pytest.raises(FixtureError, match="violates the schema's constraints"):
        rows_database({"t": [{"a": 3}, {"a": 3}]}, narrow)
    db = rows_database({"t": [{"a": 4}]}, narrow)
    assert db.rows("t") == ((4,),) and set(db.tables) == {"t"}
    assert script_database("INSERT INTO t VALUES (7, NULL);", wide).rows("u") == ()
