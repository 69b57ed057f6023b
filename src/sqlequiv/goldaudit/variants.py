"""Variants of a gold query: pairs of queries whose results differ exactly where the gold
is fragile.

Every hazard of the audit is a pair ``(a, b)`` of queries, both derived from the gold,
that should return the same rows if the gold were robust: the two tie-breaks of its
ORDER BY, the two choices of a bare column, the clock read at two times, NULLs sorted at
either end, a text column compared as text or as a number. A database on which ``a`` and
``b`` differ is the hazard's witness. The functions here only write SQL (sqlglot); the
search for the witness and its verification are in :mod:`sqlequiv.goldaudit.hazards`.

Text patterns nominate: a function returns None when the gold has nothing of the kind,
and a pair otherwise, which proves nothing until a database separates it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlglot import exp

from sqlequiv.policy.volatile import CLOCK_FUNCTIONS, VOLATILE_FUNCTIONS, function_name
from sqlequiv.search.ties import has_limit, tie_broken

#: Two instants far apart, in SQLite's text forms, for the clock read at two times.
CLOCK_TIMES = ("2000-01-01 00:00:00", "2031-07-15 12:30:00")

#: Words of a question that ask for an order of the answer's rows.
_ORDER_WORDS = re.compile(
    r"\b(in (?:\w+ )?order|ordered|sorted|sort|rank(?:ed)?|ascending|descending|"
    r"alphabetical(?:ly)?|from (?:the )?(?:highest|lowest|largest|smallest|oldest|youngest|"
    r"most|least)|list .{0,60}\bby\b|top\b)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Pair:
    """Two queries derived from a gold that differ exactly where the gold is fragile.

    ``a`` is the gold made explicit (its own tie-break, its own NULL placement...), ``b``
    the other choice; ``exploit`` (``b`` unless given) is the *exploiting prediction*:
    one an evaluator should pass (``exploit_is_correct``) or fail, and may misjudge.
    """

    reason: str
    a: str
    b: str
    #: Whether ``exploit`` is a right answer (an evaluator that fails it fails wrongly)
    #: or a wrong one (an evaluator that passes it passes wrongly).
    exploit_is_correct: bool
    why: str
    #: The prediction that exploits the hazard; ``b`` when empty.
    exploit: str = ""
    #: A deterministic rewrite of the gold, when there is one to propose.
    rewrite: str = ""

    @property
    def prediction(self) -> str:
        """The exploiting prediction."""
        return self.exploit or self.b


def asks_for_order(question: str | None) -> bool | None:
    """Whether a natural-language question asks for the rows in an order (None: no question).

    Example:
        >>> asks_for_order("List the names sorted by age."), asks_for_order("How many?")
        (True, False)
        >>> asks_for_order(None) is None
        True
    """
    if question is None or not question.strip():
        return None
    return _ORDER_WORDS.search(question) is not None


def has_top_order(tree: exp.Expr) -> bool:
    """Whether the query's outermost level has an ORDER BY."""
    return isinstance(tree, exp.Query) and tree.args.get("order") is not None


def tie_pair(tree: exp.Expr, width: int, dialect: str) -> Pair | None:
    """The two tie-breaks of a gold whose ORDER BY may leave ties that change its answer.

    A LIMIT/OFFSET cuts through ties (or, without ORDER BY, takes any rows); an ORDER BY
    without LIMIT leaves tied rows in any order, which an evaluator that compares lists
    (Spider's, when the gold says ``order by``) sees.
    """
    if not isinstance(tree, exp.Query) or width < 1:
        return None
    limited, ordered = has_limit(tree), has_top_order(tree)
    if not limited and not ordered:
        return None
    if limited:
        reason = "limit_ties" if ordered else "limit_without_order"
        why = (
            "the LIMIT cuts through rows tied on the ORDER BY: which of them come back is "
            "the engine's choice"
            if ordered
            else "LIMIT/OFFSET without ORDER BY: which rows come back is the engine's choice"
        )
    else:
        reason = "order_ties"
        why = "rows tied on the ORDER BY keys may come in either order"
    return Pair(
        reason,
        tie_broken(tree, width, descending=False, dialect=dialect, first_only=not limited),
        tie_broken(tree, width, descending=True, dialect=dialect, first_only=not limited),
        True,
        why,
        tie_broken(tree, width, descending=True, dialect=dialect),
        tie_broken(tree, width, descending=False, dialect=dialect),
    )


def _is_volatile_call(node: exp.Expr) -> bool:
    return isinstance(node, exp.Rand | exp.Randn) or (
        isinstance(node, exp.Anonymous) and function_name(node) in VOLATILE_FUNCTIONS
    )


def _is_clock(node: exp.Expr) -> bool:
    if isinstance(node, exp.CurrentTimestamp | exp.CurrentDate | exp.CurrentTime):
        return True
    if _is_now(node):
        return True
    return isinstance(node, exp.Func) and function_name(node) in CLOCK_FUNCTIONS


