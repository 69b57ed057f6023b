"""Result comparison: bags and sets, column matching, canonical values, order."""

from __future__ import annotations

import datetime as dt
import json
import math
import random
import uuid
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import duckdb
import pytest
import sqlglot
from hypothesis import given, settings
from hypothesis import strategies as st

import sqlequiv.compare.rows as compare_module
from sqlequiv.compare.rows import canonical_value, compare_results, order_keys_of, to_json_value
from sqlequiv.guard.qualify import qualify_query
from sqlequiv.options import Options
from sqlequiv.results import Comparison, OrderKey, ResultSet
from sqlequiv.schema.model import Schema

DEFAULT = Options()


@pytest.fixture
def con() -> Iterator[duckdb.DuckDBPyConnection]:
    connection = duckdb.connect()
    connection.execute(
        """
        CREATE TABLE scores (id INTEGER, name VARCHAR, score INTEGER, ratio DOUBLE);
        INSERT INTO scores VALUES
          (1, 'Ada', 90, 0.1), (2, 'Bob', 75, 0.2), (3, 'Cy', 90, 0.3),
          (4, 'Dee', NULL, NULL), (5, 'Eve', 60, 0.3);
        """
    )
    yield connection
    connection.close()


def run(con: duckdb.DuckDBPyConnection, sql: str) -> ResultSet:
    cursor = con.execute(sql)
    rows = cursor.fetchall()
    return ResultSet(tuple(d[0] for d in cursor.description), tuple(tuple(r) for r in rows))


def rs(*rows: tuple[Any, ...], columns: tuple[str, ...] | None = None) -> ResultSet:
    width = len(rows[0]) if rows else len(columns or ())
    return ResultSet(columns or tuple(f"c{i}" for i in range(width)), tuple(rows))


def keys_of(sql: str) -> list[OrderKey] | None:
    return order_keys_of(sqlglot.parse_one(sql, read="duckdb"))


# -- bags and sets ---------------------------------------------------------------------


def test_duplicates_count_under_bag_semantics(con: duckdb.DuckDBPyConnection) -> None:
    ref = run(con, "SELECT DISTINCT score FROM scores WHERE score IS NOT NULL")
    cand = run(con, "SELECT score FROM scores WHERE score IS NOT NULL")
    result = compare_results(cand, ref, DEFAULT)
    assert not result.equal and not result.ambiguous
    assert result.reason == "row_count"
    assert result.missing == ()
    assert result.extra == ((90,),)


def test_duplicates_ignored_under_set_semantics(con: duckdb.DuckDBPyConnection) -> None:
    ref = run(con, "SELECT DISTINCT score FROM scores")
    cand = run(con, "SELECT score FROM scores ORDER BY id")
    assert compare_results(cand, ref, Options(bag_semantics=False)).equal


def test_bag_counts_each_row_exactly() -> None:
    ref = rs((1,), (1,), (2,))
    cand = rs((1,), (2,), (2,))
    result = compare_results(cand, ref, DEFAULT)
    assert (result.reason, result.missing, result.extra) == ("values", ((1,),), ((2,),))


def test_empty_results_are_equal() -> None:
    assert compare_results(rs(columns=("a",)), rs(columns=("b",)), DEFAULT).equal


def test_different_column_counts() -> None:
    result = compare_results(rs((1, 2)), rs((1,)), DEFAULT)
    assert (result.equal, result.reason, result.column_map) == (False, "column_count", None)
    assert result.missing == ((1,),) and result.extra == ((1, 2),)


# -- column matching -------------------------------------------------------------------


def test_columns_match_by_values_not_names(con: duckdb.DuckDBPyConnection) -> None:
    ref = run(con, "SELECT id, name, score FROM scores")
    cand = run(con, "SELECT score AS s, id AS x, name AS n FROM scores ORDER BY name DESC")
    result = compare_results(cand, ref, DEFAULT)
    assert result.equal
    assert result.column_map == (1, 2, 0)


def test_column_order_counts_when_asked(con: duckdb.DuckDBPyConnection) -> None:
    ref = run(con, "SELECT id, name FROM scores")
    cand = run(con, "SELECT name, id FROM scores")
    result = compare_results(cand, ref, Options(ignore_column_order=False))
    assert not result.equal and not result.ambiguous


