"""Attacks on the sandbox and resource bombs, the sentinels that prove nothing leaked, and runners.

Shared by ``tests/test_sandbox.py`` and by the report generator::

    python tests/sandbox_attacks.py /tmp/spec/attacks_table.md

which runs every row through the same runners the tests use and writes the markdown table.

Sentinels (:class:`Sentinels`):

* a canary file holding a random secret: its bytes must not change, its access time must
  not move (when this filesystem updates access times on read, see :func:`atime_works`),
  and the secret must appear nowhere in a verdict or record;
* a FIFO: a writer thread blocks in ``open(O_WRONLY)`` until something opens the FIFO for
  reading, so any open by DuckDB is counted (and the secret it would read is the same);
* a loopback HTTP listener on a random port that counts every connection;
* the listing of the sentinel directory (``COPY ... TO``, ``EXPORT``, ``ATTACH`` would add
  files there).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar, cast

import sqlequiv
from sqlequiv.grading import grade
from sqlequiv.options import Options
from sqlequiv.suite.load import SuiteDocument, SuiteError, build_suite
from sqlequiv.suite.model import Item

T = TypeVar("T")

SECRET = f"SQLEQUIV-CANARY-{uuid.uuid4().hex}"
#: The name of a file beside the canary: only a directory listing (glob) can reveal it.
HIDDEN_NAME = f"sqlequiv-hidden-{uuid.uuid4().hex}.txt"
SCHEMA_DDL = "CREATE TABLE t (a INT PRIMARY KEY, b VARCHAR)"
NORMAL_REFERENCE = "SELECT a FROM t WHERE a >= 1"
NORMAL_CANDIDATE = "SELECT a FROM t WHERE a > 1"  # not equivalent; refuted by fixture "two"
FIXTURE_ROWS = {"t": [{"a": 1}, {"a": 2}]}
#: Small limits so that every bomb is cut short quickly.
FAST = Options(query_timeout=1.0, time_budget=1.0, max_fixtures=20, bounded_time_budget=0.5)
#: Generous wall-clock bound for any single check or grade (hangs are what it catches).
WALL_BOUND = 30.0
#: DuckDB's configured memory_limit (execute/duckdb_engine.py) plus room for Python, sqlglot and z3.
MEMORY_BOUND_MB = 1024 + 512
#: Address-space cap of isolated children, so that a bomb cannot take the test machine down.
CHILD_ADDRESS_SPACE_GB = 4

#: Error kinds that say "refused before execution" or "failed inside the sandbox".
REFUSAL_KINDS = frozenset(
    {
        "forbidden_function",
        "not_read_only",
        "multiple_statements",
        "unknown_table",
        "unknown_function",
        "unknown_column",
        "parse_error",
        "unsupported",
        "invalid_text",
        "execution_error",
    }
)
#: Error kinds that say "a resource limit stopped it".
RESOURCE_KINDS = frozenset({"timeout", "resource_limit", "too_large", "too_complex"})


# -- sentinels ---------------------------------------------------------------------------


def atime_works(directory: Path) -> bool:
    """Whether reading a file here moves its access time (false under noatime).

    With ``relatime`` the kernel updates the access time on read only when it is older
    than the modification time; :meth:`Sentinels.arm` sets it so, and so does this probe.
    """
    probe = directory / "atime-probe"
    probe.write_text("probe")
    os.utime(probe, (1_000_000_000, 1_000_000_100))
    with open(probe, "rb") as handle:
        handle.read()
    works = os.stat(probe).st_atime != 1_000_000_000
    probe.unlink()
    return works


class FifoTrap:
    """A FIFO whose writer thread counts every time something opens it for reading."""

    def __init__(self, path: Path) -> None:
        self.path = path
        os.mkfifo(path)
        self.opened = 0
        self._stopping = False
        self._thread = threading.Thread(target=self._serve, name="fifo-trap", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            fd = os.open(self.path, os.O_WRONLY)  # blocks until a reader opens the FIFO
            if self._stopping:
                os.close(fd)
                return
            self.opened += 1
            with contextlib.suppress(OSError):
                os.write(fd, f"a,b\n1,{SECRET}\n".encode())
            os.close(fd)
            time.sleep(0.05)  # let the reader see end-of-file before waiting again

    def close(self) -> None:
        self._stopping = True
        fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK)  # releases the blocked writer
        self._thread.join(5)
        os.close(fd)


class Listener:
    """A TCP listener on 127.0.0.1 (random port) that counts connections."""

    def __init__(self) -> None:
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._socket.bind(("127.0.0.1", 0))
        self._socket.listen(16)
        self._socket.settimeout(0.2)
        self.port: int = self._socket.getsockname()[1]
        self.connections = 0
        self._stopping = False
        self._thread = threading.Thread(target=self._serve, name="listener", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stopping:
            try:
                conn, _ = self._socket.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self.connections += 1
            with conn, contextlib.suppress(OSError):
                body = f"a,b\n1,{SECRET}\n".encode()
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))

    def close(self) -> None:
        self._stopping = True
        self._thread.join(5)
        self._socket.close()


class Sentinels:
    """Canary file, FIFO trap, loopback listener and a watched directory."""

    def __init__(self, root: Path) -> None:
        self.dir = root
        self.dir.mkdir(parents=True, exist_ok=True)
        self.canary = self.dir / "canary.csv"
        self.canary_bytes = f"a,b\n1,{SECRET}\n".encode()
        self.canary.write_bytes(self.canary_bytes)
        (self.dir / HIDDEN_NAME).write_text("listed only by a directory listing")
        self.fifo = FifoTrap(self.dir / "trap.csv")
        self.listener = Listener()
        self.atime_works = atime_works(self.dir)
        self._listing: set[str] = set()
        self._opened = 0
        self._connections = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.listener.port}"

    def fill(self, template: str) -> str:
        return template.format(canary=self.canary, fifo=self.fifo.path, dir=self.dir, url=self.url)

    def arm(self) -> None:
        """Reset the canary's access time (older than its mtime) and remember the state."""
        os.utime(self.canary, (1_000_000_000, 1_000_000_100))
        self._listing = set(os.listdir(self.dir))
        self._opened = self.fifo.opened
        self._connections = self.listener.connections

    def breaches(self, *outputs: str) -> list[str]:
        """What the attack touched since :meth:`arm`; empty when nothing was."""
        found = []
        time.sleep(0.01)  # a FIFO open is counted by the writer thread
        if self.atime_works and os.stat(self.canary).st_atime != 1_000_000_000:
            found.append("canary read (access time moved)")
        if self.canary.read_bytes() != self.canary_bytes:
            found.append("canary modified")
        if self.fifo.opened != self._opened:
            found.append(f"FIFO opened {self.fifo.opened - self._opened} time(s)")
        if self.listener.connections != self._connections:
            found.append(f"{self.listener.connections - self._connections} connection(s)")
        new = set(os.listdir(self.dir)) - self._listing
        if new:
            found.append(f"files created: {sorted(new)}")
        if any(SECRET in out for out in outputs):
            found.append("secret in the output")
        if any(HIDDEN_NAME in out for out in outputs):
            found.append("directory listing in the output")
        return found

    def close(self) -> None:
        self.fifo.close()
        self.listener.close()


