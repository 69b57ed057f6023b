"""What a query's functions mean to sqlequiv: which ones are volatile, which read the
clock. One list each, below every user (the guard, the normalizer, the prover, the
pipeline's constant decision), so that the copies cannot drift.

Example:
    >>> import sqlglot
    >>> is_volatile(sqlglot.parse_one("SELECT random() + 1"))
    True
    >>> now = sqlglot.parse_one("SELECT now()")
    >>> is_volatile(now), varies_between_runs(now)
    (False, True)
"""

from __future__ import annotations

from sqlglot import exp

#: Functions whose value may differ between two evaluations in one query: a rewrite
#: that duplicates, drops or merges such a call changes the result.
VOLATILE_FUNCTIONS: frozenset[str] = frozenset(
    {
        "random",
        "rand",
        "randn",
        "uuid",
        "gen_random_uuid",
        "uuidv4",
        "uuidv7",
        "random_uuid",
        "nextval",
        "currval",
        "setseed",
    }
)
_VOLATILE_CLASSES: tuple[type[exp.Expr], ...] = (exp.Rand, exp.Randn, exp.Uuid)

#: Functions that read the clock: one value within a statement, another at the next
#: execution, so a query using them is no constant.
CLOCK_FUNCTIONS: frozenset[str] = frozenset(
    {
        "now",
        "current_timestamp",
        "current_date",
        "current_time",
        "today",
        "get_current_time",
        "localtimestamp",
        "localtime",
        "transaction_timestamp",
    }
)
_CLOCK_CLASSES: tuple[type[exp.Expr], ...] = (exp.CurrentTimestamp, exp.CurrentDate)


def function_name(node: exp.Func) -> str:
    """The lower-case SQL name of a function call, as written for unknown functions."""
    return (node.name if isinstance(node, exp.Anonymous) else node.sql_name()).lower()


def is_volatile(node: exp.Expr) -> bool:
    """Whether ``node`` contains a function that may return a new value on each call."""
    for sub in node.walk():
        if isinstance(sub, _VOLATILE_CLASSES):
            return True
        if isinstance(sub, exp.Func) and sub.sql_name().lower() in VOLATILE_FUNCTIONS:
            return True
        if isinstance(sub, exp.Anonymous) and sub.name.lower() in VOLATILE_FUNCTIONS:
            return True
    return False


def varies_between_runs(node: exp.Expr) -> bool:
    """Whether two executions of ``node`` on one database may give different results: a
    volatile function, the clock, or SQLite's ``'now'`` (``date('now')``)."""
    if is_volatile(node):
        return True
    for sub in node.find_all(exp.Func):
        if isinstance(sub, _CLOCK_CLASSES) or function_name(sub) in CLOCK_FUNCTIONS:
            return True
    # SQLite's date functions read the clock when given 'now': date('now'), julianday('now').
    return any(
        lit.is_string and lit.name.strip().lower() == "now" for lit in node.find_all(exp.Literal)
    )