def test_columns_with_equal_value_sets_are_told_apart_by_row_context() -> None:
    # Both columns hold {1, 2}; only the pairing within rows says which is which.
    ref = rs((1, 1, "x"), (2, 2, "y"), (1, 2, "z"))
    cand = rs(("x", 1, 1), ("y", 2, 2), ("z", 2, 1))
    result = compare_results(cand, ref, DEFAULT)
    assert result.equal and result.column_map == (2, 1, 0)
    swapped_wrongly = rs(("x", 1, 1), ("y", 2, 2), ("z", 1, 2), columns=("a", "b", "c"))
    assert compare_results(swapped_wrongly, ref, DEFAULT).equal  # (b, c) also works here
    not_equal = rs(("x", 1, 1), ("y", 2, 1), ("z", 2, 2))
    result = compare_results(not_equal, ref, DEFAULT)
    assert not result.equal and not result.ambiguous


def test_wide_result_with_many_equal_columns_returns(con: duckdb.DuckDBPyConnection) -> None:
    # 26 columns: 20 of them hold the same values {0, 1}, in different row patterns.
    parity = ", ".join(f"(id + {k}) % 2 AS p{k}" for k in range(20))
    ref = run(con, f"SELECT id, name, score, ratio, id * 2 AS d, id * 3 AS t, {parity} FROM scores")
    assert len(ref.columns) == 26
    rng = random.Random(7)
    order = list(range(26))
    rng.shuffle(order)
    cand = ResultSet(
        tuple(ref.columns[j] for j in order),
        tuple(tuple(row[j] for j in order) for row in reversed(ref.rows)),
    )
    result = compare_results(cand, ref, DEFAULT)
    assert result.equal
    # One changed cell in an equal-valued column: a definite difference, found without hanging.
    broken = [list(row) for row in cand.rows]
    position = order.index(10)
    broken[0][position] = 1 - broken[0][position]
    result = compare_results(ResultSet(cand.columns, tuple(map(tuple, broken))), ref, DEFAULT)
    assert not result.equal and not result.ambiguous


def test_wide_result_of_identical_columns_returns() -> None:
    ref = ResultSet(tuple(f"c{i}" for i in range(26)), tuple((i % 3,) * 26 for i in range(12)))
    assert compare_results(ref, ref, DEFAULT).equal
    broken = ResultSet(ref.columns, (*ref.rows[:-1], (2,) * 25 + (1,)))
    result = compare_results(broken, ref, DEFAULT)
    assert not result.equal and not result.ambiguous


def _cycle_rows(cycles: list[list[int]], width: int) -> ResultSet:
    """One row per edge of the given cycles over ``width`` columns (1 at both ends)."""
    rows = []
    for cycle in cycles:
        for a, b in zip(cycle, cycle[1:] + cycle[:1], strict=True):
            rows.append(tuple(1 if c in (a, b) else 0 for c in range(width)))
    return ResultSet(tuple(f"c{i}" for i in range(width)), tuple(rows))


def test_regular_structures_that_fool_signatures_are_decided() -> None:
    # Every column holds two 1s and every row two 1s: signatures and plain colour
    # refinement cannot tell a 26-cycle from two 13-cycles; individualisation can.
    one_cycle = _cycle_rows([list(range(26))], 26)
    two_cycles = _cycle_rows([list(range(13)), list(range(13, 26))], 26)
    result = compare_results(two_cycles, one_cycle, DEFAULT)
    assert not result.equal and not result.ambiguous
    shuffled = list(range(26))
    random.Random(3).shuffle(shuffled)
    relabelled = _cycle_rows([shuffled], 26)
    assert compare_results(relabelled, one_cycle, DEFAULT).equal


def test_search_budget_makes_the_comparison_ambiguous(monkeypatch: pytest.MonkeyPatch) -> None:
    one_cycle = _cycle_rows([list(range(26))], 26)
    two_cycles = _cycle_rows([list(range(13)), list(range(13, 26))], 26)
    monkeypatch.setattr(compare_module, "MAX_TRIALS", 3)
    result = compare_results(two_cycles, one_cycle, DEFAULT)
    assert result == Comparison(False, "values", None, (), (), ambiguous=True)


