"""MySQL's name, GROUP BY and cast rules (issue 16), and the bundled LeetCode-style pairs."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from sqlequiv import Options, check
from sqlequiv.cli.options import add_check_options, options_from
from sqlequiv.errors import InvalidOption, QueryError
from sqlequiv.guard import guard_query
from sqlequiv.schema.load import load_schema

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = load_schema((ROOT / "corpus" / "schemas" / "leetcode.sql").read_text(), "mysql")


def translated(sql: str, **kwargs: object) -> str:
    return guard_query(sql, SCHEMA, dialect="mysql", **kwargs).duckdb_sql  # type: ignore[arg-type]


def refused(sql: str, **kwargs: object) -> QueryError:
    with pytest.raises(QueryError) as info:
        guard_query(sql, SCHEMA, dialect="mysql", **kwargs)  # type: ignore[arg-type]
    return info.value


# -- identifier case -------------------------------------------------------------


def test_names_in_any_case_resolve_by_default() -> None:
    assert translated("SELECT EMAIL FROM PERSON") == translated("select email from person")
    assert translated("SELECT p.Email FROM Person P WHERE P.ID = 1")


def test_lower_case_table_names_0_compares_tables_and_aliases_as_written() -> None:
    assert translated("SELECT email FROM PERSON", lower_case_table_names=0)
    err = refused("SELECT email FROM person", lower_case_table_names=0)
    assert err.kind == "unknown_table" and '"PERSON"' in err.message
    err = refused("SELECT p.email FROM PERSON P", lower_case_table_names=0)
    assert err.kind == "unknown_column" and "case-sensitively" in err.message
    # Column names and column aliases are case-insensitive under every setting.
    assert translated("SELECT Email AS e FROM PERSON ORDER BY E", lower_case_table_names=0)


def test_the_option_reaches_the_check_and_the_cli() -> None:
    ddl = "CREATE TABLE PERSON (ID INT PRIMARY KEY, EMAIL VARCHAR(255))"
    strict = Options(mysql_lower_case_table_names=0)
    verdict = check("SELECT email FROM person", "SELECT EMAIL FROM PERSON", ddl, "mysql", strict)
    assert verdict.verdict == "error" and verdict.error is not None
    assert verdict.error.kind == "unknown_table"
    verdict = check("SELECT email FROM person", "SELECT EMAIL FROM PERSON", ddl, "mysql")
    assert (verdict.verdict, verdict.method) == ("equivalent", "normalized")
    with pytest.raises(InvalidOption):
        Options(mysql_lower_case_table_names=3)
    import argparse

    parser = argparse.ArgumentParser()
    add_check_options(parser)
    args = parser.parse_args(["--mysql-lower-case-table-names", "0"])
    assert options_from(args).mysql_lower_case_table_names == 0


# -- GROUP BY names (https://dev.mysql.com/doc/refman/8.4/en/select.html) ----------


def test_group_by_name_ambiguous_in_from_is_the_select_list_column() -> None:
    # "For GROUP BY or HAVING clauses, it searches the FROM clause before searching in
    # the select_expr values": name is in both tables, so the select-list d.name is used.
    sql = (
        "SELECT d.name, COUNT(*) FROM employee e JOIN department d "
        "ON e.departmentid = d.id GROUP BY name"
    )
    assert translated(sql).endswith("GROUP BY d.name")


def test_group_by_name_that_is_a_column_and_an_alias_is_the_column() -> None:
    sql = "SELECT LENGTH(name) AS name, COUNT(*) FROM employee GROUP BY name"
    assert translated(sql).endswith("GROUP BY employee.name")


def test_having_name_that_is_a_column_and_an_alias_is_the_column() -> None:
    # HAVING searches FROM first too: id is employee.id, which salary does not determine.
    err = refused("SELECT salary + 1 AS id, COUNT(*) FROM employee GROUP BY salary HAVING id > 1")
    assert err.kind == "only_full_group_by" and "employee.id" in err.message


def test_order_by_prefers_the_alias() -> None:
    assert translated("SELECT salary + 1 AS id FROM employee ORDER BY id").endswith(
        "ORDER BY id NULLS FIRST"
    )


# -- ONLY_FULL_GROUP_BY and functional dependence ----------------------------------


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT e.name, COUNT(*) FROM employee e GROUP BY e.id",
        "SELECT d.name, SUM(e.salary) FROM employee e JOIN department d "
        "ON e.departmentid = d.id GROUP BY e.departmentid",
        "SELECT name, MAX(salary) FROM employee WHERE id = 3",
        "SELECT e.id, COUNT(*) FROM employee e GROUP BY e.id ORDER BY e.name",
    ],
)
def test_determined_columns_become_min(sql: str) -> None:
    assert "MIN(" in translated(sql)


@pytest.mark.parametrize(
    ("sql", "column"),
    [
        ("SELECT e.name, MAX(e.salary) FROM employee e GROUP BY e.departmentid", "e.name"),
        ("SELECT name, MAX(salary) FROM employee", "employee.name"),
        # The ON of an outer join determines nothing.
        (
            "SELECT d.name, COUNT(*) FROM employee e LEFT JOIN department d "
            "ON e.departmentid = d.id GROUP BY e.departmentid",
            "d.name",
        ),
        ("SELECT COUNT(*) FROM employee GROUP BY departmentid ORDER BY name", "employee.name"),
    ],
)
def test_undetermined_columns_are_refused(sql: str, column: str) -> None:
    err = refused(sql)
    assert err.kind == "only_full_group_by"
    assert f'"{column}"' in err.message and "ONLY_FULL_GROUP_BY" in err.message


def test_without_only_full_group_by_a_bare_column_is_any_rows_value() -> None:
    """A server whose SQL mode lacks ONLY_FULL_GROUP_BY (LeetCode's) returns a bare
    column from an arbitrary row of the group: FIRST on DuckDB, and a refutation must
    hold whichever row that is; a determined column is still MIN, an exact rewrite."""
    bare = "SELECT e.name, MAX(e.salary) FROM employee e GROUP BY e.departmentid"
    assert "FIRST(e.name)" in translated(bare, only_full_group_by=False)
    assert "MIN(" in translated(
        "SELECT e.name, COUNT(*) FROM employee e GROUP BY e.id", only_full_group_by=False
    )
    ddl = "CREATE TABLE EMPLOYEE (ID INT PRIMARY KEY, NAME VARCHAR(20), SALARY INT, DEPT INT)"
    loose = Options(mysql_only_full_group_by=False)
    cand = "SELECT name, MAX(salary) FROM employee GROUP BY dept"
    default = check(cand, "SELECT MIN(name), MAX(salary) FROM employee GROUP BY dept", ddl, "mysql")
    assert default.error is not None and default.error.kind == "only_full_group_by"
    # MIN(name) is one of the names the server may return: never refuted.
    same_choice = check(
        cand, "SELECT MIN(name), MAX(salary) FROM employee GROUP BY dept", ddl, "mysql", loose
    )
    assert same_choice.verdict == "unknown", same_choice.counterexample
    # Two departments against one group: refuted, whichever names the server picks.
    other = check(cand, "SELECT MIN(name), MAX(salary) FROM employee", ddl, "mysql", loose)
    assert other.verdict == "not_equivalent"
    import argparse

    parser = argparse.ArgumentParser()
    add_check_options(parser)
    args = parser.parse_args(["--no-mysql-only-full-group-by"])
    assert options_from(args).mysql_only_full_group_by is False
    assert options_from(parser.parse_args([])).mysql_only_full_group_by is True


# -- implicit casts ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ("SELECT '2019-07-05' - INTERVAL 1 DAY", "SELECT CAST('2019-07-05' AS DATE) - INTERVAL"),
        ("SELECT recorddate + 1 FROM weather", "STRFTIME(weather.recorddate, '%Y%m%d')"),
        ("SELECT IF(id > 1, 'yes', 0) FROM weather", "THEN 'yes' ELSE '0' END"),
        ("SELECT TIMESTAMPDIFF(DAY, '2019-07-01', recorddate) FROM weather", "DATE_SUB('DAY'"),
    ],
)
def test_casts_are_spelled_out(sql: str, expected: str) -> None:
    assert expected in translated(sql)


def test_timestamp_diff_in_months_is_refused() -> None:
    err = refused("SELECT TIMESTAMPDIFF(MONTH, '2019-01-31', recorddate) FROM weather")
    assert err.kind == "unsupported" and "TIMESTAMPDIFF(MONTH" in err.message


def test_executed_values_follow_mysql() -> None:
    ddl = "CREATE TABLE t (id INT PRIMARY KEY)"
    for candidate, reference in [
        ("SELECT CAST('2019-01-31' AS DATE) + 1", "SELECT 20190132"),
        ("SELECT CAST('2019-02-01' AS DATE) - CAST('2019-01-31' AS DATE)", "SELECT 70"),
        ("SELECT CASE WHEN 1 > 0 THEN 'TRUE' ELSE FALSE END", "SELECT 'TRUE'"),
        ("SELECT DATEDIFF('2019-07-05', '2019-07-01')", "SELECT 4"),
    ]:
        verdict = check(candidate, reference, ddl, "mysql")
        assert verdict.verdict == "equivalent", (candidate, verdict.verdict)


# -- the bundled example set ---------------------------------------------------------


def test_leetcode_examples_are_never_contradicted_and_rarely_errors() -> None:
    path = ROOT / "benchmarks" / "mysql" / "run_examples.py"
    spec = importlib.util.spec_from_file_location("run_examples", path)
    assert spec is not None and spec.loader is not None
    runner = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(runner)
    cases = runner.cases()
    assert len(cases) >= 40
    verdicts = [runner.run(case) for case in cases]
    assert not [
        c.title for c, v in zip(cases, verdicts, strict=True) if runner.contradicts(c.expect, v)
    ]
    unexpected = [c.title for c, v in zip(cases, verdicts, strict=True) if v == "error" != c.expect]
    assert len(unexpected) <= 0.02 * len(cases), unexpected
