"""Load and validate a suite (YAML or JSONL), reporting every problem at once.

Loading happens in two steps so that a worker on another machine can rebuild
the suite without the suite's directory: :func:`read_document` reads the
file and every file it names (schemas, fixture scripts, predicate modules)
into a :class:`SuiteDocument` of plain data; :func:`build_suite` turns a
document into a validated :class:`~sqlequiv.suite.model.Suite`.

Example:
    >>> doc = SuiteDocument({"items": [{
    ...     "id": "q1", "question": "All ids?", "reference_kind": "query",
    ...     "schema": "CREATE TABLE t (id INT PRIMARY KEY)",
    ...     "accepted_references": [{"name": "plain", "sql": "SELECT id FROM t"}],
    ...     "fixtures": [{"name": "two", "rows": {"t": [{"id": 1}, {"id": 2}]}}]}]})
    >>> suite = build_suite(doc)
    >>> suite.item("q1").fixtures[0].database.rows("t")
    ((1,), (2,))
    >>> build_suite(SuiteDocument({"items": [{"id": "q2", "questoin": "?"}]}))
    Traceback (most recent call last):
    ...
    sqlequiv.suite.load.SuiteError: 4 problems in the suite:
      item q2 (items[0]): questoin: unknown field (did you mean 'question'?)
      item q2 (items[0]): question: required
      item q2 (items[0]): schema: required
      item q2 (items[0]): reference_kind: required (query or predicate)
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import inspect
import json
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, cast

import sqlglot

from sqlequiv.errors import PlainError, SchemaError
from sqlequiv.schema import Schema, load_schema, parse_mapping
from sqlequiv.schema.jsontext import MAX_NESTING, load_json_text, too_deep
from sqlequiv.schema.load import load_yaml_text
from sqlequiv.suite.fixtures import FixtureError, rows_database, script_database
from sqlequiv.suite.model import REFERENCE_KINDS, Fixture, Item, Reference, ReferenceKind, Suite

_SUITE_KEYS = ("suite", "description", "dialect", "schemas", "fixtures", "data", "items")
_ITEM_KEYS = (
    "id",
    "question",
    "clarification",
    "schema",
    "dialect",
    "reference_kind",
    "accepted_references",
    "fixtures",
    "predicate",
    "data",
    "difficulty",
    "tags",
    "meta",
)
_REFERENCE_KEYS = ("name", "sql")
_FIXTURE_KEYS = ("name", "description", "rows", "sql", "file")
_FIXTURE_SOURCES = ("rows", "sql", "file")
#: Largest suite or referenced file read, in bytes.
_MAX_FILE = 50 * 1024 * 1024


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a suite, located by item and field."""

    field: str
    message: str
    item_id: str | None = None
    index: int | None = None

    def __str__(self) -> str:
        where = ""
        if self.index is not None:
            where = f"item {self.item_id or '?'} (items[{self.index}]): "
        return f"{where}{self.field}: {self.message}"


class SuiteError(PlainError, ValueError):
    """A suite that does not load; ``problems`` lists everything found, not only the first."""

    SIDE = "suite"
    KIND = "invalid_suite"

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        noun = "problem" if len(problems) == 1 else "problems"
        lines = "\n".join(f"  {p}" for p in problems)
        super().__init__(f"{len(problems)} {noun} in the suite:\n{lines}")


@dataclass(frozen=True)
class SuiteDocument:
    """A suite as plain data, with the text of every file it names.

    ``files`` maps a path as written in the suite (relative to ``base_dir``)
    to its text; a document can be pickled or sent as JSON to a worker that
    has no access to the suite's directory.

    ``allow_outside_paths`` lets the files it names lie outside ``base_dir`` (see
    :func:`read_document`).
    """

    data: Mapping[str, Any]
    base_dir: str | None = None
    files: Mapping[str, str] = field(default_factory=dict)
    path: str | None = None
    allow_outside_paths: bool = False


def load_suite(path: str | Path, *, allow_outside_paths: bool = False) -> Suite:
    """Read, validate and build the suite at ``path`` (``.yaml``/``.yml`` or ``.jsonl``)."""
    return build_suite(read_document(path, allow_outside_paths=allow_outside_paths))