def test_refinement_work_budget_makes_the_comparison_ambiguous(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    one_cycle = _cycle_rows([list(range(26))], 26)
    two_cycles = _cycle_rows([list(range(13)), list(range(13, 26))], 26)
    monkeypatch.setattr(compare_module, "MAX_REFINE_CELLS", 2_000)
    assert compare_results(two_cycles, one_cycle, DEFAULT).ambiguous


def test_missing_and_extra_are_in_reference_column_order() -> None:
    ref = rs((1, "a"), (2, "b"), columns=("id", "name"))
    cand = rs(("a", 1), ("c", 3), columns=("name", "id"))
    result = compare_results(cand, ref, DEFAULT)
    assert result.column_map == (1, 0)
    assert result.missing == ((2, "b"),)
    assert result.extra == ((3, "c"),)


# -- canonical values ------------------------------------------------------------------


def test_null_nan_negative_zero_and_decimals(con: duckdb.DuckDBPyConnection) -> None:
    ref = run(
        con, "SELECT NULL AS a, 'nan'::DOUBLE AS b, -0.0::DOUBLE AS c, 3.00::DECIMAL(5,2) AS d"
    )
    cand = run(con, "SELECT NULL, 'nan'::DOUBLE, 0.0::DOUBLE, 3")
    assert ref.rows[0][2] == 0.0 and math.copysign(1, ref.rows[0][2]) == -1
    assert compare_results(cand, ref, Options(float_tolerance=0.0)).equal


def test_decimal_equals_int_and_float(con: duckdb.DuckDBPyConnection) -> None:
    ref = run(con, "SELECT SUM(x) FROM (VALUES (1.50::DECIMAL(4,2)), (1.50)) t(x)")
    for sql in ("SELECT 3", "SELECT 3.0::DOUBLE", "SELECT 3.000::DECIMAL(9,3)"):
        assert compare_results(run(con, sql), ref, Options(float_tolerance=0.0)).equal, sql


def test_float_tolerance(con: duckdb.DuckDBPyConnection) -> None:
    ref = run(con, "SELECT 0.3::DOUBLE")
    cand = run(con, "SELECT 0.1::DOUBLE + 0.2::DOUBLE")
    assert cand.rows != ref.rows
    assert compare_results(cand, ref, DEFAULT).equal
    assert not compare_results(cand, ref, Options(float_tolerance=0.0)).equal
    assert not compare_results(run(con, "SELECT 0.3001::DOUBLE"), ref, DEFAULT).equal


def test_decimal_sum_matches_double_sum_within_tolerance(con: duckdb.DuckDBPyConnection) -> None:
    ref = run(con, "SELECT SUM(x) FROM (VALUES (0.1::DECIMAL(3,1)), (0.2)) t(x)")
    cand = run(con, "SELECT SUM(x::DOUBLE) FROM (VALUES (0.1), (0.2)) t(x)")
    assert isinstance(ref.rows[0][0], Decimal) and isinstance(cand.rows[0][0], float)
    assert compare_results(cand, ref, DEFAULT).equal


def test_tolerance_does_not_depend_on_rounding_buckets() -> None:
    # Rounding to 9 significant digits would put these either side of a bucket edge.
    ref = rs((1.0000000004999,), (2.5,))
    cand = rs((1.0000000005001,), (2.5,))
    assert compare_results(cand, ref, DEFAULT).equal


def test_tolerance_pairs_rows_without_greedy_mistakes() -> None:
    # 1.0 is close to both candidates; a greedy pairing could take the only partner of 1.0+2e-9.
    tol = Options(float_tolerance=1e-9)
    ref = rs((1.0,), (1.0 + 2e-9,))
    cand = rs((1.0 + 1e-9,), (1.0 - 0.9e-9,))
    assert compare_results(cand, ref, tol).equal


def test_tolerance_with_swapped_float_columns() -> None:
    ref = rs((0.3, 1.0), (2.0, 3.0))
    cand = rs((1.0, 0.1 + 0.2), (3.0, 2.0))
    result = compare_results(cand, ref, DEFAULT)
    assert result.equal and result.column_map == (1, 0)


def test_tolerance_does_not_apply_to_integers_or_decimals() -> None:
    big = 10**15
    assert not compare_results(rs((big + 1,)), rs((big,)), DEFAULT).equal
    assert not compare_results(rs((Decimal("1.0000000001"),)), rs((Decimal(1),)), DEFAULT).equal


def test_infinities_are_only_equal_to_themselves() -> None:
    assert compare_results(rs((math.inf,)), rs((math.inf,)), DEFAULT).equal
    assert not compare_results(rs((math.inf,)), rs((1e308,)), DEFAULT).equal
    assert not compare_results(rs((-math.inf,)), rs((math.inf,)), DEFAULT).equal


def test_set_semantics_with_tolerance() -> None:
    ref = rs((0.3,), (0.3,), (1.0,))
    cand = rs((0.1 + 0.2,), (1.0,))
    assert compare_results(cand, ref, Options(bag_semantics=False)).equal
    assert not compare_results(cand, ref, DEFAULT).equal


def test_distinct_types_stay_distinct(con: duckdb.DuckDBPyConnection) -> None:
    pairs = [
        ("SELECT DATE '2026-07-01'", "SELECT TIMESTAMP '2026-07-01 00:00:00'"),
        ("SELECT TRUE", "SELECT 1"),
        ("SELECT '1'", "SELECT 1"),
        ("SELECT NULL::INTEGER", "SELECT 0"),
    ]
    for ref_sql, cand_sql in pairs:
        result = compare_results(run(con, cand_sql), run(con, ref_sql), DEFAULT)
        assert not result.equal and not result.ambiguous, (ref_sql, cand_sql)


def test_timestamps_with_time_zone_compare_as_instants(con: duckdb.DuckDBPyConnection) -> None:
    ref = run(con, "SELECT TIMESTAMPTZ '2026-07-01 12:00:00+02'")
    cand = ResultSet(
        ("t",),
        ((dt.datetime(2026, 7, 1, 6, 0, tzinfo=dt.timezone(dt.timedelta(hours=-4))),),),
    )
    assert compare_results(cand, ref, DEFAULT).equal
    naive = ResultSet(("t",), ((dt.datetime(2026, 7, 1, 10, 0),),))
    assert not compare_results(naive, ref, DEFAULT).equal


def test_nested_values(con: duckdb.DuckDBPyConnection) -> None:
    ref = run(con, "SELECT [1, NULL, 3] AS l, {'a': 1.5, 'b': 'x'} AS s, MAP([1], ['y']) AS m")
    cand = run(con, "SELECT {'a': 1.5::DOUBLE, 'b': 'x'}, MAP([1], ['y']), [1, NULL, 3]")
    assert compare_results(cand, ref, DEFAULT).equal
    other = run(con, "SELECT {'a': 1.5::DOUBLE, 'b': 'x'}, MAP([1], ['y']), [3, NULL, 1]")
    assert not compare_results(other, ref, DEFAULT).equal
    close = ResultSet(cand.columns, (({"a": 1.5 + 1e-12, "b": "x"}, {1: "y"}, [1, None, 3]),))
    assert compare_results(close, ref, DEFAULT).equal


def test_canonical_value() -> None:
    assert canonical_value(Decimal("3.00")) == canonical_value(3) == canonical_value(3.0)
    assert hash(canonical_value(Decimal("3.00"))) == hash(canonical_value(3.0))
    assert canonical_value(float("nan")) == canonical_value(Decimal("NaN"))
    assert canonical_value(-0.0) == canonical_value(0)
    assert canonical_value(True) != canonical_value(1)
    assert canonical_value(dt.date(2026, 7, 1)) != canonical_value(dt.datetime(2026, 7, 1))
    assert canonical_value([1, 2]) != canonical_value([2, 1])
    assert canonical_value({"a": 1, "b": 2}) == canonical_value({"b": 2, "a": 1})
    assert canonical_value(b"ab") == canonical_value(bytearray(b"ab"))
    assert canonical_value(None) is None


# -- JSON ------------------------------------------------------------------------------


def test_to_json_value_is_lossless_and_json_ready(con: duckdb.DuckDBPyConnection) -> None:
    row = run(
        con,
        """SELECT 12345678901234567890.12::DECIMAL(38, 2), 10.00::DECIMAL(10, 2),
                  'nan'::DOUBLE, 'inf'::DOUBLE, '-inf'::DOUBLE, -0.0::DOUBLE,
                  DATE '2026-07-01', TIMESTAMP '2026-09-30 23:59:59.999999',
                  TIMESTAMPTZ '2026-07-01 12:00:00+00', TIME '12:30:00',
                  INTERVAL '1 day 2 hours 3 seconds', '\\x01\\xff'::BLOB,
                  '1b4e28ba-2fa1-11d2-883f-0016d3cca427'::UUID, [1.5, NULL],
                  {'k': DATE '2026-01-02'},
                  12345678901234567890123::HUGEINT, TRUE""",
    ).rows[0]
    values = [to_json_value(v) for v in row]
    assert values[:6] == ["12345678901234567890.12", 10, "NaN", "Infinity", "-Infinity", -0.0]
    assert Decimal(str(values[0])) == row[0]
    assert values[6:10] == [
        "2026-07-01",
        "2026-09-30T23:59:59.999999",
        row[8].isoformat(),
        "12:30:00",
    ]
    assert values[10] == "P1DT2H3S"
    assert values[11] == "01ff"
    assert values[12] == "1b4e28ba-2fa1-11d2-883f-0016d3cca427"
    assert values[13:] == [["1.5", None], {"k": "2026-01-02"}, 12345678901234567890123, True]
    json.dumps(values, allow_nan=False)


@pytest.mark.parametrize(
    ("delta", "text"),
    [
        (dt.timedelta(0), "PT0S"),
        (dt.timedelta(days=-1), "-P1D"),
        (dt.timedelta(seconds=-1.5), "-PT1.5S"),
        (dt.timedelta(days=30, minutes=5), "P30DT5M"),
    ],
)
def test_intervals_become_iso_durations(delta: dt.timedelta, text: str) -> None:
    assert to_json_value(delta) == text


def test_to_json_value_of_map_keys_and_uuid() -> None:
    assert to_json_value({1: "a", dt.date(2026, 1, 1): None}) == {"1": "a", "2026-01-01": None}
    u = uuid.uuid4()
    assert to_json_value(u) == str(u)


# -- order -----------------------------------------------------------------------------


def test_order_with_ties(con: duckdb.DuckDBPyConnection) -> None:
    ref_sql = "SELECT name, score FROM scores ORDER BY score DESC"
    keys = keys_of(ref_sql)
    assert keys == [OrderKey(1, descending=True, nulls_first=False)]
    ref = run(con, ref_sql)
    # Ada and Cy tie at 90: either may come first.
    ties_swapped = run(con, "SELECT score, name FROM scores ORDER BY score DESC, name DESC")
    assert ties_swapped.rows[0][1] != ref.rows[0][0] or ref.rows[0][0] == "Cy"
    assert compare_results(ties_swapped, ref, DEFAULT, keys).equal
    ascending = run(con, "SELECT score, name FROM scores ORDER BY score ASC")
    result = compare_results(ascending, ref, DEFAULT, keys)
    assert (result.equal, result.reason, result.ambiguous) == (False, "order", False)
    assert result.column_map == (1, 0) and result.missing == result.extra == ()
    assert compare_results(ascending, ref, Options(check_order=False), keys).equal
    assert compare_results(ascending, ref, DEFAULT, None).equal


def test_duckdb_puts_nulls_last_in_both_directions(con: duckdb.DuckDBPyConnection) -> None:
    # Unlike Postgres, DuckDB's default is NULLS LAST for DESC as well as ASC.
    assert run(con, "SELECT score FROM scores ORDER BY score DESC").rows[-1] == (None,)
    assert run(con, "SELECT score FROM scores ORDER BY score").rows[-1] == (None,)
    default = run(con, "SELECT current_setting('default_null_order')").rows[0][0]
    assert default.lower() == "nulls_last"


def test_desc_nulls_first(con: duckdb.DuckDBPyConnection) -> None:
    ref_sql = "SELECT id, score FROM scores ORDER BY score DESC NULLS FIRST, id"
    keys = keys_of(ref_sql)
    assert keys == [OrderKey(1, True, True), OrderKey(0, False, False)]
    ref = run(con, ref_sql)
    assert ref.rows[0] == (4, None)
    nulls_last = run(con, "SELECT id, score FROM scores ORDER BY score DESC, id")
    assert compare_results(nulls_last, ref, DEFAULT, keys).reason == "order"
    same = run(con, "SELECT score, id FROM scores ORDER BY score DESC NULLS FIRST, id")
    assert compare_results(same, ref, DEFAULT, keys).equal


def test_order_is_checked_under_the_matching_that_allows_it() -> None:
    # Two column matchings make the bags equal; only one puts the key column in order.
    ref = rs((1, 2), (2, 1), columns=("k", "v"))
    cand = rs((1, 2), (2, 1), columns=("x", "y"))
    keys = [OrderKey(0, False, False)]
    assert compare_results(cand, ref, DEFAULT, keys).equal
    cand = rs((2, 1), (1, 2), columns=("x", "y"))
    result = compare_results(cand, ref, DEFAULT, keys)
    assert result.equal and result.column_map == (1, 0)


def test_order_with_float_keys_within_tolerance() -> None:
    ref = rs((0.3, "a"), (0.2, "b"))
    cand = rs((0.1 + 0.2, "a"), (0.2, "b"))
    assert compare_results(cand, ref, DEFAULT, [OrderKey(0, True, False)]).equal


def test_order_under_set_semantics() -> None:
    ref = rs((3,), (2,), (1,))
    cand = rs((3,), (3,), (2,), (1,))
    keys = [OrderKey(0, True, False)]
    assert compare_results(cand, ref, Options(bag_semantics=False), keys).equal
    cand = rs((1,), (2,), (3,))
    assert compare_results(cand, ref, Options(bag_semantics=False), keys).reason == "order"


# -- ORDER BY keys of the reference ----------------------------------------------------


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ("SELECT a, b FROM t", None),
        ("SELECT a, b FROM t ORDER BY b", [(1, False, False)]),
        ("SELECT a AS x, b FROM t ORDER BY x DESC", [(0, True, False)]),
        ("SELECT a, b FROM t ORDER BY 2 DESC NULLS FIRST, 1", [(1, True, True), (0, False, False)]),
        ("SELECT a + 1 AS y, b FROM t ORDER BY a + 1", [(0, False, False)]),
        ("SELECT b AS a, a AS b FROM t ORDER BY a", [(0, False, False)]),
        ("SELECT a FROM t ORDER BY b", None),
        ("SELECT a, b FROM t ORDER BY a, c", [(0, False, False)]),
        ("SELECT a FROM t ORDER BY 3", None),
        ("SELECT a, b FROM t UNION ALL SELECT b, a FROM u ORDER BY 2 DESC", [(1, True, False)]),
        ("SELECT a, b FROM t UNION ALL SELECT b, a FROM u ORDER BY b", [(1, False, False)]),
        ("WITH w AS (SELECT a FROM t ORDER BY a) SELECT a FROM w", None),
        ("SELECT COUNT(*) AS n, a FROM t GROUP BY a ORDER BY COUNT(*) DESC", [(0, True, False)]),
    ],
)
def test_order_keys_of(sql: str, expected: list[tuple[int, bool, bool]] | None) -> None:
    keys = keys_of(sql)
    assert (None if keys is None else [(k.column, k.descending, k.nulls_first) for k in keys]) == (
        expected
    )


