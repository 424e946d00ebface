"""gc_paused(): no automatic collection inside the block, the collector back as it was after the outermost one."""

from __future__ import annotations

import gc

from app.core.gcpause import gc_paused


def test_the_collector_is_paused_inside_and_restored_as_it_was():
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # an inner block does not turn it on under the outer one
    assert gc.isenabled()
    gc.disable()  # off already (app/__main__.py's start-up): stays off after the block
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
