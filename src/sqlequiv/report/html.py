"""One self-contained HTML page for a graded run: numbers, charts, and every failure.

The page loads nothing at view time: its style sheet and script are inline, its
charts are inline SVG written here, and a Content-Security-Policy forbids any
fetch and any script but the page's own (pinned by hash). Every text that came
from a record (SQL, values, details) is escaped here with :func:`html.escape`
or, for the failure list, travels as JSON in a ``<script type="application/json">``
block (every ``<``, ``>`` and ``&`` written as a ``\\u`` escape) from which the
script builds the DOM with ``textContent`` only.

The failure list (every record that is not a pass) is searchable: a search box
(terms are ANDed; ``field:text`` limits a term to a field such as ``cause:``,
``id:``, ``sql:``, ``model:``; ``-term`` excludes; ``"quoted phrase"``), cause
chips, and a URL fragment that pre-fills both: ``#q=grain``,
``#cause=grain,missing_rows``, ``#q=q-0142&open=all`` (``open`` expands the
listed ``item/sample`` keys, or ``all``).
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sqlequiv._version import __version__
from sqlequiv.goldaudit.records import HAZARD_KINDS, summarize
from sqlequiv.grading.record import as_record
from sqlequiv.report.assets import CSS, JS, PALETTE, STATUS_COLORS

#: Entries the page renders at once (a "show more" button adds as many again).
PAGE_SIZE = 200
#: Rows kept per counterexample table and per result set in the embedded data.
MAX_TABLE_ROWS = 200
#: Table cells the page draws per table before it says "... more rows".
MAX_CELLS = 2000

_STATUS_ORDER = {"fail": 0, "error": 1, "unknown": 2, "anomaly": 3}


@dataclass
class ReportData:
    """What a report shows; only ``title`` is required.

    ``statistics`` is the run statistics (pass rate and its interval, counts by
    cause and kind, groups); keys it lacks are filled from ``records`` where
    they can be counted (see :func:`sqlequiv.grading.summary.summarize_grades`), and
    intervals it lacks are simply not drawn. ``records`` are result records as
    written by ``sqlequiv grade``. ``audit`` and ``comparison`` add their
    sections when given. ``anomalies`` are item anomalies (``anomalies.json``'s
    ``anomalies`` list: ``{item_id, kind, severity, reference, detail}``).
    """

    title: str = "sqlequiv report"
    statistics: Mapping[str, Any] = field(default_factory=dict)
    records: Sequence[Mapping[str, Any]] = field(default_factory=list)
    audit: Mapping[str, Any] | None = None
    comparison: Mapping[str, Any] | None = None
    generated_at: str | None = None
    command: str | None = None
    #: Where the records came from (a results path), shown in the header.
    source: str | None = None
    anomalies: Sequence[Mapping[str, Any]] | None = None
    #: Gold-audit records (``sqlequiv audit-gold``): rendered as their own section.
    gold_audit: Sequence[Mapping[str, Any]] | None = None


def write_report(data: ReportData, path: str | Path) -> Path:
    """Render ``data`` and write it to ``path`` (UTF-8); returns the path."""
    out = Path(path)
    out.write_text(render_report(data), encoding="utf-8")
    return out


def render_report(data: ReportData) -> str:
    """The report as one HTML document (a string), with nothing to fetch.

    Example:
        >>> page = render_report(ReportData("demo", {"graded": 2, "passed": 1, "pass_rate": 0.5}))
        >>> page.startswith("<!DOCTYPE html>"), "50.0%" in page, "http://" in page
        (True, True, False)
    """
    stats = _statistics(data)
    entries = [e for e in (_entry(r) for r in data.records) if e is not None]
    entries.sort(key=_entry_order)
    colors, order = _colors(stats, entries)
    config = {
        "colors": colors,
        "category_order": order,
        "page_size": PAGE_SIZE,
        "max_cells": MAX_CELLS,
    }
    # A gold audit alone (no grading records) shows only its own section.
    grading = bool(data.records) or bool(data.statistics) or not data.gold_audit
    sections: list[tuple[str, str, str]] = []
    if grading:
        sections.append(("summary", "Summary", _summary_section(stats)))
        sections.append(("causes", "Failures by cause", _causes_section(stats, colors)))
    groups = stats.get("groups")
    if isinstance(groups, Mapping) and groups:
        sections.append(("groups", "Groups", _groups_section(groups)))
    if data.audit:
        sections.append(("audit", "Audit", _audit_section(data.audit, stats)))
    if data.comparison:
        sections.append(("comparison", "Comparison", _comparison_section(data.comparison)))
    if data.gold_audit:
        sections.append(("gold-audit", "Gold audit", _gold_audit_section(data.gold_audit)))
    if grading:
        sections.append(("anomalies", "Anomalies", _anomalies_section(stats, data)))
        sections.append(("failures", "Failures", _failures_section(entries, stats)))

    script = JS
    script_hash = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode()
    csp = (
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
        f"script-src 'sha256-{script_hash}'; base-uri 'none'; form-action 'none'"
    )
    nav = "".join(f'<a href="#{sid}">{_e(label)}</a>' for sid, label, _ in sections)
    body = "\n".join(body for _, _, body in sections)
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en">',
            "<head>",
            '<meta charset="utf-8">',
            f'<meta http-equiv="Content-Security-Policy" content="{_e(csp)}">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            '<meta name="referrer" content="no-referrer">',
            f'<meta name="generator" content="sqlequiv {_e(__version__)}">',
            f"<title>{_e(data.title)}</title>",
            f"<style>{CSS}</style>",
            "</head>",
            "<body>",
            _header(data, stats),
            f'<nav class="toc"><div class="wrap">{nav}</div></nav>',
            f'<main><div class="wrap">\n{body}\n</div></main>',
            f'<footer><div class="wrap">Generated by sqlequiv {_e(__version__)}'
            f"{' on ' + _e(data.generated_at) if data.generated_at else ''}. "
            "This file is self-contained: it loads nothing from the network.</div></footer>",
            f'<script type="application/json" id="sqe-config">{_json_block(config)}</script>',
            f'<script type="application/json" id="sqe-entries">{_json_block(entries)}</script>',
            f"<script>{script}</script>",
            "</body>",
            "</html>",
            "",
        ]
    )


# ---------------------------------------------------------------------------
# formatting


def _e(value: Any) -> str:
    """Escaped text for HTML content and attribute values."""
    return html.escape("" if value is None else str(value), quote=True)


def _fragment(value: Any) -> str:
    """``value`` quoted for a ``#key=value`` fragment that ``URLSearchParams`` reads back."""
    return quote(str(value), safe=":-_.")