def read_document(path: str | Path, *, allow_outside_paths: bool = False) -> SuiteDocument:
    """Read a suite file and every schema, fixture script and predicate module it names.

    The files a suite names must lie inside its directory (after resolving ``..`` and
    symbolic links): a suite is often someone else's, and an absolute path or a ``../``
    would otherwise read any file the grader can, or import and run any Python file as a
    predicate. A file outside is not read at all, and :func:`build_suite` reports its path;
    ``allow_outside_paths=True`` (``sqlequiv grade --allow-outside-paths``) allows it.
    """
    path = Path(path)
    text = _read_text(path)
    if path.suffix.lower() == ".jsonl":
        data: Any = {"items": _jsonl_items(text)}
    else:
        try:
            data = load_yaml_text(text)
        except SchemaError as err:
            where = f" (line {err.line})" if err.line is not None else ""
            raise SuiteError([Problem("file", f"{path}: {err.message}{where}")]) from err
        if not isinstance(data, Mapping):
            raise SuiteError([Problem("file", f"{path}: expected a mapping with `items`")])
    base = path.resolve().parent
    files: dict[str, str] = {}
    for name in _named_files(data):
        candidate = base / name
        if not allow_outside_paths and outside(name, base) is not None:
            continue  # never read; reported, with its field, by build_suite
        try:
            if candidate.is_file():
                files[name] = _read_text(candidate)
        except (OSError, ValueError, SuiteError):
            continue  # reported, with its field, by build_suite
    return SuiteDocument(data, str(base), files, str(path), allow_outside_paths)


def build_suite(document: SuiteDocument) -> Suite:
    """Validate every item of ``document`` and build the suite; raise :class:`SuiteError`
    listing every problem."""
    # A document built by a caller (not read by read_document) is measured here: the builder
    # and every json.dumps of an item's meta recurse once per level.
    problem = too_deep(document.data)
    if problem is not None:
        raise SuiteError([Problem("file", f"the suite is {problem}")])
    return _Builder(document).build()


