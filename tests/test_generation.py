"""The generator, the Hypothesis strategy and the shrinker only produce valid databases."""

from __future__ import annotations

import datetime as dt
import decimal
from collections.abc import Sequence

import duckdb
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlglot import parse_one

from sqlequiv.database import Database, insert_script
from sqlequiv.database.constraints import (
    python_check_is_exact,
    python_violations,
    sql_violations,
)
from sqlequiv.guard.qualify import qualify_query
from sqlequiv.schema import load_schema
from sqlequiv.schema.model import Schema
from sqlequiv.search.domains import build_domains
from sqlequiv.search.draw import database_strategy
from sqlequiv.search.generate import RandomGenerator
from sqlequiv.search.harvest import Harvest, harvest
from sqlequiv.search.shrink import shrink
from sqlequiv.values import around


def _enforced(schema: Schema) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    con.execute(schema.ddl(constraints=True))
    return con


def test_random_databases_satisfy_every_constraint_on_duckdb(shop: Schema) -> None:
    domains = build_domains(shop, Harvest(), 4)
    generator = RandomGenerator(shop, domains, seed=1)
    nonempty_orders = 0
    for _ in range(60):
        db = generator.draw(4)
        assert python_violations(db, shop) == []
        con = _enforced(shop)  # DuckDB enforces PK, FK, NOT NULL and CHECK on insert
        script = insert_script(db, shop)
        if script:
            con.execute(script)
        assert sql_violations(shop, lambda sql, c=con: c.execute(sql).fetchone()[0]) == []
        nonempty_orders += bool(db.rows("orders"))
    assert nonempty_orders > 15


def test_same_seed_same_databases(shop: Schema) -> None:
    domains = build_domains(shop, Harvest(), 3)
    a = [RandomGenerator(shop, domains, seed=7).draw(3) for _ in range(1)]
    b = [RandomGenerator(shop, domains, seed=7).draw(3) for _ in range(1)]
    assert a == b


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_hypothesis_databases_are_valid(shop: Schema, data: st.DataObject) -> None:
    db = data.draw(database_strategy(shop, build_domains(shop, Harvest(), 3), 3))
    assert python_violations(db, shop) == []


def test_violations_are_detected_both_ways(shop: Schema) -> None:
    ts = dt.datetime(2026, 1, 1)
    bad = Database(
        {
            "customers": ((1, "a", "gold"),),  # CHECK on plan
            "orders": ((1, 2, ts, decimal.Decimal("-1.00")),),  # FK and CHECK on amount
        }
    )
    problems = python_violations(bad, shop)
    assert any("CHECK (plan" in p for p in problems)
    assert any("no parent" in p for p in problems)
    assert any("amount" in p for p in problems)
    con = duckdb.connect()
    con.execute(shop.ddl(constraints=False))
    con.execute(insert_script(bad, shop))
    assert len(sql_violations(shop, lambda sql: con.execute(sql).fetchone()[0])) == 3


def test_the_sql_recheck_of_the_filled_tables_still_finds_an_orphan(shop: Schema) -> None:
    """Only the tables with rows are re-checked; a child row whose parent table is empty
    is still an orphan, found from the child's side."""
    ts = dt.datetime(2026, 1, 1)
    orphan = Database({"orders": ((1, 2, ts, decimal.Decimal("-1.00")),)})
    con = duckdb.connect()
    con.execute(shop.ddl(constraints=False))
    con.execute(insert_script(orphan, shop))
    assert orphan.filled == {"orders"}
    scalar = lambda sql: con.execute(sql).fetchone()[0]  # noqa: E731
    found = sql_violations(shop, scalar, tables=orphan.filled)
    assert len(found) == 2 and any("no parent" in p for p in found), found
    assert found == sql_violations(shop, scalar)
    # A table left out is not asked: here the one that breaks the constraints.
    assert sql_violations(shop, scalar, tables={"customers"}) == []


