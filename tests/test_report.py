"""The HTML report: self-contained, escaped, and working once rendered in a real browser.

The browser tests render the page in headless Chromium (Debian's ``chromium``)
and read the DOM after the page's script ran. Without Chromium they skip,
unless ``SQLEQUIV_REQUIRE_CHROMIUM`` is set (CI sets it), where they fail.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
import struct
import subprocess
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from sqlequiv.grading.record import RECORD_KEYS, Record, ReferenceOutcome
from sqlequiv.report import ReportData, render_report, write_report
from sqlequiv.report.html import MAX_TABLE_ROWS, PAGE_SIZE

SCRIPT_PAYLOAD = "</script><script>alert(1)</script>"
IMG_PAYLOAD = "<img src=x onerror=alert(1)>"

# ---------------------------------------------------------------------------
# data


def _ce(
    cause: str,
    detail: str,
    *,
    tables: dict[str, list[dict[str, Any]]] | None = None,
    columns: tuple[str, ...] = ("customer_id", "n"),
    candidate: list[list[Any]] | None = None,
    reference: list[list[Any]] | None = None,
    missing: list[list[Any]] | None = None,
    extra: list[list[Any]] | None = None,
    name: str = "counterexample",
) -> dict[str, Any]:
    return {
        "name": name,
        "tables": tables
        if tables is not None
        else {"customers": [{"customer_id": 1, "name": "Ann"}, {"customer_id": 2, "name": None}]},
        "candidate_columns": list(columns),
        "candidate_rows": candidate or [],
        "reference_columns": list(columns),
        "reference_rows": reference or [],
        "missing_rows": missing or [],
        "extra_rows": extra or [],
        "cause": cause,
        "detail": detail,
    }


def _record(
    item: str,
    sample: int,
    status: str,
    *,
    cause: str | None = None,
    detail: str | None = None,
    sql: str = "SELECT customer_id, COUNT(*) AS n FROM orders GROUP BY customer_id",
    ce: dict[str, Any] | None = None,
    method: str | None = None,
    proved: bool | None = None,
    error: dict[str, Any] | None = None,
    anomaly: dict[str, Any] | None = None,
    model: str = "model-a",
    difficulty: str = "easy",
) -> dict[str, Any]:
    refs = (
        (ReferenceOutcome("ref", "not_equivalent", method, cause, detail, None, ce),)
        if status == "fail"
        else ()
    )
    record = Record(
        item_id=item,
        sample=sample,
        reference_kind="query",
        status=status,  # type: ignore[arg-type]
        proved=proved,
        method=method,
        cause=cause,
        detail=detail,
        counterexample=ce,
        references=refs,
        error=error,
        anomaly=anomaly,
        candidate_sql=sql,
        candidate_meta={"model": model},
        item_meta={"difficulty": difficulty, "tags": ["group-by"]},
    ).to_dict()
    assert tuple(record) == RECORD_KEYS
    return record


def _records() -> list[dict[str, Any]]:
    """20 records: 8 passes, 9 failures (3 of cause grain, one carrying the payloads),
    2 errors, 1 unknown; plus 2 anomalous pairs of one item."""
    grain = "The candidate returns one row per order where the reference returns one per customer."
    records = [
        _record(f"q-p{i}", 0, "pass", method="symbolic" if i < 3 else "unrefuted", proved=i < 3)
        for i in range(8)
    ]
    records += [
        _record(
            "q-g1",
            0,
            "fail",
            cause="grain",
            method="fixture",
            detail=grain,
            ce=_ce(
                "grain",
                grain,
                name="two_orders_one_customer",
                tables={
                    "customers": [{"customer_id": 7, "name": "Zed-417"}],
                    "orders": [
                        {"order_id": 1, "customer_id": 7},
                        {"order_id": 2, "customer_id": 7},
                    ],
                },
                candidate=[[7, 1], [7, 1]],
                reference=[[7, 2]],
                missing=[[7, 2]],
                extra=[[7, 1], [7, 1]],
            ),
        ),
        _record(
            "q-g2",
            1,
            "fail",
            cause="grain",
            method="fixture",
            detail=grain,
            model="model-b",
            ce=_ce("grain", grain, candidate=[[1, 1], [1, 1]], reference=[[1, 2]]),
        ),
        _record(
            "q-inj",
            0,
            "fail",
            cause="grain",
            method="fixture",
            detail="payload <b>bold</b> & " + IMG_PAYLOAD,
            sql="SELECT 1 " + SCRIPT_PAYLOAD,
            model="m<i>x</i>",
            ce=_ce(
                "grain",
                "payload",
                tables={"customers": [{"customer_id": 1, "name": IMG_PAYLOAD}]},
                candidate=[[1, IMG_PAYLOAD]],
                reference=[[1, "ok"]],
                missing=[[1, "ok"]],
                extra=[[1, IMG_PAYLOAD]],
            ),
        ),
    ]
    for i in range(3):
        records.append(
            _record(
                f"q-m{i}",
                0,
                "fail",
                cause="missing_rows",
                method="fixture",
                detail="The reference returns 1 row absent from the candidate: (customer_id=2).",
                ce=_ce(
                    "missing_rows",
                    "missing",
                    candidate=[[1, 3]],
                    reference=[[1, 3], [2, 0]],
                    missing=[[2, 0]],
                ),
            )
        )
    records += [
        _record(
            "q-e1",
            0,
            "fail",
            cause="extra_rows",
            method="symbolic",
            detail="The candidate returns 1 row absent from the reference: (customer_id=5, n=1).",
            ce=_ce("extra_rows", "extra", candidate=[[5, 1]], extra=[[5, 1]]),
        ),
        _record(
            "q-w1",
            2,
            "fail",
            cause="filter_window",
            method="fixture",
            detail="The two queries bound placed_at differently.",
            model="model-b",
            ce=_ce("filter_window", "window", candidate=[[1, 1]], reference=[[1, 2]]),
        ),
        _record(
            "q-pred",
            0,
            "fail",
            method="predicate",
            detail="the predicate is false on fixture 'base'",
            ce={"name": "base", "tables": {}, "candidate_columns": ["id"], "candidate_rows": [[1]]},
        ),
        _record(
            "q-err",
            0,
            "error",
            sql="DELETE FROM orders",
            error={
                "side": "candidate",
                "kind": "not_read_only",
                "message": "DELETE is not allowed",
            },
        ),
        _record(
            "q-err",
            1,
            "error",
            sql="SELEC 1",
            model="model-b",
            error={"side": "candidate", "kind": "parse_error", "message": "Invalid expression"},
        ),
        _record("q-unk", 0, "unknown", method=None, detail="the time budget ran out"),
    ]
    anomaly = {"kind": "missing_reference", "detail": "the accepted reference is empty"}
    records += [_record("q-bad", i, "anomaly", anomaly=anomaly) for i in range(2)]
    return records


def _statistics() -> dict[str, Any]:
    return {
        "pairs": 22,
        "items": 18,
        "graded": 20,
        "passed": 8,
        "pass_rate": 0.4,
        "pass_rate_ci": [0.2188, 0.6134],
        "ci_method": "wilson",
        "confidence": 0.95,
        "proved_passes": 3,
        "unrefuted_passes": 5,
        "failed": 9,
        "failures_by_cause": {
            "grain": 3,
            "missing_rows": 3,
            "extra_rows": 1,
            "filter_window": 1,
            "predicate": 1,
        },
        "unknown": 1,
        "errors": 2,
        "errors_by_kind": {"not_read_only": 1, "parse_error": 1},
        "anomalous_pairs": 2,
        "anomalous_items": ["q-bad"],
        "groups": {
            "model": {
                "model-a": {
                    "graded": 14,
                    "passed": 7,
                    "pass_rate": 0.5,
                    "pass_rate_ci": [0.27, 0.73],
                },
                "model-b": {
                    "graded": 6,
                    "passed": 1,
                    "pass_rate": 1 / 6,
                    "pass_rate_ci": [0.03, 0.56],
                },
                "<svg onload=alert(3)>": {"graded": 0, "passed": 0, "pass_rate": None},
            },
        },
    }


AUDIT: dict[str, Any] = {
    "strata": [
        {
            "cause": "grain",
            "failures": 3,
            "labelled": 3,
            "false_fails": 1,
            "rate": 1 / 3,
            "estimated_false_fails": 1.0,
        },
        {
            "cause": "missing_rows",
            "failures": 3,
            "labelled": 2,
            "false_fails": 1,
            "rate": 0.5,
            "estimated_false_fails": 1.5,
        },
    ],
    "pass_rate": 0.4,
    "corrected_pass_rate": 0.525,
    "ci": [0.31, 0.73],
    "method": "stratified Wilson",
    "bootstrap_ci": [0.30, 0.75],
    "largest_contributor": "missing_rows",
}

COMPARISON: dict[str, Any] = {
    "labels": ["baseline", "tuned"],
    "paired": 18,
    "only_in_a": ["q-x1"],
    "only_in_b": [],
    "metrics": [
        {
            "name": "pass_rate",
            "mean_a": 0.4,
            "mean_b": 0.6,
            "difference": 0.2,
            "difference_definition": "B - A",
            "ci": [0.05, 0.35],
            "ci_method": "paired bootstrap",
            "p_value": 0.012,
            "test": "McNemar exact",
            "winner": "B",
            "verdict": "tuned passes more",
        },
        {
            "name": "proved_rate",
            "mean_a": 0.15,
            "mean_b": 0.1,
            "difference": -0.05,
            "difference_definition": "B - A",
            "ci": [-0.2, 0.1],
            "ci_method": "paired bootstrap",
            "p_value": 0.5,
            "test": "McNemar exact",
            "winner": None,
            "verdict": "no significant difference",
        },
    ],
}


def _data(**kwargs: Any) -> ReportData:
    base: dict[str, Any] = {
        "title": "Run <script>alert(2)</script>",
        "statistics": _statistics(),
        "records": _records(),
        "audit": AUDIT,
        "comparison": COMPARISON,
        "generated_at": "2025-01-01 00:00 UTC",
        "command": "sqlequiv report results.jsonl --out report.html",
    }
    base.update(kwargs)
    return ReportData(**base)


# ---------------------------------------------------------------------------
# a small DOM, from the standard library's parser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str | None]
    children: list[Node | str] = field(default_factory=list)
    parent: Node | None = None

    @property
    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text for c in self.children)

    def iter(self) -> Iterator[Node]:
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.iter()

    def find_all(self, tag: str, cls: str | None = None) -> list[Node]:
        return [
            n
            for n in self.iter()
            if n.tag == tag and (cls is None or cls in (n.attrs.get("class") or "").split())
        ]

    def by_id(self, ident: str) -> Node:
        for n in self.iter():
            if n.attrs.get("id") == ident:
                return n
        raise AssertionError(f"no element with id {ident!r}")


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.current = self.root

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, dict(attrs), parent=self.current)
        self.current.children.append(node)
        if tag not in VOID:
            self.current = node

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.current.children.append(Node(tag, dict(attrs), parent=self.current))

    def handle_endtag(self, tag: str) -> None:
        node: Node | None = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.current = node.parent

    def handle_data(self, data: str) -> None:
        self.current.children.append(data)


def parse(text: str) -> Node:
    builder = _TreeBuilder()
    builder.feed(text)
    builder.close()
    return builder.root


# ---------------------------------------------------------------------------
# the page as written


@pytest.fixture(scope="module")
def page() -> str:
    return render_report(_data())


def test_no_external_reference(page: str) -> None:
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(
        r"""(?:src|href|action|srcset|poster)\s*=\s*["']?\s*(?:https?:)?//""", page, re.I
    )
    assert "http://" not in page and "https://" not in page
    assert "@import" not in page and "url(" not in page
    assert "[hidden] { display: none !important; }" in page  # "show more" hides when done
    for tag in ("link", "iframe", "img", "object", "embed", "base", "form"):
        assert not re.search(rf"<{tag}\b", page, re.I), tag
    dom = parse(page)
    scripts = dom.find_all("script")
    assert [s.attrs.get("type") for s in scripts] == ["application/json", "application/json", None]
    assert all("src" not in s.attrs for s in scripts)


