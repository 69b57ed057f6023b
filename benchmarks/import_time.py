"""What the pytest plugin costs a test session that does not use it.

Usage::

    python benchmarks/import_time.py [--repeat N]

Runs ``pytest --co -q`` on a tiny test folder (one test that uses no sqlequiv fixture) in
fresh subprocesses, interleaved, ``--repeat`` times each:

- ``disabled``: ``-p no:sqlequiv``;
- ``plugin``: with the plugin (its entry point, or ``-p sqlequiv.pytest_plugin`` when the
  installed metadata predates it);
- ``eager``: with a module that imports the library at its top (``sqlequiv.testing``) as a
  plugin too: what a plugin that imported sqlglot, z3, DuckDB and Hypothesis eagerly
  would cost.

It prints the median wall time of each and the ratios to ``disabled`` (ratios hold on a
noisy machine; absolute times do not), then ``python -X importtime -c "import
pytest, sqlequiv.pytest_plugin"``: the plugin's own import time and the heavy packages it loaded
(there must be none).
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import sqlequiv

SRC = Path(sqlequiv.__file__).resolve().parents[1]
HEAVY = ("sqlglot", "duckdb", "z3", "hypothesis", "numpy")


def _plugin_flags() -> list[str]:
    installed = any(
        e.name == "sqlequiv" for e in importlib.metadata.entry_points(group="pytest11")
    )
    return [] if installed else ["-p", "sqlequiv.pytest_plugin"]


def _env() -> dict[str, str]:
    path = os.pathsep.join(p for p in (str(SRC), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PYTHONPATH": path}


def _session(folder: Path, flags: list[str]) -> float:
    argv = [sys.executable, "-m", "pytest", "--co", "-q", "-p", "no:cacheprovider", *flags]
    start = time.perf_counter()
    done = subprocess.run(
        [*argv, str(folder)], check=False, cwd=folder, env=_env(), capture_output=True, text=True
    )
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{done.stdout}{done.stderr}")
    return seconds


def _importtime() -> tuple[int, int, list[str]]:
    """The plugin's cumulative import time (us), pytest's, the heavy packages loaded."""
    # pytest first: a session has imported it before it loads any plugin.
    code = "import pytest, sqlequiv.pytest_plugin"
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code],
        env=_env(), capture_output=True, text=True, check=True,
    )  # fmt: skip
    plugin = pytest = 0
    loaded = set()
    for line in done.stderr.splitlines():
        fields = line.removeprefix("import time:").split("|")
        if len(fields) != 3 or not fields[0].strip().isdigit():
            continue  # the header, or another line
        cumulative, raw = int(fields[1]), fields[2]
        name = raw.strip()
        if name == "sqlequiv.pytest_plugin":
            plugin = cumulative
        if name == "pytest":
            pytest = cumulative
        loaded.add(name.split(".")[0])
    return plugin, pytest, sorted(loaded & set(HEAVY))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    variants = {
        "disabled": ["-p", "no:sqlequiv"],
        "plugin": _plugin_flags(),
        "eager": [*_plugin_flags(), "-p", "sqlequiv.testing"],
    }
    times: dict[str, list[float]] = {name: [] for name in variants}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "test_tiny.py").write_text("def test_tiny():\n    assert 1 + 1 == 2\n")
        for flags in variants.values():
            _session(folder, flags)  # warm-up: the file system cache, .pyc files
        for _ in range(args.repeat):
            for name, flags in variants.items():
                times[name].append(_session(folder, flags))
    base = statistics.median(times["disabled"])
    print(f"pytest --co -q on one test, {args.repeat} runs each, median wall time:")
    for name, flags in variants.items():
        median = statistics.median(times[name])
        shown = " ".join(flags) or "(entry point)"
        print(f"  {name:9} {median * 1000:7.0f} ms  x{median / base:.2f}  {shown}")
    runs = [_importtime() for _ in range(args.repeat)]
    plugin = statistics.median(r[0] for r in runs)
    pytest = statistics.median(r[1] for r in runs)
    heavy = sorted({name for r in runs for name in r[2]})
    print('python -X importtime -c "import pytest, sqlequiv.pytest_plugin", median:')
    print(f"  sqlequiv.pytest_plugin {plugin / 1000:.1f} ms cumulative "
          f"(pytest itself: {pytest / 1000:.1f} ms)")  # fmt: skip
    print(f"  heavy packages imported: {', '.join(heavy) or 'none'}")


if __name__ == "__main__":
    main()
