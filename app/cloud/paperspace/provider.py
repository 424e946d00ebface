"""Paperspace machines behind the Provider protocol: validate, list, launch (region failover), start, stop,
delete, and why there are no live prices.

Launch: GET /machine-availability for the type in the region first (``{"available": false}`` is no capacity:
the launcher moves to the next region unless one was chosen); the template is the newest OS template named
ML-in-a-Box that sells the type (Ubuntu with the NVIDIA driver, CUDA and PyTorch), else the newest Ubuntu
(GET /os-templates, whose ``availableMachineTypes`` say which types it takes); the v1 API has no SSH-key call
(account SSH keys are a console feature), so the public key goes in with a run-once startup script
(POST /startup-scripts, then ``startupScriptId`` on POST /machines) that adds it to the ``paperspace`` user's
authorized_keys. The machine name carries the launch's client token (the API has no tags).

Dynamic public IPs change on every start ("a different IP address each time it powers on",
https://docs.digitalocean.com/products/paperspace/machines/how-to/manage-public-ips/): start waits for the
machine to be ready with its address, and CloudService.start records what it reads then, so the host LabGPU
keeps for the instance (app.core.hosts.instance_hosts) has the new address.
"""

from __future__ import annotations

import dataclasses
import logging
import re
import urllib.parse
from collections.abc import Sequence
from typing import Any

from app.cloud.base import CloudError, Instance, LaunchRequest, NotFoundError, NotSupportedError, ProgressFn
from app.cloud.kit import say, spec_identity, stepper, timed_out
from app.core.accounts import Account, Credentials
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.models import Offer

from .client import PaperspaceClient, launch_token, machine_name
from .errors import UNAVAILABLE, map_error
from .spec import LOGIN_USER, PROVIDER_ID, REGIONS, SPEC

log = logging.getLogger("app.cloud.paperspace")

READY = ("ready", "serviceready")
MIN_DISK_GB = 50  # the smallest disk machines-create takes (its diskSize sizes start at 50 GB)
_PUBLIC_KEY_RE = re.compile(r"^(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(256|384|521)) [A-Za-z0-9+/]+=*$")

STOPPED_STATIC = QT_TRANSLATE_NOOP(
    "LabGPU", "Stopped: the machine's hourly rate no longer bills, but its disk still bills every month until "
              "you terminate it, and so does its static public IP (it keeps its address).")
STOPPED_DYNAMIC = QT_TRANSLATE_NOOP(
    "LabGPU", "Stopped: the machine's hourly rate no longer bills, but its disk still bills every month until "
              "you terminate it. Its dynamic public IP was released: it gets a new address when it starts.")
NO_PRICES = QT_TRANSLATE_NOOP(
    "LabGPU", "Paperspace's API publishes no machine prices (its reference lists only machine availability), so "
              "the offers table keeps the bundled catalog's Paperspace prices, with their dates.")
NO_PRICES_HINT = QT_TRANSLATE_NOOP(
    "LabGPU", "Compare with paperspace.com/pricing before a long run; 'labgpu offers --provider paperspace' shows "
              "the catalog's prices and their age.")


def startup_script(public_key: str) -> str:
    """A run-once script adding ``public_key`` to the paperspace user's authorized_keys (idempotent)."""
    return (
        "#!/bin/bash\n"
        "set -eu\n"
        f"KEY='{public_key}'\n"
        f"H=/home/{LOGIN_USER}/.ssh\n"
        f"install -d -m 700 -o {LOGIN_USER} -g {LOGIN_USER} \"$H\"\n"
        "touch \"$H/authorized_keys\"\n"
        "grep -qxF \"$KEY\" \"$H/authorized_keys\" || echo \"$KEY\" >> \"$H/authorized_keys\"\n"
        f"chown {LOGIN_USER}:{LOGIN_USER} \"$H/authorized_keys\"\n"
        "chmod 600 \"$H/authorized_keys\"\n"
    )


