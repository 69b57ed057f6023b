"""The report flags every checking command shares: ``--format``, ``--json``, ``--junit-xml``,
``--unknown-fails``.

One design for ``check``, ``grade``, ``spider``, ``bird`` and ``diff``:

- ``--format`` says what goes to stdout: ``text`` (the default, as before), ``json``
  (``--json`` is its alias), ``junit`` (a JUnit XML document) or ``github`` (GitHub
  Actions annotations, then a summary line);
- ``--junit-xml PATH`` also writes the JUnit XML report to ``PATH``, whatever ``--format``
  says, as pytest's flag of that name does: a CI job takes annotations on stdout and a
  report file for its test-results upload from one run;
- ``--unknown-fails`` makes ``unknown`` a failure in both CI reports (by default JUnit
  ``<skipped>``, a GitHub warning); ``diff`` then also exits 3 on it.

The results file of ``grade``, ``spider`` and ``bird`` (``--out``) is written as before;
the CI reports hold every record of it, resumed ones included.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from sqlequiv.ci_output import Case, render_github, render_junit

#: What ``--format`` may say.
FORMATS = ("text", "json", "junit", "github")


def add_format_options(p: argparse.ArgumentParser, *, text: str, json: str) -> None:
    """Add the report flags to ``p``; ``text`` and ``json`` say what those formats print."""
    p.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help=f"what goes to stdout: text ({text}), json ({json}), junit (JUnit XML), "
        "github (GitHub Actions annotations)",
    )
    p.add_argument(
        "--json", dest="format", action="store_const", const="json", help="--format json"
    )
    p.add_argument(
        "--junit-xml",
        metavar="PATH",
        default=None,
        help="also write a JUnit XML report to PATH, whatever --format says",
    )
    p.add_argument(
        "--unknown-fails",
        action="store_true",
        help="unknown (neither proved nor refuted) is a failure in the JUnit and GitHub "
        "reports, and in diff's exit code (default: JUnit skipped, GitHub warning)",
    )


def ci_report(args: argparse.Namespace, cases: Sequence[Case], *, name: str) -> str | None:
    """Write ``--junit-xml`` if asked; the stdout of ``--format junit|github``, else None
    (``text`` and ``json`` are each command's own).

    Raises:
        OSError: the JUnit file cannot be written.
    """
    unknown_fails = bool(getattr(args, "unknown_fails", False))
    path = getattr(args, "junit_xml", None)
    if path:
        write_atomically(Path(path), render_junit(cases, name=name, unknown_fails=unknown_fails))
    if args.format == "junit":
        return render_junit(cases, name=name, unknown_fails=unknown_fails).rstrip("\n")
    if args.format == "github":
        return render_github(cases, unknown_fails=unknown_fails)
    return None


def wants_cases(args: argparse.Namespace) -> bool:
    """Whether the flags ask for a CI report (so the command builds its cases)."""
    return args.format in ("junit", "github") or bool(getattr(args, "junit_xml", None))


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file: a reader never sees half of it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def display_path(path: str) -> str:
    """``path`` as an annotation wants it: relative to the working directory when inside
    it (GitHub resolves annotation files from the workspace root), with ``/``."""
    try:
        relative = Path(path).resolve().relative_to(Path.cwd().resolve())
    except (ValueError, OSError):
        return Path(path).as_posix()
    return relative.as_posix()