#: SQLite's date and time functions, as sqlglot names them once parsed: given the
#: string 'now', they read the clock.
_DATE_FUNCTIONS = frozenset(
    {"date", "time", "datetime", "julianday", "strftime", "unixepoch", "timediff",
     "ts_or_ds_to_timestamp", "ts_or_ds_to_date", "time_to_str", "str_to_time"}
)  # fmt: skip


def _is_now(node: exp.Expr) -> bool:
    """Whether ``node`` is the string 'now' given to a date or time function."""
    if not (isinstance(node, exp.Literal) and node.is_string and node.name.lower() == "now"):
        return False
    func = node.find_ancestor(exp.Func)
    return func is not None and function_name(func) in _DATE_FUNCTIONS


def volatile_pair(tree: exp.Expr, width: int, dialect: str) -> Pair | None:
    """The gold with ``random()`` as two different constants, or the clock read at two
    times far apart (:data:`CLOCK_TIMES`), each with a tie-break of its own.

    An ``ORDER BY random()`` term is dropped (every row tied), so the two tie-breaks
    show the rows a random order may return.
    """
    clock = any(_is_clock(n) for n in tree.walk())
    rand = any(_is_volatile_call(n) for n in tree.walk())
    if not (clock or rand):
        return None

    def pinned(which: int) -> exp.Expr:
        variant = tree.copy()
        order = variant.args.get("order")
        if order is not None:
            kept = [o for o in order.expressions if not _is_volatile_call(o.this)]
            if kept:
                order.set("expressions", kept)
            else:
                variant.set("order", None)
        stamp = CLOCK_TIMES[which]

        def swap(node: exp.Expr) -> exp.Expr:
            if _is_volatile_call(node):
                return exp.Literal.number(which)
            if isinstance(node, exp.CurrentDate):
                return exp.Literal.string(stamp[:10])
            if isinstance(node, exp.CurrentTime):
                return exp.Literal.string(stamp[11:])
            if isinstance(node, exp.CurrentTimestamp):
                return exp.Literal.string(stamp)
            if _is_now(node):
                return exp.Literal.string(stamp)
            return node

        return variant.transform(swap)

    a, b = pinned(0), pinned(1)
    reason = "random" if rand else "clock"
    why = (
        "random() makes the answer change from one run to the next"
        if rand
        else "the answer depends on the date the query runs (the clock is read)"
    )
    if rand or has_limit(tree) or has_top_order(tree):
        # A random order is any order: its two tie-breaks are its two ends. With the clock,
        # one tie-break for both, so that only the clock differs between them.
        return Pair(
            reason,
            tie_broken(a, width, descending=False, dialect=dialect),
            tie_broken(b, width, descending=rand, dialect=dialect),
            True,
            why,
        )
    return Pair(reason, a.sql(dialect=dialect), b.sql(dialect=dialect), True, why)


def bare_column_pair(tree: exp.Expr, dialect: str) -> Pair | None:
    """A SQLite aggregate query's bare columns (neither grouped nor aggregated) as MIN and
    as MAX: the two ends of the rows SQLite may take their value from.

    A query whose only aggregate is one MIN or MAX is left out: SQLite then takes the
    bare columns from the row holding that extremum (per group), which is defined unless
    the extremum ties (not nominated here).
    """
    if not isinstance(tree, exp.Select):
        return None
    aggregates = [a for e in tree.expressions for a in e.find_all(exp.AggFunc)]
    group = tree.args.get("group")
    if not aggregates and group is None:
        return None
    if len(aggregates) == 1 and isinstance(aggregates[0], exp.Max | exp.Min):
        return None
    grouped = {g.sql().lower() for g in (group.expressions if group is not None else [])}
    bare: list[int] = []
    for i, projection in enumerate(tree.expressions):
        inner = projection.unalias()
        if inner.find(exp.AggFunc) or isinstance(inner, exp.Literal | exp.Star):
            continue
        if inner.sql().lower() in grouped or projection.alias_or_name.lower() in grouped:
            continue
        columns = list(inner.find_all(exp.Column))
        if columns and all(c.sql().lower() not in grouped for c in columns):
            bare.append(i)
    if not bare:
        return None

    def wrapped(function: type[exp.Min] | type[exp.Max]) -> str:
        variant = tree.copy()
        for i in bare:
            projection = variant.expressions[i]
            inner = projection.unalias()
            new = function(this=inner.copy())
            if isinstance(projection, exp.Alias):
                projection.set("this", new)
            else:
                variant.expressions[i].replace(new.as_(projection.alias_or_name))
        return variant.sql(dialect=dialect)

    return Pair(
        "bare_column",
        wrapped(exp.Min),
        wrapped(exp.Max),
        True,
        "a column neither grouped nor aggregated: SQLite takes its value from any row of the group",
        rewrite=wrapped(exp.Min),
    )