def _num(value: Any) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        number = float(value)
        return number if math.isfinite(number) else None
    return None


def _pct(value: Any, digits: int = 1) -> str:
    number = _num(value)
    return "–" if number is None else f"{number * 100:.{digits}f}%"


def _interval(ci: Any) -> tuple[float, float] | None:
    if isinstance(ci, Sequence) and not isinstance(ci, str) and len(ci) == 2:
        lo, hi = _num(ci[0]), _num(ci[1])
        if lo is not None and hi is not None:
            return (min(lo, hi), max(lo, hi))
    return None


def _pct_ci(ci: Any) -> str:
    pair = _interval(ci)
    if pair is None:
        return "–"
    return f"{pair[0] * 100:.1f}–{pair[1] * 100:.1f}%"


def _count(value: Any) -> str:
    number = _num(value)
    if number is None:
        return "–"
    if number.is_integer():
        return f"{int(number):,}"
    return f"{number:,.1f}"


def _plain(value: Any, signed: bool = False) -> str:
    number = _num(value)
    if number is None:
        return "–"
    if number == 0:
        return "0"
    text = f"{number:+.4g}" if signed else f"{number:.4g}"
    return text


def _confidence(stats: Mapping[str, Any]) -> str:
    conf = _num(stats.get("confidence"))
    if conf is None:
        conf = 0.95
    return f"{conf * 100:g}%"


def _method(name: Any) -> str:
    text = str(name or "").strip()
    return {"wilson": "Wilson", "clopper-pearson": "Clopper–Pearson"}.get(text.lower(), text)


# ---------------------------------------------------------------------------
# data


def _statistics(data: ReportData) -> dict[str, Any]:
    """``data.statistics``, with the counts it lacks taken from the records."""
    stats = dict(data.statistics or {})
    if data.records:
        from sqlequiv.grading.summary import summarize_grades

        for key, value in summarize_grades(data.records).items():
            stats.setdefault(key, value)
    return stats


def _category(raw: Mapping[str, Any]) -> str:
    """What a non-pass record is filed under: its cause, ``error:KIND``, ``unknown``..."""
    record = as_record(raw)
    status = str(record.get("status"))
    if status == "fail":
        cause = record.get("cause")
        if cause is None:
            cause = "predicate" if record.get("method") == "predicate" else "unclassified"
        return str(cause)
    if status == "error":
        error = record.get("error") or {}
        return f"error:{error.get('kind') or 'unknown'}"
    if status == "anomaly":
        anomaly = record.get("anomaly") or {}
        return f"anomaly:{anomaly['kind']}" if anomaly.get("kind") else "anomaly"
    return status


def _jsonable(value: Any) -> Any:
    """``value`` with non-finite floats as strings and anything odd as its ``str``."""
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if value is None or isinstance(value, str | int | bool):
        return value
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return str(value)


def _rows(value: Any) -> list[Any] | None:
    if isinstance(value, list | tuple):
        return list(value[:MAX_TABLE_ROWS])
    return None


def _counterexample(ce: Any) -> dict[str, Any] | None:
    if not isinstance(ce, Mapping):
        return None
    out: dict[str, Any] = {
        "name": ce.get("name"),
        "detail": ce.get("detail"),
        "cause": ce.get("cause"),
        "realism": ce.get("realism"),
        "breaks": [str(b) for b in ce.get("breaks") or []],
    }
    tables = ce.get("tables")
    if isinstance(tables, Mapping):
        out["tables"] = {
            str(name): [r for r in (_rows(rows) or []) if isinstance(r, Mapping)]
            for name, rows in tables.items()
        }
        out["table_sizes"] = {
            str(name): len(rows) if isinstance(rows, list | tuple) else 0
            for name, rows in tables.items()
        }
    for key in ("candidate_columns", "reference_columns"):
        if isinstance(ce.get(key), list | tuple):
            out[key] = [str(c) for c in ce[key]]
    for key in ("candidate_rows", "reference_rows", "missing_rows", "extra_rows"):
        rows = _rows(ce.get(key))
        if rows is not None:
            out[key] = [list(r) if isinstance(r, list | tuple) else [r] for r in rows]
    return _jsonable(out)  # type: ignore[no-any-return]


def _entry(raw: Mapping[str, Any]) -> dict[str, Any] | None:
    record = as_record(raw)
    status = str(record.get("status"))
    if status == "pass":
        return None
    error = record.get("error") if isinstance(record.get("error"), Mapping) else None
    anomaly = record.get("anomaly") if isinstance(record.get("anomaly"), Mapping) else None
    candidate_meta = record.get("candidate_meta") or {}
    item_meta = record.get("item_meta") or {}
    meta: dict[str, Any] = {}
    if isinstance(candidate_meta, Mapping):
        meta.update({str(k): v for k, v in candidate_meta.items()})
    if isinstance(item_meta, Mapping):
        for key, value in item_meta.items():
            meta[str(key) if str(key) not in meta else f"item_{key}"] = value
    detail = record.get("detail")
    summary = detail
    if status == "error" and error:
        summary = error.get("message") or detail
    elif status == "anomaly" and anomaly:
        summary = anomaly.get("detail") or anomaly.get("message") or detail
    elif not summary:
        summary = record.get("cause") or ""
    label = None
    if isinstance(candidate_meta, Mapping):
        label = candidate_meta.get("model") or candidate_meta.get("label")
    references = []
    for ref in record.get("references") or []:
        if isinstance(ref, Mapping):
            references.append(
                {k: ref.get(k) for k in ("name", "verdict", "method", "cause", "fixture", "detail")}
            )
    entry = {
        "key": f"{record.get('item_id')}/{record.get('sample')}",
        "id": record.get("item_id"),
        "sample": record.get("sample"),
        "status": status,
        "category": _category(record),
        "method": record.get("method"),
        "proved": record.get("proved"),
        "reference_kind": record.get("reference_kind"),
        "matched_reference": record.get("matched_reference"),
        "duplicate_of": record.get("duplicate_of"),
        "detail": detail,
        "summary": summary,
        "sql": record.get("candidate_sql"),
        "label": label,
        "meta": meta,
        "error": error,
        "anomaly": anomaly,
        "predicate": record.get("predicate"),
        "ce": _counterexample(record.get("counterexample")),
        "realism": (record.get("counterexample") or {}).get("realism"),
        "references": references if len(references) > 1 else [],
    }
    return _jsonable(entry)  # type: ignore[no-any-return]