@contextlib.contextmanager
def sentinels_in(root: Path) -> Iterator[Sentinels]:
    sentinels = Sentinels(root)
    try:
        yield sentinels
    finally:
        sentinels.close()


# -- attacks -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Attack:
    """One hostile SQL fragment and where it is tried.

    ``form`` says what the template is: ``table`` (a FROM item), ``scalar`` (an expression)
    or ``statement``. Templates use ``{canary}``, ``{fifo}``, ``{dir}`` and ``{url}``.
    """

    name: str
    form: str
    template: str
    placements: tuple[str, ...]
    dialect: str = "duckdb"


EVERYWHERE = ("candidate", "subquery", "cte", "scalar", "reference")
FROM_ONLY = ("candidate", "subquery", "cte", "reference")
EXPRESSION = ("candidate", "subquery", "cte", "reference")
STATEMENT = ("candidate", "second statement", "reference")
BASIC = ("candidate", "reference")

ATTACKS: tuple[Attack, ...] = (
    # file readers on a local path
    Attack("read_csv", "table", "read_csv('{canary}')", EVERYWHERE),
    Attack("read_csv_auto", "table", "read_csv_auto('{canary}')", EVERYWHERE),
    Attack("read_parquet", "table", "read_parquet('{canary}')", EVERYWHERE),
    Attack("read_json", "table", "read_json('{canary}')", EVERYWHERE),
    Attack("read_json_auto", "table", "read_json_auto('{canary}')", BASIC),
    Attack("read_ndjson", "table", "read_ndjson('{canary}')", BASIC),
    Attack("read_text", "table", "read_text('{canary}')", EVERYWHERE),
    Attack("read_blob", "table", "read_blob('{canary}')", EVERYWHERE),
    Attack("glob", "table", "glob('{dir}/*')", EVERYWHERE),
    Attack("sniff_csv", "table", "sniff_csv('{canary}')", BASIC),
    Attack("parquet_metadata", "table", "parquet_metadata('{canary}')", BASIC),
    Attack("read_csv list argument", "table", "read_csv(['{canary}'])", BASIC),
    Attack("schema-qualified main.read_text", "table", "main.read_text('{canary}')", BASIC),
    Attack('quoted name "read_text"', "table", "\"read_text\"('{canary}')", BASIC),
    Attack("read_csv on the FIFO", "table", "read_csv('{fifo}')", EVERYWHERE),
    Attack("read_text on the FIFO", "table", "read_text('{fifo}')", BASIC),
    Attack("read_blob on the FIFO", "table", "read_blob('{fifo}')", BASIC),
    Attack("replacement scan FROM 'file'", "table", "'{canary}'", FROM_ONLY),
    Attack('replacement scan FROM "file"', "table", '"{canary}"', FROM_ONLY),
    Attack("replacement scan FROM 'fifo'", "table", "'{fifo}'", BASIC),
    # URLs (the loopback listener)
    Attack("read_csv URL", "table", "read_csv('{url}/x.csv')", EVERYWHERE),
    Attack("read_text URL", "table", "read_text('{url}/x.txt')", EVERYWHERE),
    Attack("read_parquet URL", "table", "read_parquet('{url}/x.parquet')", BASIC),
    Attack("read_json URL", "table", "read_json('{url}/x.json')", BASIC),
    Attack("replacement scan FROM 'url'", "table", "'{url}/x.csv'", FROM_ONLY),
    # SQL given as a string, catalogs, settings, secrets
    Attack("query()", "table", "query('SELECT * FROM read_text(''{canary}'')')", FROM_ONLY),
    Attack("query_table()", "table", "query_table('t')", BASIC),
    Attack("duckdb_settings()", "table", "duckdb_settings()", FROM_ONLY),
    Attack("duckdb_secrets()", "table", "duckdb_secrets()", BASIC),
    Attack("duckdb_extensions()", "table", "duckdb_extensions()", BASIC),
    Attack("pragma_database_list()", "table", "pragma_database_list()", BASIC),
    Attack("which_secret()", "table", "which_secret('{url}/x', 'http')", BASIC),
    Attack("enable_logging()", "table", "enable_logging()", BASIC),
    Attack("getenv", "scalar", "getenv('HOME')", EXPRESSION),
    Attack(
        "current_setting (sandbox paths)",
        "scalar",
        "current_setting('allowed_directories')",
        EXPRESSION,
    ),
    Attack(
        "current_setting (home path)", "scalar", "current_setting('secret_directory')", EXPRESSION
    ),
    Attack("current_setting (config)", "scalar", "current_setting('memory_limit')", BASIC),
    Attack("getvariable (executor state)", "scalar", "getvariable('sqlequiv_fid')", EXPRESSION),
    Attack(
        "json_execute_serialized_sql",
        "scalar",
        "json_execute_serialized_sql(json_serialize_sql('SELECT 1'))",
        BASIC,
    ),
    # statements
    Attack(
        "COPY (query) TO", "statement", "COPY (SELECT 1 AS x) TO '{dir}/copy_out.csv'", STATEMENT
    ),
    Attack("COPY table TO", "statement", "COPY t TO '{dir}/copy_t.csv'", STATEMENT),
    Attack("COPY table FROM", "statement", "COPY t FROM '{canary}'", STATEMENT),
    Attack("EXPORT DATABASE", "statement", "EXPORT DATABASE '{dir}/export'", STATEMENT),
    Attack("IMPORT DATABASE", "statement", "IMPORT DATABASE '{dir}'", BASIC),
    Attack("ATTACH new file", "statement", "ATTACH '{dir}/attached.db' AS x", STATEMENT),
    Attack("ATTACH canary", "statement", "ATTACH '{canary}' AS x (READ_ONLY)", BASIC),
    Attack("ATTACH URL", "statement", "ATTACH '{url}/db.duckdb' AS x", BASIC),
    Attack("INSTALL", "statement", "INSTALL httpfs", STATEMENT),
    Attack("INSTALL FROM URL", "statement", "INSTALL httpfs FROM '{url}'", BASIC),
    Attack("LOAD", "statement", "LOAD httpfs", STATEMENT),
    Attack("LOAD file", "statement", "LOAD '{canary}'", BASIC),
    Attack("SET external access", "statement", "SET enable_external_access = true", STATEMENT),
    Attack("SET lock_configuration", "statement", "SET lock_configuration = false", BASIC),
    Attack("SET VARIABLE", "statement", "SET VARIABLE sqlequiv_fid = 0", BASIC),
    Attack("RESET", "statement", "RESET memory_limit", STATEMENT),
    Attack("PRAGMA", "statement", "PRAGMA profiling_output = '{dir}/profile.json'", STATEMENT),
    Attack("PRAGMA database_list", "statement", "PRAGMA database_list", BASIC),
    Attack("CALL", "statement", "CALL duckdb_settings()", STATEMENT),
    Attack("CALL pragma", "statement", "CALL pragma_version()", BASIC),
    Attack(
        "CREATE TABLE AS read_csv",
        "statement",
        "CREATE TABLE x AS SELECT * FROM read_csv('{canary}')",
        BASIC,
    ),
    Attack("CREATE SECRET", "statement", "CREATE SECRET s (TYPE http)", BASIC),
    Attack("CREATE MACRO", "statement", "CREATE MACRO t2() AS TABLE SELECT 1 AS a", BASIC),
    Attack("CHECKPOINT", "statement", "CHECKPOINT", BASIC),
    Attack("DETACH", "statement", "DETACH memory", BASIC),
    Attack(
        "data-modifying CTE",
        "statement",
        "WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d",
        BASIC,
    ),
    # other source dialects
    Attack("pg_read_file (postgres)", "scalar", "pg_read_file('{canary}')", BASIC, "postgres"),
    Attack(
        "pg_read_binary_file in FROM (postgres)",
        "table",
        "pg_read_binary_file('{canary}')",
        BASIC,
        "postgres",
    ),
    Attack(
        "current_setting (postgres)",
        "scalar",
        "current_setting('data_directory')",
        BASIC,
        "postgres",
    ),
    Attack(
        "COPY TO PROGRAM (postgres)",
        "statement",
        "COPY t TO PROGRAM 'touch {dir}/pwned'",
        BASIC,
        "postgres",
    ),
    Attack("LOAD_FILE (mysql)", "scalar", "LOAD_FILE('{canary}')", BASIC, "mysql"),
    Attack(
        "INTO OUTFILE (mysql)",
        "statement",
        "SELECT a FROM t INTO OUTFILE '{dir}/out.txt'",
        BASIC,
        "mysql",
    ),
    Attack("file table csv.`path` (spark)", "table", "csv.`{canary}`", BASIC, "spark"),
    Attack("file table main.`path` (spark)", "table", "main.`{canary}`", BASIC, "spark"),
)


