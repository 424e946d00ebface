"""Launching on Tencent Cloud CVM: image choice, key pair, security group, RunInstances, wait."""

from __future__ import annotations

import logging
import re
from typing import Any

from app.cloud.base import (
    LABGPU_TAG_KEY,
    LABGPU_TAG_VALUE,
    CapacityError,
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
    MSG_TOO_SOON,
    TERMINATE,
    BackstopPlan,
    BackstopReading,
    iso_z,
    parse_utc,
)
from app.core.hosts import SSH_KEY_PATH_TAG, SSH_USER_TAG
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.vocab import InstanceState

from .client import (
    TencentClient,
    currency_for,
    key_pair_name,
    tag_value,
)
from .spec import PROVIDER_ID, TOKEN_TAG_KEY

log = logging.getLogger("app.cloud.tencent")

# RunInstances.ActionTimer (the ActionTimer model, cvm/v20170312/models.py; RunInstances,
# https://cloud.tencent.com/document/api/213/15730): TimerAction "目前仅支持销毁一个值：TerminateInstances";
# ActionTime "按照ISO8601标准表示，并且使用UTC时间。格式为 YYYY-MM-DDThh:mm:ssZ … 执行时间必须大于当前时间5分钟".
TIMER_ACTION = "TerminateInstances"
TIMER_MIN_AHEAD_S = 5 * 60
TIMER_MARGIN_S = 3 * 60  # the launch's own calls (key, group, image) come before RunInstances
# What RunInstances answers for an ActionTimer it will not take (errorcodes.py: "时间格式不合法",
# "针对当前实例设置定时任务失败"); a time too close or in the past is a plain InvalidParameterValue naming it.
TIMER_REFUSALS = ("InvalidParameterValue.InvalidTimeFormat",
                  "UnsupportedOperation.NotSupportImportInstancesActionTimer", "FailedOperation.MutActionTimerExist")


def _timer_refused(exc: CloudError) -> bool:
    detail = str(exc.params.get("detail", ""))
    return exc.code in TIMER_REFUSALS or (exc.code.startswith("InvalidParameter") and "ActionTime" in detail)


