"""A one-line progress display: done/total, counts by status, throughput, time left.

On a terminal the line is redrawn in place; elsewhere (CI logs, files) a line
is printed every ``every`` seconds, so logs stay readable.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from typing import TextIO

from sqlequiv.grading.record import STATUSES


class Progress:
    """Counts records as they arrive and shows the running totals.

    Example:
        >>> import io
        >>> out = io.StringIO()
        >>> p = Progress(2, out, tty=False, every=0)
        >>> p.update("pass"); p.update("fail"); p.finish()
        >>> "2/2" in out.getvalue() and "pass 1" in out.getvalue()
        True
    """

    def __init__(
        self, total: int, stream: TextIO | None = None, *, tty: bool | None = None,
        every: float = 10.0, label: str = "graded",
    ) -> None:  # fmt: skip
        self.total = total
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty() if tty is None else tty
        self.every = every
        self.label = label
        self.counts: Counter[str] = Counter()
        self.start = time.monotonic()
        self._shown = 0.0

    @property
    def done(self) -> int:
        return sum(self.counts.values())

    def update(self, status: str) -> None:
        self.counts[status] += 1
        now = time.monotonic()
        if self.tty and now - self._shown >= 0.1:
            self._shown = now
            self.stream.write("\r" + self.line() + "\x1b[K")
            self.stream.flush()
        elif not self.tty and now - self._shown >= self.every:
            self._shown = now
            self.stream.write(self.line() + "\n")
            self.stream.flush()

    def line(self) -> str:
        elapsed = max(time.monotonic() - self.start, 1e-9)
        rate = self.done / elapsed
        left = (self.total - self.done) / rate if rate > 0 else float("inf")
        width = 20
        filled = int(width * self.done / self.total) if self.total else width
        bar = "#" * filled + "." * (width - filled)
        counts = " ".join(
            f"{s} {self.counts[s]}" for s in STATUSES if self.counts[s] or s != "anomaly"
        )
        eta = f"{left:.0f}s left" if left != float("inf") else "-"
        return (
            f"[{bar}] {self.label} {self.done}/{self.total} | {counts} | {rate:.2f} pairs/s | {eta}"
        )

    def finish(self) -> None:
        self.stream.write(
            ("\r" if self.tty else "") + self.line() + ("\x1b[K\n" if self.tty else "\n")
        )
        self.stream.flush()
