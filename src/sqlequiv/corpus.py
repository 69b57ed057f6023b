"""The corpus of labelled query pairs: parse ``corpus/*.sql`` into :class:`CorpusCase` values.

The corpus is data, in the shape of sqlglot's optimizer fixtures: a person adds a
case by writing a few ``# key: value`` lines and two SQL statements, no Python.
The format is documented in ``corpus/README.md``; in short::

    # schema: shop
    # dialect: duckdb

    # title: COUNT(*) vs COUNT(o.order_id) under a LEFT JOIN
    # expect: not_equivalent
    # cause: same_keys_different_values
    SELECT ... ;          <- the candidate: ends on a line that ends in ';'
    SELECT ... ;          <- the reference

Lines before the first ``# title:`` are the file header (``schema`` and
``dialect`` only); each case starts at its ``# title:`` line. A ``#`` line that
is not ``# key: value`` with a lower-case key is a comment. Every malformed
input raises :class:`CorpusError` (a ``ValueError``) naming the file and line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal, cast, get_args

from sqlglot.dialects.dialect import Dialect

from sqlequiv.errors import PlainError
from sqlequiv.verdict import CAUSES as VERDICT_CAUSES

__all__ = [
    "CAUSES",
    "EXPECTS",
    "METHODS",
    "CorpusCase",
    "CorpusError",
    "Expect",
    "default_root",
    "load_corpus",
    "load_file",
    "slugify",
]

Expect = Literal["equivalent", "not_equivalent", "error"]

EXPECTS: Final[tuple[str, ...]] = get_args(Expect)
CAUSES: Final[tuple[str, ...]] = VERDICT_CAUSES
METHODS: Final[tuple[str, ...]] = ("normalized", "symbolic", "constant")

_HEADER_KEYS: Final = frozenset({"schema", "dialect"})
_CASE_KEYS: Final = frozenset(
    {"title", "expect", "cause", "method", "kind", "note", "schema", "dialect"}
)
# "# key: value" with a lower-case key is metadata; any other "#" line is a comment.
_META: Final = re.compile(r"^#\s*([a-z_]+)\s*:\s*(.*?)\s*$")
_NAME: Final = re.compile(r"^[a-z][a-z0-9_]*$")
_DEFAULT_DIALECT: Final = "duckdb"


class CorpusError(PlainError, ValueError):
    """A corpus file that does not follow the format.

    Carries the offending ``file`` and 1-based ``line`` as fields, and names both
    in its message.

    Example:
        >>> str(CorpusError(Path("corpus/traps.sql"), 12, "missing '# expect:'"))
        "corpus/traps.sql:12: missing '# expect:'"
    """

    SIDE = "corpus"
    KIND = "invalid_corpus"

    def __init__(self, file: Path, line: int, message: str) -> None:
        self.file = file
        super().__init__(message, line=line)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


@dataclass(frozen=True)
class CorpusCase:
    """One labelled pair: a candidate, a reference and the truth about them.

    ``expect`` is the truth (``equivalent`` means equal bags of rows on every
    database the schema allows); ``cause`` is what a good explainer says for a
    ``not_equivalent`` pair; ``method`` marks equivalent pairs that the
    normalizer alone must prove; ``kind`` is the error kind of an ``error`` case.
    """

    id: str
    title: str
    file: Path
    line: int
    schema_name: str
    schema_ddl: str
    dialect: str
    candidate: str
    reference: str
    expect: Expect
    cause: str | None
    method: str | None
    kind: str | None
    note: str | None


def default_root() -> Path:
    """The repository's ``corpus/`` directory (located relative to this file)."""
    return Path(__file__).resolve().parents[2] / "corpus"


