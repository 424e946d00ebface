"""Launching on Compute Engine: the SSH firewall rule, the image, instances.insert.

- GPUs: an N1 machine type takes accelerators (``guestAccelerators``); the A2, A3 and G2 machine types
  carry their GPUs. A VM with GPUs cannot live-migrate: ``scheduling.onHostMaintenance`` is TERMINATE
  (https://cloud.google.com/compute/docs/gpus/create-gpu-vm-general-purpose).
- Spot: ``scheduling.provisioningModel`` SPOT with ``instanceTerminationAction`` STOP
  (https://cloud.google.com/compute/docs/instances/create-use-spot): a reclaimed VM is stopped, not deleted.
  Spot VMs have no price cap: LabGPU's spot maximum is not sent (said in the progress and the spot rule).
- SSH: the ``ssh-keys`` metadata entry ``labgpu:<public key> labgpu`` creates the user
  (https://cloud.google.com/compute/docs/connect/add-ssh-keys#metadata); a firewall rule on the default
  network lets TCP 22 in from the user's address only, for instances with its network tag; it is named after
  the address, created once and reused.
- Labels carry the launch's token (crash recovery finds the instance by it); ``requestId`` (a UUID derived
  from the attempt's token) makes a retried insert the same request
  (https://cloud.google.com/compute/docs/reference/rest/v1/instances/insert, "requestId").
"""

from __future__ import annotations

import hashlib
import logging
import re
import uuid
from typing import Any

from app.cloud.base import (
    LABGPU_TAG_KEY,
    LABGPU_TAG_VALUE,
    Instance,
    LaunchRequest,
    NotFoundError,
    ProgressFn,
)
from app.cloud.kit import public_key_of, say, stepper
from app.core.accounts import Account, Credentials
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.vocab import InstanceState

from .client import CALL_TIMEOUT, GcpClient, label_value, sdk, type_parts
from .spec import KEY_LABEL, LAUNCH_LABEL, LOGIN_USER, PROVIDER_ID, TOKEN_LABEL

log = logging.getLogger("app.cloud.gcp")

NETWORK = "global/networks/default"
GPU_IMAGE = ("deeplearning-platform-release", "pytorch-latest-gpu")  # Deep Learning VM: CUDA and PyTorch
PLAIN_IMAGE = ("ubuntu-os-cloud", "ubuntu-2204-lts")
DISK_TYPE = "pd-balanced"


def instance_name(text: str, token: str) -> str:
    """A name Compute accepts (RFC 1035: a lowercase letter, then letters, digits, '-', at most 63, not
    ending in '-'); a zone attempt after the first gets its own suffix."""
    name = re.sub(r"-{2,}", "-", re.sub(r"[^a-z0-9-]", "-", (text or "labgpu").lower())).strip("-")
    if not name[:1].isalpha():
        name = f"labgpu-{name}".rstrip("-")
    attempt = token.rpartition("~")[2] if "~" in token else ""
    suffix = f"-z{attempt}" if attempt.isdigit() else ""
    return name[: 63 - len(suffix)].rstrip("-") + suffix


def firewall_name(cidr: str) -> str:
    digest = hashlib.sha256(cidr.encode()).hexdigest()[:12]
    return f"labgpu-ssh-{digest}"


