"""Which SQL queries changed in a git repository, and whether each still returns the same rows.

:func:`diff_queries` is the library side of ``sqlequiv diff``: for every changed ``.sql``
file it checks the new version of each query (the working tree, or the index with
``staged``) against its version at a revision (``HEAD`` by default), the old version
being the reference: what must still come back. A file holding several queries is split
into statements (sqlglot's tokenizer, so a ``;`` inside a string or a comment splits
nothing) and its queries are paired by position; when the two versions hold different
numbers of queries no pairing is trusted and the file is reported as not paired.

Git is read through its command line only (``git rev-parse``, ``git diff --name-status
-z``, ``git ls-files``, ``git show REV:path``), never by reading ``.git``; whatever git
refuses (not a repository, an unknown revision, a path outside the repository) is a
:class:`GitError` saying so.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import sqlglot
from sqlglot import Token, TokenType

from sqlequiv.api import check
from sqlequiv.errors import PlainError
from sqlequiv.options import Options
from sqlequiv.schema import Schema
from sqlequiv.verdict import Verdict

__all__ = [
    "DiffResult",
    "FileChange",
    "GitError",
    "QueryChange",
    "Repository",
    "Statement",
    "diff_queries",
    "split_statements",
]

#: Largest query file read, in bytes (``sqlequiv check`` reads no more either).
MAX_FILE = 10 * 1024 * 1024

#: How a changed file fared: its queries were ``checked`` pair by pair; it is new
#: (``added``) or gone (``deleted``) so there is nothing to compare; the two versions hold
#: different numbers of queries (``unpaired``); or a version cannot be read as SQL text
#: (``unreadable``: not UTF-8, too large, an unclosed string or comment).
FileStatus = Literal["checked", "added", "deleted", "unpaired", "unreadable"]

#: A query's outcome: a verdict of :func:`sqlequiv.check`, or ``unchanged`` (the same
#: text in both versions: nothing was run).
QueryStatus = Literal["equivalent", "not_equivalent", "unknown", "error", "unchanged"]


class GitError(PlainError, RuntimeError):
    """Git cannot answer: not a repository, an unknown revision, git missing, ...

    Example:
        >>> str(GitError("not a git repository: /tmp"))
        'not a git repository: /tmp'
    """

    SIDE = "git"
    KIND = "git"


#: Runs one git command: ``(arguments after "git", working directory) -> completed process``
#: with stdout and stderr as bytes (injected so that a caller may wrap or replace git).
Runner = Callable[[Sequence[str], Path], "subprocess.CompletedProcess[bytes]"]


def _run_git(arguments: Sequence[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(
            ["git", *arguments],
            cwd=cwd,
            capture_output=True,
            check=False,
            # No pager, no prompt for credentials, the C locale's messages.
            env={**os.environ, "GIT_PAGER": "cat", "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"},
        )
    except FileNotFoundError as err:
        if err.filename == "git":
            raise GitError("git is not installed (sqlequiv diff runs the git command)") from err
        raise GitError(f"not a git repository: {cwd} does not exist") from err
    except OSError as err:
        raise GitError(f"cannot run git in {cwd}: {err.strerror}") from err


class Repository:
    """A git repository seen through ``git``'s command line, from a working directory.

    Paths given to it (pathspecs) are relative to ``cwd``, as on git's command line;
    paths it returns are relative to the top of the working tree, with ``/``.
    """

    def __init__(self, cwd: Path, root: Path, runner: Runner = _run_git) -> None:
        self.cwd = cwd
        self.root = root
        self._runner = runner

    @classmethod
    def open(cls, cwd: str | Path | None = None, *, runner: Runner = _run_git) -> Repository:
        """The repository holding ``cwd`` (default: the working directory).

        Raises:
            GitError: ``cwd`` is not inside a git working tree.
        """
        where = Path(cwd if cwd is not None else os.getcwd())
        done = runner(["rev-parse", "--show-toplevel"], where)
        if done.returncode != 0:
            raise GitError(f"not a git repository: {where} ({_stderr(done)})")
        return cls(where, Path(os.fsdecode(done.stdout.strip())), runner)

    def git(self, *arguments: str, at: Path | None = None) -> bytes:
        """The stdout of ``git ARGUMENTS`` run in :attr:`cwd` (or ``at``).

        Raises:
            GitError: git fails.
        """
        done = self._runner(["--literal-pathspecs", *arguments], at or self.cwd)
        if done.returncode != 0:
            raise GitError(f"git {' '.join(arguments)}: {_stderr(done)}")
        return done.stdout

    def commit(self, rev: str) -> str | None:
        """The commit ``rev`` names (its full hash), or None if it names none."""
        if rev.startswith("-"):
            return None
        done = self._runner(["rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"], self.cwd)
        return done.stdout.decode().strip() if done.returncode == 0 else None

    def short(self, commit: str) -> str:
        """The abbreviated hash of ``commit``."""
        return self.git("rev-parse", "--short", commit).decode().strip()

    def changes(self, commit: str, paths: Sequence[str], *, staged: bool) -> list[tuple[str, str]]:
        """``(status letter, path)`` of every file that differs between ``commit`` and the
        working tree (or the index, ``staged``), untracked files included as ``A`` in the
        working-tree mode."""
        fields = self.git(
            "diff", "--name-status", "-z", "--no-renames", "--no-ext-diff",
            *(["--cached"] if staged else []), commit, "--", *paths,
        ).split(b"\0")  # fmt: skip
        found = [
            (os.fsdecode(status)[:1], os.fsdecode(path))
            for status, path in zip(fields[0::2], fields[1::2], strict=False)
            if status and path
        ]
        if not staged:
            # Without paths, from the root: ls-files lists only the cwd's subtree (diff the
            # whole tree).
            untracked = self.git(
                "ls-files", "--others", "--exclude-standard", "--full-name", "-z", "--", *paths,
                at=None if paths else self.root,
            )  # fmt: skip
            found.extend(("A", os.fsdecode(p)) for p in untracked.split(b"\0") if p)
        return found

    def show(self, spec: str) -> bytes:
        """The content of ``REV:path`` (``:path`` for the index)."""
        return self.git("show", "--no-textconv", spec)

    def relative(self, path: str | Path) -> str | None:
        """``path`` (relative to :attr:`cwd`) relative to the root, or None when outside it."""
        try:
            absolute = (self.cwd / path).resolve()
            return absolute.relative_to(self.root.resolve()).as_posix()
        except (ValueError, OSError):
            return None


@dataclass(frozen=True)
class Statement:
    """One statement of a file: its text (without the ``;``) and its 1-based first line."""

    text: str
    line: int


def split_statements(sql: str, dialect: str = "duckdb") -> list[Statement]:
    """The statements of ``sql``, split at the ``;`` tokens sqlglot's tokenizer finds.

    Raises:
        ValueError: the text cannot be tokenized (an unclosed string or comment).

    Example:
        >>> [(s.text, s.line) for s in split_statements("SELECT ';' AS a;\\n\\nSELECT 2;")]
        [("SELECT ';' AS a", 1), ('SELECT 2', 3)]
    """
    try:
        tokens = sqlglot.Dialect.get_or_raise(dialect).tokenize(sql)
    except Exception as err:  # sqlglot's TokenError, or an IndexError on an open comment
        raise ValueError(f"cannot split the file into statements: {err}") from err
    statements: list[Statement] = []
    first: Token | None = None
    last: Token | None = None
    for token in [*tokens, None]:
        if token is None or token.token_type == TokenType.SEMICOLON:
            if first is not None and last is not None:
                statements.append(Statement(sql[first.start : last.end + 1], first.line))
            first = last = None
        else:
            first = first or token
            last = token
    return statements


@dataclass(frozen=True)
class QueryChange:
    """One query of a checked file: its position, its line and the verdict on it."""

    #: 1-based position of the query in the file.
    index: int
    #: 1-based first line of the query in the new version.
    line: int
    status: QueryStatus
    #: The verdict of the new version (candidate) against the old one (reference); None
    #: for an ``unchanged`` query.
    verdict: Verdict | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "line": self.line,
            "status": self.status,
            "verdict": self.verdict.to_dict() if self.verdict is not None else None,
        }


@dataclass(frozen=True)
class FileChange:
    """A changed ``.sql`` file and what became of its queries."""

    #: Relative to the top of the working tree, with ``/``.
    path: str
    status: FileStatus
    #: How many queries each version holds (None for the version that does not exist or
    #: cannot be read).
    old_count: int | None
    new_count: int | None
    queries: tuple[QueryChange, ...] = ()
    #: Why the file was not checked, in words (for every status but ``checked``).
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "status": self.status,
            "old_count": self.old_count,
            "new_count": self.new_count,
            "note": self.note,
            "queries": [q.to_dict() for q in self.queries],
        }


@dataclass(frozen=True)
class DiffResult:
    """What :func:`diff_queries` found."""

    root: Path
    #: The revision as given, and its abbreviated commit hash.
    rev: str
    commit: str
    staged: bool
    files: tuple[FileChange, ...]
    #: Set when the schema file itself differs from the revision: the working tree's
    #: version was used for both versions of every query.
    schema_note: str | None = None

    def to_dict(self, *, unknown_fails: bool = False) -> dict[str, Any]:
        """Every key, always (``sqlequiv diff --json``)."""
        return {
            "root": str(self.root),
            "rev": self.rev,
            "commit": self.commit,
            "staged": self.staged,
            "schema_note": self.schema_note,
            "files": [f.to_dict() for f in self.files],
            "exit_code": self.exit_code(unknown_fails=unknown_fails),
        }

    @property
    def new_side(self) -> str:
        """What the new versions are: ``the index`` or ``the working tree``."""
        return "the index" if self.staged else "the working tree"

    def exit_code(self, *, unknown_fails: bool = False) -> int:
        """1 when a query is not equivalent; else 2 when one is an ``error`` or a file is
        unreadable; else 3 when ``unknown_fails`` and a query is unknown or a file's
        queries cannot be paired; else 0.

        Example:
            >>> DiffResult(Path("."), "HEAD", "abc", False, ()).exit_code()
            0
        """
        statuses = {q.status for f in self.files for q in f.queries}
        files = {f.status for f in self.files}
        if "not_equivalent" in statuses:
            return 1
        if "error" in statuses or "unreadable" in files:
            return 2
        if unknown_fails and ("unknown" in statuses or "unpaired" in files):
            return 3
        return 0


def diff_queries(
    schema: Schema,
    dialect: str = "duckdb",
    options: Options | None = None,
    *,
    rev: str = "HEAD",
    paths: Sequence[str] = (),
    staged: bool = False,
    repository: Repository | None = None,
    schema_path: str | Path | None = None,
    engine: str | None = None,
) -> DiffResult:
    """Check every changed query of the repository against its version at ``rev``.

    ``paths`` limit the files looked at (git pathspecs, relative to the repository's
    working directory); only files ending in ``.sql`` are read, and ``schema_path``, the
    file the schema came from, is never read as queries. ``staged`` compares the index
    (what the next commit holds) instead of the working tree.

    Raises:
        GitError: git refuses (not a repository, ``rev`` names no commit, a path outside
            the repository).
    """
    repo = repository or Repository.open()
    commit = repo.commit(rev)
    if commit is None:
        raise GitError(f"unknown revision {rev!r}: it names no commit of {repo.root}")
    schema_rel = repo.relative(schema_path) if schema_path is not None else None
    changes = repo.changes(commit, paths, staged=staged)
    short = repo.short(commit)
    schema_note = None
    if schema_rel is not None and any(path == schema_rel for _, path in changes):
        schema_note = (
            f"the schema {schema_rel} differs from {rev} ({short}): both versions of every "
            "query are checked against the working tree's schema"
        )
    files = []
    for status, path in sorted(set(changes), key=lambda change: change[1]):
        if not path.lower().endswith(".sql") or path == schema_rel:
            continue
        files.append(
            _file_change(repo, rev, commit, path, status, staged, schema, dialect, options, engine)
        )
    return DiffResult(repo.root, rev, short, staged, tuple(files), schema_note)


def _file_change(
    repo: Repository,
    rev: str,
    commit: str,
    path: str,
    status: str,
    staged: bool,
    schema: Schema,
    dialect: str,
    options: Options | None,
    engine: str | None,
) -> FileChange:
    old = None if status == "A" else _text(repo, f"{commit}:{path}", None)
    new = None
    if status != "D":
        new = _text(repo, f":{path}", None) if staged else _text(repo, None, repo.root / path)
    if isinstance(old, ValueError) or isinstance(new, ValueError):
        why = old if isinstance(old, ValueError) else new
        return FileChange(path, "unreadable", None, None, note=str(why))
    try:
        before = split_statements(old, dialect) if old is not None else None
        after = split_statements(new, dialect) if new is not None else None
    except ValueError as err:
        return FileChange(path, "unreadable", None, None, note=str(err))
    old_count = len(before) if before is not None else None
    new_count = len(after) if after is not None else None
    if before is None:
        return FileChange(
            path, "added", None, new_count, note=f"new file, not at {rev}: nothing to compare"
        )
    if after is None:
        return FileChange(
            path, "deleted", old_count, None, note=f"deleted since {rev}: nothing to compare"
        )
    if len(before) != len(after):
        return FileChange(
            path,
            "unpaired",
            old_count,
            new_count,
            note=f"{_queries(len(before))} at {rev}, {_queries(len(after))} now: they cannot "
            "be paired by position, so none was checked",
        )
    queries = []
    for index, (was, now) in enumerate(zip(before, after, strict=True), start=1):
        if was.text == now.text:
            queries.append(QueryChange(index, now.line, "unchanged"))
            continue
        verdict = check(now.text, was.text, schema, dialect, options, engine=engine)
        queries.append(QueryChange(index, now.line, verdict.verdict, verdict))
    return FileChange(path, "checked", old_count, new_count, tuple(queries))


def _text(repo: Repository, spec: str | None, file: Path | None) -> str | ValueError:
    """A version's text (``git show SPEC`` or the file), or the ValueError saying why not."""
    try:
        if spec is not None:
            data = repo.show(spec)
        else:
            assert file is not None
            with open(file, "rb") as handle:
                data = handle.read(MAX_FILE + 1)
    except GitError as err:  # an unmerged path has no version in the index
        return ValueError(str(err))
    except OSError as err:
        return ValueError(f"cannot read {file}: {err.strerror}")
    if len(data) > MAX_FILE:
        return ValueError(f"larger than {MAX_FILE} bytes")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        return ValueError(f"not UTF-8 text ({err.reason} at byte {err.start})")


def _queries(n: int) -> str:
    return f"{n} query" if n == 1 else f"{n} queries"


def _stderr(done: subprocess.CompletedProcess[bytes]) -> str:
    text = done.stderr.decode("utf-8", "replace").strip()
    return text.splitlines()[-1] if text else f"git exited {done.returncode}"
