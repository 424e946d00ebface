"""Launching on Huawei Cloud ECS: network (VPC, subnet, security group), key pair, image,
CreatePostPaidServers, and the job polled to the server id.

The VPC (named ``labgpu``, VPC API v3 with tags) and its subnet (VPC API v2: the v3 API has no CreateSubnet;
a Huawei subnet spans the region's zones) are created the first time and reused after; the security group
lets SSH in from the user's address only and is tagged ``labgpu-resource``. The key pair is imported into KPS
(DEW's key pair service: the ECS Nova key pair calls are deprecated in the SDK) under LabGPU's name for the key
(same key, same name: imported once). CreatePostPaidServers carries the attempt's X-Client-Token (idempotent:
the same token gives the same order), an EIP billed by traffic (the instance's public IP, released with it),
the root volume, the tags naming the launch's token, and for spot ``extendparam.marketType = spot`` with
``spotPrice`` = the cap. ECS creates servers asynchronously: the answer is a job, polled with ShowJob until
it succeeds (its sub-job names the server) or fails with an Ecs.* code (Ecs.0319, insufficient flavor
capacity, is a CapacityError: CloudService then tries the region's next zone unless the user chose one).
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import re
import uuid
from collections.abc import Callable
from typing import Any

from app.cloud.base import (
    LABGPU_TAG_KEY,
    LABGPU_TAG_VALUE,
    CloudError,
    Instance,
    LaunchRequest,
    NotFoundError,
    ProgressFn,
)
from app.cloud.kit import public_key_of, say, stepper, timed_out
from app.core.accounts import Account, Credentials
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.vocab import InstanceState

from .client import KPS, VPC, VPC3, models
from .errors import map_error
from .prices import HuaweiPrices
from .spec import LAUNCH_TAG, LOGIN_TAG, LOGIN_USER, PROVIDER_ID, RESOURCE_TAG, TOKEN_TAG_KEY

log = logging.getLogger("app.cloud.huawei")

VPC_NAME = "labgpu"
VPC_CIDR = "192.168.0.0/16"
SUBNET_NAME = "labgpu"
SUBNET_CIDR = "192.168.0.0/20"
SUBNET_GATEWAY = "192.168.0.1"
DEFAULT_BANDWIDTH_MBPS = 100  # EIP bandwidth (Mbit/s, 1-2000), billed by traffic
DEFAULT_EIP_TYPE = "5_bgp"  # dynamic BGP (EIP API "Assigning an EIP", publicip.type)
DEFAULT_VOLUME_TYPE = "GPSSD"  # general-purpose SSD (PostPaidServerRootVolume.volumetype)
PAGE = 100
MAX_PAGES = 50
# server_tags (PostPaidServerTag): at most 10 tags; key 1-36 characters and value 0-43, neither with control
# characters or = * < > \ , | (and no / in a key)
MAX_TAGS = 10
_TAG_KEY_BAD = re.compile(r"[\x00-\x1f=*<>\\,|/]")
_TAG_VALUE_BAD = re.compile(r"[\x00-\x1f=*<>\\,|]")
# PostPaidServer.name: Chinese characters, letters, digits, "_", "-" and "." only, 1-64 characters
_NAME_BAD = re.compile(r"[^\w.\-]+")
JOB_DONE = ("SUCCESS", "FAIL")


def idempotency_token(token: str) -> str:
    """The X-Client-Token sent for a launch attempt's client token: a UUID derived from it (the same attempt, the
    same UUID). Huawei's services take UUID-shaped idempotency tokens (letters, digits and hyphens, at most 36
    characters), which LabGPU's own tokens ("lg-…", "~1" for a zone attempt) are not."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "labgpu:" + token))


def tag_ok(key: str, value: str) -> bool:
    """Huawei takes this tag on a server (the SDK's PostPaidServerTag rules)."""
    return (0 < len(key) <= 36 and len(value) <= 43 and not _TAG_KEY_BAD.search(key)
            and not _TAG_VALUE_BAD.search(value))


