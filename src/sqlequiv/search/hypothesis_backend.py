"""The Hypothesis backend the search draws with: Hypothesis's own, minus local constants.

Since 6.131, Hypothesis mixes into its draws constants parsed from every "local"
module loaded in the process (any module outside site-packages: an editable
install of sqlequiv, the caller's grader script), and caches them under
``./.hypothesis/constants`` in the working directory. For the search that means
two things it must not do: the databases a seed gives would depend on which
modules the calling process has loaded (the same check could answer otherwise in a
grader than on the command line), and ``sqlequiv check`` would write a directory
into whatever folder it is run from.

:data:`BACKEND` names a provider that is Hypothesis's own in every draw but sees
no local constants (Hypothesis's global ones stay), registered the way alternative
backends are. On a Hypothesis without backends or without local constants it is
``"hypothesis"``, Hypothesis's default, which then has neither problem to avoid.

Example:
    >>> BACKEND in ("sqlequiv", "hypothesis")
    True
"""

from __future__ import annotations

from typing import Any

__all__ = ["BACKEND"]


def _register() -> str:
    """Register the provider (once per process) and return its backend name."""
    try:
        from hypothesis.internal.conjecture import providers
        from hypothesis.internal.constants_ast import Constants
    except ImportError:  # pragma: no cover - a Hypothesis before local constants
        return "hypothesis"
    base: Any = getattr(providers, "HypothesisProvider", None)
    available = getattr(providers, "AVAILABLE_PROVIDERS", None)
    if base is None or not isinstance(available, dict) or not hasattr(base, "_local_constants"):
        return "hypothesis"  # pragma: no cover - nothing to take away

    no_constants = Constants()

    class _WithoutLocalConstants(base):  # type: ignore[misc]
        """Hypothesis's provider with an empty set of local constants."""

        @property
        def _local_constants(self) -> Any:
            return no_constants

    available.setdefault("sqlequiv", _WithoutLocalConstants)
    return "sqlequiv"


#: The ``settings(backend=...)`` of the search's Hypothesis phase.
BACKEND: str = _register()
