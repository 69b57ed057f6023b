"""Project configuration: the ``[tool.sqlequiv]`` table of the nearest ``pyproject.toml``.

A project that checks its SQL (migrations, dbt models, an optimized query and the one it
replaces) writes the schema, dialect and options once::

    [tool.sqlequiv]
    schema = "db/schema.sql"          # relative to the pyproject.toml's folder
    dialect = "postgres"
    engine = "duckdb"
    paths = ["tests/pairs"]           # folders, files or globs of query pairs
    [tool.sqlequiv.options]           # any field of sqlequiv.Options
    max_rows = 6
    float_tolerance = 1e-6

and the CLI (``sqlequiv check``, ``grade``, ...) and the pytest plugin take their defaults
from it. Precedence is always: a command-line flag (or a test's marker), then the file,
then the built-in default; :class:`Config` records where each value came from, and
``sqlequiv config`` prints it.

The file is the nearest ``pyproject.toml`` at or above the starting folder; the search
stops there, with or without a ``[tool.sqlequiv]`` table (the nearest one is the
project's). No file, or no table, means the built-in defaults: exactly the behaviour of
sqlequiv without configuration. A key or option that does not exist, or a value of the
wrong type, is a :class:`ConfigError` naming the file and the key.

This module imports nothing heavy (no sqlglot, DuckDB, z3 or Hypothesis), so the pytest
plugin can read the configuration without slowing a test session down.

Example:
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "pyproject.toml").write_text(
    ...     '[tool.sqlequiv]\\ndialect = "mysql"\\n[tool.sqlequiv.options]\\nmax_rows = 6\\n')
    >>> config = load_config(folder)
    >>> config.dialect.value, config.dialect.source, config.options["max_rows"].value
    ('mysql', 'file', 6)
    >>> config.override({"max_rows": 2}, source="flag").to_options().max_rows
    2
    >>> _ = (folder / "pyproject.toml").write_text('[tool.sqlequiv]\\nshema = "s.sql"\\n')
    >>> load_config(folder)
    Traceback (most recent call last):
    ...
    sqlequiv.config.ConfigError: ...: unknown key 'shema'; did you mean 'schema'? ...
"""

from __future__ import annotations

import dataclasses
import difflib
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Final, Literal

from sqlequiv.errors import InvalidOption, PlainError
from sqlequiv.options import Options

__all__ = [
    "DEFAULT_DIALECT",
    "KEYS",
    "Config",
    "ConfigError",
    "Setting",
    "Source",
    "find_pyproject",
    "load_config",
]

#: Where a value in force came from.
Source = Literal["default", "file", "flag", "marker"]

#: The dialect queries are read in when nothing says otherwise.
DEFAULT_DIALECT: Final = "duckdb"

#: The keys of ``[tool.sqlequiv]`` (``options`` is a table of :class:`Options` fields).
KEYS: Final[tuple[str, ...]] = ("schema", "dialect", "engine", "paths", "options")

#: The engines a query can run on; kept equal to ``sqlequiv.policy.catalogues.ENGINES``
#: (a test says so): that module loads DuckDB, which this one must not.
_ENGINES: Final = ("duckdb", "sqlite", "postgres")

_TABLES: Final = frozenset({"tool.sqlequiv", "tool.sqlequiv.options"})
_OPTION_TYPES: Final[dict[str, str]] = {f.name: str(f.type) for f in fields(Options)}


class ConfigError(PlainError, ValueError):
    """A ``[tool.sqlequiv]`` table sqlequiv cannot use: bad TOML, an unknown key or
    option, a value of the wrong type or out of range. ``file`` and ``key`` say where;
    the message names both.

    Example:
        >>> err = ConfigError(Path("pyproject.toml"), "tool.sqlequiv.dialect", "must be text")
        >>> str(err), err.key
        ('pyproject.toml: [tool.sqlequiv] dialect: must be text', 'tool.sqlequiv.dialect')
    """

    SIDE = "options"
    KIND = "invalid_config"

    def __init__(self, file: Path, key: str | None, message: str) -> None:
        self.file = file
        self.key = key
        if key is None:
            where = ""
        elif key in _TABLES:
            where = f" [{key}]:"
        else:
            table, _, name = key.rpartition(".")
            where = f" [{table}] {name}:"
        super().__init__(f"{file}:{where} {message}")

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuild, (self.file, self.key, self.message)


def _rebuild(file: Path, key: str | None, message: str) -> ConfigError:
    err = ConfigError.__new__(ConfigError)
    PlainError.__init__(err, message)
    err.file, err.key = file, key
    return err


