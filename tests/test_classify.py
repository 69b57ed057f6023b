"""Classifying a difference: each cause on a realistic query pair, run on DuckDB.

The shop database below pins the seed chapter's cases: Dee is an enterprise
customer with no Q3 order, Bob's only Q3 order is at noon on the last day of
the quarter, and Ada ordered in two different months.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from decimal import Decimal

import duckdb
import pytest
import sqlglot
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlglot import exp

from conftest import SHOP_DDL
from sqlequiv.compare.classify import classify, format_row, format_value
from sqlequiv.compare.rows import compare_results, order_keys_of
from sqlequiv.guard.qualify import qualify_query, to_duckdb
from sqlequiv.options import Options
from sqlequiv.results import Comparison, ResultSet
from sqlequiv.schema.model import Schema
from sqlequiv.verdict import CAUSES

DATA = """
INSERT INTO customers VALUES
  (1, 'Ada', 'enterprise'), (2, 'Bob', 'enterprise'), (3, 'Cy', 'free'), (4, 'Dee', 'enterprise');
INSERT INTO orders VALUES
  (10, 1, '2026-07-05 10:00', 5.00), (11, 1, '2026-08-15 09:00', 7.50),
  (12, 2, '2026-09-30 12:00', 3.00), (13, 3, '2026-07-10 00:00', 1.00),
  (14, 4, '2026-06-30 23:00', 2.00);
"""

#: The seed chapter's accepted reference: zero-order customers appear with 0.
LEFT_JOIN = """
SELECT c.customer_id, c.name, COUNT(o.order_id) AS order_count
FROM customers c
LEFT JOIN orders o
  ON o.customer_id = c.customer_id
 AND o.placed_at >= '2026-07-01'
 AND o.placed_at <  '2026-10-01'
WHERE c.plan = 'enterprise'
GROUP BY c.customer_id, c.name
"""

#: The inner join drops customers without a Q3 order.
INNER_JOIN = """
SELECT c.customer_id, c.name, COUNT(o.order_id) AS order_count
FROM customers c
JOIN orders o ON o.customer_id = c.customer_id
WHERE c.plan = 'enterprise'
  AND o.placed_at >= '2026-07-01'
  AND o.placed_at <  '2026-10-01'
