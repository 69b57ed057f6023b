"""``sqlequiv config``: every setting in force and where it comes from.

The settings are those every checking command (``check``, ``fixtures``, ``grade``,
``spider``, ``bird``) starts from: a flag given, else ``[tool.sqlequiv]`` of the nearest
``pyproject.toml`` (:mod:`sqlequiv.config`), else the built-in default. The command takes
the same flags, so ``sqlequiv config --max-rows 2`` shows what ``sqlequiv check --max-rows
2`` would run with; a configuration sqlequiv cannot use is an error (exit 2) naming the
file and the key.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from sqlequiv.cli.options import add_check_options, settle
from sqlequiv.config import Config, Setting, find_pyproject
from sqlequiv.policy.catalogues import ENGINES


def add_parser(sub: Any) -> None:
    """Add ``config`` to the CLI's subparsers."""
    p = sub.add_parser(
        "config",
        help="print every setting in force and where it comes from",
        description="Print the settings the checking commands run with: each value and "
        "where it comes from (a flag, [tool.sqlequiv] of the nearest pyproject.toml, or "
        "the built-in default). Takes the flags of `sqlequiv check`.",
    )
    p.add_argument("--schema", default=None, help="as `sqlequiv check --schema`")
    p.add_argument("--dialect", default=None, help="as `sqlequiv check --dialect`")
    p.add_argument("--engine", choices=ENGINES, default=None, help="as `sqlequiv check --engine`")
    p.add_argument("--json", action="store_true", help="print the settings as JSON")
    add_check_options(p)


def run_config(args: argparse.Namespace, argv: list[str]) -> int:
    """``sqlequiv config``: print the settings; exit 0."""
    config = getattr(args, "sqlequiv_config", None)
    if not isinstance(config, Config):
        config = settle(args)
    if args.json:
        print(json.dumps(config.to_dict(), indent=2))
    else:
        print(render_config(config, Path.cwd()))
    return 0


def render_config(config: Config, cwd: Path) -> str:
    """The settings as text: where they were read from, then one line per setting."""
    if config.file is not None:
        head = f"configuration: {config.file} [tool.sqlequiv]"
    else:
        nearest = find_pyproject(cwd)
        why = (
            f"no [tool.sqlequiv] in {nearest}"
            if nearest is not None
            else f"no pyproject.toml at or above {cwd}"
        )
        head = f"configuration: none ({why}): built-in defaults"
    settings = config.settings()
    width = max(len(name) for name in settings)
    values = {name: _show(name, s) for name, s in settings.items()}
    value_width = max(len(v) for v in values.values())
    lines = [head]
    for name, setting in settings.items():
        lines.append(f"{name:<{width}}  {values[name]:<{value_width}}  {_origin(setting, cwd)}")
    return "\n".join(lines)


def _origin(setting: Setting, cwd: Path) -> str:
    """Where ``setting`` came from, the file relative to ``cwd`` when it is below it."""
    if setting.source != "file" or setting.file is None:
        return setting.origin
    try:
        file = setting.file.relative_to(cwd.resolve())
    except ValueError:
        file = setting.file
    return f"{file}: {setting.key}"


def _show(name: str, setting: Setting) -> str:
    value = setting.value
    if value is None:
        return {"engine": "(the dialect's)", "schema": "(none)"}.get(name, "-")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ", ".join(value) if value else "(none)"
    return str(value)
