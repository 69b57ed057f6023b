"""The names of the opaque calls that stand for SQLite's own expressions in a proof.

:mod:`sqlequiv.execute.opaque` writes them, :mod:`sqlequiv.execute.portable` accepts
them as values, and the prover's terms translate them as uninterpreted functions: the
convention lives here, below all three. A name is ``sqlequiv_sqlite_<class>_<digest>``,
the class being what SQLite always returns (``text``, ``int`` or ``real``).
"""

from __future__ import annotations

from sqlglot import exp

__all__ = ["OPAQUE_CLASSES", "OPAQUE_PREFIX", "opaque_class"]

#: The name of every opaque call starts so; its class follows.
OPAQUE_PREFIX = "sqlequiv_sqlite_"

#: The classes of value an opaque call may have.
OPAQUE_CLASSES = ("text", "int", "real")


def opaque_class(node: exp.Expr) -> str | None:
    """The class of an opaque call (``text``, ``int``, ``real``); None for any other node.

    Example:
        >>> opaque_class(exp.Anonymous(this="sqlequiv_sqlite_int_0f3a", expressions=[]))
        'int'
        >>> opaque_class(exp.Anonymous(this="upper", expressions=[])) is None
        True
    """
    if not isinstance(node, exp.Anonymous):
        return None
    name = str(node.name).lower()
    if not name.startswith(OPAQUE_PREFIX):
        return None
    kind = name[len(OPAQUE_PREFIX) :].split("_", 1)[0]
    return kind if kind in OPAQUE_CLASSES else None
