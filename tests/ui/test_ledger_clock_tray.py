"""The tray names a clock more than a minute off the clouds': after the real Tencent peer
refused a request signed with this computer's clock, its answer's Date gave the offset, and the tray's
tooltip says it with what to do; once the clock is right again the line goes."""

from __future__ import annotations

import pytest

from app.core import ledgerdb
from tests.fixtures.tencent_cvm_server import TEST_SECRET_ID, TEST_SECRET_KEY


@pytest.fixture
def clean_clock():
    ledgerdb.CLOCK.reset()
    yield
    ledgerdb.CLOCK.reset()


def test_the_tray_names_a_clock_minutes_off(qtbot, labgpu_home, secret_service, tencent_server, clean_clock):
    from app.cloud.errors import ClockSkewError
    from app.cloud.launch import CloudService
    from app.core.accounts import Account, Credentials
    from app.core.paths import default_paths
    from app.ui.context import AppContext
    from app.ui.tray import CostTray

    svc = CloudService()
    svc.accounts.add(Account("lab", "tencent", "ap-guangzhou", tencent_server.endpoint),
                     Credentials(TEST_SECRET_ID, TEST_SECRET_KEY))
    ctx = AppContext(default_paths(), "en")
    ctx.errors.interactive = False
    tray = CostTray(ctx, open_window=lambda: None, quit_app=lambda: None)
    try:
        tray._update()
        assert "clock" not in tray.icon.toolTip()
        tencent_server.clock_offset = -400.0  # the cloud's clock 400 s behind: this computer is ahead
        with pytest.raises(ClockSkewError):
            svc.test_connection("lab")
        tray._update()
        tip = tray.icon.toolTip()
        assert "clock is 6.7 minutes ahead of Tencent" in tip and "automatic date and time" in tip
        tencent_server.clock_offset = 0.0
        svc.test_connection("lab")
        tray._update()
        assert "minutes ahead" not in tray.icon.toolTip()
    finally:
        tray.close()
        ctx.shutdown()
        svc.close()