def nulls_pair(tree: exp.Expr, width: int, dialect: str) -> Pair | None:
    """The gold with its NULLs sorted at the other end (SQLite puts them first ascending,
    last descending), both tie-broken alike: differs when a NULL key moves across a LIMIT."""
    order = tree.args.get("order")
    if order is None or not has_limit(tree):
        return None
    flipped = tree.copy()
    for ordered in flipped.args["order"].expressions:
        default_first = not ordered.args.get("desc")
        ordered.set("nulls_first", not default_first)
    explicit = tree.copy()
    for ordered in explicit.args["order"].expressions:
        ordered.set("nulls_first", not ordered.args.get("desc"))
    return Pair(
        "nulls_first_limit",
        tie_broken(explicit, width, descending=False, dialect=dialect),
        tie_broken(flipped, width, descending=False, dialect=dialect),
        True,
        "NULL sort keys come first ascending in SQLite (last in PostgreSQL and in most "
        "readings of the question): which rows the LIMIT keeps depends on it",
    )


def not_in_pair(tree: exp.Expr, dialect: str) -> Pair | None:
    """Each ``x NOT IN (SELECT c ...)`` as written and with ``c IS NOT NULL`` added to the
    subquery: they differ exactly when a NULL in the subquery empties the answer."""
    targets = [
        n
        for n in tree.find_all(exp.Not)
        if isinstance(n.this, exp.In) and n.this.args.get("query") is not None
    ]
    if not targets:
        return None
    variant = tree.copy()
    changed = False
    for node in variant.find_all(exp.Not):
        inside = node.this
        if not (isinstance(inside, exp.In) and inside.args.get("query") is not None):
            continue
        query = inside.args["query"]
        sub = query.this if isinstance(query, exp.Subquery) else query
        if not isinstance(sub, exp.Select) or len(sub.expressions) != 1:
            continue
        selected = sub.expressions[0].unalias().copy()
        sub.where(exp.Not(this=exp.Is(this=selected, expression=exp.Null())), copy=False)
        changed = True
    if not changed:
        return None
    return Pair(
        "not_in_nullable",
        tree.sql(dialect=dialect),
        variant.sql(dialect=dialect),
        True,
        "NOT IN over a column that may hold NULL: one NULL in the subquery makes every "
        "NOT IN unknown, and the answer empty",
    )


def text_number_pair(
    tree: exp.Expr, text_columns: set[tuple[str, str]], dialect: str
) -> Pair | None:
    """The gold with each numeric-text column (``(table, column)`` in ``text_columns``)
    that it sorts, compares or takes MIN/MAX of read as a number (``CAST(... AS REAL)``).

    Column references must be qualified (``table.column``) or unambiguous: a bare name
    is matched against the tables of the query's FROM clause.
    """
    tables = {t.alias_or_name.lower(): t.name.lower() for t in tree.find_all(exp.Table)}

    def numeric_text(column: exp.Column) -> bool:
        name = column.name.lower()
        if column.table:
            return (tables.get(column.table.lower(), column.table.lower()), name) in text_columns
        return any((t, name) in text_columns for t in tables.values())

    def sensitive(column: exp.Column) -> bool:
        parent = column.parent
        return isinstance(
            parent, exp.Ordered | exp.Max | exp.Min | exp.GT | exp.GTE | exp.LT | exp.LTE
            | exp.Between
        )  # fmt: skip

    variant = tree.copy()
    changed = False
    for column in list(variant.find_all(exp.Column)):
        if numeric_text(column) and sensitive(column):
            column.replace(exp.Cast(this=column.copy(), to=exp.DataType.build("REAL")))
            changed = True
    if not changed:
        return None
    return Pair(
        "text_numbers",
        tree.sql(dialect=dialect),
        variant.sql(dialect=dialect),
        True,
        "numbers stored as TEXT are sorted and compared as text ('10' < '9')",
    )


def reversed_order_pair(tree: exp.Expr, width: int, dialect: str) -> Pair | None:
    """The gold's rows in one order and in the other (its ORDER BY reversed, or one made of
    the output columns), cut to the first row: it differs when the rows can come in two
    orders. The exploiting prediction is the whole reversed query. None with a LIMIT
    (there the order picks the rows: :func:`tie_pair`)."""
    if not isinstance(tree, exp.Query) or has_limit(tree) or width < 1:
        return None
    backward = tree.copy()
    order = backward.args.get("order")
    if order is not None:
        for ordered in order.expressions:
            ordered.set("desc", not ordered.args.get("desc"))
    return Pair(
        "order",
        tie_broken(tree, width, descending=False, dialect=dialect, first_only=True),
        tie_broken(backward, width, descending=True, dialect=dialect, first_only=True),
        True,
        "the rows can come in two orders",
        tie_broken(backward, width, descending=True, dialect=dialect),
    )
