"""The results commands end to end: stats, compare, audit sample/estimate, report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sqlequiv.cli import main
from sqlequiv.grading import RECORD_KEYS, Record


def results(path: Path, outcomes: list[tuple[str, str | None]], model: str = "m") -> Path:
    """A results file with one record per (status, cause), items q0, q1, ..."""
    lines = []
    for n, (status, cause) in enumerate(outcomes):
        record = Record(
            f"q{n}", 0, "query", status,  # type: ignore[arg-type]
            proved=True if status == "pass" else None, cause=cause,
            candidate_sql=f"SELECT {n}", candidate_meta={"model": model},
            item_meta={"difficulty": "easy" if n % 2 else "hard"},
        )  # fmt: skip
        lines.append(json.dumps(record.to_dict()))
    path.write_text("\n".join(lines) + "\n")
    return path


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> Any:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_stats_pass_rate_interval_and_groups(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = results(tmp_path / "r.jsonl", [("pass", None)] * 34 + [("fail", "grain")] * 16)
    stats = run_json(["stats", str(path), "--by", "difficulty"], capsys)
    assert stats["pass_rate"] == pytest.approx(0.68)
    lo, hi = stats["pass_rate_ci"]
    assert lo < 0.68 < hi and stats["ci_method"] == "wilson"
    assert stats["failures_by_cause"] == {"grain": 16}
    assert set(stats["groups"]["difficulty"]) == {"easy", "hard"}
    assert main(["stats", str(path)]) == 0
    assert "(Wilson 95%)" in capsys.readouterr().out


def test_the_worked_audit_through_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 500 graded, 68% pass, 160 failures; 11 false fails among 50 sampled failures.
    path = results(tmp_path / "r.jsonl", [("pass", None)] * 340 + [("fail", "grain")] * 160)
    labels = tmp_path / "labels.jsonl"
    plan = run_json(["audit", "sample", str(path), "--n", "50", "--out", str(labels)], capsys)
    assert plan["rows"] == 50
    rows = [json.loads(line) for line in labels.read_text().splitlines()]
    assert all(r["false_fail"] is None for r in rows)
    for n, row in enumerate(rows):
        row["false_fail"] = n < 11
    labels.write_text("".join(json.dumps(r) + "\n" for r in rows))
    estimate = run_json(["audit", "estimate", str(path), str(labels)], capsys)
    assert estimate["corrected_pass_rate"] == pytest.approx((340 + 160 * 11 / 50) / 500)
    lo, hi = estimate["ci"]
    # Stratified estimator with the finite population correction, by hand:
    se = (160**2 * (1 - 50 / 160) * 0.22 * 0.78 / 49) ** 0.5 / 500
    assert lo == pytest.approx(0.7504 - 1.959964 * se, abs=1e-4)
    assert hi == pytest.approx(0.7504 + 1.959964 * se, abs=1e-4)
    assert estimate["largest_contributor"]["stratum"] == "grain"


def test_labels_with_problems_are_refused_listing_each(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = results(tmp_path / "r.jsonl", [("pass", None)] * 3 + [("fail", "grain")] * 3)
    labels = tmp_path / "labels.jsonl"
    assert main(["audit", "sample", str(path), "--n", "3", "--out", str(labels)]) == 0
    labels.write_text(labels.read_text() + '{"item_id": "nope", "sample": 0}\n')
    capsys.readouterr()
    assert main(["audit", "estimate", str(path), str(labels)]) == 2
    err = capsys.readouterr().err
    assert "nope" in err and "false_fail" in err


def test_compare_names_a_winner_only_when_the_interval_excludes_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = results(tmp_path / "a.jsonl", [("pass", None)] * 20 + [("fail", "grain")] * 40)
    b = results(tmp_path / "b.jsonl", [("pass", None)] * 55 + [("fail", "grain")] * 5)
    better = run_json(["compare", str(a), str(b), "--labels", "old", "new"], capsys)
    metric = better["metrics"]["pass_rate"]
    assert metric["winner"] == "new" and metric["ci"][0] > 0 and metric["p_value"] < 0.05
    same = run_json(["compare", str(a), str(a)], capsys)
    assert same["metrics"]["pass_rate"]["winner"] is None
    short = results(tmp_path / "c.jsonl", [("pass", None)] * 10)
    partial = run_json(["compare", str(a), str(short)], capsys)
    assert len(partial["only_in_a"]) == 50 and partial["paired"] == 10


def test_two_models_in_one_file_pair_by_item(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = results(tmp_path / "a.jsonl", [("pass", None)] * 30, model="m1")
    b = results(tmp_path / "b.jsonl", [("fail", "grain")] * 30, model="m2")
    both = tmp_path / "both.jsonl"
    mixed = [json.loads(x) for x in a.read_text().splitlines()]
    for record in (json.loads(x) for x in b.read_text().splitlines()):
        mixed.append({**record, "sample": 1})
    both.write_text("".join(json.dumps(r) + "\n" for r in mixed))
    out = run_json(["compare", str(both), str(both), "--select-a", "model=m1", "--select-b",
                    "model=m2", "--pair-by", "item"], capsys)  # fmt: skip
    assert out["paired"] == 30 and out["metrics"]["pass_rate"]["difference"] == -1.0


def test_report_is_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = results(tmp_path / "r.jsonl", [("pass", None)] * 5 + [("fail", "grain")] * 5)
    html = tmp_path / "report.html"
    assert main(["report", str(path), "--html", str(html), "--compare", str(path)]) == 0
    text = html.read_text()
    assert "<html" in text and "grain" in text and "Comparison" in text
    assert tuple(json.loads(path.read_text().splitlines()[0])) == RECORD_KEYS


def test_missing_results_file_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["stats", str(tmp_path / "none.jsonl")]) == 2
    assert "no such results file" in capsys.readouterr().err
