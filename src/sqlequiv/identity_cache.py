"""A small, thread-safe LRU map for values computed from objects named by identity.

Several stages keep what they computed from one schema or one tree (sqlglot's view of
a schema, a guarded query, a canonical form, a constraint plan), keyed by the ``id``
of those objects: hashing a schema or a tree costs as much as the work saved. An id
is reused once its object is gone, so each entry holds the objects themselves and is
found only for those very objects.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class IdentityCache(Generic[V]):
    """At most ``size`` values, the least recently used dropped first.

    Example:
        >>> cache: IdentityCache[int] = IdentityCache(2)
        >>> schema = object()
        >>> cache.put((id(schema), "duckdb"), 7, schema)
        >>> cache.get((id(schema), "duckdb"), schema)
        7
        >>> cache.get((id(schema), "duckdb"), object()) is None  # another object, same id
        True
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[Hashable, tuple[tuple[object, ...], V]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, *objects: object) -> V | None:
        """The value kept under ``key`` for exactly ``objects``, or None."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or any(a is not b for a, b in zip(entry[0], objects, strict=True)):
                return None
            self._entries.move_to_end(key)
            return entry[1]

    def put(self, key: Hashable, value: V, *objects: object) -> None:
        """Keep ``value`` under ``key``, holding ``objects`` (those ``key`` names by id)."""
        with self._lock:
            self._entries[key] = (objects, value)
            self._entries.move_to_end(key)
            if len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