@dataclass(frozen=True)
class SchemaAttack:
    """Hostile schema DDL. ``may_load``: documented as ignored (never executed), so loading
    it is safe; otherwise it must be refused (CHECKs are executed by the constraint checks)."""

    name: str
    template: str
    may_load: bool = False


SCHEMA_ATTACKS: tuple[SchemaAttack, ...] = (
    SchemaAttack(
        "CREATE TABLE AS read_csv", "CREATE TABLE t AS SELECT * FROM read_csv('{canary}')"
    ),
    SchemaAttack(
        "INSERT ... SELECT read_csv",
        SCHEMA_DDL + "; INSERT INTO t SELECT * FROM read_csv('{canary}')",
    ),
    SchemaAttack(
        "CREATE VIEW over read_text",
        SCHEMA_DDL + "; CREATE VIEW v AS SELECT * FROM read_text('{canary}')",
    ),
    SchemaAttack("COPY in the schema", SCHEMA_DDL + "; COPY t TO '{dir}/schema_copy.csv'"),
    SchemaAttack("ATTACH in the schema", SCHEMA_DDL + "; ATTACH '{dir}/schema.db' AS x"),
    SchemaAttack("INSTALL in the schema", SCHEMA_DDL + "; INSTALL httpfs"),
    SchemaAttack("LOAD in the schema", SCHEMA_DDL + "; LOAD httpfs"),
    SchemaAttack(
        "SET in the schema (ignored)",
        SCHEMA_DDL + "; SET enable_external_access = true",
        may_load=True,
    ),
    SchemaAttack(
        "PRAGMA in the schema (ignored)",
        SCHEMA_DDL + "; PRAGMA profiling_output = '{dir}/p.json'",
        may_load=True,
    ),
    SchemaAttack(
        "DEFAULT calling read_text (ignored)",
        "CREATE TABLE t (a INT PRIMARY KEY, b VARCHAR DEFAULT (read_text('{canary}')))",
        may_load=True,
    ),
    SchemaAttack(
        "DEFAULT calling current_setting (ignored)",
        "CREATE TABLE t (a INT PRIMARY KEY, "
        "b VARCHAR DEFAULT (current_setting('secret_directory')))",
        may_load=True,
    ),
    SchemaAttack(
        "CHECK with a read_text subquery",
        "CREATE TABLE t (a INT PRIMARY KEY, b VARCHAR "
        "CHECK (b <> (SELECT content FROM read_text('{canary}'))))",
    ),
    SchemaAttack(
        "CHECK calling read_text",
        "CREATE TABLE t (a INT PRIMARY KEY, b VARCHAR CHECK (length(read_text('{canary}')) > 0))",
    ),
    SchemaAttack(
        "CHECK calling getenv",
        "CREATE TABLE t (a INT PRIMARY KEY, b VARCHAR CHECK (b <> getenv('HOME')))",
    ),
    SchemaAttack(
        "CHECK calling current_setting",
        "CREATE TABLE t (a INT PRIMARY KEY, "
        "b VARCHAR CHECK (b <> current_setting('secret_directory')))",
    ),
    SchemaAttack(
        "column name breaking out of its quotes",
        'CREATE TABLE t (a INT PRIMARY KEY, "b"" VARCHAR); SELECT 1; --" VARCHAR)',
        may_load=True,
    ),
)