class _Builder:
    def __init__(self, document: SuiteDocument) -> None:
        self.doc = document
        self.problems: list[Problem] = []
        self.base = Path(document.base_dir) if document.base_dir else None
        self.allow_outside = document.allow_outside_paths
        self._schemas: dict[tuple[str, str], Schema | None] = {}
        self._fixture_dbs: dict[tuple[str, int], Fixture | None] = {}

    def build(self) -> Suite:
        data = self.doc.data
        self._unknown_keys(data, _SUITE_KEYS, "suite", None, None)
        dialect = data.get("dialect", "duckdb")
        if not self._dialect_ok(dialect, "dialect", None, None):
            dialect = "duckdb"
        named_schemas = data.get("schemas") or {}
        if not isinstance(named_schemas, Mapping):
            self._problem("schemas", "expected a mapping of name -> schema")
            named_schemas = {}
        self.named_schemas = named_schemas
        named_fixtures = data.get("fixtures") or {}
        if not isinstance(named_fixtures, Mapping):
            self._problem("fixtures", "expected a mapping of name -> fixture")
            named_fixtures = {}
        self.named_fixtures: dict[str, Mapping[str, Any]] = {}
        for name, spec in named_fixtures.items():
            if self._fixture_spec_ok(spec, f"fixtures.{name}", None, None, named=True):
                self.named_fixtures[str(name)] = spec
        self.suite_data = self._data_path(data.get("data"), None, None)
        raw_items = data.get("items")
        if not isinstance(raw_items, list) or not raw_items:
            self._problem("items", "expected a non-empty list of items")
            raw_items = []
        items: list[Item] = []
        seen: dict[str, int] = {}
        for index, raw in enumerate(raw_items):
            item = self._item(raw, index, dialect, seen)
            if item is not None:
                items.append(item)
        if self.problems:
            raise SuiteError(self.problems)
        name = data.get("suite")
        return Suite(
            tuple(items),
            name=str(name) if name is not None else None,
            path=Path(self.doc.path) if self.doc.path else None,
        )

    # -- items ---------------------------------------------------------------

    def _item(
        self, raw: Any, index: int, default_dialect: str, seen: dict[str, int]
    ) -> Item | None:
        if not isinstance(raw, Mapping):
            self._problem("item", "expected a mapping", None, index)
            return None
        item_id = raw.get("id")
        if isinstance(item_id, int) and not isinstance(item_id, bool):
            item_id = str(item_id)
        before = len(self.problems)
        shown = item_id if isinstance(item_id, str) else None
        self._unknown_keys(raw, _ITEM_KEYS, None, shown, index)
        if not isinstance(item_id, str) or not item_id.strip():
            self._problem("id", "required: a non-empty string", shown, index)
        elif item_id in seen:
            self._problem("id", f"duplicate id (also items[{seen[item_id]}])", shown, index)
        else:
            seen[item_id] = index
        question = raw.get("question")
        if not isinstance(question, str) or not question.strip():
            self._problem("question", "required", shown, index)
        clarification = raw.get("clarification")
        if clarification is not None and not isinstance(clarification, str):
            self._problem("clarification", "expected a string", shown, index)
        dialect = raw.get("dialect", default_dialect)
        if not self._dialect_ok(dialect, "dialect", shown, index):
            dialect = default_dialect
        schema = self._schema(raw.get("schema"), dialect, shown, index)
        kind = raw.get("reference_kind")
        if kind is None:
            self._problem("reference_kind", "required (query or predicate)", shown, index)
        elif kind not in REFERENCE_KINDS:
            self._problem(
                "reference_kind", f"{kind!r} is not one of: query, predicate", shown, index
            )
        references = self._references(raw.get("accepted_references"), shown, index)
        predicate = raw.get("predicate")
        if kind == "predicate":
            if predicate is None:
                self._problem(
                    "predicate", "required when reference_kind is predicate", shown, index
                )
            else:
                self._predicate_ok(predicate, shown, index)
        elif predicate is not None and kind == "query":
            self._problem(
                "predicate", "only predicate items have a predicate (reference_kind is query)",
                shown, index,
            )  # fmt: skip
        fixtures = self._fixtures(raw.get("fixtures"), schema, dialect, shown, index)
        item_data = self._data_path(raw.get("data"), shown, index) or self.suite_data
        meta = self._meta(raw, shown, index)
        if len(self.problems) > before or schema is None or not isinstance(item_id, str):
            return None
        return Item(
            id=item_id,
            question=str(question),
            schema=schema,
            dialect=str(dialect),
            reference_kind=cast(ReferenceKind, kind),
            references=references,
            fixtures=fixtures,
            clarification=clarification,
            predicate=predicate,
            meta=meta,
            base_dir=self.base,
            data=item_data,
        )

    def _data_path(self, raw: Any, item_id: str | None, index: int | None) -> Path | str | None:
        """``data:``: the user's database file, relative to the suite's directory, or a
        PostgreSQL URL."""
        if raw is None:
            return None
        if not isinstance(raw, str) or not raw.strip():
            self._problem("data", "expected the path of an SQLite or DuckDB file", item_id, index)
            return None
        if raw.startswith(("postgresql://", "postgres://")):
            return raw
        path = Path(raw) if self.base is None else self.base / raw
        if not path.is_file():
            self._problem("data", f"no such database file: {raw}", item_id, index)
            return None
        return path

    def _references(self, raw: Any, item_id: str | None, index: int) -> tuple[Reference, ...]:
        if raw is None:
            return ()
        if not isinstance(raw, list):
            self._problem(
                "accepted_references", "expected a list of {name, sql} (even of one)",
                item_id, index,
            )  # fmt: skip
            return ()
        references: list[Reference] = []
        names: set[str] = set()
        for n, entry in enumerate(raw):
            where = f"accepted_references[{n}]"
            if not isinstance(entry, Mapping):
                self._problem(where, "expected a mapping with `name` and `sql`", item_id, index)
                continue
            self._unknown_keys(entry, _REFERENCE_KEYS, where, item_id, index)
            name = entry.get("name", f"reference_{n + 1}")
            sql = entry.get("sql")
            if not isinstance(name, str) or not name:
                self._problem(f"{where}.name", "expected a non-empty string", item_id, index)
                continue
            if name in names:
                self._problem(f"{where}.name", f"duplicate reference name {name!r}", item_id, index)
            names.add(name)
            if sql is not None and not isinstance(sql, str):
                self._problem(f"{where}.sql", "expected SQL text", item_id, index)
                continue
            # A missing or blank query is not a load error: grading reports it as an anomaly.
            references.append(Reference(name, sql or ""))
        return tuple(references)

    def _predicate_ok(self, spec: Any, item_id: str | None, index: int) -> None:
        try:
            load_predicate(spec, self.base, self.doc.files, allow_outside_paths=self.allow_outside)
        except PredicateError as err:
            self._problem("predicate", str(err), item_id, index)

    def _meta(self, raw: Mapping[str, Any], item_id: str | None, index: int) -> dict[str, Any]:
        meta: dict[str, Any] = {}
        difficulty = raw.get("difficulty")
        if difficulty is not None:
            if isinstance(difficulty, str | int | float) and not isinstance(difficulty, bool):
                meta["difficulty"] = difficulty
            else:
                self._problem("difficulty", "expected a string or a number", item_id, index)
        tags = raw.get("tags")
        if tags is not None:
            if isinstance(tags, list) and all(isinstance(t, str) for t in tags):
                meta["tags"] = list(tags)
            else:
                self._problem("tags", "expected a list of strings", item_id, index)
        extra = raw.get("meta")
        if extra is not None:
            if isinstance(extra, Mapping):
                try:
                    json.dumps(dict(extra), default=str)
                except (TypeError, ValueError):
                    self._problem("meta", "must be JSON-representable", item_id, index)
                meta.update({str(k): _jsonable(v) for k, v in extra.items()})
            else:
                self._problem("meta", "expected a mapping", item_id, index)
        return meta

    # -- schemas -------------------------------------------------------------

    def _schema(self, raw: Any, dialect: str, item_id: str | None, index: int) -> Schema | None:
        if raw is None:
            self._problem("schema", "required", item_id, index)
            return None
        field_name = "schema"
        if isinstance(raw, str) and raw in self.named_schemas:
            field_name = f"schemas.{raw}"
            raw = self.named_schemas[raw]
        key = (json.dumps(raw, sort_keys=True, default=str), dialect)
        if key in self._schemas:
            schema = self._schemas[key]
            if schema is None:
                self._problem(field_name, "does not load (see above)", item_id, index)
            return schema
        try:
            if isinstance(raw, str) and not self.allow_outside and _names_a_file(raw):
                problem = outside(raw, self.base)
                if problem is not None:
                    self._problem(field_name, problem, item_id, index)
                    self._schemas[key] = None
                    return None
            schema = self._load_schema(raw, dialect)
        except SchemaError as err:
            self._problem(field_name, str(err).removeprefix("schema: "), item_id, index)
            schema = None
        self._schemas[key] = schema
        return schema

    def _load_schema(self, raw: Any, dialect: str) -> Schema:
        if isinstance(raw, Mapping):
            return parse_mapping(raw)
        if not isinstance(raw, str):
            raise SchemaError("invalid_source", "expected a path, DDL text, or a mapping")
        text = self.doc.files.get(raw)
        if text is not None:
            suffix = Path(raw).suffix.lower()
            if suffix == ".json":
                return parse_mapping(load_json_text(text))
            if suffix in {".yaml", ".yml"}:
                return parse_mapping(load_yaml_text(text))
            return load_schema(text, dialect) if "create" in text.lower() else _no_ddl(raw)
        if self.base is not None and _looks_like_path(raw) and (self.base / raw).exists():
            return load_schema(self.base / raw, dialect)  # a binary DuckDB database file
        if _looks_like_path(raw) and "create" not in raw.lower():
            raise SchemaError("file_not_found", f"no such file: {raw!r}")
        return load_schema(raw, dialect)

    # -- fixtures ------------------------------------------------------------

    def _fixtures(
        self, raw: Any, schema: Schema | None, dialect: str, item_id: str | None, index: int
    ) -> tuple[Fixture, ...]:
        if raw is None:
            return ()
        if not isinstance(raw, list):
            self._problem(
                "fixtures", "expected a list of fixture names or fixtures", item_id, index
            )
            return ()
        fixtures: list[Fixture] = []
        names: set[str] = set()
        for n, entry in enumerate(raw):
            where = f"fixtures[{n}]"
            if isinstance(entry, str):
                spec = self.named_fixtures.get(entry)
                if spec is None:
                    hint = _did_you_mean(entry, list(self.named_fixtures))
                    self._problem(where, f"no fixture named {entry!r}{hint}", item_id, index)
                    continue
                name, label = entry, f"fixtures.{entry}"
            elif isinstance(entry, Mapping):
                if not self._fixture_spec_ok(entry, where, item_id, index, named=False):
                    continue
                spec, name, label = entry, str(entry["name"]), where
            else:
                self._problem(where, "expected a fixture name or a mapping", item_id, index)
                continue
            if name in names:
                self._problem(where, f"fixture {name!r} listed twice", item_id, index)
                continue
            names.add(name)
            if schema is None:
                continue
            # A shared fixture is built once per schema, and a problem with it reported once.
            key = (name if isinstance(entry, str) else f"{index}/{n}", id(schema))
            if key not in self._fixture_dbs:
                try:
                    self._fixture_dbs[key] = self._fixture(name, spec, schema, dialect)
                except FixtureError as err:
                    self._fixture_dbs[key] = None
                    if isinstance(entry, str):
                        self._problem(label, str(err))
                    else:
                        self._problem(label, str(err), item_id, index)
            fixture = self._fixture_dbs[key]
            if fixture is not None:
                fixtures.append(fixture)
        return tuple(fixtures)

    def _fixture(self, name: str, spec: Mapping[str, Any], schema: Schema, dialect: str) -> Fixture:
        description = spec.get("description")
        if "rows" in spec:
            db = rows_database(spec["rows"], schema)
        elif "sql" in spec:
            db = script_database(str(spec["sql"]), schema, dialect)
        else:
            path = str(spec["file"])
            problem = None if self.allow_outside else outside(path, self.base)
            if problem is not None:
                raise FixtureError(f"file: {problem}")
            text = self.doc.files.get(path)
            if text is None:
                raise FixtureError(f"file: no such file: {path!r}")
            db = script_database(text, schema, dialect)
        return Fixture(name, db, str(description) if description is not None else None)

    def _fixture_spec_ok(
        self, spec: Any, where: str, item_id: str | None, index: int | None, *, named: bool
    ) -> bool:
        if not isinstance(spec, Mapping):
            self._problem(where, "expected a mapping with one of: rows, sql, file", item_id, index)
            return False
        before = len(self.problems)
        allowed = tuple(k for k in _FIXTURE_KEYS if not (named and k == "name"))
        self._unknown_keys(spec, allowed, where, item_id, index)
        sources = [k for k in _FIXTURE_SOURCES if k in spec]
        if len(sources) != 1:
            self._problem(where, "needs exactly one of: rows, sql, file", item_id, index)
        if not named and not (isinstance(spec.get("name"), str) and spec.get("name")):
            self._problem(f"{where}.name", "required: a non-empty string", item_id, index)
        return len(self.problems) == before

    # -- helpers -------------------------------------------------------------

    def _dialect_ok(self, dialect: Any, where: str, item_id: str | None, index: int | None) -> bool:
        try:
            if not isinstance(dialect, str):
                raise ValueError
            sqlglot.Dialect.get_or_raise(dialect)
        except ValueError:
            self._problem(where, f"unknown sqlglot dialect {dialect!r}", item_id, index)
            return False
        return True

    def _unknown_keys(
        self,
        raw: Mapping[str, Any],
        allowed: tuple[str, ...],
        where: str | None,
        item_id: str | None,
        index: int | None,
    ) -> None:
        for key in raw:
            if key not in allowed:
                label = f"{where}.{key}" if where else str(key)
                hint = _did_you_mean(str(key), list(allowed))
                self._problem(label, f"unknown field{hint}", item_id, index)

    def _problem(
        self, where: str, message: str, item_id: str | None = None, index: int | None = None
    ) -> None:
        self.problems.append(Problem(where, message, item_id, index))


