"""A suite: items with accepted references, named fixtures and predicates.

These are plain immutable values built by :mod:`sqlequiv.suite.load`; grading
reads them and never changes them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from sqlequiv.database import Database
from sqlequiv.schema.model import Schema

ReferenceKind = Literal["query", "predicate"]
REFERENCE_KINDS: tuple[ReferenceKind, ...] = ("query", "predicate")


@dataclass(frozen=True)
class Reference:
    """One accepted answer: the rows it returns are a correct answer."""

    name: str
    sql: str


@dataclass(frozen=True)
class Fixture:
    """A small database pinning a known case (``enterprise_with_no_orders``)."""

    name: str
    database: Database
    description: str | None = None


@dataclass(frozen=True)
class Item:
    """One question of a suite.

    ``reference_kind`` says where the truth lives: ``query`` items are graded
    against ``references`` (an empty list is an anomaly, reported at grading,
    never a silent pass or fail); ``predicate`` items by ``predicate``, a
    ``module:function`` importable from ``base_dir``.
    """

    id: str
    question: str
    schema: Schema
    dialect: str
    reference_kind: ReferenceKind
    references: tuple[Reference, ...] = ()
    fixtures: tuple[Fixture, ...] = ()
    clarification: str | None = None
    predicate: str | None = None
    #: Free-form grouping fields (``difficulty``, ``tags``, ``meta``), copied into every record.
    meta: Mapping[str, Any] = field(default_factory=dict)
    #: Directory predicates are imported from (the suite file's directory).
    base_dir: Path | None = None
    #: The user's own database its counterexamples are sorted against (``data:``, the
    #: item's or the suite's): each refutation says ``on_data``, ``realistic`` or ``edge``.
    data: Path | str | None = None


@dataclass(frozen=True)
class Suite:
    """Items by id, in file order."""

    items: tuple[Item, ...]
    name: str | None = None
    path: Path | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {item.id: item for item in self.items})

    def item(self, item_id: str) -> Item:
        """The item ``item_id``; ``KeyError`` if the suite has none."""
        by_id: dict[str, Item] = self._by_id  # type: ignore[attr-defined]
        return by_id[item_id]

    def __contains__(self, item_id: object) -> bool:
        return item_id in self._by_id  # type: ignore[attr-defined]

    def __len__(self) -> int:
        return len(self.items)