def test_csp_pins_the_only_script(page: str) -> None:
    dom = parse(page)
    csp = next(
        m.attrs["content"] or ""
        for m in dom.find_all("meta")
        if m.attrs.get("http-equiv") == "Content-Security-Policy"
    )
    assert "default-src 'none'" in csp
    script = dom.find_all("script")[-1].text
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in csp
    assert "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]


def test_model_text_is_escaped(page: str) -> None:
    assert SCRIPT_PAYLOAD not in page
    assert IMG_PAYLOAD not in page
    assert "<script>alert(2)" not in page and "<svg onload" not in page and "<i>x</i>" not in page
    assert page.count("<script") == 3
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in page  # the title, as text
    dom = parse(page)
    entries = json.loads(dom.by_id("sqe-entries").text)
    injected = next(e for e in entries if e["id"] == "q-inj")
    assert injected["sql"] == "SELECT 1 " + SCRIPT_PAYLOAD
    assert injected["ce"]["tables"]["customers"][0]["name"] == IMG_PAYLOAD
    assert injected["label"] == "m<i>x</i>"


def test_every_non_pass_is_listed_in_order(page: str) -> None:
    entries = json.loads(parse(page).by_id("sqe-entries").text)
    assert len(entries) == 14  # 9 failures, 2 errors, 1 unknown, 2 anomalous pairs
    assert [e["status"] for e in entries] == ["fail"] * 9 + ["error"] * 2 + ["unknown"] + [
        "anomaly"
    ] * 2
    categories = {e["key"]: e["category"] for e in entries}
    assert categories["q-pred/0"] == "predicate"
    assert categories["q-err/0"] == "error:not_read_only"
    assert categories["q-bad/1"] == "anomaly:missing_reference"


