"""Which functions a query may call: the guard's function policy.

Candidate SQL is untrusted. A function that reads files or URLs, reaches another
database, runs SQL given as a string or exposes settings is refused *before* anything
executes (:func:`forbidden_function_in`); a scalar function asked to build a huge
value from a constant argument is refused as a resource limit (:data:`MAX_BUILT_SIZE`).
The lists live here, below the guard and the schema loader (which refuses a forbidden
call in a CHECK or DEFAULT), so that both use the one list without importing each other.

Example:
    >>> import sqlglot
    >>> forbidden_function_in(sqlglot.parse_one("b <> getenv('HOME')"))
    'getenv'
"""

from __future__ import annotations

from sqlglot import exp

#: Functions that read files or URLs, reach other databases, run SQL given as a
#: string, or expose the process environment, secrets or settings. Matched by
#: lower-cased name in any position (scalar or FROM). DuckDB also disables
#: external access at run time; this list is what lets us refuse *before*
#: executing, with a message that names the call.
FORBIDDEN_FUNCTIONS: frozenset[str] = frozenset(
    {
        # probes of the engine's configuration and of sqlequiv's own state
        "current_setting",
        "getvariable",
        "setvariable",
        # file and URL readers
        "read_csv",
        "read_csv_auto",
        "read_parquet",
        "parquet_scan",
        "parquet_metadata",
        "parquet_schema",
        "parquet_file_metadata",
        "parquet_kv_metadata",
        "read_json",
        "read_json_auto",
        "read_json_objects",
        "read_json_objects_auto",
        "read_ndjson",
        "read_ndjson_auto",
        "read_ndjson_objects",
        "read_text",
        "read_blob",
        "read_xlsx",
        "glob",
        "sniff_csv",
        "st_read",
        "st_readosm",
        "st_readshp",
        "http_get",
        "http_post",
        # other databases and lakehouse formats
        "iceberg_scan",
        "iceberg_metadata",
        "iceberg_snapshots",
        "delta_scan",
        "sqlite_scan",
        "sqlite_attach",
        "postgres_scan",
        "postgres_attach",
        "postgres_query",
        "postgres_execute",
        "mysql_scan",
        "mysql_query",
        "mysql_execute",
        "arrow_scan",
        "pandas_scan",
        # SQL given as a string escapes every check in this module
        "query",
        "query_table",
        "json_execute_serialized_sql",
        # process environment, secrets, extensions, side effects
        "getenv",
        "duckdb_secrets",
        "which_secret",
        "load_extension",
        "install_extension",
        # PostgreSQL: files, large objects, settings, other sessions and servers, SQL
        # given as a string (its sandbox role fails or lacks these too: the second wall)
        "pg_stat_file",
        "pg_logdir_ls",
        "set_config",
        "pg_terminate_backend",
        "pg_cancel_backend",
        "pg_reload_conf",
        "pg_rotate_logfile",
        "pg_promote",
        "pg_switch_wal",
        "pg_notify",
        "query_to_xml",
        "query_to_xmlschema",
        "query_to_xml_and_xmlschema",
        "cursor_to_xml",
        "cursor_to_xmlschema",
        "table_to_xml",
        "table_to_xmlschema",
        "table_to_xml_and_xmlschema",
        "schema_to_xml",
        "schema_to_xmlschema",
        "schema_to_xml_and_xmlschema",
        "database_to_xml",
        "database_to_xmlschema",
        "database_to_xml_and_xmlschema",
        # SQLite: loads code, or (in the shell's extensions) reads and writes files
        "fts3_tokenizer",
        "readfile",
        "writefile",
        "edit",
        "load_aws_credentials",
        "write_log",
        "checkpoint",
        "force_checkpoint",
        "dbgen",
        "dsdgen",
        "shell",
        "system",
    }
)

#: Name prefixes of whole families of such functions (``pragma_table_info``,
#: ``duckdb_settings``, ``read_...`` readers added by future extensions).
FORBIDDEN_FUNCTION_PREFIXES: tuple[str, ...] = (
    # PostgreSQL: file readers and listings, large objects, other servers, file writers
    "pg_read_",
    "pg_ls_",
    "pg_file_",
    "lo_",
    "dblink",
    "pg_advisory_",
    "read_",
    "parquet_",
    "pragma_",
    "duckdb_",
    "ducklake_",
    "iceberg_",
    "delta_",
    "sqlite_",
    "postgres_",
    "mysql_",
    "arrow_",
    "st_read",
    "http_",
)

#: The only table-valued functions allowed in FROM: they compute rows from
#: their arguments and touch nothing outside the query.
TABLE_FUNCTIONS: frozenset[str] = frozenset({"range", "generate_series", "unnest"})

# sqlglot's own nodes for the allowed table functions (Postgres' generate_series
# parses into a dedicated "exploding" variant).
TABLE_FUNCTION_NODES: tuple[type[exp.Expr], ...] = (
    exp.GenerateSeries,
    exp.ExplodingGenerateSeries,
    exp.Unnest,
)


def function_names(node: exp.Func) -> list[str]:
    """Lower-cased names a function node may stand for."""
    if isinstance(node, (exp.Anonymous, exp.AnonymousAggFunc, exp.ParameterizedAgg)):
        return [node.name.lower()]  # functions sqlglot does not know keep their own name
    return [name.lower() for name in type(node).sql_names()]


#: Largest constant count or length a scalar function may build from (``resource_limit``).
MAX_BUILT_SIZE = 1_000_000
#: Scalar functions whose arguments size a value DuckDB builds in memory at once.
SIZED_FUNCTIONS = frozenset(
    {"repeat", "range", "generate_series", "lpad", "rpad", "list_resize", "array_resize"}
)


def forbidden_function_in(node: exp.Expr) -> str | None:
    """The name of the first forbidden function called in ``node``, or None.

    Example:
        >>> import sqlglot
        >>> forbidden_function_in(sqlglot.parse_one("b <> getenv('HOME')"))
        'getenv'
    """
    for func in node.find_all(exp.Func):
        name = next((n for n in function_names(func) if is_forbidden(n)), None)
        if name is not None:
            return name
    return None


def is_forbidden(name: str) -> bool:
    return name in FORBIDDEN_FUNCTIONS or name.startswith(FORBIDDEN_FUNCTION_PREFIXES)
