"""The cloud CLI with an Azure account, as a user or a script runs it: real subprocesses, the official SDKs
(azure-identity signing in with the client-credentials grant, the ARM clients) over HTTPS to the local Entra ID +
ARM peer (its test CA trusted through REQUESTS_CA_BUNDLE), live prices from the local Retail Prices API, a real
Secret Service. A Spot launch whose first zone is out of stock lands in the second zone with LabGPU's price cap; a
guard's stop deallocates it; the flow ends with a scan of every file LabGPU wrote for the client secret."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.fixtures import azure_arm_server, clirun
from tests.fixtures.azure_arm_server import (
    TEST_CLIENT_ID,
    TEST_CLIENT_SECRET,
    TEST_SUBSCRIPTION,
    TEST_TENANT,
    AzurePeer,
)
from tests.fixtures.azure_prices_server import SKUS

# the peer's fixtures (tests/fixtures/azure_arm_server.py), used by name below
azure_peer_session = azure_arm_server.azure_peer_session
azure_peer = azure_arm_server.azure_peer

ROOT = Path(__file__).resolve().parents[2]
A100 = "Standard_NC24ads_A100_v4"
H100 = "Standard_NC40ads_H100_v5"
LS_FIELDS = {"id", "account", "provider", "instance_type", "zone", "state", "spot", "public_ip",
             "price_per_hour", "currency", "started_at", "cost_so_far"}


def _cli(*args: str, stdin: str | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return clirun.run([sys.executable, "-m", "app", *args], input=stdin, capture_output=True, text=True,
                          env=env or dict(os.environ), cwd=ROOT, timeout=120)


def _ok(*args: str, **kw: Any) -> subprocess.CompletedProcess[str]:
    r = _cli(*args, **kw)
    assert r.returncode == 0, (args, r.stdout, r.stderr)
    return r


def _one_error_line(r: subprocess.CompletedProcess[str], code: str) -> str:
    assert r.returncode != 0, r.stdout
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, r.stderr
    assert f"[{code}]" in lines[0]
    assert " — " in lines[0]  # message — next step
    return str(lines[0])


def _add(peer: AzurePeer, prices: Any, name: str = "lab", secret: str = TEST_CLIENT_SECRET) -> None:
    _ok("accounts", "add", "azure", name, "--region", "eastus", "--endpoint", peer.endpoint,
        "--tenant-id", TEST_TENANT, "--subscription-id", TEST_SUBSCRIPTION, "--prices-endpoint", prices.endpoint,
        stdin=f"{TEST_CLIENT_ID}\n{secret}\n")


def _vm(peer: AzurePeer, name: str) -> dict[str, Any]:
    vm = peer.vm(name)
    assert vm is not None, name
    return vm


def _watch_until_stopped(iid: str) -> dict[str, Any]:
    watch = subprocess.Popen([sys.executable, "-m", "app", "watch", "--json", "--period", "0.2"], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    try:
        assert watch.stdout is not None
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            line = watch.stdout.readline()
            if not line:
                break
            ev: dict[str, Any] = json.loads(line)
            if ev.get("target_id") == iid and ev["kind"] in ("stopped", "stop-failed", "stop-refused"):
                return ev
    finally:
        watch.terminate()
        watch.wait(timeout=60)
        assert watch.stdout is not None and watch.stderr is not None
        watch.stdout.close()
        watch.stderr.close()
    raise AssertionError("the guard did not stop the VM")


def test_full_azure_flow_and_no_secret_anywhere(secret_service: Any, azure_peer: AzurePeer, azure_prices_server: Any,
                                                labgpu_home: Path) -> None:
    azure_peer.lro_polls = 0  # each operation ends at its first status poll: the CLI never waits an interval
    _add(azure_peer, azure_prices_server)
    [acc] = json.loads(_ok("accounts", "ls", "--json").stdout)
    assert (acc["provider"], acc["region"], acc["endpoint"]) == ("azure", "eastus", azure_peer.endpoint)
    assert TEST_CLIENT_ID not in acc["key_id"]
    out = _ok("accounts", "test", "lab").stdout
    assert "Azure service principal" in out and TEST_SUBSCRIPTION in out
    # the SDK signed in with the client-credentials grant for ARM's scope, then called ARM with the token
    assert azure_peer.token_requests[-1]["grant_type"] == "client_credentials"
    assert azure_peer.token_requests[-1]["scope"] == "https://management.azure.com/.default"
    assert [c.path.rsplit("/", 1)[-1] for c in azure_peer.calls] == ["resourcegroups"]

    # A wrong secret is refused by the token endpoint: one line with Entra ID's code and the next step.
    _add(azure_peer, azure_prices_server, "bad", "not-the-secret")
    line = _one_error_line(_cli("accounts", "test", "bad"), "AADSTS7000215")
    assert "client secret" in line and "Certificates & secrets" in line
    zh = _one_error_line(_cli("--lang", "zh_CN", "accounts", "test", "bad"), "AADSTS7000215")
    assert "Microsoft Entra ID 拒绝了此服务主体的客户端密码" in zh and "证书和密码" in zh  # the sentence in Chinese
    _ok("accounts", "rm", "bad")

    # Live prices with the account: the Retail Prices API's Linux meters, the Resource SKUs' specs; the size this
    # subscription may not use in eastus is marked sold out. The offers table shows them live, with their age.
    offers = json.loads(_ok("prices", "refresh", "--account", "lab", "--type", A100, "--type", H100,
                            "--json").stdout)
    by_type = {o["instance_type"]: o for o in offers}
    assert set(by_type) == {A100, H100}
    assert (by_type[A100]["price_on_demand"], by_type[A100]["price_spot"]) == (SKUS[A100][2], SKUS[A100][3])
    assert all(o["live"] and o["fetched_at"] and o["currency"] == "USD" for o in offers)
    assert (by_type[A100]["sold_out"], by_type[H100]["sold_out"]) == (False, True)
    table = {o["instance_type"]: o for o in json.loads(_ok("offers", "--provider", "azure", "--json").stdout)
             if o["live"]}
    assert table[A100]["price_on_demand"] == SKUS[A100][2] and table[A100]["fetched_at"]
    assert "live, just now" in _ok("offers", "--provider", "azure").stdout  # the price_age column

    # Spot, default cap (80 % of the live on-demand price); zone 1 is out of A100s right now.
    azure_peer.stock_out(A100, "1")
    r = _ok("launch", "--account", "lab", "--type", A100, "--spot", "--ssh-from", "198.51.100.7/32",
            "--json", "--progress")
    spot = json.loads(r.stdout)
    assert (spot["provider"], spot["spot"], spot["state"], spot["zone"]) == ("azure", True, "running", "2")
    zone_lines = [ln for ln in r.stderr.splitlines() if ln.startswith("[zone]")]
    assert zone_lines and "ZonalAllocationFailed" in zone_lines[0] and "Trying 2" in zone_lines[0]
    for step in ("[key]", "[network]", "[security_group]", "[image]", "[request]"):
        assert step in r.stderr
    vm_puts = [c.body for c in azure_peer.puts("virtualMachines")]
    assert [b["zones"] for b in vm_puts] == [["1"], ["2"]]
    cap = round(SKUS[A100][2] * 0.8, 5)
    for body in vm_puts:
        props = body["properties"]
        assert (props["priority"], props["evictionPolicy"], props["billingProfile"]["maxPrice"]) == (
            "Spot", "Deallocate", cap)
        assert props["osProfile"]["linuxConfiguration"]["disablePasswordAuthentication"] is True
    assert vm_puts[0]["tags"]["labgpu-token"] != vm_puts[1]["tags"]["labgpu-token"]
    # the failed zone-1 VM and what its attempt made are gone; one VM, one NIC, one IP, one disk remain
    assert [v["name"] for v in azure_peer.of_type("Microsoft.Compute/virtualMachines")] == [spot["id"]]
    for kind in ("Microsoft.Network/networkInterfaces", "Microsoft.Network/publicIPAddresses",
                 "Microsoft.Compute/disks"):
        assert len(azure_peer.of_type(kind)) == 1, kind
    [nsg] = azure_peer.of_type("Microsoft.Network/networkSecurityGroups")
    [rule] = nsg["properties"]["securityRules"]
    assert (rule["properties"]["sourceAddressPrefix"], rule["properties"]["destinationPortRange"]) == (
        "198.51.100.7/32", "22")
    [group] = azure_peer.of_type("Microsoft.Resources/resourceGroups")
    assert group["name"] == "labgpu-eastus" and group["tags"]["labgpu-resource"] == "group"

    # On demand in a chosen zone: the group, VNet and NSG are reused; the same client token gives the same VM.
    od = json.loads(_ok("launch", "--account", "lab", "--type", A100, "--zone", "3", "--ssh-from",
                        "198.51.100.7/32", "--json").stdout)
    assert (od["spot"], od["zone"], od["currency"]) == (False, "3", "USD")
    assert "priority" not in azure_peer.puts("virtualMachines")[-1].body["properties"]
    assert len(azure_peer.of_type("Microsoft.Network/virtualNetworks")) == 1
    assert len(azure_peer.of_type("Microsoft.Network/networkSecurityGroups")) == 1
    token = azure_peer.puts("virtualMachines")[-1].body["tags"]["labgpu-token"]
    again = json.loads(_ok("launch", "--account", "lab", "--type", A100, "--zone", "3", "--ssh-from",
                           "198.51.100.7/32", "--client-token", token, "--json").stdout)
    assert again["id"] == od["id"]
    assert len(azure_peer.of_type("Microsoft.Compute/virtualMachines")) == 2

    rows = json.loads(_ok("ls", "--json").stdout)
    assert {x["id"] for x in rows} == {spot["id"], od["id"]}
    for x in rows:
        assert set(x) >= LS_FIELDS
        assert x["public_ip"] and x["started_at"] and x["currency"] == "USD"
        assert x["cost_so_far"] is not None and x["cost_so_far"] >= 0

    # A guard's stop: a max-runtime guard of about a second, `labgpu watch` deallocates the VM.
    _ok("guard", "set", spot["id"], "--max-hours", "0.0003")
    ev = _watch_until_stopped(spot["id"])
    assert ev["kind"] == "stopped", ev
    assert _vm(azure_peer, spot["id"])["_power"] == "deallocated"
    assert any(c.method == "POST" and c.path.endswith(f"/{spot['id']}/deallocate") for c in azure_peer.calls)
    assert not any(c.path.endswith("/powerOff") for c in azure_peer.calls)  # power off keeps billing: never used

    r = _ok("stop", od["id"])
    assert "OS disk" in r.stderr and "still bill" in r.stderr and "Power off" in r.stderr
    assert _vm(azure_peer, od["id"])["_power"] == "deallocated"
    states = {x["id"]: x["state"] for x in json.loads(_ok("ls", "--json").stdout)}
    assert states == {spot["id"]: "stopped", od["id"]: "stopped"}
    _ok("start", od["id"])
    assert _vm(azure_peer, od["id"])["_power"] == "running"
    for iid in (spot["id"], od["id"]):
        _ok("terminate", iid)
        assert azure_peer.vm(iid) is None
    for kind in ("Microsoft.Network/networkInterfaces", "Microsoft.Network/publicIPAddresses",
                 "Microsoft.Compute/disks"):
        assert azure_peer.of_type(kind) == [], kind
    states = {x["id"]: x["state"] for x in json.loads(_ok("ls", "--json").stdout)}
    assert set(states.values()) <= {"terminating", "terminated"}

    # Errors: one stderr line with Azure's code and the next step.
    azure_peer.fail_next("PUT virtualMachines", "OperationNotAllowed", 409,
                         "Operation could not be completed as it results in exceeding approved "
                         "standardNCADSA100v4Family Cores quota. Additional details - Deployment Model: Resource "
                         "Manager, Location: eastus, Current Limit: 0, Current Usage: 0, Additional Required: 24")
    line = _one_error_line(_cli("launch", "--account", "lab", "--type", A100, "--zone", "2",
                                "--ssh-from", "198.51.100.7/32"), "OperationNotAllowed")
    assert "vCPU quota" in line and "Usage + quotas" in line
    line = _one_error_line(_cli("launch", "--account", "lab", "--type", A100, "--zone", "2", "--spot",
                                "--max-price", "0.3", "--ssh-from", "198.51.100.7/32"),
                           "SpotPriceGreaterThanProvidedMaxPrice")
    assert "--max-price" in line
    line = _one_error_line(_cli("launch", "--account", "lab", "--type", H100, "--zone", "1",
                                "--ssh-from", "198.51.100.7/32"), "SkuNotAvailable")
    assert "az vm list-skus" in line
    # a zone the student chose is kept: its stock-out ends the launch, and says how to let LabGPU try the others
    line = _one_error_line(_cli("launch", "--account", "lab", "--type", A100, "--zone", "1",
                                "--ssh-from", "198.51.100.7/32"), "ZonalAllocationFailed")
    assert "kept to 1 because you chose it" in line
    assert [b["zones"] for b in (c.body for c in azure_peer.puts("virtualMachines"))][-1] == ["1"]
    # each refused attempt took its NIC and public IP (which would bill) with it
    for kind in ("Microsoft.Compute/virtualMachines", "Microsoft.Network/networkInterfaces",
                 "Microsoft.Network/publicIPAddresses"):
        assert azure_peer.of_type(kind) == [], kind

    _ok("accounts", "rm", "lab")
    files = [p for p in labgpu_home.rglob("*") if p.is_file()]
    logs = [p for p in files if p.suffix == ".log"]
    assert logs
    # the SDK's per-request INFO lines (URL and headers of every call) stay out of LabGPU's log
    assert not any("http_logging_policy" in p.read_text(errors="replace") for p in logs)
    for p in files:
        data = p.read_bytes()
        assert TEST_CLIENT_SECRET.encode() not in data, f"the client secret found in {p}"
        assert b"Bearer lab." not in data, f"a bearer token found in {p}"


def test_import_from_the_azure_environment_variables(secret_service: Any, azure_peer: AzurePeer,
                                                     labgpu_home: Path) -> None:
    """`labgpu accounts import azure` reads the service principal azure-identity's EnvironmentCredential and the
    Azure CLI read (AZURE_TENANT_ID, AZURE_CLIENT_ID, AZURE_CLIENT_SECRET, AZURE_SUBSCRIPTION_ID); the secret goes
    to the keyring, the tenant and subscription are the account's settings, and the account signs in."""
    env = dict(os.environ, AZURE_TENANT_ID=TEST_TENANT, AZURE_CLIENT_ID=TEST_CLIENT_ID,
               AZURE_CLIENT_SECRET=TEST_CLIENT_SECRET, AZURE_SUBSCRIPTION_ID=TEST_SUBSCRIPTION)
    r = _cli("accounts", "import", "azure", "--name", "lab-env", env=env)
    assert r.returncode == 0, r.stderr
    assert "added lab-env" in r.stdout
    [acc] = json.loads(_ok("accounts", "ls", "--json").stdout)
    assert (acc["name"], acc["provider"], acc["region"]) == ("lab-env", "azure", "eastus")
    # the imported account reaches the peer once it is pointed there (the endpoint is not an env variable)
    from app.cloud.launch import CloudService

    svc = CloudService()
    account = svc.accounts.get("lab-env")
    assert (account.extra["tenant_id"], account.extra["subscription_id"]) == (TEST_TENANT, TEST_SUBSCRIPTION)
    for path in labgpu_home.rglob("*"):
        if path.is_file():
            assert TEST_CLIENT_SECRET.encode() not in path.read_bytes(), path


