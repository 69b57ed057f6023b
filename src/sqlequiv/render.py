"""Render a verdict for a person: the verdict, the cause, the tables, both results."""

from __future__ import annotations

from typing import Any

from sqlequiv.evidence import ProofEvidence
from sqlequiv.verdict import Counterexample, ErrorInfo, Verdict

_HEADLINES = {
    "equivalent": "EQUIVALENT",
    "not_equivalent": "NOT EQUIVALENT",
    "unknown": "UNKNOWN",
    "error": "ERROR",
}


def render(verdict: Verdict) -> str:
    """A plain-text report of ``verdict``.

    Example:
        >>> print(render(Verdict("equivalent", method="normalized")))
        verdict: EQUIVALENT (proved by normalized)
    """
    lines = []
    if verdict.verdict == "equivalent":
        lines.append(f"verdict: EQUIVALENT (proved by {verdict.method})")
    elif verdict.verdict == "not_equivalent":
        lines.append(f"verdict: NOT EQUIVALENT (found by {verdict.method})")
    elif verdict.verdict == "unknown":
        lines.append("verdict: UNKNOWN (neither proved nor refuted)")
    else:
        lines.append("verdict: ERROR")
    if verdict.error is not None:
        err = verdict.error
        what = f"{err.side} query" if err.side in ("candidate", "reference") else err.side
        lines.append(f"{what}: {err.kind}{_where(err)}: {err.message}")
    if verdict.counterexample is not None:
        lines.extend(counterexample_lines(verdict.counterexample))
    for engine, replayed in (verdict.replays or {}).items():
        if replayed.error is not None:
            outcome = f"could not run there ({replayed.error})"
        elif replayed.separates:
            outcome = "separates the queries there too"
        elif replayed.separates is None:
            outcome = "gives results whose comparison is ambiguous there"
        else:
            outcome = "does NOT separate the queries there (both results are the same)"
        lines.append(f"replayed on {engine}: the counterexample {outcome}")
    if verdict.verdict == "unknown" and verdict.evidence.to_dict():
        ev = verdict.evidence
        lines.append("")
        if ev.proof is not None:
            lines.append(proof_line(ev.proof))
        tried, seed = (ev.search.fixtures_tried, ev.search.seed) if ev.search else (0, None)
        lines.append(
            f"No difference found on {tried} generated databases "
            f"(seed {seed}, up to {verdict.options.get('max_rows')} rows per table). "
            "This is not a proof."
        )
        bounded = ev.bounded
        if bounded is not None and bounded.bound is not None:
            lines.append(
                f"Bounded verification (z3): no difference on any database with at most "
                f"{bounded.bound} rows per table."
            )
        elif bounded is not None and bounded.status != "skipped":
            reason = f": {bounded.reason}" if bounded.reason else ""
            lines.append(f"Bounded verification: {bounded.status}{reason}.")
    if verdict.timings:
        stages = ", ".join(f"{k} {v:.0f} ms" for k, v in verdict.timings.items())
        lines.append(f"timings: {stages}")
    return "\n".join(lines)


def verdict_message(verdict: Verdict) -> str:
    """A verdict in one line: what it is and the reason a reader acts on.

    Example:
        >>> verdict_message(Verdict("equivalent", method="normalized"))
        'equivalent (proved by normalized)'
    """
    if verdict.verdict == "equivalent":
        return f"equivalent (proved by {verdict.method})"
    if verdict.verdict == "not_equivalent":
        ce = verdict.counterexample
        why = f" ({ce.cause}): {ce.detail}" if ce is not None else ""
        return f"not equivalent{why}"
    if verdict.verdict == "error":
        err = verdict.error
        if err is None:
            return "error"
        return f"error: {err.side}: {err.kind}{_where(err)}: {err.message}"
    proof = verdict.evidence.proof
    reason = f"; {proof.reason}" if proof is not None and proof.reason else ""
    return f"unknown: neither proved nor refuted{reason}"


def _where(err: ErrorInfo) -> str:
    """Where in its query an error is, when the guard could say."""
    return f" at line {err.line}, column {err.col}" if err.line is not None else ""


_PROOF_LINES = {
    "unsupported": "Not proved: the prover does not handle {reason}.",
    "budget": "Not proved: a budget stopped the prover ({reason}).",
    "not_attempted": "Not proved (no proof attempted): {reason}.",
}


def proof_line(proof: ProofEvidence) -> str:
    """Why there is no proof, in one sentence.

    Example:
        >>> proof_line(ProofEvidence("unsupported", "window function"))
        'Not proved: the prover does not handle window function.'
    """
    template = _PROOF_LINES.get(proof.status, "Not proved: {reason}.")
    return template.format(reason=proof.reason.rstrip("."))


def counterexample_lines(ce: Counterexample) -> list[str]:
    """The report of a counterexample: cause, sentence, every table, both results side by side."""
    lines = ["", f"cause: {ce.cause}", ce.detail]
    if ce.realism is not None:
        lines.append(f"realism: {ce.realism} ({_REALISM[ce.realism]})")
        lines.extend(f"  - {broken}" for broken in ce.breaks)
    lines += ["", f"database ({ce.name}):"]
    for table, rows in ce.tables.items():
        columns = list(rows[0].keys()) if rows else []
        lines.append(f"  {table}: {'(empty)' if not rows else ''}".rstrip())
        if rows:
            lines.extend(
                "    " + line for line in table_lines(columns, [list(r.values()) for r in rows])
            )
    lines.append("")
    left = ["candidate result:", *table_lines(ce.candidate_columns, ce.candidate_rows)]
    right = ["reference result:", *table_lines(ce.reference_columns, ce.reference_rows)]
    width = max(len(s) for s in left) + 4
    for i in range(max(len(left), len(right))):
        a = left[i] if i < len(left) else ""
        b = right[i] if i < len(right) else ""
        lines.append(f"  {a.ljust(width)}{b}".rstrip())
    return lines


_REALISM = {
    "on_data": "the queries differ on your own data; these are rows of it",
    "realistic": "every fact your data shows holds here",
    "edge": "the declared schema allows it, but it needs what your data never shows",
}


def table_lines(columns: list[str], rows: list[list[Any]]) -> list[str]:
    """A small ASCII table.

    Example:
        >>> print("\\n".join(table_lines(["a", "b"], [[1, None]])))
        a | b
        --+-----
        1 | NULL
    """
    cells = [[_cell(v) for v in row] for row in rows]
    if not columns:
        columns = [f"col{i}" for i in range(len(cells[0]) if cells else 0)]
    if not cells:
        return [" | ".join(columns), "(no rows)"]
    widths = [max(len(c), *(len(r[i]) for r in cells)) for i, c in enumerate(columns)]
    out = [" | ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)).rstrip()]
    out.append("-+-".join("-" * w for w in widths))
    out.extend(
        " | ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip() for r in cells
    )
    return out


def _cell(value: Any) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, str):
        return value
    return str(value)
