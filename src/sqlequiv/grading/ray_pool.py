"""Run tasks on a Ray cluster (``pip install 'sqlequiv[ray]'``; ``ray`` is imported only here).

One actor per worker holds the suite (built from the shipped
:class:`SuiteDocument`, which carries the text of every file the suite
names, so the cluster's nodes need no copy of the suite directory) and one
DuckDB connection. Each actor has one task in flight; an actor that dies or
overruns the task's wall clock is killed, replaced, and the task recorded as
an ``error``, as with local workers.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterable, Iterator
from typing import Any

from sqlequiv.errors import PlainError
from sqlequiv.grading.pools import Result
from sqlequiv.grading.worker import Settings, Task, Worker, failed_result
from sqlequiv.suite.load import SuiteDocument
from sqlequiv.suite.model import Suite


class RayUnavailable(PlainError, RuntimeError):
    """Ray is not installed, or the cluster cannot be reached."""

    SIDE = "backend"
    KIND = "backend_unavailable"


class RayPool:
    """``workers`` Ray actors on the cluster at ``address`` (``auto``: the one this machine
    joined)."""

    def __init__(
        self,
        document: SuiteDocument,
        settings: Settings,
        suite: Suite,
        *,
        address: str | None = "auto",
        workers: int | None = None,
    ) -> None:
        try:
            import ray
        except ImportError as err:
            raise RayUnavailable("the ray backend needs Ray: pip install 'sqlequiv[ray]'") from err
        self._ray = ray
        self._owns_ray = not ray.is_initialized()
        if self._owns_ray:
            try:
                ray.init(address=address, include_dashboard=False, log_to_driver=False)
            except Exception as err:  # Ray raises ConnectionError, RuntimeError, ValueError...
                raise RayUnavailable(f"cannot connect to Ray at {address!r}: {err}") from err
        self.document = document
        self.settings = settings
        self.suite = suite
        cpus = int(ray.cluster_resources().get("CPU", 1))  # type: ignore[no-untyped-call]
        # An actor needs a CPU: more actors than CPUs would never be scheduled, and their
        # tasks would be recorded as timeouts although they never ran.
        self.workers = max(1, min(workers or cpus, cpus))
        self._actor_class = ray.remote(num_cpus=1)(_Actor)
        actors = [
            self._actor_class.remote(self.document, self.settings) for _ in range(self.workers)
        ]
        self._actors = [self._ready(actor) for actor in actors]
        self.replaced = 0

    def _ready(self, actor: Any) -> Any:
        """``actor`` once it has built the suite: start-up is not billed to a task's timeout."""
        self._ray.get(actor.ready.remote())
        return actor

    def _new_actor(self) -> Any:
        return self._ready(self._actor_class.remote(self.document, self.settings))

    def run(self, tasks: Iterable[Task]) -> Iterator[Result]:
        ray = self._ray
        pending = deque(tasks)
        in_flight: dict[Any, tuple[int, Task, float]] = {}
        idle = list(range(len(self._actors)))
        timeout = self.settings.task_timeout
        while pending or in_flight:
            while idle and pending:
                slot = idle.pop()
                task = pending.popleft()
                ref = self._actors[slot].handle.remote(task)
                in_flight[ref] = (slot, task, time.monotonic())
            now = time.monotonic()
            wait_for = max(0.0, min(start + timeout - now for _, _, start in in_flight.values()))
            done, _ = ray.wait(list(in_flight), num_returns=1, timeout=wait_for)
            for ref in done:
                slot, task, _start = in_flight.pop(ref)
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayActorError as err:
                    self._replace(slot)
                    result = failed_result(
                        self.suite, task, "worker_crashed", f"the Ray actor died: {err}"
                    )
                except ray.exceptions.RayTaskError as err:
                    result = failed_result(self.suite, task, "internal_error", str(err))
                idle.append(slot)
                yield task, result
            now = time.monotonic()
            for ref, (slot, task, start) in list(in_flight.items()):
                if now - start >= timeout:
                    del in_flight[ref]
                    self._replace(slot)
                    idle.append(slot)
                    yield task, failed_result(
                        self.suite, task, "timeout",
                        f"grading took longer than {timeout:g} s; the actor was stopped",
                    )  # fmt: skip

    def _replace(self, slot: int) -> None:
        self._ray.kill(self._actors[slot], no_restart=True)
        self._actors[slot] = self._new_actor()
        self.replaced += 1

    def close(self) -> None:
        for actor in self._actors:
            self._ray.kill(actor, no_restart=True)
        self._actors = []
        if self._owns_ray:
            self._ray.shutdown()


class _Actor:
    """The Ray actor: a :class:`Worker` that lives on a cluster node."""

    def __init__(self, document: SuiteDocument, settings: Settings) -> None:
        self.worker = Worker(document, settings)

    def ready(self) -> bool:
        return True

    def handle(self, task: Task) -> dict[str, Any]:
        return self.worker.handle(task)