def test_header_charts_and_tables(page: str) -> None:
    dom = parse(page)
    assert dom.by_id("pass-rate").text == "40.0%"
    assert dom.by_id("pass-rate-ci").text == "95% CI 21.9–61.3% (Wilson)"
    causes = dom.by_id("causes")
    bars = causes.find_all("svg", "bars")
    assert len(bars) == 2  # failures by cause, errors by kind
    labels = [t.text for t in bars[0].find_all("text")]
    assert labels[:2] == ["grain", "3 (33%)"]
    assert "predicate" in labels and "1 (11%)" in labels
    assert [t.text for t in bars[1].find_all("text")] == [
        "not_read_only",
        "1 (50%)",
        "parse_error",
        "1 (50%)",
    ]
    hrefs = [a.attrs.get("href") for a in causes.find_all("a")]
    assert "#cause=grain" in hrefs and "#cause=error:parse_error" in hrefs
    groups = dom.by_id("groups").find_all("tr")
    cells = [[td.text for td in tr.find_all("td")][:5] for tr in groups if tr.find_all("td")]
    assert cells[0] == ["model-a", "14", "7", "50.0%", "27.0–73.0%"]
    assert cells[2][0] == "<svg onload=alert(3)>" and cells[2][3] == "–"
    anomalies = dom.by_id("anomalies").text
    assert "q-bad" in anomalies and "missing_reference" in anomalies