_EXACT = load_schema(
    "CREATE TABLE dept (id INTEGER PRIMARY KEY, code VARCHAR UNIQUE, opened DATE);"
    "CREATE TABLE emp (id BIGINT PRIMARY KEY, name TEXT NOT NULL, dept INTEGER REFERENCES "
    "dept (id), day DATE, active BOOLEAN, score DOUBLE, UNIQUE (name, day));"
    "CREATE TABLE tag (emp BIGINT REFERENCES emp (id), label VARCHAR, on_ BOOLEAN, "
    "PRIMARY KEY (emp, label))"
)
_DAYS = [dt.date(2026, 1, 1), dt.date(2026, 1, 2), None]
# Mostly valid values, each constraint broken now and then: a NULL or repeated key,
# a missing parent, two texts that differ only in case or a trailing space.
_DEPT = st.tuples(
    st.sampled_from([1, 2, 3, 4, 5, 6] * 2 + [None]),
    st.sampled_from(["a", "A", "a ", "b", "c", "d", "e", "f"] * 2 + [None]),
    st.sampled_from(_DAYS),
)
_EMP = st.tuples(
    st.sampled_from([1, 2, 3, 4, 5, 2**40] * 2 + [None]),
    st.sampled_from(["x", "X", "é", "y", "z"] * 2 + [None]),
    st.sampled_from([None] * 6 + [1, 2, 9]),
    st.sampled_from(_DAYS),
    st.sampled_from([True, False, None]),
    st.sampled_from([0.5, float("nan"), None]),
)
_TAG = st.tuples(
    st.sampled_from([1, 2, 2**40] * 3 + [7, None]),
    st.sampled_from(["t", "T", "u", "v", "w"] * 2 + [None]),
    st.booleans(),
)


@settings(max_examples=150, deadline=None)
@given(
    # Primary keys mostly distinct (a repeat rejects the whole database); tag's repeat.
    dept=st.lists(_DEPT, max_size=3, unique_by=lambda r: r[0]),
    emp=st.lists(_EMP, max_size=3, unique_by=lambda r: r[0]),
    tag=st.lists(_TAG, max_size=3),
)
def test_python_alone_judges_keys_over_exact_kinds_as_duckdb_does(
    dept: list[tuple[object, ...]], emp: list[tuple[object, ...]], tag: list[tuple[object, ...]]
) -> None:
    """Where verify skips the SQL re-check (python_check_is_exact), Python's verdict on
    every constraint is DuckDB's own: the same databases, with NULLs, repeated keys,
    orphans, case and NaN in an unconstrained DOUBLE, are accepted by both or by neither,
    DuckDB enforcing the constraints on insert."""
    db = Database({"dept": tuple(dept), "emp": tuple(emp), "tag": tuple(tag)})
    assert python_check_is_exact(_EXACT, db.filled)
    con = _enforced(_EXACT)
    try:
        script = insert_script(db, _EXACT)
        if script:
            con.execute(script)
        accepted = True
    except duckdb.Error:
        accepted = False
    assert (python_violations(db, _EXACT) == []) == accepted


def test_keys_over_floats_decimals_or_checks_are_rechecked_in_sql(shop: Schema) -> None:
    assert not python_check_is_exact(shop, ["orders"])  # CHECK on amount, a DECIMAL
    floats = load_schema("CREATE TABLE t (x DOUBLE PRIMARY KEY)")
    assert not python_check_is_exact(floats, ["t"])
    child = load_schema(
        "CREATE TABLE p (x TIMESTAMP PRIMARY KEY); CREATE TABLE c (x TIMESTAMP REFERENCES p (x))"
    )
    assert not python_check_is_exact(child, ["c"])
    assert python_check_is_exact(child, [])  # nothing filled, nothing to judge


def test_harvest_feeds_boundaries_into_pools(shop: Schema) -> None:
    sql = (
        "SELECT c.name FROM customers c JOIN orders o ON o.customer_id = c.customer_id "
        "WHERE o.placed_at BETWEEN '2026-07-01' AND '2026-09-30' AND c.plan = 'enterprise'"
    )
    h = harvest([qualify_query(parse_one(sql), shop, "duckdb")])
    assert (("orders", "customer_id"), ("customers", "customer_id")) in h.joined or (
        ("customers", "customer_id"),
        ("orders", "customer_id"),
    ) in h.joined
    pool = build_domains(shop, h, 3).of("orders", "placed_at").values
    assert dt.datetime(2026, 9, 30, 14, 0) in pool  # a row after midnight on the last day
    assert dt.datetime(2026, 9, 30, 23, 59, 59, 999999) in pool
    assert "enterprise" in build_domains(shop, h, 3).of("customers", "plan").values


