"""Launching on AWS EC2: key pair, security group, image choice, console fingerprints, RunInstances."""

from __future__ import annotations

import base64
import binascii
import logging
import re
from datetime import datetime, timedelta, timezone
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from typing import Any

from app.cloud.base import (
    LABGPU_TAG_KEY,
    LABGPU_TAG_VALUE,
    Account,
    CloudError,
    Credentials,
    Instance,
    LaunchRequest,
    NotFoundError,
    PriceTooLowError,
    ProgressFn,
)
from app.cloud.errors import map_error
from app.cloud.kit import say, stepper
from app.core.backstops import MSG_NOT_HELD, STOP, TERMINATE, BackstopPlan, BackstopReading
from app.core.fingerprints import parse_console_fingerprints
from app.core.hosts import SSH_USER_TAG
from app.core.i18n import QT_TRANSLATE_NOOP, translate

from .client import (
    DLAMI_NAME,
    UBUNTU_NAME,
    UBUNTU_OWNER,
    AwsClient,
    console_text,
    login_user_for,
)
from .errors import (
    ERRORS,
)
from .spec import LAUNCH_TAG, LOGIN_TAG

log = logging.getLogger("app.cloud.aws")

# The maximum runtime on AWS: a poweroff scheduled on the instance at every boot by cloud-init's bootcmd
# ("run on every boot", cloud-init docs, module Bootcmd) from the user data, and the instance attribute
# InstanceInitiatedShutdownBehavior that says what AWS does with a shutdown from inside the OS ("Change
# instance initiated shutdown behavior", EC2 User Guide: stop, the default, or terminate). On-demand: terminate.
# A spot instance LabGPU launches is a persistent request that stops on interruption: terminating its instance
# would let the request launch a new one, so its shutdown stops it (a stopped instance bills its disks only).
BACKSTOP_MARK = "labgpu-backstop"
CLOUD = "AWS"


def backstop_cloud_config(minutes: int) -> str:
    """The cloud-config that powers the instance off ``minutes`` after each boot (a systemd timer, else
    shutdown's own schedule)."""
    line = (f"systemd-run --on-boot={minutes}min --unit={BACKSTOP_MARK} /bin/systemctl poweroff"
            f" || shutdown -P +{minutes} 'LabGPU maximum runtime'")
    return (
        "#cloud-config\n"
        f"# {BACKSTOP_MARK}: at most {minutes} minutes per boot (LabGPU's maximum runtime guard); the OS shutdown\n"
        "# then ends the instance as its InstanceInitiatedShutdownBehavior says.\n"
        "bootcmd:\n"
        f"  - [sh, -c, \"{line}\"]\n"
    )


def backstop_user_data(minutes: int, existing: str = "") -> str:
    """The user data with the backstop: the cloud-config alone, or merged with ``existing`` user data as a
    MIME multi-part archive (cloud-init runs every part: "User-data formats", cloud-init docs)."""
    config = backstop_cloud_config(minutes)
    if not existing.strip():
        return config
    archive = MIMEMultipart()
    kind = "cloud-config" if existing.lstrip().startswith("#cloud-config") else "x-shellscript"
    archive.attach(MIMEText(existing, kind, "utf-8"))
    archive.attach(MIMEText(config, "cloud-config", "utf-8"))
    return archive.as_string()


def _decoded(value: str) -> str:
    try:
        return base64.b64decode(value, validate=True).decode("utf-8", "replace")
    except (binascii.Error, ValueError):
        return value