@dataclass(frozen=True)
class Setting:
    """One value in force and where it came from.

    ``source`` is ``default`` (built in), ``file`` (``key`` of ``[tool.sqlequiv]`` in
    ``file``), ``flag`` (the command-line flag ``key``) or ``marker`` (a test's
    ``@pytest.mark.sqlequiv(key=...)``).
    """

    value: Any
    source: Source = "default"
    file: Path | None = None
    key: str | None = None

    @property
    def origin(self) -> str:
        """Where the value came from, for a person.

        Example:
            >>> Setting(3, "file", Path("pyproject.toml"), "tool.sqlequiv.options.max_rows").origin
            'pyproject.toml: tool.sqlequiv.options.max_rows'
            >>> Setting(3).origin, Setting(3, "flag", key="--max-rows").origin
            ('default', '--max-rows')
        """
        if self.source == "file":
            return f"{self.file}: {self.key}"
        if self.source == "marker":
            return f"@pytest.mark.sqlequiv({self.key}=...)"
        if self.source == "flag":
            return str(self.key)
        return "default"

    def to_dict(self) -> dict[str, Any]:
        """The setting as a JSON-ready mapping (every field, nulls included)."""
        value = list(self.value) if isinstance(self.value, tuple) else self.value
        return {
            "value": value,
            "source": self.source,
            "file": None if self.file is None else str(self.file),
            "key": self.key,
            "origin": self.origin,
        }


@dataclass(frozen=True)
class Config:
    """The settings in force: each a :class:`Setting` (value and origin).

    ``schema`` is a path (made absolute against the ``pyproject.toml``'s folder) or None;
    ``dialect`` a sqlglot dialect name; ``engine`` None (the dialect's own) or one of
    ``duckdb``, ``sqlite``, ``postgres``; ``paths`` a tuple of folders, files or globs of
    query pairs (absolute); ``options`` one setting per :class:`Options` field. ``file`` is
    the ``pyproject.toml`` whose table was read (None: nothing was read).
    """

    file: Path | None = None
    schema: Setting = Setting(None)
    dialect: Setting = Setting(DEFAULT_DIALECT)
    engine: Setting = Setting(None)
    paths: Setting = Setting(())
    options: Mapping[str, Setting] = dataclasses.field(
        default_factory=lambda: {f.name: Setting(f.default) for f in fields(Options)}
    )

    def settings(self) -> dict[str, Setting]:
        """Every setting by name: ``schema``, ``dialect``, ``engine``, ``paths``, then
        ``options.<field>`` in :class:`Options`'s order."""
        top = {"schema": self.schema, "dialect": self.dialect, "engine": self.engine}
        top["paths"] = self.paths
        return top | {f"options.{name}": s for name, s in self.options.items()}

    def to_options(self) -> Options:
        """The :class:`Options` in force."""
        return Options(**{name: s.value for name, s in self.options.items()})

    def override(
        self,
        values: Mapping[str, Any],
        *,
        source: Source,
        keys: Mapping[str, str] | None = None,
    ) -> Config:
        """This configuration with ``values`` in force instead, recorded as from ``source``.

        ``values`` maps a top-level name (``schema``, ``dialect``, ``engine``, ``paths``)
        or an :class:`Options` field to its new value (``schema`` may be anything
        :func:`sqlequiv.load_schema` takes); ``keys`` the name to how ``source``
        spells it (a flag: ``--max-rows``), by default the name.

        Raises:
            InvalidOption: an unknown name or a value of the wrong type (the message
                names it as ``keys`` spells it); a value out of range is caught by
                :meth:`to_options`.
        """
        keys = keys or {}
        top: dict[str, Setting] = {}
        options = dict(self.options)
        for name, value in values.items():
            spelled = keys.get(name, name)
            if name in ("schema", "dialect", "engine", "paths"):
                checked = _top_value(name, value, None)
                if checked is not _BAD:
                    top[name] = Setting(checked, source, None, spelled)
                    continue
                raise InvalidOption(f"{spelled}={value!r}: {_TOP_WANTS[name]}")
            if name not in _OPTION_TYPES:
                raise InvalidOption(f"unknown setting {spelled!r}{_suggest(name, _NAMES)}")
            problem = _option_problem(name, value)
            if problem:
                raise InvalidOption(f"{spelled}={value!r} {problem}")
            options[name] = Setting(value, source, None, spelled)
        return _with(self, top, options)

    def to_dict(self) -> dict[str, Any]:
        """The configuration as a JSON-ready mapping: ``file`` and every setting."""
        return {
            "file": None if self.file is None else str(self.file),
            "settings": {name: s.to_dict() for name, s in self.settings().items()},
        }


def _with(
    config: Config, top: Mapping[str, Setting], options: Mapping[str, Setting] | None
) -> Config:
    return dataclasses.replace(
        config,
        schema=top.get("schema", config.schema),
        dialect=top.get("dialect", config.dialect),
        engine=top.get("engine", config.engine),
        paths=top.get("paths", config.paths),
        options=config.options if options is None else options,
    )


