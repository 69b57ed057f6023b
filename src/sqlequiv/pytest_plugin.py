"""The pytest plugin: SQL equivalence checks as tests, configured from ``[tool.sqlequiv]``.

Installed with sqlequiv (the ``pytest11`` entry point ``sqlequiv``); ``-p no:sqlequiv``
turns it off. It gives tests:

- fixtures ``sqlequiv_config`` (the :class:`~sqlequiv.config.Config` in force for the
  session) and ``sqlequiv_checker`` (a :class:`~sqlequiv.testing.Checker` with the
  schema, dialect, engine and options in force for the test: ``.check(a, b)``,
  ``.assert_equivalent(a, b)``, ``.assert_not_equivalent(a, b)``, ``.assert_case(pair)``);
- the marker ``@pytest.mark.sqlequiv(schema=..., dialect=..., engine=..., <option>=...)``,
  which overrides the configuration for one test (a class or module with
  ``pytestmark``);
- the marker ``@pytest.mark.sqlequiv_pairs("folder", "file.sql", "glob/*.sql")`` with the
  fixture ``sqlequiv_pair``: the test runs once per query pair of those files, in the
  corpus format (:mod:`sqlequiv.corpus`), with ids ``<file>::<case slug>``; without
  arguments the marker reads ``paths`` of ``[tool.sqlequiv]``. Relative paths are
  relative to pytest's rootdir;
- ``--sqlequiv-schema`` and ``--sqlequiv-dialect``, over the configuration, and
  ``--sqlequiv-profile``, which loads the Hypothesis profile ``sqlequiv``
  (:func:`sqlequiv.strategies.register_profile`; never loaded unless asked).

Precedence, most specific first: the test's marker, the command line, ``[tool.sqlequiv]``
of the ``pyproject.toml`` nearest the rootdir, the built-in defaults.

A failed assertion is an ``AssertionError`` whose message is the report of
:mod:`sqlequiv.testing`: the verdict, the database that tells the queries apart (every
table), both results and the missing and extra rows.

Nothing heavy is imported here: sqlglot, z3, DuckDB and Hypothesis are loaded by the
fixtures and hooks that need them, so that a session that does not use sqlequiv starts
as fast as without the plugin (``benchmarks/import_time.py`` measures it).
"""

from __future__ import annotations

import glob
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from sqlequiv.config import Config
    from sqlequiv.corpus import CorpusCase
    from sqlequiv.testing import Checker

__all__ = [
    "pytest_addoption",
    "pytest_configure",
    "pytest_generate_tests",
    "sqlequiv_checker",
    "sqlequiv_config",
    "sqlequiv_pair",
]