def _natural(value: Any) -> tuple[int, float, str]:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return (0, float(value), "")
    return (1, 0.0, str(value))


def _entry_order(entry: Mapping[str, Any]) -> tuple[Any, ...]:
    return (
        _STATUS_ORDER.get(str(entry.get("status")), 9),
        str(entry.get("id")),
        _natural(entry.get("sample")),
    )


def _colors(
    stats: Mapping[str, Any], entries: Sequence[Mapping[str, Any]]
) -> tuple[dict[str, str], list[str]]:
    """A colour for every failure cause (palette, in the statistics' order) and status."""
    causes: list[str] = []
    by_cause = stats.get("failures_by_cause")
    if isinstance(by_cause, Mapping):
        causes.extend(str(c) for c in by_cause)
    for entry in entries:
        if entry.get("status") == "fail" and entry["category"] not in causes:
            causes.append(str(entry["category"]))
    colors = {cause: PALETTE[i % len(PALETTE)] for i, cause in enumerate(causes)}
    for status in ("error", "unknown", "anomaly"):
        colors[status] = STATUS_COLORS[status]
    others = sorted(
        {str(e["category"]) for e in entries if e["category"] not in colors},
        key=lambda c: ({"error": 0, "unknown": 1, "anomaly": 2}.get(c.split(":")[0], 3), c),
    )
    return colors, causes + others


def _json_block(value: Any) -> str:
    """JSON safe inside a ``<script>`` element: no ``<``, ``>`` or ``&`` appear literally."""
    text = json.dumps(_jsonable(value), ensure_ascii=False, separators=(",", ":"))
    return (
        text.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


# ---------------------------------------------------------------------------
# SVG

_TRACK_PAD = 8.0


def _svg(width: float, height: float, body: str, label: str, cls: str = "") -> str:
    klass = f' class="{cls}"' if cls else ""
    return (
        f'<svg{klass} viewBox="0 0 {width:g} {height:g}" width="{width:g}" height="{height:g}" '
        f'role="img" aria-label="{_e(label)}"><title>{_e(label)}</title>{body}</svg>'
    )


def _text(
    x: float,
    y: float,
    text: str,
    *,
    anchor: str = "start",
    size: float = 12,
    fill: str = "#1f2328",
    weight: str | None = None,
) -> str:
    bold = f' font-weight="{weight}"' if weight else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:g}" text-anchor="{anchor}" '
        f'fill="{fill}"{bold}>{_e(text)}</text>'
    )


def _bar_chart(
    rows: Sequence[tuple[str, int, str, str | None]],
    total: int | None,
    label: str,
    label_chars: int = 0,
) -> str:
    """Horizontal bars, one per (label, count, colour, link), each labelled with its count."""
    if not rows:
        return ""
    width = 720.0
    longest = max(label_chars, *(len(r[0]) for r in rows))
    label_w = min(250.0, max(70.0, longest * 7.0 + 14))
    count_w = 96.0
    bar_max = width - label_w - count_w
    row_h, bar_h, top = 28.0, 18.0, 4.0
    vmax = max(*(r[1] for r in rows), 1)
    parts = [
        f'<line x1="{label_w:.1f}" y1="{top:.1f}" x2="{label_w:.1f}" '
        f'y2="{top + row_h * len(rows):.1f}" stroke="#d1d9e0"/>'
    ]
    for i, (name, count, color, href) in enumerate(rows):
        y = top + i * row_h
        mid = y + row_h / 2 + 4
        shown = name if len(name) <= 34 else name[:33] + "…"
        text = _text(label_w - 10, mid, shown, anchor="end", size=12.5)
        if href:
            text = f'<a href="{_e(href)}"><title>{_e(name)}: show these</title>{text}</a>'
        parts.append(text)
        w = bar_max * count / vmax if count > 0 else 0.0
        if 0 < w < 2:
            w = 2.0
        parts.append(
            f'<rect x="{label_w:.1f}" y="{y + (row_h - bar_h) / 2:.1f}" width="{w:.1f}" '
            f'height="{bar_h:g}" rx="3" fill="{_e(color)}">'
            f"<title>{_e(name)}: {count}</title></rect>"
        )
        share = f" ({count / total:.0%})" if total else ""
        parts.append(_text(label_w + w + 7, mid, f"{count}{share}", size=12.5, weight="600"))
    height = top * 2 + row_h * len(rows)
    return _svg(width, height, "".join(parts), label, "bars")


def _track(
    value: Any,
    ci: Any,
    *,
    color: str = "#1a7f37",
    width: float = 240,
    height: float = 22,
    label: str = "",
) -> str:
    """A 0-100% track with the interval as a band and the value as a dot."""
    inner = width - 2 * _TRACK_PAD

    def x(v: float) -> float:
        return _TRACK_PAD + inner * min(max(v, 0.0), 1.0)

    mid = height / 2
    parts = [
        f'<line x1="{x(0):.1f}" y1="{mid:.1f}" x2="{x(1):.1f}" y2="{mid:.1f}" '
        'stroke="#d8dee4" stroke-width="2" stroke-linecap="round"/>'
    ]
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        parts.append(
            f'<line x1="{x(tick):.1f}" y1="{mid - 4:.1f}" x2="{x(tick):.1f}" y2="{mid + 4:.1f}" '
            'stroke="#d8dee4"/>'
        )
    pair = _interval(ci)
    if pair is not None:
        parts.append(
            f'<rect x="{x(pair[0]):.1f}" y="{mid - 4:.1f}" '
            f'width="{max(x(pair[1]) - x(pair[0]), 1):.1f}" '
            f'height="8" rx="4" fill="{color}" fill-opacity="0.28" stroke="{color}" '
            'stroke-opacity="0.7"/>'
        )
    number = _num(value)
    if number is not None:
        parts.append(
            f'<circle cx="{x(number):.1f}" cy="{mid:.1f}" r="4.5" fill="{color}" '
            'stroke="#fff" stroke-width="1.5"/>'
        )
    text = label or f"{_pct(value)} ({_pct_ci(ci)})"
    return _svg(width, height, "".join(parts), text, "track")


def _track_axis(width: float = 240, height: float = 16) -> str:
    inner = width - 2 * _TRACK_PAD
    parts = []
    for tick, anchor in ((0.0, "start"), (0.5, "middle"), (1.0, "end")):
        xpos = _TRACK_PAD + inner * tick
        parts.append(_text(xpos, 12, f"{tick:.0%}", anchor=anchor, size=10.5, fill="#59636e"))
    return _svg(width, height, "".join(parts), "axis from 0% to 100%", "track")