def test_order_keys_of_qualified_trees(shop: Schema) -> None:
    for sql, dialect, expected in [
        (
            "SELECT c.name, COUNT(*) AS n FROM customers c JOIN orders o "
            "ON o.customer_id = c.customer_id GROUP BY c.name ORDER BY n DESC, 1",
            "duckdb",
            [(1, True, False), (0, False, False)],
        ),
        ("SELECT name FROM customers ORDER BY customer_id", "duckdb", None),
        # Postgres sorts NULLs first in DESC; the parser records it on the tree.
        ("SELECT name AS x FROM customers ORDER BY x DESC", "postgres", [(0, True, True)]),
    ]:
        tree = qualify_query(sqlglot.parse_one(sql, read=dialect), shop, dialect)
        keys = order_keys_of(tree)
        got = None if keys is None else [(k.column, k.descending, k.nulls_first) for k in keys]
        assert got == expected, sql


# -- properties ------------------------------------------------------------------------

_values = st.one_of(
    st.none(),
    st.integers(-3, 3),
    st.sampled_from([0.5, -0.0, 0.0, 1e-12, float("nan"), 2.5]),
    st.sampled_from([Decimal("1.50"), Decimal("2"), Decimal("-0.00")]),
    st.sampled_from(["a", "b", ""]),
    st.booleans(),
    st.sampled_from([dt.date(2026, 7, 1), dt.datetime(2026, 7, 1, 0, 0)]),
)


