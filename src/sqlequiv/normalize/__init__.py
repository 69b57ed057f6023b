"""Normalization: rewrite a qualified query into a canonical form.

Two queries whose canonical forms render to the same SQL are *proved*
equivalent (verdict ``equivalent``, method ``normalized``), so every rule in
:data:`RULES` must preserve the query's result exactly, under bag semantics
and SQL's three-valued logic, on every database. The only liberty taken is
the one the result comparison grants: output column names never matter and,
with ``ignore_column_order``, neither does the order of the top-level
columns. Each rule is a module of its own whose docstring says why it is
sound; when a rule is unsure it leaves the tree alone, and the pair simply
goes on to the later stages. "Every database" means every database that
satisfies the schema's declared constraints: only ``drop_key_distinct``,
``drop_key_count_distinct``, ``intersect_same_table``, ``except_keyed_rows``,
``key_join_to_exists``, ``merge_ranked_tables``, ``top_rows_limit``,
``single_row_groups``, ``left_join_semijoin``, ``lift_grouped_join`` (a kept table)
and ``lift_left_join`` rely on them (on primary and unique keys),
``not_in_to_not_exists``, ``two_valued_in`` and ``count_distinct_rows`` (on NOT
NULL), ``distinct_key_semijoin`` (on NOT NULL keys) and ``foreign_key_joins`` (on
foreign keys).

The rules run in order, in three phases. Structural rules first (inline
CTEs, flatten inner joins, merge derived tables, expand BETWEEN, push NOT,
...); then the naming rules (source order, canonical aliases); then the rules
that choose an order by comparing SQL text, which only make sense once
aliases are canonical. The text phase is repeated until the rendering stops
changing (at most three rounds in all), because sorting one clause can change
the text another clause is sorted by. A last rule, ``ensure_parens``, makes
sure the rendering is unambiguous, so that equal text means equal trees.

sqlglot's own optimizer rules are not used. ``merge_subqueries`` merges a
derived table on the NULL-supplying side of an outer join even when it
projects a constant (``SELECT 1 AS one`` turns an unmatched NULL into 1);
``simplify`` bundles dozens of rewrites, among them constant folding that
changes result types (``DATE + INTERVAL`` is a TIMESTAMP in DuckDB), which
would each need the three-valued, type-exact argument given here;
``unnest_subqueries`` decorrelates with known subtleties; ``normalize`` (CNF)
can blow up. The rewrites here are narrower and each is argued in its module.

Normalization costs more than linear time in the size of a query, so a query
past a size budget (:class:`Limits`: nodes, nesting, table references, sources
of one FROM clause) is declined with :class:`TooLarge` before any rule runs;
a declined query is simply not proved here (see :mod:`._budget`).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

from sqlglot import exp

from sqlequiv.identity_cache import IdentityCache
from sqlequiv.normalize._budget import (
    DEFAULT_LIMITS,
    SYMBOLIC_LIMITS,
    Limits,
    Size,
    TooLarge,
    check_size,
    measure,
)
from sqlequiv.normalize.ascending import ascending
from sqlequiv.normalize.canonical_aliases import canonical_aliases
from sqlequiv.normalize.case_into_left_join import case_into_left_join
from sqlequiv.normalize.collapse_identity_selects import collapse_identity_selects
from sqlequiv.normalize.constant_aggregates import constant_aggregates
from sqlequiv.normalize.constant_case_branches import constant_case_branches
from sqlequiv.normalize.constant_order_keys import constant_order_keys
from sqlequiv.normalize.count_distinct_rows import count_distinct_rows
from sqlequiv.normalize.count_never_null import count_never_null
from sqlequiv.normalize.count_star import count_star
from sqlequiv.normalize.counted_exists import counted_exists
from sqlequiv.normalize.counted_intersect import counted_intersect
from sqlequiv.normalize.distinct_group_by import distinct_group_by
from sqlequiv.normalize.distinct_join_to_exists import distinct_join_to_exists
from sqlequiv.normalize.distinct_key_aggregates import distinct_key_aggregates
from sqlequiv.normalize.distinct_key_semijoin import distinct_key_semijoin
from sqlequiv.normalize.drop_key_count_distinct import drop_key_count_distinct
from sqlequiv.normalize.drop_key_distinct import drop_key_distinct
from sqlequiv.normalize.empty_relations import (
    aggregates_over_nothing,
    constant_exists,
    empty_outer_sides,
    empty_results,
    empty_set_operations,
)
from sqlequiv.normalize.ensure_parens import ensure_parens
from sqlequiv.normalize.except_keyed_rows import except_keyed_rows
from sqlequiv.normalize.exists_select_one import exists_select_one
from sqlequiv.normalize.expand_between import expand_between
from sqlequiv.normalize.extremum_having import extremum_having
from sqlequiv.normalize.filter_to_case import filter_to_case
from sqlequiv.normalize.flatten_exists import flatten_exists
from sqlequiv.normalize.flatten_inner_joins import (
    flatten_inner_joins,
    unnest_from_join_trees,
    unnest_inner_join_trees,
)
from sqlequiv.normalize.fold_integer_literals import fold_integer_literals, fold_string_literals
from sqlequiv.normalize.foreign_key_joins import foreign_key_joins
from sqlequiv.normalize.having_to_where import having_to_where
from sqlequiv.normalize.in_to_exists import in_to_exists
from sqlequiv.normalize.inline_ctes import inline_ctes
from sqlequiv.normalize.intersect_same_table import intersect_same_table
from sqlequiv.normalize.key_join_to_exists import key_join_to_exists
from sqlequiv.normalize.key_lookups import key_lookups
from sqlequiv.normalize.left_join_limits import left_join_limits
from sqlequiv.normalize.left_join_semijoin import left_join_semijoin
from sqlequiv.normalize.left_join_to_scalar import (
    left_join_to_scalar,
    left_join_to_scalar_over_joins,
)
from sqlequiv.normalize.lift_grouped_join import lift_grouped_join
from sqlequiv.normalize.lift_left_join import lift_left_join
from sqlequiv.normalize.merge_aggregates import merge_aggregates
from sqlequiv.normalize.merge_derived_tables import merge_derived_tables
from sqlequiv.normalize.merge_ranked_tables import merge_ranked_tables
from sqlequiv.normalize.normalize_in import normalize_in
from sqlequiv.normalize.not_in_to_not_exists import not_in_to_not_exists
from sqlequiv.normalize.null_tests_under_aggregates import null_tests_under_aggregates
from sqlequiv.normalize.one_row_sources import one_row_sources
from sqlequiv.normalize.order_sources import order_sources
from sqlequiv.normalize.orient_comparisons import orient_comparisons
from sqlequiv.normalize.parent_key_semijoins import parent_key_semijoins
from sqlequiv.normalize.prune_derived_columns import prune_derived_columns
from sqlequiv.normalize.push_not import push_not
from sqlequiv.normalize.quantified_comparisons import quantified_comparisons
from sqlequiv.normalize.resolve_order_ordinals import resolve_order_ordinals
from sqlequiv.normalize.scalar_derived_tables import constant_rows, scalar_derived_tables
from sqlequiv.normalize.searched_case import searched_case
from sqlequiv.normalize.semi_join_sides import semi_join_sides
from sqlequiv.normalize.set_consumed_sources import set_consumed_sources
from sqlequiv.normalize.single_row_groups import single_row_groups
from sqlequiv.normalize.single_value_subqueries import single_value_subqueries
from sqlequiv.normalize.sort_connectives import sort_connectives
from sqlequiv.normalize.sort_derived_columns import sort_derived_columns
from sqlequiv.normalize.sort_group_by import sort_group_by
from sqlequiv.normalize.sort_projections import sort_projections
from sqlequiv.normalize.sort_set_operations import sort_set_operations
from sqlequiv.normalize.spelled_out_in import spelled_out_in, spelled_out_not_in
from sqlequiv.normalize.strip_parens import strip_parens, strip_set_operand_parens
from sqlequiv.normalize.sum_of_indicators import sum_of_indicators
from sqlequiv.normalize.top_rows_limit import top_rows_limit
from sqlequiv.normalize.two_valued_in import two_valued_in
from sqlequiv.normalize.union_branch_limits import union_branch_limits
from sqlequiv.normalize.unquote_identifiers import unquote_identifiers
from sqlequiv.normalize.unshadow_aliases import unshadow_aliases
from sqlequiv.normalize.window_synonyms import window_synonyms
from sqlequiv.schema.model import Schema

__all__ = [
    "DEFAULT_LIMITS",
    "REWRITE_VARIANTS",
    "RULES",
    "SYMBOLIC_LIMITS",
    "Limits",
    "Size",
    "TooLarge",
    "canonical_form",
    "canonical_sql",
    "check_size",
    "measure",
]

Rule = Callable[..., exp.Expr]

#: The normalization rules, in the order they run.
RULES: tuple[Rule, ...] = (
    # Structural phase: change the shape of the query.
    unquote_identifiers,
    semi_join_sides,
    ascending,
    fold_integer_literals,
    fold_string_literals,
    constant_case_branches,
    window_synonyms,
    inline_ctes,
    unshadow_aliases,  # after the CTEs' copies, before the rules that move conditions
    constant_rows,
    counted_exists,
    counted_intersect,
    left_join_to_scalar,  # these two before the joins they leave are flattened and merged
    left_join_semijoin,
    unnest_inner_join_trees,
    unnest_from_join_trees,
    one_row_sources,
    flatten_inner_joins,
    count_never_null,
    constant_exists,
    lift_grouped_join,
    lift_left_join,
    merge_aggregates,
    set_consumed_sources,
    empty_outer_sides,
    merge_derived_tables,
    merge_ranked_tables,
    top_rows_limit,
    left_join_limits,  # after the derived tables a LEFT JOIN pads are merged
    count_distinct_rows,
    scalar_derived_tables,
    single_value_subqueries,
    key_lookups,  # after the subqueries the two above leave
    distinct_key_aggregates,
    spelled_out_in,
    spelled_out_not_in,
    prune_derived_columns,
    collapse_identity_selects,
    constant_aggregates,
    prune_derived_columns,  # again: a column read only by an aggregate of NULL is unread now
    having_to_where,
    extremum_having,  # after the HAVING conjuncts on keys have moved to the WHERE
    intersect_same_table,
    except_keyed_rows,
    drop_key_distinct,
    drop_key_count_distinct,
    distinct_join_to_exists,  # before single_row_groups drops a GROUP BY by a key
    single_row_groups,
    quantified_comparisons,
    key_join_to_exists,
    not_in_to_not_exists,
    in_to_exists,
    two_valued_in,
    foreign_key_joins,
    parent_key_semijoins,  # after the joins foreign_key_joins drops and the EXISTS above
    null_tests_under_aggregates,  # after the NULL tests foreign_key_joins writes
    distinct_key_semijoin,
    left_join_semijoin,  # again: key_join_to_exists may have left a derived table one table
    left_join_to_scalar_over_joins,  # (likewise; over a join once its EXISTS are made)
    spelled_out_not_in,  # again, with the match tests that left_join_semijoin has just read
    not_in_to_not_exists,
    flatten_exists,
    strip_parens,
    expand_between,
    searched_case,
    normalize_in,
    push_not,
    sum_of_indicators,
    count_star,
    filter_to_case,
    case_into_left_join,
    exists_select_one,
    constant_order_keys,
    resolve_order_ordinals,
    union_branch_limits,
    strip_set_operand_parens,  # after the branch limits that union_branch_limits drops
    aggregates_over_nothing,
    empty_results,
    # Naming phase: the order of sources, then the names derived from it.
    order_sources,
    canonical_aliases,
    empty_set_operations,  # after the names: operands written alike read alike
    aggregates_over_nothing,
    empty_results,
    # Text phase: sort whatever is a set, by canonical text.
    orient_comparisons,
    normalize_in,
    sort_connectives,
    strip_parens,
    sort_group_by,
    distinct_group_by,
    sort_set_operations,
    sort_derived_columns,
    sort_projections,
    # Safety net: the rendering must be unambiguous.
    ensure_parens,
)

#: The values of ``canonical_form(extended=...)`` a proof tries, in order: the form that
#: keeps the query's joins and WITH first (the prover pairs those best), then the one
#: the extended rewrites make.
REWRITE_VARIANTS = (False, True)

#: The rules that only run in the extended form (see :func:`canonical_form`).
_EXTENDED_ONLY = (
    foreign_key_joins,
    parent_key_semijoins,
    key_lookups,
    distinct_key_aggregates,
    prune_derived_columns,
    single_row_groups,
    merge_aggregates,
    lift_grouped_join,
    lift_left_join,
    left_join_semijoin,
    left_join_to_scalar,
    left_join_to_scalar_over_joins,
    distinct_join_to_exists,
    two_valued_in,
)

#: The text phase, re-run until the rendering is stable.
_TEXT_RULES = RULES[RULES.index(orient_comparisons) :]

_MAX_ROUNDS = 3


def canonical_form(
    qualified: exp.Expression,
    schema: Schema,
    *,
    ignore_column_order: bool = True,
    limits: Limits = DEFAULT_LIMITS,
    extended: bool = True,
) -> exp.Expression:
    """The canonical form of a qualified, type-annotated query; the input is not modified.

    Args:
        qualified: the output of :func:`sqlequiv.guard.qualify.qualify_query`.
        schema: the schema the query was qualified against.
        ignore_column_order: whether the result comparison ignores the order
            of the output columns (then the top-level columns are sorted).
        limits: the size budget; a larger query is not normalized.
        extended: whether the rewrites that reshape a query most run too:
            :mod:`.foreign_key_joins` (drops the joins a foreign key makes redundant),
            :mod:`.key_lookups` (a scalar subquery looking a column up by a key, as a
            LEFT JOIN), :mod:`.distinct_key_aggregates` (distinct keys with correlated
            per-key aggregates, as a GROUP BY),
            :mod:`.single_row_groups` (drops a GROUP BY by a key),
            :mod:`.merge_aggregates` (an aggregate of aggregates),
            :mod:`.lift_grouped_join` and :mod:`.lift_left_join` (aggregates pushed
            below a join),
            :mod:`.left_join_semijoin` (a LEFT JOIN read as a match test),
            :mod:`.left_join_to_scalar` (a LEFT JOIN to per-key aggregates),
            :mod:`.distinct_join_to_exists` (a join to distinct rows as an EXISTS),
            :mod:`.two_valued_in` (an IN anywhere as an EXISTS),
            :mod:`.prune_derived_columns` (unread columns of a derived table) and the
            copies of a CTE read in several places (:mod:`.inline_ctes`). Their form meets what
            other spellings reach, but the prover pairs some queries better as written
            (a parent table kept; a GROUP BY the other side keeps for another reason;
            a WITH read twice, not two large copies): callers try the form without them
            first, then with them (:data:`REWRITE_VARIANTS`).

    Returns:
        A new tree, semantically equivalent to ``qualified`` up to output
        column names (and column order when ``ignore_column_order``).

    Raises:
        TooLarge: ``qualified`` is past ``limits`` (nothing was done).

    Example:
        >>> import sqlglot
        >>> from sqlglot import exp
        >>> from sqlequiv.guard.qualify import qualify_query
        >>> from sqlequiv.schema.model import Column, Schema, Table
        >>> s = Schema((Table("t", (Column("a", exp.DataType.build("INT")),)),))
        >>> ast = sqlglot.parse_one("SELECT x.a AS n FROM t AS x WHERE 1 < x.a")
        >>> canonical_form(qualify_query(ast, s, "duckdb"), s).sql()
        'SELECT t0.a FROM t AS t0 WHERE t0.a > 1'
    """
    # The limits only gate (a form does not depend on them): the prover's tighter ones
    # reuse the form the ``normalized`` stage computed, after their own size check.
    key = (id(qualified), id(schema), ignore_column_order, extended)
    held = _FORMS.get(key, qualified, schema)
    if held is not None:
        check_size(qualified, limits)
        return held.copy()
    form = _canonical_form(qualified, schema, ignore_column_order, limits, extended)
    # A caller gets a copy, so the held form is never modified.
    _FORMS.put(key, form, qualified, schema)
    return form.copy()


#: The last canonical forms computed, by the identity of their tree and schema: one check
#: asks for each query's form twice (the ``normalized`` stage, then the prover), and a
#: tree is never modified once qualified (the stages copy before rewriting).
_FORMS: IdentityCache[exp.Expression] = IdentityCache(32)


def _canonical_form(
    qualified: exp.Expression,
    schema: Schema,
    ignore_column_order: bool,
    limits: Limits,
    extended: bool,
) -> exp.Expression:
    check_size(qualified, limits)
    options: dict[str, Any] = {
        "ignore_column_order": ignore_column_order, "schema": schema, "copies": extended,
    }  # fmt: skip
    tree: exp.Expr = qualified.copy()
    for rule in RULES:
        if rule in _EXTENDED_ONLY and not extended:
            continue
        tree = _apply(rule, tree, options)
    previous = tree.sql(dialect="duckdb")
    for _ in range(_MAX_ROUNDS - 1):
        for rule in _TEXT_RULES:
            tree = _apply(rule, tree, options)
        text = tree.sql(dialect="duckdb")
        if text == previous:
            break
        previous = text
    assert isinstance(tree, exp.Expression)
    return tree


def canonical_sql(
    qualified: exp.Expression,
    schema: Schema,
    *,
    ignore_column_order: bool = True,
    limits: Limits = DEFAULT_LIMITS,
    extended: bool = True,
) -> str:
    """The DuckDB SQL of :func:`canonical_form`; equal strings mean proved equivalent.

    Raises :class:`TooLarge` for a query past ``limits``, as :func:`canonical_form` does.

    Example:
        >>> import sqlglot
        >>> from sqlglot import exp
        >>> from sqlequiv.guard.qualify import qualify_query
        >>> from sqlequiv.schema.model import Column, Schema, Table
        >>> s = Schema((Table("t", (Column("a", exp.DataType.build("INT")),)),))
        >>> def canon(sql):
        ...     return canonical_sql(qualify_query(sqlglot.parse_one(sql), s, "duckdb"), s)
        >>> canon("SELECT COUNT(1) FROM t AS u") == canon("SELECT COUNT(*) FROM t")
        True
    """
    form = canonical_form(qualified, schema, ignore_column_order=ignore_column_order,
                          limits=limits, extended=extended)  # fmt: skip
    return form.sql(dialect="duckdb")


def _apply(rule: Rule, tree: exp.Expr, options: dict[str, Any]) -> exp.Expr:
    accepted = _parameters(rule)
    kwargs = {name: value for name, value in options.items() if name in accepted}
    return rule(tree, **kwargs)


@functools.cache
def _parameters(rule: Rule) -> frozenset[str]:
    """The names of ``rule``'s parameters (read once: ``inspect.signature`` is slow)."""
    return frozenset(inspect.signature(rule).parameters)