def test_audit_section(page: str) -> None:
    audit = parse(page).by_id("audit")
    text = " ".join(audit.text.split())
    assert "52.5%" in text and "31.0–73.0%" in text and "30.0–75.0%" in text
    assert "stratified Wilson" in text and "bootstrap" in text
    assert "The largest contributor is missing_rows" in text
    rows = [[td.text for td in tr.find_all("td")] for tr in audit.find_all("tr")]
    assert ["grain", "3", "3", "1", "33.3%", "1"] in rows
    assert ["missing_rows ★", "3", "2", "1", "50.0%", "1.5"] in rows


def test_comparison_section(page: str) -> None:
    comparison = parse(page).by_id("comparison")
    text = " ".join(comparison.text.split())
    assert "baseline (A) against tuned (B) on 18 paired items" in text
    assert "winner: tuned" in text and "no winner" in text
    assert "+20.0 pp" in text and "[+5.0, +35.0] pp" in text and "p 0.012" in text
    plots = comparison.find_all("svg", "diff")
    assert len(plots) == 2
    for plot in plots:
        zero = [ln for ln in plot.find_all("line") if ln.attrs.get("stroke-dasharray")]
        assert len(zero) == 1  # the zero line
        assert len(plot.find_all("circle")) == 1  # the estimate
        assert "0 = no difference" in plot.text


