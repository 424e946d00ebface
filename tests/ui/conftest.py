"""Fixtures the UI tests share."""

from __future__ import annotations

import pytest


@pytest.fixture
def window_in(qtbot, labgpu_home):
    """``make(language, (width, height))``: the real main window, built in that language at that size and
    shown; every window made is shut down after the test."""
    from app.ui.app import build_main_window

    made = []

    def make(language: str, size: tuple[int, int]):
        _app, ctx, window = build_main_window(language)
        ctx.errors.interactive = False
        qtbot.addWidget(window)
        window.resize(*size)
        window.show()
        qtbot.waitExposed(window)
        made.append(ctx)
        return ctx, window

    yield make
    for ctx in made:
        ctx.shutdown(5000)