def placed(attack: Attack, placement: str, sentinels: Sentinels) -> tuple[str, str, str]:
    """(candidate, reference, side expected in the error) for ``attack`` at ``placement``."""
    fragment = sentinels.fill(attack.template)
    if attack.form == "statement":
        whole = fragment
        forms = {"second statement": f"SELECT a FROM t; {fragment}"}
    elif attack.form == "table":
        whole = f"SELECT * FROM {fragment}"
        forms = {
            "subquery": f"SELECT a FROM t WHERE a IN (SELECT 1 FROM {fragment})",
            "cte": f"WITH x AS (SELECT * FROM {fragment}) SELECT t.a FROM t, x",
            "scalar": f"SELECT a, length(CAST({fragment} AS VARCHAR)) AS n FROM t",
        }
    else:
        whole = f"SELECT {fragment} AS x FROM t"
        forms = {
            "subquery": f"SELECT a FROM t WHERE b = (SELECT {fragment})",
            "cte": f"WITH x AS (SELECT {fragment} AS v) SELECT t.a FROM t, x",
        }
    if placement == "reference":
        return NORMAL_REFERENCE, whole, "reference"
    if placement == "candidate":
        return whole, NORMAL_REFERENCE, "candidate"
    return forms[placement], NORMAL_REFERENCE, "candidate"


# -- runners -----------------------------------------------------------------------------


@dataclass
class Outcome:
    """What one entry point made of one input."""

    entry: str
    status: str  # a verdict, a record status, "refused" (SuiteError) or "raised"
    kind: str | None = None
    side: str | None = None
    message: str = ""
    seconds: float = 0.0
    output: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def label(self) -> str:
        return self.status if self.kind is None else f"{self.status} ({self.kind})"


