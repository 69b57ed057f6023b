"""JSON text as data, strictly: a duplicate key is an error, not a silently lost table; and
data nested past :data:`MAX_NESTING` is an error, not a ``RecursionError`` later.

Below both :mod:`~sqlequiv.schema.load` (schema files) and
:mod:`~sqlequiv.schema.spider` (Spider's ``tables.json``), so that neither imports the
other for it. :func:`nesting` is shared with the YAML loader, the suite and the candidates
and results readers: everything sqlequiv reads as JSON or YAML is measured by it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping

from sqlequiv.errors import SchemaError

__all__ = ["MAX_NESTING", "data_children", "load_json_text", "nesting", "too_deep"]

#: Deepest nesting of lists and mappings accepted in any schema, suite, candidates or
#: results document. A real suite nests about ten levels (items, fixtures, rows, ...); the
#: parsers and every later ``json.dumps`` recurse once per level, so a document nested
#: thousands deep would otherwise end in a ``RecursionError`` somewhere.
MAX_NESTING = 100


def data_children(value: object) -> Iterable[object] | None:
    """The children of a list or mapping of plain data (keys and values); None for a scalar."""
    if isinstance(value, Mapping):
        return [*value.keys(), *value.values()]
    if isinstance(value, list | tuple):
        return value
    return None


def nesting(
    root: object,
    children: Callable[[object], Iterable[object] | None] = data_children,
    limit: int = MAX_NESTING,
) -> tuple[int, int, int]:
    """``(depth, expanded size, distinct containers)`` of ``root``, measured without recursion.

    The depth counts containers (``[[1]]`` is 2, a scalar 0) and stops at ``limit + 1``: a
    deeper or cyclic value (YAML can build one) is reported as ``limit + 1`` without being
    walked further. Shared children (YAML aliases) are measured once, so the walk is linear
    in the distinct containers even when the expanded size, counting every repetition, is
    exponential: that is what tells an alias bomb.

    Example:
        >>> nesting([[1], {"a": [2]}])
        (3, 7, 4)
        >>> shared = [1, 2]
        >>> nesting([shared, shared])
        (2, 7, 2)
        >>> nesting([[[[0]]]], limit=2)[0]
        3
    """
    kids = children(root)
    if kids is None:
        return 0, 1, 0
    memo: dict[int, tuple[int, int]] = {}
    on_path = {id(root)}
    # Each frame: the container, its unvisited children, its depth and size so far.
    stack: list[tuple[object, Iterable[object], int, int]] = [(root, iter(kids), 1, 1)]
    while stack:
        node, rest, depth, size = stack[-1]
        pushed = False
        for child in rest:
            grandchildren = children(child)
            if grandchildren is None:
                size += 1
                continue
            known = memo.get(id(child))
            if known is not None:
                depth, size = max(depth, 1 + known[0]), size + known[1]
                continue
            if id(child) in on_path or len(stack) >= limit:
                return limit + 1, size, len(memo)
            stack[-1] = (node, rest, depth, size)
            on_path.add(id(child))
            stack.append((child, iter(grandchildren), 1, 1))
            pushed = True
            break
        if pushed:
            continue
        stack.pop()
        on_path.discard(id(node))
        memo[id(node)] = (depth, size)
        if stack:
            parent, parent_rest, parent_depth, parent_size = stack[-1]
            stack[-1] = (parent, parent_rest, max(parent_depth, 1 + depth), parent_size + size)
    depth, size = memo[id(root)]
    return depth, size, len(memo)


def too_deep(value: object, limit: int = MAX_NESTING) -> str | None:
    """What is wrong with ``value``'s nesting (for an error message), or None if nothing.

    Example:
        >>> too_deep([[[[0]]]], limit=3)
        'nested more than 3 levels deep'
        >>> too_deep({"a": [1]}) is None
        True
    """
    if nesting(value, limit=limit)[0] > limit:
        return f"nested more than {limit} levels deep"
    return None


def load_json_text(text: str) -> object:
    """JSON text as data; duplicate keys, syntax errors and nesting past :data:`MAX_NESTING`
    raise :class:`SchemaError`."""

    def no_duplicates(pairs: list[tuple[str, object]]) -> dict[str, object]:
        # json keeps the last of two equal keys; a table defined twice must not vanish.
        result: dict[str, object] = {}
        for key, value in pairs:
            if key in result:
                raise SchemaError("parse_error", f"duplicate key {key!r} in a JSON object")
            result[key] = value
        return result

    try:
        data = json.loads(text, object_pairs_hook=no_duplicates)
    except json.JSONDecodeError as err:
        raise SchemaError(
            "parse_error", f"invalid JSON: {err.msg}", line=err.lineno, col=err.colno
        ) from err
    except RecursionError as err:  # json's scanner recurses once per level
        raise SchemaError("too_deep", f"JSON {_TOO_DEEP}") from err
    problem = too_deep(data)
    if problem is not None:
        raise SchemaError("too_deep", f"JSON {problem}")
    return data


_TOO_DEEP = f"nested more than {MAX_NESTING} levels deep"
