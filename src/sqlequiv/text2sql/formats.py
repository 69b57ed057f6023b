"""Readers for the files Spider's and BIRD's evaluators take.

Spider (the test-suite evaluator, ``evaluation.py --gold --pred --db --table``):

* the gold file holds one ``SQL<TAB>db_id`` per line; blank lines are skipped
  (SParC and CoSQL use them between interactions);
* the prediction file holds one query per line, in the gold's order. A blank
  line is an empty prediction (graded as an error, never dropped, so the lines
  stay aligned); a line ``SQL<TAB>anything`` keeps the part before the tab,
  as the evaluator does.

BIRD (``evaluation.py --predicted_sql_path --ground_truth_path --diff_json_path``):

* predictions are a JSON object ``{"0": "SQL\\t----- bird -----\\tdb_id", ...}``
  as BIRD's baselines write it; a value that is not a string is an empty
  prediction (the evaluator runs ``" "`` for it);
* the gold is ``dev.sql`` (``SQL<TAB>db_id`` lines, like Spider's) or
  ``dev.json`` (a list of objects with ``SQL``, ``db_id``, ``question``,
  ``evidence``, ``difficulty``); a ``dev.sql`` gold can take its questions and
  difficulties from ``dev.json`` (``diff_json``), as BIRD's evaluator does.

Databases are ``DB_DIR/{db_id}/{db_id}.sqlite`` for both. Every problem with
the input is collected and raised at once as :class:`BenchmarkInputError`,
each naming its file and line (or JSON key): nothing is graded from files
that do not line up.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from sqlequiv.errors import PlainError

Benchmark = Literal["spider", "bird"]
BENCHMARKS: tuple[Benchmark, ...] = ("spider", "bird")

#: BIRD's separator between a predicted query and its db_id.
BIRD_SEPARATOR = "\t----- bird -----\t"
#: Largest input file read, in bytes.
MAX_FILE_BYTES = 512 * 1024 * 1024
#: A db_id names a directory: letters, digits, ``_``, ``-`` and ``.`` (never ``..``).
_DB_ID = re.compile(r"[A-Za-z0-9_\-][A-Za-z0-9_.\-]*")
#: Shown at most this many times per kind of problem, then summarised.
_MAX_PROBLEMS = 20


class BenchmarkInputError(PlainError, ValueError):
    """Benchmark files that cannot be graded; ``problems`` lists every one found.

    Example:
        >>> print(BenchmarkInputError(["gold.sql line 3: expected 'SQL<TAB>db_id'"]))
        gold.sql line 3: expected 'SQL<TAB>db_id'
    """

    SIDE = "benchmark"
    KIND = "invalid_benchmark"

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        super().__init__(self._text())

    def _text(self) -> str:
        shown = self.problems[:_MAX_PROBLEMS]
        if len(self.problems) == 1:
            return shown[0]
        lines = [f"{len(self.problems)} problems:"] + [f"  {p}" for p in shown]
        if len(self.problems) > len(shown):
            lines.append(f"  ... and {len(self.problems) - len(shown)} more")
        return "\n".join(lines)


@dataclass(frozen=True)
class BenchmarkItem:
    """One question of a benchmark run: the gold query, the prediction, where they came from.

    ``index`` is the 0-based position (Spider's line order among gold items,
    BIRD's ``sql_idx``); ``gold_source`` and ``pred_source`` say where in the
    input files the two queries are (``gold.sql:3``, ``predict_dev.json["2"]``).
    """

    index: int
    db_id: str
    gold: str
    pred: str
    question: str | None = None
    evidence: str | None = None
    difficulty: str | None = None
    question_id: int | str | None = None
    gold_source: str = ""
    pred_source: str = ""


# -- files ------------------------------------------------------------------


def read_text(path: str | Path, role: str) -> str:
    """The UTF-8 text of ``path`` (a byte-order mark dropped); problems name the file."""
    path = Path(path)
    if not path.exists():
        raise BenchmarkInputError([f"{role} file not found: {path}"])
    if not path.is_file():
        raise BenchmarkInputError([f"{role} path is not a file: {path}"])
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise BenchmarkInputError(
                [f"{path}: {size} bytes is more than the {MAX_FILE_BYTES}-byte limit"]
            )
        data = path.read_bytes()
    except OSError as err:
        raise BenchmarkInputError(
            [f"cannot read {role} file {path}: {err.strerror or err}"]
        ) from err
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise BenchmarkInputError(
            [f"{path} line {line}: not UTF-8 text (byte {data[err.start]:#04x})"]
        ) from err


def _lines(text: str) -> list[str]:
    """Lines split on ``\\n`` only (a ``\\r`` before it dropped), without the final newline.

    ``str.splitlines`` also splits on form feeds and Unicode separators, which
    may sit inside a string literal of a query.
    """
    if text.endswith("\n"):
        text = text[:-1]
    if not text:
        return []
    return [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]


def _check_db_id(db_id: str, where: str, problems: list[str]) -> bool:
    if not db_id:
        problems.append(f"{where}: the db_id is empty")
        return False
    if not _DB_ID.fullmatch(db_id) or ".." in db_id:
        problems.append(
            f"{where}: {db_id!r} is not a db_id (letters, digits, '_', '-' and '.' only)"
        )
        return False
    return True


def read_gold_sql(path: str | Path) -> list[BenchmarkItem]:
    """Gold items from a ``SQL<TAB>db_id`` file (Spider's gold, BIRD's ``dev.sql``).

    Blank lines are skipped; the predictions are left empty.

    Example:
        >>> import tempfile
        >>> with tempfile.TemporaryDirectory() as d:
        ...     p = Path(d) / "gold.sql"
        ...     _ = p.write_text("SELECT 1\\tdb1\\n\\nSELECT 2\\tdb2\\n")
        ...     [(i.index, i.db_id, i.gold, i.gold_source) for i in read_gold_sql(p)]
        [(0, 'db1', 'SELECT 1', 'gold.sql:1'), (1, 'db2', 'SELECT 2', 'gold.sql:3')]
    """
    path = Path(path)
    text = read_text(path, "gold")
    items: list[BenchmarkItem] = []
    problems: list[str] = []
    for number, line in enumerate(_lines(text), start=1):
        if not line.strip():
            continue
        where = f"{path} line {number}"
        sql, tab, db_id = line.rpartition("\t")
        if not tab:
            problems.append(f"{where}: expected 'SQL<TAB>db_id', found no tab")
            continue
        sql, db_id = sql.strip(), db_id.strip()
        if not sql:
            problems.append(f"{where}: the gold query is empty")
            continue
        if not _check_db_id(db_id, where, problems):
            continue
        items.append(BenchmarkItem(len(items), db_id, sql, "", gold_source=f"{path.name}:{number}"))
    if problems:
        raise BenchmarkInputError(problems)
    if not items:
        raise BenchmarkInputError([f"{path}: no gold queries (the file is empty)"])
    return items


def read_spider(gold: str | Path, pred: str | Path) -> list[BenchmarkItem]:
    """Spider's gold and prediction files, aligned line by line.

    The prediction file must hold one line per gold item; a blank line is an
    empty prediction. Blank lines after the last one needed are ignored (a
    trailing newline or two); any other surplus, or a shortfall, is an error
    that says both counts.
    """
    items = read_gold_sql(gold)
    pred_path = Path(pred)
    lines = _lines(read_text(pred_path, "prediction"))
    while len(lines) > len(items) and not lines[-1].strip():
        lines.pop()
    if len(lines) != len(items):
        raise BenchmarkInputError(
            [
                f"{pred_path} has {len(lines)} prediction lines but {Path(gold)} has "
                f"{len(items)} gold queries: the files must line up, one prediction per "
                "line (an empty line for a missing one)"
            ]
        )
    out = []
    for item, (number, line) in zip(items, enumerate(lines, start=1), strict=True):
        sql = line.split("\t", 1)[0].strip()  # the evaluator keeps the first field
        out.append(replace(item, pred=sql, pred_source=f"{pred_path.name}:{number}"))
    return out


# -- BIRD ---------------------------------------------------------------------


def _load_json(path: Path, role: str) -> Any:
    text = read_text(path, role)
    duplicates: list[str] = []

    def no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        # json keeps the last of two equal keys: a prediction must not vanish silently.
        seen: dict[str, Any] = {}
        for key, value in pairs:
            if key in seen:
                duplicates.append(key)
            seen[key] = value
        return seen

    try:
        data = json.loads(text, object_pairs_hook=no_duplicates)
    except json.JSONDecodeError as err:
        # dev.json may also come as JSON lines (BIRD's mini-dev writes it so).
        if role != "predictions":
            rows = _json_lines(text)
            if rows is not None:
                return rows
        raise BenchmarkInputError(
            [f"{path} line {err.lineno} column {err.colno}: invalid JSON: {err.msg}"]
        ) from err
    if duplicates:
        raise BenchmarkInputError([f"{path}[{key!r}]: the key appears twice" for key in duplicates])
    return data


def _json_lines(text: str) -> list[Any] | None:
    rows = []
    for line in _lines(text):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            return None
    return rows or None


def read_bird_gold_json(path: str | Path) -> list[BenchmarkItem]:
    """Gold items from BIRD's ``dev.json``: a list of ``{"SQL", "db_id", "question",
    "evidence", "difficulty"[, "question_id"]}`` (JSON, or JSON lines)."""
    path = Path(path)
    data = _load_json(path, "gold")
    if not isinstance(data, list):
        raise BenchmarkInputError(
            [f"{path}: expected a JSON list of questions, found a {type(data).__name__}"]
        )
    items: list[BenchmarkItem] = []
    problems: list[str] = []
    for n, entry in enumerate(data):
        where = f"{path} item {n}"
        if not isinstance(entry, dict):
            problems.append(f"{where}: expected an object, found a {type(entry).__name__}")
            continue
        sql = entry.get("SQL", entry.get("query"))
        db_id = entry.get("db_id")
        if not isinstance(sql, str) or not sql.strip():
            problems.append(f"{where}: 'SQL' must be a non-empty string")
            continue
        if not isinstance(db_id, str):
            problems.append(f"{where}: 'db_id' must be a string")
            continue
        if not _check_db_id(db_id.strip(), where, problems):
            continue
        items.append(
            BenchmarkItem(
                len(items),
                db_id.strip(),
                sql.strip(),
                "",
                question=_optional_str(entry.get("question")),
                evidence=_optional_str(entry.get("evidence")),
                difficulty=_optional_str(entry.get("difficulty")),
                question_id=_question_id(entry.get("question_id")),
                gold_source=f"{path.name}[{n}]",
            )
        )
    if problems:
        raise BenchmarkInputError(problems)
    if not items:
        raise BenchmarkInputError([f"{path}: no gold queries (the list is empty)"])
    return items


def _optional_str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _question_id(value: Any) -> int | str | None:
    if isinstance(value, bool):
        return None
    return value if isinstance(value, int | str) else None


def attach_questions(items: list[BenchmarkItem], path: str | Path) -> list[BenchmarkItem]:
    """``items`` with question, evidence and difficulty taken from BIRD's ``dev.json``
    (the evaluator's ``--diff_json_path``), which must list the same questions in order."""
    questions = read_bird_gold_json(path)
    if len(questions) != len(items):
        raise BenchmarkInputError(
            [f"{path} lists {len(questions)} questions but the gold has {len(items)}"]
        )
    problems = [
        f"{path} item {q.index}: db_id {q.db_id!r} does not match {i.gold_source} "
        f"(db_id {i.db_id!r}); the files are not in the same order"
        for i, q in zip(items, questions, strict=True)
        if i.db_id != q.db_id
    ]
    if problems:
        raise BenchmarkInputError(problems)
    return [
        replace(
            i,
            question=q.question,
            evidence=q.evidence,
            difficulty=q.difficulty,
            question_id=q.question_id,
        )
        for i, q in zip(items, questions, strict=True)
    ]


def read_bird(
    pred: str | Path, gold: str | Path, diff_json: str | Path | None = None
) -> list[BenchmarkItem]:
    """BIRD's predictions (JSON, keyed ``"0"``, ``"1"``, ...) aligned with its gold.

    ``gold`` is ``dev.json`` (a ``.json`` or ``.jsonl`` name) or ``dev.sql``.
    The prediction keys must be exactly the gold's indexes; a prediction whose
    db_id differs from the gold's is an error (the files are misaligned).
    """
    gold_path = Path(gold)
    if gold_path.suffix.lower() in {".json", ".jsonl"}:
        items = read_bird_gold_json(gold_path)
    else:
        items = read_gold_sql(gold_path)
    if diff_json is not None:
        items = attach_questions(items, diff_json)
    pred_path = Path(pred)
    data = _load_json(pred_path, "predictions")
    if not isinstance(data, dict):
        raise BenchmarkInputError(
            [
                f"{pred_path}: expected a JSON object "
                '{"0": "SQL\\t----- bird -----\\tdb_id", ...}, '
                f"found a {type(data).__name__}"
            ]
        )
    problems: list[str] = []
    by_index: dict[int, tuple[str, Any]] = {}
    for key, value in data.items():
        if not (isinstance(key, str) and key.strip().isdigit()):
            problems.append(f'{pred_path}[{key!r}]: keys must be item numbers ("0", "1", ...)')
            continue
        index = int(key)
        if index in by_index:
            problems.append(f"{pred_path}[{key!r}]: item {index} appears twice")
            continue
        by_index[index] = (key, value)
    missing = [i for i in range(len(items)) if i not in by_index]
    extra = sorted(i for i in by_index if i >= len(items))
    if missing:
        problems.append(
            f"{pred_path}: no prediction for {len(missing)} of the {len(items)} gold items "
            f"(keys {_some(missing)}); write an empty string for a missing prediction"
        )
    if extra:
        problems.append(
            f"{pred_path}: {len(extra)} predictions past the last of the {len(items)} gold "
            f"items (keys {_some(extra)})"
        )
    out = []
    for item in items:
        if item.index not in by_index:
            continue
        key, value = by_index[item.index]
        where = f"{pred_path}[{key!r}]"
        sql = ""
        if isinstance(value, str):
            sql, sep, db_id = value.partition(BIRD_SEPARATOR)
            sql = sql.strip()
            if sep and db_id.strip() != item.db_id:
                problems.append(
                    f"{where}: the prediction is for db_id {db_id.strip()!r} but "
                    f"{item.gold_source} is for {item.db_id!r}; the files are not aligned"
                )
                continue
        out.append(replace(item, pred=sql, pred_source=f"{pred_path.name}[{key!r}]"))
    if problems:
        raise BenchmarkInputError(problems)
    return out


def _some(indexes: list[int], limit: int = 8) -> str:
    shown = ", ".join(str(i) for i in indexes[:limit])
    return shown + (", ..." if len(indexes) > limit else "")


# -- databases ------------------------------------------------------------------


def database_path(db_dir: str | Path, db_id: str) -> Path:
    """Where both benchmarks keep a database: ``DB_DIR/{db_id}/{db_id}.sqlite``."""
    return Path(db_dir) / db_id / f"{db_id}.sqlite"


def spider_databases(db_dir: str | Path, db_id: str) -> list[Path]:
    """The databases the Spider test-suite evaluator compares on: every ``*.sqlite`` file in
    ``DB_DIR/{db_id}/`` (one for Spider's own databases, several for the test-suite's
    distilled ones), the shipped ``{db_id}.sqlite`` first."""
    main = database_path(db_dir, db_id)
    folder = main.parent
    try:
        others = sorted(
            p for p in folder.iterdir() if p.suffix == ".sqlite" and p.is_file() and p != main
        )
    except OSError:
        others = []
    return ([main] if main.is_file() else []) + others


def check_databases(
    items: Sequence[BenchmarkItem], db_dir: str | Path, tables_json: str | Path | None
) -> None:
    """Raise if a db_id has no database file (every missing one named, with the first
    item that needs it)."""
    root = Path(db_dir)
    if not root.is_dir():
        raise BenchmarkInputError([f"database directory not found: {root}"])
    problems = []
    seen: set[str] = set()
    for item in items:
        if item.db_id in seen:
            continue
        seen.add(item.db_id)
        path = database_path(root, item.db_id)
        if not path.is_file():
            problems.append(
                f"{item.gold_source}: no database for db_id {item.db_id!r} (expected {path})"
            )
    if tables_json is not None and not Path(tables_json).is_file():
        problems.append(f"tables file not found: {tables_json}")
    if problems:
        raise BenchmarkInputError(problems)