class AwsLaunch(AwsClient):
    """The launch steps: key pair, security group, image, spot price, run."""

    # -- the cloud-enforced backstop (CloudBackstop) -----------------------------------------------
    def backstop_refusal(self, account: Account, plan: BackstopPlan, spot: bool) -> tuple[str, dict[str, Any]]:
        """AWS takes any maximum runtime (whole minutes, at least one)."""
        return "", {}

    def read_backstop(self, account: Account, creds: Credentials, instance_id: str,
                      plan: BackstopPlan) -> BackstopReading:
        """DescribeInstanceAttribute: the shutdown behaviour and the user data with the scheduled poweroff."""
        ec2 = self._client(account, creds)
        ctx = {"instance_id": instance_id}
        behaviour = self._call(account, ec2, "describe_instance_attribute", InstanceId=instance_id,
                               Attribute="instanceInitiatedShutdownBehavior", ctx=ctx)
        value = str((behaviour.get("InstanceInitiatedShutdownBehavior") or {}).get("Value") or "stop")
        data = self._call(account, ec2, "describe_instance_attribute", InstanceId=instance_id,
                          Attribute="userData", ctx=ctx)
        text = _decoded(str((data.get("UserData") or {}).get("Value") or ""))
        if BACKSTOP_MARK in text and f"--on-boot={plan.minutes}min" in text:
            return BackstopReading(True, TERMINATE if value == "terminate" else STOP, plan.deadline)
        return BackstopReading(False, TERMINATE if value == "terminate" else STOP, reason=MSG_NOT_HELD,
                               params={"cloud": CLOUD})

    def ensure_key_pair(self, account: Account, creds: Credentials, name: str, public_key: str) -> str:
        ec2 = self._client(account, creds)
        try:
            self._call(account, ec2, "describe_key_pairs", KeyNames=[name])
            return name
        except CloudError as exc:
            if exc.code != "InvalidKeyPair.NotFound":
                raise
        try:
            self._call(
                account,
                ec2,
                "import_key_pair",
                audit=True,
                KeyName=name,
                PublicKeyMaterial=public_key.encode(),
                TagSpecifications=[
                    {"ResourceType": "key-pair", "Tags": [{"Key": LABGPU_TAG_KEY, "Value": LABGPU_TAG_VALUE}]}
                ],
            )
        except CloudError as exc:
            if exc.code != "InvalidKeyPair.Duplicate":  # a concurrent launch imported it first
                raise
        return name

    def ensure_security_group(self, account: Account, creds: Credentials, cidr: str) -> str:
        """A group per source range that opens TCP 22 to that range only (nothing else, never the world)."""
        ec2 = self._client(account, creds)
        vpcs = self._call(account, ec2, "describe_vpcs", Filters=[{"Name": "isDefault", "Values": ["true"]}])
        if not vpcs.get("Vpcs"):
            raise CloudError(
                QT_TRANSLATE_NOOP("LabGPU", "Account '{account}' has no default VPC in {region}."),
                QT_TRANSLATE_NOOP(
                    "LabGPU", "Create one (VPC console → Actions → Create default VPC), then retry."
                ),
                provider="aws",
                code="NoDefaultVpc",
                account=account.name,
                region=account.region,
            )
        vpc_id = vpcs["Vpcs"][0]["VpcId"]
        name = "labgpu-ssh-" + re.sub(r"[^0-9a-fA-F]", "-", cidr)
        found = self._call(
            account,
            ec2,
            "describe_security_groups",
            Filters=[{"Name": "vpc-id", "Values": [vpc_id]}, {"Name": "group-name", "Values": [name]}],
        )
        if found.get("SecurityGroups"):
            group = found["SecurityGroups"][0]
            gid = group["GroupId"]
            have = any(
                p.get("FromPort") == 22
                and p.get("ToPort") == 22
                and any(r.get("CidrIp") == cidr for r in p.get("IpRanges", []))
                or any(r.get("CidrIpv6") == cidr for r in p.get("Ipv6Ranges", []))
                for p in group.get("IpPermissions", [])
            )
        else:
            try:
                created = self._call(
                    account,
                    ec2,
                    "create_security_group",
                    audit=True,
                    GroupName=name,
                    VpcId=vpc_id,
                    Description=f"LabGPU: SSH from {cidr} only",
                    TagSpecifications=[
                        {
                            "ResourceType": "security-group",
                            "Tags": [{"Key": LABGPU_TAG_KEY, "Value": LABGPU_TAG_VALUE}],
                        }
                    ],
                )
                gid, have = created["GroupId"], False
            except CloudError as exc:
                if exc.code != "InvalidGroup.Duplicate":
                    raise
                return self.ensure_security_group(account, creds, cidr)
        if not have:
            ranges: dict[str, Any] = (
                {"Ipv6Ranges": [{"CidrIpv6": cidr, "Description": "LabGPU SSH"}]}
                if ":" in cidr
                else {"IpRanges": [{"CidrIp": cidr, "Description": "LabGPU SSH"}]}
            )
            try:
                self._call(
                    account,
                    ec2,
                    "authorize_security_group_ingress",
                    audit=True,
                    GroupId=gid,
                    IpPermissions=[{"IpProtocol": "tcp", "FromPort": 22, "ToPort": 22, **ranges}],
                )
            except CloudError as exc:
                if exc.code != "InvalidPermission.Duplicate":
                    raise
        return str(gid)

    def find_image(self, account: Account, creds: Credentials) -> tuple[str, str, bool]:
        """(image id, image name, is_gpu_image): the newest Deep Learning PyTorch AMI, else Ubuntu 22.04."""
        ec2 = self._client(account, creds)
        for owners, pattern, gpu in ((["amazon"], DLAMI_NAME, True), ([UBUNTU_OWNER], UBUNTU_NAME, False)):
            resp = self._call(
                account,
                ec2,
                "describe_images",
                Owners=owners,
                Filters=[
                    {"Name": "name", "Values": [pattern]},
                    {"Name": "state", "Values": ["available"]},
                    {"Name": "architecture", "Values": ["x86_64"]},
                ],
            )
            images = sorted(
                resp.get("Images", []), key=lambda i: (str(i.get("CreationDate") or ""), i.get("Name", ""))
            )
            if images:
                return images[-1]["ImageId"], images[-1].get("Name", ""), gpu
        raise NotFoundError(
            QT_TRANSLATE_NOOP(
                "LabGPU", "No Deep Learning AMI and no Ubuntu 22.04 image was found in {region}."
            ),
            QT_TRANSLATE_NOOP(
                "LabGPU", "Choose an image id (--image), copied from the EC2 console's AMI catalog."
            ),
            provider="aws",
            code="NoImage",
            region=account.region,
        )

    def _image_info(self, account: Account, ec2: Any, image_id: str) -> tuple[str, str, int]:
        """(root device name, image name, root snapshot size in GB or 0) of ``image_id``; a missing
        image is InvalidAMIID.NotFound."""
        resp = self._call(account, ec2, "describe_images", ImageIds=[image_id], ctx={"image_id": image_id})
        images = resp.get("Images", [])
        if not images:
            raise map_error(
                "aws",
                "InvalidAMIID.NotFound",
                "",
                "",
                ERRORS,
                account=account.name,
                region=account.region,
                image_id=image_id,
            )
        img = images[0]
        root = str(img.get("RootDeviceName") or "/dev/sda1")
        size = next(
            (
                int(m.get("Ebs", {}).get("VolumeSize") or 0)
                for m in img.get("BlockDeviceMappings", [])
                if m.get("DeviceName") == root
            ),
            0,
        )
        return root, str(img.get("Name") or ""), size

    def host_key_fingerprints(self, account: Account, creds: Credentials, instance_id: str) -> list[str]:
        """The SSH host key fingerprints the instance printed on its console at first boot (cloud-init),
        e.g. ["256 SHA256:… root@ip-… (ED25519)"]: lets the SSH layer verify the host key instead of
        trusting it blindly. Empty until the console output is available (a few minutes after boot).
        Short timeouts: the SSH layer asks on first contact and must not wait long for a bonus check."""
        ec2 = self._client(account, creds, quick=True)
        resp = self._call(
            account,
            ec2,
            "get_console_output",
            InstanceId=instance_id,
            Latest=True,
            ctx={"instance_id": instance_id},
        )
        return parse_console_fingerprints(console_text(resp.get("Output") or ""))

    def current_spot_price(
        self, account: Account, creds: Credentials, instance_type: str, zone: str
    ) -> float | None:
        try:
            ec2 = self._client(account, creds)
            kwargs: dict[str, Any] = {
                "InstanceTypes": [instance_type],
                "ProductDescriptions": ["Linux/UNIX"],
                "StartTime": datetime.now(timezone.utc) - timedelta(hours=3),
                "MaxResults": 100,
            }
            if zone:
                kwargs["AvailabilityZone"] = zone
            hist = self._call(account, ec2, "describe_spot_price_history", **kwargs).get(
                "SpotPriceHistory", []
            )
        except CloudError:
            return None
        prices = [float(h["SpotPrice"]) for h in hist if h.get("InstanceType") == instance_type]
        return min(prices) if prices else None

    def launch(
        self, account: Account, creds: Credentials, req: LaunchRequest, progress: ProgressFn | None = None
    ) -> Instance:
        step = stepper(progress)

        ctx = {
            "instance_type": req.instance_type,
            "zone": req.zone or account.region,
            "spot": req.spot,
            "max_price": "" if req.max_price is None else f"{req.max_price:.4f}",
            "image_id": req.image_id,
        }
        key_name = ""
        if req.public_key:
            step(
                "key", say(QT_TRANSLATE_NOOP("LabGPU", "Registering SSH key {name}…"), name=req.ssh_key_name)
            )
            key_name = self.ensure_key_pair(account, creds, req.ssh_key_name, req.public_key)
        step(
            "security_group",
            say(QT_TRANSLATE_NOOP("LabGPU", "Opening SSH (port 22) to {cidr} only…"), cidr=req.ssh_cidr),
        )
        group_id = self.ensure_security_group(account, creds, req.ssh_cidr)
        image_id = req.image_id
        if not image_id:
            image_id, image_name, gpu = self.find_image(account, creds)
            found = QT_TRANSLATE_NOOP("LabGPU", "Using the GPU image {name} ({id}) with CUDA and PyTorch.")
            plain = QT_TRANSLATE_NOOP("LabGPU", "No Deep Learning AMI found: using plain Ubuntu 22.04 {name} ({id}); "
                                                "install CUDA and PyTorch yourself.")
            step("image", say(found if gpu else plain, name=image_name, id=image_id))
        else:
            step("image", say(QT_TRANSLATE_NOOP("LabGPU", "Using image {id}."), id=image_id))
        ctx["image_id"] = image_id
        ec2 = self._client(account, creds)
        root, image_name, min_disk = self._image_info(account, ec2, image_id)
        disk_gb = int(req.disk_gb)
        if min_disk > disk_gb:  # AWS refuses a root volume smaller than the image's snapshot
            step(
                "image",
                say(
                    QT_TRANSLATE_NOOP(
                        "LabGPU",
                        "The image needs a system disk of at least {size} GB: "
                        "using {size} GB instead of {asked} GB.",
                    ),
                    size=min_disk,
                    asked=disk_gb,
                ),
            )
            disk_gb = min_disk
        tags = [{"Key": LABGPU_TAG_KEY, "Value": LABGPU_TAG_VALUE}]
        if req.client_token:
            tags.append({"Key": LAUNCH_TAG, "Value": req.client_token.split("~")[0]})
        if req.name:
            tags.append({"Key": "Name", "Value": req.name})
        login = login_user_for(image_name)  # what the host made from this instance logs in as
        tags += [{"Key": SSH_USER_TAG, "Value": login}, {"Key": LOGIN_TAG, "Value": login}]
        tags.extend(
            {"Key": k, "Value": v}
            for k, v in req.tags.items()
            if k not in (LABGPU_TAG_KEY, LAUNCH_TAG, SSH_USER_TAG, LOGIN_TAG)
        )
        kwargs: dict[str, Any] = {
            "ImageId": image_id,
            "InstanceType": req.instance_type,
            "MinCount": 1,
            "MaxCount": 1,
            "SecurityGroupIds": [group_id],
            "BlockDeviceMappings": [
                {
                    "DeviceName": root,
                    "Ebs": {"VolumeSize": disk_gb, "VolumeType": "gp3", "DeleteOnTermination": True},
                }
            ],
            "TagSpecifications": [
                {"ResourceType": "instance", "Tags": tags},
                {"ResourceType": "volume", "Tags": tags[:2]},
            ],
            "MetadataOptions": {"HttpTokens": "required", "HttpEndpoint": "enabled"},
        }
        if key_name:
            kwargs["KeyName"] = key_name
        if req.client_token:
            kwargs["ClientToken"] = req.client_token
        if req.zone:
            kwargs["Placement"] = {"AvailabilityZone": req.zone}
        if req.backstop is not None:  # boto3 base64-encodes UserData for RunInstances
            kwargs["UserData"] = backstop_user_data(req.backstop.minutes)
            kwargs["InstanceInitiatedShutdownBehavior"] = "stop" if req.spot else "terminate"
        if req.spot:
            # Stoppable spot: only an instance of a persistent request can be stopped ("Stop a Spot
            # Instance", https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/stop-start-spot-instances.html),
            # and RunInstances takes a persistent request only with interruption behaviour stop or
            # hibernate (SpotMarketOptions, https://docs.aws.amazon.com/AWSEC2/latest/APIReference/
            # API_SpotMarketOptions.html). No ValidUntil: the request stays until LabGPU cancels it at
            # terminate (AwsProvider.terminate), instead of expiring under a stopped instance.
            spot: dict[str, Any] = {
                "SpotInstanceType": "persistent",
                "InstanceInterruptionBehavior": "stop",
            }
            if req.max_price is not None:
                spot["MaxPrice"] = f"{req.max_price:.4f}"
            kwargs["InstanceMarketOptions"] = {"MarketType": "spot", "SpotOptions": spot}
        step(
            "request",
            say(
                QT_TRANSLATE_NOOP("LabGPU", "Requesting {type} ({market}) in {zone}…"),
                type=req.instance_type,
                market=translate(
                    QT_TRANSLATE_NOOP("LabGPU", "spot")
                    if req.spot
                    else QT_TRANSLATE_NOOP("LabGPU", "on-demand")
                ),
                zone=req.zone or account.region,
            ),
        )
        try:
            resp = self._call(account, ec2, "run_instances", audit=True, ctx=ctx, **kwargs)
        except PriceTooLowError as exc:
            if exc.params.get("spot_price") in ("?", "", None):
                price = self.current_spot_price(account, creds, req.instance_type, req.zone)
                if price is not None:
                    exc.params["spot_price"] = f"{price:.4f}"
                    exc.args = (exc.text(),)
            raise
        return self._to_instance(account, resp["Instances"][0])