def run_check(
    candidate: str,
    reference: str,
    schema: Any = SCHEMA_DDL,
    dialect: str = "duckdb",
    options: Options = FAST,
) -> Outcome:
    """``sqlequiv.check``; an exception is an outcome too (``raised``), never propagated."""
    started = time.monotonic()
    try:
        verdict = sqlequiv.check(candidate, reference, schema, dialect, options)
    except Exception as exc:
        return _raised("check", exc, started)
    error = verdict.error
    return Outcome(
        "check",
        verdict.verdict,
        kind=error.kind if error else None,
        side=error.side if error else None,
        message=error.message if error else "",
        seconds=time.monotonic() - started,
        output=verdict.to_json(),
    )


def make_item(
    reference: str = NORMAL_REFERENCE, schema: str = SCHEMA_DDL, dialect: str = "duckdb"
) -> Item:
    """A one-item suite: ``schema``, one accepted reference and the fixture ``two``."""
    document = SuiteDocument(
        {
            "items": [
                {
                    "id": "q",
                    "question": "Which rows?",
                    "schema": schema,
                    "dialect": dialect,
                    "reference_kind": "query",
                    "accepted_references": [{"name": "ref", "sql": reference}],
                    "fixtures": [{"name": "two", "rows": FIXTURE_ROWS}],
                }
            ]
        }
    )
    return build_suite(document).item("q")


_ITEMS: dict[str, Item] = {}


def standard_item(dialect: str = "duckdb") -> Item:
    if dialect not in _ITEMS:
        _ITEMS[dialect] = make_item(dialect=dialect)
    return _ITEMS[dialect]


def run_grade(
    candidate: str,
    reference: str | None = None,
    schema: str = SCHEMA_DDL,
    dialect: str = "duckdb",
    options: Options = FAST,
) -> Outcome:
    """``sqlequiv.grading.grade`` on a one-item suite (built fresh unless it is the standard one).

    A suite that does not load is ``refused`` (the safe answer to a hostile schema).
    """
    started = time.monotonic()
    try:
        if reference is None and schema == SCHEMA_DDL:
            item = standard_item(dialect)
        else:
            item = make_item(reference or NORMAL_REFERENCE, schema, dialect)
    except SuiteError as err:
        return Outcome(
            "grade",
            "refused",
            kind=_suite_kind(str(err)),
            side="schema",
            message=str(err),
            seconds=time.monotonic() - started,
            output=str(err),
        )
    except Exception as exc:
        return _raised("grade", exc, started)
    try:
        record = grade(item, candidate, options)
    except Exception as exc:
        return _raised("grade", exc, started)
    data = record.to_dict()
    error = data["error"] or {}
    anomaly = data["anomaly"] or {}
    return Outcome(
        "grade",
        record.status,
        kind=error.get("kind") or anomaly.get("kind"),
        side=error.get("side"),
        message=str(error.get("message") or anomaly.get("detail") or ""),
        seconds=time.monotonic() - started,
        output=record.to_json(),
    )


def _suite_kind(message: str) -> str | None:
    for kind in ("unsupported_statement", "unsupported_constraint", "parse_error"):
        if kind in message:
            return kind
    return "suite_error"


def _raised(entry: str, exc: BaseException, started: float) -> Outcome:
    return Outcome(
        entry,
        "raised",
        kind=type(exc).__name__,
        message=str(exc).splitlines()[0] if str(exc) else "",
        seconds=time.monotonic() - started,
    )


def in_fresh_thread(function: Callable[[], T]) -> T:
    """``function()`` on a new thread, hence on its own executor (``shared_executor`` is
    per thread): whatever state an attack leaves on its connection stays with that thread,
    so one broken connection fails one test, not every test after it."""
    box: list[Any] = []

    def target() -> None:
        try:
            box.append((True, function()))
        except BaseException as exc:
            box.append((False, exc))

    thread = threading.Thread(target=target, name="sandbox-test")
    thread.start()
    thread.join()
    ok, value = box[0]
    if not ok:
        raise value
    return cast(T, value)


def _with_health(outcome: Outcome) -> Outcome:
    outcome.extra["health"] = healthy()
    return outcome


def healthy(*, graded_too: bool = True) -> list[str]:
    """Problems of this thread's connection with a normal pair (empty when it is fine)."""
    problems = []
    checked = run_check(NORMAL_CANDIDATE, NORMAL_REFERENCE)
    if checked.status != "not_equivalent":
        problems.append(f"check of a normal pair: {checked.label()} {checked.message}")
    if not graded_too:
        return problems
    graded = run_grade(NORMAL_CANDIDATE)
    if graded.status != "fail":
        problems.append(f"grade of a normal pair: {graded.label()} {graded.message}")
    return problems


# -- the sandboxed executor alone (the guard bypassed) --------------------------------------

#: Raw SQL for the executor, bypassing the guard: each must fail inside DuckDB.
RAW: tuple[str, ...] = (
    "SELECT * FROM read_csv('{canary}')",
    "SELECT * FROM read_text('{canary}')",
    "SELECT * FROM read_blob('{fifo}')",
    "SELECT * FROM read_csv('{fifo}')",
    "SELECT * FROM '{canary}'",
    "SELECT * FROM glob('{dir}/*')",
    "SELECT * FROM read_csv('{url}/x.csv')",
    "SELECT * FROM read_text('{url}/x.txt')",
    "COPY (SELECT 1 AS x) TO '{dir}/raw_copy.csv'",
    "EXPORT DATABASE '{dir}/raw_export'",
    "ATTACH '{dir}/raw_attached.db' AS x",
    "ATTACH '{canary}' AS x (READ_ONLY)",
    "INSTALL httpfs FROM '{url}'",
    "LOAD '{canary}'",
    "SET enable_external_access = true",
    "SET lock_configuration = false",
    "RESET enable_external_access",
    "SET memory_limit = '100GB'",
    "PRAGMA profiling_output = '{dir}/raw_profile.json'",
)

