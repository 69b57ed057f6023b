"""``sqlequiv diff`` on real git repositories: commits made with git, queries checked on DuckDB."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from sqlequiv.ci_output.gitdiff import Repository, split_statements
from sqlequiv.cli import main
from test_ci_output import COMMAND, check_junit

# Required, not skipped without it: .ci/run installs git where the image lacks it.
assert shutil.which("git") is not None, "tests/test_diff.py needs the git command"

SCHEMA = """
CREATE TABLE customers (id INT PRIMARY KEY, name TEXT NOT NULL, country TEXT);
CREATE TABLE orders (
  id INT PRIMARY KEY,
  customer_id INT NOT NULL REFERENCES customers (id),
  amount DECIMAL(10, 2) NOT NULL
);
"""

REVENUE = """-- revenue per customer
SELECT c.name, SUM(o.amount) AS revenue
FROM customers c JOIN orders o ON o.customer_id = c.id
GROUP BY c.name;

-- customers in France
SELECT id FROM customers WHERE country = 'FR';

SELECT count(*) FROM orders;
"""

BIG = "SELECT id FROM orders WHERE amount > 100\n"


def git(repo: Path, *arguments: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.email=ci@example.com", "-c", "user.name=CI",
         "-c", "commit.gpgsign=false", *arguments],
        cwd=repo, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return done.stdout


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository with one commit (the schema and two query files), as the cwd."""
    # Nobody's own git configuration (hooks, a default branch, signing) reaches the tests.
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "no-gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    root = tmp_path / "repo"
    (root / "queries").mkdir(parents=True)
    (root / "schema.sql").write_text(SCHEMA)
    (root / "queries" / "revenue.sql").write_text(REVENUE)
    (root / "queries" / "big.sql").write_text(BIG)
    git(root, "init", "-q")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "queries")
    monkeypatch.chdir(root)
    return root


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["diff", *argv, "--schema", "schema.sql", "--max-fixtures", "50"])
    out, err = capsys.readouterr()
    return code, out, err


def test_an_equivalent_refactor_passes(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "queries" / "big.sql").write_text(
        "select o.id\nfrom orders as o\nwhere 100 < o.amount\n"
    )
    code, out, _ = run(capsys)
    assert code == 0
    assert "queries/big.sql:\n  query 1 (line 1): EQUIVALENT (proved by" in out
    assert out.rstrip().endswith(
        "1 changed query: 1 equivalent, 0 not equivalent, 0 unknown, 0 error"
    )