class TencentLaunch(TencentClient):
    """The launch steps."""

    # -- the cloud-enforced backstop (CloudBackstop) -----------------------------------------------
    def backstop_refusal(self, account: Account, plan: BackstopPlan, spot: bool) -> tuple[str, dict[str, Any]]:
        """Tencent terminates at a time more than 5 minutes ahead: a shorter maximum runtime is not sent."""
        if plan.hours * 3600 <= TIMER_MIN_AHEAD_S + TIMER_MARGIN_S:
            return MSG_TOO_SOON, {"cloud": "Tencent Cloud", "minutes": (TIMER_MIN_AHEAD_S + TIMER_MARGIN_S) // 60,
                                  "hours": f"{plan.hours:g}"}
        return "", {}

    def read_backstop(self, account: Account, creds: Credentials, instance_id: str,
                      plan: BackstopPlan) -> BackstopReading:
        """The instance's TerminateInstances timer, read back with DescribeInstancesActionTimer
        (https://cloud.tencent.com/document/product/213/103950): held while its Status is UNDO (未执行)."""
        refused = self.backstop_refused.pop(instance_id, None)
        if refused is not None:
            return BackstopReading(False, TERMINATE, reason=MSG_REFUSED,
                                   params={"cloud": "Tencent Cloud", "code": refused[0], "detail": refused[1]})
        response = self._call(account, creds, "DescribeInstancesActionTimer", {"InstanceIds": [instance_id]})
        for timer in response.get("ActionTimers") or []:
            if (timer.get("InstanceId") in (None, "", instance_id) and timer.get("TimerAction") == TIMER_ACTION
                    and timer.get("Status") in (None, "", "UNDO")):
                # The time as the cloud holds it; a form without a zone is not guessed at: the one sent.
                at = parse_utc(str(timer.get("ActionTime") or "")) or plan.deadline
                return BackstopReading(True, TERMINATE, at)
        return BackstopReading(False, TERMINATE, reason=MSG_NOT_HELD, params={"cloud": "Tencent Cloud"})

    # -- launch --------------------------------------------------------------------------------
    def pick_image(self, account: Account, creds: Credentials, instance_type: str) -> tuple[str, str, bool]:
        """(image id, image name, is a GPU image with CUDA) for this type: a public GPU image when one
        exists, else the newest public Ubuntu (the caller tells the user to install drivers)."""
        images = [
            i
            for i in self._public_images(account, creds, instance_type)
            if i.get("ImageState", "NORMAL") == "NORMAL" and not i.get("ImageDeprecated")
        ]

        def text(img: dict[str, Any]) -> str:
            return f"{img.get('ImageName', '')} {img.get('ImageDescription', '')} {img.get('OsName', '')}".lower()  # noqa: E501

        def score(img: dict[str, Any]) -> int:
            t = text(img)
            return (4 if "pytorch" in t else 0) + (2 if "cuda" in t else 0) + (1 if "gpu" in t else 0)

        gpu = [i for i in images if score(i) >= 2]
        if gpu:
            best = max(gpu, key=lambda i: (score(i), i.get("CreatedTime", "")))
            return best["ImageId"], best.get("ImageName", ""), True
        ubuntu = [i for i in images if "ubuntu" in text(i)]
        if ubuntu:
            best = max(ubuntu, key=lambda i: (i.get("CreatedTime", ""), i.get("ImageName", "")))
            return best["ImageId"], best.get("ImageName", ""), False
        raise NotFoundError(
            QT_TRANSLATE_NOOP(
                "LabGPU", "No public GPU or Ubuntu image supports {instance_type} in {region}."
            ),  # noqa: E501 - one string for lupdate
            QT_TRANSLATE_NOOP("LabGPU", "Pick an image id in the CVM console and pass it with --image."),  # noqa: E501 - one string for lupdate
            provider=PROVIDER_ID,
            code="NoImage",
            instance_type=instance_type,
            region=account.region,
        )

    # -- launch --------------------------------------------------------------------------------
    def _ensure_key(self, account: Account, creds: Credentials, req: LaunchRequest) -> str:
        wanted = public_key_of(req.public_key, PROVIDER_ID)
        base_name = key_pair_name(req.ssh_key_name or "labgpu")
        existing = self._key_pairs(account, creds)
        for kp in existing:
            if " ".join((kp.get("PublicKey") or "").split()[:2]) == wanted:
                return str(kp["KeyId"])
        names = {kp.get("KeyName") for kp in existing}
        name, n = base_name, 1
        while name in names:  # same name, different key: never overwrite someone's key
            n += 1
            name = f"{base_name[:22]}_{n}"
        response = self._call(
            account,
            creds,
            "ImportKeyPair",
            {"KeyName": name, "ProjectId": 0, "PublicKey": wanted},
            state_changing=True,
        )
        return str(response["KeyId"])

    def _key_pairs(self, account: Account, creds: Credentials) -> list[dict[str, Any]]:
        """Every key pair of the region: DescribeKeyPairs returns at most 100 a page ("最大值为100",
        https://cloud.tencent.com/document/api/213/15699), so Offset walks on to TotalCount."""
        out: list[dict[str, Any]] = []
        for _page in range(50):  # 5000 key pairs at most: far above the account quota
            response = self._call(account, creds, "DescribeKeyPairs", {"Offset": len(out), "Limit": 100})
            batch = list(response.get("KeyPairSet") or [])
            out.extend(batch)
            if not batch or len(out) >= int(response.get("TotalCount") or 0):
                break
        return out

    def _ssh_rule_present(self, account: Account, creds: Credentials, sg_id: str, cidr: str) -> tuple[bool, bool]:
        """(an ACCEPT rule for TCP 22 from cidr is there, any outbound rule is there)
        (DescribeSecurityGroupPolicies, https://cloud.tencent.com/document/api/215/15804)."""
        response = self._call(
            account, creds, "DescribeSecurityGroupPolicies", {"SecurityGroupId": sg_id}, service="vpc"
        )
        policies = response.get("SecurityGroupPolicySet") or {}
        ssh = any(
            str(r.get("Protocol", "")).upper() == "TCP"
            and str(r.get("Port", "")) == "22"
            and r.get("CidrBlock") == cidr
            and r.get("Action") == "ACCEPT"
            for r in policies.get("Ingress") or []
        )
        return ssh, bool(policies.get("Egress"))

    def _add_rules(
        self, account: Account, creds: Credentials, sg_id: str, direction: str, rule: dict[str, Any]
    ) -> None:
        """One direction per request: "一次请求中只能创建单个方向的规则"
        (CreateSecurityGroupPolicies, https://cloud.tencent.com/document/api/215/15807)."""
        self._call(
            account,
            creds,
            "CreateSecurityGroupPolicies",
            {"SecurityGroupId": sg_id, "SecurityGroupPolicySet": {direction: [rule]}},
            service="vpc",
            state_changing=True,
        )

    def _ensure_security_group(self, account: Account, creds: Credentials, cidr: str) -> str:
        name = "labgpu-ssh-" + re.sub(r"[^0-9A-Za-z]", "-", cidr)
        found = self._call(
            account,
            creds,
            "DescribeSecurityGroups",
            {"Filters": [{"Name": "security-group-name", "Values": [name]}], "Limit": "20"},
            service="vpc",
        )
        sg_id = next(
            (
                str(sg["SecurityGroupId"])
                for sg in found.get("SecurityGroupSet") or []
                if sg.get("SecurityGroupName") == name
            ),
            "",
        )
        if sg_id:
            # A group of this name may have lost its rule (a launch cut short between the two calls, or a
            # rule deleted in the console): a new group denies everything, so never reuse it empty.
            has_ssh, has_egress = self._ssh_rule_present(account, creds, sg_id, cidr)
        else:
            created = self._call(
                account,
                creds,
                "CreateSecurityGroup",
                {
                    "GroupName": name,
                    "GroupDescription": f"LabGPU: SSH from {cidr} only",
                    "ProjectId": "0",
                    "Tags": [{"Key": LABGPU_TAG_KEY, "Value": LABGPU_TAG_VALUE}],
                },
                service="vpc",
                state_changing=True,
            )
            sg_id = str(created["SecurityGroup"]["SecurityGroupId"])
            has_ssh = has_egress = False
        if not has_ssh:
            self._add_rules(
                account,
                creds,
                sg_id,
                "Ingress",
                {"Protocol": "TCP", "Port": "22", "CidrBlock": cidr, "Action": "ACCEPT",
                 "PolicyDescription": "LabGPU SSH"},
            )
        if not has_egress:
            # All outbound traffic: Protocol ALL and no Port ("只有当Protocol字段是TCP或UDP时，Port字段才被
            # 接受", https://cloud.tencent.com/document/api/215/15807).
            self._add_rules(
                account,
                creds,
                sg_id,
                "Egress",
                {"Protocol": "ALL", "CidrBlock": "0.0.0.0/0", "Action": "ACCEPT",
                 "PolicyDescription": "LabGPU outbound"},
            )
        return sg_id

    def login_user_for_image(self, account: Account, creds: Credentials, image_id: str) -> str:
        """The SSH user of an image: Tencent's Linux images log in as ``ubuntu`` on Ubuntu and ``root``
        on every other distribution; "" for Windows or an image that cannot be read."""
        try:
            images = self._call(account, creds, "DescribeImages", {"ImageIds": [image_id]}).get("ImageSet") or []
        except CloudError as exc:
            log.info("image %s not read for its login user: %s", image_id, exc)
            return ""
        if not images:
            return ""
        img = images[0]
        text = f"{img.get('OsName', '')} {img.get('Platform', '')} {img.get('ImageName', '')}".lower()
        if "windows" in text:
            return ""
        return "ubuntu" if "ubuntu" in text else "root"

    def run_instances_params(
        self,
        req: LaunchRequest,
        *,
        zone: str,
        image_id: str,
        key_id: str,
        security_group_id: str,
        max_price: float | None,
        bandwidth_mbps: int = 100,
        disk_type: str = "",
        login_user: str = "",
    ) -> dict[str, Any]:
        """The RunInstances request body (public so a test checks every field against the SDK)."""
        tags = [{"Key": LABGPU_TAG_KEY, "Value": LABGPU_TAG_VALUE}]
        if req.client_token:
            tags.append({"Key": TOKEN_TAG_KEY, "Value": tag_value(req.client_token)})
        if login_user:
            tags.append({"Key": SSH_USER_TAG, "Value": tag_value(login_user)})
        tags += [
            {"Key": k, "Value": tag_value(v)}
            for k, v in req.tags.items()
            if k not in (LABGPU_TAG_KEY, TOKEN_TAG_KEY, SSH_USER_TAG)
            # A key path Tencent cannot store as written (a Windows or non-ASCII path) would name
            # another file: left out, the host falls back to the default keys.
            and not (k == SSH_KEY_PATH_TAG and tag_value(v) != v)
        ]
        params: dict[str, Any] = {
            "InstanceChargeType": "SPOTPAID" if req.spot else "POSTPAID_BY_HOUR",
            "Placement": {"Zone": zone},
            "InstanceType": req.instance_type,
            "ImageId": image_id,
            # DiskType left out unless the account names one: "默认取值：当前有库存的硬盘类型" (the type in
            # stock; SystemDisk, tencentcloud/cvm/v20170312/models.py) instead of a fixed CLOUD_PREMIUM
            # that newer zones do not sell.
            "SystemDisk": dict({"DiskType": disk_type} if disk_type else {}, DiskSize=int(req.disk_gb)),
            # The account's default VPC and subnet: "若在创建子机时VpcId与SubnetId同时传入DEFAULT，则强制
            # 使用默认vpc网络" (VirtualPrivateCloud, models.py; https://cloud.tencent.com/document/api/213/15730);
            # without it the instance would go to the retired classic network.
            "VirtualPrivateCloud": {"VpcId": "DEFAULT", "SubnetId": "DEFAULT"},
            "InternetAccessible": {
                "InternetChargeType": "TRAFFIC_POSTPAID_BY_HOUR",
                "InternetMaxBandwidthOut": bandwidth_mbps,
                "PublicIpAssigned": True,
            },
            "InstanceCount": 1,
            "InstanceName": (req.name or f"labgpu-{req.instance_type}")[:60],
            "LoginSettings": {"KeyIds": [key_id]},
            "SecurityGroupIds": [security_group_id],
            "TagSpecification": [{"ResourceType": "instance", "Tags": tags}],
        }
        if req.client_token:
            params["ClientToken"] = req.client_token[:64]
        if req.backstop is not None:  # the maximum runtime, terminated by the cloud itself
            params["ActionTimer"] = {"TimerAction": TIMER_ACTION, "ActionTime": iso_z(req.backstop.deadline)}
        if req.spot:
            params["InstanceMarketOptions"] = {
                "MarketType": "spot",
                "SpotOptions": {
                    "MaxPrice": f"{max_price:.4f}" if max_price else "",
                    "SpotInstanceType": "one-time",
                },
            }
            if not max_price:
                del params["InstanceMarketOptions"]["SpotOptions"]["MaxPrice"]
        return params

    def launch(
        self, account: Account, creds: Credentials, req: LaunchRequest, progress: ProgressFn | None = None
    ) -> Instance:
        step = stepper(progress)

        zone = req.zone  # CloudService chose it (a Tencent launch always names its zone)
        ctx: dict[str, Any] = {"zone": zone, "instance_type": req.instance_type, "currency": currency_for(account)}
        step("key", say(QT_TRANSLATE_NOOP("LabGPU", "Registering the SSH public key with Tencent Cloud…")))
        key_id = self._ensure_key(account, creds, req)
        step(
            "security_group",
            say(QT_TRANSLATE_NOOP("LabGPU", "Security group: SSH from {cidr} only."), cidr=req.ssh_cidr),
        )
        sg_id = self._ensure_security_group(account, creds, req.ssh_cidr)
        if req.image_id:
            image_id = req.image_id
            step("image", say(QT_TRANSLATE_NOOP("LabGPU", "Image {image}."), image=image_id))
        else:
            image_id, image_name, is_gpu = self.pick_image(account, creds, req.instance_type)
            found = QT_TRANSLATE_NOOP("LabGPU", "GPU image {name} ({image}).")
            plain = QT_TRANSLATE_NOOP(
                "LabGPU",
                "No public GPU image with CUDA found for {type}: using {name} ({image}); install the NVIDIA driver and CUDA yourself.",  # noqa: E501
            )
            step("image", say(found if is_gpu else plain, type=req.instance_type, name=image_name, image=image_id))
        login = self.login_user_for_image(account, creds, image_id)
        max_price = req.max_price  # the cap CloudService set (None: the spot market price)
        params = self.run_instances_params(
            req,
            zone=zone,
            image_id=image_id,
            key_id=key_id,
            security_group_id=sg_id,
            max_price=max_price,
            bandwidth_mbps=int(account.extra.get("bandwidth_mbps", 100)),
            disk_type=str(account.extra.get("disk_type") or ""),
            login_user=login,
        )
        if req.spot:
            step(
                "request",
                say(
                    QT_TRANSLATE_NOOP(
                        "LabGPU", "Requesting spot {type} in {zone} (maximum {price} {currency}/h)…"
                    ),
                    type=req.instance_type,
                    zone=zone,
                    price=f"{max_price:.4f}" if max_price else "?",
                    currency=ctx["currency"],
                ),
            )
        else:
            step(
                "request",
                say(
                    QT_TRANSLATE_NOOP("LabGPU", "Requesting pay-as-you-go {type} in {zone}…"),
                    type=req.instance_type,
                    zone=zone,
                ),
            )
        context = dict(ctx, max_price=f"{max_price:.4f}" if max_price else "?",
                       disk_type=params["SystemDisk"].get("DiskType") or "?")
        refused: tuple[str, str] | None = None
        try:
            try:
                response = self._call(account, creds, "RunInstances", params, state_changing=True, context=context)
            except CloudError as exc:
                if "ActionTimer" not in params or not _timer_refused(exc):
                    raise
                # The cloud refused only the timer: launch without it (the badge then says why it is off).
                log.info("Tencent refused the ActionTimer (%s): launching without it", exc.code)
                refused = (exc.code, str(exc.params.get("detail", ""))[:200])
                del params["ActionTimer"]
                response = self._call(account, creds, "RunInstances", params, state_changing=True, context=context)
        except PriceTooLowError as exc:
            price = None
            try:
                price = self.current_price(account, creds, req.instance_type, zone, spot=True)
            except CloudError:
                pass
            if price is not None:
                exc.params["price"] = f"{price:.4f}"
                exc.args = (exc.text(),)
            raise
        instance_id = (response.get("InstanceIdSet") or [""])[0]
        if refused is not None and instance_id:
            self.backstop_refused[instance_id] = refused
        if not instance_id:
            raise CloudError(
                QT_TRANSLATE_NOOP("LabGPU", "Tencent Cloud accepted the launch but returned no instance id."),  # noqa: E501 - one string for lupdate
                QT_TRANSLATE_NOOP("LabGPU", "Open the instances page: LabGPU lists every tagged instance."),  # noqa: E501 - one string for lupdate
                provider=PROVIDER_ID,
                code="NoInstanceId",
                request_id=str(response.get("RequestId", "")),
            )
        # RunInstances is asynchronous: "实例创建是否成功以 DescribeInstances 中的 InstanceState 为准"
        # (https://cloud.tencent.com/document/api/213/15730). Wait while PENDING: LAUNCH_FAILED (nothing
        # bills) becomes a CapacityError naming the zone, so the launcher tries the next zone.
        raws = self._settle(account, creds, instance_id, zone, ctx)
        if raws:
            return self._to_instance(account, raws[0], self._prices_for(account, creds, raws))
        return Instance(
            id=instance_id,
            account=account.name,
            provider=PROVIDER_ID,
            region=account.region,
            zone=zone,
            instance_type=req.instance_type,
            state=InstanceState.PENDING,
            spot=req.spot,
            currency=ctx["currency"],
            name=params["InstanceName"],
            image_id=image_id,
            key_name=key_id,
            raw_state="PENDING",
            tags={t["Key"]: t["Value"] for t in params["TagSpecification"][0]["Tags"]},
        )

    def _settle(
        self, account: Account, creds: Credentials, instance_id: str, zone: str, ctx: dict[str, Any]
    ) -> list[dict[str, Any]]:
        """DescribeInstances until the new instance is past PENDING (bounded by launch_timeout)."""

        def read() -> list[dict[str, Any]]:
            raws = self._describe(account, creds, ids=[instance_id])
            if raws and raws[0].get("InstanceState") == "LAUNCH_FAILED":
                raise CapacityError(
                    QT_TRANSLATE_NOOP("LabGPU", "{instance_type} could not be created in {zone}: {detail}"),
                    QT_TRANSLATE_NOOP(
                        "LabGPU", "Try another zone or instance type; nothing bills for a failed launch."
                    ),
                    provider=PROVIDER_ID,
                    code="LAUNCH_FAILED",
                    instance_id=instance_id,
                    detail=" ".join(str(raws[0].get("LatestOperationErrorMsg") or "no reason given").split())[:300],
                    **dict(ctx, zone=zone),
                )
            return raws

        raws, _settled = self.poll_until(
            read, lambda raws: bool(raws) and raws[0].get("InstanceState") != "PENDING", self.launch_timeout
        )
        return raws

    def wait_running(self, account: Account, creds: Credentials, instance_id: str) -> Instance:
        """Poll until RUNNING (LAUNCH_FAILED → CapacityError; timeout → CloudError)."""

        def read() -> list[dict[str, Any]]:
            raws = self._describe(account, creds, ids=[instance_id])
            if raws and raws[0].get("InstanceState") == "LAUNCH_FAILED":
                raise CapacityError(
                    QT_TRANSLATE_NOOP("LabGPU", "Instance {instance_id} failed to launch: {detail}"),
                    QT_TRANSLATE_NOOP(
                        "LabGPU",
                        "Try another zone or instance type; nothing keeps billing for a failed launch.",
                    ),
                    provider=PROVIDER_ID,
                    code="LAUNCH_FAILED",
                    instance_id=instance_id,
                    detail=raws[0].get("LatestOperationErrorMsg") or "no reason given",
                )
            return raws

        raws, running = self.poll_until(
            read, lambda raws: bool(raws) and raws[0].get("InstanceState") == "RUNNING", self.launch_timeout
        )
        if not running:
            raise CloudError(
                QT_TRANSLATE_NOOP("LabGPU", "Instance {instance_id} is still {state} after {seconds} s."),
                QT_TRANSLATE_NOOP(
                    "LabGPU",
                    "It may still start: watch it on the instances page, and terminate it there if it never "
                    "runs.",
                ),
                provider=PROVIDER_ID,
                code="LaunchTimeout",
                instance_id=instance_id,
                state=(raws[0].get("InstanceState") if raws else "") or "unknown",
                seconds=int(self.launch_timeout),
            )
        return self._to_instance(account, raws[0], self._prices_for(account, creds, raws))
