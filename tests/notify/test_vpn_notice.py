"""The window's VPN service tells a tunnel that dropped by itself (not the student's Disconnect) to the
notification channels: the states arrive through the listener its VpnMonitor calls."""

from __future__ import annotations

import pytest

from app.core.paths import default_paths
from app.notify.dispatch import notifier_for
from tests.notify.test_dispatch import _channel

pytestmark = pytest.mark.usefixtures("secret_service")


def test_a_dropped_tunnel_reaches_the_channel_and_a_disconnect_does_not(qtbot, peer):
    from app.remote.vpn import VpnStatus
    from app.ui.remote.vpn_watcher import VpnService

    _channel(peer, lang="zh_CN")
    service = VpnService(default_paths())
    try:
        listener = service._listener("lab")  # what the profile's VpnMonitor calls with each state
        for state in ("CONNECTING", "CONNECTED"):
            listener(VpnStatus(state))
        listener(VpnStatus("RECONNECTING", message="openvpn stopped; restarting in 1 s"))
        listener(VpnStatus("CONNECTED"))
        service.manager._update_runtime("lab", user_down=True, want_up=False)  # the student's Disconnect
        listener(VpnStatus("EXITING"))
        assert notifier_for(default_paths()).flush(30)
    finally:
        service.close()
    got = peer.received("ntfy")
    assert [g.title for g in got] == ["VPN lab 已断开"]
    assert "openvpn stopped" in got[0].text
