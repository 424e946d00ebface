"""Launching on Alibaba Cloud ECS: network (VPC, vSwitch, security group), key pair, image, RunInstances.

The VPC (named ``labgpu``) and one vSwitch per zone are created the first time and reused after;
the security group lets SSH in from the user's address only and is tagged ``labgpu-resource``. The
key pair is named after LabGPU's public key (same key, same name: imported once). RunInstances
carries the attempt's ClientToken (a retry with the same token gives the same instance) and tags
the instance with the launch's token, so a launch cut short is found again.
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import re
from collections.abc import Callable
from typing import Any

from app.cloud.base import (
    LABGPU_TAG_KEY,
    LABGPU_TAG_VALUE,
    CloudError,
    Instance,
    LaunchRequest,
    NotFoundError,
    PriceTooLowError,
    ProgressFn,
)
from app.cloud.kit import public_key_of, say, stepper
from app.core.accounts import Account, Credentials
from app.core.backstops import (
    MSG_NOT_HELD,
    MSG_REFUSED,
    MSG_TOO_LATE,
    MSG_TOO_SOON,
    RELEASE,
    BackstopPlan,
    BackstopReading,
    iso_z,
    parse_utc,
)
from app.core.hosts import SSH_USER_TAG
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.vocab import InstanceState

from .client import VPC, AlibabaClient, currency_for, tag_value
from .spec import LOGIN_USER, PROVIDER_ID, RESOURCE_TAG, TOKEN_TAG_KEY

log = logging.getLogger("app.cloud.alibaba")

VPC_NAME = "labgpu"
VPC_CIDR = "192.168.0.0/16"
DEFAULT_BANDWIDTH_MBPS = 100  # InternetMaxBandwidthOut > 0 gives the instance a public IP
DEFAULT_DISK_CATEGORY = "cloud_essd"
MAX_TAG_VALUE = 128
# RunInstances.AutoReleaseTime (the SDK's RunInstancesRequest.auto_release_time; RunInstances and
# ModifyInstanceAutoReleaseTime, https://help.aliyun.com/document_detail/47576.html): UTC, yyyy-MM-ddTHH:mm:ssZ,
# seconds other than 00 rounded down to the minute, "at least 30 minutes later than the current time" and "at most
# three years later"; a time it will not take is InvalidAutoReleaseTime.Malformed.
RELEASE_MIN_AHEAD_S = 30 * 60
RELEASE_MARGIN_S = 3 * 60  # the launch's network, key and image calls come before RunInstances
RELEASE_MAX_AHEAD_S = 3 * 365 * 24 * 3600
RELEASE_REFUSED = "InvalidAutoReleaseTime.Malformed"
CLOUD = "Alibaba Cloud"


def _is_ipv6(cidr: str) -> bool:
    try:
        return ipaddress.ip_network(cidr, strict=False).version == 6
    except ValueError:
        return ":" in cidr


def _covers_22(port_range: str) -> bool:
    try:
        low, high = (int(p) for p in port_range.split("/", 1))
    except ValueError:
        return False
    return low <= 22 <= high or (low, high) == (-1, -1)


def _within(want: ipaddress.IPv4Network | ipaddress.IPv6Network,
            have: ipaddress.IPv4Network | ipaddress.IPv6Network) -> bool:
    """``want`` lies inside ``have`` (never across address families)."""
    if isinstance(want, ipaddress.IPv4Network) and isinstance(have, ipaddress.IPv4Network):
        return want.subnet_of(have)
    if isinstance(want, ipaddress.IPv6Network) and isinstance(have, ipaddress.IPv6Network):
        return want.subnet_of(have)
    return False


_NAME_BAD = re.compile(r"[^\w:.\-]+")


def instance_name(text: str, fallback: str = "labgpu") -> str:
    """An InstanceName the API accepts: 2 to 128 characters, letters (Unicode, Chinese included) and
    digits, colons, underscores, periods and hyphens, starting with a letter, not http(s)://
    (RunInstances InstanceName, https://help.aliyun.com/document_detail/63440.html, and the SDK's
    RunInstancesRequest.instance_name)."""
    name = re.sub(r"-{2,}", "-", _NAME_BAD.sub("-", text or "")).strip("-")  # "/" goes: never http(s)://
    if not name[:1].isalpha():
        name = f"{fallback}-{name}" if name else fallback
    name = name[:128].rstrip("-")
    return name if len(name) >= 2 else f"{fallback}-{name}"


def key_pair_name(public_key: str) -> str:
    """The same public key always gets the same name, so it is imported once per region."""
    digest = hashlib.sha256(" ".join(public_key.split()[:2]).encode()).hexdigest()[:16]
    return f"labgpu-{digest}"


class AlibabaLaunch(AlibabaClient):
    """The launch steps (see AlibabaProvider)."""

    # -- the cloud-enforced backstop (CloudBackstop) -----------------------------------------------
    def backstop_refusal(self, account: Account, plan: BackstopPlan, spot: bool) -> tuple[str, dict[str, Any]]:
        """Alibaba releases at a time 30 minutes to 3 years ahead: a maximum runtime outside is not sent."""
        if plan.hours * 3600 < RELEASE_MIN_AHEAD_S + RELEASE_MARGIN_S:
            return MSG_TOO_SOON, {"cloud": CLOUD, "minutes": (RELEASE_MIN_AHEAD_S + RELEASE_MARGIN_S) // 60,
                                  "hours": f"{plan.hours:g}"}
        if plan.hours * 3600 > RELEASE_MAX_AHEAD_S - 24 * 3600:
            return MSG_TOO_LATE, {"cloud": CLOUD, "years": 3}
        return "", {}

    def read_backstop(self, account: Account, creds: Credentials, instance_id: str,
                      plan: BackstopPlan) -> BackstopReading:
        """The instance's AutoReleaseTime as DescribeInstances answers it ("" = no automatic release)."""
        refused = self.backstop_refused.pop(instance_id, None)
        if refused is not None:
            return BackstopReading(False, RELEASE, reason=MSG_REFUSED,
                                   params={"cloud": CLOUD, "code": refused[0], "detail": refused[1]})
        raws = self._describe(account, creds, ids=[instance_id])
        at = parse_utc(str((raws[0] if raws else {}).get("AutoReleaseTime") or ""))
        if at is None:
            return BackstopReading(False, RELEASE, reason=MSG_NOT_HELD, params={"cloud": CLOUD})
        return BackstopReading(True, RELEASE, at)

    network_timeout = 180.0  # seconds a new VPC or vSwitch may stay Pending; tests shorten it

    # -- network ---------------------------------------------------------------------------------
    # VPCs and vSwitches through the VPC API (2016-04-28): the ECS 2014-05-26 copies of these calls
    # are deprecated ("temporarily accessible", migrate to Vpc(2016-04-28) - CreateVSwitch:
    # https://www.alibabacloud.com/help/ja/ecs/developer-reference/api-ecs-2014-05-26-createvswitch).
    # CreateVpc and CreateVSwitch are asynchronous: the new resource is Pending, then Available
    # (https://www.alibabacloud.com/help/doc-detail/35745.htm, CreateVSwitch "Operation description"),
    # and what needs it fails with IncorrectVpcStatus / IncorrectVSwitchStatus until then.
    def _wait_available(
        self, account: Account, creds: Credentials, kind: str, resource_id: str, status: str,
        step: Callable[[str, str], None],
    ) -> None:
        """Poll DescribeVpcAttribute / DescribeVSwitchAttributes until the resource is Available
        (bounded by network_timeout; each poll said through the launch's progress)."""
        action, id_field = (("DescribeVpcAttribute", "VpcId") if kind == "vpc"
                            else ("DescribeVSwitchAttributes", "VSwitchId"))
        statuses = iter((status,))

        def read() -> str:
            known = next(statuses, None)  # the status already known, then DescribeVpcAttribute's
            if known is not None:
                return known
            return str(self._call(account, creds, action, {id_field: resource_id}, api=VPC).get("Status") or "")

        def waiting(now: str) -> None:
            step("network", say(QT_TRANSLATE_NOOP("LabGPU", "Waiting for {resource} to become Available (now "
                                                            "{state})…"), resource=resource_id, state=now or "?"))

        status, available = self.poll_until(read, lambda now: now == "Available", self.network_timeout, waiting)
        if not available:
            raise CloudError(
                QT_TRANSLATE_NOOP("LabGPU", "Alibaba Cloud's new network {resource} is still {state} after "
                                            "{seconds} s."),
                QT_TRANSLATE_NOOP("LabGPU", "Launch again in a few minutes: LabGPU finds and reuses the network "
                                            "it created, it never makes a second one."),
                provider=PROVIDER_ID, code="NetworkNotReady", resource=resource_id, state=status or "?",
                seconds=int(self.network_timeout),
            )

    def _find_vpc(self, account: Account, creds: Credentials) -> dict[str, Any] | None:
        """LabGPU's VPC in the region (named labgpu), Available first, else one still Pending."""
        found: list[dict[str, Any]] = []
        page = 1
        while True:
            body = self._call(account, creds, "DescribeVpcs",
                              {"VpcName": VPC_NAME, "PageNumber": page, "PageSize": 50}, api=VPC)
            vpcs = (body.get("Vpcs") or {}).get("Vpc") or []
            found.extend(v for v in vpcs if v.get("VpcName") == VPC_NAME and v.get("VpcId"))
            if not vpcs or page * 50 >= int(body.get("TotalCount") or 0):
                break
            page += 1
        found.sort(key=lambda v: (v.get("Status") != "Available", str(v.get("CreationTime", ""))))
        return found[0] if found else None

    def _ensure_vpc(self, account: Account, creds: Credentials, token: str,
                    step: Callable[[str, str], None]) -> str:
        """The labgpu VPC, found first (a launch retried after a crash or a timeout mid-way never makes a
        second one), else created; Available when this returns."""
        vpc = self._find_vpc(account, creds)
        if vpc is None:
            step("network", say(QT_TRANSLATE_NOOP("LabGPU", "Creating the network (VPC {name}, {cidr})…"),
                                 name=VPC_NAME, cidr=VPC_CIDR))
            created = self._call(
                account, creds, "CreateVpc",
                {"VpcName": VPC_NAME, "CidrBlock": VPC_CIDR, "ClientToken": f"{token[:56]}-vpc",
                 "Description": "Created by LabGPU and reused for its instances",
                 "Tag": [{"Key": RESOURCE_TAG, "Value": "vpc"}, {"Key": LABGPU_TAG_KEY, "Value": LABGPU_TAG_VALUE}]},
                state_changing=True, resource=VPC_NAME, api=VPC,
            )
            vpc = {"VpcId": created["VpcId"], "Status": "Pending"}
        vpc_id = str(vpc["VpcId"])
        self._wait_available(account, creds, "vpc", vpc_id, str(vpc.get("Status") or ""), step)
        return vpc_id

    def _ensure_vswitch(self, account: Account, creds: Credentials, vpc_id: str, zone: str, token: str,
                        step: Callable[[str, str], None]) -> str:
        switches: list[dict[str, Any]] = []
        page = 1
        while True:
            body = self._call(account, creds, "DescribeVSwitches",
                              {"VpcId": vpc_id, "PageNumber": page, "PageSize": 50}, api=VPC)
            batch = (body.get("VSwitches") or {}).get("VSwitch") or []
            switches.extend(batch)
            if not batch or page * 50 >= int(body.get("TotalCount") or 0):
                break
            page += 1
        here = sorted((sw for sw in switches if sw.get("ZoneId") == zone and sw.get("VSwitchId")),
                      key=lambda sw: sw.get("Status") != "Available")
        if here:
            vsw_id, status = str(here[0]["VSwitchId"]), str(here[0].get("Status") or "")
        else:
            used = [ipaddress.ip_network(str(sw.get("CidrBlock"))) for sw in switches if sw.get("CidrBlock")]
            cidr = next(str(net) for net in ipaddress.ip_network(VPC_CIDR).subnets(new_prefix=24)
                        if not any(net.overlaps(u) for u in used))
            step("network", say(QT_TRANSLATE_NOOP("LabGPU", "Creating a vSwitch in {zone} ({cidr})…"),
                                 zone=zone, cidr=cidr))
            created = self._call(
                account, creds, "CreateVSwitch",
                {"VpcId": vpc_id, "ZoneId": zone, "CidrBlock": cidr, "VSwitchName": f"labgpu-{zone}"[:128],
                 "ClientToken": f"{token[:50]}-vsw-{zone[-6:]}", "Description": "Created by LabGPU",
                 "Tag": [{"Key": RESOURCE_TAG, "Value": "vswitch"}]},
                context={"zone": zone}, state_changing=True, resource=f"labgpu-{zone}", api=VPC,
            )
            vsw_id, status = str(created["VSwitchId"]), "Pending"
        self._wait_available(account, creds, "vswitch", vsw_id, status, step)
        return vsw_id

    def _ensure_security_group(self, account: Account, creds: Credentials, vpc_id: str, cidr: str, token: str) -> str:
        name = "labgpu-ssh-" + re.sub(r"[^0-9A-Za-z]", "-", cidr)
        found = self._call(
            account, creds, "DescribeSecurityGroups",
            {"VpcId": vpc_id, "SecurityGroupName": name, "PageSize": 50,
             "Tag": [{"Key": RESOURCE_TAG, "Value": "ssh"}]},
        )
        sg_id = next((str(sg["SecurityGroupId"]) for sg in (found.get("SecurityGroups") or {}).get("SecurityGroup")
                      or [] if sg.get("SecurityGroupName") == name), "")
        if sg_id and self._has_ssh_rule(account, creds, sg_id, cidr):
            return sg_id
        if not sg_id:
            created = self._call(
                account, creds, "CreateSecurityGroup",
                {"VpcId": vpc_id, "SecurityGroupName": name, "Description": f"LabGPU: SSH from {cidr} only",
                 "ClientToken": f"{token[:56]}-sg", "Tag": [{"Key": RESOURCE_TAG, "Value": "ssh"},
                                                          {"Key": LABGPU_TAG_KEY, "Value": LABGPU_TAG_VALUE}]},
                state_changing=True, resource=name,
            )
            sg_id = str(created["SecurityGroupId"])
        else:
            log.info("security group %s has no SSH rule from %s: adding it", sg_id, cidr)
        # A new group denies all inbound traffic (a group found without the rule was cut short
        # after CreateSecurityGroup, or edited in the console): the one SSH rule, in the
        # Permissions.N form (the top-level SourceCidrIp/Ipv6SourceCidrIp are deprecated in the
        # SDK's AuthorizeSecurityGroupRequest); an IPv6 range goes in Ipv6SourceCidrIp, never in
        # SourceCidrIp ("You cannot specify both", AuthorizeSecurityGroupRequestPermissions).
        rule: dict[str, Any] = {"IpProtocol": "TCP", "PortRange": "22/22", "Policy": "accept", "Priority": "1",
                                "Description": "LabGPU SSH"}
        rule["Ipv6SourceCidrIp" if _is_ipv6(cidr) else "SourceCidrIp"] = cidr
        self._call(account, creds, "AuthorizeSecurityGroup", {"SecurityGroupId": sg_id, "Permissions": [rule]},
                   state_changing=True, resource=sg_id)
        return sg_id

    def _has_ssh_rule(self, account: Account, creds: Credentials, sg_id: str, cidr: str) -> bool:
        """The group lets TCP 22 in from this range (DescribeSecurityGroupAttribute, ingress rules)."""
        body = self._call(account, creds, "DescribeSecurityGroupAttribute",
                          {"SecurityGroupId": sg_id, "Direction": "ingress"})
        field = "Ipv6SourceCidrIp" if _is_ipv6(cidr) else "SourceCidrIp"
        want = ipaddress.ip_network(cidr, strict=False)
        for perm in (body.get("Permissions") or {}).get("Permission") or []:
            if (str(perm.get("IpProtocol", "")).upper() in ("TCP", "ALL") and _covers_22(str(perm.get("PortRange", "")))
                    and str(perm.get("Policy", "")).lower() == "accept"
                    and str(perm.get("Direction", "ingress")).lower() == "ingress"):
                try:
                    have = ipaddress.ip_network(str(perm.get(field) or ""), strict=False)
                except ValueError:
                    continue
                if _within(want, have):
                    return True
        return False

    # -- key pair and image ----------------------------------------------------------------------
    def _ensure_key(self, account: Account, creds: Credentials, req: LaunchRequest) -> str:
        wanted = public_key_of(req.public_key, PROVIDER_ID)
        name = key_pair_name(wanted)
        body = self._call(account, creds, "DescribeKeyPairs", {"KeyPairName": name, "PageSize": 50})
        if any(kp.get("KeyPairName") == name for kp in (body.get("KeyPairs") or {}).get("KeyPair") or []):
            return name
        self._call(
            account, creds, "ImportKeyPair",
            {"KeyPairName": name, "PublicKeyBody": wanted,
             "Tag": [{"Key": LABGPU_TAG_KEY, "Value": LABGPU_TAG_VALUE}]},
            state_changing=True, resource=name,
        )
        return name

    def _system_images(self, account: Account, creds: Credentials, instance_type: str) -> list[dict[str, Any]]:
        images: list[dict[str, Any]] = []
        for page in range(1, 11):  # at most 1000 public images
            body = self._call(
                account, creds, "DescribeImages",
                {"ImageOwnerAlias": "system", "OSType": "linux", "InstanceType": instance_type,
                 "PageNumber": page, "PageSize": 100},
                context={"instance_type": instance_type},
            )
            batch = (body.get("Images") or {}).get("Image") or []
            images.extend(batch)
            if not batch or len(images) >= int(body.get("TotalCount") or 0):
                break
        return [i for i in images if i.get("Status", "Available") == "Available"]

    def pick_image(self, account: Account, creds: Credentials, instance_type: str) -> tuple[str, str, bool]:
        """(image family, image name, has the GPU driver): the newest image of a public family with the
        NVIDIA driver (CUDA) when one exists, else the newest public Ubuntu (drivers to install)."""
        images = [i for i in self._system_images(account, creds, instance_type) if i.get("ImageFamily")]

        def text(img: dict[str, Any]) -> str:
            keys = ("ImageFamily", "ImageName", "Description", "OSNameEn")
            return " ".join(str(img.get(k, "")) for k in keys).lower()

        def gpu(img: dict[str, Any]) -> bool:
            return any(w in text(img) for w in ("gpu", "cuda", "nvidia"))

        for pool, is_gpu in (([i for i in images if gpu(i) and "ubuntu" in text(i)], True),
                             ([i for i in images if gpu(i)], True),
                             ([i for i in images if "ubuntu" in text(i)], False)):
            if pool:
                best = max(pool, key=lambda i: (str(i.get("CreationTime", "")), str(i.get("ImageName", ""))))
                return str(best["ImageFamily"]), str(best.get("ImageName") or best.get("ImageId", "")), is_gpu
        raise NotFoundError(
            QT_TRANSLATE_NOOP("LabGPU", "No public GPU or Ubuntu image supports {instance_type} in {region}."),
            QT_TRANSLATE_NOOP("LabGPU", "Pick an image id or family in the ECS console and pass it with --image."),
            provider=PROVIDER_ID,
            code="NoImage",
            instance_type=instance_type,
            region=account.region,
        )

    # -- RunInstances ----------------------------------------------------------------------------
    def run_instances_params(
        self, req: LaunchRequest, *, zone: str, image: str, key_pair: str, security_group_id: str,
        vswitch_id: str, max_price: float | None, bandwidth_mbps: int = DEFAULT_BANDWIDTH_MBPS,
        disk_category: str = DEFAULT_DISK_CATEGORY,
    ) -> dict[str, Any]:
        """The RunInstances request (public so a test checks every field against the SDK's model)."""
        tags = {LABGPU_TAG_KEY: LABGPU_TAG_VALUE, SSH_USER_TAG: LOGIN_USER}
        if req.client_token:
            tags[TOKEN_TAG_KEY] = tag_value(req.client_token)
        for k, v in req.tags.items():
            if k not in tags and len(v) <= MAX_TAG_VALUE:  # a longer key path is left out: default keys
                tags[k] = tag_value(v)
        params: dict[str, Any] = {
            "ZoneId": zone,
            "InstanceType": req.instance_type,
            "InstanceChargeType": "PostPaid",
            # A cap is SpotWithPriceLimit; no cap is SpotAsPriceGo (the market price, at most pay-as-you-go).
            "SpotStrategy": ("SpotWithPriceLimit" if max_price else "SpotAsPriceGo") if req.spot else "NoSpot",
            "VSwitchId": vswitch_id,
            "SecurityGroupId": security_group_id,
            "KeyPairName": key_pair,
            "InternetChargeType": "PayByTraffic",
            "InternetMaxBandwidthOut": bandwidth_mbps,
            "SystemDisk": {"Category": disk_category, "Size": str(int(req.disk_gb))},  # a string in the SDK model
            "InstanceName": instance_name(req.name or f"labgpu-{req.instance_type}"),
            "Amount": 1,
            "Tag": [{"Key": k, "Value": v} for k, v in tags.items()][:20],
        }
        if image.startswith("acs:"):
            params["ImageFamily"] = image
        else:
            params["ImageId"] = image
        if req.client_token:
            params["ClientToken"] = req.client_token[:64]
        if req.spot and max_price:
            params["SpotPriceLimit"] = round(max_price, 3)
        if req.backstop is not None:  # the maximum runtime, released by the cloud itself (seconds 00: never early)
            params["AutoReleaseTime"] = iso_z(req.backstop.deadline, whole_minute=True)
        return params

    def launch(
        self, account: Account, creds: Credentials, req: LaunchRequest, progress: ProgressFn | None = None
    ) -> Instance:
        step = stepper(progress)

        zone = req.zone  # CloudService chose it (an Alibaba launch always names its zone)
        currency = currency_for(account)
        ctx: dict[str, Any] = {"zone": zone, "instance_type": req.instance_type, "currency": currency}
        token = req.client_token or "labgpu"
        step("key", say(QT_TRANSLATE_NOOP("LabGPU", "Registering the SSH public key with Alibaba Cloud…")))
        key_pair = self._ensure_key(account, creds, req)
        vpc_id = self._ensure_vpc(account, creds, token, step)
        vswitch_id = self._ensure_vswitch(account, creds, vpc_id, zone, token, step)
        step("security_group",
             say(QT_TRANSLATE_NOOP("LabGPU", "Security group: SSH from {cidr} only."), cidr=req.ssh_cidr))
        sg_id = self._ensure_security_group(account, creds, vpc_id, req.ssh_cidr, token)
        if req.image_id:
            image = req.image_id
            step("image", say(QT_TRANSLATE_NOOP("LabGPU", "Image {image}."), image=image))
        else:
            image, image_name, is_gpu = self.pick_image(account, creds, req.instance_type)
            if is_gpu:
                step("image", say(QT_TRANSLATE_NOOP("LabGPU", "GPU image {name} (family {family})."),
                                   name=image_name, family=image))
            else:
                step("image", say(QT_TRANSLATE_NOOP(
                    "LabGPU", "No public image with the NVIDIA driver found for {type}: using {name} "
                              "(family {family}); install the NVIDIA driver and CUDA yourself."),
                    type=req.instance_type, name=image_name, family=image))
        max_price = req.max_price  # the cap CloudService set (None: the spot market price, at most on-demand)
        params = self.run_instances_params(
            req, zone=zone, image=image, key_pair=key_pair, security_group_id=sg_id, vswitch_id=vswitch_id,
            max_price=max_price,
            bandwidth_mbps=int(account.extra.get("bandwidth_mbps", DEFAULT_BANDWIDTH_MBPS)),
            disk_category=account.extra.get("disk_category", DEFAULT_DISK_CATEGORY),
        )
        if req.spot:
            step("request", say(
                QT_TRANSLATE_NOOP("LabGPU", "Requesting spot {type} in {zone} (maximum {price} {currency}/h)…"),
                type=req.instance_type, zone=zone, price=f"{max_price:.3f}" if max_price else "?", currency=currency))
        else:
            step("request", say(QT_TRANSLATE_NOOP("LabGPU", "Requesting pay-as-you-go {type} in {zone}…"),
                                 type=req.instance_type, zone=zone))
        context = dict(ctx, max_price=f"{max_price:.3f}" if max_price else "?")
        refused: tuple[str, str] | None = None
        try:
            try:
                body = self._call(account, creds, "RunInstances", params, state_changing=True,
                                  resource=req.client_token, context=context)
            except CloudError as exc:
                if "AutoReleaseTime" not in params or exc.code != RELEASE_REFUSED:
                    raise
                # The cloud refused only the release time: launch without it (the badge then says why it is off).
                log.info("Alibaba refused the AutoReleaseTime (%s): launching without it", exc.code)
                refused = (exc.code, str(exc.params.get("provider_message") or exc.text())[:200])
                del params["AutoReleaseTime"]
                body = self._call(account, creds, "RunInstances", params, state_changing=True,
                                  resource=req.client_token, context=context)
        except PriceTooLowError as exc:  # name the spot price the cap has to reach
            exc.params["price"] = self._spot_now(account, creds, req, zone)
            exc.args = (exc.text(),)
            raise
        instance_id = next(iter((body.get("InstanceIdSets") or {}).get("InstanceIdSet") or []), "")
        if refused is not None and instance_id:
            self.backstop_refused[instance_id] = refused
        if not instance_id:
            raise CloudError(
                QT_TRANSLATE_NOOP("LabGPU", "Alibaba Cloud accepted the launch but returned no instance id."),
                QT_TRANSLATE_NOOP("LabGPU", "Open the instances page: LabGPU lists every tagged instance."),
                provider=PROVIDER_ID, code="NoInstanceId", request_id=str(body.get("RequestId", "")),
            )
        # Return at once (the instance bills from now): the launcher records it, then waits for Running.
        found = self.get_instance(account, creds, instance_id)
        if found is not None:
            return found
        return Instance(
            id=instance_id, account=account.name, provider=PROVIDER_ID, region=account.region, zone=zone,
            instance_type=req.instance_type, state=InstanceState.PENDING, spot=req.spot, currency=currency,
            name=params["InstanceName"], key_name=key_pair, raw_state="Pending",
            tags={t["Key"]: t["Value"] for t in params["Tag"]},
        )

    def _spot_now(self, account: Account, creds: Credentials, req: LaunchRequest, zone: str) -> str:
        """The current spot price for the error sentence of a cap that is too low ("?" when unknown)."""
        try:
            price = self.current_price(account, creds, req.instance_type, zone, spot=True)
        except CloudError as exc:
            log.info("no spot price for %s in %s: %s", req.instance_type, zone, exc.code)
            return "?"
        return f"{price:.3f}" if price is not None else "?"
