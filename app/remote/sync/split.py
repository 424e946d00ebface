"""One big download fetched as parallel byte ranges into one temporary file."""

from __future__ import annotations

import contextlib
import os
import threading

from app.core.syncplan import PlanItem


class _Split:
    """One big download fetched as byte ranges by several workers into the same temporary file."""

    def __init__(self, item: PlanItem, tmp: str, parts: int) -> None:
        self.item = item
        self.tmp = tmp
        self.lock = threading.Lock()
        step = -(-item.size // parts)
        bounds = [(k * step, min(item.size, (k + 1) * step)) for k in range(parts)]
        self.parts = [_SplitPart(self, a, b) for a, b in bounds if a < b]
        self.left = len(self.parts)
        self.complete = False

    def keep_prefix(self) -> None:
        """After a failure: cut the temporary file to its contiguous complete prefix, the part a
        later run can verify and resume from (ranges beyond a gap would only fail the check)."""
        if self.complete:
            return
        prefix = 0
        for p in self.parts:
            prefix = p.upto
            if p.upto < p.end:
                break
        with contextlib.suppress(OSError):
            os.truncate(self.tmp, prefix)


class _SplitPart:
    def __init__(self, split: _Split, start: int, end: int) -> None:
        self.split, self.start, self.end, self.upto = split, start, end, start
        self.last = False  # set when this range was the last of its file to finish

    @property
    def item(self) -> PlanItem:
        return self.split.item

    def finish(self) -> bool:
        """Mark this range done; True for the last one (which then finishes the file)."""
        with self.split.lock:
            self.split.left -= 1
            last = self.split.left == 0
            if last:
                self.split.complete = True
            return last
