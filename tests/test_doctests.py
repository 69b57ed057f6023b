"""Run every module's doctests: the examples in docstrings are part of the contract."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import sqlequiv

MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(sqlequiv.__path__, "sqlequiv.")
    if not m.name.endswith("__main__")
)


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"