class PredicateError(PlainError, ValueError):
    """A predicate reference that does not name a usable function."""

    SIDE = "suite"
    KIND = "invalid_predicate"


Predicate = Callable[..., object]


def load_predicate(
    spec: Any,
    base_dir: Path | None,
    sources: Mapping[str, str] | None = None,
    *,
    allow_outside_paths: bool = False,
) -> Predicate:
    """The function named by ``module:function``, imported from ``base_dir``.

    When the module is not importable there but ``sources`` holds its text
    (a worker on another machine), the module is built from that text.

    A module not yet imported must be a dotted name whose file lies inside ``base_dir``:
    ``/abs/path/evil:check`` or ``../evil:check`` would run a file from anywhere, so it is
    refused before any import unless ``allow_outside_paths``.
    """
    if not isinstance(spec, str) or spec.count(":") != 1:
        raise PredicateError(f"expected 'module:function', not {spec!r}")
    module_name, func_name = spec.split(":")
    if not module_name or not func_name:
        raise PredicateError(f"expected 'module:function', not {spec!r}")
    if not allow_outside_paths and module_name not in sys.modules:
        problem = outside(module_name.replace(".", "/") + ".py", base_dir)
        if not all(part.isidentifier() for part in module_name.split(".")):
            problem = problem or f"{module_name!r} is a path, not a dotted module name"
        if problem is not None:
            raise PredicateError(f"module of {spec!r}: {problem}")
    module = _import(module_name, base_dir, sources or {})
    func = getattr(module, func_name, None)
    if not callable(func):
        raise PredicateError(f"module {module_name!r} has no function {func_name!r}")
    try:
        arity = len(inspect.signature(func).parameters)
    except (TypeError, ValueError):
        arity = 2
    if arity not in (1, 2):
        raise PredicateError(f"{spec} must take (rows) or (rows, tables), not {arity} parameters")
    return cast(Predicate, func)