GROUP BY c.customer_id, c.name
"""


@pytest.fixture(scope="module")
def con() -> Iterator[duckdb.DuckDBPyConnection]:
    connection = duckdb.connect()
    connection.execute(SHOP_DDL)
    connection.execute(DATA)
    yield connection
    connection.close()


Run = tuple[exp.Expr, ResultSet]


def run(con: duckdb.DuckDBPyConnection, schema: Schema, sql: str) -> Run:
    tree = qualify_query(sqlglot.parse_one(sql, read="duckdb"), schema, "duckdb")
    cursor = con.execute(to_duckdb(tree))
    rows = tuple(tuple(r) for r in cursor.fetchall())
    return tree, ResultSet(tuple(d[0] for d in cursor.description), rows)


def explain(
    con: duckdb.DuckDBPyConnection, schema: Schema, candidate: str, reference: str
) -> tuple[str, str]:
    cand_tree, cand = run(con, schema, candidate)
    ref_tree, ref = run(con, schema, reference)
    comparison = compare_results(cand, ref, Options(), order_keys_of(ref_tree))
    assert not comparison.equal and not comparison.ambiguous
    return classify(comparison, cand, ref, cand_tree, ref_tree)


def test_zero_order_customer_is_missing(con: duckdb.DuckDBPyConnection, shop: Schema) -> None:
    assert explain(con, shop, INNER_JOIN, LEFT_JOIN) == (
        "missing_rows",
        "The reference returns (customer_id=4, name='Dee', order_count=0), "
        "which is absent from the candidate.",
    )


def test_count_star_in_a_left_join_changes_a_value(
    con: duckdb.DuckDBPyConnection, shop: Schema
) -> None:
    candidate = LEFT_JOIN.replace("COUNT(o.order_id)", "COUNT(*)")
    assert explain(con, shop, candidate, LEFT_JOIN) == (
        "same_keys_different_values",
        "For customer_id=4 the reference has order_count=0 and the candidate has order_count=1.",
    )


def test_a_single_answer_that_is_wrong_is_a_wrong_value(
    con: duckdb.DuckDBPyConnection, shop: Schema
) -> None:
    # One row each (a scalar aggregate): the answer is wrong, no row is "missing".
    assert explain(
        con, shop, "SELECT COUNT(*) FROM orders", "SELECT COUNT(DISTINCT customer_id) FROM orders"
    )[0] == "same_keys_different_values"
    # One row against two stays a row missing.
    assert explain(
        con, shop, "SELECT MAX(amount) FROM orders",
        "SELECT MAX(amount) FROM orders UNION ALL SELECT MIN(amount) FROM orders",
    )[0] == "missing_rows"  # fmt: skip


def test_grouping_by_month_is_a_grain_error(con: duckdb.DuckDBPyConnection, shop: Schema) -> None:
    candidate = INNER_JOIN.replace(
        "GROUP BY c.customer_id, c.name",
        "GROUP BY c.customer_id, c.name, date_trunc('month', o.placed_at)",
    )
    assert explain(con, shop, candidate, INNER_JOIN) == (
        "grain",
        "The candidate returns 2 rows for customer_id=1 where the reference returns 1 "
        "(the candidate groups by more columns: DATE_TRUNC('MONTH', o.placed_at)).",
    )
    # The other way round: the reference is the finer one.
    cause, detail = explain(con, shop, INNER_JOIN, candidate)
    assert cause == "grain"
    assert detail.startswith("The reference returns 2 rows for customer_id=1 where the candidate")


def test_grain_from_rows_alone(con: duckdb.DuckDBPyConnection, shop: Schema) -> None:
    candidate = "SELECT c.customer_id, o.amount FROM customers c JOIN orders o USING (customer_id)"
    reference = (
        "SELECT c.customer_id, SUM(o.amount) AS total FROM customers c "
        "JOIN orders o USING (customer_id) GROUP BY c.customer_id"
    )
    expected = "The candidate returns 2 rows for customer_id=1 where the reference returns 1."
    assert explain(con, shop, candidate, reference) == ("grain", expected)
    # Without the trees, the first column unique in the reference serves as the key.
    _, cand = run(con, shop, candidate)
    _, ref = run(con, shop, reference)
    assert classify(compare_results(cand, ref, Options()), cand, ref) == ("grain", expected)


def test_between_loses_the_last_day(con: duckdb.DuckDBPyConnection, shop: Schema) -> None:
    half_open = (
        "SELECT o.order_id, o.placed_at FROM orders o "
        "WHERE o.placed_at >= '2026-07-01' AND o.placed_at < '2026-10-01'"
    )
    between = (
        "SELECT o.order_id, o.placed_at FROM orders o "
        "WHERE o.placed_at BETWEEN '2026-07-01' AND '2026-09-30'"
    )
    assert explain(con, shop, between, half_open) == (
        "filter_window",
        "The two queries bound placed_at differently (reference: o.placed_at >= '2026-07-01' "
        "AND o.placed_at < '2026-10-01'; candidate: o.placed_at BETWEEN '2026-07-01' AND "
        "'2026-09-30'). The reference returns (order_id=12, placed_at='2026-09-30 12:00:00'), "
        "which is absent from the candidate.",
    )


def test_between_in_an_aggregate_drops_a_customer(
    con: duckdb.DuckDBPyConnection, shop: Schema
) -> None:
    candidate = INNER_JOIN.replace(
        "o.placed_at >= '2026-07-01'\n  AND o.placed_at <  '2026-10-01'",
        "o.placed_at BETWEEN '2026-07-01' AND '2026-09-30'",
    )
    assert "BETWEEN" in candidate
    cause, detail = explain(con, shop, candidate, INNER_JOIN)
    assert cause == "filter_window"
    assert detail.endswith(
        "The reference returns (customer_id=2, name='Bob', order_count=1), "
        "which is absent from the candidate."
    )


def test_an_inclusive_bound_adds_a_row(con: duckdb.DuckDBPyConnection, shop: Schema) -> None:
    cause, detail = explain(
        con,
        shop,
        "SELECT c.name FROM customers c WHERE c.customer_id >= 1",
        "SELECT c.name FROM customers c WHERE c.customer_id > 1",
    )
    assert cause == "filter_window"
    assert detail == (
        "The two queries bound customer_id differently (reference: c.customer_id > 1; "
        "candidate: c.customer_id >= 1). The candidate returns (name='Ada'), "
        "which is absent from the reference."
    )


def test_a_narrower_window_on_an_aggregate_changes_values(
    con: duckdb.DuckDBPyConnection, shop: Schema
) -> None:
    # Ada keeps a row with a smaller count; the differing bound is the cause to act on.
    candidate = INNER_JOIN.replace("'2026-10-01'", "'2026-08-01'")
    cause, detail = explain(con, shop, candidate, INNER_JOIN)
    assert cause == "filter_window"
    assert detail.startswith("The two queries bound placed_at differently")
    assert (
        "For customer_id=1 the reference has order_count=2 and the candidate has order_count=1."
        in detail
    )


def test_an_extra_column_is_a_projection_error(
    con: duckdb.DuckDBPyConnection, shop: Schema
) -> None:
    candidate = INNER_JOIN.replace("c.name,", "c.name, c.plan,").replace(
        "GROUP BY c.customer_id, c.name", "GROUP BY c.customer_id, c.name, c.plan"
    )
    assert explain(con, shop, candidate, INNER_JOIN) == (
        "projection",
        "The candidate returns 4 columns (customer_id, name, plan, order_count) where the "
        "reference returns 3 (customer_id, name, order_count); the candidate's column plan "
        "has no counterpart in the reference.",
    )


def test_an_extra_grouping_key_that_splits_groups_is_a_grain_error(
    con: duckdb.DuckDBPyConnection, shop: Schema
) -> None:
    # Per customer per month where the question asks per month (example suite q-0146):
    # the extra key is projected too, but the cause is the grain, not the column.
    candidate = (
        "SELECT customer_id, month(placed_at) AS m, COUNT(*) AS n FROM orders "
        "GROUP BY customer_id, month(placed_at)"
    )
    reference = "SELECT month(placed_at) AS m, COUNT(*) AS n FROM orders GROUP BY month(placed_at)"
    cause, detail = explain(con, shop, candidate, reference)
    assert cause == "grain"
    assert detail.startswith(
        "The candidate also groups by customer_id: one row per customer_id, MONTH(placed_at)"
    )


def test_a_missing_column_is_a_projection_error(
    con: duckdb.DuckDBPyConnection, shop: Schema
) -> None:
    candidate = INNER_JOIN.replace("c.name, COUNT", "COUNT")
    cause, detail = explain(con, shop, candidate, INNER_JOIN)
    assert cause == "projection"
    assert detail.endswith("the reference's column name is missing from the candidate.")


def test_columns_of_the_wrong_kind_are_a_projection_error(
    con: duckdb.DuckDBPyConnection, shop: Schema
) -> None:
    assert explain(
        con,
        shop,
        "SELECT c.customer_id, c.name, c.plan FROM customers c WHERE c.plan <> 'free'",
        "SELECT c.name, c.customer_id, COUNT(*) AS n FROM customers c "
        "JOIN orders o ON o.customer_id = c.customer_id "
        "WHERE c.plan <> 'free' GROUP BY c.customer_id, c.name",
    ) == (
        "projection",
        "The candidate's columns do not line up with the reference's: the reference has "
        "2 numeric columns (customer_id, n) and the candidate 1 (customer_id).",
    )


def test_empty_candidate(con: duckdb.DuckDBPyConnection, shop: Schema) -> None:
    candidate = INNER_JOIN.replace("'enterprise'", "'Enterprise'")
    assert explain(con, shop, candidate, INNER_JOIN) == (
        "empty_result",
        "The candidate returns no rows; the reference returns 2 rows: "
        "(customer_id=1, name='Ada', order_count=2) and "
        "(customer_id=2, name='Bob', order_count=1).",
    )


def test_missing_distinct_returns_extra_rows(con: duckdb.DuckDBPyConnection, shop: Schema) -> None:
    join = "FROM customers c JOIN orders o ON o.customer_id = c.customer_id"
    assert explain(con, shop, f"SELECT c.name {join}", f"SELECT DISTINCT c.name {join}") == (
        "extra_rows",
        "The candidate returns the row (name='Ada') 2 times where the reference returns it once.",
    )
    assert explain(con, shop, f"SELECT DISTINCT c.name {join}", f"SELECT c.name {join}") == (
        "missing_rows",
        "The reference returns the row (name='Ada') 2 times where the candidate returns it once.",
    )


def test_a_missing_filter_returns_extra_rows(con: duckdb.DuckDBPyConnection, shop: Schema) -> None:
    assert explain(
        con,
        shop,
        "SELECT c.name FROM customers c",
        "SELECT c.name FROM customers c WHERE c.plan = 'enterprise'",
    ) == ("extra_rows", "The candidate returns (name='Cy'), which is absent from the reference.")


def test_long_lists_are_cut_at_three(con: duckdb.DuckDBPyConnection, shop: Schema) -> None:
    assert explain(
        con,
        shop,
        "SELECT o.order_id FROM orders o WHERE o.order_id = 10",
        "SELECT o.order_id FROM orders o",
    ) == (
        "missing_rows",
        "The reference returns 4 rows absent from the candidate: "
        "(order_id=11), (order_id=12), (order_id=13) and 1 more.",
    )


def test_wrong_order(con: duckdb.DuckDBPyConnection, shop: Schema) -> None:
    body = "FROM customers c JOIN orders o ON o.customer_id = c.customer_id GROUP BY c.name"
    assert explain(
        con,
        shop,
        f"SELECT c.name, COUNT(*) AS n {body} ORDER BY n, c.name",
        f"SELECT c.name, COUNT(*) AS n {body} ORDER BY n DESC",
    ) == (
        "same_keys_different_values",
        "The candidate returns the same rows in a different order: the reference's "
        "ORDER BY n DESC puts (name='Ada', n=2) at row 1, where the candidate has "
        "(name='Bob', n=1).",
    )


def test_classify_refuses_an_equal_or_ambiguous_comparison() -> None:
    result = ResultSet(("a",), ((1,),))
    with pytest.raises(ValueError, match="definite difference"):
        classify(compare_results(result, result, Options()), result, result)
    ambiguous = Comparison(False, "values", None, (), (), ambiguous=True)
    with pytest.raises(ValueError, match="definite difference"):
        classify(ambiguous, result, result)


def test_values_read_like_sql() -> None:
    row = (
        None,
        "it's",
        dt.datetime(2026, 9, 30, 12, 0),
        Decimal("7.50"),
        float("nan"),
        False,
        b"\x01",
        [1, None],
        {"k": "v"},
    )
    names = ("a", "b", "c", "d", "e", "f", "g", "h", "i")
    assert format_row(names, row) == (
        "a=NULL, b='it''s', c='2026-09-30 12:00:00', d=7.50, e=NaN, f=FALSE, "
        "g='\\x01', h=[1, NULL], i={k: 'v'}"
    )
    assert format_value("x" * 80).endswith("...'")


def test_a_window_error_that_empties_the_candidate_is_still_a_window_error(
    con: duckdb.DuckDBPyConnection, shop: Schema
) -> None:
    # The shrinker's favourite: one order on the boundary, and nothing else.
    cause, detail = explain(
        con,
        shop,
        "SELECT o.order_id FROM orders o WHERE o.placed_at BETWEEN '2026-09-01' AND '2026-09-30'",
        "SELECT o.order_id FROM orders o "
        "WHERE o.placed_at >= '2026-09-01' AND o.placed_at < '2026-10-01'",
    )
    assert cause == "filter_window"
    assert detail.endswith(
        "The reference returns (order_id=12), which is absent from the candidate."
    )


_cells = st.one_of(st.none(), st.integers(0, 3), st.sampled_from(["a", "b"]), st.just(0.5))


@st.composite
def _result(draw: st.DrawFn, width: int) -> ResultSet:
    rows = draw(st.lists(st.tuples(*[_cells] * width), max_size=5))
    return ResultSet(tuple(f"c{i}" for i in range(width)), tuple(rows))


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 4).flatmap(lambda w: st.tuples(_result(w), _result(w))), st.booleans())
def test_every_difference_gets_a_cause_and_a_sentence(
    pair: tuple[ResultSet, ResultSet], bag: bool
) -> None:
    candidate, reference = pair
    comparison = compare_results(candidate, reference, Options(bag_semantics=bag))
    if comparison.equal or comparison.ambiguous:
        return
    cause, detail = classify(comparison, candidate, reference)
    assert cause in CAUSES
    assert detail.endswith(".") and detail[0].isupper()
