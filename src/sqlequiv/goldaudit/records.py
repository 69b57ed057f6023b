"""The audit's records: hazard kinds, which of them block, and the JSONL layout.

One JSON line per gold item (``"record": "gold"``) and one per shifted run of
predictions (``"record": "pairing"``). Every key is always written, null included.
The layout is versioned by :data:`SCHEMA_VERSION`; keys are added, never renamed.

A gold record::

    {"schema_version": 1, "record": "gold", "benchmark": "spider", "index": 3,
     "question_id": null, "db_id": "shop", "question": "...", "gold": "SELECT ...",
     "gold_source": "gold.sql:4", "alternatives": [], "hazards": [HAZARD, ...],
     "blocking": true, "seconds": 0.41, "sqlequiv_version": "..."}

A hazard::

    {"kind": "nondeterministic", "reason": "limit_ties", "severity": "blocking",
     "detail": "...", "variant": "SELECT ... (the other choice)",
     "witness": {"database": "shipped" | "generated", "tables": {...} | null,
                 "queries": ["SELECT ... (the gold made explicit)", "SELECT ..."],
                 "gold_rows": [...], "variant_rows": [...], "verified": true,
                 "seconds": null, "row_count": null,
                 "realism": "on_data" | "realistic" | "edge" | null, "breaks": [...] | null},
     "exploit": {"prediction": "SELECT ...", "correct": true,
                 "spider": {"shipped": true, "witness": false},
                 "bird": {"shipped": true, "witness": false}, "misjudged_by": ["spider"]},
     "rewrite": {"sql": "...", "verdict": "unknown", "method": null, "proved": false,
                 "under": "the schema it was checked under", "counterexample": null} | null}

A pairing record: ``{"schema_version", "record": "pairing", "kind":
"shifted_predictions", "severity", "offset", "first", "last", "length", "detail",
"items": [[pred_index, gold_index], ...]}``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

#: Version of the record layout.
SCHEMA_VERSION = 1

#: Every hazard kind, in the order the summary lists them.
HAZARD_KINDS: tuple[str, ...] = (
    "nondeterministic",
    "order_sensitive",
    "null_sensitive",
    "type_fragile",
    "slow",
    "empty",
    "alternatives_disagree",
    "gold_error",
    "shifted_predictions",
)

#: The kinds that fail a CI run by default (``--fail-on``): the gold's answer is not
#: well defined, cannot be computed, pins nothing, or the predictions are misaligned.
DEFAULT_BLOCKING: frozenset[str] = frozenset(
    {"nondeterministic", "alternatives_disagree", "empty", "slow", "gold_error",
     "shifted_predictions"}
)  # fmt: skip


@dataclass(frozen=True)
class Witness:
    """The database that shows a hazard, with what the two variants returned on it.

    ``database`` is ``shipped`` (the benchmark's own file) or ``generated`` (found by
    the search, replayed on the real database's DDL: ``tables`` holds its rows).
    """

    database: str
    tables: dict[str, list[dict[str, Any]]] | None = None
    gold_rows: list[list[Any]] | None = None
    variant_rows: list[list[Any]] | None = None
    verified: bool = True
    seconds: float | None = None
    row_count: int | None = None
    #: The two queries executed on it: the gold's variant and the other (``variant``).
    queries: list[str] | None = None
    #: How realistic the witness is against the benchmark's own database (``on_data``:
    #: the shipped database itself; ``realistic``; ``edge``: it needs what the data never
    #: shows, ``breaks`` says what, in words); None where no data was compared.
    realism: str | None = None
    breaks: list[str] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "database": self.database,
            "tables": self.tables,
            "queries": self.queries,
            "gold_rows": self.gold_rows,
            "variant_rows": self.variant_rows,
            "verified": self.verified,
            "seconds": self.seconds,
            "row_count": self.row_count,
            "realism": self.realism,
            "breaks": self.breaks,
        }


@dataclass(frozen=True)
class Hazard:
    """One hazard of one gold, with its witness."""

    kind: str
    reason: str
    detail: str
    witness: Witness
    variant: str | None = None
    exploit: dict[str, Any] | None = None
    rewrite: dict[str, Any] | None = None

    def to_dict(self, blocking: frozenset[str] = DEFAULT_BLOCKING) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "reason": self.reason,
            "severity": "blocking" if self.kind in blocking else "warning",
            "detail": self.detail,
            "variant": self.variant,
            "witness": self.witness.to_dict(),
            "exploit": self.exploit,
            "rewrite": self.rewrite,
        }


@dataclass
class GoldAudit:
    """The audit of one gold item."""

    benchmark: str
    index: int
    db_id: str
    gold: str
    gold_source: str
    question: str | None = None
    question_id: int | str | None = None
    alternatives: list[str] = field(default_factory=list)
    hazards: list[Hazard] = field(default_factory=list)
    seconds: float = 0.0

    def to_record(self, blocking: frozenset[str], version: str) -> dict[str, Any]:
        hazards = [h.to_dict(blocking) for h in self.hazards]
        return {
            "schema_version": SCHEMA_VERSION,
            "record": "gold",
            "benchmark": self.benchmark,
            "index": self.index,
            "question_id": self.question_id,
            "db_id": self.db_id,
            "question": self.question,
            "gold": self.gold,
            "gold_source": self.gold_source,
            "alternatives": list(self.alternatives),
            "hazards": hazards,
            "blocking": any(h["severity"] == "blocking" for h in hazards),
            "seconds": round(self.seconds, 3),
            "sqlequiv_version": version,
        }


def is_audit_record(record: Mapping[str, Any]) -> bool:
    """Whether a results-file line is a gold-audit record."""
    return record.get("record") in {"gold", "pairing"} and "schema_version" in record


def summarize(records: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Counts by hazard kind: hazards, golds showing it, severity; and the totals.

    Example:
        >>> s = summarize([{"record": "gold", "hazards": [
        ...     {"kind": "empty", "severity": "blocking"}]}, {"record": "gold", "hazards": []}])
        >>> s["golds"], s["flagged"], s["kinds"]["empty"]
        (2, 1, {'hazards': 1, 'golds': 1, 'severity': 'blocking'})
    """
    hazards: Counter[str] = Counter()
    golds: Counter[str] = Counter()
    tiers: Counter[str] = Counter()
    severity: dict[str, str] = {}
    total = flagged = blocking = runs = 0
    for record in records:
        if record.get("record") == "pairing":
            kind = str(record.get("kind"))
            hazards[kind] += 1
            golds[kind] += int(record.get("length") or 0)
            severity[kind] = str(record.get("severity"))
            runs += 1
            continue
        total += 1
        found = list(record.get("hazards") or [])
        flagged += bool(found)
        blocking += bool(record.get("blocking"))
        for kind in {str(h.get("kind")) for h in found}:
            golds[kind] += 1
        for h in found:
            hazards[str(h.get("kind"))] += 1
            severity[str(h.get("kind"))] = str(h.get("severity"))
            realism = (h.get("witness") or {}).get("realism")
            if realism is not None:
                tiers[str(realism)] += 1
    kinds = {
        k: {"hazards": hazards[k], "golds": golds[k], "severity": severity.get(k, "")}
        for k in HAZARD_KINDS
        if hazards[k]
    }
    return {
        "golds": total,
        "flagged": flagged,
        "blocking": blocking,
        "shifted_runs": runs,
        "kinds": kinds,
        "hazards_by_realism": {t: tiers[t] for t in ("on_data", "realistic", "edge") if tiers[t]},
    }


def render_summary(summary: Mapping[str, Any]) -> str:
    """The summary table by hazard, as printed at the end of ``sqlequiv audit-gold``;
    ``golds`` counts the golds showing a kind (the predictions, for a shifted run)."""
    lines = [f"{'hazard':<24}{'severity':<10}{'golds':>7}{'hazards':>9}"]
    kinds: Mapping[str, Any] = summary.get("kinds") or {}
    for kind in HAZARD_KINDS:
        if kind in kinds:
            row = kinds[kind]
            lines.append(f"{kind:<24}{row['severity']:<10}{row['golds']:>7}{row['hazards']:>9}")
    if len(lines) == 1:
        lines.append("(no hazard found)")
    tiers: Mapping[str, int] = summary.get("hazards_by_realism") or {}
    if tiers:
        lines.append("witnesses by realism: " + ", ".join(f"{t} {n}" for t, n in tiers.items()))
    runs = summary.get("shifted_runs") or 0
    lines.append(
        f"{summary.get('golds', 0)} golds audited, {summary.get('flagged', 0)} with a hazard "
        f"({summary.get('blocking', 0)} blocking)"
        + (f"; {runs} shifted run{'s' if runs != 1 else ''} of predictions" if runs else "")
    )
    return "\n".join(lines)


def parse_kinds(text: str) -> frozenset[str]:
    """The kinds of a ``--fail-on`` list (``all``, ``none``, or names joined by commas).

    Raises:
        ValueError: an unknown kind, named.
    """
    names = [n.strip() for n in text.split(",") if n.strip()]
    if names == ["all"]:
        return frozenset(HAZARD_KINDS)
    if names in ([], ["none"]):
        return frozenset()
    unknown = [n for n in names if n not in HAZARD_KINDS]
    if unknown:
        raise ValueError(
            f"--fail-on: unknown hazard {unknown[0]!r} (kinds: {', '.join(HAZARD_KINDS)})"
        )
    return frozenset(names)


def found_set(records: Sequence[Mapping[str, Any]]) -> set[tuple[int, str]]:
    """``(index, kind)`` of every hazard in ``records`` (pairing records by their
    prediction indexes): what a test compares with the planted set."""
    out: set[tuple[int, str]] = set()
    for record in records:
        if record.get("record") == "pairing":
            for pred_index, _ in record.get("items") or []:
                out.add((int(pred_index), str(record.get("kind"))))
        else:
            for h in record.get("hazards") or []:
                out.add((int(record["index"]), str(h["kind"])))
    return out