def test_optional_sections_and_missing_keys() -> None:
    bare = render_report(ReportData("bare"))
    assert 'id="audit"' not in bare and 'id="comparison"' not in bare and 'id="groups"' not in bare
    assert "–" in parse(bare).by_id("pass-rate").text
    # Statistics without intervals or counts: the counts come from the records.
    page = render_report(ReportData("counts", {"pass_rate": 0.4}, _records()))
    dom = parse(page)
    assert dom.by_id("pass-rate").text == "40.0%"
    assert "no interval given" in dom.by_id("summary").text
    assert "3 (33%)" in [t.text for t in dom.by_id("causes").find_all("text")]
    # Sparse audit and comparison shapes.
    sparse = render_report(
        ReportData(
            "sparse",
            {"graded": 1, "passed": 1, "pass_rate": 1.0, "groups": {"model": {"a": {}}}},
            audit={"corrected_pass_rate": 0.9},
            comparison={"metrics": [{"name": "latency_ms", "difference": 3.5}, "junk"]},
        )
    )
    dom = parse(sparse)
    assert "90.0%" in dom.by_id("audit").text
    assert "+3.5" in dom.by_id("comparison").text and "no winner" in dom.by_id("comparison").text


def test_large_report_is_bounded(tmp_path: Path) -> None:
    big_table = [{"id": i, "v": "x" * 10} for i in range(5000)]
    records = [
        _record(
            f"q-{i:05d}",
            0,
            "fail",
            cause="missing_rows",
            method="fixture",
            detail=f"failure {i}",
            ce=_ce("missing_rows", "m", tables={"t": big_table}) if i < 5 else None,
        )
        for i in range(3000)
    ]
    start = time.perf_counter()
    path = write_report(ReportData("big", records=records), tmp_path / "big.html")
    assert time.perf_counter() - start < 10
    page = path.read_text(encoding="utf-8")
    entries = json.loads(parse(page).by_id("sqe-entries").text)
    assert len(entries) == 3000
    assert len(entries[0]["ce"]["tables"]["t"]) == MAX_TABLE_ROWS
    assert entries[0]["ce"]["table_sizes"]["t"] == 5000
    assert len(page) < 4_000_000


# ---------------------------------------------------------------------------
# the page as a browser shows it


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    if os.environ.get("SQLEQUIV_REQUIRE_CHROMIUM"):
        pytest.fail("SQLEQUIV_REQUIRE_CHROMIUM is set but no chromium is installed")
    pytest.skip("chromium is not installed (set SQLEQUIV_REQUIRE_CHROMIUM to fail instead)")


@dataclass
class Rendered:
    doms: dict[str, Node]
    screenshot: Path