def find_pyproject(start: Path | None = None) -> Path | None:
    """The nearest ``pyproject.toml`` at or above ``start`` (the working folder)."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


def load_config(start: Path | None = None) -> Config:
    """The configuration of the project at or above ``start`` (the working folder).

    Reads ``[tool.sqlequiv]`` of the nearest ``pyproject.toml``; every value it does not
    set is the built-in default.

    Raises:
        ConfigError: the file is not TOML, or the table has an unknown key or option,
            or a value of the wrong type or out of range.
    """
    path = find_pyproject(start)
    if path is None:
        return Config()
    table = _read_table(path)
    if table is None:
        return Config()
    return _from_table(path, table)


def _read_table(path: Path) -> dict[str, Any] | None:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        try:
            import tomli as tomllib
        except ImportError:
            raise ConfigError(
                path, None, "cannot be read: Python 3.10 needs the tomli package"
            ) from None
    try:
        data = path.read_bytes()
        document = tomllib.loads(data.decode("utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(path, None, f"cannot be read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        if b"sqlequiv" not in data:
            return None  # someone else's broken file: not ours to refuse
        raise ConfigError(path, None, f"invalid TOML: {exc}") from None
    tool = document.get("tool")
    if not isinstance(tool, dict) or "sqlequiv" not in tool:
        return None
    table = tool["sqlequiv"]
    if not isinstance(table, dict):
        raise ConfigError(path, "tool.sqlequiv", "must be a table")
    return table


_BAD: Final = object()
_TOP_WANTS: Final[dict[str, str]] = {
    "schema": "must be a path (text)",
    "dialect": "must be a sqlglot dialect name (text)",
    "engine": f"must be one of {', '.join(_ENGINES)}",
    "paths": "must be a list of folders, files or globs (text)",
}
_NAMES: Final = (*KEYS[:-1], *_OPTION_TYPES)


def _top_value(name: str, value: Any, base: Path | None) -> Any:
    """``value`` checked (and paths made absolute against ``base``), or ``_BAD``."""
    if name == "paths":
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            return _BAD
        return tuple(str(base / v) if base is not None else v for v in value)
    if name == "engine" and value is None:
        return None
    if name == "schema" and base is None and value is not None and not isinstance(value, str):
        # From a marker: a Schema, a mapping or a path object, as sqlequiv.check takes.
        return os.fspath(value) if isinstance(value, os.PathLike) else value
    if not isinstance(value, str) or not value.strip():
        return _BAD
    if name == "engine":
        return value.lower() if value.lower() in _ENGINES else _BAD
    if name == "schema" and base is not None:
        return str(base / value)
    return value


def _option_problem(name: str, value: Any) -> str | None:
    """Why ``value`` cannot be the option ``name`` (its type), or None."""
    wanted = _OPTION_TYPES[name]
    if wanted == "bool":
        return None if isinstance(value, bool) else "must be true or false"
    if isinstance(value, bool):
        return "must be a number" if wanted == "float" else "must be a whole number"
    if wanted == "int" and not isinstance(value, int):
        return "must be a whole number"
    if wanted == "float" and not isinstance(value, (int, float)):
        return "must be a number"
    return None


def _suggest(name: str, names: tuple[str, ...] | list[str]) -> str:
    close = difflib.get_close_matches(name, names, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"{hint} (known: {', '.join(names)})"


def _from_table(path: Path, table: dict[str, Any]) -> Config:
    base = path.parent
    top: dict[str, Setting] = {}
    for key, value in table.items():
        dotted = f"tool.sqlequiv.{key}"
        if key == "options":
            continue
        if key not in KEYS:
            raise ConfigError(path, "tool.sqlequiv", f"unknown key {key!r}{_suggest(key, KEYS)}")
        checked = _top_value(key, value, base)
        if checked is _BAD:
            raise ConfigError(path, dotted, f"{value!r} {_TOP_WANTS[key]}")
        top[key] = Setting(checked, "file", path, dotted)
    config = _with(Config(file=path), top, None)
    raw = table.get("options", {})
    if not isinstance(raw, dict):
        raise ConfigError(path, "tool.sqlequiv.options", "must be a table of option = value")
    options = dict(config.options)
    names = list(_OPTION_TYPES)
    for name, value in raw.items():
        dotted = f"tool.sqlequiv.options.{name}"
        if name not in _OPTION_TYPES:
            raise ConfigError(
                path, "tool.sqlequiv.options", f"unknown option {name!r}{_suggest(name, names)}"
            )
        problem = _option_problem(name, value)
        if problem:
            raise ConfigError(path, dotted, f"{value!r} {problem}")
        options[name] = Setting(value, "file", path, dotted)
    config = dataclasses.replace(config, options=options)
    try:
        config.to_options()
    except InvalidOption as err:
        raise ConfigError(path, "tool.sqlequiv.options", err.message) from None
    return config