#: The same, aimed at DuckDB's temp_directory (``.tmp`` under the working directory when
#: the connection was opened), which DuckDB allows even with external access disabled.
RAW_TEMP_DIRECTORY: tuple[str, ...] = (
    "SELECT * FROM read_text('.tmp/canary.csv')",
    "SELECT * FROM read_csv('{canary}')",
    "SELECT * FROM glob('.tmp/*')",
    "COPY (SELECT 1 AS x) TO '.tmp/written.csv'",
    "ATTACH '.tmp/attached.db' AS x",
)


def run_raw(executor: Any, sentinels: Sentinels, template: str) -> list[str]:
    """Run ``template`` on ``executor`` directly; what went wrong (empty if it failed safely)."""
    from sqlequiv.errors import QueryFailed

    sentinels.arm()
    try:
        output = str(executor.run(sentinels.fill(template)).rows)
    except QueryFailed as exc:
        output = str(exc)
        failed = True
    else:
        failed = False
    problems = sentinels.breaches(output)
    if not failed:
        problems.append(f"executed: {output[:100]}")
    return problems


# -- resource bombs ------------------------------------------------------------------------


def _nested_parentheses(depth: int) -> str:
    return "SELECT " + "(" * depth + "1" + "+1)" * depth + " AS x"


def _nested_subqueries(depth: int) -> str:
    query = "SELECT a FROM t"
    for n in range(depth):
        query = f"SELECT a FROM ({query}) AS s{n}"
    return query


@dataclass(frozen=True)
class Bomb:
    """A query that tries to exhaust time, memory or the analyser.

    ``must_error``: the only right answer is an ``error`` (of a resource kind); otherwise
    the query is legitimate but big, and any answer will do as long as it comes within
    the limits, without an exception. ``isolated`` bombs run in a child process with a
    capped address space and a hard wall-clock kill, because today they escape the
    configured limits (memory or time) or raise, and would take the test process with them.
    """

    name: str
    sql: Callable[[], str]
    isolated: bool = False
    must_error: bool = True
    reference: str = NORMAL_REFERENCE


BOMBS: tuple[Bomb, ...] = (
    Bomb(
        "endless recursive CTE",
        lambda: (
            "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) "
            "SELECT count(*) AS c FROM r"
        ),
    ),
    Bomb(
        "cross join of range(1e8) x range(1e8)",
        lambda: "SELECT count(*) AS c FROM range(100000000) AS x, range(100000000) AS y",
    ),
    Bomb(
        "cross join of generate_series",
        lambda: (
            "SELECT count(*) AS c FROM generate_series(1, 100000000) AS x(i), "
            "generate_series(1, 100000000) AS y(j)"
        ),
    ),
    Bomb(
        "string_agg of 5000 x 1 MB (out of memory)",
        lambda: "SELECT length(string_agg(repeat('x', 1000000), ',')) AS l FROM range(5000)",
    ),
    Bomb("((((1+1)+1)...) 5000 deep", lambda: _nested_parentheses(5000)),
    Bomb("500 nested subqueries", lambda: _nested_subqueries(500)),
    Bomb(
        "5 MB query text",
        lambda: "SELECT a FROM t WHERE " + " OR ".join(f"a = {n}" for n in range(380_000)),
    ),
    Bomb("NUL byte", lambda: "SELECT a FROM t WHERE b = 'x\x00y'"),
    Bomb("binary junk", lambda: "SELECT \x01\x02\x7f\x80\ufffd FROM t"),
    Bomb(
        "lone surrogates (bad UTF-8 via surrogateescape)",
        lambda: b"SELECT a FROM t WHERE b = '\xff\xfe'".decode("utf-8", "surrogateescape"),
    ),
    # escape the configured limits or raise today: run isolated
    Bomb("repeat('x', 1e9)", lambda: "SELECT length(repeat('x', 1000000000)) AS l", True),
    Bomb("scalar range(1e8) list", lambda: "SELECT len(range(100000000)) AS l", True),
    Bomb(
        "a+a+...+a, 300 terms (0.6 KB)",
        lambda: "SELECT " + " + ".join(["a"] * 300) + " AS x FROM t",
        True,
        must_error=False,
        reference="SELECT a FROM t",
    ),
    Bomb(
        "OR chain of 3000 comparisons (35 KB)",
        lambda: "SELECT a FROM t WHERE " + " OR ".join(f"a = {n}" for n in range(3000)),
        True,
        must_error=False,
    ),
    Bomb(
        "integer literal of 5000 digits",
        lambda: "SELECT a FROM t WHERE a < " + "1" * 5000,
        True,
        must_error=False,
    ),
    Bomb(
        "string literal of 5000 digits compared to INT",
        lambda: "SELECT a FROM t WHERE a = '" + "1" * 5000 + "'",
        True,
        must_error=False,
    ),
    Bomb(
        "leading whitespace: 40 spaces, then 1 (guard regex)",
        lambda: " " * 40 + "1",
        True,
        must_error=False,
    ),
)


