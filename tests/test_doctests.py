"""Run every module's doctests: the examples in docstrings are part of the contract."""

from __future__ import annotations

import doctest
import importlib
import os
import pkgutil

import pytest

import sqlequiv

MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(sqlequiv.__path__, "sqlequiv.")
    if not m.name.endswith("__main__")
)


#: Modules whose examples need a PostgreSQL server (tests/test_postgres.py says when it is
#: missing; .ci/run installs it and sets SQLEQUIV_REQUIRE_POSTGRES).
NEEDS_POSTGRES = frozenset({"sqlequiv.execute.postgres_engine"})


def _postgres_missing() -> str | None:
    from sqlequiv.execute import postgres_server

    try:
        postgres_server.import_psycopg()
        postgres_server.find_bindir()
    except postgres_server.EngineUnavailable as err:
        return str(err)
    return None


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    if name in NEEDS_POSTGRES and os.environ.get("SQLEQUIV_REQUIRE_POSTGRES") != "1":
        missing = _postgres_missing()
        if missing:
            pytest.skip(missing)
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"
