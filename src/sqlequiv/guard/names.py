"""Name resolution: every table and column a query names exists, or a clear refusal.

Tables are checked against the schema (unqualified or in ``main`` only, no path-like
names); columns by sqlglot's qualification, whose errors are turned into
``unknown_column`` / ``ambiguous_column`` refusals that list the columns in scope and
suggest the closest name (did you mean). SQLite's habit of reading a double-quoted
string as an identifier is resolved here too (:func:`sqlite_string_identifiers`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from sqlglot import exp
from sqlglot.errors import OptimizeError

from sqlequiv.errors import QueryError
from sqlequiv.guard.readonly import (
    _in_table_position,
)
from sqlequiv.guard.text import (
    _OPTIMIZE_POSITION,
    _PATH_LIKE,
    CheckerBase,
    _did_you_mean,
    _listing,
    _one_line,
)
from sqlequiv.schema.model import Schema

# Calcite's names for the columns of a VALUES list: EXPR$0, EXPR$1, ...
_CALCITE_VALUES_COLUMN = re.compile(r"expr\$(\d+)", re.IGNORECASE)

# Schemas a table may be qualified with: the tables are created in DuckDB's
# default schema, and anything else (information_schema, pg_catalog, an
# attached database) is outside the schema being checked.
_ALLOWED_DB_QUALIFIERS = frozenset({"main"})


def sqlite_string_identifiers(root: exp.Expression, schema: Schema, text: str) -> exp.Expression:
    """Read SQLite's double-quoted strings as strings.

    SQLite takes ``"Bob"`` for an identifier when a column of that name is in
    scope and for a string literal otherwise (a quirk it keeps for
    compatibility, and one Spider's gold queries rely on: ``WHERE name =
    "Bob"``). sqlglot always reads an identifier, which then fails to
    resolve. Here a double-quoted, unqualified name that is no column of any
    schema table and no alias of the query becomes the string it spells.
    Names that exist somewhere are left alone: resolving them needs SQLite's
    scoping, and an unresolved one is reported as an unknown column.

    Example:
        >>> from sqlglot import exp, parse_one
        >>> from sqlequiv.schema.model import Column, Schema, Table
        >>> s = Schema((Table("t", (Column("name", exp.DataType.build("TEXT")),)),))
        >>> q = 'SELECT "name" FROM t WHERE name = "Bob"'
        >>> print(sqlite_string_identifiers(parse_one(q, read="sqlite"), s, q).sql("sqlite"))
        SELECT "name" FROM t WHERE name = 'Bob'
    """
    known = {c.name.lower() for t in schema for c in t.columns}
    known |= {a.alias.lower() for a in root.find_all(exp.Alias) if a.alias}
    for alias in root.find_all(exp.TableAlias):
        known |= {c.name.lower() for c in alias.columns}
    for column in list(root.find_all(exp.Column)):
        ident = column.this
        if column.table or not isinstance(ident, exp.Identifier) or not ident.quoted:
            continue
        start = ident.meta.get("start")
        if not isinstance(start, int) or text[start : start + 1] != '"':
            continue  # `x` and [x] are always identifiers
        if ident.name.lower() in known:
            continue
        literal = exp.Literal.string(ident.name)
        if column is root:
            return literal
        column.replace(literal)
    return root


def _natural_or_using(root: exp.Expression) -> bool:
    return any(j.args.get("method") or j.args.get("using") for j in root.find_all(exp.Join))


class NameChecks(CheckerBase):
    """The table and column checks over one tree."""

    # -- tables ----------------------------------------------------------------

    def check_tables(self, root: exp.Expr) -> None:
        """Every table reference is a schema table or a CTE in scope."""
        for table in root.find_all(exp.Table):
            this = table.this
            if isinstance(this, exp.Func):
                continue  # a table function, checked by check_functions
            if not isinstance(this, exp.Identifier):
                raise self.error(
                    "unsupported",
                    f'the table reference "{self.snippet(table)}" is not supported',
                    table,
                )
            self._check_table(table, this)

    def _check_table(self, table: exp.Table, ident: exp.Identifier) -> None:
        full_name = ".".join(part.name for part in table.parts)
        if self._is_string_literal(ident):
            # DuckDB reads FROM 'file.csv' (a "replacement scan") as a file.
            raise self.error(
                "forbidden_function",
                f"reading a file is not allowed: FROM '{ident.name}' names a file, not a table",
                table,
            )
        if table.catalog or (table.db and table.db.lower() not in _ALLOWED_DB_QUALIFIERS):
            raise self.error(
                "unknown_table",
                f'table "{full_name}" does not exist in the schema: only the schema\'s own '
                f"tables (optionally written main.<table>) can be queried "
                f"(known tables: {self._known_tables()})",
                table,
            )
        if not table.db and _find_cte(table, ident, self.norm) is not None:
            return
        key = self.norm(ident)
        if key in self.tables:
            return

        by_lower = {name.lower(): name for name in self.tables.values()}
        if ident.name.lower() in by_lower:
            raise self.error(
                "unknown_table",
                f'table "{ident.name}" does not exist in the schema: '
                f"{'quoted ' if ident.quoted else ''}table names are case-sensitive in "
                f"{self.dialect or 'this dialect'}; "
                f'did you mean "{by_lower[ident.name.lower()]}"?',
                table,
            )
        if ident.quoted and _PATH_LIKE.search(ident.name):
            raise self.error(
                "forbidden_function",
                f'reading a file is not allowed: "{ident.name}" looks like a file path or '
                "URL, and DuckDB would read it as a file",
                table,
            )
        candidates = sorted(self.tables.values())
        raise self.error(
            "unknown_table",
            f'table "{full_name}" does not exist in the schema '
            f"(known tables: {self._known_tables()}){_did_you_mean(ident.name, candidates)}",
            table,
        )

    def _is_string_literal(self, ident: exp.Identifier) -> bool:
        start = ident.meta_get("start")
        return (
            self.sql is not None
            and isinstance(start, int)
            and start < len(self.sql)
            and self.sql[start] == "'"
        )

    def _known_tables(self) -> str:
        return _listing(sorted(self.tables.values())) or "none"

    # -- columns ---------------------------------------------------------------

    def column_error(self, root: exp.Expr, exc: OptimizeError) -> QueryError:
        message = _one_line(str(exc))
        position = _OPTIMIZE_POSITION.search(message)
        where = (int(position.group(1)), int(position.group(2))) if position else None

        match = re.match(r"Column '(.+?)' could not be resolved for table: '(.+?)'", message)
        if match:
            return self.unknown_column(root, match.group(1), match.group(2), where)
        match = re.match(r"Column '(.+?)' could not be resolved", message)
        if match:
            return self.unknown_column(root, match.group(1), None, where)
        match = re.match(r"Ambiguous column '(.+?)'", message)
        if match:
            return self.unknown_column(root, match.group(1), None, where, ambiguous=True)
        match = re.match(r"Unknown output column: (\d+)$", message)
        if match:
            return self.position_out_of_range(root, match.group(1))
        match = re.match(r"Unknown (?:output )?column: (.+)", message)
        if match:
            return self.unknown_column(root, match.group(1), None, where)
        match = re.match(r"Unknown table: (.+)", message)
        if match:
            return self.error(
                "unknown_table",
                f'table "{match.group(1)}" does not exist in the schema '
                f"(known tables: {self._known_tables()})",
            )
        return self.error(
            "unsupported", f"the query could not be qualified against the schema: {message}"
        )

    def position_out_of_range(self, root: exp.Expr, number: str) -> QueryError:
        """``GROUP BY 4`` (or ORDER BY) with fewer than 4 columns in the select list."""
        literal = next(
            (
                lit
                for lit in root.find_all(exp.Literal)
                if lit.is_int
                and lit.name == number
                and isinstance(lit.parent, (exp.Group, exp.Order, exp.Ordered))
            ),
            None,
        )
        parent = literal.parent if literal is not None else None
        clause = "ORDER BY" if isinstance(parent, (exp.Order, exp.Ordered)) else "GROUP BY"
        select = literal.find_ancestor(exp.Select) if literal is not None else None
        if select is not None and not any(isinstance(e, exp.Star) for e in select.expressions):
            width = f" has {len(select.expressions)} column(s)"
        else:
            width = " is shorter"
        message = (
            f"{clause} {number} is out of range: in {self.dialect} an integer there is a "
            f"position in the select list, and the select list{width}"
        )
        if clause == "GROUP BY":
            message += (
                f" (Calcite reads GROUP BY {number} as the constant {number} instead; as the "
                "meaning differs between systems, the query is not checked)"
            )
        return self.error("unsupported", message, literal)

    def unknown_column(
        self,
        root: exp.Expr,
        name: str,
        table: str | None,
        where: tuple[int, int] | None,
        *,
        ambiguous: bool = False,
    ) -> QueryError:
        """An unknown or ambiguous column, with the columns in scope and close matches."""
        column = _find_column(root, name, table, where)
        line: int | None
        col: int | None
        if column is not None:
            line, col = self.position(column)
            table = table or column.table or None
        elif where is not None:
            line, col = where[0], max(where[1] - len(name) + 1, 1)
        else:
            line = col = None

        if column is None:
            # sqlglot named a column we cannot find again: suggest from the whole schema.
            candidates = list(dict.fromkeys(c for t in self.schema for c in t.column_names))
            message = f'column "{name}" does not exist in the schema'
            message += _did_you_mean(name, candidates)
            kind = "ambiguous_column" if ambiguous else "unknown_column"
            if ambiguous:
                message = f'column "{name}" is ambiguous; qualify it with a table name or alias'
            return QueryError(self.side, kind, message, line=line, col=col)

        nearest, outer = self.sources(column)
        in_scope = nearest + outer
        having = [alias for alias, columns in nearest if name.lower() in columns]
        if ambiguous or (table is None and len(having) >= 2):
            message = f'column "{name}" is ambiguous'
            if having:
                options = " or ".join(f"{alias}.{name}" for alias in having)
                message += f": it exists in {_listing(having, conj='and')}; qualify it as {options}"
            return QueryError(self.side, "ambiguous_column", message, line=line, col=col)

        if table is not None:
            matching = [columns for alias, columns in in_scope if alias == table.lower()]
            if not matching:
                aliases = _listing(alias for alias, _ in in_scope) or "none"
                return QueryError(
                    self.side,
                    "unknown_column",
                    f'column "{table}.{name}" cannot be resolved: there is no table or alias '
                    f'"{table}" in scope (in scope: {aliases})',
                    line=line,
                    col=col,
                )
            candidates = list(dict.fromkeys(matching[0]))
            message = f'column "{name}" does not exist in {table}'
            listed = candidates
            owners = [
                alias
                for alias, columns in in_scope
                if alias != table.lower() and name.lower() in columns
            ]
            if owners:
                # Calcite writes $cor0.$f0 for a column of the LATERAL subquery
                # next to the table $cor0 names: not what the text says.
                listed = []
                message += (
                    f" (columns: {_listing(candidates)}); it is a column of "
                    f"{_listing(owners, conj='and')}, not of {table}"
                )
        else:
            # List the columns of the nearest FROM; suggest from outer ones too
            # (a correlated subquery may mean a column of the outer query).
            listed = list(dict.fromkeys(c for _, columns in nearest or in_scope for c in columns))
            candidates = list(dict.fromkeys(c for _, columns in in_scope for c in columns))
            sources = _listing((alias for alias, _ in nearest or in_scope), conj="or")
            message = f'column "{name}" does not exist'
            message += f" in {sources}" if sources else " (no table is in scope there)"
        if listed:
            message += f" (columns: {_listing(listed)})"
        message += _did_you_mean(name, candidates)
        return QueryError(self.side, "unknown_column", message, line=line, col=col)

    def sources(
        self, node: exp.Expr
    ) -> tuple[list[tuple[str, list[str]]], list[tuple[str, list[str]]]]:
        """(alias, column names) of the FROM items of the nearest SELECT, and of outer ones."""
        selects = [a for a in _ancestors(node) if isinstance(a, exp.Select)]
        found = [self.select_sources(select) for select in selects]
        if not found:
            return [], []
        return found[0], [item for items in found[1:] for item in items]

    def select_sources(self, select: exp.Select) -> list[tuple[str, list[str]]]:
        """(alias, column names) of the FROM items of ``select``."""
        from_ = select.args.get("from_")
        items = [from_.this] if isinstance(from_, exp.From) else []
        items += [join.this for join in select.args.get("joins") or ()]
        return [(item.alias_or_name.lower(), self._source_columns(item)) for item in items]

    def _source_columns(self, item: exp.Expr) -> list[str]:
        alias = item.args.get("alias")
        if isinstance(alias, exp.TableAlias) and alias.columns:
            return [c.name.lower() for c in alias.columns]
        if isinstance(item, exp.Table) and isinstance(item.this, exp.Identifier):
            cte = None if item.db else _find_cte(item, item.this, self.norm)
            if cte is not None:
                return [c.lower() for c in _named_selects(cte.this)]
            name = self.tables.get(self.norm(item.this))
            if name is not None:
                return list(self.schema.table(name).column_names)
            return []
        if isinstance(item, (exp.Subquery, exp.Lateral)):
            return [c.lower() for c in _named_selects(item.this)]
        return []

    def check_resolved(self, qualified: exp.Expr) -> None:
        """Every column the qualifier left without a table must be an output alias.

        sqlglot's own validation misses some scopes (an unknown column inside
        an aggregate in HAVING is one); DuckDB would then fail at run time with
        a less helpful message.
        """
        for column in qualified.find_all(exp.Column):
            if column.table or not isinstance(column.this, exp.Identifier):
                continue
            if column.find_ancestor(exp.Lambda) is not None:
                continue  # lambda parameters
            aliases = {
                alias.lower()
                for query in _ancestors(column)
                if isinstance(query, exp.Query)
                for alias in _named_selects(query)
            }
            if column.name.lower() not in aliases:
                raise self.unknown_column(qualified, column.name, None, None)


def _ancestors(node: exp.Expr) -> Iterator[exp.Expr]:
    parent = node.parent
    while parent is not None:
        yield parent
        parent = parent.parent


def _find_cte(
    table: exp.Expr, ident: exp.Identifier, norm: Callable[[exp.Identifier], str]
) -> exp.CTE | None:
    """The CTE ``ident`` names in ``table``'s lexical scope, if any.

    Walking up through every enclosing WITH also covers a recursive CTE that
    refers to itself from inside its own body.
    """
    key = norm(ident)
    for ancestor in _ancestors(table):
        with_ = ancestor.args.get("with_")
        if not isinstance(with_, exp.With):
            continue
        for cte in with_.expressions:
            alias = cte.args.get("alias")
            if (
                isinstance(cte, exp.CTE)
                and isinstance(alias, exp.TableAlias)
                and isinstance(alias.this, exp.Identifier)
                and norm(alias.this) == key
            ):
                return cte
    return None


def _name_single_column_functions(root: exp.Expression) -> exp.Expression | None:
    """A copy of ``root`` with ``f(...) AS a`` spelled ``f(...) AS a(a)``; None if no such alias.

    Only for the allowed table functions that return one column (range,
    generate_series, a one-argument unnest), where both spellings mean the same.
    """
    copy = root.copy()
    changed = False
    for node in copy.find_all(exp.Unnest, exp.GenerateSeries, exp.ExplodingGenerateSeries):
        holder = node.parent if isinstance(node.parent, exp.Table) else node
        alias = holder.args.get("alias")
        single = not isinstance(node, exp.Unnest) or len(node.expressions) == 1
        if (
            single
            and _in_table_position(node)
            and isinstance(alias, exp.TableAlias)
            and isinstance(alias.this, exp.Identifier)
            and not alias.columns
        ):
            alias.set("columns", [alias.this.copy()])
            changed = True
    return copy if changed else None


def _name_values_columns(root: exp.Expression, exc: OptimizeError) -> exp.Expression | None:
    """A copy of ``root`` with ``(VALUES ...) AS t`` named ``t(EXPR$0, EXPR$1, ...)``.

    Calcite names the columns of a VALUES list EXPR$0, EXPR$1, ... and writes
    ``t.EXPR$0``; only tried when such a name did not resolve. None if the
    error is about another name or there is no VALUES list without column names.
    """
    if not _CALCITE_VALUES_COLUMN.search(str(exc)):
        return None
    copy = root.copy()
    changed = False
    for values in copy.find_all(exp.Values):
        alias = values.args.get("alias")
        rows = values.expressions
        if (
            isinstance(alias, exp.TableAlias)
            and not alias.columns
            and rows
            and isinstance(rows[0], exp.Tuple)
        ):
            width = len(rows[0].expressions)
            alias.set("columns", [exp.to_identifier(f"EXPR${i}") for i in range(width)])
            changed = True
    return copy if changed else None


def _find_column(
    root: exp.Expr, name: str, table: str | None, where: tuple[int, int] | None
) -> exp.Column | None:
    """The column node sqlglot complained about: by name, table and reported position."""
    matches = [
        c
        for c in root.find_all(exp.Column)
        if c.name.lower() == name.lower() and (table is None or c.table.lower() == table.lower())
    ]
    if where is not None:
        for column in matches:
            meta = column.this.meta if isinstance(column.this, exp.Expr) else {}
            if (meta.get("line"), meta.get("col")) == where:
                return column
    return matches[0] if matches else None


def _named_selects(query: exp.Expr) -> list[str]:
    return list(query.named_selects) if isinstance(query, exp.Query) else []