def _import(name: str, base_dir: Path | None, sources: Mapping[str, str]) -> ModuleType:
    if name in sys.modules:
        return sys.modules[name]
    if base_dir is not None and str(base_dir) not in sys.path:
        sys.path.insert(0, str(base_dir))
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError:
        source = sources.get(name.replace(".", "/") + ".py")
        if source is None:
            raise PredicateError(
                f"no module {name!r} (looked in {base_dir or 'the import path'})"
            ) from None
    except Exception as err:  # the module itself fails to import
        raise PredicateError(f"module {name!r} fails to import: {err!r}") from err
    spec = importlib.util.spec_from_loader(name, loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    try:
        exec(compile(source, f"<suite>/{name}.py", "exec"), module.__dict__)  # trusted suite code
    except Exception as err:
        raise PredicateError(f"module {name!r} fails to import: {err!r}") from err
    sys.modules[name] = module
    return module


def _named_files(data: Any) -> list[str]:
    """Every string in the suite that may name a file: schemas, fixture files, predicate modules."""
    names: list[str] = []
    if not isinstance(data, Mapping):
        return names
    schemas = data.get("schemas")
    if isinstance(schemas, Mapping):
        names.extend(v for v in schemas.values() if isinstance(v, str) and _looks_like_path(v))
    fixtures = data.get("fixtures")
    fixture_specs = list(fixtures.values()) if isinstance(fixtures, Mapping) else []
    items = data.get("items")
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, Mapping):
            continue
        schema = item.get("schema")
        if isinstance(schema, str) and _looks_like_path(schema):
            names.append(schema)
        if isinstance(item.get("fixtures"), list):
            fixture_specs.extend(f for f in item["fixtures"] if isinstance(f, Mapping))
        predicate = item.get("predicate")
        if isinstance(predicate, str) and ":" in predicate:
            names.append(predicate.split(":")[0].replace(".", "/") + ".py")
    names.extend(
        str(spec["file"]) for spec in fixture_specs if isinstance(spec, Mapping) and "file" in spec
    )
    return list(dict.fromkeys(names))


