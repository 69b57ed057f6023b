"""Proofs by parts: canonical forms too large for the prover that differ only inside
self-contained subqueries (sqlequiv.symbolic.prove.congruence). Real z3, real DuckDB."""

from __future__ import annotations

import sqlglot

from sqlequiv import Options, check
from sqlequiv.guard import guard_query
from sqlequiv.pipeline import PROVING_STAGES
from sqlequiv.schema import load_schema
from sqlequiv.symbolic.prove.congruence import differing_parts, prove_by_parts
from sqlequiv.symbolic.prove.filters import same_filter
from sqlequiv.symbolic.prove.solver import ProofSolver

SCHEMA = "CREATE TABLE t (a INT, b INT); CREATE TABLE u (a INT, c INT)"
#: An outer condition past the prover's own limit (100 alternatives in one condition).
WIDE = ", ".join(map(str, range(150)))


def big(inner_where: str) -> str:
    return (
        f"SELECT x.a, u.c FROM (SELECT DISTINCT t.a AS a FROM t AS t WHERE {inner_where}) AS x "
        f"JOIN u AS u ON u.a = x.a WHERE u.c IN ({WIDE})"
    )


def test_a_large_pair_differing_in_one_derived_table_is_proved_by_parts() -> None:
    verdict = check(big("t.a BETWEEN 1 AND 3"), big("t.a IN (1, 2, 3)"), SCHEMA,
                    stages=PROVING_STAGES)  # fmt: skip
    assert (verdict.verdict, verdict.method) == ("equivalent", "symbolic")


def test_parts_that_differ_are_not_proved() -> None:
    near = (big("t.a BETWEEN 1 AND 4"), big("t.a IN (1, 2, 3)"))
    assert check(*near, SCHEMA, stages=PROVING_STAGES).verdict == "unknown"
    # The whole pipeline finds the row that tells them apart (a = 4).
    verdict = check(*near, SCHEMA, options=Options(time_budget=20.0))
    assert verdict.verdict == "not_equivalent"


def test_a_difference_outside_every_self_contained_query_is_no_part() -> None:
    schema = load_schema(SCHEMA)
    outer = (big("t.a > 1").replace("u.c IN", "u.c + 0 IN"), big("t.a > 1"))
    assert differing_parts(*map(sqlglot.parse_one, outer), schema) is None


def test_a_correlated_subquery_is_no_part() -> None:
    schema = load_schema(SCHEMA)
    q = "SELECT t.a FROM t AS t WHERE EXISTS (SELECT 1 FROM u AS u WHERE u.a = t.a AND {})"
    pair = sqlglot.parse_one(q.format("u.c > 1")), sqlglot.parse_one(q.format("u.c >= 2"))
    assert differing_parts(*pair, schema) is None
    # Its own self-contained subquery is one.
    q = "SELECT t.a FROM t AS t WHERE t.b IN (SELECT u.a FROM u AS u WHERE {})"
    pair = sqlglot.parse_one(q.format("u.c > 1")), sqlglot.parse_one(q.format("u.c >= 2"))
    parts = differing_parts(*pair, schema)
    assert parts is not None and [p.sql() for p, _ in parts] == [
        "SELECT u.a FROM u AS u WHERE u.c > 1"
    ]


def test_a_cte_named_like_a_table_makes_a_part_read_it_no_part() -> None:
    schema = load_schema(SCHEMA)
    q = ("WITH u AS (SELECT t.a AS a, t.b AS c FROM t AS t) "
         "SELECT t.a FROM t AS t WHERE t.b IN (SELECT u.a FROM u AS u WHERE {})")  # fmt: skip
    pair = sqlglot.parse_one(q.format("u.c > 1")), sqlglot.parse_one(q.format("u.c >= 2"))
    assert differing_parts(*pair, schema) is None


def test_union_branches_are_paired_by_the_tables_they_read() -> None:
    schema = load_schema(SCHEMA)
    left = sqlglot.parse_one(
        "SELECT y.a FROM (SELECT t.a AS a FROM t AS t WHERE t.a > 1 "
        "UNION ALL SELECT u.a AS a FROM u AS u) AS y"
    )
    right = sqlglot.parse_one(
        "SELECT y.a FROM (SELECT u.a AS a FROM u AS u "
        "UNION ALL SELECT t.a AS a FROM t AS t WHERE 1 < t.a) AS y"
    )
    parts = differing_parts(left, right, schema)
    assert parts is not None
    assert [(a.sql(), b.sql()) for a, b in parts] == [
        ("SELECT t.a AS a FROM t AS t WHERE t.a > 1", "SELECT t.a AS a FROM t AS t WHERE 1 < t.a")
    ]


def test_parts_must_name_and_type_their_columns_alike() -> None:
    # The context reads x.c0: positionally equal parts with the names swapped differ there.
    # (Whatever the prover says of the parts: here a stand-in that proves everything.)
    schema = load_schema(SCHEMA)
    q = "SELECT x.c0 FROM (SELECT DISTINCT t.a AS {}, t.b AS {} FROM t AS t) AS x"
    left = guard_query(q.format("c0", "c1"), schema, side="candidate").qualified
    right = guard_query(q.format("c1", "c0"), schema, side="reference").qualified
    assert differing_parts(left, right, schema) is not None
    assert not prove_by_parts(left, right, schema, lambda a, b: True)
    same = guard_query(q.format("c0", "c1").replace("DISTINCT", "DISTINCT ON (t.a)"), schema,
                       side="reference").qualified  # fmt: skip
    assert prove_by_parts(left, same, schema, lambda a, b: True)