#: Flags for a quick, quiet, offline headless run in a container.
CHROMIUM_FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-extensions",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--hide-scrollbars",
    "--mute-audio",
)


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Rendered:
    """Four pages rendered at once (each in its own profile): the DOMs after the script ran."""
    browser = _chromium()
    root = tmp_path_factory.mktemp("report")
    report = write_report(_data(), root / "report.html")
    big = write_report(
        ReportData(
            "big",
            records=[
                _record(f"q-{i:04d}", 0, "fail", cause="grain", detail=f"failure {i}")
                for i in range(1000)
            ],
        ),
        root / "big.html",
    )
    shot = root / "report.png"
    runs = {
        # No fragment: the whole list; the screenshot of the same page.
        "all": (report.as_uri(), ["--window-size=1280,1600", f"--screenshot={shot}"]),
        "grain": (report.as_uri() + "#q=grain&open=all", []),
        # A field term, an excluded term and three cause chips at once.
        "filter": (
            report.as_uri()
            + "#q=model:model-b%20-cause:grain&cause=filter_window,error:parse_error,unknown",
            [],
        ),
        "big": (big.as_uri() + "#q=failure", []),
    }
    procs: dict[str, subprocess.Popen[bytes]] = {}
    try:
        for name, (url, extra) in runs.items():
            procs[name] = subprocess.Popen(
                [
                    browser,
                    *CHROMIUM_FLAGS,
                    f"--user-data-dir={root / ('profile-' + name)}",
                    *extra,
                    "--dump-dom",
                    url,
                ],
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        doms: dict[str, Node] = {}
        for name, proc in procs.items():
            out, _ = proc.communicate(timeout=90)
            assert proc.returncode == 0, f"chromium failed on {name}"
            doms[name] = parse(out.decode("utf-8"))
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return Rendered(doms, shot)


def _entries(dom: Node) -> list[Node]:
    return dom.by_id("entry-list").find_all("details", "entry")


def test_script_ran(rendered: Rendered) -> None:
    dom = rendered.doms["all"]
    assert dom.find_all("html")[0].attrs.get("data-report-ready") == "true"
    assert len(_entries(dom)) == 14
    assert dom.by_id("pass-rate").text == "40.0%"
    chips = {c.attrs.get("data-cause"): c.text for c in dom.by_id("chips").find_all("button")}
    assert chips["grain"] == "grain3" and chips["error:parse_error"] == "error:parse_error1"


def test_fragment_prefills_the_search(rendered: Rendered) -> None:
    dom = rendered.doms["grain"]
    assert dom.by_id("search").attrs.get("value") == "grain"
    entries = _entries(dom)
    assert [e.attrs["data-key"] for e in entries] == ["q-g1/0", "q-g2/1", "q-inj/0"]
    assert all(e.attrs.get("data-cause") == "grain" for e in entries)
    assert "open" in entries[0].attrs  # open=all expanded them
    assert dom.by_id("entry-list").attrs["data-matched"] == "3"
    assert dom.by_id("match-count").text == "3 of 14 entries match"
    # The counterexample: database and both result sets, missing and extra rows marked.
    first = entries[0]
    cells = [td.text for td in first.find_all("td")]
    assert "Zed-417" in cells
    assert len(first.find_all("tr", "missing")) == 1
    assert len(first.find_all("tr", "extra")) == 2
    captions = [f.text for f in first.find_all("figcaption")]
    assert "Candidate result 2 rows, 2 extra" in captions
    assert "Reference result 1 row, 1 missing from the candidate" in captions


def test_payloads_stay_text(rendered: Rendered) -> None:
    dom = rendered.doms["grain"]
    injected = next(e for e in _entries(dom) if e.attrs["data-key"] == "q-inj/0")
    assert [c.text for c in injected.find_all("code")] == ["SELECT 1 " + SCRIPT_PAYLOAD]
    assert IMG_PAYLOAD in [td.text for td in injected.find_all("td")]
    assert "payload <b>bold</b> & " + IMG_PAYLOAD in injected.text
    assert injected.find_all("span", "tag")[0].text == "m<i>x</i>"
    # No element came out of the payloads: no image, no bold, no extra script.
    for name in ("grain", "all"):
        page = rendered.doms[name]
        assert page.find_all("img") == []
        assert [b for b in page.find_all("b") if b.text == "bold"] == []
        assert [i for i in page.find_all("i") if i.text == "x"] == []
        scripts = page.find_all("script")
        assert len(scripts) == 3
        assert not any("alert(" in s.text for s in scripts[2:])
    assert rendered.doms["all"].find_all("title")[0].text == "Run <script>alert(2)</script>"


def test_chips_and_field_search(rendered: Rendered) -> None:
    dom = rendered.doms["filter"]
    # model-b, not grain, and of cause filter_window, error:parse_error or unknown
    # (q-unk/0 is model-a's).
    assert [e.attrs["data-key"] for e in _entries(dom)] == ["q-w1/2", "q-err/1"]
    chips = dom.by_id("chips").find_all("button")
    pressed = [c.attrs.get("data-cause") for c in chips if c.attrs.get("aria-pressed") == "true"]
    assert pressed == ["filter_window", "error:parse_error", "unknown"]
    # Chip counts follow the text filter: model-b has one grain failure, excluded here.
    counts = {c.attrs.get("data-cause"): c.find_all("span", "n")[0].text for c in chips[1:]}
    assert counts["grain"] == "0" and counts["filter_window"] == "1"


def test_large_list_is_paged(rendered: Rendered) -> None:
    dom = rendered.doms["big"]
    assert dom.by_id("entry-list").attrs["data-matched"] == "1000"
    assert len(_entries(dom)) == PAGE_SIZE
    assert "hidden" not in dom.by_id("show-more").attrs
    assert dom.by_id("match-count").text == f"1000 of 1000 entries match ({PAGE_SIZE} shown)"


def _png_pixels(path: Path) -> tuple[int, int, int, bytes]:
    """Width, height, channels and the decompressed (still filtered) scanlines of a PNG."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, width, height, channels, idat = 8, 0, 0, 0, b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        chunk = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", chunk[:10])
            assert depth == 8
            channels = {0: 1, 2: 3, 4: 2, 6: 4}[color]
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    return width, height, channels, zlib.decompress(idat)


def test_screenshot_is_a_page(rendered: Rendered) -> None:
    shot = rendered.screenshot
    assert shot.exists() and shot.stat().st_size > 30_000
    width, height, channels, raw = _png_pixels(shot)
    assert (width, height) == (1280, 1600)
    stride = 1 + width * channels
    assert len(raw) == stride * height
    # Text, charts and colours, not one fill: many distinct scanlines and byte values.
    scanlines = {raw[i * stride + 1 : (i + 1) * stride] for i in range(height)}
    assert len(scanlines) > 300
    assert len(set(raw)) > 100


def test_failures_compared_with_data_are_split_by_realism() -> None:
    """Failures whose counterexample was compared with the user's data: the report charts
    them by realism, each links to its list, and an edge one says what it needs."""
    records = _records()
    tiers = ["on_data", "realistic", "edge", "edge"]
    failures = [r for r in records if r["status"] == "fail"][: len(tiers)]
    for record, tier in zip(failures, tiers, strict=True):
        ce = dict(record["counterexample"] or _ce("grain", "two rows"))
        ce["realism"] = tier
        empty = "needs an empty match table; the data has 600 rows"
        ce["breaks"] = [empty] if tier == "edge" else []
        record["counterexample"] = ce
    page = render_report(ReportData("tiers", None, records))
    dom = parse(page)
    causes = dom.by_id("causes").text
    assert "Failures by realism" in causes
    assert "#q=realism:edge" in page and "#q=realism:on_data" in page
    labels = [t.text for t in dom.by_id("causes").find_all("text")]
    assert "edge" in labels and "realistic" in labels
    # Without data no chart: the section is as before.
    plain = parse(render_report(ReportData("plain", None, _records())))
    assert "Failures by realism" not in plain.by_id("causes").text