def slugify(title: str) -> str:
    """The id-safe form of a case title.

    Example:
        >>> slugify("COUNT(*) vs COUNT(o.order_id) under LEFT JOIN")
        'count-vs-count-o-order-id-under-left-join'
    """
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def load_corpus(root: Path | str | None = None) -> list[CorpusCase]:
    """Load every pair file ``<root>/*.sql``, with schemas from ``<root>/schemas/*.sql``.

    Args:
        root: the corpus directory; the repository's ``corpus/`` when omitted.

    Returns:
        The cases of all files, files in name order, cases in file order.

    Raises:
        CorpusError: a malformed file (names the file and line).
        FileNotFoundError: ``root`` is not a directory.
    """
    root = default_root() if root is None else Path(root)
    if not root.is_dir():
        raise FileNotFoundError(f"corpus directory not found: {root}")
    schemas = _load_schemas(root / "schemas")
    cases: list[CorpusCase] = []
    for path in sorted(root.glob("*.sql")):
        cases.extend(load_file(path, schemas))
    return cases


def load_file(path: Path, schemas: dict[str, str] | Path | None = None) -> list[CorpusCase]:
    """Parse one pair file.

    Args:
        path: the pair file.
        schemas: schema name -> DDL, or a directory of ``<name>.sql`` files;
            by default the ``schemas/`` directory beside ``path``.

    Raises:
        CorpusError: a malformed file (names the file and line).
    """
    if schemas is None:
        schemas = path.parent / "schemas"
    if isinstance(schemas, Path):
        schemas = _load_schemas(schemas)
    return _Parser(path, schemas).parse(path.read_text(encoding="utf-8"))


def _load_schemas(directory: Path) -> dict[str, str]:
    if not directory.is_dir():
        return {}
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted(directory.glob("*.sql"))}


@dataclass
class _Draft:
    """A case being read: its metadata (value and line) and statements so far."""

    line: int
    meta: dict[str, tuple[str, int]]
    statements: list[str]
    pending: list[str]
    pending_line: int = 0


