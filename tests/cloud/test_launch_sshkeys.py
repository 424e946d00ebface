"""LabGPU's own keys (ed25519, RSA 4096): encrypted, 0600, passphrase only in the keyring, made once;
the type each cloud's key import takes (its spec); or the user's own key, checked before any cloud call."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import keyring
import pytest
from keyring.backends import fail

from app.cloud import netaddr, sshkeys
from app.cloud.launch import CloudService
from app.cloud.launch_plan import LaunchOptions
from app.core import providers
from app.core.accounts import Account, Credentials
from app.core.errors import InputError
from app.core.paths import default_paths
from app.core.secrets import SecretsUnavailableError
from tests.fixtures import clirun
from tests.fixtures.tencent_cvm_server import TEST_SECRET_ID, TEST_SECRET_KEY

SSH_FROM = "198.51.100.7/32"


def test_default_key_created_once_encrypted_0600(secret_service, labgpu_home):
    paths = default_paths()
    key = sshkeys.ensure_default_key(paths)
    assert key.private_path.stat().st_mode & 0o777 == 0o600
    assert key.public_key.startswith("ssh-ed25519 ")
    assert sshkeys.ensure_default_key(paths) == key  # reused, not replaced
    passphrase = sshkeys.key_passphrase(key)
    assert passphrase
    assert passphrase.encode() not in key.private_path.read_bytes()
    # ssh-keygen agrees: wrong passphrase refused, the right one gives the same public key and fingerprint.
    bad = subprocess.run(
        ["ssh-keygen", "-y", "-P", "wrong", "-f", str(key.private_path)], capture_output=True
    )
    assert bad.returncode != 0
    good = subprocess.run(
        ["ssh-keygen", "-y", "-P", passphrase, "-f", str(key.private_path)], capture_output=True, text=True
    )
    assert good.stdout.split()[:2] == key.public_key.split()[:2]
    fp = subprocess.run(
        ["ssh-keygen", "-l", "-f", str(key.private_path) + ".pub"], capture_output=True, text=True
    )
    assert key.fingerprint in fp.stdout
    assert key.cloud_name.startswith("labgpu-")
    assert len(key.cloud_name) == 23


def test_no_keyring_no_key_file(labgpu_home):
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    try:
        with pytest.raises(SecretsUnavailableError):
            sshkeys.ensure_default_key(default_paths())
    finally:
        keyring.set_keyring(previous)
    assert not list(sshkeys.key_dir(default_paths()).glob("labgpu_ed25519*"))


def test_existing_user_key(tmp_path):
    k = tmp_path / "id_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "me@lab", "-f", str(k)], check=True)
    pub = (tmp_path / "id_ed25519.pub").read_text().strip()
    assert sshkeys.load_key(k).public_key == pub
    (tmp_path / "id_ed25519.pub").unlink()  # derived from the unencrypted private key
    assert sshkeys.load_key(k).public_key.split()[:2] == pub.split()[:2]
    (tmp_path / "junk").write_text("hello")
    with pytest.raises(InputError):
        sshkeys.load_key(tmp_path / "junk")


def test_cidr_rules():
    assert netaddr.validate_cidr("203.0.113.7") == "203.0.113.7/32"
    assert netaddr.validate_cidr(" 10.8.0.1/24 ") == "10.8.0.0/24"
    assert netaddr.validate_cidr("2001:db8::1/64") == "2001:db8::/64"
    for broad in ("0.0.0.0/0", "0.0.0.0/1", "::/0", "2000::/3"):
        with pytest.raises(InputError) as err:
            netaddr.validate_cidr(broad)
        assert err.value.code == "CidrTooBroad"


def test_public_address_lookup(public_ip_server, monkeypatch):
    monkeypatch.setenv("LABGPU_PUBLIC_IP_URLS", f"http://127.0.0.1:9/,{public_ip_server}")
    assert netaddr.public_address(timeout=30) == "203.0.113.9"  # first service down: the next one answers
    assert netaddr.ssh_source_cidr() == "203.0.113.9/32"


# -- one key per type, the type each cloud imports -------------------------------------------------


def _keygen(path, kind: str, bits: str = "") -> None:
    argv = ["ssh-keygen", "-q", "-t", kind, "-N", "", "-C", "me@lab", "-f", str(path)]
    subprocess.run([*argv, *(["-b", bits] if bits else [])], check=True)


def test_rsa_key_is_4096_bit_encrypted_0600_and_made_once(secret_service, labgpu_home, monkeypatch):
    monkeypatch.setitem(sshkeys._GENERATORS, "rsa", sshkeys._new_rsa_key)  # a real one, not the session's
    paths = default_paths()
    ed = sshkeys.ensure_default_key(paths)
    key = sshkeys.ensure_default_key(paths, key_type="rsa")
    assert key.private_path.name == "labgpu_rsa"
    assert key.public_key.startswith("ssh-rsa ") and key.key_type == "rsa"
    assert key.private_path.stat().st_mode & 0o777 == 0o600
    assert sshkeys.ensure_default_key(paths, key_type="rsa") == key  # reused, not replaced
    assert sshkeys.ensure_default_key(paths) == ed  # the ed25519 key is untouched beside it
    passphrase = sshkeys.key_passphrase(key)
    assert passphrase and passphrase != sshkeys.key_passphrase(ed)
    assert b"BEGIN OPENSSH PRIVATE KEY" in key.private_path.read_bytes()
    bad = subprocess.run(["ssh-keygen", "-y", "-P", "wrong", "-f", str(key.private_path)], capture_output=True)
    assert bad.returncode != 0  # encrypted
    good = subprocess.run(["ssh-keygen", "-y", "-P", passphrase, "-f", str(key.private_path)],
                          capture_output=True, text=True)
    assert good.stdout.split()[:2] == key.public_key.split()[:2]
    listed = subprocess.run(["ssh-keygen", "-l", "-f", f"{key.private_path}.pub"], capture_output=True, text=True)
    assert listed.stdout.split()[0] == "4096" and key.fingerprint in listed.stdout and "(RSA)" in listed.stdout


def test_no_keyring_no_rsa_key_file(labgpu_home):
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    try:
        with pytest.raises(SecretsUnavailableError):
            sshkeys.ensure_default_key(default_paths(), key_type="rsa")
    finally:
        keyring.set_keyring(previous)
    assert not list(sshkeys.key_dir(default_paths()).glob("labgpu_rsa*"))  # (only the lock file)


def test_launches_at_once_make_one_key(secret_service, labgpu_home, monkeypatch):
    """Threads of one process, and two LabGPU processes, asking at the same moment: one RSA key, one
    passphrase that opens it."""
    monkeypatch.setitem(sshkeys._GENERATORS, "rsa", sshkeys._new_rsa_key)
    paths = default_paths()
    start = threading.Barrier(4)
    got: list[str] = []

    def ask() -> None:
        start.wait(timeout=30)
        got.append(sshkeys.ensure_default_key(paths, key_type="rsa").fingerprint)

    code = ("import sys; from app.cloud import sshkeys; from app.core.paths import default_paths; "
            "sys.stdin.readline(); print(sshkeys.ensure_default_key(default_paths(), key_type='rsa').fingerprint)")
    procs = [subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, cwd=str(Path(__file__).resolve().parents[2])) for _ in range(2)]
    threads = [threading.Thread(target=ask) for _ in range(4)]
    for t in threads:
        t.start()
    for p in procs:  # both processes are started and waiting: let them go together
        assert p.stdin is not None
        p.stdin.write("go\n")
        p.stdin.flush()
    outs = [p.communicate(timeout=120)[0].strip() for p in procs]
    for t in threads:
        t.join(60)
    assert all(p.returncode == 0 for p in procs)
    key = sshkeys.ensure_default_key(paths, key_type="rsa")
    assert set(got) | set(outs) == {key.fingerprint}
    assert sorted(p.name for p in sshkeys.key_dir(paths).iterdir() if "rsa" in p.name) == [
        ".labgpu_rsa.lock", "labgpu_rsa", "labgpu_rsa.pub"]
    opened = subprocess.run(["ssh-keygen", "-y", "-P", sshkeys.key_passphrase(key) or "", "-f",
                             str(key.private_path)], capture_output=True, text=True)
    assert opened.stdout.split()[:2] == key.public_key.split()[:2]


@pytest.mark.parametrize(("provider", "types", "own"), [
    ("aws", ("ed25519", "rsa"), "labgpu_ed25519"),  # existing users keep theirs on AWS
    ("tencent", ("rsa",), "labgpu_rsa"),
    ("alibaba", ("rsa", "ecdsa", "dsa"), "labgpu_rsa"),
])
def test_each_cloud_gets_labgpus_key_of_a_type_it_imports(secret_service, labgpu_home, provider, types, own):
    assert providers.spec(provider).ssh_key_types == types
    key = sshkeys.key_for_launch(default_paths(), provider)
    assert key.private_path.name == own and key.own
    assert key.key_type == types[0]


@pytest.mark.parametrize(("provider", "kind", "bits", "accepted"), [
    ("aws", "ed25519", "", True),
    ("aws", "rsa", "2048", True),
    ("aws", "ecdsa", "", False),
    ("tencent", "rsa", "2048", True),
    ("tencent", "ed25519", "", False),
    ("tencent", "ecdsa", "", False),
    ("alibaba", "ecdsa", "", True),
    ("alibaba", "ed25519", "", False),
])
def test_a_chosen_key_is_checked_against_the_clouds_key_types(tmp_path, provider, kind, bits, accepted):
    path = tmp_path / f"id_{kind}"
    _keygen(path, kind, bits)
    if accepted:
        key = sshkeys.key_for_launch(default_paths(), provider, str(path))
        assert (key.private_path, key.key_type, key.own) == (path, kind, False)
        return
    with pytest.raises(InputError) as err:
        sshkeys.key_for_launch(default_paths(), provider, str(path))
    assert err.value.code == "KeyTypeNotAccepted"
    name = providers.display_name(provider)
    assert err.value.text().startswith(f"{name} imports ")
    assert str(path) in err.value.text()
    assert "leave the SSH key field empty to use LabGPU's own" in err.value.hint()


def test_tencent_refuses_a_chosen_ed25519_key_before_any_cloud_call(secret_service, tencent_server, tmp_path):
    svc = CloudService()
    svc.accounts.add(
        Account("lab-tc", "tencent", "ap-guangzhou", tencent_server.endpoint, {"protocol": "http"}),
        Credentials(TEST_SECRET_ID, TEST_SECRET_KEY),
    )
    path = tmp_path / "id_ed25519"
    _keygen(path, "ed25519")
    try:
        with pytest.raises(InputError) as err:
            svc.launch(LaunchOptions(account="lab-tc", instance_type="GN7.2XLARGE32", ssh_from=SSH_FROM,
                                     ssh_key_path=str(path)))
        assert err.value.text() == (f"Tencent Cloud imports RSA keys only, and {path} is a key of type ed25519.")
        assert err.value.hint() == ("Choose a key of type RSA, or leave the SSH key field empty to use "
                                    "LabGPU's own RSA key.")
        assert tencent_server.actions() == []  # nothing reached the cloud
        assert svc.pending.open() == []  # and no launch was recorded as sent
    finally:
        svc.close()


def test_a_default_tencent_launch_registers_labgpus_rsa_key(secret_service, tencent_server):
    svc = CloudService()
    svc.accounts.add(
        Account("lab-tc", "tencent", "ap-guangzhou", tencent_server.endpoint, {"protocol": "http"}),
        Credentials(TEST_SECRET_ID, TEST_SECRET_KEY),
    )
    steps: list[tuple[str, str]] = []
    try:
        res = svc.launch(LaunchOptions(account="lab-tc", instance_type="GN7.2XLARGE32", ssh_from=SSH_FROM),
                         progress=lambda step, msg: steps.append((step, msg)))
    finally:
        svc.close()
    rsa = sshkeys.own_key_path(default_paths(), "rsa")
    [imported] = tencent_server.requests_of("ImportKeyPair")
    assert imported["PublicKey"].split()[:2] == rsa.with_name("labgpu_rsa.pub").read_text().split()[:2]
    assert (res.ssh_key_path, res.ssh_key_type, res.ssh_key_own) == (str(rsa), "rsa", True)
    assert not sshkeys.own_key_path(default_paths(), "ed25519").exists()  # no key Tencent cannot take
    assert ("key", f"SSH key for this launch: {rsa} (RSA, {res.ssh_key_fingerprint}).") in steps


def test_an_instance_without_the_key_path_tag_finds_labgpus_key_of_its_key_pair(secret_service, labgpu_home):
    """The key-path tag can be missing (a Tencent tag value is at most 255 characters; launches before
    the tag): the host and the SSH command then use LabGPU's own key whose key pair the instance has."""
    from app.cloud.base import Instance
    from app.core.hosts import instance_hosts, own_key_file
    from app.core.instances import Ledger
    from app.core.store import Store

    paths = default_paths()
    rsa = sshkeys.ensure_default_key(paths, key_type="rsa")
    ed = sshkeys.ensure_default_key(paths)
    assert own_key_file(paths, rsa.cloud_name) == str(rsa.private_path)
    assert own_key_file(paths, ed.cloud_name) == str(ed.private_path)
    assert own_key_file(paths, "labgpu-0123456789abcdef") == ""  # a key pair of the user's own key
    store = Store(paths=paths)
    Ledger(store)
    store.migrate()
    for iid, key_name in (("ins-rsa00001", rsa.cloud_name), ("ins-other001", "labgpu-0123456789abcdef")):
        Ledger(store).observe(Instance(
            id=iid, account="lab-tc", provider="tencent", region="ap-guangzhou", zone="ap-guangzhou-3",
            instance_type="GN7.2XLARGE32", state="running", spot=False, public_ip="203.0.113.20",
            key_name=key_name, tags={"labgpu-launch": "lg-x"}))
    hosts = {h.instance_id: h for h in instance_hosts(paths=paths, store=store)}
    assert (hosts["ins-rsa00001"].key_path, hosts["ins-rsa00001"].auth) == (str(rsa.private_path), "key")
    assert (hosts["ins-other001"].key_path, hosts["ins-other001"].auth) == ("", "auto")
    svc = CloudService(paths)
    try:
        assert svc.ssh_command("ins-rsa00001") == f"ssh -i {rsa.private_path} ubuntu@203.0.113.20"
        assert svc.ssh_command("ins-other001") == "ssh ubuntu@203.0.113.20"
    finally:
        svc.close()
    store.close()


