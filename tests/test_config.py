"""[tool.sqlequiv]: reading it, precedence (flag > file > default), errors, ``sqlequiv config``."""

from __future__ import annotations

import argparse
import json
import pickle
from pathlib import Path

import pytest

from sqlequiv.cli import main
from sqlequiv.cli.options import add_check_options, options_from
from sqlequiv.config import Config, ConfigError, Setting, find_pyproject, load_config
from sqlequiv.errors import InvalidOption
from sqlequiv.options import Options
from sqlequiv.policy.catalogues import ENGINES

FULL = """\
[project]
name = "shop"

[tool.sqlequiv]
schema = "db/schema.sql"
dialect = "postgres"
engine = "duckdb"
paths = ["pairs", "more/*.sql"]

[tool.sqlequiv.options]
max_rows = 6
float_tolerance = 1e-6
symbolic = false
"""


def _project(tmp_path: Path, text: str) -> Path:
    (tmp_path / "pyproject.toml").write_text(text, encoding="utf-8")
    return tmp_path


def test_every_key_is_read_with_where_it_came_from(tmp_path: Path) -> None:
    root = _project(tmp_path, FULL)
    (root / "sub" / "deeper").mkdir(parents=True)
    config = load_config(root / "sub" / "deeper")  # found by walking up
    file = root / "pyproject.toml"
    assert config.file == file
    schema = Setting(str(root / "db/schema.sql"), "file", file, "tool.sqlequiv.schema")
    assert config.schema == schema
    assert (config.dialect.value, config.engine.value) == ("postgres", "duckdb")
    assert config.paths.value == (str(root / "pairs"), str(root / "more/*.sql"))
    assert config.options["max_rows"].origin == f"{file}: tool.sqlequiv.options.max_rows"
    assert config.options["seed"] == Setting(0)  # not in the file: the default
    assert config.to_options() == Options(max_rows=6, float_tolerance=1e-6, symbolic=False)