class PaperspaceProvider(PaperspaceClient):
    """The Paperspace provider (see app.cloud.base.Provider)."""

    id, display_name, limitations = spec_identity(SPEC)

    # -- account ---------------------------------------------------------------------------------
    def validate(self, account: Account, creds: Credentials) -> str:
        """GET /auth/session: the key's team (``team.namespace``), as ``pspace login`` reads it; a null
        session is a key the API does not know."""
        body = self._call(account, creds, "GET", "/auth/session")
        team = (body.get("team") or {}) if isinstance(body, dict) else {}
        namespace = str(team.get("namespace") or "")[:64] if isinstance(team, dict) else ""
        if not namespace:
            raise map_error("UNAUTHORIZED", "no session for this API key")
        return say(QT_TRANSLATE_NOOP("LabGPU", "Paperspace team {team} ({region})"), team=namespace,
                   region=account.region)

    def refresh_prices(self, account: Account, creds: Credentials, instance_types: Sequence[str]) -> list[Offer]:
        raise NotSupportedError(NO_PRICES, NO_PRICES_HINT, provider=PROVIDER_ID, code="NoPriceApi")

    # -- regions (the launcher's zones) ----------------------------------------------------------
    def zones(self, account: Account, creds: Credentials, instance_type: str = "") -> list[str]:
        """The account's region first, then Paperspace's other regions (no call: each launch attempt asks
        machine availability in its region)."""
        return [account.region] + [r for r in REGIONS if r != account.region]

    def available(self, account: Account, creds: Credentials, instance_type: str, region: str) -> bool:
        """GET /machine-availability?machineType=&region= → ``{"available": bool}``."""
        body = self._call(account, creds, "GET", "/machine-availability",
                          query={"machineType": instance_type, "region": region},
                          context={"instance_type": instance_type, "zone": region})
        return bool(body.get("available"))

    def find_by_client_token(self, account: Account, creds: Credentials, token: str) -> Instance | None:
        base = token.split("~", 1)[0]
        found = [m for m in self.machines(account, creds) if base and launch_token(str(m.get("name") or "")) == base]
        if not found:
            return None
        newest = max(found, key=lambda m: str(m.get("dtCreated") or ""))
        return self.to_instance(account, newest)

    # -- launch ----------------------------------------------------------------------------------
    def pick_template(self, account: Account, creds: Credentials, instance_type: str) -> tuple[str, str, bool]:
        """(template id, name, has the GPU stack): the newest ML-in-a-Box template that sells the type, else
        the newest Ubuntu one."""
        templates = self._list(account, creds, "/os-templates")

        def sells(t: dict[str, Any]) -> bool:
            types = t.get("availableMachineTypes") or []
            return any(isinstance(x, dict) and x.get("machineTypeLabel") == instance_type and x.get("isAvailable")
                       for x in types)

        def newest(pool: list[dict[str, Any]]) -> dict[str, Any]:
            return max(pool, key=lambda t: (str(t.get("dtCreated") or ""), str(t.get("name") or "")))

        usable = [t for t in templates if t.get("id") and sells(t)]
        ml = [t for t in usable if "ml-in-a-box" in str(t.get("name") or "").lower()]
        ubuntu = [t for t in usable if "ubuntu" in f"{t.get('name')} {t.get('operatingSystemLabel')}".lower()]
        for pool, gpu in ((ml, True), (ubuntu, False)):
            if pool:
                best = newest(pool)
                return str(best["id"]), str(best.get("name") or best["id"])[:80], gpu
        raise NotFoundError(
            QT_TRANSLATE_NOOP("LabGPU", "No Paperspace OS template takes the machine type {instance_type}."),
            QT_TRANSLATE_NOOP("LabGPU", "Check the machine type's name (e.g. A100-80G), or pass a template id with "
                                        "--image."),
            provider=PROVIDER_ID, code="NoImage", instance_type=instance_type)

    def _startup_script(self, account: Account, creds: Credentials, req: LaunchRequest) -> str:
        """The run-once script that installs the public key: one per key (found by name, else created)."""
        key = " ".join(req.public_key.split()[:2])
        if not _PUBLIC_KEY_RE.match(key):
            raise CloudError(
                QT_TRANSLATE_NOOP("LabGPU", "No usable SSH public key was given for the new machine."),
                QT_TRANSLATE_NOOP("LabGPU", "Create a key or choose an existing ed25519 or RSA key in the launch "
                                            "dialog."),
                provider=PROVIDER_ID, code="NoSshKey")
        name = f"labgpu-key-{req.ssh_key_name or 'default'}"[:100]
        for script in self._list(account, creds, "/startup-scripts"):
            if script.get("name") == name and script.get("id") and script.get("isEnabled", True):
                return str(script["id"])
        made = self._call(account, creds, "POST", "/startup-scripts",
                          body={"name": name, "script": startup_script(key), "isRunOnce": True},
                          state_changing=True, action="CreateStartupScript", resource=name)
        return str(made.get("id") or "")

    def create_body(self, account: Account, req: LaunchRequest, *, region: str, template_id: str,
                    script_id: str) -> dict[str, Any]:
        """The POST /machines body (public so the contract test checks each field against the reference)."""
        ip_type = account.extra.get("public_ip_type", "dynamic")
        body: dict[str, Any] = {
            "name": machine_name(req.name or f"labgpu-{req.instance_type}", req.client_token, req.ssh_key_name),
            "machineType": req.instance_type,
            "templateId": template_id,
            "region": region,
            "diskSize": max(MIN_DISK_GB, int(req.disk_gb)),
            "publicIpType": ip_type if ip_type in ("static", "dynamic") else "dynamic",
            "startOnCreate": True,
            "emailPassword": False,
        }
        if script_id:
            body["startupScriptId"] = script_id
        return body

    def launch(self, account: Account, creds: Credentials, req: LaunchRequest,
               progress: ProgressFn | None = None) -> Instance:
        step = stepper(progress)
        region = req.zone or account.region
        ctx = {"instance_type": req.instance_type, "zone": region}
        if not self.available(account, creds, req.instance_type, region):
            raise map_error(UNAVAILABLE, "machine-availability: available=false", **ctx)
        step("key", say(QT_TRANSLATE_NOOP("LabGPU", "Adding the SSH public key with a run-once startup script (the "
                                                    "Paperspace API has no SSH key call)…")))
        script_id = self._startup_script(account, creds, req)
        step("security_group", say(QT_TRANSLATE_NOOP(
            "LabGPU", "Paperspace has no firewall LabGPU can set: port 22 is reachable from anywhere; only the key "
                      "logs in as {user}."), user=LOGIN_USER))
        if req.image_id:
            template_id = req.image_id
            step("image", say(QT_TRANSLATE_NOOP("LabGPU", "Image {image}."), image=template_id))
        else:
            template_id, name, gpu = self.pick_template(account, creds, req.instance_type)
            if gpu:
                step("image", say(QT_TRANSLATE_NOOP("LabGPU", "GPU image {name} (template {tid})."),
                                  name=name, tid=template_id))
            else:
                step("image", say(QT_TRANSLATE_NOOP(
                    "LabGPU", "No ML-in-a-Box template takes {type}: using {name} (template {tid}); install "
                              "the NVIDIA driver and CUDA yourself."), type=req.instance_type, name=name,
                    tid=template_id))
        body = self.create_body(account, req, region=region, template_id=template_id, script_id=script_id)
        step("request", say(QT_TRANSLATE_NOOP("LabGPU", "Requesting {type} in {zone}…"), type=req.instance_type,
                            zone=region))
        answer = self._call(account, creds, "POST", "/machines", body=body, state_changing=True,
                            action="CreateMachine", resource=req.client_token, context=ctx)
        data = answer.get("data") if isinstance(answer.get("data"), dict) else None
        if not data or not data.get("id"):
            raise CloudError(
                QT_TRANSLATE_NOOP("LabGPU", "Paperspace accepted the launch but returned no machine id."),
                QT_TRANSLATE_NOOP("LabGPU", "Open the instances page: LabGPU finds the machine by its name."),
                provider=PROVIDER_ID, code="NoInstanceId")
        inst = self.to_instance(account, data)
        return dataclasses.replace(inst, tags={**req.tags, **inst.tags})

    # -- lifecycle -------------------------------------------------------------------------------
    def _wait(self, account: Account, creds: Credentials, machine_id: str, done: Any) -> dict[str, Any] | None:
        """GET /machines/{id} until ``done(machine)`` (None: the machine is gone, NOT_FOUND)."""

        def read() -> dict[str, Any] | None:
            try:
                return self.machine(account, creds, machine_id)
            except NotFoundError:
                return None

        raw, reached = self.poll_until(read, lambda m: m is None or bool(done(m)), self.operation_timeout)
        if not reached and raw is not None:
            raise timed_out(PROVIDER_ID, machine_id, str(raw.get("state") or "?"), self.operation_timeout)
        return raw

    def _action(self, account: Account, creds: Credentials, machine_id: str, verb: str) -> None:
        self._call(account, creds, "PATCH", f"/machines/{urllib.parse.quote(machine_id, safe='')}/{verb}",
                   state_changing=True, action=f"{verb.capitalize()}Machine", resource=machine_id,
                   context={"resource": machine_id})

    def start(self, account: Account, creds: Credentials, instance_id: str) -> None:
        """PATCH start, then wait until ready with a public IP (a dynamic one is new): read it again."""
        self._action(account, creds, instance_id, "start")

        def up(m: dict[str, Any]) -> bool:
            return m.get("state") in READY and (bool(m.get("publicIp")) or m.get("publicIpType") == "none")

        self._wait(account, creds, instance_id, up)

    def stop(self, account: Account, creds: Credentials, instance_id: str) -> str:
        self._action(account, creds, instance_id, "stop")
        raw = self._wait(account, creds, instance_id, lambda m: m.get("state") == "off")
        return STOPPED_STATIC if (raw or {}).get("publicIpType") == "static" else STOPPED_DYNAMIC

    def terminate(self, account: Account, creds: Credentials, instance_id: str) -> None:
        """DELETE /machines/{id} (the disk goes with it), then wait until it is gone."""
        self._call(account, creds, "DELETE", f"/machines/{urllib.parse.quote(instance_id, safe='')}",
                   state_changing=True, action="DeleteMachine", resource=instance_id,
                   context={"resource": instance_id})
        self._wait(account, creds, instance_id, lambda m: bool(m.get("dtDeleted")))

