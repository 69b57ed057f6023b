"""Predicates of the example suite (``suite.yaml``): items whose answer is a property.

A predicate receives the candidate's result and the database it ran on and says
whether the result is a correct answer on that database.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

Row = Mapping[str, Any]


def any_three_enterprise_customers(
    rows: Sequence[Row], tables: Mapping[str, Sequence[Row]]
) -> bool:
    """q-0155: "List any three enterprise customers."

    Holds when the result has a ``customer_id`` column, exactly
    ``min(3, number of enterprise customers)`` rows, no customer twice, and every
    row's customer is on the enterprise plan in ``tables``. Which three, the
    other columns and the row order are free.

    Example:
        >>> tables = {"customers": [
        ...     {"customer_id": 1, "name": "Ann", "plan": "enterprise"},
        ...     {"customer_id": 2, "name": "Bo", "plan": "pro"}]}
        >>> any_three_enterprise_customers([{"customer_id": 1}], tables)
        True
        >>> any_three_enterprise_customers([{"customer_id": 2}], tables)
        False
    """
    enterprise = {
        c["customer_id"] for c in tables.get("customers", ()) if c["plan"] == "enterprise"
    }
    if any("customer_id" not in row for row in rows):
        return False
    ids = [row["customer_id"] for row in rows]
    return (
        len(ids) == min(3, len(enterprise))
        and len(set(ids)) == len(ids)
        and all(customer_id in enterprise for customer_id in ids)
    )