def _composition(stats: Mapping[str, Any]) -> str:
    """One stacked bar over the graded pairs: proved, unrefuted, failed, unknown, error."""
    parts_spec = [
        ("proved", "proved passes", _num(stats.get("proved_passes"))),
        ("unrefuted", "unrefuted passes", _num(stats.get("unrefuted_passes"))),
        ("fail", "failed", _num(stats.get("failed"))),
        ("unknown", "unknown", _num(stats.get("unknown"))),
        ("error", "errors", _num(stats.get("errors"))),
    ]
    total = sum(n or 0 for _, _, n in parts_spec)
    if total <= 0:
        return ""
    width, height = 1000.0, 16.0
    x = 0.0
    rects = []
    legend = []
    for key, name, n in parts_spec:
        count = n or 0
        color = STATUS_COLORS[key]
        if count > 0:
            w = width * count / total
            rects.append(
                f'<rect x="{x:.2f}" y="0" width="{w:.2f}" height="{height:g}" fill="{color}">'
                f"<title>{_e(name)}: {count:g}</title></rect>"
            )
            x += w
        legend.append(
            f'<span><i style="background:{color}"></i>{_e(name)} <b>{_count(count)}</b></span>'
        )
    svg = (
        f'<svg viewBox="0 0 {width:g} {height:g}" preserveAspectRatio="none" width="100%" '
        f'height="{height:g}" role="img" aria-label="outcomes of the graded pairs" '
        f'style="border-radius:4px;overflow:hidden">{"".join(rects)}</svg>'
    )
    return f'{svg}<div class="legend">{"".join(legend)}</div>'


def _nice_ticks(lo: float, hi: float, target: int = 5) -> list[float]:
    span = hi - lo
    if span <= 0:
        return [lo]
    raw = span / target
    magnitude = 10 ** math.floor(math.log10(raw))
    step = magnitude
    for multiple in (1, 2, 2.5, 5, 10):
        step = multiple * magnitude
        if span / step <= target:
            break
    ticks = []
    tick = math.ceil(lo / step) * step
    while tick <= hi + step * 1e-9:
        ticks.append(round(tick, 12) + 0.0)
        tick += step
    return ticks


def _difference_plot(
    diff: float | None,
    ci: tuple[float, float] | None,
    *,
    rate: bool,
    labels: tuple[str, str],
    color: str,
    name: str,
) -> str:
    """The difference B - A as a dot with its interval, against a dashed zero line."""
    values = [0.0]
    if diff is not None:
        values.append(diff)
    if ci is not None:
        values.extend(ci)
    lo, hi = min(values), max(values)
    span = hi - lo
    if span <= 0:
        span = 0.1 if rate else 1.0
    lo, hi = lo - span * 0.12, hi + span * 0.12
    width, height = 860.0, 96.0
    left, right = 24.0, 24.0
    axis_y, plot_y = 62.0, 36.0

    def x(v: float) -> float:
        return left + (width - left - right) * (v - lo) / (hi - lo)

    def fmt(v: float) -> str:
        return _diff_text(v, rate, unit=False)

    parts = [
        f'<line x1="{left:.1f}" y1="{axis_y:.1f}" x2="{width - right:.1f}" y2="{axis_y:.1f}" '
        'stroke="#8c959f"/>'
    ]
    for tick in _nice_ticks(lo, hi):
        parts.append(
            f'<line x1="{x(tick):.1f}" y1="{axis_y:.1f}" x2="{x(tick):.1f}" y2="{axis_y + 4:.1f}" '
            'stroke="#8c959f"/>'
        )
        parts.append(
            _text(x(tick), axis_y + 16, fmt(tick), anchor="middle", size=10.5, fill="#59636e")
        )
    parts.append(
        f'<line x1="{x(0):.1f}" y1="8" x2="{x(0):.1f}" y2="{axis_y:.1f}" stroke="#1f2328" '
        'stroke-width="1.2" stroke-dasharray="4 3"/>'
    )
    zero_right = x(0) > width * 0.7
    parts.append(
        _text(
            x(0) - 5 if zero_right else x(0) + 5,
            16,
            "0 = no difference",
            anchor="end" if zero_right else "start",
            size=10.5,
            fill="#59636e",
        )
    )
    if ci is not None:
        x0, x1 = x(ci[0]), x(ci[1])
        parts.append(
            f'<line x1="{x0:.1f}" y1="{plot_y:.1f}" x2="{x1:.1f}" y2="{plot_y:.1f}" '
            f'stroke="{color}" stroke-width="3" stroke-linecap="round"/>'
        )
        for xc in (x0, x1):
            parts.append(
                f'<line x1="{xc:.1f}" y1="{plot_y - 7:.1f}" x2="{xc:.1f}" y2="{plot_y + 7:.1f}" '
                f'stroke="{color}" stroke-width="2"/>'
            )
    if diff is not None:
        parts.append(
            f'<circle cx="{x(diff):.1f}" cy="{plot_y:.1f}" r="6" fill="{color}" stroke="#fff" '
            'stroke-width="2"/>'
        )
        anchor = "middle"
        parts.append(
            _text(
                x(diff), plot_y - 12, _diff_text(diff, rate), anchor=anchor, size=12, weight="600"
            )
        )
    a, b = labels
    parts.append(_text(left, height - 2, f"← {a} higher", size=11, fill="#59636e"))
    parts.append(
        _text(width - right, height - 2, f"{b} higher →", anchor="end", size=11, fill="#59636e")
    )
    label = f"{name}: difference {b} - {a}"
    if diff is not None:
        label += f" {_diff_text(diff, rate)}"
    if ci is not None:
        label += f", interval {_diff_text(ci[0], rate)} to {_diff_text(ci[1], rate)}"
    return _svg(width, height, "".join(parts), label, "diff")


def _is_rate(metric: Mapping[str, Any]) -> bool:
    name = str(metric.get("name") or "").lower()
    if not any(word in name for word in ("rate", "pass", "share", "fraction", "proportion")):
        return False
    values = [_num(metric.get(k)) for k in ("mean_a", "mean_b")]
    return all(v is None or 0 <= v <= 1 for v in values)


def _diff_text(value: float, rate: bool, unit: bool = True) -> str:
    if rate:
        if value == 0:
            return "0" + (" pp" if unit else "")
        return f"{value * 100:+.1f}" + (" pp" if unit else "")
    return _plain(value, signed=True)


# ---------------------------------------------------------------------------
# sections