_CHILD = r"""
import json, resource, sys, time
limit = int(sys.argv[1]) * 1024 ** 3
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
sys.path.insert(0, sys.argv[2])
import sandbox_attacks as sa
args = json.loads(sys.stdin.read())
if args["entry"] == "check":
    outcome = sa.run_check(args["sql"], args["reference"])
elif args["reference"] == sa.NORMAL_REFERENCE:
    outcome = sa.run_grade(args["sql"])
else:
    outcome = sa.run_grade(args["sql"], args["reference"])
def peak_mb():
    # VmHWM belongs to this program's address space; ru_maxrss would include the parent's
    # resident size at fork time, which Linux carries across exec.
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) // 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
peak = peak_mb()
health = sa.healthy()
print(json.dumps({"status": outcome.status, "kind": outcome.kind, "side": outcome.side,
                  "message": outcome.message[:300], "seconds": outcome.seconds,
                  "peak_rss_mb": peak, "health": health}))
"""


def run_isolated(
    entry: str, sql: str, reference: str = NORMAL_REFERENCE, timeout: float = WALL_BOUND
) -> Outcome:
    """Run ``entry`` ("check" or "grade") on ``sql`` in a child with a capped address space,
    then a normal pair in the same child; a child still running after ``timeout`` is killed
    (status ``hung``)."""
    started = time.monotonic()
    command = [
        sys.executable,
        "-c",
        _CHILD,
        str(CHILD_ADDRESS_SPACE_GB),
        str(Path(__file__).parent),
    ]
    process = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        out, err = process.communicate(
            json.dumps({"entry": entry, "sql": sql, "reference": reference}), timeout=timeout
        )
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        return Outcome(
            entry,
            "hung",
            message=f"still running after {timeout:g} s; killed",
            seconds=time.monotonic() - started,
        )
    lines = [line for line in out.splitlines() if line.startswith("{")]
    if process.returncode != 0 or not lines:
        return Outcome(
            entry,
            "crashed",
            kind=f"exit {process.returncode}",
            message=err.strip().splitlines()[-1] if err.strip() else "",
            seconds=time.monotonic() - started,
        )
    data = json.loads(lines[-1])
    return Outcome(
        entry,
        data["status"],
        kind=data["kind"],
        side=data["side"],
        message=data["message"],
        seconds=data["seconds"],
        extra={"peak_rss_mb": data["peak_rss_mb"], "health": data["health"]},
    )


def bomb_problems(outcome: Outcome, must_error: bool = True) -> list[str]:
    """Why ``outcome`` is not "an error within the limits" (or, unless ``must_error``, "an
    answer within the limits"); empty when it is."""
    problems = []
    if outcome.status in ("raised", "hung", "crashed"):
        problems.append(f"{outcome.label()}: {outcome.message[:160]}")
    elif must_error and outcome.status != "error":
        problems.append(f"expected an error, got {outcome.label()}")
    elif (
        must_error
        and outcome.kind not in RESOURCE_KINDS | {"invalid_text"}
        and not (outcome.kind == "execution_error" and "Out of Memory" in outcome.message)
    ):
        problems.append(f"unexpected error kind {outcome.kind}: {outcome.message[:120]}")
    if outcome.seconds >= WALL_BOUND:
        problems.append(f"took {outcome.seconds:.1f} s (bound {WALL_BOUND:g} s)")
    peak = outcome.extra.get("peak_rss_mb")
    if peak is not None and peak > MEMORY_BOUND_MB:
        problems.append(f"peak RSS {peak} MB (bound {MEMORY_BOUND_MB} MB)")
    problems += [f"next normal pair: {p}" for p in outcome.extra.get("health", [])]
    return problems


# -- the report ------------------------------------------------------------------------------


def _code(text: str) -> str:
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in cells) + " |"


