"""The fault campaign of issue 17: every hostile input and process fault, each in a subprocess.

Usage::

    python benchmarks/faults.py [--only GROUP_OR_NAME ...] [--list] [--out FILE]

Runs each case in a fresh child process (``python benchmarks/faults.py --case NAME``) and
prints a table: the input, what came of it (a verdict, a clean error, a refusal, or for a
process fault whether the rerun ended with the records of an uninterrupted run), the seconds
the child spent on it (after its imports), the child's peak memory (``ru_maxrss`` from
``wait4``, which covers the grading processes it started too), and whether it was contained:
a clean error or a sound verdict, within its budget plus 2 s, under 2 GB.

The inputs are not copied here: the issue's own inputs are built from the helpers the tests
use (``tests/test_limits.py``, ``tests/test_size_bombs.py``, ``tests/test_grade_run.py``),
and every entry of ``tests/support/sandbox_attacks.py`` (ATTACKS in each placement, SCHEMA_ATTACKS,
BOMBS) and of ``benchmarks/bombs.py`` runs as well. The parent imports none of sqlequiv, so
its own memory does not count in a child's ``ru_maxrss``.

A budget is what the options allow: a check's wall-clock stage budgets at default options
(``time_budget + bounded_time_budget + query_timeout``), none for loading a file or for a
``grade`` that refuses its input (the 2 s margin only; ``grade`` runs by its ``main`` in the
child, so no interpreter start-up is timed), and for a process fault the grading runs it
takes (the slowest pair's sleep times the pairs, with the start-up of each ``grade``). This
is a benchmark, not a test: it prints figures and exits 1 when something was not contained.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
#: A child may take this much address space (the machine is shared; 2 GB is the bar).
CHILD_ADDRESS_SPACE_GB = 4
MEMORY_BAR_MB = 2048
MARGIN_S = 2.0
#: A child still running this long after its budget is killed and reported as hung.
KILL_AFTER_S = 60.0


# ---------------------------------------------------------------- the cases (child side)


@dataclass(frozen=True)
class Result:
    """What a case came to: a short outcome, whether it is sound, and a detail."""

    outcome: str
    sound: bool
    detail: str = ""


@dataclass(frozen=True)
class Case:
    group: str
    name: str
    #: (scratch directory) -> Result; the child times it.
    run: Callable[[Path], Result]
    #: seconds the options allow (the margin is added when judging)
    budget: float


def _check_budget() -> float:
    from sqlequiv import Options

    o = Options()
    return o.time_budget + o.bounded_time_budget + o.query_timeout


def _verdict(
    candidate: str, reference: str, schema: Any, truth: str | None, dialect: str = "duckdb"
) -> Result:
    """``check`` at default options, judged against what is known of the pair.

    ``truth``: ``differ`` (equivalent would be wrong), ``same`` (not_equivalent would be
    wrong), ``error`` (only a clean error is right) or None (any verdict will do).
    """
    from sqlequiv import check

    try:
        verdict = check(candidate, reference, schema, dialect)
    except Exception as exc:  # a traceback is what the campaign looks for
        return Result("raised", False, f"{type(exc).__name__}: {str(exc)[:120]}")
    label = verdict.verdict
    detail = ""
    if verdict.error is not None:
        label = f"error ({verdict.error.kind})"
        detail = verdict.error.message[:120]
    wrong = {"differ": "equivalent", "same": "not_equivalent"}.get(truth or "")
    sound = verdict.verdict != wrong and (truth != "error" or verdict.verdict == "error")
    return Result(label, sound, detail)


def _refused(load: Callable[[], object], match: str) -> Result:
    """``load()`` must raise a sqlequiv error whose message contains ``match``."""
    from sqlequiv.errors import SqlequivError

    try:
        load()
    except SqlequivError as err:
        text = str(err).splitlines()[0][:120]
        return Result(f"refused ({err.kind})", match in str(err), text)
    except Exception as exc:
        return Result("raised", False, f"{type(exc).__name__}: {str(exc)[:120]}")
    return Result("loaded", False, "expected a refusal")


def _cli(argv: list[str]) -> tuple[int, str]:
    """``sqlequiv argv`` (its ``main``, in this child, so no start-up is timed): (exit code,
    what it printed on stderr)."""
    from sqlequiv.cli import main as sqlequiv_main

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = sqlequiv_main(argv)
    return code, err.getvalue()


def _env(**extra: str) -> dict[str, str]:
    path = os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": path, **extra}


def _clean_error(
    code: int, err: str, wanted_code: int, match: str, *, one_line: bool = False
) -> Result:
    """A CLI run that ended with ``wanted_code`` and a message (one line if asked), no
    traceback."""
    clean = "Traceback" not in err and err.startswith("sqlequiv: error: ")
    if one_line:
        clean = clean and err.count("\n") == 1
    text = " ".join(err.split())[:120]
    return Result(f"exit {code}", code == wanted_code and clean and match in err, text)


# -- the issue's inputs


def _issue_cases() -> list[Case]:
    import test_size_bombs as tsb

    budget = _check_budget()
    cases = []
    precedence = [
        ("=/LIKE", "a = b LIKE 'x'", "a = (b LIKE 'x')"),
        ("=/BETWEEN", "a = 1 BETWEEN 0 AND 2", "a = (1 BETWEEN 0 AND 2)"),
        ("=/IN", "a = a IN (2)", "a = (a IN (2))"),
    ]
    for label, flat, nested in precedence:
        cases.append(
            Case(
                "issue17",
                f"sqlite precedence {label}",
                lambda _, f=flat, n=nested: _verdict(
                    f"SELECT a FROM t WHERE {f}",
                    f"SELECT a FROM t WHERE {n}",
                    "CREATE TABLE t (a INT, b TEXT)",
                    "differ",
                    "sqlite",
                ),
                budget,
            )
        )
    tpch = (
        "CREATE TABLE nation (n_nationkey INT PRIMARY KEY, n_name VARCHAR);"
        "CREATE TABLE customer (c_custkey INT PRIMARY KEY, c_name VARCHAR,"
        " c_nationkey INT REFERENCES nation (n_nationkey));"
        "CREATE TABLE orders (o_orderkey INT PRIMARY KEY, o_custkey INT REFERENCES customer"
        " (c_custkey), o_totalprice DECIMAL(15, 2), o_orderdate DATE);"
        "CREATE TABLE lineitem (l_orderkey INT REFERENCES orders (o_orderkey),"
        " l_linenumber INT, l_quantity DECIMAL(15, 2), PRIMARY KEY (l_orderkey, l_linenumber))"
    )
    top = (
        "SELECT c.c_name, o.o_orderkey, o.o_totalprice, sum(l.l_quantity) AS q "
        "FROM customer AS c JOIN orders AS o ON o.o_custkey = c.c_custkey "
        "JOIN lineitem AS l ON l.l_orderkey = o.o_orderkey "
        "JOIN nation AS n ON n.n_nationkey = c.c_nationkey {where}"
        "GROUP BY c.c_name, o.o_orderkey, o.o_totalprice "
        "ORDER BY o.o_totalprice DESC, o.o_orderkey LIMIT 100"
    )
    cases.append(
        Case(
            "issue17",
            "ORDER BY ... LIMIT 100 over 4 joined tables",
            lambda _: _verdict(
                top.format(where=""), top.format(where="WHERE l.l_quantity > 0 "), tpch, "differ"
            ),
            budget,
        )
    )
    many = "%a" * 30 + "%"
    cases.append(
        Case(
            "issue17",
            "CHECK NOT LIKE '%a' x 30, 60-char constant",
            lambda _: _verdict(
                "SELECT a FROM t WHERE s = '" + "a" * 20 + "b" * 40 + "'",
                "SELECT a FROM t WHERE s = '" + "a" * 20 + "b" * 40 + "' AND a > 0",
                f"CREATE TABLE t (a INT, s TEXT CHECK (s NOT LIKE '{many}'))",
                "differ",
            ),
            budget,
        )
    )
    long_x = "x" * 60_000
    cases.append(
        Case(
            "issue17",
            "CHECK LIKE '%_@_%.%', 60,000-char constant",
            lambda _: _verdict(
                f"SELECT a FROM t WHERE e = '{long_x}'",
                f"SELECT a FROM t WHERE e = '{long_x}' AND a > 0",
                "CREATE TABLE t (a INT, e TEXT CHECK (e LIKE '%_@_%.%'))",
                "same",
            ),
            budget,
        )
    )
    literal = "x" * 99_950
    cases.append(
        Case(
            "issue17",
            "99,950-character string literal",
            lambda _: _verdict(
                f"SELECT a FROM t WHERE b = '{literal}'",
                f"SELECT a FROM t WHERE b = '{literal}' AND a > 0",
                "CREATE TABLE t (a INT, b TEXT)",
                "differ",
            ),
            budget,
        )
    )
    for n, bomb in enumerate(tsb.BOMBS):
        cases.append(
            Case(
                "issue17",
                f"size bomb {n}: {bomb[7:60]}",
                lambda _, b=bomb: _verdict(b, "SELECT 1 AS l FROM t", tsb.DDL, "error"),
                budget,
            )
        )
    cases.append(
        Case(
            "issue17",
            "DECIMAL(38, 30)",
            lambda _: _verdict(
                "SELECT d FROM t WHERE d > 1",
                "SELECT d FROM t",
                "CREATE TABLE t (d DECIMAL(38, 30))",
                "differ",
            ),
            budget,
        )
    )
    cases.append(
        Case(
            "issue17",
            "INT[] nested 200 deep",
            lambda _: _verdict(
                "SELECT a FROM t",
                "SELECT a FROM t WHERE a IS NULL",
                "CREATE TABLE t (a INT" + "[]" * 200 + ")",
                "error",
            ),
            budget,
        )
    )
    cases += [
        Case("issue17", "schema JSON nested 50,000 deep", lambda tmp: _deep_schema(tmp, "json"), 0),
        Case("issue17", "schema YAML nested 50,000 deep", lambda tmp: _deep_schema(tmp, "yaml"), 0),
        Case(
            "issue17",
            "suite meta nested 50,000 deep (YAML)",
            lambda tmp: _deep_suite(tmp, "yaml"),
            0,
        ),
        Case(
            "issue17",
            "suite meta nested 50,000 deep (JSONL)",
            lambda tmp: _deep_suite(tmp, "jsonl"),
            0,
        ),
        Case("issue17", "candidates line nested 50,000 deep", _deep_candidates, 0),
        Case("issue17", "YAML alias tree 9^9 in a suite", lambda tmp: _alias_suite(tmp, 9), 0),
        Case("issue17", "YAML alias tree 9^8 through grade", _alias_grade, 0),
        Case("issue17", "U+2028 / U+0085 in a candidates line", _u2028, budget),
        Case(
            "issue17",
            "predicate at an absolute path outside the suite",
            lambda tmp: _outside(tmp, "predicate"),
            0,
        ),
        Case("issue17", "schema at ../ outside the suite", lambda tmp: _outside(tmp, "schema"), 0),
        Case(
            "issue17", "fixture at ../ outside the suite", lambda tmp: _outside(tmp, "fixture"), 0
        ),
    ]
    return cases


def _deep_schema(tmp: Path, kind: str) -> Result:
    import test_limits as tl
    from sqlequiv.schema import load_schema

    path = tmp / f"s.{kind}"
    if kind == "json":
        path.write_text(
            '{"tables": {"t": {"columns": {"a": "INT"}, "x": ' + tl._deep(50_000) + "}}}"
        )
    else:
        path.write_text("tables: " + tl._deep(50_000))
    return _refused(lambda: load_schema(path), "nested more than 100 levels deep")


def _deep_suite(tmp: Path, kind: str) -> Result:
    import test_limits as tl
    from sqlequiv.suite import load_suite

    item = json.dumps(tl.HOSTILE_SUITE_ITEM)
    deep_item = item[:-1] + ', "meta": {"x": ' + tl._deep(50_000) + "}}"
    path = tmp / f"suite.{kind}"
    path.write_text(("items:\n  - " if kind == "yaml" else item + "\n") + deep_item + "\n")
    return _refused(lambda: load_suite(path), "nested more than 100 levels deep")


def _suite_dir(tmp: Path) -> tuple[Path, Path]:
    import test_limits as tl

    suite = tmp / "suite.jsonl"
    suite.write_text(json.dumps(tl.HOSTILE_SUITE_ITEM) + "\n")
    return suite, tmp / "candidates.jsonl"


def _deep_candidates(tmp: Path) -> Result:
    import test_limits as tl

    suite, candidates = _suite_dir(tmp)
    candidates.write_text('{"id": "q1", "sql": "SELECT 1", "x": ' + tl._deep(50_000) + "}\n")
    code, err = _cli(["grade", str(suite), str(candidates), "--out", str(tmp / "r.jsonl")])
    return _clean_error(code, err, 2, "nested more than 100")


def _alias_text(levels: int) -> str:
    import test_limits as tl

    bomb = tl._alias_bomb(levels)
    item = json.dumps({**tl.HOSTILE_SUITE_ITEM, "meta": {"lol": "*placeholder"}})
    return (
        bomb.replace("\n", "\n  ").replace("a0:", "bomb:\n  a0:", 1)
        + "\nitems:\n  - "
        + item.replace('"*placeholder"', f"*a{levels}")
        + "\n"
    )


def _alias_suite(tmp: Path, levels: int) -> Result:
    from sqlequiv.suite import load_suite

    path = tmp / "suite.yaml"
    path.write_text(_alias_text(levels))
    return _refused(lambda: load_suite(path), "alias")


def _alias_grade(tmp: Path) -> Result:
    suite = tmp / "suite.yaml"
    suite.write_text(_alias_text(8))
    candidates = tmp / "candidates.jsonl"
    candidates.write_text('{"id": "q1", "sql": "SELECT id FROM t"}\n')
    out = tmp / "r.jsonl"
    code, err = _cli(["grade", str(suite), str(candidates), "--out", str(out)])
    result = _clean_error(code, err, 2, "alias")
    size = out.stat().st_size if out.exists() else 0
    detail = f"{result.detail} (results: {size} bytes, suite: {suite.stat().st_size} bytes)"
    return Result(result.outcome, result.sound and size < 100_000, detail)


def _u2028(tmp: Path) -> Result:
    suite, candidates = _suite_dir(tmp)
    sql = "SELECT id\u2028FROM t\u0085WHERE id > 0"
    candidates.write_text(
        json.dumps({"id": "q1", "sql": sql}, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    out = tmp / "r.jsonl"
    code, err = _cli(["grade", str(suite), str(candidates), "--out", str(out), "--jobs", "1"])
    records = [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []
    graded = [r["status"] for r in records]
    return Result(f"exit {code}, {graded}", code == 0 and len(graded) == 1, err.strip()[:120])


def _outside(tmp: Path, field: str) -> Result:
    import test_limits as tl

    if field == "predicate":
        spec = str(tmp / "out" / "evil") + ":check"
        suite = tl._escaping_suite(
            tmp, reference_kind="predicate", predicate=spec, accepted_references=[]
        )
    elif field == "schema":
        suite = tl._escaping_suite(tmp, schema="../out/s.sql")
    else:
        suite = tl._escaping_suite(tmp, fixtures=[{"name": "f", "file": "../out/f.sql"}])
    candidates = tmp / "candidates.jsonl"
    candidates.write_text('{"id": "q1", "sql": "SELECT id FROM t"}\n')
    code, err = _cli(["grade", str(suite), str(candidates), "--out", str(tmp / "r.jsonl")])
    result = _clean_error(code, err, 2, "outside the suite")
    imported = (tmp / "out" / "ran").exists()
    return Result(
        result.outcome,
        result.sound and not imported,
        ("IMPORTED; " if imported else "") + result.detail,
    )


# -- process faults on `grade` (the scenarios of tests/test_grade_run.py)


def _fault_cases() -> list[Case]:
    import test_grade_run as tg

    sleep = float(tg.FAULT_ENV["SQLEQUIV_TEST_SLEEP"])
    slow = sum(1 for c in tg.FAULT_CANDIDATES if c["id"] == "hostile")
    # three `grade` runs at most (the uninterrupted one, the faulted one, the rerun), each
    # with its start-up (imports, one worker) and the slow pairs one after the other
    budget = 3 * (15 + slow * sleep)
    return [
        Case("fault", "kill -9 of grade mid-run, then rerun", _kill_grade, budget),
        Case("fault", "kill -9 of a worker mid-pair, then rerun", _kill_worker, budget),
        Case("fault", "two grade runs on one --out at once", _concurrent, budget),
        Case("fault", "full disk (RLIMIT_FSIZE: EFBIG) mid-line, then rerun", _full_disk, budget),
        Case("fault", "--out is /dev/full", _dev_full, 15),
    ]


def _fault_setup(tmp: Path) -> tuple[Any, Path, Path, list[dict[str, Any]]]:
    """The suite of the fault tests and the records of an uninterrupted run of it."""
    import test_grade_run as tg

    (tmp / "base").mkdir()
    (tmp / "run").mkdir()
    suite, cands = tg.write_suite(tmp / "base", tg.FAULT_CANDIDATES)
    done = subprocess.run(
        tg.fault_command(suite, cands, tmp / "base" / "r.jsonl"),
        check=False,
        env=_env(**_sleep()),
        capture_output=True,
        timeout=300,
    )
    if done.returncode != 0:
        raise RuntimeError(f"the uninterrupted run failed: {done.stderr.decode()[-300:]}")
    suite, cands = tg.write_suite(tmp / "run", tg.FAULT_CANDIDATES)
    return tg, suite, cands, tg.comparable(tmp / "base" / "r.jsonl")


def _sleep() -> dict[str, str]:
    import test_grade_run as tg

    return {"SQLEQUIV_TEST_SLEEP": tg.FAULT_ENV["SQLEQUIV_TEST_SLEEP"]}


def _resumed(tg: Any, suite: Path, cands: Path, out: Path, expected: list[Any]) -> Result:
    done = subprocess.run(
        tg.fault_command(suite, cands, out),
        check=False,
        env=_env(**_sleep()),
        capture_output=True,
        timeout=300,
    )
    same = done.returncode == 0 and tg.comparable(out) == expected
    lines = out.read_bytes().count(b"\n")
    return Result(
        "resumed to the uninterrupted records" if same else "records differ",
        same,
        f"rerun exit {done.returncode}; {lines} lines for {len(expected)} pairs",
    )


def _started(tg: Any, suite: Path, cands: Path, out: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        tg.fault_command(suite, cands, out),
        env=_env(**_sleep()),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def _kill_grade(tmp: Path) -> Result:
    tg, suite, cands, expected = _fault_setup(tmp)
    out = tmp / "run" / "r.jsonl"
    process = _started(tg, suite, cands, out)
    tg.wait_for_records(out, 1, process)
    process.kill()
    process.wait(10)
    return _resumed(tg, suite, cands, out, expected)


def _kill_worker(tmp: Path) -> Result:
    tg, suite, cands, expected = _fault_setup(tmp)
    out = tmp / "run" / "r.jsonl"
    process = _started(tg, suite, cands, out)
    tg.wait_for_records(out, 1, process)
    workers = tg.grading_workers(process.pid)
    for worker in workers:
        os.kill(worker, signal.SIGKILL)
    process.communicate(timeout=300)
    crashed = sum(1 for line in out.read_text().splitlines() if '"worker_crashed"' in line)
    result = _resumed(tg, suite, cands, out, expected)
    ok = process.returncode == 0 and crashed == len(workers) == 1 and result.sound
    return Result(result.outcome, ok, f"{crashed} worker_crashed, retried; {result.detail}")


def _concurrent(tmp: Path) -> Result:
    tg, suite, cands, expected = _fault_setup(tmp)
    out = tmp / "run" / "r.jsonl"
    runs = [_started(tg, suite, cands, out) for _ in range(2)]
    ended = []
    for run in runs:
        _, err = run.communicate(timeout=300)
        ended.append((run.returncode, err.decode()))
    codes = sorted(code for code, _ in ended)
    refused = [err for code, err in ended if code == 2]
    same = tg.comparable(out) == expected
    once = out.read_bytes().count(b"\n") == len(expected)
    ok = codes == [0, 2] and "is being written by another sqlequiv grade" in refused[0]
    return Result(
        f"exits {codes}; file {'is one run' if same and once else 'differs'}",
        ok and same and once,
        refused[0].strip()[:120] if refused else "",
    )


def _full_disk(tmp: Path) -> Result:
    tg, suite, cands, expected = _fault_setup(tmp)
    out = tmp / "run" / "r.jsonl"
    size = {(r["item_id"], r["sample"]): len(json.dumps(r)) for r in expected}
    limit = size[("hostile", 0)] + 60 + size[("hostile", 1)] // 2
    command = tg.fault_command(suite, cands, out)
    full = subprocess.run(
        [sys.executable, "-c", tg.UNDER_FSIZE_LIMIT, str(limit), *command[3:]],
        check=False,
        env=_env(**_sleep()),
        capture_output=True,
        text=True,
        timeout=300,
    )
    stop = _clean_error(
        full.returncode, full.stderr, 74, "ends at its last whole record", one_line=True
    )
    whole = out.read_bytes().endswith(b"\n")
    result = _resumed(tg, suite, cands, out, expected)
    return Result(
        f"{stop.outcome}; {result.outcome}", stop.sound and whole and result.sound, stop.detail
    )


def _dev_full(tmp: Path) -> Result:
    suite, candidates = _suite_dir(tmp)
    candidates.write_text('{"id": "q1", "sql": "SELECT id FROM t"}\n')
    out = tmp / "r.jsonl"
    out.symlink_to("/dev/full")
    code, err = _cli(["grade", str(suite), str(candidates), "--out", str(out)])
    return _clean_error(code, err, 2, "is not a regular file")


# -- tests/support/sandbox_attacks.py and benchmarks/bombs.py


def _sandbox_cases() -> list[Case]:
    from support import sandbox_attacks as sa

    budget = _check_budget()
    cases = [
        Case(
            "sandbox",
            f"attack {a.name} ({len(a.placements)} placements)",
            lambda tmp, a=a: _attack(tmp, a),
            budget * len(a.placements),
        )
        for a in sa.ATTACKS
    ]
    cases += [
        Case("sandbox", f"schema attack {a.name}", lambda tmp, a=a: _schema_attack(tmp, a), budget)
        for a in sa.SCHEMA_ATTACKS
    ]
    cases += [
        Case("sandbox", f"bomb {b.name}", lambda _, b=b: _sandbox_bomb(b), budget) for b in sa.BOMBS
    ]
    return cases


def _attack(tmp: Path, attack: Any) -> Result:
    from support import sandbox_attacks as sa

    problems = []
    labels = set()
    with sa.sentinels_in(tmp / "sentinels") as sentinels:
        for placement in attack.placements:
            candidate, reference, side = sa.placed(attack, placement, sentinels)
            sentinels.arm()
            outcome = sa.run_check(candidate, reference, dialect=attack.dialect)
            labels.add(outcome.label())
            problems += sentinels.breaches(outcome.output)
            if outcome.status != "error" or outcome.side != side:
                problems.append(f"{placement}: {outcome.label()}")
            elif outcome.kind not in sa.REFUSAL_KINDS:
                problems.append(f"{placement}: kind {outcome.kind}")
    return Result(", ".join(sorted(labels)), not problems, "; ".join(problems)[:120])


def _schema_attack(tmp: Path, attack: Any) -> Result:
    from support import sandbox_attacks as sa

    with sa.sentinels_in(tmp / "sentinels") as sentinels:
        ddl = sentinels.fill(attack.template)
        sentinels.arm()
        outcome = sa.run_check(sa.NORMAL_CANDIDATE, sa.NORMAL_REFERENCE, ddl)
        problems = sentinels.breaches(outcome.output)
    if outcome.status == "raised":
        problems.append(f"raised {outcome.kind}")
    elif attack.may_load:
        if not (outcome.status == "not_equivalent" or outcome.side == "schema"):
            problems.append(f"loaded and answered {outcome.label()}")
    elif (outcome.status, outcome.side) != ("error", "schema"):
        problems.append(f"not refused: {outcome.label()}")
    return Result(outcome.label(), not problems, "; ".join(problems)[:120])


def _sandbox_bomb(bomb: Any) -> Result:
    from support import sandbox_attacks as sa

    outcome = sa.run_check(bomb.sql(), bomb.reference)
    outcome.extra["health"] = sa.healthy(graded_too=False)
    problems = sa.bomb_problems(outcome, bomb.must_error)
    return Result(outcome.label(), not problems, "; ".join(problems)[:120])


def _bombs_cases() -> list[Case]:
    import bombs

    budget = _check_budget()
    return [
        Case("bombs.py", f"bomb {b.name}", lambda _, b=b: _verdict(*b.build(), None), budget)
        for b in bombs.BOMBS
    ]


def catalogue() -> dict[str, Case]:
    """Every case by name (built in the child: it imports the tests' helpers and sqlequiv)."""
    for where in (ROOT / "tests", ROOT / "benchmarks", ROOT / "src"):
        if str(where) not in sys.path:
            sys.path.insert(0, str(where))
    cases = [*_issue_cases(), *_fault_cases(), *_sandbox_cases(), *_bombs_cases()]
    return {case.name: case for case in cases}


def _child(name: str, scratch: Path) -> int:
    case = catalogue()[name]
    scratch.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    try:
        result = case.run(scratch)
    except Exception as exc:
        result = Result("raised", False, f"{type(exc).__name__}: {str(exc)[:120]}")
    seconds = time.monotonic() - started
    print(
        json.dumps(
            {
                "outcome": result.outcome,
                "sound": result.sound,
                "detail": result.detail,
                "seconds": seconds,
                "budget": case.budget,
            }
        )
    )
    return 0


# ---------------------------------------------------------------- the campaign (parent side)


def run_case(name: str, budget: float, scratch: Path) -> dict[str, Any]:
    """Run one case in a child; the row of the table."""
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--case",
        name,
        "--scratch",
        str(scratch),
    ]
    started = time.monotonic()
    scratch.mkdir(parents=True)
    # Files, not pipes: a child that says much cannot block on a full pipe while it is timed.
    with open(scratch / "stdout", "wb") as stdout, open(scratch / "stderr", "wb") as stderr:
        process = subprocess.Popen(command, env=_env(), stdout=stdout, stderr=stderr)
    limit = CHILD_ADDRESS_SPACE_GB * 1024**3  # set from here: no preexec_fn, so no fork
    resource.prlimit(process.pid, resource.RLIMIT_AS, (limit, limit))
    deadline = started + budget + KILL_AFTER_S
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            process.kill()
            pid, status, usage = os.wait4(process.pid, 0)
            break
        time.sleep(0.05)
    process.returncode = os.waitstatus_to_exitcode(status)
    out = (scratch / "stdout").read_text(errors="replace")
    err = (scratch / "stderr").read_text(errors="replace")
    wall = time.monotonic() - started
    peak_mb = usage.ru_maxrss / 1024
    row: dict[str, Any] = {"input": name, "peak_mb": round(peak_mb), "wall_s": round(wall, 1)}
    lines = [line for line in out.splitlines() if line.startswith("{")]
    if not lines:
        hung = wall > budget + KILL_AFTER_S
        what = "hung (killed)" if hung else f"child died (exit {process.returncode})"
        tail = err.strip().splitlines()[-1][:120] if err.strip() else ""
        return {
            **row,
            "outcome": what,
            "seconds": round(wall, 2),
            "contained": False,
            "detail": tail,
        }
    data = json.loads(lines[-1])
    within = data["seconds"] <= data["budget"] + MARGIN_S
    contained = bool(data["sound"]) and within and peak_mb < MEMORY_BAR_MB
    return {
        **row,
        "outcome": data["outcome"],
        "seconds": round(data["seconds"], 2),
        "budget_s": data["budget"],
        "sound": data["sound"],
        "contained": contained,
        "detail": data["detail"],
    }