def _card(sid: str, title: str, body: str, small: bool = False) -> str:
    klass = "card small" if small else "card"
    return f'<section class="{klass}" id="{sid}"><h2>{_e(title)}</h2>{body}</section>'


def _header(data: ReportData, stats: Mapping[str, Any]) -> str:
    meta = []
    if data.generated_at:
        meta.append(f"generated {_e(data.generated_at)}")
    if data.source:
        meta.append(f"results <code>{_e(data.source)}</code>")
    pairs, items = stats.get("pairs"), stats.get("items")
    if pairs is not None:
        meta.append(
            f"{_count(pairs)} pairs" + (f" over {_count(items)} items" if items is not None else "")
        )
    command = (
        f'<div class="meta">command <code>{_e(data.command)}</code></div>' if data.command else ""
    )
    return (
        f'<header class="top"><div class="wrap"><h1>{_e(data.title)}</h1>'
        f'<div class="meta">{" · ".join(meta)}</div>{command}</div></header>'
    )


def _summary_section(stats: Mapping[str, Any]) -> str:
    rate = stats.get("pass_rate")
    ci = stats.get("pass_rate_ci")
    method = _method(stats.get("ci_method"))
    conf = _confidence(stats)
    graded, passed = stats.get("graded"), stats.get("passed")
    if _interval(ci) is not None:
        ci_text = (
            f'<div class="ci" id="pass-rate-ci">{_e(conf)} CI <b>{_e(_pct_ci(ci))}</b>'
            f"{' (' + _e(method) + ')' if method else ''}</div>"
        )
    else:
        ci_text = '<div class="ci note">no interval given</div>'
    main = (
        '<div class="kpi main"><div class="label">Pass rate</div>'
        f'<div class="value" id="pass-rate">{_e(_pct(rate))}</div>{ci_text}'
        f'<div class="sub">{_e(_count(passed))} of {_e(_count(graded))} graded pairs passed</div>'
        f"{_track(rate, ci, width=260)}</div>"
    )
    proved, unrefuted = stats.get("proved_passes"), stats.get("unrefuted_passes")
    passes = (
        '<div class="kpi"><div class="label">Passes</div>'
        f'<div class="value">{_e(_count(proved))} <span class="note">proved</span></div>'
        f'<div class="sub"><b>{_e(_count(unrefuted))}</b> unrefuted: no counterexample found, '
        "no proof</div></div>"
    )

    def kpi(label: str, key: str, cls: str, sub: str) -> str:
        value = stats.get(key)
        zero = " zero" if _num(value) == 0 else ""
        return (
            f'<div class="kpi"><div class="label">{_e(label)}</div>'
            f'<div class="value {cls}{zero}">{_e(_count(value))}</div>'
            f'<div class="sub">{_e(sub)}</div></div>'
        )

    anomalous_items = stats.get("anomalous_items") or []
    cards = [
        main,
        passes,
        kpi("Failed", "failed", "fail", "refuted by a verified counterexample"),
        kpi("Errors", "errors", "error", "did not parse, was not read-only, or did not run"),
        kpi("Unknown", "unknown", "unknown", "neither proved nor refuted"),
        kpi(
            "Anomalous pairs",
            "anomalous_pairs",
            "anomaly",
            f"{len(anomalous_items)} broken item{'' if len(anomalous_items) == 1 else 's'}, "
            "not counted in the pass rate",
        ),
    ]
    return _card(
        "summary",
        "Summary",
        f'<div class="kpis">{cards[0]}<div class="minor">{"".join(cards[1:])}</div></div>'
        f"<h3>Outcomes of the graded pairs</h3>{_composition(stats)}",
    )


def _causes_section(stats: Mapping[str, Any], colors: Mapping[str, str]) -> str:
    by_cause = stats.get("failures_by_cause")
    failed = _num(stats.get("failed"))
    rows: list[tuple[str, int, str, str | None]] = []
    if isinstance(by_cause, Mapping):
        for cause, n in by_cause.items():
            count = int(_num(n) or 0)
            color = colors.get(str(cause), PALETTE[0])
            rows.append((str(cause), count, color, f"#cause={_fragment(cause)}"))
    by_kind = stats.get("errors_by_kind")
    width = max((len(str(k)) for k in (*(r[0] for r in rows), *(by_kind or {}))), default=0)
    causes = (
        _bar_chart(rows, int(failed) if failed else None, "failures by cause", width)
        if rows
        else '<p class="empty">No failure.</p>'
    )
    errors = _num(stats.get("errors"))
    erows: list[tuple[str, int, str, str | None]] = []
    if isinstance(by_kind, Mapping):
        for kind, n in by_kind.items():
            link = f"#cause=error:{_fragment(kind)}"
            erows.append((str(kind), int(_num(n) or 0), STATUS_COLORS["error"], link))
    err = (
        _bar_chart(erows, int(errors) if errors else None, "errors by kind", width)
        if erows
        else '<p class="empty">No error.</p>'
    )
    note = (
        '<p class="note">Counts of failed pairs by what their counterexample shows; '
        "click a cause to list its failures.</p>"
    )
    return _card(
        "causes",
        "Failures by cause",
        f'{note}<div class="scroll">{causes}</div>{_realism_chart(stats, width)}'
        f'<h3 id="errors">Errors by kind</h3><div class="scroll">{err}</div>',
        small=True,
    )


#: The realism tiers as the report shows them: most realistic first, with a color each.
_REALISM_COLORS = {"on_data": "#b91c1c", "realistic": "#ea580c", "edge": "#a3a3a3"}


def _realism_chart(stats: Mapping[str, Any], width: int) -> str:
    """Failures by how realistic their counterexample is against the user's data (only
    where a grade compared them with data): the ones a grader acts on first."""
    tiers = stats.get("failures_by_realism")
    if not isinstance(tiers, Mapping) or not tiers:
        return ""
    rows = [
        (tier, int(_num(tiers.get(tier)) or 0), color, f"#q=realism:{tier}")
        for tier, color in _REALISM_COLORS.items()
        if tier in tiers
    ]
    failed = _num(stats.get("failed"))
    note = (
        '<p class="note">The same failures by realism against your data: <b>on_data</b>, the '
        "queries differ on it; <b>realistic</b>, on a database like it; <b>edge</b>, only on "
        "one that needs what your data never shows (its counterexample says what).</p>"
    )
    chart = _bar_chart(rows, int(failed) if failed else None, "failures by realism",
                       max(width, 9))  # fmt: skip
    return f'<h3 id="realism">Failures by realism</h3>{note}<div class="scroll">{chart}</div>'