@st.composite
def _results_and_shuffles(draw: st.DrawFn) -> tuple[ResultSet, ResultSet]:
    width = draw(st.integers(1, 6))
    rows = draw(st.lists(st.tuples(*[_values] * width), max_size=6))
    # Copy columns to make equal-valued columns common (the hard case for matching).
    copies = draw(st.lists(st.tuples(st.integers(0, width - 1), st.integers(0, width - 1))))
    grid = [list(r) for r in rows]
    for src, dst in copies:
        for r in grid:
            r[dst] = r[src]
    columns = tuple(f"c{i}" for i in range(width))
    result = ResultSet(columns, tuple(tuple(r) for r in grid))
    perm = draw(st.permutations(list(range(width))))
    row_order = draw(st.permutations(list(range(len(grid)))))
    shuffled = ResultSet(
        tuple(columns[j] for j in perm),
        tuple(tuple(grid[i][j] for j in perm) for i in row_order),
    )
    return result, shuffled


@settings(max_examples=300, deadline=None)
@given(_results_and_shuffles())
def test_permuting_rows_and_columns_never_breaks_equality(
    pair: tuple[ResultSet, ResultSet],
) -> None:
    reference, candidate = pair
    for options in (DEFAULT, Options(bag_semantics=False), Options(float_tolerance=0.0)):
        result = compare_results(candidate, reference, options)
        assert result.equal, (reference, candidate, options)


