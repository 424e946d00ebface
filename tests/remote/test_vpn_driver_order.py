"""A wrong key passphrase is said as such whichever of OpenVPN's two messages the management socket
delivers first: `>FATAL:Error: private key password verification failed` (what openvpn 2.6 sent first in a
loaded run of tests/remote/test_vpn_tunnel.py::test_wrong_key_passphrase, which then showed the generic
"OpenVPN stopped" error) or `>PASSWORD:Verification Failed: 'Private Key'`. The lines are the ones the
real openvpn sent; the order is what a loaded machine may give."""

from __future__ import annotations

import pytest

from app.remote.vpn.driver import TunnelDriver

FATAL = ">FATAL:Error: private key password verification failed"
PASSWORD = ">PASSWORD:Verification Failed: 'Private Key'"


@pytest.mark.parametrize("lines", [[FATAL, PASSWORD], [PASSWORD, FATAL], [FATAL]], ids=["fatal-first",
                                                                                       "password-first",
                                                                                       "fatal-only"])
def test_a_wrong_key_passphrase_is_named_in_any_order(lines):
    driver = TunnelDriver("lab", session=None, answer_prompts=False)  # type: ignore[arg-type]
    for line in lines:
        driver.handle(line)
    assert driver.error is not None and driver.error.code == "VpnKeyPassphrase", driver.error
    assert "passphrase of VPN profile 'lab' is wrong" in driver.error.text()


def test_another_fatal_error_stays_a_fatal_error():
    driver = TunnelDriver("lab", session=None, answer_prompts=False)  # type: ignore[arg-type]
    driver.handle(">FATAL:Cannot resolve host address: vpn.example.invalid")
    assert driver.error is not None and driver.error.code == "VpnFatal"