def request_id(token: str) -> str:
    """The insert's requestId: a UUID, the same for the same attempt token."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"labgpu:{token}"))


class GcpLaunch(GcpClient):
    """The launch steps (see GcpProvider)."""

    def ensure_firewall(self, account: Account, creds: Credentials, cidr: str) -> str:
        """The rule letting SSH in from ``cidr`` to instances tagged with its name; created when missing."""
        compute = sdk()
        project = self.project(account, creds)
        name = firewall_name(cidr)
        client = self.client(account, creds, "FirewallsClient")
        try:
            self.call(account, lambda: client.get(request=compute.GetFirewallRequest(project=project, firewall=name),
                                                  retry=None, timeout=CALL_TIMEOUT), action="firewalls.get")
            return name
        except NotFoundError:
            pass
        rule = compute.Firewall(
            name=name, network=NETWORK, direction="INGRESS", priority=1000,
            description=f"LabGPU: SSH from {cidr} only",
            allowed=[compute.Allowed(I_p_protocol="tcp", ports=["22"])],
            source_ranges=[cidr], target_tags=[name],
        )
        op = self.call(account, lambda: client.insert_unary(
            request=compute.InsertFirewallRequest(project=project, firewall_resource=rule), retry=None,
            timeout=CALL_TIMEOUT), action="firewalls.insert", state_changing=True, resource=name)
        self.wait_operation(account, creds, op, action="firewalls.insert")
        return name

    def pick_image(self, account: Account, creds: Credentials) -> tuple[str, bool]:
        """(image URL, has the GPU driver): the Deep Learning VM family's newest image, else Ubuntu's."""
        compute = sdk()
        client = self.client(account, creds, "ImagesClient")
        for (project, family), gpu in ((GPU_IMAGE, True), (PLAIN_IMAGE, False)):
            request = compute.GetFromFamilyImageRequest(project=project, family=family)

            def get(r: Any = request) -> Any:
                return client.get_from_family(request=r, retry=None, timeout=CALL_TIMEOUT)

            try:
                image = self.call(account, get, action="images.getFromFamily")
            except NotFoundError:
                continue
            return str(image.self_link or f"projects/{project}/global/images/{image.name}"), gpu
        raise NotFoundError(
            QT_TRANSLATE_NOOP("LabGPU", "No Deep Learning VM or Ubuntu image was found for {instance_type}."),
            QT_TRANSLATE_NOOP("LabGPU", "Pass an image with --image (projects/PROJECT/global/images/NAME)."),
            provider=PROVIDER_ID, code="NoImage", instance_type="?")

    def instance_resource(self, req: LaunchRequest, *, zone: str, image: str, firewall_tag: str,
                          gpu_image: bool) -> Any:
        """The Instance body of instances.insert (public so the contract test checks it)."""
        compute = sdk()
        machine, accelerator, count = type_parts(req.instance_type)
        labels = {LABGPU_TAG_KEY: LABGPU_TAG_VALUE}
        if req.client_token:
            labels[TOKEN_LABEL] = label_value(req.client_token)
        if req.tags.get(LAUNCH_LABEL):
            labels[LAUNCH_LABEL] = label_value(req.tags[LAUNCH_LABEL])
        if req.ssh_key_name:
            labels[KEY_LABEL] = label_value(req.ssh_key_name)
        key_line = " ".join(req.public_key.split()[:2])
        metadata = [compute.Items(key="ssh-keys", value=f"{LOGIN_USER}:{key_line} {LOGIN_USER}")]
        if gpu_image:  # the Deep Learning VM installs the NVIDIA driver at first boot when asked
            metadata.append(compute.Items(key="install-nvidia-driver", value="True"))
        scheduling = compute.Scheduling(on_host_maintenance="TERMINATE", automatic_restart=not req.spot)
        if req.spot:
            scheduling = compute.Scheduling(on_host_maintenance="TERMINATE", automatic_restart=False,
                                            provisioning_model="SPOT", instance_termination_action="STOP")
        accelerators = [compute.AcceleratorConfig(accelerator_type=f"zones/{zone}/acceleratorTypes/{accelerator}",
                                                  accelerator_count=count)] if accelerator else []
        return compute.Instance(
            name=instance_name(req.name or "labgpu", req.client_token),
            machine_type=f"zones/{zone}/machineTypes/{machine}",
            guest_accelerators=accelerators,
            scheduling=scheduling,
            disks=[compute.AttachedDisk(
                boot=True, auto_delete=True, initialize_params=compute.AttachedDiskInitializeParams(
                    source_image=image, disk_size_gb=int(req.disk_gb),
                    disk_type=f"zones/{zone}/diskTypes/{DISK_TYPE}"))],
            network_interfaces=[compute.NetworkInterface(network=NETWORK, access_configs=[
                compute.AccessConfig(name="External NAT", type_="ONE_TO_ONE_NAT")])],
            metadata=compute.Metadata(items=metadata),
            tags=compute.Tags(items=[firewall_tag]),
            labels=labels,
        )

    def launch(self, account: Account, creds: Credentials, req: LaunchRequest,
               progress: ProgressFn | None = None) -> Instance:
        step = stepper(progress)
        compute = sdk()
        public_key_of(req.public_key, PROVIDER_ID)
        zone = req.zone or f"{account.region}-a"
        project = self.project(account, creds)
        ctx = {"zone": zone, "instance_type": req.instance_type, "project": project}
        step("key", say(QT_TRANSLATE_NOOP("LabGPU", "The SSH key goes into the instance's ssh-keys metadata "
                                                    "(user {user})."), user=LOGIN_USER))
        step("security_group", say(QT_TRANSLATE_NOOP("LabGPU", "Firewall rule: SSH from {cidr} only."),
                                   cidr=req.ssh_cidr))
        tag = self.ensure_firewall(account, creds, req.ssh_cidr)
        if req.image_id:
            image, gpu_image = req.image_id, False
            step("image", say(QT_TRANSLATE_NOOP("LabGPU", "Image {image}."), image=image))
        else:
            image, gpu_image = self.pick_image(account, creds)
            if gpu_image:
                step("image", say(QT_TRANSLATE_NOOP("LabGPU", "GPU image {name} (Deep Learning VM, NVIDIA driver "
                                                              "installed at first boot)."),
                                  name=image.rsplit("/", 1)[-1]))
            else:
                step("image", say(QT_TRANSLATE_NOOP("LabGPU", "No Deep Learning VM image found: using {name}; install "
                                                              "the NVIDIA driver and CUDA yourself."),
                                  name=image.rsplit("/", 1)[-1]))
        body = self.instance_resource(req, zone=zone, image=image, firewall_tag=tag, gpu_image=gpu_image)
        if req.spot:
            step("request", say(QT_TRANSLATE_NOOP("LabGPU", "Requesting Spot {type} in {zone} (Google Cloud has no "
                                                            "price cap: the current Spot price applies)…"),
                                type=req.instance_type, zone=zone))
        else:
            step("request", say(QT_TRANSLATE_NOOP("LabGPU", "Requesting on-demand {type} in {zone}…"),
                                type=req.instance_type, zone=zone))
        client = self.client(account, creds, "InstancesClient")
        request = compute.InsertInstanceRequest(project=project, zone=zone, instance_resource=body,
                                                request_id=request_id(req.client_token or body.name))
        op = self.call(account, lambda: client.insert_unary(request=request, retry=None, timeout=CALL_TIMEOUT),
                       action="instances.insert", context=ctx, state_changing=True, resource=req.client_token)
        self.wait_operation(account, creds, op, action="instances.insert", context=ctx)
        found = self.get_instance(account, creds, body.name)
        if found is not None:
            return found
        return Instance(id=body.name, account=account.name, provider=PROVIDER_ID, region=account.region, zone=zone,
                        instance_type=req.instance_type, state=InstanceState.PENDING, spot=req.spot, currency="USD",
                        name=body.name, key_name=str(body.labels.get(KEY_LABEL, "")), raw_state="PROVISIONING",
                        tags=dict(body.labels))