def test_launch_killed_after_the_request_is_found_after_restart(secret_service: Any, azure_peer: AzurePeer,
                                                                azure_prices_server: Any, labgpu_home: Path) -> None:
    """kill -9 between "ARM accepted the VM" and "LabGPU recorded it": the next `labgpu ls` finds the VM by its
    tags, and retrying with the same client token PUTs nothing new."""
    azure_peer.lro_polls = 0
    _add(azure_peer, azure_prices_server)
    hold = azure_peer.hold_next_answer("PUT virtualMachines")
    p = subprocess.Popen(
        [sys.executable, "-m", "app", "launch", "--account", "lab", "--type", A100, "--zone", "1",
         "--ssh-from", "198.51.100.7/32", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ), cwd=ROOT,
    )
    try:
        reached = hold.reached.wait(60)
    finally:
        p.kill()
        p.wait(10)
        hold.release()
        assert p.stdout is not None and p.stderr is not None
        err = p.stderr.read()
        p.stdout.close()
        p.stderr.close()
    assert reached, err
    azure_peer.finish_operations()  # Azure finishes the create whether or not anyone polls it
    [vm] = azure_peer.of_type("Microsoft.Compute/virtualMachines")
    assert json.loads(_ok("ls", "--offline", "--json").stdout) == []
    [row] = json.loads(_ok("ls", "--json").stdout)
    assert (row["id"], row["provider"], row["client_token"]) == (vm["name"], "azure", vm["tags"]["labgpu-launch"])
    again = json.loads(_ok("launch", "--account", "lab", "--type", A100, "--zone", "1", "--ssh-from",
                           "198.51.100.7/32", "--client-token", row["client_token"], "--json").stdout)
    assert again["id"] == vm["name"]
    assert len(azure_peer.puts("virtualMachines")) == 1
