"""Launching an Azure VM: resource group, network (VNet, subnet, NSG), public IP, NIC, then the VM.

The resource group (``labgpu-<location>``), the VNet ``labgpu-vnet`` with its subnet, and one network security
group per SSH source (inbound TCP 22 from the user's address only) are created the first time, tagged
``labgpu-resource``, and reused after. Each VM gets its own Standard static public IP and NIC, named after it;
terminating the VM deletes them and its OS disk. The VM's name comes from the attempt's client token, so a
retried launch with the same token PUTs the same VM (ARM's create-or-update is idempotent) and never a second
one; its tags carry the launch's token and the attempt's (find_by_client_token).

Spot: ``priority="Spot"``, ``evictionPolicy="Deallocate"`` (an evicted VM is deallocated, not deleted: its
compute stops billing, its disk stays) and ``billingProfile.maxPrice`` = LabGPU's cap (-1 = up to the
on-demand price). A capacity error (SkuNotAvailable at once; AllocationFailed, ZonalAllocationFailed,
OverconstrainedAllocationRequest when the create operation fails) deletes what the attempt made and is a
CapacityError: CloudService moves on to the next zone unless the user chose one.
"""

from __future__ import annotations

import functools
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
    ProgressFn,
)
from app.cloud.errors import NetworkError
from app.cloud.kit import public_key_of, say, stepper
from app.core.accounts import Account, Credentials
from app.core.hosts import SSH_USER_TAG
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.vocab import InstanceState

from .client import COMPUTE, NETWORK, RESOURCE, AzureClient, Session, models, resource_group, text
from .spec import LOGIN_USER, PROVIDER_ID, RESOURCE_TAG, TOKEN_TAG_KEY

log = logging.getLogger("app.cloud.azure")

VNET_NAME = "labgpu-vnet"
VNET_CIDR = "10.77.0.0/16"
SUBNET_NAME = "labgpu-subnet"
SUBNET_CIDR = "10.77.0.0/24"
SSH_PRIORITY = 1000
DISK_TYPE = "Premium_LRS"
# Tags: at most 50 per resource, names ≤ 512 characters without < > % & \ ? /, values ≤ 256 characters
# (https://learn.microsoft.com/en-us/azure/azure-resource-manager/management/tag-resources#limitations).
MAX_TAGS = 50
MAX_TAG_VALUE = 256
_TAG_NAME_BAD = re.compile(r"[<>%&\\?/]")

# Images, as "publisher:offer:sku:version" (an image URN, as `az vm image list` prints it). For N-series sizes
# the Ubuntu-HPC image with the NVIDIA driver, CUDA and InfiniBand drivers ("Azure HPC VM images",
# https://learn.microsoft.com/en-us/azure/virtual-machines/configure#vm-images, built by
# https://github.com/Azure/azhpc-images and published as microsoft-dsvm:ubuntu-hpc:<version>), looked up in the
# location first (VirtualMachineImages.List); else Canonical's Ubuntu 22.04 LTS gen2.
GPU_IMAGE = ("microsoft-dsvm", "ubuntu-hpc", "2204", "latest")
UBUNTU_IMAGE = ("Canonical", "0001-com-ubuntu-server-jammy", "22_04-lts-gen2", "latest")


def vm_name(token: str) -> str:
    """The VM's name from the attempt's client token: a Linux VM name is 1-64 letters, digits, hyphens and
    periods (https://learn.microsoft.com/en-us/azure/azure-resource-manager/management/resource-name-rules
    #microsoftcompute); the same token always gives the same name."""
    return "labgpu-" + hashlib.sha256((token or "labgpu").encode()).hexdigest()[:12]


def nsg_name(cidr: str) -> str:
    return "labgpu-ssh-" + re.sub(r"[^0-9A-Za-z]+", "-", cidr).strip("-")


def clean_tags(tags: dict[str, str]) -> dict[str, str]:
    """ARM-acceptable tags: names without its forbidden characters, values cut to 256, at most 50."""
    out: dict[str, str] = {}
    for k, v in tags.items():
        if not k or _TAG_NAME_BAD.search(k) or len(k) > 512:
            continue
        out[k] = str(v)[:MAX_TAG_VALUE]
    return dict(list(out.items())[:MAX_TAGS])


