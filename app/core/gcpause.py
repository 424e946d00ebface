"""Big imports without the cyclic garbage collector running through them.

Importing a cloud SDK makes hundreds of thousands of objects, and CPython runs its collector every 700 new
objects, a full pass each time the survivors have grown by a quarter: about 40 % of such an import's CPU went
to collections that found nothing to free (an SDK's modules live as long as the process). Measured on the
2-core VM: the Azure compute, network and identity clients, boto3 with an EC2 client and the Alibaba ECS client
imported in one process took 1.24–1.50 s of CPU with the collector running, 0.80–0.93 s with it paused.
(app/__main__.py pauses it the same way for the whole start-up, then turns it on; this is for the imports that
come later, on first use of a cloud.)

Contract:
    with gc_paused():          # the collector waits until the block ends (nested blocks: the outermost)
        importlib.import_module("azure.mgmt.network")
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0  # blocks open in this process (any thread): the collector runs again when the last one ends
_was_enabled = True  # the collector's state when the outermost block began


@contextmanager
def gc_paused() -> Iterator[None]:
    """No automatic collection inside the block; on leaving the outermost one the collector is on again
    (if it was on before), and what the block left behind is collected at its next usual turn."""
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                gc.enable()