def test_union_branches_named_apart_are_not_paired_anew() -> None:
    # The union takes its names from its first branch: with the branches swapped, y.a
    # would read the first column on one side and the second on the other.
    schema = load_schema(SCHEMA)
    left = guard_query(
        "SELECT y.a FROM (SELECT t.a AS a, t.b AS b FROM t AS t WHERE t.a > 1 "
        "UNION ALL SELECT u.a AS b, u.c AS a FROM u AS u) AS y", schema, side="candidate"
    ).qualified
    right = guard_query(
        "SELECT y.a FROM (SELECT u.a AS b, u.c AS a FROM u AS u "
        "UNION ALL SELECT t.a AS a, t.b AS b FROM t AS t WHERE 1 < t.a) AS y", schema,
        side="reference",
    ).qualified
    assert not prove_by_parts(left, right, schema, lambda a, b: True)
    # Named alike, the branches are paired by the tables they read.
    same = guard_query(
        "SELECT y.a FROM (SELECT u.a AS a, u.c AS b FROM u AS u "
        "UNION ALL SELECT t.a AS a, t.b AS b FROM t AS t WHERE 1 < t.a) AS y", schema,
        side="reference",
    ).qualified
    alike = guard_query(
        "SELECT y.a FROM (SELECT t.a AS a, t.b AS b FROM t AS t WHERE t.a > 1 "
        "UNION ALL SELECT u.a AS a, u.c AS b FROM u AS u) AS y", schema, side="candidate"
    ).qualified
    assert prove_by_parts(alike, same, schema, lambda a, b: True)


def test_each_part_is_held_to_the_provers_size_limits() -> None:
    # A part as large as the whole pair was is no smaller a proof: it is declined alike.
    wide = " OR ".join(f"t.a = {i}" for i in range(120))
    verdict = check(big(f"({wide}) AND t.b > 1"), big(f"({wide}) AND 1 < t.b + 0"), SCHEMA,
                    stages=PROVING_STAGES)  # fmt: skip
    assert verdict.verdict == "unknown"


def ranked(where: str) -> str:
    """A derived table with a window over groups, which the prover does not read whole."""
    return (
        "SELECT x.a, x.s FROM (SELECT t.a AS a, SUM(t.b) AS s, AVG(SUM(t.b)) OVER "
        f"(PARTITION BY t.a) AS m FROM t AS t WHERE {where} GROUP BY t.a, t.b) AS x "
        "WHERE x.s > x.m"
    )


#: TPC-DS query 53's filter, as written and in the conjunctive form sqlglot's optimizer gives.
DNF = "(t.a = 1 AND t.b = 2) OR (t.a = 3 AND t.b = 4)"
CNF = (
    "(t.a = 1 OR t.a = 3) AND (t.a = 1 OR t.b = 4) AND (t.b = 2 OR t.a = 3) "
    "AND (t.b = 2 OR t.b = 4)"
)


def test_a_filter_rewritten_inside_a_query_the_prover_cannot_read_is_proved() -> None:
    verdict = check(ranked(DNF), ranked(CNF), SCHEMA, stages=PROVING_STAGES)
    assert (verdict.verdict, verdict.method) == ("equivalent", "symbolic")


def test_a_filter_that_keeps_other_rows_is_not_proved() -> None:
    # Without (t.b = 2 OR t.a = 3) the row a = 1, b = 4 passes.
    near = ranked(DNF), ranked(CNF.replace(" AND (t.b = 2 OR t.a = 3)", ""))
    assert check(*near, SCHEMA, stages=PROVING_STAGES).verdict == "unknown"
    assert check(*near, SCHEMA, options=Options(time_budget=20.0)).verdict == "not_equivalent"


def _filters(*conditions: str) -> list[sqlglot.exp.Expr]:
    typed = []
    for condition in conditions:
        tree = sqlglot.parse_one(condition)
        for column in tree.find_all(sqlglot.exp.Column):
            column.type = sqlglot.exp.DataType.build("INT")
        typed.append(tree)
    return typed


def test_filters_agree_only_when_true_on_the_same_values() -> None:
    solver = ProofSolver(solver_rlimit=1_000_000, max_checks=4)
    assert same_filter(*_filters("NOT t.a IN (1, 2)", "t.a <> 1 AND t.a <> 2"), solver)
    # UNKNOWN and FALSE both drop a row: NOT (a = 1) keeps what a <> 1 keeps.
    assert same_filter(*_filters("NOT t.a = 1", "t.a <> 1"), solver)
    # A NULL a passes one and not the other.
    assert not same_filter(*_filters("t.a <> 1 OR t.a IS NULL", "t.a <> 1"), solver)
    # EXISTS written alike is one atom; written apart, two.
    exists = "EXISTS (SELECT 1 FROM u AS u WHERE u.a = t.a)"
    assert same_filter(*_filters(f"{exists} AND t.b > 1", f"t.b >= 2 AND {exists}"), solver)
    other = exists.replace("u.a = t.a", "u.c = t.a")
    assert not same_filter(*_filters(f"{exists} AND t.b > 1", f"t.b >= 2 AND {other}"), solver)
    # A condition that may raise on some row (a CAST out of range) is not a plain filter.
    cast = "CAST(t.a AS TINYINT) > 1"
    assert not same_filter(*_filters(cast, f"{cast} AND TRUE"), solver)
