"""The command line: exit codes, JSON output, reports and fixture files."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import duckdb
import pytest

from sqlequiv.cli import main

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_bundled_example_is_refuted_with_a_readable_report(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out = _run(
        capsys,
        "check",
        str(EXAMPLES / "candidate.sql"),
        str(EXAMPLES / "reference.sql"),
        "--schema",
        str(EXAMPLES / "schema.sql"),
    )
    assert code == 1
    assert "NOT EQUIVALENT" in out
    assert "cause:" in out
    assert "candidate result:" in out and "reference result:" in out


def test_json_output_and_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    schema = _write(tmp_path, "s.sql", "CREATE TABLE t (a INT, b INT);")
    a = _write(tmp_path, "a.sql", "SELECT a, b FROM t")
    b = _write(tmp_path, "b.sql", "SELECT x.b, x.a FROM t AS x")
    code, out = _run(capsys, "check", a, b, "--schema", schema, "--json")
    assert code == 0
    assert json.loads(out)["method"] == "normalized"
    bad = _write(tmp_path, "bad.sql", "SELECT c FROM t")
    code, out = _run(capsys, "check", bad, b, "--schema", schema, "--json")
    assert code == 2
    assert json.loads(out)["error"]["kind"] == "unknown_column"


def test_stdin_is_read_for_dash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    schema = _write(tmp_path, "s.sql", "CREATE TABLE t (a INT);")
    ref = _write(tmp_path, "r.sql", "SELECT a FROM t WHERE a > 1")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"SELECT a FROM t WHERE a >= 1")))
    code, out = _run(capsys, "check", "-", ref, "--schema", schema, "--json")
    assert code == 1
    assert json.loads(out)["verdict"] == "not_equivalent"


def test_missing_files_and_bad_usage_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = _write(tmp_path, "s.sql", "CREATE TABLE t (a INT);")
    code, out = _run(capsys, "check", str(tmp_path / "nope.sql"), schema, "--schema", schema)
    assert code == 2
    assert "file_not_found" in out
    assert main(["check"]) == 2
    assert main(["check", "a", "b", "--schema", schema, "--seed", "x"]) == 2


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_non_finite_option_is_a_clean_error(
    value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = _write(tmp_path, "s.sql", "CREATE TABLE t (a INT);")
    a = _write(tmp_path, "a.sql", "SELECT a FROM t")
    argv = ["check", a, a, "--schema", schema, "--json", f"--bounded-time-budget={value}"]
    code, out = _run(capsys, *argv)
    assert code == 2
    error = json.loads(out)["error"]
    assert (error["side"], error["kind"]) == ("options", "invalid_option")


def test_binary_junk_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    schema = _write(tmp_path, "s.sql", "CREATE TABLE t (a INT);")
    junk = tmp_path / "junk.sql"
    junk.write_bytes(b"\x00\xff\xfe\x01garbage")
    code, out = _run(capsys, "check", str(junk), str(junk), "--schema", schema, "--json")
    assert code == 2
    assert json.loads(out)["error"]["kind"] == "invalid_text"


def test_unknown_verdict_exits_3(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    schema = _write(tmp_path, "s.sql", "CREATE TABLE t (a INT NOT NULL);")
    a = _write(tmp_path, "a.sql", "SELECT a FROM t WHERE a >= 5")
    b = _write(tmp_path, "b.sql", "SELECT a FROM t WHERE a > 4")
    code, out = _run(capsys, "check", a, b, "--schema", schema, "--json", "--max-fixtures", "50")
    data = json.loads(out)
    assert code == {"unknown": 3, "equivalent": 0}[data["verdict"]]


def test_an_unknown_report_says_why_there_is_no_proof(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = _write(tmp_path, "s.sql", "CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT);")
    # Equivalent (a ROW_NUMBER is at least 1); they differ in the QUALIFY, which the
    # prover does not read.
    qualify = " QUALIFY ROW_NUMBER() OVER (ORDER BY a)"
    a = _write(tmp_path, "a.sql", "SELECT id FROM t WHERE a > 1 AND b > 2" + qualify + " = 1")
    b = _write(tmp_path, "b.sql", "SELECT id FROM t WHERE b > 2 AND a > 1" + qualify + " <= 1")
    code, out = _run(capsys, "check", a, b, "--schema", schema, "--max-fixtures", "20")
    assert code == 3
    assert "Not proved: the prover does not handle SELECT with QUALIFY." in out


def test_fixtures_are_written_and_replay_after_the_ddl(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_dir = tmp_path / "fixtures"
    code, out = _run(
        capsys,
        "fixtures",
        str(EXAMPLES / "candidate.sql"),
        str(EXAMPLES / "reference.sql"),
        "--schema",
        str(EXAMPLES / "schema.sql"),
        "--out",
        str(out_dir),
    )
    assert code == 1
    scripts = sorted(out_dir.glob("*.sql"))
    assert scripts, out
    for script in scripts:
        assert script.with_suffix(".json").exists()
        con = duckdb.connect()
        con.execute((EXAMPLES / "schema.sql").read_text())
        con.execute(script.read_text())  # constraints are enforced: a bad fixture would raise
    assert any(p.stem == "customers_without_orders" for p in scripts)


def test_seed_rows_draw_real_values_from_an_sqlite_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import sqlite3

    db = tmp_path / "city.sqlite"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE city (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
    con.executemany("INSERT INTO city VALUES (?, ?)", [(1, "Oslo"), (2, "Reykjavík")])
    con.commit()
    con.close()
    a, b = tmp_path / "a.sql", tmp_path / "b.sql"
    a.write_text("SELECT name FROM city WHERE length(name) > 8")
    b.write_text("SELECT name FROM city WHERE length(name) > 9")
    argv = ("check", str(a), str(b), "--schema", str(db), "--dialect", "sqlite", "--json")
    code, out = _run(capsys, *argv, "--seed-rows", "10")
    verdict = json.loads(out)
    assert code == 1 and verdict["executed"]["engine"] == "sqlite"
    assert verdict["counterexample"]["tables"]["city"][0]["name"] == "Reykjavík"
    code, out = _run(capsys, "check", str(a), str(b), "--schema", "CREATE TABLE city (name TEXT)",
                     "--dialect", "sqlite", "--json", "--seed-rows", "3")  # fmt: skip
    assert code == 2 and json.loads(out)["error"]["kind"] == "invalid_option"


def test_every_command_has_one_handler() -> None:
    import argparse

    from sqlequiv.cli import COMMANDS, build_parser

    def names(parser: argparse.ArgumentParser, prefix: str = "") -> set[str]:
        found: set[str] = set()
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    found |= names(sub, f"{prefix}{name} ") or {prefix + name}
        return found

    assert names(build_parser()) == set(COMMANDS)


def test_unusable_input_is_a_message_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = str(tmp_path / "missing.jsonl")
    for argv in (
        ["stats", missing],  # an OSError
        ["grade", str(EXAMPLES / "suite.yaml"), missing, "--out", missing, "--jobs", "0"],
        ["grade", str(tmp_path / "no.yaml"), missing, "--out", missing],  # a SuiteError
        ["spider", "--gold", missing, "--pred", missing, "--db", missing, "--out", missing],
    ):
        assert main(argv) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err.startswith("sqlequiv: error: ")
    suite = str(EXAMPLES / "suite.yaml")
    assert main(["grade", suite, missing, "--out", missing, "--jobs", "0"]) == 2
    assert capsys.readouterr().err == "sqlequiv: error: --jobs must be at least 1\n"
