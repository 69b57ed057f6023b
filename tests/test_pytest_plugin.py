"""The pytest plugin, run as pytest runs it: ``pytester`` sessions on real DuckDB and z3."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import sqlequiv

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[1]
#: The folder the sqlequiv under test is imported from, for subprocesses.
SRC = Path(sqlequiv.__file__).resolve().parents[1]

#: Load the plugin by its module when the installed metadata does not declare the entry
#: point (an editable install made before it was added); loading it twice is an error.
_INSTALLED = any(
    e.name == "sqlequiv" for e in importlib.metadata.entry_points(group="pytest11")
)
PLUGIN: tuple[str, ...] = () if _INSTALLED else ("-p", "sqlequiv.pytest_plugin")

SCHEMA = """\
CREATE TABLE orders (
  id INTEGER PRIMARY KEY,
  amount INTEGER NOT NULL CHECK (amount >= 0)
);
"""


def _run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest_inprocess(*PLUGIN, "-p", "no:cacheprovider", *args)


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    """A project whose pyproject.toml names its schema."""
    pytester.makefile(".sql", schema=SCHEMA)
    pytester.makepyprojecttoml(
        """
        [tool.sqlequiv]
        schema = "schema.sql"
        [tool.sqlequiv.options]
        max_fixtures = 40
        floor_databases = 100
        """
    )
    return pytester


def test_a_passing_and_a_failing_check_with_its_counterexample(project: pytest.Pytester) -> None:
    project.makepyfile(
        """
        def test_same(sqlequiv_checker):
            sqlequiv_checker.assert_equivalent(
                "SELECT id FROM orders WHERE NOT amount <= 100",
                "SELECT id FROM orders WHERE amount > 100",
            )

        def test_boundary(sqlequiv_checker):
            sqlequiv_checker.assert_equivalent(
                "SELECT id FROM orders WHERE amount > 100",
                "SELECT id FROM orders WHERE amount >= 100",
            )
        """
    )
    result = _run(project)
    result.assert_outcomes(passed=1, failed=1)
    out = result.stdout.str()
    assert "NOT EQUIVALENT to the reference" in out
    # The database that tells them apart, both results and the missing row, as tables.
    result.stdout.fnmatch_lines(
        [
            "*database (*",
            "*orders:*",
            "*id*|*amount*",
            "*100*",
            "*candidate result:*",
            "*reference result:*",
            "*missing rows (in the reference result, not in the candidate's):*",
        ]
    )
    # The helpers' own frames are hidden: the traceback ends in the test.
    assert "testing.py" not in out


def test_the_marker_overrides_the_configuration(project: pytest.Pytester) -> None:
    project.makepyfile(
        """
        import pytest

        @pytest.mark.sqlequiv(schema="CREATE TABLE t (a INT)", max_rows=2)
        def test_marked(sqlequiv_checker, sqlequiv_config):
            assert sqlequiv_checker.options.max_rows == 2
            assert sqlequiv_checker.options.max_fixtures == 40  # from the file
            assert sqlequiv_config.options["max_fixtures"].source == "file"
            sqlequiv_checker.assert_not_equivalent(
                "SELECT a FROM t WHERE a > 1", "SELECT a FROM t WHERE a >= 1"
            )

        @pytest.mark.sqlequiv(max_rowz=2)
        def test_typo(sqlequiv_checker):
            pass
        """
    )
    result = _run(project)
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*@pytest.mark.sqlequiv: unknown setting 'max_rowz'*max_rows*"])


def test_command_line_over_file(project: pytest.Pytester) -> None:
    project.makepyprojecttoml('[tool.sqlequiv]\nschema = "schema.sql"\ndialect = "mysql"\n')
    project.makepyfile(
        """
        def test_settings(sqlequiv_config, request):
            want = request.config.getoption("sqlequiv_dialect") or "mysql"
            assert sqlequiv_config.dialect.value == want
            assert sqlequiv_config.schema.source == "file"
        """
    )
    _run(project).assert_outcomes(passed=1)
    result = _run(project, "--sqlequiv-dialect", "postgres")
    result.assert_outcomes(passed=1)


def test_pairs_in_the_corpus_format(pytester: pytest.Pytester) -> None:
    pytester.mkdir("pairs")
    pytester.mkdir("pairs/schemas")
    (pytester.path / "pairs/schemas/shop.sql").write_text(SCHEMA)
    (pytester.path / "pairs/orders.sql").write_text(
        textwrap.dedent(
            """\
            # schema: shop

            # title: NOT <= is >
            # expect: equivalent
            SELECT id FROM orders WHERE NOT amount <= 100;
            SELECT id FROM orders WHERE amount > 100;

            # title: > vs >= at the bound
            # expect: not_equivalent
            SELECT id FROM orders WHERE amount > 100;
            SELECT id FROM orders WHERE amount >= 100;

            # title: wrongly labelled
            # expect: equivalent
            SELECT id FROM orders WHERE amount < 5;
            SELECT id FROM orders WHERE amount <= 5;
            """
        )
    )
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.sqlequiv_pairs("pairs")
        def test_pair(sqlequiv_pair, sqlequiv_checker):
            sqlequiv_checker.assert_case(sqlequiv_pair)
        """
    )
    result = _run(pytester, "-v")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*test_pair?orders.sql::not-is? PASSED*",
            "*test_pair?orders.sql::vs-at-the-bound* PASSED*",
            "*test_pair?orders.sql::wrongly-labelled* FAILED*",
        ]
    )
    result.stdout.fnmatch_lines(["*orders.sql:13: wrongly labelled*", "*NOT EQUIVALENT*"])


def test_a_malformed_pair_file_is_a_collection_error(pytester: pytest.Pytester) -> None:
    (pytester.path / "bad.sql").write_text("# title: x\nSELECT 1;\n")
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.sqlequiv_pairs("bad.sql")
        def test_pair(sqlequiv_pair):
            pass
        """
    )
    result = _run(pytester)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*sqlequiv_pairs: *bad.sql:1: case 'x' has 1 statement(s)*"])


def test_a_bad_config_key_is_a_clear_error(pytester: pytest.Pytester) -> None:
    pytester.makepyprojecttoml('[tool.sqlequiv]\nshema = "schema.sql"\n')
    pytester.makepyfile("def test_x(sqlequiv_checker):\n    pass\n")
    result = _run(pytester)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        ["*sqlequiv: *pyproject.toml: [[]tool.sqlequiv[]]: unknown key 'shema'; did you mean*"]
    )
    assert "Traceback" not in result.stdout.str()


def test_the_hypothesis_profile_is_loaded_only_when_asked(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile(
        """
        from hypothesis import settings

        def test_profile(request):
            loaded = settings().derandomize and settings().max_examples == 60
            assert loaded == request.config.getoption("sqlequiv_profile")
        """
    )
    _run(pytester).assert_outcomes(passed=1)
    # In a subprocess: loading a profile changes Hypothesis for the whole process.
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]))
    result = pytester.runpytest_subprocess(*PLUGIN, "-p", "no:cacheprovider", "--sqlequiv-profile")
    result.assert_outcomes(passed=1)


def test_importing_the_plugin_imports_nothing_heavy() -> None:
    code = (
        "import sys, sqlequiv.pytest_plugin; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & "
        "{'sqlglot', 'duckdb', 'z3', 'hypothesis', 'numpy'}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(SRC)},
    ).stdout
    assert out.strip() == "[]"


def test_the_entry_point_is_declared() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    entry_points = project["project"]["entry-points"]["pytest11"]
    assert entry_points == {"sqlequiv": "sqlequiv.pytest_plugin"}