def report(path: Path, scratch: Path) -> None:
    """Run every attack and bomb and write the markdown table to ``path``."""
    with sentinels_in(scratch / "probe") as probe:
        atime = probe.atime_works
    rows = [
        f"Generated by `python tests/sandbox_attacks.py` with {FAST}. Schema: `{SCHEMA_DDL}`; "
        f"normal reference `{NORMAL_REFERENCE}`; grade items have the fixture t = {{1, 2}}. "
        "Placeholders: `{canary}` a file holding a random secret, `{fifo}` a FIFO whose "
        "writer thread counts opens, `{dir}` their directory, `{url}` a loopback listener "
        'counting connections. "Untouched" = canary bytes unchanged'
        + (
            ", canary access time unchanged (atime updates on read here)"
            if atime
            else " (atime does not update here: not used)"
        )
        + ", FIFO never opened, 0 connections, no file created in `{dir}`, and neither the "
        "secret nor a hidden file name in the verdict/record JSON. Times are wall clock.",
        "",
        _row(
            [
                "attack",
                "where placed",
                "check: verdict (error kind)",
                "grade: status (error kind)",
                "canary/FIFO/listener untouched",
                "refused or failed safely",
                "time check / grade",
            ]
        ),
        _row(["---"] * 7),
    ]
    with sentinels_in(scratch / "sentinels") as sentinels:
        for attack in ATTACKS:
            for placement in attack.placements:
                candidate, reference, side = placed(attack, placement, sentinels)
                sentinels.arm()
                checked = run_check(candidate, reference, dialect=attack.dialect)
                ref = reference if placement == "reference" else None
                graded = run_grade(candidate, ref, dialect=attack.dialect)
                breaches = sentinels.breaches(checked.output, graded.output)
                graded_safe = (
                    (graded.status, graded.kind) == ("anomaly", "reference_error")
                    if ref
                    else graded.status == "error" and graded.kind in REFUSAL_KINDS
                )
                checked_safe = (
                    checked.status == "error"
                    and checked.side == side
                    and checked.kind in REFUSAL_KINDS
                )
                safe = checked_safe and graded_safe
                safe_cell = "yes" if safe else "NO: executed"
                where = (
                    placement if attack.dialect == "duckdb" else f"{placement} ({attack.dialect})"
                )
                rows.append(
                    _row(
                        [
                            _code(attack.template),
                            where,
                            checked.label(),
                            graded.label(),
                            "yes" if not breaches else "NO: " + "; ".join(breaches),
                            safe_cell,
                            f"{checked.seconds * 1000:.0f} ms / {graded.seconds * 1000:.0f} ms",
                        ]
                    )
                )
        for schema_attack in SCHEMA_ATTACKS:
            ddl = sentinels.fill(schema_attack.template)

            def attempt(ddl: str = ddl) -> tuple[Outcome, Outcome, list[str], list[str]]:
                healthy(graded_too=False)  # prepares the standard schema on this connection
                sentinels.arm()
                checked = run_check(NORMAL_CANDIDATE, NORMAL_REFERENCE, ddl)
                graded = run_grade(NORMAL_CANDIDATE, schema=ddl)
                breaches = sentinels.breaches(checked.output, graded.output)
                return checked, graded, breaches, healthy()

            checked, graded, breaches, after = in_fresh_thread(attempt)
            if "raised" in (checked.status, graded.status):
                safe_cell = "NO: an exception escaped"
            elif schema_attack.may_load:
                safe_cell = "yes (ignored, never executed)"
            elif (checked.status, checked.side, graded.status) == ("error", "schema", "refused"):
                safe_cell = "yes (refused)"
            else:
                safe_cell = "NO: loaded, and the CHECK is executed"
            rows.append(
                _row(
                    [
                        f"{schema_attack.name}: {_code(schema_attack.template)}",
                        "schema DDL",
                        checked.label(),
                        graded.label(),
                        ("yes" if not breaches else "NO: " + "; ".join(breaches))
                        + ("" if not after else f"; next normal pair broken: {after[0]}"),
                        safe_cell,
                        f"{checked.seconds * 1000:.0f} ms / {graded.seconds * 1000:.0f} ms",
                    ]
                )
            )
    rows.append("")
    rows.append(_row(["SQL run on the sandboxed executor directly (guard bypassed)", "outcome"]))
    rows.append(_row(["---"] * 2))
    from sqlequiv.execute.duckdb_engine import DuckDBExecutor

    with sentinels_in(scratch / "raw") as sentinels:
        executor = DuckDBExecutor(timeout=1.0)
        for template in RAW:
            problems = run_raw(executor, sentinels, template)
            rows.append(
                _row(
                    [
                        _code(template),
                        "refused, nothing touched"
                        if not problems
                        else "NO: " + "; ".join(problems),
                    ]
                )
            )
    here = Path.cwd()
    os.chdir(scratch)
    try:
        with sentinels_in(scratch / ".tmp") as sentinels:
            executor = DuckDBExecutor(timeout=1.0)
            for template in RAW_TEMP_DIRECTORY:
                problems = run_raw(executor, sentinels, template)
                rows.append(
                    _row(
                        [
                            f"{_code(template)} (cwd/.tmp)",
                            "refused, nothing touched"
                            if not problems
                            else "NO: " + "; ".join(problems),
                        ]
                    )
                )
    finally:
        os.chdir(here)
    rows.append("")
    rows.append(
        _row(
            [
                "resource bomb",
                "where placed",
                "check: verdict (error kind)",
                "grade: status (error kind)",
                "limits kept / next pair",
                "time check / grade",
            ]
        )
    )
    rows.append(_row(["---"] * 6))
    for bomb in BOMBS:
        sql = bomb.sql()
        if bomb.isolated:
            checked = run_isolated("check", sql, bomb.reference)
            graded = run_isolated("grade", sql, bomb.reference)
        else:
            checked = in_fresh_thread(lambda s=sql, b=bomb: _with_health(run_check(s, b.reference)))
            graded = in_fresh_thread(lambda s=sql: _with_health(run_grade(s)))
        problems = list(
            dict.fromkeys(
                bomb_problems(checked, bomb.must_error) + bomb_problems(graded, bomb.must_error)
            )
        )
        peaks = [o.extra.get("peak_rss_mb") for o in (checked, graded)]
        memory = "" if peaks[0] is None else f" (peak RSS {peaks[0]} / {peaks[1]} MB)"
        rows.append(
            _row(
                [
                    bomb.name,
                    "candidate" + (" (isolated child)" if bomb.isolated else ""),
                    checked.label(),
                    graded.label(),
                    "yes" if not problems else "NO: " + "; ".join(problems),
                    f"{checked.seconds:.1f} s / {graded.seconds:.1f} s{memory}",
                ]
            )
        )

    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as scratch_dir:
        report(Path(sys.argv[1]), Path(scratch_dir))