def test_labgpu_launch_prints_the_key_it_registered_and_refuses_one_the_cloud_does_not_import(
    secret_service, tencent_server, tmp_path
):
    import os

    svc = CloudService()
    svc.accounts.add(
        Account("lab-tc", "tencent", "ap-guangzhou", tencent_server.endpoint, {"protocol": "http"}),
        Credentials(TEST_SECRET_ID, TEST_SECRET_KEY),
    )
    svc.close()
    root = Path(__file__).resolve().parents[2]

    def cli(*args: str) -> subprocess.CompletedProcess:
        return clirun.run([sys.executable, "-m", "app", "launch", "--account", "lab-tc", "--type",
                               "GN7.2XLARGE32", "--ssh-from", SSH_FROM, "--no-wait", *args],
                              capture_output=True, text=True, cwd=root, env=dict(os.environ), timeout=120)

    ed = tmp_path / "id_ed25519"
    _keygen(ed, "ed25519")
    refused = cli("--ssh-key", str(ed))
    assert refused.returncode != 0
    [line] = [ln for ln in refused.stderr.splitlines() if ln.strip()]
    assert line.startswith("labgpu: [KeyTypeNotAccepted] Tencent Cloud imports RSA keys only")
    assert "leave the SSH key field empty to use LabGPU's own RSA key" in line
    assert tencent_server.actions() == []
    ok = cli()
    assert ok.returncode == 0, ok.stderr
    rsa = sshkeys.own_key_path(default_paths(), "rsa")
    fp = sshkeys.fingerprint(rsa.with_name("labgpu_rsa.pub").read_text())
    assert f"SSH key registered with Tencent Cloud: {rsa} (RSA, {fp}, LabGPU's own key)." in ok.stdout.splitlines()