def _groups_section(groups: Mapping[str, Any]) -> str:
    parts = [
        '<p class="note">Pass rate per group with its interval; '
        "groups with few pairs have wide intervals.</p>"
    ]
    for name, values in groups.items():
        if not isinstance(values, Mapping) or not values:
            continue
        rows = []
        for value, given in values.items():
            cell = given if isinstance(given, Mapping) else {}
            rate, ci = cell.get("pass_rate"), cell.get("pass_rate_ci")
            rows.append(
                f'<tr><td>{_e(value)}</td><td class="num">{_e(_count(cell.get("graded")))}</td>'
                f'<td class="num">{_e(_count(cell.get("passed")))}</td>'
                f'<td class="num"><b>{_e(_pct(rate))}</b></td>'
                f'<td class="num">{_e(_pct_ci(ci))}</td>'
                f'<td class="plot">{_track(rate, ci, label=f"{value}: {_pct(rate)}")}</td></tr>'
            )
        parts.append(
            f"<h3>By {_e(name)}</h3>"
            '<div class="scroll"><table class="data groups"><thead><tr>'
            f'<th>{_e(name)}</th><th class="num">graded</th><th class="num">passed</th>'
            '<th class="num">pass rate</th><th class="num">interval</th>'
            f'<th class="plot">{_track_axis()}</th></tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table></div>"
        )
    return _card("groups", "Groups", "".join(parts))


def _as_report_audit(audit: Mapping[str, Any]) -> dict[str, Any]:
    """:func:`sqlequiv.stats.audit_estimate` output in this module's shape."""
    result = dict(audit)
    result.setdefault("pass_rate", audit.get("observed_pass_rate"))
    result.setdefault("method", audit.get("ci_method"))
    largest = audit.get("largest_contributor")
    if isinstance(largest, Mapping):
        result["largest_contributor"] = largest.get("stratum")
    strata = []
    for stratum in audit.get("strata") or []:
        if not isinstance(stratum, Mapping):
            continue
        row = dict(stratum)
        for mine, theirs in (
            ("cause", "stratum"),
            ("failures", "N"),
            ("labelled", "n"),
            ("false_fails", "false"),
            ("estimated_false_fails", "estimated"),
        ):
            if mine not in row and theirs in row:
                row[mine] = row[theirs]
        strata.append(row)
    result["strata"] = strata
    return result


def _audit_section(audit: Mapping[str, Any], stats: Mapping[str, Any]) -> str:
    audit = _as_report_audit(audit)
    raw = audit.get("pass_rate", stats.get("pass_rate"))
    corrected = audit.get("corrected_pass_rate")
    method = _method(audit.get("method")) or "interval"
    largest = audit.get("largest_contributor")
    conf = _confidence(stats)
    strata = [s for s in audit.get("strata") or [] if isinstance(s, Mapping)]
    estimated_total = sum(_num(s.get("estimated_false_fails")) or 0 for s in strata)
    lead = (
        f'<div class="callout">A labelled sample of failures estimates '
        f"<b>{_e(_count(estimated_total))}</b> false fails: the pass rate corrected for them is "
        f'<b id="corrected-pass-rate">{_e(_pct(corrected))}</b> '
        f"({_e(conf)} CI {_e(_pct_ci(audit.get('ci')))}, {_e(method)}"
        + (
            f"; bootstrap {_e(_pct_ci(audit.get('bootstrap_ci')))}"
            if _interval(audit.get("bootstrap_ci"))
            else ""
        )
        + f") against a raw pass rate of <b>{_e(_pct(raw))}</b>."
        + (f" The largest contributor is <b>{_e(largest)}</b>." if largest else "")
        + "</div>"
    )
    tracks = [
        (
            "raw pass rate",
            raw,
            stats.get("pass_rate_ci")
            if "pass_rate" not in audit or audit.get("pass_rate") == stats.get("pass_rate")
            else None,
            STATUS_COLORS["fail"],
        ),
        (f"corrected ({method})", corrected, audit.get("ci"), STATUS_COLORS["pass"]),
    ]
    if _interval(audit.get("bootstrap_ci")):
        tracks.append(
            ("corrected (bootstrap)", corrected, audit.get("bootstrap_ci"), STATUS_COLORS["proved"])
        )
    track_rows = "".join(
        f'<tr><td>{_e(name)}</td><td class="num"><b>{_e(_pct(value))}</b></td>'
        f'<td class="num">{_e(_pct_ci(ci))}</td>'
        f'<td class="plot">{_track(value, ci, color=color, label=f"{name}: {_pct(value)}")}'
        "</td></tr>"
        for name, value, ci, color in tracks
    )
    estimate = (
        '<div class="scroll"><table class="data"><thead><tr><th>estimate</th>'
        '<th class="num">pass rate</th><th class="num">interval</th>'
        f'<th class="plot">{_track_axis()}</th></tr></thead>'
        f"<tbody>{track_rows}</tbody></table></div>"
    )
    srows = []
    for s in strata:
        cause = str(s.get("cause"))
        mark = " ★" if largest is not None and cause == str(largest) else ""
        srows.append(
            f"<tr><td>{_e(cause)}{_e(mark)}</td>"
            f'<td class="num">{_e(_count(s.get("failures")))}</td>'
            f'<td class="num">{_e(_count(s.get("labelled")))}</td>'
            f'<td class="num">{_e(_count(s.get("false_fails")))}</td>'
            f'<td class="num">{_e(_pct(s.get("rate")))}</td>'
            f'<td class="num">{_e(_count(_round1(s.get("estimated_false_fails"))))}</td></tr>'
        )
    totals = [
        sum(_num(s.get(k)) or 0 for s in strata) for k in ("failures", "labelled", "false_fails")
    ]
    if strata:
        srows.append(
            "<tr><th>total</th>"
            + "".join(f'<th class="num">{_e(_count(t))}</th>' for t in totals)
            + f'<th class="num">{_e(_pct(totals[2] / totals[1]) if totals[1] else "–")}</th>'
            f'<th class="num">{_e(_count(_round1(estimated_total)))}</th></tr>'
        )
    table = (
        "<h3>Strata</h3>"
        '<div class="scroll"><table class="data strata"><thead><tr><th>cause</th>'
        '<th class="num">failures</th><th class="num">labelled</th>'
        '<th class="num">false fails</th><th class="num">false-fail rate</th>'
        '<th class="num">estimated false fails</th></tr></thead>'
        f"<tbody>{''.join(srows)}</tbody></table></div>"
        + ('<p class="note">★ largest contributor to the correction.</p>' if largest else "")
    )
    return _card("audit", "Audit estimate", lead + estimate + table)


