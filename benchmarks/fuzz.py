"""A long fuzz campaign against every entry point that takes untrusted input.

Usage::

    python benchmarks/fuzz.py --seconds 600 [--target guard|schema|check|cli|all]
        [--seed 0] [--out /tmp/fuzz_crashes] [--hang 30]

The generators are those of ``tests/test_fuzz.py`` (``tests/support/fuzz_inputs.py``), driven by
a seeded ``random.Random`` instead of Hypothesis: no shrinking machinery, many more
inputs per second, the same inputs for the same seed. The contracts checked:

* ``guard``: ``guard_query`` returns or raises ``SqlequivError``;
* ``schema``: ``load_schema`` returns a ``Schema`` or raises ``SchemaError``;
* ``check``: ``check`` returns a ``Verdict`` with one of the four verdicts and a JSON
  form; an ``error`` verdict has a non-empty kind and message;
* ``cli``: ``sqlequiv check`` on junk files exits 0-3 and prints no traceback.

With ``--target all`` the targets share the time equally. At the end it prints, per
target, the inputs tried, a histogram of outcomes (verdicts, error kinds), the five
slowest inputs and every distinct crash (a contract broken: exception type, where it
was raised, how often). Each crash is minimized (chunks of the input are dropped while
the same exception is raised at the same place) and saved, with its traceback, to
``--out``. An input running longer than ``--hang`` seconds is saved there too, with
the stacks of every thread, and interrupted. Errors that the library caught and
reported as ``unsupported`` but that name an internal exception (``KeyError``,
``TypeError``...) are listed as "masked" findings.
"""

from __future__ import annotations

import _thread
import argparse
import contextlib
import dataclasses
import faulthandler
import functools
import hashlib
import heapq
import io
import json
import math
import os
import random
import re
import shutil
import sys
import tempfile
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from sqlequiv import (
    Schema,
    SchemaError,
    SqlequivError,
    Verdict,
    check,
    load_schema,
)
from sqlequiv.cli import main as cli_main
from sqlequiv.guard import guard_query
from support import fuzz_inputs as fi
from support.fuzz_inputs import SMALL, SMALL_ARGS, VERDICTS

# "the query could not be analysed (KeyError: ...)": an internal error the guard caught.
_MASKED = re.compile(r"\((\w+(?:Error|Exception|Exit|Interrupt)\w*)\b")


class ContractBroken(AssertionError):
    """The target returned, but not what its contract promises."""


class Hang(Exception):
    """The watchdog interrupted an input that ran past ``--hang`` seconds."""


# -- targets --------------------------------------------------------------------------


@functools.cache
def _schema(ddl: str) -> Schema:
    return load_schema(ddl)


def _masked(message: str) -> str:
    found = _MASKED.search(message)
    return f"[{found.group(1)}]" if found else ""


def run_guard(case: fi.GuardCase) -> str:
    try:
        guard_query(case.sql, _schema(case.schema_ddl), dialect=case.dialect, side="candidate")
    except SqlequivError as err:
        return f"{type(err).__name__}:{err.kind}{_masked(err.message)}"
    return "ok"


def run_schema(source: str | dict[str, Any], dialect: str = "duckdb") -> str:
    try:
        schema = load_schema(source, dialect)
    except SchemaError as err:
        if not (err.kind and err.message):
            raise ContractBroken(f"SchemaError with an empty kind or message: {err!r}") from err
        return f"SchemaError:{err.kind}{_masked(err.message)}"
    if not isinstance(schema, Schema):
        raise ContractBroken(f"load_schema returned {type(schema).__name__}")
    return "ok"


def verdict_label(verdict: Verdict) -> str:
    if not isinstance(verdict, Verdict):
        raise ContractBroken(f"check returned {type(verdict).__name__}")
    if verdict.verdict not in VERDICTS:
        raise ContractBroken(f"verdict {verdict.verdict!r}")
    json.loads(verdict.to_json())
    if verdict.verdict == "error":
        err = verdict.error
        if err is None or not err.kind or not err.message:
            raise ContractBroken(f"error verdict without kind or message: {err!r}")
        return f"error:{err.kind}{_masked(err.message)}"
    return f"{verdict.verdict}:{verdict.method}"