def test_a_refactor_that_changes_results_fails_with_its_counterexample(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # JOIN -> LEFT JOIN: a customer without orders now comes back.
    (repo / "queries" / "revenue.sql").write_text(REVENUE.replace(" JOIN ", " LEFT JOIN "))
    code, out, err = run(capsys)
    assert code == 1 and err == ""
    assert "query 1 (line 2): NOT EQUIVALENT" in out
    assert "database (" in out and "customers:" in out and "orders:" in out
    assert "candidate result:" in out and "reference result:" in out
    assert "query 2 (line 7): unchanged" in out and "query 3 (line 9): unchanged" in out
    assert "1 not equivalent" in out.splitlines()[-1]


def test_each_query_of_a_file_is_checked_at_its_line(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    changed = REVENUE.replace("country = 'FR'", "'FR' = customers.country").replace(
        "count(*) FROM orders", "count(customer_id) FROM orders WHERE amount > 0"
    )
    (repo / "queries" / "revenue.sql").write_text(changed)
    (repo / "queries" / "big.sql").write_text(BIG + ";\nSELECT 1;\n")  # two queries now
    code, out, _ = run(capsys, "--format", "json")
    assert code == 1
    files = {f["path"]: f for f in json.loads(out)["files"]}
    assert files["queries/big.sql"]["status"] == "unpaired"
    assert files["queries/big.sql"]["note"].startswith("1 query at HEAD, 2 queries now")
    queries = files["queries/revenue.sql"]["queries"]
    assert [(q["index"], q["line"], q["status"]) for q in queries] == [
        (1, 2, "unchanged"),
        (2, 7, "equivalent"),
        (3, 9, "not_equivalent"),
    ]
    assert queries[2]["verdict"]["counterexample"]["cause"]
    # In GitHub's format each query is annotated at its own line.
    code, out, _ = run(capsys, "--format", "github")
    commands = [m for line in out.splitlines() if (m := COMMAND.match(line))]
    assert [(m.group(1), m.group(2).split(",title")[0]) for m in commands] == [
        ("warning", "file=queries/big.sql,line=1"),
        ("error", "file=queries/revenue.sql,line=9"),
    ]


def test_new_and_deleted_files_are_reported_and_unknown_fails_counts_unpaired(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "queries" / "new.sql").write_text("SELECT name FROM customers;\n")
    (repo / "queries" / "big.sql").unlink()
    code, out, _ = run(capsys)
    assert code == 0
    assert "queries/new.sql: new file, not at HEAD: nothing to compare" in out
    assert "queries/big.sql: deleted since HEAD: nothing to compare" in out
    assert out.rstrip().endswith("files not checked: 1 added, 1 deleted")
    report = repo.parent / "junit.xml"
    code, _, _ = run(capsys, "--junit-xml", str(report))
    assert check_junit(report.read_text()).get("skipped") == "2"
    (repo / "queries" / "revenue.sql").write_text(REVENUE + "SELECT 2;\n")
    assert run(capsys)[0] == 0
    assert run(capsys, "--unknown-fails")[0] == 3


def test_staged_compares_the_index_not_the_working_tree(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "queries" / "big.sql").write_text("SELECT id FROM orders WHERE amount >= 100\n")
    git(repo, "add", "queries/big.sql")
    (repo / "queries" / "big.sql").write_text(BIG)  # the working tree is as at HEAD again
    assert run(capsys)[0] == 0
    code, out, _ = run(capsys, "--staged", "queries/big.sql")  # as the pre-commit hook runs it
    assert code == 1
    assert out.startswith("the index against HEAD (")
    assert "queries/big.sql:\n  query 1 (line 1): NOT EQUIVALENT" in out


def test_a_revision_and_paths_a_changed_schema_and_junit(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = git(repo, "rev-parse", "--short", "HEAD").strip()
    (repo / "queries" / "big.sql").write_text("SELECT id FROM orders WHERE amount > 100.0\n")
    (repo / "schema.sql").write_text(SCHEMA + "CREATE TABLE notes (id INT PRIMARY KEY);\n")
    git(repo, "commit", "-q", "-am", "refactor")
    (repo / "queries" / "revenue.sql").write_text(REVENUE.replace(" JOIN ", " LEFT JOIN "))
    # Only the paths asked for; against the first commit; the schema is not a query file.
    code, out, _ = run(capsys, first, "queries/big.sql", "schema.sql")
    assert code == 0
    assert f"against {first} ({first})" in out.splitlines()[0]
    assert "note: the schema schema.sql differs from" in out
    assert "revenue.sql" not in out and "schema.sql:" not in out
    code, out, _ = run(capsys, first, "--format", "github")
    assert out.startswith("::notice title=sqlequiv%3A schema::the schema schema.sql differs")
    code, out, _ = run(capsys, "--rev", "HEAD~1", "--format", "junit")
    assert code == 1
    root = check_junit(out)
    assert [s.get("name") for s in root] == ["queries/big.sql", "queries/revenue.sql"]
    failure = root.find("testsuite[@name='queries/revenue.sql']/testcase/failure")
    assert failure is not None and "reference result:" in (failure.text or "")
    assert (failure.text or "").startswith("candidate: the working tree; reference: HEAD~1")


@pytest.mark.parametrize("rev", ["no-such-branch", "--rev=0000000", "--rev=-x"])
def test_a_bad_revision_is_a_clear_error(
    repo: Path, capsys: pytest.CaptureFixture[str], rev: str
) -> None:
    code, out, err = run(capsys, rev)
    assert code == 2 and out == ""
    assert err.startswith("sqlequiv: error: ") and "Traceback" not in err
    assert "revision" in err


def test_outside_a_repository_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "schema.sql").write_text(SCHEMA)
    code, out, err = run(capsys)
    assert code == 2 and out == ""
    assert err.startswith("sqlequiv: error: not a git repository: ") and "Traceback" not in err


def test_statements_split_at_semicolons_outside_strings_and_comments() -> None:
    text = "SELECT ';' AS a -- not ; here\n;\n/* ; */ SELECT 2;;\n\nSELECT 3"
    assert [(s.text, s.line) for s in split_statements(text)] == [
        ("SELECT ';' AS a", 1),
        ("SELECT 2", 3),
        ("SELECT 3", 5),
    ]
    with pytest.raises(ValueError, match="cannot split"):
        split_statements("SELECT 'open")


def test_the_repository_reports_paths_from_its_root(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (repo / "queries" / "big.sql").write_text("SELECT 1\n")
    monkeypatch.chdir(repo / "queries")
    repository = Repository.open()
    head = repository.commit("HEAD")
    assert head is not None
    assert repository.changes(head, ["big.sql"], staged=False) == [("M", "queries/big.sql")]


def test_from_a_subdirectory_every_change_of_the_repository_counts(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "top.sql").write_text("SELECT 1;\n")  # untracked, outside the cwd
    monkeypatch.chdir(repo / "queries")
    code = main(["diff", "--schema", "../schema.sql"])
    assert code == 0
    assert "top.sql: new file, not at HEAD" in capsys.readouterr().out


def test_the_schema_comes_from_tool_sqlequiv(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without --schema, diff checks with the schema [tool.sqlequiv] names (and its dialect);
    without either, it says --schema is missing."""
    (repo / "queries" / "big.sql").write_text("SELECT id FROM orders WHERE amount >= 100\n")
    assert main(["diff", "--max-fixtures", "50"]) == 2
    assert "--schema" in capsys.readouterr().err
    (repo / "pyproject.toml").write_text(
        '[tool.sqlequiv]\nschema = "schema.sql"\ndialect = "duckdb"\n'
    )
    code = main(["diff", "--max-fixtures", "50"])
    out, _ = capsys.readouterr()
    assert code == 1, out
    assert "NOT EQUIVALENT" in out