class _Parser:
    def __init__(self, path: Path, schemas: dict[str, str]) -> None:
        self.path = path
        self.schemas = schemas
        self.header: dict[str, tuple[str, int]] = {}
        self.cases: list[CorpusCase] = []
        self.seen: dict[str, int] = {}

    def error(self, line: int, message: str) -> CorpusError:
        return CorpusError(self.path, line, message)

    def parse(self, text: str) -> list[CorpusCase]:
        draft: _Draft | None = None
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            meta = _META.match(line) if line.startswith("#") else None
            if not line or (line.startswith("#") and meta is None):
                # Blank lines and comments; a blank line inside a statement is kept.
                if draft is not None and draft.pending and not line:
                    draft.pending.append("")
                continue
            if meta is not None:
                key, value = meta.group(1), meta.group(2)
                if key == "title":
                    if draft is not None:
                        self.finish(draft, number)
                    draft = _Draft(number, {}, [], [])
                if draft is None:
                    self.header_line(key, value, number)
                    continue
                if draft.statements or draft.pending:
                    raise self.error(
                        number,
                        f"'# {key}:' after the queries of the case at line {draft.line}: "
                        "metadata goes before the two queries, and a new case starts "
                        "with '# title:'",
                    )
                self.case_line(draft, key, value, number)
                continue
            if draft is None:
                raise self.error(number, "SQL before the first '# title:' line")
            if len(draft.statements) == 2:
                raise self.error(
                    number,
                    f"case {draft.meta['title'][0]!r} (line {draft.line}) has more than two "
                    "statements (a candidate and a reference, each ending with ';')",
                )
            if not draft.pending:
                draft.pending_line = number
            draft.pending.append(raw.rstrip())
            if line.endswith(";"):
                draft.statements.append(_statement(draft.pending))
                draft.pending = []
        if draft is not None:
            self.finish(draft, len(text.splitlines()) + 1)
        return self.cases

    def header_line(self, key: str, value: str, number: int) -> None:
        if key not in _HEADER_KEYS:
            raise self.error(
                number,
                f"'# {key}:' before the first '# title:'; the file header takes only "
                "'# schema:' and '# dialect:' (start each case with '# title:')",
            )
        if key in self.header:
            raise self.error(number, f"duplicate '# {key}:' in the file header")
        self.header[key] = (value, number)

    def case_line(self, draft: _Draft, key: str, value: str, number: int) -> None:
        if key not in _CASE_KEYS:
            raise self.error(
                number, f"unknown metadata key {key!r}; expected one of {sorted(_CASE_KEYS)}"
            )
        if key in draft.meta:
            raise self.error(number, f"duplicate '# {key}:' in one case")
        if not value:
            raise self.error(number, f"'# {key}:' has no value")
        draft.meta[key] = (value, number)

    def finish(self, draft: _Draft, end_line: int) -> None:
        meta = draft.meta
        title = meta["title"][0]
        if draft.pending:
            raise self.error(
                draft.pending_line,
                f"case {title!r}: statement does not end with ';' "
                "(each query ends on a line that ends in ';')",
            )
        if len(draft.statements) != 2:
            raise self.error(
                draft.line,
                f"case {title!r} has {len(draft.statements)} statement(s), expected exactly "
                "two: the candidate, then the reference, each ending with ';'",
            )

        slug = slugify(title)
        if not slug:
            raise self.error(draft.line, f"title {title!r} has no letters or digits")
        if slug in self.seen:
            raise self.error(
                draft.line,
                f"duplicate title {title!r} (same id as the case at line {self.seen[slug]})",
            )
        self.seen[slug] = draft.line

        if "expect" not in meta:
            raise self.error(draft.line, f"case {title!r} has no '# expect:' line")
        expect, expect_line = meta["expect"]
        if expect not in EXPECTS:
            raise self.error(expect_line, f"expect={expect!r} must be one of {list(EXPECTS)}")

        cause = self.optional(meta, "cause", CAUSES, allowed_for="not_equivalent", expect=expect)
        method = self.optional(meta, "method", METHODS, allowed_for="equivalent", expect=expect)
        kind = self.optional(meta, "kind", None, allowed_for="error", expect=expect)

        schema_name, schema_line = meta.get("schema") or self.header.get("schema") or ("", 0)
        if not schema_name:
            raise self.error(
                draft.line, f"case {title!r} has no schema: add '# schema:' to it or the file"
            )
        if schema_name not in self.schemas:
            raise self.error(
                schema_line,
                f"unknown schema {schema_name!r}; known: {sorted(self.schemas)} "
                "(a schema is a file schemas/<name>.sql)",
            )

        dialect, dialect_line = (
            meta.get("dialect")
            or self.header.get("dialect")
            or (
                _DEFAULT_DIALECT,
                draft.line,
            )
        )
        try:
            Dialect.get_or_raise(dialect)
        except ValueError as err:
            raise self.error(dialect_line, f"unknown dialect {dialect!r}: {err}") from None

        note = meta["note"][0] if "note" in meta else None
        self.cases.append(
            CorpusCase(
                id=f"{self.path.stem}/{slug}",
                title=title,
                file=self.path,
                line=draft.line,
                schema_name=schema_name,
                schema_ddl=self.schemas[schema_name],
                dialect=dialect,
                candidate=draft.statements[0],
                reference=draft.statements[1],
                expect=cast(Expect, expect),
                cause=cause,
                method=method,
                kind=kind,
                note=note,
            )
        )

    def optional(
        self,
        meta: dict[str, tuple[str, int]],
        key: str,
        values: tuple[str, ...] | None,
        *,
        allowed_for: str,
        expect: str,
    ) -> str | None:
        if key not in meta:
            return None
        value, number = meta[key]
        if expect != allowed_for:
            raise self.error(number, f"'# {key}:' is only for '# expect: {allowed_for}' cases")
        if values is not None and value not in values:
            raise self.error(number, f"{key}={value!r} must be one of {list(values)}")
        if values is None and not _NAME.match(value):
            raise self.error(number, f"{key}={value!r} must be a lower_snake_case name")
        return value


def _statement(lines: list[str]) -> str:
    """Join a statement's lines and drop the one ``;`` that ends it."""
    text = "\n".join(lines).strip()
    return text[:-1].rstrip()