def outside(name: str, base: Path | None) -> str | None:
    """Why the file ``name`` (as written in a suite) is outside the suite's directory
    ``base``, or None when it is inside.

    Resolved first, so ``..`` and symbolic links count where they lead; with no ``base``
    (a document built in code) an absolute path or one with ``..`` is outside.

    Example:
        >>> outside("schema.sql", Path("/suites/a")) is None
        True
        >>> print(outside("../b.sql", Path("/s")))
        '../b.sql' is outside the suite's directory /s (allow it with --allow-outside-paths)
    """
    where = f"the suite's directory {base}" if base is not None else "the suite's directory"
    problem = f"{name!r} is outside {where} (allow it with --allow-outside-paths)"
    try:
        path = Path(name)
        if base is None:
            return problem if path.is_absolute() or ".." in path.parts else None
        resolved_base = base.resolve()
        target = (resolved_base / path).resolve()
    except (OSError, ValueError, RuntimeError):  # a NUL byte, a symlink loop, too long
        return problem
    return None if target.is_relative_to(resolved_base) else problem


def _names_a_file(text: str) -> bool:
    """Whether a schema string is a file name rather than DDL text."""
    if _looks_like_path(text):
        return True
    # "create.sql" starts like DDL but may be a file name too (load_schema would read it).
    return "\n" not in text and "(" not in text and len(text) < 4096


