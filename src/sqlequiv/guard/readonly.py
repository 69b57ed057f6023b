"""The read-only check and the function check: what a query may do at all.

A candidate must be one query that only reads: no statement or clause that writes,
changes session state or is not a query, anywhere in the tree (a data-modifying CTE
included); no forbidden function (:mod:`sqlequiv.policy.functions`), no table function
but the few that compute rows, no function the engine does not have, no construct
without a meaning to execute. These run on the source tree and again, as defence in
depth, on the DuckDB translation.
"""

from __future__ import annotations

from sqlglot import exp

from sqlequiv.errors import QueryError
from sqlequiv.guard.qualify import translated_functions
from sqlequiv.guard.text import (
    _STATEMENT_KEYWORDS,
    CheckerBase,
)
from sqlequiv.policy.catalogues import duckdb_functions, sqlite_functions
from sqlequiv.policy.functions import (
    MAX_BUILT_SIZE,
    SIZED_FUNCTIONS,
    TABLE_FUNCTION_NODES,
    TABLE_FUNCTIONS,
    function_names,
    is_forbidden,
)
from sqlequiv.policy.sizes import format_width, numeric_constant, series_length

# Statements and clauses that write, change session state, or are not queries.
# Searched for anywhere in the tree, so a data-modifying CTE
# (WITH d AS (DELETE ... RETURNING *) SELECT ...) is caught as well as a root.
_NOT_READ_ONLY: tuple[type[exp.Expr], ...] = (
    exp.DML,  # INSERT, UPDATE, DELETE, MERGE, COPY
    exp.DDL,  # CREATE (of anything), INSERT
    exp.Drop,
    exp.Undrop,
    exp.Alter,
    exp.AlterRename,
    exp.AlterSession,
    exp.SwapTable,
    exp.TruncateTable,
    exp.MultitableInserts,
    exp.LoadData,
    exp.Returning,
    exp.Into,  # SELECT ... INTO creates a table
    exp.Lock,  # SELECT ... FOR UPDATE / FOR SHARE
    exp.LockingStatement,
    exp.Attach,
    exp.Detach,
    exp.Pragma,
    exp.Set,
    exp.SetItem,
    exp.Use,
    exp.Install,
    exp.Command,  # sqlglot's fallback for statements it does not understand
    exp.Describe,
    exp.Show,
    exp.Summarize,
    exp.Export,
    exp.Analyze,
    exp.Transaction,
    exp.Commit,
    exp.Rollback,
    exp.Cache,
    exp.Uncache,
    exp.Refresh,
    exp.Grant,
    exp.Revoke,
    exp.Kill,
    exp.Comment,
    exp.Declare,
    exp.Execute,
    exp.Put,
    exp.Get,
    exp.StoredProcedure,
)

# How a refused node is named in messages, where the class name would not say it.
_STATEMENT_NAMES: dict[type[exp.Expr], str] = {
    exp.TruncateTable: "TRUNCATE",
    exp.MultitableInserts: "INSERT",
    exp.LoadData: "LOAD DATA",
    exp.Into: "SELECT ... INTO",
    exp.Lock: "a row-locking clause (FOR UPDATE / FOR SHARE)",
    exp.LockingStatement: "LOCKING",
    exp.SetItem: "SET",
    exp.Transaction: "BEGIN",
    exp.AlterRename: "ALTER ... RENAME",
    exp.AlterSession: "ALTER SESSION",
    exp.SwapTable: "ALTER ... SWAP",
    exp.Returning: "RETURNING",
}

# Operators whose operands are values: a bare "*" there (Calcite writes
# "WHERE * = t.deptno") stands for nothing. A Dot is struct access (s.*).
_VALUE_OPERATORS: tuple[type[exp.Expr], ...] = (exp.Binary, exp.Unary, exp.In, exp.Between)

# Window functions that have no meaning without OVER (DuckDB has no aggregate of
# these names; Calcite's and Spark's aggregate forms pick an undetermined row).
_WINDOW_ONLY: tuple[type[exp.Expr], ...] = (exp.FirstValue, exp.LastValue, exp.NthValue)

