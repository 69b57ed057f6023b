"""JSON text as data, strictly: a duplicate key is an error, not a silently lost table.

Below both :mod:`~sqlequiv.schema.load` (schema files) and
:mod:`~sqlequiv.schema.spider` (Spider's ``tables.json``), so that neither imports the
other for it.
"""

from __future__ import annotations

import json

from sqlequiv.errors import SchemaError

__all__ = ["load_json_text"]


def load_json_text(text: str) -> object:
    """JSON text as data; duplicate keys and syntax errors raise :class:`SchemaError`."""

    def no_duplicates(pairs: list[tuple[str, object]]) -> dict[str, object]:
        # json keeps the last of two equal keys; a table defined twice must not vanish.
        result: dict[str, object] = {}
        for key, value in pairs:
            if key in result:
                raise SchemaError("parse_error", f"duplicate key {key!r} in a JSON object")
            result[key] = value
        return result

    try:
        return json.loads(text, object_pairs_hook=no_duplicates)
    except json.JSONDecodeError as err:
        raise SchemaError(
            "parse_error", f"invalid JSON: {err.msg}", line=err.lineno, col=err.colno
        ) from err
