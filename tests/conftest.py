"""Shared fixtures: small schemas built in code (the corpus has its own, as data)."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

import pytest
from hypothesis import settings
from hypothesis.configuration import set_hypothesis_home_dir
from sqlglot import exp

from sqlequiv.schema.model import Column, ForeignKey, Schema, Table

# check() turns an unexpected exception into an "internal_error" verdict; under test it
# must raise instead, so that no test (the fuzz tests above all) passes over a bug.
os.environ.setdefault("SQLEQUIV_STRICT", "1")

# Every Hypothesis test of this suite runs under one of these profiles (a test's own
# @settings still overrides what it names). Neither keeps an example database: a saved
# failing example would replay on every later run of that checkout, so one unlucky draw
# would turn a machine red for good, and the run would leave a .hypothesis folder in the
# working tree. Under CI the draws are derandomized too, so that a red CI run reproduces
# anywhere, any day (`CI=true python -m pytest` replays it).
#
# Hypothesis also caches the constants it reads from local modules' source under
# ./.hypothesis/constants (6.131+), whatever the profile: its home is a temporary
# directory instead, for this process and the ones it starts, removed at exit.
_HYPOTHESIS_HOME = tempfile.mkdtemp(prefix="sqlequiv-tests-hypothesis-")
atexit.register(shutil.rmtree, _HYPOTHESIS_HOME, ignore_errors=True)
os.environ["HYPOTHESIS_STORAGE_DIRECTORY"] = _HYPOTHESIS_HOME
set_hypothesis_home_dir(_HYPOTHESIS_HOME)
settings.register_profile("sqlequiv-tests", database=None)
settings.register_profile("sqlequiv-tests-ci", database=None, derandomize=True, print_blob=True)
settings.load_profile("sqlequiv-tests-ci" if os.environ.get("CI") else "sqlequiv-tests")


def _t(name: str) -> exp.DataType:
    return exp.DataType.build(name)


SHOP_DDL = """
CREATE TABLE customers (
  customer_id INTEGER PRIMARY KEY,
  name VARCHAR NOT NULL,
  plan VARCHAR NOT NULL CHECK (plan IN ('free', 'pro', 'enterprise'))
);
CREATE TABLE orders (
  order_id INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES customers (customer_id),
  placed_at TIMESTAMP NOT NULL,
  amount DECIMAL(10, 2) CHECK (amount >= 0)
);
"""


@pytest.fixture(scope="session")
def shop() -> Schema:
    return make_shop()


def make_shop() -> Schema:
    customers = Table(
        "customers",
        (
            Column("customer_id", _t("INT"), nullable=False),
            Column("name", _t("VARCHAR"), nullable=False),
            Column("plan", _t("VARCHAR"), nullable=False),
        ),
        primary_key=("customer_id",),
        checks=(exp.condition("plan IN ('free', 'pro', 'enterprise')"),),
    )
    orders = Table(
        "orders",
        (
            Column("order_id", _t("INT"), nullable=False),
            Column("customer_id", _t("INT"), nullable=False),
            Column("placed_at", _t("TIMESTAMP"), nullable=False),
            Column("amount", _t("DECIMAL(10, 2)")),
        ),
        primary_key=("order_id",),
        foreign_keys=(ForeignKey(("customer_id",), "customers", ("customer_id",)),),
        checks=(exp.condition("amount >= 0"),),
    )
    return Schema((orders, customers))