def test_a_case_mapped_column_is_tried_with_letters_that_do_not_round_trip(
    shop: Schema,
) -> None:
    # UPPER(LOWER(x)) is not UPPER(x) for the Ohm sign, whose LOWER is the omega (DuckDB).
    sql = "SELECT UPPER(LOWER(c.name)), c.plan FROM customers c"
    h = harvest([qualify_query(parse_one(sql), shop, "duckdb")])
    domains = build_domains(shop, h, 3)
    assert {"\u2126", "\u0130"} <= set(domains.of("customers", "name").values)
    assert "\u2126" not in domains.of("customers", "plan").values  # not case-mapped


def test_around_timestamps_step_one_microsecond() -> None:
    values = around("2026-10-01 00:00:00", "timestamp")
    assert dt.datetime(2026, 9, 30, 23, 59, 59, 999999) in values
    assert dt.datetime(2026, 10, 1, 0, 0, 0, 1) in values


def test_shrinker_keeps_the_property_and_respects_foreign_keys(shop: Schema) -> None:
    domains = build_domains(shop, Harvest(), 4)
    ts = dt.datetime(2026, 1, 1)
    db = Database(
        {
            "customers": ((1, "a", "free"), (2, "b", "pro"), (3, "a", "pro")),
            "orders": ((1, 2, ts, None), (2, 3, ts, None), (3, 3, ts, None)),
        }
    )

    def holds(d: Database) -> bool:
        # "some order belongs to a pro customer", and the database is valid
        pro = {r[0] for r in d.rows("customers") if r[2] == "pro"}
        return not python_violations(d, shop) and any(r[1] in pro for r in d.rows("orders"))

    small = shrink(db, holds, shop, domains)
    assert holds(small)
    assert len(small.rows("orders")) == 1
    assert len(small.rows("customers")) == 1


def test_a_batching_shrinker_drops_every_removable_row_at_once() -> None:
    """Where a batch answers a whole round, the rows whose removal each kept the property
    go together in the next round, not one a round."""
    schema = load_schema("CREATE TABLE t (a INT, b INT)", "duckdb")
    domains = build_domains(schema, Harvest(), 3)
    # The property needs the rows with b = 7 and 9 (kept apart, between others).
    rows = tuple((i, 7 if i == 11 else 9 if i == 23 else i % 5) for i in range(30))
    batches: list[int] = []

    def holds_many(dbs: Sequence[Database]) -> list[bool]:
        batches.append(len(dbs))
        return [{7, 9} <= {r[1] for r in d.rows("t")} for d in dbs]

    small = shrink(
        Database({"t": rows}), None, schema, domains, holds_many=holds_many, chunk=64,
        max_attempts=64 * 12,
    )  # fmt: skip
    assert sorted(r[1] for r in small.rows("t")) == [7, 9]
    assert len(batches) <= 4, batches


def test_a_text_column_joined_to_a_number_draws_numbers_spelled_as_text() -> None:
    """Spider joins car_makers.country TEXT to countries.countryid INTEGER with no foreign
    key: only numeric-looking text meets a number ('1' = 1 on SQLite), so the TEXT pool
    holds the INTEGER pool's values spelled; a TEXT column compared with no number does
    not (issue 40: six real pairs left unknown, every join empty)."""
    schema = load_schema(
        "CREATE TABLE countries (countryid INTEGER PRIMARY KEY, countryname TEXT);"
        "CREATE TABLE car_makers (id INTEGER PRIMARY KEY, maker TEXT, country TEXT);",
        "sqlite",
    )
    query = parse_one(
        "SELECT m.maker FROM car_makers AS m JOIN countries AS c ON m.country = c.countryid",
        read="sqlite",
    )
    domains = build_domains(schema, harvest([query]), 3, numeric_text=True)
    spelled = {str(v) for v in domains.of("countries", "countryid").values}
    country = set(domains.of("car_makers", "country").values)
    assert spelled <= country and "1" in country
    assert set(domains.of("car_makers", "country").interesting) & spelled
    # maker is compared with nothing: its pool keeps to words.
    assert not {str(v) for v in range(10)} & set(domains.of("car_makers", "maker").values)