_CONFIG = pytest.StashKey["Config"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("sqlequiv", "SQL equivalence checks (sqlequiv)")
    group.addoption(
        "--sqlequiv-schema",
        default=None,
        metavar="PATH",
        help="schema of sqlequiv_checker (over [tool.sqlequiv] schema)",
    )
    group.addoption(
        "--sqlequiv-dialect",
        default=None,
        metavar="DIALECT",
        help="sqlglot dialect of sqlequiv_checker (over [tool.sqlequiv] dialect)",
    )
    group.addoption(
        "--sqlequiv-profile",
        action="store_true",
        default=False,
        help="load the Hypothesis profile 'sqlequiv': derandomized, no deadline, 60 examples",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "sqlequiv(schema=None, dialect=None, engine=None, **options): the settings of "
        "sqlequiv_checker for this test, over [tool.sqlequiv] and the command line",
    )
    config.addinivalue_line(
        "markers",
        "sqlequiv_pairs(*paths): run the test once per query pair (corpus format) of "
        "these folders, files or globs, given as the sqlequiv_pair fixture "
        "(default: [tool.sqlequiv] paths)",
    )
    if config.getoption("sqlequiv_profile"):
        from hypothesis import settings

        from sqlequiv.strategies import PROFILE

        settings.load_profile(PROFILE)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "sqlequiv_pair" not in metafunc.fixturenames:
        return
    marker = metafunc.definition.get_closest_marker("sqlequiv_pairs")
    config = metafunc.config
    try:
        paths: tuple[str, ...] = tuple(marker.args) if marker is not None else ()
        if not paths:
            paths = tuple(_session_config(config).paths.value)
        if not paths:
            return  # the fixture says what is missing
        cases = _cases(paths, config.rootpath)
    except (ValueError, OSError) as err:  # ConfigError, CorpusError, a missing folder
        raise pytest.Collector.CollectError(f"sqlequiv_pairs: {err}") from None
    metafunc.parametrize(
        "sqlequiv_pair", cases, ids=[_case_id(c) for c in cases], indirect=True
    )


@pytest.fixture(scope="session")
def sqlequiv_config(pytestconfig: pytest.Config) -> Config:
    """The configuration in force for the session: ``[tool.sqlequiv]`` of the
    ``pyproject.toml`` nearest the rootdir, under ``--sqlequiv-schema`` and
    ``--sqlequiv-dialect``."""
    return _config_or_fail(pytestconfig)


@pytest.fixture
def sqlequiv_checker(request: pytest.FixtureRequest, sqlequiv_config: Config) -> Checker:
    """A :class:`~sqlequiv.testing.Checker` with the settings in force for this test
    (its ``@pytest.mark.sqlequiv(...)`` over the session's configuration)."""
    from sqlequiv.errors import InvalidOption
    from sqlequiv.testing import Checker

    config = sqlequiv_config
    marker = request.node.get_closest_marker("sqlequiv")
    if marker is not None:
        if marker.args:
            pytest.fail(
                "@pytest.mark.sqlequiv takes keyword arguments only "
                "(schema=, dialect=, engine= or an option)",
                pytrace=False,
            )
        try:
            config = config.override(marker.kwargs, source="marker")
            options = config.to_options()
        except InvalidOption as err:
            pytest.fail(f"@pytest.mark.sqlequiv: {err.message}", pytrace=False)
    else:
        options = config.to_options()
    return Checker(
        config.schema.value, config.dialect.value, options, engine=config.engine.value
    )


@pytest.fixture
def sqlequiv_pair(request: pytest.FixtureRequest) -> CorpusCase:
    """One query pair of the test's ``@pytest.mark.sqlequiv_pairs(...)`` files (a
    :class:`~sqlequiv.corpus.CorpusCase`: ``candidate``, ``reference``, ``expect``,
    ``schema_ddl``, ``dialect``, ...); check it with ``sqlequiv_checker.assert_case``."""
    if not hasattr(request, "param"):
        pytest.fail(
            "sqlequiv_pair needs @pytest.mark.sqlequiv_pairs('folder/') on the test, "
            "or paths in [tool.sqlequiv] of pyproject.toml",
            pytrace=False,
        )
    case: CorpusCase = request.param
    return case


def _session_config(pytestconfig: pytest.Config) -> Config:
    """The session's configuration, read once.

    Raises:
        ConfigError: ``[tool.sqlequiv]`` cannot be used.
    """
    cached = pytestconfig.stash.get(_CONFIG, None)
    if cached is not None:
        return cached
    from sqlequiv.config import load_config

    config = load_config(pytestconfig.rootpath)
    flags: dict[str, Any] = {}
    schema = pytestconfig.getoption("sqlequiv_schema")
    if schema is not None:
        flags["schema"] = str(pytestconfig.invocation_params.dir / schema)
    dialect = pytestconfig.getoption("sqlequiv_dialect")
    if dialect is not None:
        flags["dialect"] = dialect
    keys = {"schema": "--sqlequiv-schema", "dialect": "--sqlequiv-dialect"}
    config = config.override(flags, source="flag", keys=keys)
    pytestconfig.stash[_CONFIG] = config
    return config


def _config_or_fail(pytestconfig: pytest.Config) -> Config:
    from sqlequiv.config import ConfigError
    from sqlequiv.errors import InvalidOption

    try:
        return _session_config(pytestconfig)
    except (ConfigError, InvalidOption) as err:
        pytest.fail(f"sqlequiv: {err}", pytrace=False)


def _cases(paths: tuple[str, ...], root: Path) -> list[CorpusCase]:
    """The pairs of ``paths`` (folders, files, globs; relative ones under ``root``).

    Raises:
        CorpusError: a malformed pair file.
        FileNotFoundError: a path that names nothing.
    """
    from sqlequiv.corpus import load_corpus, load_file

    cases: list[CorpusCase] = []
    for text in paths:
        path = root / text
        if path.is_dir():
            cases.extend(load_corpus(path))
        elif path.is_file():
            cases.extend(load_file(path))
        else:
            matches = sorted(Path(m) for m in glob.glob(str(path), recursive=True))
            files = [m for m in matches if m.is_file()]
            if not files:
                raise FileNotFoundError(f"no folder, file or glob match: {text!r} (in {root})")
            for file in files:
                cases.extend(load_file(file))
    return cases


def _case_id(case: CorpusCase) -> str:
    return f"{case.file.name}::{case.id.rpartition('/')[2]}"
