"""Instance actions of CloudService (app/cloud/launch.py), a mixin it inherits: start, stop (and what still
bills), the OS-shutdown settle, the stop refusal, terminate, host key fingerprints and the ssh command, each
on an instance the ledger knows, through its account's provider and written to the audit log."""

from __future__ import annotations

import logging
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.cloud.base import Account, ConsoleFingerprints, Credentials, OsShutdownSettler, Provider, StopRefusal
from app.core.errors import InputError, LabGpuError
from app.core.hosts import SSH_KEY_PATH_TAG, login_user, own_key_file
from app.core.i18n import QT_TRANSLATE_NOOP, translate
from app.core.instances import Ledger, LedgerEntry
from app.core.paths import Paths
from app.core.vocab import InstanceState

log = logging.getLogger(__name__)


class InstanceActions:
    paths: Paths
    ledger: Ledger

    if TYPE_CHECKING:  # CloudService's
        def _resolve(self, name: str, region: str = "") -> tuple[Account, Credentials, Provider]: ...

        def _audited(
            self, account: Account, action: str, resource: str, fn: Callable[[], Any], detail: str = ""
        ) -> Any: ...

    def _entry(self, instance_id: str) -> LedgerEntry:
        entry = self.ledger.get(instance_id)
        if entry is None:
            raise InputError(
                QT_TRANSLATE_NOOP("LabGPU", "LabGPU knows no instance {id}."),
                QT_TRANSLATE_NOOP("LabGPU", "Run 'labgpu ls' to refresh the list, then use an id from it."),
                code="NoSuchInstance",
                id=instance_id,
            )
        return entry

    def start(self, instance_id: str) -> LedgerEntry:
        entry = self._entry(instance_id)
        account, creds, provider = self._resolve(entry.account, entry.region)
        self._audited(account, "start", instance_id, lambda: provider.start(account, creds, instance_id))
        got = self.ledger.mark_state(entry.provider, instance_id, InstanceState.STARTING)
        return self._refresh_one(account, creds, provider, instance_id) or got or entry

    def stop(self, instance_id: str) -> tuple[LedgerEntry, str]:
        """Returns the entry and the sentence on what still bills while stopped."""
        entry = self._entry(instance_id)
        account, creds, provider = self._resolve(entry.account, entry.region)
        note = self._audited(account, "stop", instance_id, lambda: provider.stop(account, creds, instance_id))
        got = self.ledger.mark_state(entry.provider, instance_id, InstanceState.STOPPING)
        fresh = self._refresh_one(account, creds, provider, instance_id) or got or entry
        return fresh, translate(str(note or ""))

    def settle_os_shutdown(self, instance_id: str) -> str | None:
        """An instance its own OS shut down (the on-instance watchdog) that the cloud keeps billing while
        stopped (Tencent: STOPPED with KEEP_CHARGING): ask the cloud to stop it without charging, where the
        provider declares how (``stop_charging_after_os_shutdown(account, creds, id)``). Returns the stop's
        sentence when it acted, None when there was nothing to settle. Once per shutdown: the caller keeps
        count (it may start the instance for a minute)."""
        entry = self._entry(instance_id)
        account, creds, provider = self._resolve(entry.account, entry.region)
        if not isinstance(provider, OsShutdownSettler):
            return None
        settle = provider.stop_charging_after_os_shutdown
        note = self._audited(account, "stop", instance_id, lambda: settle(account, creds, instance_id),
                             "after its OS shut down: stop without charging")
        self._refresh_one(account, creds, provider, instance_id)
        return translate(str(note)) if note else None

    def stop_refusal(self, instance_id: str) -> str:
        """Why the cloud will not stop this instance, as a sentence (AWS: a one-time spot instance), or ""
        when a stop can work. The Stop button asks first and offers Terminate instead, saying plainly
        that the disk is deleted; providers declare it with a ``stop_refusal(account, creds, id)`` method."""
        entry = self._entry(instance_id)
        if not entry.spot:
            return ""
        account, creds, provider = self._resolve(entry.account, entry.region)
        if not isinstance(provider, StopRefusal):
            return ""
        return translate(str(provider.stop_refusal(account, creds, instance_id) or ""))

    def terminate(self, instance_id: str, reason: str = "") -> LedgerEntry:
        """Terminate (a provider with spot requests cancels the instance's first, so nothing comes back);
        ``reason`` goes to the audit row, e.g. "terminated: AWS cannot stop a one-time spot instance"."""
        entry = self._entry(instance_id)
        account, creds, provider = self._resolve(entry.account, entry.region)
        self._audited(
            account, "terminate", instance_id, lambda: provider.terminate(account, creds, instance_id), reason
        )
        got = self.ledger.mark_state(entry.provider, instance_id, InstanceState.TERMINATING)
        try:
            listed = provider.list_instances(account, creds)
        except LabGpuError as exc:
            log.info("refresh after terminate failed: %s", exc)
            return got or entry
        seen = next((i for i in listed if i.id == instance_id), None)
        # Released and gone from the cloud's whole listing (Alibaba), or held isolated until the cloud destroys it
        # (Tencent SHUTDOWN): the terminate went through and nothing of it bills.
        if seen is None or seen.state == InstanceState.ISOLATED:
            return self.ledger.mark_state(entry.provider, instance_id, InstanceState.TERMINATED,
                                          raw_state=seen.raw_state if seen else "") or got or entry
        return self.ledger.observe(seen)

    def _refresh_one(
        self, account: Account, creds: Credentials, provider: Provider, instance_id: str
    ) -> LedgerEntry | None:
        try:
            seen = next((i for i in provider.list_instances(account, creds) if i.id == instance_id), None)
        except LabGpuError as exc:
            log.info("refresh after action failed: %s", exc)
            return None
        return self.ledger.observe(seen) if seen is not None else None

    def host_key_fingerprints(self, instance_id: str) -> list[str]:
        """Host key fingerprints the instance printed at first boot, where the provider can read them
        ([] otherwise): the SSH layer compares them with the key the server offers."""
        entry = self._entry(instance_id)
        account, creds, provider = self._resolve(entry.account, entry.region)
        if not isinstance(provider, ConsoleFingerprints):
            return []
        return list(provider.host_key_fingerprints(account, creds, instance_id))

    def ssh_command(self, instance_id: str, user: str = "") -> str:
        entry = self._entry(instance_id)
        host = entry.public_ip or entry.private_ip
        if not host:
            raise InputError(
                QT_TRANSLATE_NOOP("LabGPU", "Instance {id} has no address yet."),
                QT_TRANSLATE_NOOP("LabGPU", "Wait until it is running, then refresh."),
                code="NoAddress",
                id=instance_id,
            )
        login = user or login_user(entry.tags, entry.provider)
        key = Path(entry.tags.get(SSH_KEY_PATH_TAG, "")) if entry.tags.get(SSH_KEY_PATH_TAG) else None
        if key is None and entry.key_name.startswith("labgpu-"):  # LabGPU's own key of that key pair
            own = own_key_file(self.paths, entry.key_name)
            key = Path(own) if own else None
        parts = ["ssh"]
        if key is not None and key.exists():
            parts += ["-i", str(key)]
        parts.append(f"{login}@{host}")
        return " ".join(shlex.quote(p) for p in parts)