def parse_image(text: str) -> tuple[str, str, str, str] | str:
    """An image given with --image: an URN (publisher:offer:sku:version) or an ARM image id."""
    parts = text.split(":")
    if len(parts) == 4 and all(parts):
        return parts[0], parts[1], parts[2], parts[3]
    return text


class AzureLaunch(AzureClient):
    """The launch steps (see AzureProvider)."""

    # -- resource group and network ------------------------------------------------------------------------
    def _ensure_group(self, s: Session, account: Account) -> str:
        rg = resource_group(account)
        if self._call(account, "ResourceGroups.CheckExistence",
                      lambda: s.resource.resource_groups.check_existence(rg)):
            return rg
        body = models(RESOURCE).ResourceGroup(location=account.region,
                                              tags={RESOURCE_TAG: "group", LABGPU_TAG_KEY: LABGPU_TAG_VALUE})
        self._call(account, "ResourceGroups.CreateOrUpdate",
                   lambda: s.resource.resource_groups.create_or_update(rg, body), state_changing=True, resource=rg)
        return rg

    def _find(self, account: Account, action: str, get: Callable[[], Any]) -> Any | None:
        try:
            return self._call(account, action, get)
        except CloudError as exc:
            if exc.code in ("ResourceNotFound", "NotFound"):
                return None
            raise

    def _ensure_subnet(self, s: Session, account: Account, rg: str, step: Callable[[str, str], None]) -> str:
        """LabGPU's VNet and subnet in the group, found first (a retried launch never makes a second), else made."""
        vnet = self._find(account, "VirtualNetworks.Get", lambda: s.network.virtual_networks.get(rg, VNET_NAME))
        if vnet is not None:
            subnet = next((sn for sn in vnet.subnets or [] if sn.name == SUBNET_NAME), None)
            if subnet is not None:
                return str(subnet.id)
        step("network", say(QT_TRANSLATE_NOOP("LabGPU", "Creating the network (VNet {name}, {cidr})…"),
                             name=VNET_NAME, cidr=VNET_CIDR))
        nm = models(NETWORK)
        body = nm.VirtualNetwork(
            location=account.region, tags={RESOURCE_TAG: "vnet", LABGPU_TAG_KEY: LABGPU_TAG_VALUE},
            address_space=nm.AddressSpace(address_prefixes=[VNET_CIDR]),
            subnets=[nm.Subnet(name=SUBNET_NAME, address_prefix=SUBNET_CIDR)])
        poller = self._call(account, "VirtualNetworks.CreateOrUpdate", lambda: s.network.virtual_networks
                            .begin_create_or_update(rg, VNET_NAME, body), state_changing=True, resource=VNET_NAME)
        vnet = self._wait(account, "VirtualNetworks.CreateOrUpdate", poller, VNET_NAME)
        return str(next(sn.id for sn in vnet.subnets or [] if sn.name == SUBNET_NAME))

    def _ensure_nsg(self, s: Session, account: Account, rg: str, cidr: str) -> str:
        """The group letting TCP 22 in from ``cidr`` only (one per SSH source), found or made."""
        name = nsg_name(cidr)
        nsg = self._find(account, "NetworkSecurityGroups.Get",
                         lambda: s.network.network_security_groups.get(rg, name))
        if nsg is not None and any(_allows_ssh(rule, cidr) for rule in nsg.security_rules or []):
            return str(nsg.id)
        nm = models(NETWORK)
        body = nm.NetworkSecurityGroup(
            location=account.region, tags={RESOURCE_TAG: "ssh", LABGPU_TAG_KEY: LABGPU_TAG_VALUE},
            security_rules=[nm.SecurityRule(
                name="labgpu-ssh", protocol="Tcp", access="Allow", direction="Inbound", priority=SSH_PRIORITY,
                source_address_prefix=cidr, source_port_range="*", destination_address_prefix="*",
                destination_port_range="22", description=f"LabGPU: SSH from {cidr} only")])
        poller = self._call(account, "NetworkSecurityGroups.CreateOrUpdate", lambda: s.network.network_security_groups
                            .begin_create_or_update(rg, name, body), state_changing=True, resource=name)
        return str(self._wait(account, "NetworkSecurityGroups.CreateOrUpdate", poller, name).id)

    def _make_nic(self, s: Session, account: Account, rg: str, name: str, subnet_id: str, nsg_id: str) -> str:
        """The VM's own Standard static public IP and its NIC (in the subnet, behind the SSH group)."""
        nm = models(NETWORK)
        tags = {RESOURCE_TAG: "vm", LABGPU_TAG_KEY: LABGPU_TAG_VALUE, "labgpu-vm": name}
        pip_body = nm.PublicIPAddress(location=account.region, tags=tags,
                                      sku=nm.PublicIPAddressSku(name="Standard"),
                                      public_ip_allocation_method="Static")
        poller = self._call(account, "PublicIPAddresses.CreateOrUpdate", lambda: s.network.public_ip_addresses
                            .begin_create_or_update(rg, f"{name}-ip", pip_body), state_changing=True,
                            resource=f"{name}-ip")
        pip = self._wait(account, "PublicIPAddresses.CreateOrUpdate", poller, f"{name}-ip")
        nic_body = nm.NetworkInterface(
            location=account.region, tags=tags,
            network_security_group=nm.NetworkSecurityGroup(id=nsg_id),
            ip_configurations=[nm.NetworkInterfaceIPConfiguration(
                name="ipconfig1", subnet=nm.Subnet(id=subnet_id), private_ip_allocation_method="Dynamic",
                public_ip_address=nm.PublicIPAddress(id=pip.id))])
        poller = self._call(account, "NetworkInterfaces.CreateOrUpdate", lambda: s.network.network_interfaces
                            .begin_create_or_update(rg, f"{name}-nic", nic_body), state_changing=True,
                            resource=f"{name}-nic")
        return str(self._wait(account, "NetworkInterfaces.CreateOrUpdate", poller, f"{name}-nic").id)

    # -- image -------------------------------------------------------------------------------------------
    def pick_image(self, s: Session, account: Account, instance_type: str) -> tuple[tuple[str, str, str, str], bool]:
        """(image URN, has the GPU driver): the Ubuntu-HPC image for N-series sizes where the location lists
        it (VirtualMachineImages.List), else Ubuntu 22.04."""
        if instance_type.lower().startswith("standard_n"):
            publisher, offer, sku, _version = GPU_IMAGE
            try:
                versions = self._call(account, "VirtualMachineImages.List", lambda: s.compute.virtual_machine_images
                                      .list(account.region, publisher, offer, sku, top=1, orderby="name desc"))
            except CloudError as exc:
                log.info("no GPU image listed in %s: %s", account.region, exc.code)
                versions = []
            if versions:
                return GPU_IMAGE, True
        return UBUNTU_IMAGE, False

    # -- the VM ------------------------------------------------------------------------------------------
    def vm_body(self, req: LaunchRequest, *, name: str, nic_id: str, image: tuple[str, str, str, str] | str,
                location: str) -> Any:
        """The VirtualMachine request (public so a test checks it against the SDK's model)."""
        cm = models(COMPUTE)
        tags = {LABGPU_TAG_KEY: LABGPU_TAG_VALUE, SSH_USER_TAG: LOGIN_USER, "labgpu-name": req.name or name}
        if req.client_token:
            tags[TOKEN_TAG_KEY] = req.client_token
        tags.update({k: v for k, v in req.tags.items() if k not in tags})
        if isinstance(image, tuple):
            ref = cm.ImageReference(publisher=image[0], offer=image[1], sku=image[2], version=image[3])
        else:
            ref = cm.ImageReference(id=image)
        key = " ".join(req.public_key.split()[:2])
        fields: dict[str, Any] = {
            "location": location,
            "tags": clean_tags(tags),
            "hardware_profile": cm.HardwareProfile(vm_size=req.instance_type),
            "storage_profile": cm.StorageProfile(
                image_reference=ref,
                os_disk=cm.OSDisk(name=f"{name}-osdisk", create_option="FromImage", delete_option="Delete",
                                  disk_size_gb=int(req.disk_gb),
                                  managed_disk=cm.ManagedDiskParameters(storage_account_type=DISK_TYPE))),
            "os_profile": cm.OSProfile(
                computer_name=name, admin_username=LOGIN_USER,
                linux_configuration=cm.LinuxConfiguration(
                    disable_password_authentication=True,
                    ssh=cm.SshConfiguration(public_keys=[cm.SshPublicKey(
                        path=f"/home/{LOGIN_USER}/.ssh/authorized_keys", key_data=key)]))),
            "network_profile": cm.NetworkProfile(network_interfaces=[
                cm.NetworkInterfaceReference(id=nic_id, primary=True, delete_option="Delete")]),
        }
        if req.zone:
            fields["zones"] = [req.zone]
        if req.spot:
            # maxPrice: USD/h with up to five decimals, or -1 (evicted for capacity only, never for price)
            # (https://learn.microsoft.com/en-us/azure/virtual-machines/spot-vms#pricing)
            fields["priority"] = "Spot"
            fields["eviction_policy"] = "Deallocate"
            fields["billing_profile"] = cm.BillingProfile(
                max_price=round(req.max_price, 5) if req.max_price else -1)
        return cm.VirtualMachine(**fields)

    def launch(self, account: Account, creds: Credentials, req: LaunchRequest,
               progress: ProgressFn | None = None) -> Instance:
        step = stepper(progress)
        public_key_of(req.public_key, PROVIDER_ID)
        name = vm_name(req.client_token)
        ctx = {"zone": req.zone or "-", "instance_type": req.instance_type, "instance_id": name,
               "max_price": f"{req.max_price:.5f}" if req.max_price else "-1"}
        with self.session(account, creds) as s:
            existing = self._get(s, account, name)
            if existing is not None and existing.state != InstanceState.FAILED:
                return existing  # the same attempt token: the VM a cut-short launch already made
            if existing is not None:  # that attempt's VM failed: it goes, with its NIC, IP and disk, then again
                self._delete_vm(s, account, name)
            step("key", say(QT_TRANSLATE_NOOP("LabGPU", "The SSH public key goes into the VM's "
                                                        "authorized_keys (user {user})."), user=LOGIN_USER))
            rg = self._ensure_group(s, account)
            subnet_id = self._ensure_subnet(s, account, rg, step)
            step("security_group", say(QT_TRANSLATE_NOOP("LabGPU", "Security group: SSH from {cidr} only."),
                                       cidr=req.ssh_cidr))
            nsg_id = self._ensure_nsg(s, account, rg, req.ssh_cidr)
            if req.image_id:
                image: tuple[str, str, str, str] | str = parse_image(req.image_id)
                step("image", say(QT_TRANSLATE_NOOP("LabGPU", "Image {image}."), image=req.image_id))
            else:
                image, is_gpu = self.pick_image(s, account, req.instance_type)
                urn = ":".join(image)
                if is_gpu:
                    step("image", say(QT_TRANSLATE_NOOP("LabGPU", "GPU image {name} (NVIDIA driver and CUDA)."),
                                      name=urn))
                else:
                    step("image", say(QT_TRANSLATE_NOOP(
                        "LabGPU", "No image with the NVIDIA driver for {type}: using {name}; install the NVIDIA "
                                  "driver and CUDA yourself."), type=req.instance_type, name=urn))
            nic_id = self._make_nic(s, account, rg, name, subnet_id, nsg_id)
            body = self.vm_body(req, name=name, nic_id=nic_id, image=image, location=account.region)
            where = req.zone or account.region
            if req.spot:
                step("request", say(QT_TRANSLATE_NOOP(
                    "LabGPU", "Requesting Spot {type} in {zone} (maximum {price} USD/h, evicted VMs are "
                              "deallocated)…"),
                    type=req.instance_type, zone=where, price=ctx["max_price"]))
            else:
                step("request", say(QT_TRANSLATE_NOOP("LabGPU", "Requesting pay-as-you-go {type} in {zone}…"),
                                    type=req.instance_type, zone=where))
            try:
                poller = self._call(account, "VirtualMachines.CreateOrUpdate", lambda: s.compute.virtual_machines
                                    .begin_create_or_update(rg, name, body), context=ctx, state_changing=True,
                                    resource=req.client_token or name)
                step("wait", say(QT_TRANSLATE_NOOP("LabGPU", "Waiting for Azure to allocate and start {name}…"),
                                 name=name))
                self._wait(account, "VirtualMachines.CreateOrUpdate", poller, name, ctx)
            except NetworkError:
                raise  # the VM may exist: it stays for the retry with the same token (or reconcile) to find
            except CloudError:
                # Refused or failed (no capacity in this zone, a quota, the Spot price…): what this attempt made
                # goes — the failed VM, its NIC, its public IP (which would bill) and its disk; on a capacity
                # error CloudService then tries the next zone.
                self._clean_up(s, account, name)
                raise
            found = self._get(s, account, name)
        if found is None:
            raise CloudError(
                QT_TRANSLATE_NOOP("LabGPU", "Azure accepted the launch but does not list {name}."),
                QT_TRANSLATE_NOOP("LabGPU", "Open the instances page: LabGPU lists every tagged instance."),
                provider=PROVIDER_ID, code="NoInstanceId", name=name)
        return found

    def _clean_up(self, s: Session, account: Account, name: str) -> None:
        """Delete a failed attempt's resources; a cleanup that fails is logged, the launch's own error is said."""
        try:
            self._delete_vm(s, account, name)
        except CloudError as exc:
            log.warning("Azure: the failed attempt %s could not be cleaned up (%s): remove its NIC and public IP "
                        "in the portal", name, exc.code)

    # -- delete ------------------------------------------------------------------------------------------
    def _delete_vm(self, s: Session, account: Account, name: str) -> None:
        """Delete the VM, then its NIC, public IP and OS disk (each waited for; one already gone is fine)."""
        rg = resource_group(account)
        disk = ""
        vm = self._find(account, "VirtualMachines.Get", lambda: s.compute.virtual_machines.get(rg, name))
        if vm is not None:
            if vm.storage_profile is not None and vm.storage_profile.os_disk is not None:
                disk = str(vm.storage_profile.os_disk.name or "")
            poller = self._call(account, "VirtualMachines.Delete", lambda: s.compute.virtual_machines
                                .begin_delete(rg, name), state_changing=True, resource=name,
                                context={"instance_id": name})
            self._wait(account, "VirtualMachines.Delete", poller, name)
        for action, ops, resource in (
            ("NetworkInterfaces.Delete", s.network.network_interfaces, f"{name}-nic"),
            ("PublicIPAddresses.Delete", s.network.public_ip_addresses, f"{name}-ip"),
            ("Disks.Delete", s.compute.disks, disk or f"{name}-osdisk"),
        ):
            try:
                poller = self._call(account, action, functools.partial(ops.begin_delete, rg, resource),
                                    state_changing=True, resource=resource, context={"instance_id": resource})
                self._wait(account, action, poller, resource)
            except CloudError as exc:
                if exc.code not in ("ResourceNotFound", "NotFound"):
                    raise


def _allows_ssh(rule: Any, cidr: str) -> bool:
    """An inbound Allow rule for TCP 22 whose source covers ``cidr``."""
    if text(rule.direction).lower() != "inbound" or text(rule.access).lower() != "allow":
        return False
    if text(rule.protocol).lower() not in ("tcp", "*"):
        return False
    if str(rule.destination_port_range or "") not in ("22", "*"):
        return False
    try:
        have = ipaddress.ip_network(str(rule.source_address_prefix or ""), strict=False)
        want = ipaddress.ip_network(cidr, strict=False)
    except ValueError:
        return False
    return want.version == have.version and want.subnet_of(have)  # type: ignore[arg-type]

