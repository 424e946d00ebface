"""The driver: turns one openvpn's management lines into status and answers its prompts."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from app.core import secrets
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.vpnprofiles import secret_key
from app.remote.vpn.diagnosis import auth_failed_error, credentials_missing_error, fatal_error
from app.remote.vpn.management import ManagementSession, mgmt_quote
from app.remote.vpn.states import (
    FAILED,
    NEEDS_CREDENTIALS,
    OPENVPN_STATES,
    STARTING,
    VpnError,
    VpnStatus,
    parse_state_fields,
)

log = logging.getLogger(__name__)


class TunnelDriver:
    """Reacts to one openvpn's real-time messages: states, password prompts, fatal errors.

    ``on_status`` is called with each new VpnStatus (in the reading thread)."""

    def take_over(self, session: ManagementSession) -> None:
        """Start driving a management session: replay its greeting, follow state changes, adopt
        the current state, and let OpenVPN go on (``hold release``)."""
        for line in session.greeting:
            if line.startswith(">"):
                self.handle(line)
        session.command("state on", on_event=self.handle)
        current = session.command("state", multiline=True, on_event=self.handle)
        if current and not current[0].startswith("ERROR"):
            st = parse_state_fields(current[-1])
            if st.state in OPENVPN_STATES:
                self._set(st)
        session.command("hold release", on_event=self.handle)

    def __init__(
        self,
        profile: str,
        session: ManagementSession,
        on_status: Callable[[VpnStatus], None] | None = None,
        *,
        answer_prompts: bool = True,
    ) -> None:
        self.profile = profile
        self.session = session
        self.on_status = on_status
        self.answer_prompts = answer_prompts
        self.status = VpnStatus(STARTING, since=time.time())
        self.error: VpnError | None = None
        self.pending_prompt = ""  # prompt left unanswered (missing credentials)
        self.exited = False

    def _set(self, status: VpnStatus) -> None:
        self.status = status
        if self.on_status:
            try:
                self.on_status(status)
            except Exception:  # noqa: BLE001 - a listener's bug must not kill the tunnel's reader
                log.exception("VPN status listener failed")

    def handle(self, line: str) -> None:
        if line.startswith(">STATE:"):
            st = parse_state_fields(line[len(">STATE:") :])
            if st.state == "EXITING":
                self.exited = True
                if st.message in ("auth-failure",) and self.error is None:
                    self.error = auth_failed_error(self.profile)
            self._set(st)
        elif line.startswith(">PASSWORD:"):
            self._on_password(line[len(">PASSWORD:") :])
        elif line.startswith(">FATAL:"):
            self.exited = True
            reason = line[len(">FATAL:") :]
            if self.error is None:
                # OpenVPN may say a wrong key passphrase as FATAL ("private key password verification
                # failed") before, or instead of, its ">PASSWORD:Verification Failed: 'Private Key'"
                self.error = (self._key_passphrase_error() if "private key password verification failed"
                              in reason.lower() else fatal_error(reason))
            self._set(VpnStatus(FAILED, since=time.time(), message=line[len(">FATAL:") :]))
        elif line.startswith(">HOLD:"):
            self.session.send("hold release")

    def _key_passphrase_error(self) -> VpnError:
        return VpnError(
            QT_TRANSLATE_NOOP("LabGPU", "The private key passphrase of VPN profile '{profile}' is wrong."),
            QT_TRANSLATE_NOOP(
                "LabGPU",
                "Enter the key passphrase again (Credentials… on the VPN page, or "
                "'labgpu vpn add {profile} FILE --key-passphrase-stdin').",
            ),
            code="VpnKeyPassphrase",
            profile=self.profile,
        )

    def _on_password(self, text: str) -> None:
        if text.startswith("Verification Failed"):
            if "Private Key" in text:
                self.error = self._key_passphrase_error()
            else:
                self.error = auth_failed_error(self.profile)
            self._set(VpnStatus(FAILED, since=time.time(), message=self.error.one_line()))
            return
        if not text.startswith("Need "):
            return
        if not self.answer_prompts:
            self.pending_prompt = text
            return
        self.pending_prompt = text
        self.answer_pending()

    def answer_pending(self) -> bool:
        """Answer the prompt OpenVPN is waiting on from the keyring; False when credentials are missing."""
        text = self.pending_prompt
        if not text:
            return True
        if "'Auth'" in text:
            user = secrets.get_secret(secret_key(self.profile, "username"))
            password = secrets.get_secret(secret_key(self.profile, "password"))
            if user is None or password is None:
                return self._missing(["username", "password"])
            self.session.send(f'username "Auth" {mgmt_quote(user)}')
            self.session.send(f'password "Auth" {mgmt_quote(password)}')
        elif "'Private Key'" in text:
            phrase = secrets.get_secret(secret_key(self.profile, "key_passphrase"))
            if phrase is None:
                return self._missing(["key_passphrase"])
            self.session.send(f'password "Private Key" {mgmt_quote(phrase)}')
        else:
            log.warning("VPN %s: unsupported prompt %r", self.profile, text[:80])
            self.error = VpnError(
                QT_TRANSLATE_NOOP("LabGPU", "OpenVPN asks for something LabGPU cannot answer: {prompt}."),
                QT_TRANSLATE_NOOP("LabGPU", "Connect this profile with your VPN provider's own client."),
                code="VpnPrompt",
                prompt=text[:80],
            )
            return False
        self.pending_prompt = ""
        return True

    def _missing(self, items: list[str]) -> bool:
        self.error = credentials_missing_error(self.profile, items)
        self._set(VpnStatus(NEEDS_CREDENTIALS, since=time.time(), message=self.error.text()))
        return False