def _looks_like_path(text: str) -> bool:
    return "\n" not in text and len(text) < 4096 and not text.lstrip().lower().startswith("create")


def _no_ddl(path: str) -> Schema:
    raise SchemaError("invalid_source", f"{path} holds no CREATE TABLE statement")


def _read_text(path: Path) -> str:
    try:
        with open(path, "rb") as handle:
            data = handle.read(_MAX_FILE + 1)
    except OSError as err:
        raise SuiteError([Problem("file", f"cannot read {path}: {err.strerror or err}")]) from err
    if len(data) > _MAX_FILE:
        raise SuiteError([Problem("file", f"{path} is larger than {_MAX_FILE} bytes")])
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise SuiteError(
            [Problem("file", f"{path} is not UTF-8 text (at byte {err.start})")]
        ) from err


def json_lines(text: str) -> list[tuple[int, str]]:
    r"""The numbered lines of JSON Lines text, split at ``\n`` only (a trailing ``\r`` cut).

    Not ``str.splitlines()``: it also splits at U+2028, U+2029, U+0085 and the other
    Unicode line breaks, which JSON allows raw inside a string, so one candidate holding a
    U+2028 would make its line two lines of invalid JSON.

    Example:
        >>> json_lines('{"sql": "a\u2028b"}\r\n\n[1]')
        [(1, '{"sql": "a\u2028b"}'), (2, ''), (3, '[1]')]
    """
    lines = text.split("\n")
    if lines and not lines[-1]:
        lines.pop()  # the newline ending the last line starts no line
    return [(n, line.removesuffix("\r")) for n, line in enumerate(lines, start=1)]


class TooDeep(ValueError):
    """A JSON line nested past :data:`~sqlequiv.schema.jsontext.MAX_NESTING`."""


def parse_json_line(line: str) -> Any:
    """One JSON line as data.

    Raises:
        json.JSONDecodeError: it is not JSON.
        TooDeep: it nests lists and objects past
            :data:`~sqlequiv.schema.jsontext.MAX_NESTING` (json's parser, and everything
            after it, recurse once per level: a RecursionError otherwise).
    """
    try:
        value = json.loads(line)
    except RecursionError as err:
        raise TooDeep(f"nested more than {MAX_NESTING} levels deep") from err
    problem = too_deep(value)
    if problem is not None:
        raise TooDeep(problem)
    return value


def _jsonl_items(text: str) -> list[Any]:
    items: list[Any] = []
    problems: list[Problem] = []
    for number, line in json_lines(text):
        if not line.strip():
            continue
        try:
            items.append(parse_json_line(line))
        except json.JSONDecodeError as err:
            problems.append(
                Problem("file", f"line {number}: invalid JSON: {err.msg} (column {err.colno})")
            )
        except TooDeep as err:
            problems.append(Problem("file", f"line {number}: {err}"))
    if problems:
        raise SuiteError(problems)
    return items


def _did_you_mean(word: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _jsonable(value: Any) -> Any:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return str(value)
    return value
