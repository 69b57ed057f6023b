"""The documentation names what the code holds, so the two cannot drift apart.

Every package and top-level module under ``src/sqlequiv`` is named in
``docs/architecture.md``'s layout; every command of the CLI is documented as
``sqlequiv COMMAND`` in the README or a page of ``docs/``; the README stays short
enough to read in ten minutes, and every page it links to exists.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import sqlequiv
from sqlequiv.cli import COMMANDS

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = Path(sqlequiv.__file__).parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "docs").glob("*.md")}
ARCHITECTURE = DOCS["architecture.md"]

PACKAGES = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists())
MODULES = sorted(
    p.name
    for p in PACKAGE.glob("*.py")
    if p.name not in ("__init__.py", "__main__.py", "_version.py")
)


@pytest.mark.parametrize("name", PACKAGES)
def test_every_package_is_in_the_architecture_page(name: str) -> None:
    assert re.search(rf"^\s+{name}/\s", ARCHITECTURE, re.MULTILINE), name


@pytest.mark.parametrize("name", MODULES)
def test_every_top_level_module_is_in_the_architecture_page(name: str) -> None:
    assert name in ARCHITECTURE, name


@pytest.mark.parametrize("command", sorted({c.split()[0] for c in COMMANDS}))
def test_every_command_is_documented(command: str) -> None:
    pages = [README, *DOCS.values()]
    assert any(f"sqlequiv {command}" in page for page in pages), command


def test_the_readme_is_short_and_its_links_resolve() -> None:
    assert len(README.splitlines()) <= 300
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README):
        if "://" not in target:
            assert (ROOT / target).exists(), target