def _round1(value: Any) -> float | None:
    number = _num(value)
    return None if number is None else round(number, 1)


def _as_report_comparison(comparison: Mapping[str, Any]) -> dict[str, Any]:
    """:func:`sqlequiv.stats.compare_runs` output in this module's shape: ``labels`` a
    list, ``metrics`` a list with ``name`` and ``test``, ``winner`` "A" / "B" / None."""
    result = dict(comparison)
    labels = comparison.get("labels")
    if isinstance(labels, Mapping):
        labels = [labels.get("a", "A"), labels.get("b", "B")]
        result["labels"] = labels
    metrics = comparison.get("metrics")
    if isinstance(metrics, Mapping):
        listed = []
        for name, metric in metrics.items():
            m = dict(metric)
            m.setdefault("name", name)
            m.setdefault("test", m.get("test_method"))
            m.setdefault("difference_definition", m.get("direction"))
            listed.append(m)
        metrics = listed
    if isinstance(metrics, list) and isinstance(labels, list) and len(labels) == 2:
        for m in metrics:
            if m.get("winner") == labels[0] and labels[0] != "A":
                m["winner"] = "A"
            elif m.get("winner") == labels[1] and labels[1] != "B":
                m["winner"] = "B"
    result["metrics"] = metrics or []
    return result


def _comparison_section(comparison: Mapping[str, Any]) -> str:
    comparison = _as_report_comparison(comparison)
    labels = comparison.get("labels") or ["A", "B"]
    a = str(labels[0]) if len(labels) > 0 else "A"
    b = str(labels[1]) if len(labels) > 1 else "B"
    only_a = list(comparison.get("only_in_a") or [])
    only_b = list(comparison.get("only_in_b") or [])

    def ids(values: list[Any]) -> str:
        shown = ", ".join(str(v) for v in values[:50])
        more = f" … and {len(values) - 50} more" if len(values) > 50 else ""
        return _e(shown + more)

    head = (
        f"<p><b>{_e(a)}</b> (A) against <b>{_e(b)}</b> (B) on "
        f"<b>{_e(_count(comparison.get('paired')))}</b> paired items; differences are B − A.</p>"
    )
    if only_a or only_b:
        head += (
            f'<p class="note">Only in {_e(a)}: {len(only_a)}'
            + (f" ({ids(only_a)})" if only_a else "")
            + f"; only in {_e(b)}: {len(only_b)}"
            + (f" ({ids(only_b)})" if only_b else "")
            + ". Unpaired items are left out of the comparison.</p>"
        )
    cards = []
    for metric in comparison.get("metrics") or []:
        if not isinstance(metric, Mapping):
            continue
        rate = _is_rate(metric)
        diff = _num(metric.get("difference"))
        ci = _interval(metric.get("ci"))
        winner = metric.get("winner")
        win_name = {"A": a, "B": b}.get(str(winner), str(winner)) if winner else None
        color = "#1a7f37" if winner else "#59636e"
        if win_name:
            verdict = f'<span class="pill win">winner: {_e(win_name)}</span>'
        else:
            verdict = '<span class="pill nowin">no winner</span>'

        def mean(v: Any, rate: bool = rate) -> str:
            return _pct(v) if rate else _plain(v)

        p_value = _num(metric.get("p_value"))
        p_text = "–" if p_value is None else ("< 0.001" if p_value < 0.001 else f"{p_value:.3f}")
        ci_text = (
            f"[{_diff_text(ci[0], rate, unit=False)}, {_diff_text(ci[1], rate, unit=False)}]"
            + (" pp" if rate else "")
            if ci
            else "–"
        )
        definition = metric.get("difference_definition") or "B - A"
        cards.append(
            '<div class="metric">'
            f'<div class="head"><b>{_e(metric.get("name"))}</b>{verdict}'
            f'<span class="note">{_e(metric.get("verdict") or "")}</span></div>'
            '<div class="nums">'
            f"<span>{_e(a)} <b>{_e(mean(metric.get('mean_a')))}</b></span>"
            f"<span>{_e(b)} <b>{_e(mean(metric.get('mean_b')))}</b></span>"
            f"<span>difference ({_e(definition)}) "
            f"<b>{_e(_diff_text(diff, rate) if diff is not None else '–')}</b></span>"
            f"<span>interval <b>{_e(ci_text)}</b>"
            f"{' (' + _e(metric.get('ci_method')) + ')' if metric.get('ci_method') else ''}</span>"
            f"<span>p <b>{_e(p_text)}</b>"
            f"{' (' + _e(metric.get('test')) + ')' if metric.get('test') else ''}</span>"
            "</div>"
            + _difference_plot(
                diff, ci, rate=rate, labels=(a, b), color=color, name=str(metric.get("name"))
            )
            + "</div>"
        )
    if not cards:
        cards.append('<p class="empty">No metric compared.</p>')
    return _card("comparison", f"Comparison: {a} vs {b}", head + "".join(cards))


def _anomalies_section(stats: Mapping[str, Any], data: ReportData) -> str:
    pairs: dict[str, int] = {}
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for record in map(as_record, data.records):
        if str(record.get("status")) != "anomaly":
            continue
        item = str(record.get("item_id"))
        pairs[item] = pairs.get(item, 0) + 1
        anomaly: Mapping[str, Any] = record.get("anomaly") or {}
        kind = str(anomaly.get("kind") or "anomaly")
        found.setdefault(
            (item, kind),
            {
                "severity": anomaly.get("severity") or "blocking",
                "reference": anomaly.get("reference"),
                "detail": anomaly.get("detail") or anomaly.get("message"),
            },
        )
    for anomaly in data.anomalies or []:
        item = str(anomaly.get("item_id"))
        kind = str(anomaly.get("kind") or "anomaly")
        found.setdefault(
            (item, kind),
            {
                "severity": anomaly.get("severity"),
                "reference": anomaly.get("reference"),
                "detail": anomaly.get("detail"),
            },
        )
    for item in stats.get("anomalous_items") or []:
        if not any(key[0] == str(item) for key in found):
            found[(str(item), "anomaly")] = {"severity": "blocking"}
    head = (
        f"<p><b>{_e(_count(stats.get('anomalous_pairs') or 0))}</b> anomalous pairs in "
        f"<b>{len(stats.get('anomalous_items') or [])}</b> items: the item itself is broken, "
        "so its candidates are neither passed nor failed and are left out of the pass rate.</p>"
    )
    if not found:
        return _card("anomalies", "Anomalies", head + '<p class="empty">No item anomaly.</p>', True)
    rows = "".join(
        f'<tr><td class="mono"><a href="#q=id:{_e(_fragment(item))}">{_e(item)}</a></td>'
        f"<td>{_e(kind)}</td>"
        f"<td>{_e(info.get('severity'))}</td><td>{_e(info.get('reference'))}</td>"
        f'<td class="num">{pairs.get(item, 0)}</td><td>{_e(info.get("detail"))}</td></tr>'
        for (item, kind), info in sorted(found.items())
    )
    table = (
        '<div class="scroll"><table class="data"><thead><tr><th>item</th><th>kind</th>'
        '<th>severity</th><th>reference</th><th class="num">pairs</th><th>detail</th></tr>'
        f"</thead><tbody>{rows}</tbody></table></div>"
    )
    return _card("anomalies", "Anomalies", head + table, True)


