"""MySQL's name rules, applied to the parsed tree before it is qualified.

sqlglot reads every MySQL identifier case-sensitively, while MySQL itself
(https://dev.mysql.com/doc/refman/8.4/en/identifier-case-sensitivity.html):

* compares **column names and column aliases** case-insensitively on every
  platform ("Column, index, stored routine, event, and resource group names are
  not case-sensitive on any platform, nor are column aliases");
* compares **table names and table aliases** as ``lower_case_table_names`` says:
  0 (the default on Linux) as stored, case-sensitively; 1 (Windows) and 2
  (macOS) case-insensitively.

:func:`mysql_identifiers` checks a query's table names and aliases under the
chosen setting and then lower-cases every identifier, which is how the schema
stores them, so the rest of the pipeline resolves names as MySQL does.

:func:`mysql_group_names` resolves a bare name in GROUP BY and HAVING as MySQL
does (https://dev.mysql.com/doc/refman/8.4/en/select.html): "MySQL resolves
unqualified column or alias references in ORDER BY clauses by searching in the
select_expr values, then in the columns of the tables in the FROM clause. For
GROUP BY or HAVING clauses, it searches the FROM clause before searching in the
select_expr values." A name the FROM clause holds twice (ambiguous there) is then
the select-list item of that name, as MySQL's resolver does when its FROM search
ignores the ambiguity (``find_order_in_list``).

The rules that need the qualified, typed tree (ONLY_FULL_GROUP_BY, implicit casts)
are :mod:`sqlequiv.guard.mysql_group_by` and :mod:`sqlequiv.guard.mysql_casts`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from sqlglot import exp

from sqlequiv.errors import QueryError
from sqlequiv.schema.model import Schema

__all__ = ["LOWER_CASE_TABLE_NAMES", "is_mysql", "mysql_group_names", "mysql_identifiers"]

#: The values of MySQL's ``lower_case_table_names`` server variable.
LOWER_CASE_TABLE_NAMES = (0, 1, 2)

#: ``error(kind, message, node)``: a refusal pointing at ``node`` in the source.
ErrorAt = Callable[[str, str, exp.Expr], QueryError]
#: The (alias, column names) of the FROM items of one SELECT.
SourcesOf = Callable[[exp.Select], list[tuple[str, list[str]]]]


def is_mysql(dialect: str) -> bool:
    """True for the ``mysql`` dialect, whose name, GROUP BY and cast rules apply."""
    return dialect.lower() == "mysql"


def mysql_identifiers(
    root: exp.Expression, schema: Schema, *, lower_case_table_names: int, error: ErrorAt
) -> exp.Expression:
    """Check table names and aliases as MySQL compares them, then lower-case every name.

    Under ``lower_case_table_names=0`` a table must be written as the schema's DDL
    declares it and a table alias as it is introduced; under 1 and 2 any case
    resolves. Column names and aliases resolve in any case under every setting.

    Example:
        >>> from sqlglot import exp, parse_one
        >>> from sqlequiv.schema.load import load_schema
        >>> s = load_schema("CREATE TABLE PERSON (ID INT, EMAIL TEXT)", "mysql")
        >>> def err(kind, message, node):
        ...     return QueryError("candidate", kind, message)
        >>> q = parse_one("SELECT EMAIL FROM PERSON", read="mysql")
        >>> mysql_identifiers(q, s, lower_case_table_names=0, error=err).sql("mysql")
        'SELECT email FROM person'
        >>> q = parse_one("SELECT email FROM person", read="mysql")
        >>> try:
        ...     mysql_identifiers(q, s, lower_case_table_names=0, error=err)
        ... except QueryError as e:
        ...     print(e.kind)
        unknown_table
        >>> mysql_identifiers(q, s, lower_case_table_names=1, error=err).sql("mysql")
        'SELECT email FROM person'
    """
    if lower_case_table_names not in LOWER_CASE_TABLE_NAMES:
        raise ValueError(f"lower_case_table_names={lower_case_table_names!r} must be 0, 1 or 2")
    if lower_case_table_names == 0:
        _check_table_case(root, schema, error)
    for ident in list(root.find_all(exp.Identifier)):
        if ident.name != ident.name.lower():
            ident.set("this", ident.name.lower())
    return root


def _check_table_case(root: exp.Expression, schema: Schema, error: ErrorAt) -> None:
    written = {t.name: t.written_name for t in schema}
    ctes = {
        cte.alias_or_name.lower(): cte.alias_or_name
        for cte in root.find_all(exp.CTE)
        if cte.alias_or_name
    }
    for table in root.find_all(exp.Table):
        ident = table.this
        if not isinstance(ident, exp.Identifier) or table.db or table.catalog:
            continue
        key = ident.name.lower()
        declared = ctes.get(key) or written.get(key)
        if declared is not None and ident.name != declared:
            what = "WITH query" if key in ctes else "table"
            raise error(
                "unknown_table",
                f'table "{ident.name}" does not exist: MySQL with lower_case_table_names=0 '
                f"(its default on Linux) compares table names case-sensitively, and the "
                f'{what} is declared as "{declared}" (option mysql_lower_case_table_names=1 '
                "compares them case-insensitively, as MySQL on Windows and macOS does)",
                table,
            )
    for column in root.find_all(exp.Column):
        qualifier = column.args.get("table")
        if not isinstance(qualifier, exp.Identifier) or column.args.get("db"):
            continue
        names = list(_visible_sources(column))
        if qualifier.name in names:
            continue
        same = [n for n in names if n.lower() == qualifier.name.lower()]
        if same:
            raise error(
                "unknown_column",
                f'column "{qualifier.name}.{column.name}" cannot be resolved: MySQL with '
                "lower_case_table_names=0 (its default on Linux) compares table aliases "
                f'case-sensitively, and the table is named "{same[0]}" here',
                column,
            )


def _visible_sources(node: exp.Expr) -> Iterator[str]:
    """The names (alias, else table name) of the FROM items of every enclosing SELECT."""
    parent = node.parent
    while parent is not None:
        if isinstance(parent, exp.Select):
            from_ = parent.args.get("from_")
            items = [from_.this] if isinstance(from_, exp.From) else []
            items += [join.this for join in parent.args.get("joins") or ()]
            for item in items:
                if item.alias_or_name:
                    yield item.alias_or_name
        parent = parent.parent


def mysql_group_names(root: exp.Expression, sources_of: SourcesOf) -> None:
    """Resolve bare names in GROUP BY and HAVING as MySQL does; in place.

    A name that one FROM item holds is that column, even when a select-list alias
    shares it (it is qualified, so the qualifier cannot take the alias); a name that
    several FROM items hold is the select-list item of that name (an alias, or a
    column of that name), when there is one. Names are lower-case by now.

    Example:
        >>> from sqlglot import parse_one
        >>> q = parse_one(
        ...     "SELECT d.name, COUNT(*) FROM e JOIN d ON e.d = d.id GROUP BY name", read="mysql")
        >>> mysql_group_names(q, lambda s: [("e", ["name", "d"]), ("d", ["id", "name"])])
        >>> q.sql("mysql")
        'SELECT d.name, COUNT(*) FROM e JOIN d ON e.d = d.id GROUP BY d.name'
    """
    for select in list(root.find_all(exp.Select)):
        group = select.args.get("group")
        having = select.args.get("having")
        if group is None and having is None:
            continue
        items: dict[str, exp.Expr] = {}
        for item in select.expressions:
            if isinstance(item, exp.Alias) and item.alias:
                items.setdefault(item.alias.lower(), item.this)
            elif isinstance(item, exp.Column):
                items.setdefault(item.name.lower(), item)
        if not items:
            continue
        sources = sources_of(select)
        names: list[exp.Column] = []
        if isinstance(group, exp.Group):
            names += [g for g in group.expressions if _bare(g)]
        if isinstance(having, exp.Having):
            names += [
                c
                for c in having.find_all(exp.Column)
                if _bare(c)
                and c.find_ancestor(exp.Select) is select
                and c.find_ancestor(exp.AggFunc) is None
            ]
        for column in names:
            _resolve(column, items, sources)


def _bare(node: exp.Expr) -> bool:
    return (
        isinstance(node, exp.Column)
        and not node.table
        and isinstance(node.this, exp.Identifier)
        and node.find_ancestor(exp.Lambda) is None
    )


def _resolve(
    column: exp.Column, items: dict[str, exp.Expr], sources: list[tuple[str, list[str]]]
) -> None:
    name = column.name.lower()
    item = items.get(name)
    if item is None:
        return  # no select-list item of that name: the FROM column, or an unknown name
    owners = [alias for alias, columns in sources if name in columns]
    if len(owners) == 1:
        same = isinstance(item, exp.Column) and item.name.lower() == name
        qualifier = item.table if isinstance(item, exp.Column) else ""
        if not same or (qualifier and qualifier.lower() != owners[0]):
            column.set("table", exp.to_identifier(owners[0]))
    elif len(owners) >= 2:
        column.replace(item.copy())