def server_name(text: str) -> str:
    name = _NAME_BAD.sub("-", text or "").strip("-")[:64]
    return name or "labgpu"


def key_pair_name(public_key: str) -> str:
    """The same public key always gets the same name, so it is imported once per region."""
    digest = hashlib.sha256(" ".join(public_key.split()[:2]).encode()).hexdigest()[:16]
    return f"labgpu-{digest}"


def _is_ipv6(cidr: str) -> bool:
    try:
        return ipaddress.ip_network(cidr, strict=False).version == 6
    except ValueError:
        return ":" in cidr


def _covers_22(multiport: str) -> bool:
    """A rule's ``multiport`` ("22", "20-30", "22,80", "" = every port) lets port 22 in."""
    if not multiport.strip():
        return True
    for part in multiport.split(","):
        low, _, high = part.strip().partition("-")
        try:
            if int(low) <= 22 <= int(high or low):
                return True
        except ValueError:
            continue
    return False


def _within(want: str, have: str) -> bool:
    try:
        a, b = ipaddress.ip_network(want, strict=False), ipaddress.ip_network(have, strict=False)
    except ValueError:
        return False
    return a.version == b.version and a.subnet_of(b)  # type: ignore[arg-type]


class HuaweiLaunch(HuaweiPrices):
    """The launch steps (see HuaweiProvider)."""

    network_timeout = 180.0  # seconds a new subnet may stay UNKNOWN; tests shorten it

    # -- network -----------------------------------------------------------------------------------
    def _ensure_vpc(self, account: Account, creds: Credentials, step: Callable[[str, str], None]) -> str:
        """The VPC named labgpu (VPC v3 ListVpcs by name, else CreateVpc with LabGPU's tags)."""
        found = self._call(account, creds, "ListVpcs", {"name": [VPC_NAME], "limit": PAGE})
        vpc = next((v for v in found.get("vpcs") or [] if v.get("name") == VPC_NAME), None)
        if vpc is not None:
            return str(vpc["id"])
        step("network", say(QT_TRANSLATE_NOOP("LabGPU", "Creating the labgpu VPC ({cidr})…"), cidr=VPC_CIDR))
        m = models(VPC3)
        body = m.CreateVpcRequestBody(vpc=m.CreateVpcOption(
            name=VPC_NAME, cidr=VPC_CIDR, description="LabGPU",
            tags=[m.Tag(key=RESOURCE_TAG, value="vpc"), m.Tag(key=LABGPU_TAG_KEY, value=LABGPU_TAG_VALUE)]))
        created = self._call(account, creds, "CreateVpc", {"body": body}, state_changing=True, resource=VPC_NAME)
        return str((created.get("vpc") or {}).get("id") or "")

    def _ensure_subnet(self, account: Account, creds: Credentials, vpc_id: str,
                       step: Callable[[str, str], None]) -> str:
        """The VPC's labgpu subnet (VPC v2 ListSubnets, else CreateSubnet), waited for until ACTIVE."""
        def listed() -> list[dict[str, Any]]:
            body = self._call(account, creds, "ListSubnets", {"vpc_id": vpc_id, "limit": PAGE})
            return [s for s in body.get("subnets") or [] if s.get("name") == SUBNET_NAME]

        subnets = listed()
        if not subnets:
            m = models(VPC)
            body = m.CreateSubnetRequestBody(subnet=m.CreateSubnetOption(
                name=SUBNET_NAME, cidr=SUBNET_CIDR, gateway_ip=SUBNET_GATEWAY, vpc_id=vpc_id, dhcp_enable=True,
                description="LabGPU"))
            created = self._call(account, creds, "CreateSubnet", {"body": body}, state_changing=True,
                                 resource=SUBNET_NAME)
            subnets = [created.get("subnet") or {}]
        subnet = subnets[0]
        if subnet.get("status") == "ACTIVE":
            return str(subnet["id"])
        # a new subnet is UNKNOWN, then ACTIVE (VPC API v2 "Creating a Subnet", status): servers need it ACTIVE
        first = iter((subnet,))

        def read() -> dict[str, Any]:
            known = next(first, None)
            if known is not None:
                return known
            return next(iter(listed()), {})

        def waiting(now: dict[str, Any]) -> None:
            step("network", say(QT_TRANSLATE_NOOP("LabGPU", "Waiting for {resource} to become ACTIVE (now "
                                                            "{state})…"),
                                resource=str(now.get("id") or SUBNET_NAME), state=str(now.get("status") or "?")))

        subnet, ready = self.poll_until(read, lambda s: s.get("status") == "ACTIVE", self.network_timeout, waiting)
        if not ready:
            raise timed_out(PROVIDER_ID, str(subnet.get("id") or SUBNET_NAME), str(subnet.get("status") or "?"),
                            self.network_timeout)
        return str(subnet["id"])

    def _ensure_security_group(self, account: Account, creds: Credentials, cidr: str) -> str:
        """A security group per source range, named after it, that lets TCP 22 in from it only (VPC v3)."""
        name = "labgpu-ssh-" + re.sub(r"[^0-9A-Za-z]", "-", cidr)
        found = self._call(account, creds, "ListSecurityGroups", {"name": [name], "limit": PAGE})
        sg_id = next((str(g["id"]) for g in found.get("security_groups") or [] if g.get("name") == name), "")
        m = models(VPC3)
        if not sg_id:
            body = m.CreateSecurityGroupRequestBody(security_group=m.CreateSecurityGroupOption(
                name=name, description=f"LabGPU: SSH from {cidr} only",
                tags=[m.ResourceTag(key=RESOURCE_TAG, value="ssh"),
                      m.ResourceTag(key=LABGPU_TAG_KEY, value=LABGPU_TAG_VALUE)]))
            created = self._call(account, creds, "CreateSecurityGroup", {"body": body}, state_changing=True,
                                 resource=name)
            sg_id = str((created.get("security_group") or {}).get("id") or "")
        elif self._has_ssh_rule(account, creds, sg_id, cidr):
            return sg_id
        # A new group lets nothing in from outside (its default rules: all egress, ingress from the group
        # itself): the one SSH rule
        rule = m.CreateSecurityGroupRuleRequestBody(security_group_rule=m.CreateSecurityGroupRuleOption(
            security_group_id=sg_id, direction="ingress", ethertype="IPv6" if _is_ipv6(cidr) else "IPv4",
            protocol="tcp", multiport="22", remote_ip_prefix=cidr, action="allow", priority=1,
            description="LabGPU SSH"))
        self._call(account, creds, "CreateSecurityGroupRule", {"body": rule}, state_changing=True, resource=sg_id)
        return sg_id

    def _has_ssh_rule(self, account: Account, creds: Credentials, sg_id: str, cidr: str) -> bool:
        body = self._call(account, creds, "ListSecurityGroupRules",
                          {"security_group_id": [sg_id], "direction": "ingress", "limit": PAGE})
        for rule in body.get("security_group_rules") or []:
            if rule.get("remote_group_id") or rule.get("remote_address_group_id"):
                continue  # lets in the members of a group, not an address range (a new group's default rule)
            everyone = "::/0" if rule.get("ethertype") == "IPv6" else "0.0.0.0/0"  # no prefix: any address
            if (str(rule.get("protocol") or "").lower() in ("tcp", "") and rule.get("action", "allow") == "allow"
                    and _covers_22(str(rule.get("multiport") or "")) and rule.get("direction") == "ingress"
                    and _within(cidr, str(rule.get("remote_ip_prefix") or everyone))):
                return True
        return False

    # -- key pair and image --------------------------------------------------------------------------
    def _ensure_key(self, account: Account, creds: Credentials, req: LaunchRequest) -> str:
        wanted = public_key_of(req.public_key, PROVIDER_ID)
        name = req.ssh_key_name or key_pair_name(wanted)
        marker = ""
        for _page in range(MAX_PAGES):  # KPS ListKeypairs pages by marker (page_info.next_marker)
            params: dict[str, Any] = {"limit": str(PAGE)}
            if marker:
                params["marker"] = marker
            body = self._call(account, creds, "ListKeypairs", params)
            pairs = [p.get("keypair") or {} for p in body.get("keypairs") or []]
            if any(p.get("name") == name for p in pairs):
                return name
            marker = str((body.get("page_info") or {}).get("next_marker") or "")
            if not marker or not pairs:
                break
        m = models(KPS)
        body = m.CreateKeypairRequestBody(keypair=m.CreateKeypairAction(name=name, type="ssh", public_key=wanted,
                                                                        scope="user"))
        self._call(account, creds, "CreateKeypair", {"body": body}, state_changing=True, resource=name)
        return name

    def _public_images(self, account: Account, creds: Credentials, flavor: str) -> list[dict[str, Any]]:
        """Active public Ubuntu images this flavor can run (IMS ListImages: __imagetype gold, __platform
        Ubuntu, flavor_id), every page (marker = the last image's id)."""
        images: list[dict[str, Any]] = []
        marker = ""
        for _page in range(MAX_PAGES):
            params: dict[str, Any] = {"imagetype": "gold", "os_type": "Linux", "platform": "Ubuntu",
                                      "status": "active", "flavor_id": flavor, "limit": PAGE}
            if marker:
                params["marker"] = marker
            batch = self._call(account, creds, "ListImages", params,
                               context={"instance_type": flavor}).get("images") or []
            images.extend(batch)
            if len(batch) < PAGE:
                break
            marker = str(batch[-1].get("id") or "")
        return images

    def pick_image(self, account: Account, creds: Credentials, flavor: str) -> tuple[str, str, bool]:
        """(image id, image name, has the GPU driver): the newest public Ubuntu image with the NVIDIA
        driver when one exists for the flavor, else the newest public Ubuntu (drivers to install)."""
        images = self._public_images(account, creds, flavor)

        def gpu(img: dict[str, Any]) -> bool:
            text = " ".join(str(img.get(k) or "") for k in ("name", "image_displayname", "description")).lower()
            return any(w in text for w in ("gpu", "cuda", "tesla", "nvidia", "driver"))

        for pool, is_gpu in (([i for i in images if gpu(i)], True), (images, False)):
            if pool:
                best = max(pool, key=lambda i: (str(i.get("created_at") or ""), str(i.get("name") or "")))
                return str(best["id"]), str(best.get("name") or best["id"]), is_gpu
        raise NotFoundError(
            QT_TRANSLATE_NOOP("LabGPU", "No public GPU or Ubuntu image supports {instance_type} in {region}."),
            QT_TRANSLATE_NOOP("LabGPU", "Pick an image id in the Huawei Cloud console (Image Management Service) and "
                                        "pass it with --image."),
            provider=PROVIDER_ID, code="NoImage", instance_type=flavor, region=account.region)

    # -- CreatePostPaidServers -----------------------------------------------------------------------
    def server_tags(self, req: LaunchRequest) -> dict[str, str]:
        tags = {LABGPU_TAG_KEY: LABGPU_TAG_VALUE, LOGIN_TAG: LOGIN_USER}
        if req.client_token:
            tags[TOKEN_TAG_KEY] = req.client_token[:43]
        for k, v in req.tags.items():
            if k not in tags and tag_ok(k, v):  # a key path longer than 43 characters is left out
                tags[k] = v
        return dict(list(tags.items())[:MAX_TAGS])

    def create_request(self, req: LaunchRequest, *, zone: str, image: str, key_pair: str, vpc_id: str,
                       subnet_id: str, security_group_id: str, max_price: float | None,
                       bandwidth_mbps: int = DEFAULT_BANDWIDTH_MBPS, eip_type: str = DEFAULT_EIP_TYPE,
                       volume_type: str = DEFAULT_VOLUME_TYPE) -> Any:
        """The SDK's CreatePostPaidServersRequest (public so the contract test checks its fields)."""
        m = models()
        extend = None
        if req.spot:
            # marketType spot; spotPrice: the most per hour, at most the pay-per-use price ("Spot Pricing",
            # https://support.huaweicloud.com/intl/en-us/price-ecs/ecs_billing_2004.html); none sent = the
            # pay-per-use price (PostPaidServerExtendParam.spot_price)
            extend = m.PostPaidServerExtendParam(market_type="spot", interruption_policy="immediate",
                                                 spot_price=f"{max_price:.4f}" if max_price else None)
        server = m.PostPaidServer(
            availability_zone=zone or None, flavor_ref=req.instance_type, image_ref=image, key_name=key_pair,
            name=server_name(req.name or f"labgpu-{req.instance_type}"), vpcid=vpc_id, count=1,
            nics=[m.PostPaidServerNic(subnet_id=subnet_id)],
            security_groups=[m.PostPaidServerSecurityGroup(id=security_group_id)],
            root_volume=m.PostPaidServerRootVolume(volumetype=volume_type, size=int(req.disk_gb)),
            publicip=m.PostPaidServerPublicip(delete_on_termination=True, eip=m.PostPaidServerEip(
                iptype=eip_type, bandwidth=m.PostPaidServerEipBandwidth(size=bandwidth_mbps, sharetype="PER",
                                                                        chargemode="traffic"))),
            server_tags=[m.PostPaidServerTag(key=k, value=v) for k, v in self.server_tags(req).items()],
            extendparam=extend,
        )
        return m.CreatePostPaidServersRequest(x_client_token=idempotency_token(req.client_token) if req.client_token
                                              else None,
                                              body=m.CreatePostPaidServersRequestBody(server=server))

    def wait_job(self, account: Account, creds: Credentials, job_id: str, context: dict[str, Any],
                 waiting: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
        """ShowJob until SUCCESS (its answer) or FAIL (its Ecs.* code mapped, e.g. Ecs.0319 → CapacityError)."""
        job, done = self.poll_until(lambda: self._call(account, creds, "ShowJob", {"job_id": job_id}),
                                    lambda j: j.get("status") in JOB_DONE, self.operation_timeout, waiting)
        if not done:
            raise timed_out(PROVIDER_ID, job_id, str(job.get("status") or "?"), self.operation_timeout)
        if job.get("status") == "FAIL":
            subs = (job.get("entities") or {}).get("sub_jobs") or []
            code = str(job.get("error_code") or next((s.get("error_code") for s in subs if s.get("error_code")), "")
                       or "Ecs.0219")
            reason = str(job.get("fail_reason") or next((s.get("fail_reason") for s in subs if s.get("fail_reason")),
                                                        "") or code)
            log.info("Huawei job %s failed: %s", job_id, code)
            raise map_error(code, reason, job_id, action=str(job.get("job_type") or "ShowJob"),
                            region=account.region, **context)
        return job

    def launch(self, account: Account, creds: Credentials, req: LaunchRequest,
               progress: ProgressFn | None = None) -> Instance:
        step = stepper(progress)
        zone = req.zone  # CloudService chose it ("" = let ECS pick: no zone list)
        ctx: dict[str, Any] = {"zone": zone or "?", "instance_type": req.instance_type}
        step("key", say(QT_TRANSLATE_NOOP("LabGPU", "Registering the SSH public key with Huawei Cloud…")))
        key_pair = self._ensure_key(account, creds, req)
        vpc_id = self._ensure_vpc(account, creds, step)
        subnet_id = self._ensure_subnet(account, creds, vpc_id, step)
        step("security_group",
             say(QT_TRANSLATE_NOOP("LabGPU", "Security group: SSH from {cidr} only."), cidr=req.ssh_cidr))
        sg_id = self._ensure_security_group(account, creds, req.ssh_cidr)
        if req.image_id:
            image = req.image_id
            step("image", say(QT_TRANSLATE_NOOP("LabGPU", "Image {image}."), image=image))
        else:
            image, image_name, is_gpu = self.pick_image(account, creds, req.instance_type)
            if is_gpu:
                step("image", say(QT_TRANSLATE_NOOP("LabGPU", "GPU image {name}."), name=image_name))
            else:
                step("image", say(QT_TRANSLATE_NOOP(
                    "LabGPU", "No public image with the NVIDIA driver found for {type}: using {name}; install the "
                              "NVIDIA driver and CUDA yourself."), type=req.instance_type, name=image_name))
        max_price = req.max_price  # the cap CloudService set (None: the pay-per-use price)
        request = self.create_request(
            req, zone=zone, image=image, key_pair=key_pair, vpc_id=vpc_id, subnet_id=subnet_id,
            security_group_id=sg_id, max_price=max_price,
            bandwidth_mbps=int(account.extra.get("bandwidth_mbps", DEFAULT_BANDWIDTH_MBPS)),
            eip_type=account.extra.get("eip_type", DEFAULT_EIP_TYPE),
            volume_type=account.extra.get("volume_type", DEFAULT_VOLUME_TYPE))
        where = zone or account.region
        if req.spot:
            step("request", say(
                QT_TRANSLATE_NOOP("LabGPU", "Requesting spot {type} in {zone} (maximum {price} {currency}/h)…"),
                type=req.instance_type, zone=where, price=f"{max_price:.4f}" if max_price else "?",
                currency=self.billing_currency(account)))
        else:
            step("request", say(QT_TRANSLATE_NOOP("LabGPU", "Requesting pay-per-use {type} in {zone}…"),
                                type=req.instance_type, zone=where))
        body = self._call(account, creds, "CreatePostPaidServers", request=request, context=ctx,
                          state_changing=True, resource=req.client_token)
        job_id = str(body.get("job_id") or "")

        def waiting(job: dict[str, Any]) -> None:
            step("request", say(QT_TRANSLATE_NOOP("LabGPU", "Huawei Cloud is creating the server (job {job}: "
                                                            "{state})…"), job=job_id, state=job.get("status", "?")))

        job = self.wait_job(account, creds, job_id, ctx, waiting)
        subs = (job.get("entities") or {}).get("sub_jobs") or []
        server_id = next((str((s.get("entities") or {}).get("server_id")) for s in subs
                          if (s.get("entities") or {}).get("server_id")), "")
        server_id = server_id or next(iter(body.get("serverIds") or []), "")
        if not server_id:
            raise CloudError(
                QT_TRANSLATE_NOOP("LabGPU", "Huawei Cloud finished the launch job but named no server."),
                QT_TRANSLATE_NOOP("LabGPU", "Open the instances page: LabGPU lists every tagged instance."),
                provider=PROVIDER_ID, code="NoInstanceId", request_id=job_id)
        found = self.get_instance(account, creds, server_id)
        if found is not None:
            return found
        return Instance(id=server_id, account=account.name, provider=PROVIDER_ID, region=account.region, zone=zone,
                        instance_type=req.instance_type, state=InstanceState.PENDING, spot=req.spot,
                        currency=self.billing_currency(account), key_name=key_pair, raw_state="BUILD",
                        tags=self.server_tags(req))

    # -- instances ---------------------------------------------------------------------------------------
    def list_instances(self, account: Account, creds: Credentials) -> list[Instance]:
        raws = self._describe(account, creds, tag=(LABGPU_TAG_KEY, LABGPU_TAG_VALUE))
        return [self._to_instance(account, raw, self._prices_for(account, creds, raws)) for raw in raws]

    def find_by_client_token(self, account: Account, creds: Credentials, token: str) -> Instance | None:
        """The instance a launch with this token made (its attempt's own tag, or the launcher's tag)."""
        for key in (TOKEN_TAG_KEY, LAUNCH_TAG):
            raws = self._describe(account, creds, tag=(key, token[:43]))
            if raws:
                return self._to_instance(account, raws[0], self._prices_for(account, creds, raws[:1]))
        return None

    def get_instance(self, account: Account, creds: Credentials, instance_id: str) -> Instance | None:
        raws = self._describe(account, creds, ids=[instance_id])
        return self._to_instance(account, raws[0], self._prices_for(account, creds, raws)) if raws else None