def test_no_table_or_no_file_is_the_built_in_defaults(tmp_path: Path) -> None:
    _project(tmp_path, '[project]\nname = "x"\n')
    assert load_config(tmp_path) == Config()
    _project(tmp_path, "[project\n")  # broken, but not about sqlequiv
    assert load_config(tmp_path) == Config()
    assert Config().to_options() == Options()
    assert find_pyproject(tmp_path) == tmp_path / "pyproject.toml"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[tool.sqlequiv]\nshema = "s.sql"',
         "[tool.sqlequiv]: unknown key 'shema'; did you mean 'schema'?"),
        ("[tool.sqlequiv.options]\nmax_rowz = 3",
         "unknown option 'max_rowz'; did you mean 'max_rows'?"),
        ('[tool.sqlequiv.options]\nmax_rows = "3"',
         "[tool.sqlequiv.options] max_rows: '3' must be a whole number"),
        ("[tool.sqlequiv.options]\nsymbolic = 1", "symbolic: 1 must be true or false"),
        ("[tool.sqlequiv.options]\nmax_rows = 0", "max_rows=0 must be at least 1"),
        ('[tool.sqlequiv]\nengine = "oracle"',
         "engine: 'oracle' must be one of duckdb, sqlite, postgres"),
        ("[tool.sqlequiv]\ndialect = 3", "dialect: 3 must be a sqlglot dialect name"),
        ("[tool.sqlequiv]\noptions = 3", "[tool.sqlequiv.options]: must be a table"),
        ("[tool.sqlequiv\n", "invalid TOML"),
        ("[tool.sqlequiv]\n[tool.sqlequiv]\n", "invalid TOML"),
    ],
)  # fmt: skip
def test_a_bad_table_names_the_file_and_the_key(tmp_path: Path, text: str, message: str) -> None:
    _project(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_config(tmp_path)
    assert str(info.value).startswith(f"{tmp_path / 'pyproject.toml'}: ")
    assert message in str(info.value)
    again = pickle.loads(pickle.dumps(info.value))  # errors cross process boundaries
    assert (str(again), again.key, again.file) == (str(info.value), info.value.key, info.value.file)


def test_an_override_takes_any_schema_and_checks_types() -> None:
    mapping = {"t": {"a": "INT"}}
    config = Config().override({"schema": mapping, "max_rows": 2}, source="marker")
    assert config.schema == Setting(mapping, "marker", None, "schema")
    assert config.to_options().max_rows == 2
    with pytest.raises(InvalidOption, match=r"--max-rows='2' must be a whole number"):
        Config().override({"max_rows": "2"}, source="flag", keys={"max_rows": "--max-rows"})
    with pytest.raises(InvalidOption, match="unknown setting 'dialekt'; did you mean 'dialect'"):
        Config().override({"dialekt": "mysql"}, source="marker")


def test_the_engines_are_the_executors(tmp_path: Path) -> None:
    from sqlequiv import config

    assert config._ENGINES == ENGINES


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_check_options(parser)
    return parser.parse_args(list(argv))


def test_without_configuration_the_flags_mean_what_they_meant(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(_project(tmp_path, '[project]\nname = "x"\n'))
    assert options_from(_args()) == Options()
    assert options_from(_args("--max-rows", "2", "--no-symbolic")) == Options(
        max_rows=2, symbolic=False
    )


def test_a_flag_beats_the_file_which_beats_the_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(_project(tmp_path, FULL))
    assert options_from(_args("--max-rows", "2")) == Options(
        max_rows=2, float_tolerance=1e-6, symbolic=False
    )
    assert main(["config", "--json", "--max-rows", "2", "--dialect", "mysql"]) == 0
    settings = json.loads(capsys.readouterr().out)["settings"]
    assert settings["options.max_rows"] == {
        "value": 2, "source": "flag", "file": None, "key": "--max-rows", "origin": "--max-rows",
    }  # fmt: skip
    assert settings["options.float_tolerance"]["source"] == "file"
    assert settings["options.seed"]["source"] == "default"
    assert settings["dialect"]["value"] == "mysql"
    assert settings["engine"]["origin"] == f"{tmp_path / 'pyproject.toml'}: tool.sqlequiv.engine"


def test_sqlequiv_config_prints_every_setting_and_its_origin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(_project(tmp_path, FULL))
    assert main(["config", "--seed", "7"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"configuration: {tmp_path / 'pyproject.toml'} [tool.sqlequiv]"
    rows = {line.split()[0]: line.split()[1:] for line in lines[1:]}
    assert rows["options.seed"] == ["7", "--seed"]
    origin = ["pyproject.toml:", "tool.sqlequiv.options.symbolic"]  # relative to the cwd
    assert rows["options.symbolic"] == ["false", *origin]
    assert rows["options.max_bound"] == ["3", "default"]
    assert len(rows) == 4 + len(Options.__dataclass_fields__)


def test_check_reads_schema_and_options_from_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text = '[tool.sqlequiv]\nschema = "s.sql"\n[tool.sqlequiv.options]\nseed = 3\n'
    monkeypatch.chdir(_project(tmp_path, text))
    (tmp_path / "s.sql").write_text("CREATE TABLE t (a INT);")
    (tmp_path / "a.sql").write_text("SELECT a FROM t WHERE a > 1")
    (tmp_path / "b.sql").write_text("SELECT a FROM t WHERE a >= 1")
    assert main(["check", "a.sql", "b.sql", "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["options"]["seed"] == 3


def test_check_without_a_schema_anywhere_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(_project(tmp_path, '[project]\nname = "x"\n'))
    assert main(["check", "a.sql", "b.sql"]) == 2
    err = capsys.readouterr().err
    assert err == "sqlequiv: error: the following arguments are required: --schema\n"


def test_a_bad_configuration_stops_the_command_with_its_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(_project(tmp_path, "[tool.sqlequiv.options]\nmax_fixturez = 3\n"))
    assert main(["config"]) == 2
    err = capsys.readouterr().err
    file = tmp_path / "pyproject.toml"
    assert err.startswith(f"sqlequiv: error: {file}: [tool.sqlequiv.options]")
    assert "unknown option 'max_fixturez'; did you mean 'max_fixtures'?" in err