# Nodes between a window function and its OVER: FIRST_VALUE(x) IGNORE NULLS OVER (...).
_WINDOW_WRAPPERS: tuple[type[exp.Expr], ...] = (exp.IgnoreNulls, exp.RespectNulls, exp.Filter)


class ReadOnlyChecks(CheckerBase):
    """The statement, function and construct checks over one tree."""

    # -- read-only -------------------------------------------------------------

    def check_read_only(self, root: exp.Expr) -> None:
        """The root is a query and nothing anywhere in the tree writes or changes state."""
        leading = self.leading_keyword()
        for node in root.walk():
            if isinstance(node, _NOT_READ_ONLY):
                name = _statement_name(node)
                if node is root and leading is not None:
                    # A whole statement: quote the source, not sqlglot's rendering of it.
                    raise self.refuse_statement(name, leading[1])
                raise self.error(
                    "not_read_only",
                    f"{name} is not allowed: only a single read-only query can be checked "
                    f'(found "{self.snippet(node, fallback=root)}")',
                    node,
                    keyword=_statement_keyword(node),
                )
            if isinstance(node, (exp.Placeholder, exp.Parameter)):
                raise self.error(
                    "unsupported",
                    f'query parameters are not supported (found "{self.snippet(node)}")',
                    node,
                )

        query = root.unnest()
        if isinstance(query, (exp.Select, exp.SetOperation, exp.Values)):
            return
        if isinstance(query, exp.Pivot):
            raise self.error(
                "unsupported",
                "a stand-alone PIVOT/UNPIVOT statement is not supported "
                f'(found "{self.snippet(root)}")',
                root,
            )
        if leading is not None and leading[0] in _STATEMENT_KEYWORDS:
            # Parsed as a bare expression: Postgres reads "INSTALL httpfs" as an alias.
            raise self.refuse_statement(*leading)
        raise self.error(
            "parse_error",
            f'expected a query (SELECT, WITH, VALUES, ...), found "{self.snippet(root)}"',
            root,
        )

    # -- functions -------------------------------------------------------------

    def check_size(self, root: exp.Expr, max_nodes: int) -> None:
        """Not more tree than the analysers can get through in their budgets.

        Normalization and the symbolic layer have no clock of their own; a 3,000-term
        OR chain (35 KB, well under the text limit) kept them busy for minutes.
        """
        for count, _ in enumerate(root.walk(), start=1):
            if count > max_nodes:
                raise QueryError(
                    self.side,
                    "too_complex",
                    f"the query has more than {max_nodes:,} syntax-tree nodes",
                )

    def _check_built_size(self, node: exp.Func, names: list[str]) -> None:
        """Refuse a scalar call whose constant arguments ask for a huge value: DuckDB builds
        it whole inside one call, where neither the timeout nor the memory limit holds
        (see :mod:`sqlequiv.policy.sizes`)."""
        sizes: list[tuple[float, str]] = []
        if SIZED_FUNCTIONS.intersection(names):
            for arg in node.iter_expressions():
                size = numeric_constant(arg)
                if size is not None:
                    sizes.append((abs(size), f"{names[0]} with {arg.sql()}"))
            length = series_length(node)
            if length is not None:
                sizes.append((length, f"{names[0]} of {length:,.0f} dates or timestamps"))
        width = format_width(node)
        if width is not None:
            sizes.append((width, f"{names[0]} with a width of {width:,}"))
        for size, what in sizes:
            if size > MAX_BUILT_SIZE:
                raise self.error(
                    "resource_limit",
                    f"{what} would build a value of more than {MAX_BUILT_SIZE:,} elements "
                    f'in memory (found "{self.snippet(node)}")',
                    node,
                )

    def check_functions(self, root: exp.Expr) -> None:
        """No forbidden function anywhere; only allowed table functions in FROM; no
        constant that makes a scalar function build a huge value."""
        for node in root.walk():
            if not isinstance(node, exp.Func):
                continue
            names = function_names(node)
            if not _in_table_position(node):
                self._check_built_size(node, names)
            forbidden = next((n for n in names if is_forbidden(n)), None)
            if forbidden is not None:
                raise self.error(
                    "forbidden_function",
                    f"function {forbidden} is not allowed: it can read files or URLs, other "
                    f'databases, settings or the environment (found "{self.snippet(node)}")',
                    node,
                    keyword=forbidden,
                )
            if _in_table_position(node) and not (
                isinstance(node, TABLE_FUNCTION_NODES) or TABLE_FUNCTIONS.intersection(names)
            ):
                allowed = ", ".join(sorted(TABLE_FUNCTIONS))
                raise self.error(
                    "forbidden_function",
                    f"table function {names[0]} is not allowed in FROM (allowed: {allowed}); "
                    f'found "{self.snippet(node)}"',
                    node,
                    keyword=names[0],
                )

    def check_known_functions(self, root: exp.Expr) -> None:
        """Every function the dialect's parser did not recognise exists in DuckDB.

        A name neither sqlglot nor DuckDB knows is an uninterpreted function
        (``B1(x)`` in the query-equivalence literature): there is nothing to
        execute, so it is refused by name instead of failing later, often as a
        confusing unknown column (its argument is typically a table alias).
        """
        translated = translated_functions(self.dialect)
        for node in root.walk(bfs=False):  # the first in reading order
            if not isinstance(node, (exp.Anonymous, exp.AnonymousAggFunc)):
                continue
            name = node.name
            if _in_table_position(node) or not name:
                continue  # table functions are checked by check_functions
            lower = name.lower()
            if lower in translated:
                continue  # rewritten during qualification, or refused after it
            if lower == "single_value":
                raise self.error(
                    "unsupported",
                    f'{name} is not supported (found "{self.snippet(node)}"): it is Calcite\'s '
                    "aggregate that fails at run time when its group has more than one row, "
                    "and a query that fails on some databases cannot be compared by its rows",
                    node,
                    keyword=name,
                )
            if self.engine == "postgres" or lower in self.known_functions():
                # PostgreSQL's catalogue is on the server: an unknown name fails there
                # as a static error (SQLSTATE 42883), before any row is read.
                continue
            engine = "SQLite" if self.engine == "sqlite" else "DuckDB"
            where = (
                "DuckDB has no such function"
                if self.sql is None
                else f"it is not a {self.dialect} function sqlglot knows, nor a {engine} function"
            )
            raise self.error(
                "unknown_function",
                f"function {name} does not exist: {where} "
                f'(found "{self.snippet(node)}"); an uninterpreted function cannot be checked',
                node,
                keyword=name,
            )

    def known_functions(self) -> frozenset[str]:
        """Names of the functions the engine that runs the query has."""
        if self.engine == "sqlite":
            return sqlite_functions()
        return duckdb_functions()

    # -- constructs without a meaning to execute --------------------------------

    def check_constructs(self, root: exp.Expr) -> None:
        """Refuse constructs that parse but mean nothing DuckDB can run, by name."""
        for node in root.walk():
            if isinstance(node, exp.Select) and not node.expressions:
                raise self.error(
                    "unsupported",
                    "a SELECT without columns is not supported: DuckDB has no rows without "
                    f'columns to compare (found "{self.snippet(node)}")',
                    node,
                    keyword="SELECT",
                )
            if (
                isinstance(node, exp.Star)
                and isinstance(node.parent, _VALUE_OPERATORS)
                and not isinstance(node.parent, exp.Dot)
            ):
                operation = node.parent
                raise self.error(
                    "unsupported",
                    f'"*" is used as a value in "{self.snippet(operation)}": a bare * stands '
                    "for all columns only in a select list or COUNT(*), and has no value",
                    operation,
                )
            if isinstance(node, _WINDOW_ONLY) and not _has_over(node):
                name = node.sql_name() if isinstance(node, exp.Func) else node.key.upper()
                raise self.error(
                    "unsupported",
                    f'{name} without OVER is not supported (found "{self.snippet(node)}"): it is '
                    "a window function, and as an aggregate (Calcite, Spark) it returns the "
                    "value of whichever row of the group comes first, which nothing determines",
                    node,
                    keyword=name,
                )

    def check_translated(self, qualified: exp.Expr) -> None:
        """Refuse what the type-directed translation could not give a single meaning."""
        translated = translated_functions(self.dialect)
        for node in qualified.walk():
            if (
                isinstance(node, exp.Anonymous)
                and node.name.lower() in translated
                and not _in_table_position(node)
            ):
                if node.name.lower() == "single_value":
                    raise self.error(
                        "unsupported",
                        f'this use of {node.name} is not supported (found "{self.snippet(node)}"): '
                        "only a plain SINGLE_VALUE(x) aggregate is translated, not one with "
                        "DISTINCT, FILTER or OVER",
                        node,
                        keyword=node.name,
                    )
                args = node.expressions
                type_ = args[0].type if len(args) == 1 else None
                what = "its arguments"
                if type_ is not None:
                    what = f"a {type_.sql(self.dialect)} value"
                raise self.error(
                    "unsupported",
                    f'{node.name} of {what} is not supported (found "{self.snippet(node)}"): '
                    "only the POSITIVE of one number or interval (the value itself) is translated",
                    node,
                    keyword=node.name,
                )
            if isinstance(node, exp.Case):
                self._check_case_types(node)

    def _check_case_types(self, case: exp.Case) -> None:
        """A CASE whose results mix text columns and numbers has no dialect-independent type.

        Spark and MySQL turn the numbers into strings, DuckDB and Postgres refuse.
        A string literal among numbers is fine: it is cast to the numeric type.
        """
        results = [i.args.get("true") for i in case.args.get("ifs") or ()]
        results.append(case.args.get("default"))
        text = numeric = None
        for result in results:
            type_ = result.type if isinstance(result, exp.Expr) else None
            if type_ is None:
                continue
            if type_.is_type(*exp.DataType.TEXT_TYPES) and not (
                isinstance(result, exp.Literal) and result.is_string
            ):
                text = text or type_
            elif type_.is_type(*exp.DataType.NUMERIC_TYPES):
                numeric = numeric or type_
        if text is not None and numeric is not None:
            raise self.error(
                "unsupported",
                f"CASE mixes {numeric.sql(self.dialect)} and {text.sql(self.dialect)} results "
                f'(found "{self.snippet(case)}"): the type of the result depends on the '
                "dialect's coercion rules (Spark and MySQL make it a string, DuckDB and "
                "Postgres refuse it); add a CAST to say which is meant",
                case,
                keyword="CASE",
            )


def _has_over(node: exp.Expr) -> bool:
    """Whether a window function is the function of a window (``f(x) OVER (...)``)."""
    while isinstance(node.parent, _WINDOW_WRAPPERS):
        node = node.parent
    return isinstance(node.parent, exp.Window) and node.arg_key == "this"


def _in_table_position(node: exp.Expr) -> bool:
    """Whether ``node`` is used as a table: FROM f(...), JOIN f(...), LATERAL f(...)."""
    parent = node.parent
    return isinstance(parent, (exp.Table, exp.From, exp.Join, exp.Lateral)) and (
        node.arg_key == "this"
    )


def _statement_keyword(node: exp.Expr) -> str | None:
    """The source word a refused node starts with, to point the error at it."""
    if isinstance(node, exp.Into):
        return "INTO"
    if isinstance(node, exp.Lock):
        return "FOR"
    word = _statement_name(node).split()[0]
    return word if word.isalpha() and word.isupper() else None


def _statement_name(node: exp.Expr) -> str:
    if isinstance(node, exp.Command):
        return str(node.this).upper()
    for cls, name in _STATEMENT_NAMES.items():
        if isinstance(node, cls):
            return name
    return type(node).__name__.upper()