def _gold_audit_section(records: Sequence[Mapping[str, Any]]) -> str:
    """The gold audit: the summary by hazard, then every hazard with its witness."""
    summary = summarize(records)
    kinds: Mapping[str, Any] = summary["kinds"]
    head = (
        f"<p><b>{_count(summary['golds'])}</b> golds audited, <b>{_count(summary['flagged'])}"
        f"</b> with a hazard (<b>{_count(summary['blocking'])}</b> blocking)"
        + (f", <b>{_count(summary['shifted_runs'])}</b> shifted runs of predictions"
           if summary["shifted_runs"] else "")
        + ". Each hazard was shown by a database on which it was executed.</p>"
    )  # fmt: skip
    table = "".join(
        f"<tr><td>{_e(kind)}</td><td>{_e(kinds[kind]['severity'])}</td>"
        f'<td class="num">{kinds[kind]["golds"]}</td>'
        f'<td class="num">{kinds[kind]["hazards"]}</td></tr>'
        for kind in HAZARD_KINDS
        if kind in kinds
    )
    totals = (
        '<div class="scroll"><table class="data"><thead><tr><th>hazard</th><th>severity</th>'
        '<th class="num">golds</th><th class="num">hazards</th></tr></thead>'
        f"<tbody>{table}</tbody></table></div>"
        if table
        else '<p class="empty">No hazard found.</p>'
    )
    rows = []
    for record in records:
        if record.get("record") == "pairing":
            rows.append(
                f"<tr><td>{_e(record.get('first'))}–{_e(record.get('last'))}</td>"
                f"<td>{_e(record.get('kind'))}</td><td>offset {_e(record.get('offset'))}</td>"
                f"<td>{_e(record.get('severity'))}</td><td></td>"
                f"<td>{_e(record.get('detail'))}</td><td></td></tr>"
            )
            continue
        for hazard in record.get("hazards") or []:
            witness: Mapping[str, Any] = hazard.get("witness") or {}
            shown = witness.get("database")
            if witness.get("tables"):
                shown = f"generated: {json.dumps(witness['tables'], default=str)[:400]}"
            if witness.get("variant_rows") is not None:
                shown = (
                    f"{shown}; the gold's variant returns "
                    f"{json.dumps(witness.get('gold_rows'), default=str)[:200]}, the other "
                    f"{json.dumps(witness.get('variant_rows'), default=str)[:200]}"
                )
            elif witness.get("seconds") is not None:
                shown = f"{shown} ({witness['seconds']} s)"
            if witness.get("realism"):
                breaks = "; ".join(witness.get("breaks") or [])
                shown = f"{shown}; realism: {witness['realism']}"
                shown += f" ({breaks})" if breaks else ""
            rewrite: Mapping[str, Any] = hazard.get("rewrite") or {}
            proposal = (
                f"<code>{_e(rewrite.get('sql'))}</code> ({_e(rewrite.get('verdict'))}"
                f"{', proved' if rewrite.get('proved') else ''})"
                if rewrite
                else ""
            )
            rows.append(
                f'<tr><td class="mono">{_e(record.get("index"))} {_e(record.get("db_id"))}</td>'
                f"<td>{_e(hazard.get('kind'))}</td><td>{_e(hazard.get('reason'))}</td>"
                f"<td>{_e(hazard.get('severity'))}</td>"
                f'<td class="mono">{_e(record.get("gold"))}</td>'
                f"<td>{_e(hazard.get('detail'))}<br><small>witness: {_e(shown)}</small></td>"
                f"<td>{proposal}</td></tr>"
            )
    listing = (
        '<div class="scroll"><table class="data"><thead><tr><th>gold</th><th>hazard</th>'
        "<th>reason</th><th>severity</th><th>SQL</th><th>detail and witness</th>"
        f"<th>rewrite</th></tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
        if rows
        else ""
    )
    return _card("gold-audit", "Gold audit", head + totals + listing)


def _failures_section(entries: Sequence[Mapping[str, Any]], stats: Mapping[str, Any]) -> str:
    counts: dict[str, int] = {}
    for entry in entries:
        counts[str(entry["status"])] = counts.get(str(entry["status"]), 0) + 1
    words = {"fail": "failed", "error": "error", "unknown": "unknown", "anomaly": "anomalous"}
    summary = (
        ", ".join(
            f"{n} {words.get(status, status)}{'s' if status == 'error' and n != 1 else ''}"
            for status, n in counts.items()
        )
        or "none"
    )
    return _card(
        "failures",
        "Failures",
        f'<p class="note">Every pair that did not pass ({_e(summary)}). Search any text: item id, '
        "cause, SQL, detail, model. Terms are combined; <code>cause:grain</code>, "
        "<code>id:q-0142</code>, <code>sql:limit</code> search one field, <code>-term</code> "
        "excludes. The address keeps the filter (<code>#q=…</code>) so a link shows the same "
        "list. Click an entry for its SQL and counterexample.</p>"
        '<div class="controls">'
        '<input type="search" id="search" placeholder="Search failures  (press /)" '
        'aria-label="Search failures" autocomplete="off" spellcheck="false">'
        '<span id="match-count" aria-live="polite"></span>'
        '<button type="button" id="expand-all">expand all</button>'
        '<button type="button" id="collapse-all">collapse all</button>'
        "</div>"
        '<div class="chips" id="chips" aria-label="Filter by cause"></div>'
        '<div id="entry-list"></div>'
        '<button type="button" id="show-more" class="chip" hidden></button>'
        '<noscript><p class="empty">The failure list needs JavaScript (it is inline in this '
        "file; nothing is loaded).</p></noscript>",
    )
