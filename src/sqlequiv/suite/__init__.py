"""Suites: items with accepted references, named fixtures and predicates."""

from sqlequiv.suite.load import (
    Problem,
    SuiteDocument,
    SuiteError,
    build_suite,
    load_predicate,
    load_suite,
    read_document,
)
from sqlequiv.suite.model import REFERENCE_KINDS, Fixture, Item, Reference, Suite

__all__ = [
    "REFERENCE_KINDS",
    "Fixture",
    "Item",
    "Problem",
    "Reference",
    "Suite",
    "SuiteDocument",
    "SuiteError",
    "build_suite",
    "load_predicate",
    "load_suite",
    "read_document",
]