def run_check(case: fi.CheckCase) -> str:
    return verdict_label(
        check(case.candidate, case.reference, case.schema, case.dialect, options=SMALL)
    )


_CLI_DIR = Path(tempfile.mkdtemp(prefix="sqlequiv-fuzz-cli-"))


def run_cli(case: fi.CliCase) -> str:
    for old in _CLI_DIR.iterdir():
        if old.is_dir():
            shutil.rmtree(old, ignore_errors=True)
        else:
            old.unlink()
    cand, ref = _CLI_DIR / "candidate.sql", _CLI_DIR / "reference.sql"
    schema = _CLI_DIR / f"schema{case.schema_suffix}"
    cand.write_bytes(case.candidate)
    ref.write_bytes(case.reference)
    schema.write_bytes(case.schema)
    argv = ["check", str(cand), str(ref), "--schema", str(schema), *SMALL_ARGS, *case.extra_args]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli_main(argv)
    if code not in (0, 1, 2, 3):
        raise ContractBroken(f"exit code {code!r}; stderr: {err.getvalue()[-2000:]}")
    if "Traceback" in err.getvalue():
        raise ContractBroken(f"traceback on stderr: {err.getvalue()[-2000:]}")
    return f"exit={code}{_cli_error_kind(code, out.getvalue(), err.getvalue())}"


def _cli_error_kind(code: int, out: str, err: str) -> str:
    """ ":<error kind>" of an exit 2, read from the JSON or the rendered verdict."""
    if code != 2:
        return ""
    if err.startswith("sqlequiv: error:"):
        return ":usage"
    try:
        error = json.loads(out)["error"]
        return f":{error['kind']}{_masked(error['message'])}"
    except (ValueError, KeyError, TypeError):
        pass
    found = re.search(r"^(?!verdict:)\w+(?: query)?: (\w+)", out, re.MULTILINE)
    return f":{found.group(1)}{_masked(out)}" if found else ":?"


def _schema_case(src: fi.Source) -> tuple[str | dict[str, Any], str]:
    return fi.gen_schema_source(src), fi.gen_dialect(src)


@dataclass
class Target:
    name: str
    generate: Callable[[fi.Source], Any]
    run: Callable[[Any], str]


TARGETS: dict[str, Target] = {
    "guard": Target("guard", fi.gen_guard_case, run_guard),
    "schema": Target("schema", _schema_case, lambda case: run_schema(*case)),
    "check": Target("check", fi.gen_check_case, run_check),
    "cli": Target("cli", fi.gen_cli_case, run_cli),
}


# -- bookkeeping ----------------------------------------------------------------------


@dataclass
class Crash:
    target: str
    signature: str
    exc_type: str
    where: str
    message: str
    trace: str
    case: Any
    count: int = 1
    minimized: Any = None
    path: Path | None = None


@dataclass
class Stats:
    tried: int = 0
    seconds: float = 0.0
    outcomes: Counter[str] = field(default_factory=Counter)
    slowest: list[tuple[float, int, str]] = field(default_factory=list)
    masked: dict[str, Any] = field(default_factory=dict)


def signature_of(target: str, exc: BaseException) -> tuple[str, str]:
    """(signature, where): the exception type and the innermost sqlequiv frame."""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if "sqlequiv" in f.filename and "benchmarks" not in f.filename]
    frame = (ours or frames or [None])[-1]
    where = f"{Path(frame.filename).name}:{frame.lineno} in {frame.name}" if frame else "?"
    extra = str(exc).split(":")[0][:60] if isinstance(exc, ContractBroken) else ""
    return f"{target}|{type(exc).__name__}|{where}|{extra}", where


def describe(case: Any, limit: int = 300) -> str:
    text = repr(case)
    return text if len(text) <= limit else text[: limit - 20] + f"... ({len(text)} chars)"