def _listing() -> list[dict[str, Any]]:
    """The cases, listed by a child (the parent stays free of sqlequiv's imports)."""
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--list", "--json"],
        check=True,
        env=_env(),
        capture_output=True,
        text=True,
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--only",
        nargs="*",
        default=None,
        help="groups (issue17, fault, sandbox, bombs.py) or case names",
    )
    parser.add_argument("--list", action="store_true", help="list the cases")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--case", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--scratch", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, default=None, help="also write the rows as JSONL")
    args = parser.parse_args(argv)
    if args.case is not None:
        return _child(args.case, args.scratch)
    if args.list and args.json:
        for case in catalogue().values():
            print(json.dumps({"name": case.name, "group": case.group, "budget": case.budget}))
        return 0
    cases = _listing()
    chosen = [
        c for c in cases if args.only is None or c["group"] in args.only or c["name"] in args.only
    ]
    if args.list:
        for case in chosen:
            print(f"{case['group']:<9} {case['name']}")
        return 0
    import tempfile

    out = args.out.open("w", encoding="utf-8") if args.out else None
    header = f"{'group':<9} {'input':<58} {'outcome':<40} {'s':>7} {'MB':>6} contained"
    print(header)
    print("-" * len(header))
    failures = 0
    with tempfile.TemporaryDirectory(prefix="sqlequiv-faults-") as scratch:
        for n, case in enumerate(chosen):
            row = run_case(case["name"], case["budget"], Path(scratch) / str(n))
            row["group"] = case["group"]
            failures += not row["contained"]
            if out:
                out.write(json.dumps(row) + "\n")
                out.flush()
            print(
                f"{case['group']:<9} {case['name'][:58]:<58} {row['outcome'][:40]:<40} "
                f"{row['seconds']:>7.2f} {row['peak_mb']:>6} "
                f"{'yes' if row['contained'] else 'NO: ' + row['detail'][:80]}",
                flush=True,
            )
    if out:
        out.close()
    print(
        f"\n{len(chosen) - failures} of {len(chosen)} contained (a clean error or a sound "
        f"verdict, within budget + {MARGIN_S:g} s, under {MEMORY_BAR_MB} MB); s: the child's "
        "seconds after its imports; MB: its ru_maxrss, the grading processes it started "
        "included"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