@settings(max_examples=200, deadline=None)
@given(_results_and_shuffles(), st.data())
def test_a_changed_row_is_a_definite_difference(
    pair: tuple[ResultSet, ResultSet], data: st.DataObject
) -> None:
    reference, candidate = pair
    if not candidate.rows:
        return
    # A value no generated row contains: the bags can no longer be equal.
    i = data.draw(st.integers(0, len(candidate.rows) - 1))
    j = data.draw(st.integers(0, len(candidate.columns) - 1))
    row = list(candidate.rows[i])
    row[j] = "sentinel-not-generated"
    changed = ResultSet(
        candidate.columns, (*candidate.rows[:i], tuple(row), *candidate.rows[i + 1 :])
    )
    result = compare_results(changed, reference, DEFAULT)
    assert not result.equal and not result.ambiguous
    assert result.missing and len(result.missing) == len(result.extra)
    assert any("sentinel-not-generated" in row for row in result.extra)


def test_alignment_explains_a_difference_with_the_fewest_rows() -> None:
    # c0 and c3 hold the same values, which fools a pairing by shared values alone.
    ref = rs((None, None, None, None, None, None), (0, None, None, 0, None, None))
    cand = rs(("x", None, None, None, None, None), (0, None, None, None, 0, None))
    result = compare_results(cand, ref, DEFAULT)
    assert result.column_map == (0, 1, 2, 4, 3, 5)
    assert result.missing == ((None,) * 6,)
    assert result.extra == (("x", None, None, None, None, None),)