def to_json(case: Any) -> Any:
    if dataclasses.is_dataclass(case) and not isinstance(case, type):
        return {f.name: to_json(getattr(case, f.name)) for f in dataclasses.fields(case)}
    if isinstance(case, tuple | list):
        return [to_json(v) for v in case]
    if isinstance(case, bytes):
        return {"bytes_latin1": case.decode("latin-1")}
    if isinstance(case, dict):
        return {str(k): to_json(v) for k, v in case.items()}
    if isinstance(case, float) and math.isnan(case):
        return "NaN"
    return case


# -- minimization ---------------------------------------------------------------------


def _shrink_value(value: Any, keep: Callable[[Any], bool], deadline: float) -> Any:
    """Drop parts of a str/bytes while ``keep`` holds: first whole SQL tokens, then
    chunks of characters of halving size, until a round changes nothing."""
    if not isinstance(value, str | bytes) or not value:
        return value
    changed = True
    while changed and time.monotonic() < deadline:
        changed = False
        if isinstance(value, str):
            tokens = fi.tokenize(value)
            sizes = [len(tokens) >> k for k in range(1, 20) if len(tokens) >> k > 8]
            for size in [*sizes, 8, 7, 6, 5, 4, 3, 2, 1]:
                if time.monotonic() > deadline:
                    break
                i = 0
                while i < len(tokens) and time.monotonic() < deadline:
                    rest = tokens[:i] + tokens[i + size :]
                    if keep("".join(rest)):
                        tokens, value, changed = rest, "".join(rest), True
                    else:
                        i += size if size > 8 else 1  # small ranges at every offset
        chunk = max(1, len(value) // 2)
        while chunk >= 1 and time.monotonic() < deadline:
            i = 0
            while i < len(value) and time.monotonic() < deadline:
                candidate = value[:i] + value[i + chunk :]
                if keep(candidate):
                    value, changed = candidate, True
                else:
                    i += chunk
            chunk //= 2
    return value


def minimize(
    target: Target, case: Any, signature: str, seconds: float, run: Callable[[Any], str]
) -> Any:
    deadline = time.monotonic() + seconds

    def same(c: Any) -> bool:
        try:
            run(c)
        except Hang:
            return False
        except Exception as exc:
            return signature_of(target.name, exc)[0] == signature
        return False

    if dataclasses.is_dataclass(case):
        for f in dataclasses.fields(case):
            value = getattr(case, f.name)

            def keep(v: Any, name: str = f.name, base: Any = case) -> bool:
                return same(dataclasses.replace(base, **{name: v}))

            case = dataclasses.replace(case, **{f.name: _shrink_value(value, keep, deadline)})
    elif isinstance(case, tuple):
        items = list(case)
        for i, value in enumerate(items):

            def keep_item(v: Any, i: int = i) -> bool:
                return same((*items[:i], v, *items[i + 1 :]))

            items[i] = _shrink_value(value, keep_item, deadline)
        case = tuple(items)
    return case


# -- the watchdog ---------------------------------------------------------------------


class Watchdog:
    """Interrupts an input that runs too long, and ends a campaign that cannot stop."""

    def __init__(self, hang: float, out: Path, hard_deadline: float, report: Callable[[], None]):
        self.hang = hang
        self.out = out
        self.hard_deadline = hard_deadline
        self.report = report
        self.lock = threading.Lock()
        self.current: tuple[float, str, Any] | None = None
        self.fired = False
        self.fired_at = float("-inf")
        self.hangs: list[tuple[str, float, Path]] = []
        threading.Thread(target=self._loop, daemon=True, name="fuzz-watchdog").start()

    def start(self, target: str, case: Any) -> None:
        with self.lock:
            self.current = (time.monotonic(), target, case)
            self.fired = False

    def stop(self) -> bool:
        """Clear the current input; True when the watchdog interrupted it."""
        with self.lock:
            self.current = None
            return self.fired

    def _loop(self) -> None:
        while True:
            time.sleep(0.5)
            now = time.monotonic()
            if now > self.hard_deadline:
                print("\n!! campaign stuck past its deadline; reporting and exiting", flush=True)
                self.report()
                os._exit(3)
            with self.lock:
                if self.current is None or self.fired:
                    continue
                started, target, case = self.current
                if now - started < self.hang:
                    continue
                self.fired = True
                self.fired_at = now
            path = self.out / f"hang-{target}-{_digest(case)}.txt"
            with path.open("w") as fh:
                fh.write(f"target: {target}\nran more than {self.hang:g} s\n")
                fh.write(json.dumps(to_json(case), indent=1, ensure_ascii=True) + "\n\n")
                fh.flush()
                faulthandler.dump_traceback(file=fh, all_threads=True)
            self.hangs.append((target, now - started, path))
            print(f"\n!! hang in {target} (> {self.hang:g} s), saved {path}", flush=True)
            _thread.interrupt_main()


def _digest(case: Any) -> str:
    blob = json.dumps(to_json(case), sort_keys=True, ensure_ascii=True, default=str)
    return hashlib.sha1(blob.encode()).hexdigest()[:10]


# -- the campaign ---------------------------------------------------------------------


class Campaign:
    def __init__(self, targets: list[str], seconds: float, seed: int, out: Path, hang: float):
        self.targets = [TARGETS[t] for t in targets]
        self.seconds = seconds
        self.out = out
        self.src = fi.RandomSource(random.Random(seed))
        self.stats = {t.name: Stats() for t in self.targets}
        self.crashes: dict[str, Crash] = {}
        self.started = time.monotonic()
        self.seed = seed
        self.watchdog = Watchdog(
            hang, out, self.started + seconds + max(300.0, 10 * hang), self.print_report
        )
        self.reported = False

    def run(self) -> None:
        deadline = self.started + self.seconds
        next_progress = self.started + 60
        while time.monotonic() < deadline:
            target = min(self.targets, key=lambda t: self.stats[t.name].seconds)
            try:
                self.one(target)
            except KeyboardInterrupt:
                # A watchdog interrupt delivered just after its input returned.
                if time.monotonic() - self.watchdog.fired_at > 5:
                    raise
            if time.monotonic() > next_progress:
                next_progress += 60
                self.print_progress()

    def one(self, target: Target) -> None:
        stats = self.stats[target.name]
        try:
            case = target.generate(self.src)
        except Exception as exc:  # a bug in the generators, not in sqlequiv
            print(f"generator {target.name} failed: {exc!r}", file=sys.stderr)
            traceback.print_exc()
            return
        start = time.perf_counter()
        outcome: str
        crash: BaseException | None = None
        try:
            outcome = self.guarded_run(target, case)
        except Hang:
            outcome = "HANG"
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            outcome = f"CRASH:{type(exc).__name__}"
            crash = exc
        elapsed = time.perf_counter() - start
        if crash is not None:
            self.record_crash(target, case, crash)
        stats.tried += 1
        stats.seconds += elapsed
        stats.outcomes[outcome] += 1
        entry = (elapsed, stats.tried, describe(case, 400))
        if len(stats.slowest) < 5:
            heapq.heappush(stats.slowest, entry)
        else:
            heapq.heappushpop(stats.slowest, entry)
        masked = _MASKED.search(outcome)
        if masked and "[" in outcome and outcome not in stats.masked:
            stats.masked[outcome] = case
            path = self.out / f"masked-{target.name}-{_digest(case)}.json"
            path.write_text(json.dumps({"outcome": outcome, "input": to_json(case)}, indent=1))

    def guarded_run(self, target: Target, case: Any) -> str:
        """``target.run(case)`` under the watchdog; raises Hang when it fired."""
        self.watchdog.start(target.name, case)
        try:
            return target.run(case)
        except KeyboardInterrupt:
            if self.watchdog.stop():
                raise Hang(target.name) from None
            raise
        finally:
            if self.watchdog.stop():
                # Interrupted, but the KeyboardInterrupt was swallowed somewhere inside.
                raise Hang(target.name)

    def record_crash(self, target: Target, case: Any, exc: BaseException) -> None:
        sig, where = signature_of(target.name, exc)
        if sig in self.crashes:
            self.crashes[sig].count += 1
            return
        trace = "".join(traceback.format_exception(exc))
        crash = Crash(target.name, sig, type(exc).__name__, where, str(exc)[:500], trace, case)
        self.crashes[sig] = crash
        print(f"\n!! new crash in {target.name}: {type(exc).__name__} at {where}", flush=True)
        crash.minimized = minimize(target, case, sig, 60, lambda c: self.guarded_run(target, c))
        crash.path = self.out / f"crash-{target.name}-{type(exc).__name__}-{_digest(case)}.txt"
        crash.path.write_text(
            f"target: {target.name}\nsignature: {sig}\n\nminimal input:\n"
            f"{json.dumps(to_json(crash.minimized), indent=1, ensure_ascii=True)}\n\n"
            f"repr: {crash.minimized!r}\n\noriginal input:\n"
            f"{json.dumps(to_json(case), indent=1, ensure_ascii=True)}\n\n{trace}"
        )
        print(f"   minimal input: {describe(crash.minimized, 500)}", flush=True)

    def print_progress(self) -> None:
        elapsed = time.monotonic() - self.started
        parts = ", ".join(f"{n}={s.tried}" for n, s in self.stats.items())
        print(f"[{elapsed:6.0f} s] tried {parts}; crashes {len(self.crashes)}", flush=True)

    def print_report(self) -> None:
        if self.reported:
            return
        self.reported = True
        elapsed = time.monotonic() - self.started
        print(f"\n=== sqlequiv fuzz campaign: {elapsed:.0f} s, seed {self.seed} ===")
        for name, stats in self.stats.items():
            rate = stats.tried / stats.seconds if stats.seconds else 0.0
            print(f"\n--- {name}: {stats.tried} inputs in {stats.seconds:.0f} s ({rate:.1f}/s)")
            for outcome, n in stats.outcomes.most_common():
                print(f"  {n:7d}  {outcome}")
            print("  slowest:")
            for secs, _, text in sorted(stats.slowest, reverse=True):
                print(f"    {secs:7.2f} s  {text}")
            for outcome, case in stats.masked.items():
                print(f"  masked internal error {outcome}: {describe(case, 400)}")
        print(f"\n--- crashes: {len(self.crashes)} distinct")
        for crash in self.crashes.values():
            print(f"\n* {crash.target}: {crash.exc_type} at {crash.where} ({crash.count}x)")
            print(f"  message: {crash.message[:300]}")
            print(f"  minimal input: {describe(crash.minimized, 600)}")
            print(f"  saved: {crash.path}")
            print("  " + crash.trace.strip().replace("\n", "\n  ")[-3000:])
        print(f"\n--- hangs (> {self.watchdog.hang:g} s): {len(self.watchdog.hangs)}")
        for target, secs, path in self.watchdog.hangs:
            print(f"* {target}: {secs:.0f} s, saved {path}")
        summary = {
            "seconds": elapsed,
            "seed": self.seed,
            "targets": {
                n: {"tried": s.tried, "seconds": s.seconds, "outcomes": dict(s.outcomes),
                    "slowest": sorted(s.slowest, reverse=True)}
                for n, s in self.stats.items()
            },
            "crashes": [
                {"target": c.target, "signature": c.signature, "count": c.count,
                 "message": c.message, "minimized": to_json(c.minimized), "saved": str(c.path)}
                for c in self.crashes.values()
            ],
            "hangs": [{"target": t, "seconds": s, "saved": str(p)}
                      for t, s, p in self.watchdog.hangs],
        }  # fmt: skip
        (self.out / "summary.json").write_text(json.dumps(summary, indent=1, default=str))
        print(f"\nsummary: {self.out / 'summary.json'}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--target", choices=[*TARGETS, "all"], default="all")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("/tmp/fuzz_crashes"))
    parser.add_argument("--hang", type=float, default=30.0, help="seconds before an input "
                        "counts as a hang")  # fmt: skip
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    targets = list(TARGETS) if args.target == "all" else [args.target]
    campaign = Campaign(targets, args.seconds, args.seed, args.out, args.hang)
    try:
        campaign.run()
    except KeyboardInterrupt:
        print("\ninterrupted", flush=True)
    campaign.print_report()
    shutil.rmtree(_CLI_DIR, ignore_errors=True)
    return 1 if campaign.crashes or campaign.watchdog.hangs else 0


if __name__ == "__main__":
    sys.exit(main())
