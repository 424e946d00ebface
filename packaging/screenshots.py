"""The user guide's screenshots, made of the app's own window over a sample world.

    python packaging/screenshots.py [--lang zh_CN en] [--pages offers advisor …] [--all DIR] [--no-guide]

builds a sample world first — three cloud accounts (AWS, Tencent Cloud, Alibaba Cloud) whose keys sit
in a real Secret Service keyring (gnome-keyring in a private D-Bus session), tested with their clouds; a
running spot instance on Tencent Cloud with a guard and an on-demand one on Alibaba Cloud (launched through
LabGPU's own launch path against the local stand-ins the test suite uses); a lab server (OpenSSH's sshd,
gpu.cs.example.edu) connected on the Hosts page, running a training job started through LabGPU; two sync
pairs with a history of runs and a preview; a VPN profile; a notification channel; and a GPU monitor
watching two hosts with an hour of samples — then draws every page of the main window in each language
(a process per language), the advisor's result and the launch dialog:

- docs/images/<lang>/<page>.png at 1280×800 (the guide's images; ``--no-guide`` skips them) and
  docs/images/<lang>/first-run-<step>.png for the three steps of the welcome;
- with ``--all DIR``: DIR/<lang>/<page>-<W>x<H>.png at 1280×800 and 1024×640 (the review set), and
  DIR/<lang>/texts-<W>x<H>.json (the text of every visible widget of each shot) and cut-<W>x<H>.json
  (table cells whose text does not fit its column, or whose column lies past the edge), for checks.

Your own accounts, hosts, settings and keyring never appear: on Linux the world lives in /home/student
inside a private mount and network namespace (``unshare -m -n``; /home, /etc/hosts, /etc/passwd and
/etc/shadow are replaced only inside it), so the Settings page's folders read as a student's would; where
namespaces are not allowed it lives in a temporary folder without the lab server (then the Settings page
shows that folder, and the job is a record without its log). Needs the test command's system packages
(gnome-keyring, dbus, openssh-server, tmux or setsid) and the dev environment (moto for AWS).
PNGs are stored with a palette of their 256 most used colours (a fraction of the size, no visible loss).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "images"
LANGUAGES = ("en", "zh_CN")
GUIDE_SIZE = (1280, 800)
SIZES = ((1280, 800), (1024, 640))
FIRST_RUN_STEPS = (1, 2, 3)
STUDENT = "student"
SSH_FROM = "198.51.100.7/32"  # the student's address (a documentation range)
LAB_HOST = "lab-a100"
LAB_ADDRESS = "gpu.cs.example.edu"
LAB_PORT = 2222
TRAIN_PY = """import math, time
step = 18240
while step < 40000:
    loss = 1.1 + 0.4 * math.exp(-step / 9000) + 0.04 * math.sin(step * 0.77)
    print(f"epoch {step // 1000 + 1}/40  step {step}/40000  loss {loss:.3f}  lr 3.2e-04", flush=True)
    step += 2
    time.sleep(1)
"""
FOLLOWING_TASKS = {"jobs-log"}  # tasks that run as long as their page: never waited for
XDG_VARS = ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "LABGPU_HOME")


def page_ids() -> list[str]:
    """Every page of the main window, in navigation order (read without building the window)."""
    sys.path.insert(0, str(ROOT))
    from app.ui.main_window import available_pages

    return [spec[0] for spec in available_pages()]


# -- the private home -----------------------------------------------------------------------------

def namespace_prefix() -> list[str]:
    """``unshare`` arguments for a private mount namespace, or [] where none can be made here."""
    if not sys.platform.startswith("linux") or not shutil.which("unshare"):
        return []
    cmd = ["unshare", "-m", "-n"] if os.geteuid() == 0 else ["unshare", "-r", "-m", "-n"]
    ok = subprocess.run([*cmd, "true"], capture_output=True, timeout=30).returncode == 0
    return cmd if ok else []


def _mount(*args: str) -> None:
    subprocess.run(["mount", *args], check=True, capture_output=True, timeout=30)


def private_home(in_namespace: bool, scratch: Path) -> Path:
    """An empty /home/student: in the namespace a tmpfs over /home with the real entries bound back
    (a checkout or venv under /home stays reachable), else a folder in the scratch folder."""
    if not in_namespace:
        home = scratch / "home" / STUDENT
        home.mkdir(parents=True)
        return home
    if os.readlink("/proc/self/ns/mnt") == os.readlink(f"/proc/{os.getppid()}/ns/mnt"):
        raise SystemExit("screenshots: not in a private mount namespace; nothing mounted")
    _mount("--make-rprivate", "/")
    old = scratch / "oldhome"
    old.mkdir()
    _mount("--rbind", "/home", str(old))
    _mount("-t", "tmpfs", "-o", "mode=755", "tmpfs", "/home")
    for entry in sorted(os.listdir(old)):
        if (old / entry).is_dir():
            (Path("/home") / entry).mkdir()
            _mount("--rbind", str(old / entry), f"/home/{entry}")
    name = STUDENT if not (Path("/home") / STUDENT).exists() else f"{STUDENT}-{os.getpid()}"
    home = Path("/home") / name
    home.mkdir(mode=0o700)
    # This namespace's own network: the lab server's name resolves to its loopback, and the student is a
    # user the lab server's sshd knows (another name of this process's user, with that home).
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True, capture_output=True, timeout=30)
    # A copy of the whole of /etc over /etc, not of single files: a file bind-mounted over /etc/passwd is
    # dropped from this namespace when anything outside renames a new passwd into place (useradd, usermod:
    # Linux detaches a mount whose file is replaced), and the lab's sshd then says "Invalid user student".
    etc = scratch / "etc"
    subprocess.run(["cp", "-a", "/etc", str(etc)], check=True, capture_output=True, timeout=120)
    for name_, line in (("hosts", f"127.0.0.1 {LAB_ADDRESS}\n"),
                        ("passwd", f"{name}:x:{os.geteuid()}:{os.getegid()}:Student:{home}:/bin/sh\n"),
                        ("shadow", f"{name}:*:20000:0:99999:7:::\n")):
        path = etc / name_
        path.write_text((path.read_text() if path.exists() else "") + line)
        path.chmod(0o644 if name_ != "shadow" else 0o600)
    _mount("--bind", str(etc), "/etc")
    return home


class LabServer:
    """The lab's GPU server: OpenSSH's sshd on 127.0.0.1:2222 of the private network namespace, reached as
    student@gpu.cs.example.edu with a key in ~/.ssh; its host key trusted as after a first connection."""

    def __init__(self, home: Path, scratch: Path) -> None:
        self.home, self.scratch = home, scratch
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        import socket

        ssh = self.home / ".ssh"
        ssh.mkdir(mode=0o700, exist_ok=True)
        host_key = self.scratch / "ssh_host_ed25519_key"
        for path, comment in ((host_key, "lab"), (ssh / "id_ed25519", f"{STUDENT}@laptop")):
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", str(path)],
                           check=True, capture_output=True, timeout=60)
        (ssh / "authorized_keys").write_text((ssh / "id_ed25519.pub").read_text())
        config = self.scratch / "sshd_config"
        config.write_text("\n".join([
            "ListenAddress 127.0.0.1", f"Port {LAB_PORT}", f"HostKey {host_key}", "PidFile none", "UsePAM no",
            "StrictModes no", "PermitRootLogin yes", "PasswordAuthentication no", "KbdInteractiveAuthentication no",
            "PrintMotd no", "UseDNS no", "Subsystem sftp internal-sftp", "LogLevel VERBOSE", ""]))
        Path("/run/sshd").mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen(["/usr/sbin/sshd", "-D", "-e", "-f", str(config)], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=open(self.scratch / "sshd.log", "ab"))  # noqa: SIM115
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", LAB_PORT), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise RuntimeError("the lab server's sshd did not start: "
                                       + (self.scratch / "sshd.log").read_text()[-500:]) from None
                time.sleep(0.05)

    def trust(self, paths: Any) -> str:
        """The host key in LabGPU's known hosts (as after the first connection); its fingerprint."""
        import paramiko

        from app.remote.hostkeys import KnownHosts, sha256_fingerprint

        key = paramiko.Ed25519Key.from_private_key_file(str(self.scratch / "ssh_host_ed25519_key"))
        KnownHosts(paths).add(LAB_ADDRESS, LAB_PORT, key)
        return sha256_fingerprint(key)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


# -- the sample world ---------------------------------------------------------------------------

def fixture(name: str) -> Any:
    """A module of the test suite's peers (tests/fixtures/NAME.py); typed Any: the tests are not strict."""
    import importlib

    return importlib.import_module(f"tests.fixtures.{name}")


class Peers:
    """The clouds of the sample world: the test suite's local Tencent CVM and Alibaba ECS servers and
    moto's EC2 (each a real HTTP server on 127.0.0.1, checking the signatures LabGPU sends)."""

    def __init__(self) -> None:
        from moto.server import ThreadedMotoServer

        self.tencent = fixture("tencent_cvm_server").TencentCvmServer().start()
        self.tencent.pending_seconds = 0.0
        self.tencent.operation_seconds = 0.0
        ids = random.Random(26)
        self.tencent._ids = iter(lambda: ids.getrandbits(32), None)  # ins-3f9a2c71, not ins-00000001
        self.alibaba = fixture("alibaba_ecs_server").AlibabaEcsServer().start()
        self.moto = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
        self.moto.start()
        host, port = self.moto.get_host_and_port()
        self.aws_url = f"http://{host}:{port}"
        import boto3  # the student's IAM user and its key: the identity Test connection names

        iam = boto3.client("iam", endpoint_url=self.aws_url, region_name="us-east-1", aws_access_key_id="admin",
                           aws_secret_access_key="admin")  # noqa: S106 - the stand-in's own login
        iam.create_user(UserName=STUDENT)
        key = iam.create_access_key(UserName=STUDENT)["AccessKey"]
        self.aws_key = (key["AccessKeyId"], key["SecretAccessKey"])

    def stop(self) -> None:
        self.moto.stop()
        self.alibaba.stop()
        self.tencent.stop()


def build_world(peers: Peers, home: Path, lab: LabServer | None) -> dict[str, str]:
    """Accounts, instances, a host, sync pairs with history and a job, in the default paths of HOME;
    returns the names the shots use (the instances' host names, the job)."""
    import app.cloud.launch as launch
    from app.cloud.launch import CloudService
    from app.cloud.launch_plan import LaunchOptions
    from app.core.accounts import Account, Credentials
    from app.core.guards import GuardConfig
    from app.core.hosts import HostRecord, HostStore
    from app.core.paths import default_paths
    from app.core.store import Store
    from app.core.syncmodel import DOWN, SyncResult
    from app.core.syncpairs import SyncPair, SyncStore
    from app.usecases.guards import set_guard
    from app.wiring import install
    install()
    launch.POLL_S = 0.05
    paths = default_paths().ensure()
    svc = CloudService()
    try:
        tc, ali = fixture("tencent_cvm_server"), fixture("alibaba_ecs_server")
        svc.accounts.add(Account("lab-tencent", "tencent", "ap-guangzhou", peers.tencent.endpoint),
                         Credentials(tc.TEST_SECRET_ID, tc.TEST_SECRET_KEY))
        svc.accounts.add(Account("lab-aliyun", "alibaba", "cn-hangzhou", f"http://{peers.alibaba.endpoint}"),
                         Credentials(ali.TEST_ACCESS_KEY_ID, ali.TEST_ACCESS_KEY_SECRET))
        svc.accounts.add(Account("lab-aws", "aws", "us-east-1", peers.aws_url),
                         Credentials(*peers.aws_key))
        guard = GuardConfig(idle_below_pct=30.0, idle_minutes=10.0, on_idle="stop", max_hours=8.0)
        t4 = svc.launch(LaunchOptions(account="lab-tencent", instance_type="GN7.2XLARGE32", spot=True,
                                      ssh_from=SSH_FROM, name="thesis-t4", guard=guard)).entry
        a10 = svc.launch(LaunchOptions(account="lab-aliyun", instance_type="ecs.gn7i-c8g1.2xlarge",
                                       ssh_from=SSH_FROM, name="finetune-a10")).entry
    finally:
        svc.close()
    store = Store(paths=paths)
    age_instances(peers, store, {t4.id: 2 * 3600 + 41 * 60, a10.id: 47 * 60})
    set_guard(paths, store, t4.id, guard)
    fingerprint = lab.trust(paths) if lab is not None else ""
    HostStore(store).add(HostRecord(LAB_HOST, LAB_ADDRESS, user=STUDENT, port=LAB_PORT, fingerprint=fingerprint,
                                    key_path="~/.ssh/id_ed25519" if lab is not None else ""))
    for folder in ("thesis/code", "thesis/checkpoints"):
        (home / folder).mkdir(parents=True, exist_ok=True)
    write_code(home)
    sync = SyncStore(store)
    code = sync.save(SyncPair(LAB_HOST, "~/thesis/code", "~/code/thesis", excludes=["*.pyc", "wandb/"],
                              gitignore=True))
    ckpt = sync.save(SyncPair(LAB_HOST, "~/thesis/checkpoints", "~/thesis/runs/checkpoints", direction=DOWN,
                              verify=True))
    now = time.time()
    history = [  # (pair, hours ago, seconds, files, bytes, skipped, result)
        (code, 50.0, 4.1, 212, 38_400_000, 0, "ok"),
        (code, 26.5, 1.2, 9, 412_000, 203, "ok"),
        (ckpt, 25.0, 48.0, 6, 2_850_000_000, 0, "ok"),
        (code, 3.2, 0.9, 3, 96_000, 209, "ok"),
        (ckpt, 0.6, 21.5, 2, 1_420_000_000, 6, "ok"),
    ]
    for pair, hours, seconds, files, size, skipped, result in history:
        sync.record_run(host=pair.host, local_path=pair.local_path, remote_path=pair.remote_path,
                        direction=pair.direction, started_at=now - hours * 3600, result=result, pair_id=pair.id,
                        outcome=SyncResult(pair.direction, files=files, bytes=size, skipped=skipped,
                                           seconds=seconds))
    try:
        job = start_job(paths, store) if lab is not None else add_job(store, now)
    except Exception as exc:  # what the lab server logged is what tells why (a refused login seen once)
        log = lab.scratch / "sshd.log" if lab is not None else None
        said = log.read_text(errors="replace")[-3000:] if log is not None and log.exists() else ""
        raise RuntimeError(f"the sample job did not start: {exc}\nthe lab server's sshd logged:\n{said}") from exc
    add_vpn(paths, home)
    from app.usecases.hosts import all_hosts

    names = {e.name for e in all_hosts(paths)}
    instance_host = next((n for n in names if n not in (LAB_HOST,) and (t4.id in n or "thesis" in n)), t4.id)
    return {"t4": t4.id, "a10": a10.id, "instance_host": instance_host, "job": job}


CODE = {
    "train.py": TRAIN_PY,
    "data.py": "from torchvision import datasets, transforms\n\nMEAN = (0.485, 0.456, 0.406)\n",
    "README.md": "# Thesis: ResNet-50 on an ImageNet subset\n",
    "configs/base.yaml": "epochs: 40\nbatch_size: 64\nlr: 3.2e-4\n",
    "model.py": "import torchvision\n\n\ndef build():\n    return torchvision.models.resnet50()\n",
}


def write_code(home: Path) -> None:
    """The student's code (~/thesis/code) and the copy the lab server got last time (~/code/thesis): since
    then model.py was changed and utils/metrics.py added, so a preview has two files to send."""
    local, remote = home / "thesis" / "code", home / "code" / "thesis"
    for name, text in CODE.items():
        for root in (local, remote):
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)
            os.utime(root / name, (time.time() - 86_400, time.time() - 86_400))
    (local / "model.py").write_text(CODE["model.py"] + "\n\ndef freeze_backbone(model):\n    ...\n")
    (local / "utils").mkdir()
    (local / "utils" / "metrics.py").write_text("def top5(logits, labels):\n    ...\n")
    (local / "__pycache__").mkdir()
    (local / "__pycache__" / "model.cpython-311.pyc").write_bytes(b"\0" * 2048)


def age_instances(peers: Peers, store: Any, ages: dict[str, float]) -> None:
    """Make the instances launched a moment ago look as if they were launched ``ages`` seconds ago, on
    the clouds (their creation time) and in the ledger (first seen, launched, running since)."""
    from datetime import datetime, timedelta

    for iid, age in ages.items():
        if iid in peers.tencent.instances:
            peers.tencent.instances[iid].created -= age
        if iid in peers.alibaba.instances:
            peers.alibaba.instances[iid].created -= timedelta(seconds=age)

        def back(text: str | None, age: float = age) -> str | None:
            return None if not text else (datetime.fromisoformat(text) - timedelta(seconds=age)).isoformat()

        with store.transaction() as c:
            ledger = c.execute("SELECT launched_at, first_seen FROM instance_ledger WHERE id=?", (iid,)).fetchall()
            for row in ledger:
                c.execute("UPDATE instance_ledger SET launched_at=?, first_seen=? WHERE id=?",
                          (back(row[0]), back(row[1]), iid))
            for row in c.execute("SELECT rowid, started_at FROM instance_segments WHERE id=?", (iid,)).fetchall():
                c.execute("UPDATE instance_segments SET started_at=? WHERE rowid=?", (back(row[1]), row[0]))


OVPN = """client
dev tun
proto udp
remote vpn.cs.example.edu 1194
nobind
persist-key
persist-tun
remote-cert-tls server
auth-user-pass
<ca>
{ca}</ca>
"""


def add_vpn(paths: Any, home: Path) -> None:
    """The lab's OpenVPN profile, imported from ~/Downloads with the student's login (in the keyring)."""
    from app.remote.vpn.store import VpnStore

    key = subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                          "-nodes", "-keyout", "/dev/null", "-subj", "/CN=Lab VPN CA", "-days", "3650"],
                         capture_output=True, text=True, check=True, timeout=60).stdout
    ovpn = home / "Downloads" / "cs-lab.ovpn"
    ovpn.parent.mkdir(exist_ok=True)
    ovpn.write_text(OVPN.format(ca=key))
    VpnStore(paths).add_profile("cs-lab", ovpn, username=STUDENT, password="correct horse battery staple")  # noqa: S106 - sample


def start_job(paths: Any, store: Any) -> str:
    """The training job, started on the lab server as the Jobs page starts one (in tmux or setsid)."""
    from app.core.jobs import JobSpec
    from app.usecases import jobs

    spec = JobSpec(host=LAB_HOST, argv=["python3", "train.py", "--epochs", "40", "--batch-size", "64"],
                   workdir="~/thesis/code", name="resnet50-imagenet")
    rec = jobs.start_job(paths, store, spec)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # two progress lines read: its steps per second are known
        rec = jobs.refresh(paths, store, rec.id)
        if rec.steps_per_s:
            break
        time.sleep(1)
    return rec.id


def stop_job(job_id: str) -> None:
    from app.core.paths import default_paths
    from app.core.store import Store
    from app.usecases import jobs

    paths = default_paths()
    jobs.stop_job(paths, Store(paths=paths), job_id, grace_s=2)


def add_job(store: Any, now: float) -> str:
    """Without a lab server: the job as LabGPU last saw it (2 h 40 min in, its progress read from the log)."""
    from dataclasses import replace

    from app.core.jobs import JobRecord, JobSpec, JobStore, iso_utc

    spec = JobSpec(host=LAB_HOST, argv=["python", "train.py", "--epochs", "40", "--batch-size", "64"],
                   workdir="~/thesis/code", name="resnet50-imagenet")
    started = now - 9600
    rec = replace(JobRecord.from_spec("a3f9c2e17b40d816", spec, started), detach="tmux", pid=48_213,
                  started=iso_utc(started), runtime_s=9600.0, step=18_240, total=40_000, steps_per_s=1.92,
                  eta_s=(40_000 - 18_240) / 1.92, last_progress_at=now - 2, checked_at=now - 2,
                  last_line="epoch 18/40  step 18240/40000  loss 1.284  lr 3.2e-04")
    JobStore(store).save(rec)
    return ""


# -- the GPU monitor's samples --------------------------------------------------------------------

def gpu_feed(hosts: dict[str, tuple[int, str, int, int]], now: float, seconds: int) -> Any:
    """A hub-shaped source (tests/ui/monitor_data.FeedSource) with ``seconds`` of 1 Hz samples of each
    host: {host: (gpus, name, MiB each, watts limit)}; the last sample delivered live."""
    import math
    from datetime import datetime, timezone

    from app.core.gpumon import GpuProcess, GpuReading, HostSample
    def sample(host: str, t: float) -> HostSample:
        n, name, mib, limit = hosts[host]
        gpus = []
        for i in range(n):
            phase = t / 420.0 + i * 0.9 + len(host)
            util = max(0.0, min(100.0, 78 + 18 * math.sin(phase) + 4 * math.sin(t / 37.0 + i)))
            gpus.append(GpuReading(uuid=f"GPU-{host}-{i}", index=i, name=name, utilization_gpu=round(util),
                                   memory_used_mib=round(mib * (0.62 + 0.2 * math.sin(phase / 5))),
                                   memory_total_mib=mib, temperature_c=round(48 + util * 0.25),
                                   power_w=round(limit * (0.25 + 0.6 * util / 100)), power_limit_w=limit, status="ok"))
        procs = tuple(GpuProcess(g.uuid, 41_200 + (g.index or 0), "python train.py", round(g.memory_used_mib or 0))
                      for g in gpus)
        return HostSample(host=host, time=datetime.fromtimestamp(t, timezone.utc), error=None, gpus=tuple(gpus),
                          processes=procs)

    import importlib

    feed = importlib.import_module("tests.ui.monitor_data").FeedSource()
    for host in hosts:
        for k in range(seconds):
            feed.history.append(sample(host, now - seconds + k))
        feed.watch(host)
    feed.final = [sample(h, now) for h in hosts]
    return feed


# -- drawing --------------------------------------------------------------------------------------

def visible_texts(widget: Any) -> list[str]:
    """The text of every visible label, button, field, combo box and table cell under ``widget``."""
    from PySide6.QtWidgets import (
        QAbstractButton,
        QComboBox,
        QLabel,
        QLineEdit,
        QPlainTextEdit,
        QTableWidget,
        QTextEdit,
        QTreeWidget,
        QWidget,
    )

    out: list[str] = []
    for w in widget.findChildren(QWidget):
        if not w.isVisibleTo(widget):
            continue
        if isinstance(w, (QLabel, QAbstractButton, QLineEdit)):
            out.append(w.text())
        elif isinstance(w, QComboBox):
            out.append(w.currentText())
        elif isinstance(w, (QPlainTextEdit, QTextEdit)):
            out.append(w.toPlainText())
        elif isinstance(w, QTableWidget):
            for r in range(w.rowCount()):
                for c in range(w.columnCount()):
                    item = w.item(r, c)
                    if item is not None:
                        out.append(item.text())
        elif isinstance(w, QTreeWidget):
            for i in range(w.topLevelItemCount()):
                node = w.topLevelItem(i)
                if node is not None:
                    out.extend(node.text(c) for c in range(w.columnCount()))
    return [t for t in out if t]


def cut_cells(widget: Any) -> list[str]:
    """Cells of the visible tables under ``widget`` whose text does not fit its column (Qt elides it), or
    whose column lies past the table's right edge: "header: text", one each."""
    from PySide6.QtCore import QRect, Qt
    from PySide6.QtGui import QFont, QFontMetrics
    from PySide6.QtWidgets import QTableView

    out: list[str] = []
    for view in widget.findChildren(QTableView):
        model = view.model()
        if model is None or not view.isVisibleTo(widget):
            continue
        metrics = view.fontMetrics()
        shown = view.viewport().visibleRegion().boundingRect()  # clipped by the panels around it too
        edge = shown.right() + 1 if not shown.isEmpty() else view.viewport().width()

        for c in range(model.columnCount()):
            if view.isColumnHidden(c):
                continue
            header = str(model.headerData(c, Qt.Orientation.Horizontal) or c).replace("\n", " ")
            x = view.columnViewportPosition(c)
            width = min(view.columnWidth(c), max(0, edge - x))
            for r in range(model.rowCount()):
                index = model.index(r, c)
                text = model.data(index)
                if not isinstance(text, str) or not text.strip():
                    continue
                font = model.data(index, Qt.ItemDataRole.FontRole)
                fm = QFontMetrics(font) if isinstance(font, QFont) else metrics
                icon = view.iconSize().width() + 4 if model.data(index, Qt.ItemDataRole.DecorationRole) else 0
                room = width - icon - 6
                if view.wordWrap():  # wrapped at spaces: cut when the lines need more height or width than the cell
                    need = fm.boundingRect(QRect(0, 0, max(1, room), 100_000), int(Qt.TextFlag.TextWordWrap), text)
                    if need.height() > view.rowHeight(r) + 2 or need.width() > room:
                        out.append(f"{header}: {text}".replace("\n", " / "))
                elif any(fm.horizontalAdvance(line) > room for line in text.splitlines()):
                    out.append(f"{header}: {text}".replace("\n", " / "))
    return out


def shoot_language(lang: str, pages: list[str], guide: bool, all_dir: Path | None, world: dict[str, str],
                   first_run: bool) -> None:
    """One language: the window over the sample world, every page at each size (a process per language)."""
    from PySide6.QtWidgets import QApplication

    from app.ui.app import build_main_window
    from app.ui.monitor.page import MonitorPage

    app, ctx, window = build_main_window(lang)
    ctx.errors.interactive = False
    ctx.settings.language = lang  # chosen in Settings (not only --lang): every later page and dialog keeps it
    ctx.settings.first_run_done = True
    from app.notify.config import ChannelConfig
    from app.notify.manage import save_channel

    save_channel(ctx.settings, ChannelConfig(name="wechat", kind="serverchan"),  # WeChat, the key in the keyring
                 {"sendkey": "SCT20261205Tq7wX9kLm2Rb4Np8Vs3Hd6Jf"})
    ctx.save_settings()
    now = time.time()
    monitored = {LAB_HOST: (4, "NVIDIA A100-SXM4-80GB", 81_920, 400),
                 world["instance_host"]: (1, "Tesla T4", 15_360, 70)}
    feed = gpu_feed(monitored, now, 3600)
    ctx.services.monitor = feed

    def settle(timeout_s: float = 20.0) -> None:
        """Until every task but the ones that follow something (a job's log) has ended and called back."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            app.processEvents()
            if all(task.name in FOLLOWING_TASKS for task in ctx.runner.active()):
                break
            time.sleep(0.02)
        for _ in range(10):
            app.processEvents()
            time.sleep(0.01)

    window.resize(*GUIDE_SIZE)
    window.show()
    settle()
    sizes = SIZES if all_dir is not None else (GUIDE_SIZE,)
    texts: dict[str, dict[str, list[str]]] = {f"{w}x{h}": {} for w, h in sizes}
    cuts: dict[str, dict[str, list[str]]] = {f"{w}x{h}": {} for w, h in sizes}
    for page_id in pages:
        if not window.show_page(page_id):
            raise SystemExit(f"no page {page_id!r}; pages: {', '.join(window.page_ids())}")
        page = window.pages[page_id]
        if page_id == "hosts" and world.get("job"):  # the lab server connected, as after a click on Connect
            page.select(LAB_HOST)
            page.connect_button.click()
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and not page.disconnect_button.isEnabled():
                settle(1)
            settle()
        if page_id == "accounts":  # each account's keys tested with its cloud, as after Test connection
            settle()
            for row in range(page.table.rowCount()):
                page.test(page.table.item(row, 0).text())
                settle(30)
        if page_id == "sync" and world.get("job"):  # a preview of the code pair: what would be sent
            page.pairs_table.selectRow(0)
            page.preview_button.click()
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and page.preview_model.rowCount() == 0:
                settle(1)
        if isinstance(page, MonitorPage):
            for host in monitored:
                page.watch(host, remember=False)
            for s in feed.final:
                feed.feed(s)
            page.rebuild()
        settle()
        for w, h in sizes:
            window.resize(w, h)
            settle()
            if isinstance(page, MonitorPage):
                page.redraw()
                settle()
            shot = window.grab()
            if all_dir is not None:
                target = all_dir / lang / f"{page_id}-{w}x{h}.png"
                target.parent.mkdir(parents=True, exist_ok=True)
                shot.save(str(target), "PNG")
                texts[f"{w}x{h}"][page_id] = visible_texts(window)
                cuts[f"{w}x{h}"][page_id] = cut_cells(window)
            if guide and (w, h) == GUIDE_SIZE:
                shot.save(str(GUIDE / lang / f"{page_id}.png"), "PNG")
    extras(window, lang, sizes, guide, all_dir, settle, texts, cuts)
    if first_run:
        from app.ui import first_run as welcome

        window.show_page(pages[0])
        for step in FIRST_RUN_STEPS:
            for w, h in sizes:
                window.resize(w, h)
                dialog = welcome.FirstRunDialog(ctx, window, step - 1)
                dialog.open()
                settle()
                image = welcome.render(dialog, window)
                if all_dir is not None:
                    image.save(str(all_dir / lang / f"first-run-{step}-{w}x{h}.png"), "PNG")
                if guide and (w, h) == GUIDE_SIZE:
                    image.save(str(GUIDE / lang / f"first-run-{step}.png"), "PNG")
                dialog.reject()
                dialog.deleteLater()
    if all_dir is not None:
        for size, by_page in texts.items():
            (all_dir / lang / f"texts-{size}.json").write_text(json.dumps(by_page, ensure_ascii=False, indent=1))
            (all_dir / lang / f"cut-{size}.json").write_text(json.dumps(cuts[size], ensure_ascii=False, indent=1))
    ctx.shutdown(5000)
    QApplication.processEvents()


def over(window: Any, *dialogs: Any) -> Any:
    """The window with its dialogs drawn over it, each centred under a plain title bar with a border
    (offscreen Qt draws no window frames), as a student sees them."""
    from PySide6.QtCore import QRect, Qt
    from PySide6.QtGui import QColor, QPainter

    shot = window.grab()
    painter = QPainter(shot)
    bar = 26
    for dlg in dialogs:
        image = dlg.grab()
        x = max(0, (shot.width() - image.width()) // 2)
        y = max(0, (shot.height() - image.height() - bar) // 2)
        painter.fillRect(QRect(x - 1, y, image.width() + 2, bar), QColor("#d6d6d6"))
        painter.setPen(QColor("#202020"))
        painter.drawText(QRect(x + 10, y, image.width() - 20, bar), int(Qt.AlignmentFlag.AlignVCenter),
                         dlg.windowTitle())
        painter.drawPixmap(x, y + bar, image)
        painter.setPen(QColor("#6b6b6b"))
        painter.drawRect(QRect(x - 1, y, image.width() + 1, image.height() + bar))
    painter.end()
    return shot



def extras(window: Any, lang: str, sizes: tuple[tuple[int, int], ...], guide: bool, all_dir: Path | None,
           settle: Any, texts: dict[str, dict[str, list[str]]], cuts: dict[str, dict[str, list[str]]]) -> None:
    """The advisor's result (after its five steps with the default answers) and the launch dialog of the
    Tencent T4 offer over the Instances page."""
    from app.core.catalog import load_catalog

    def save(name: str, draw: Any, widget: Any) -> None:
        for w, h in sizes:
            window.resize(w, h)
            settle(5)
            shot = draw()
            if all_dir is not None:
                shot.save(str(all_dir / lang / f"{name}-{w}x{h}.png"), "PNG")
                texts[f"{w}x{h}"][name] = visible_texts(widget)
                cuts[f"{w}x{h}"][name] = cut_cells(widget)
            if guide and (w, h) == GUIDE_SIZE:
                shot.save(str(GUIDE / lang / f"{name}.png"), "PNG")

    if window.show_page("advisor"):
        advisor = window.pages["advisor"]
        for _ in range(advisor.stack.count() - 1):
            advisor.next_button.click()
            settle(10)
        save("advisor-result", window.grab, window)
    if window.show_page("instances"):
        offer = next(o for o in load_catalog(window.ctx.paths).offers
                     if o.provider == "tencent" and o.instance_type == "GN7.2XLARGE32")
        dialog = window.pages["instances"].open_launch(offer)
        settle(10)
        save("launch-dialog", lambda: over(window, dialog), dialog)
        dialog.reject()
        settle(2)
    logins_shot(window, save, settle)
    account_shots(window, save, settle)


def sample_logins(store: Any, host: str) -> None:
    """The lab server's SSH logins of the last days (issue 27): the student's own sessions through LabGPU,
    one accepted login from an address LabGPU never connected from at 03:12, and a scanner's failed logins."""
    from datetime import datetime, timedelta, timezone

    from app.core.loginstore import LoginStore

    ls = LoginStore(store)
    ls.forget(host)  # each language's process writes the same sample
    day = datetime.now().astimezone().replace(minute=0, second=0, microsecond=0)
    key = ("ED25519", "SHA256:Qsn4TbdBzDD8blNX/uNNdGiNgYvB0HQa3ZIoa/iXcJ4")
    rows: list[dict[str, Any]] = []
    for n, seconds_ago in enumerate((263_917, 179_604, 95_851, 7_934, 3_419)):
        t = day - timedelta(seconds=seconds_ago)
        rows.append({"time": t.astimezone(timezone.utc), "user": STUDENT, "method": "publickey",
                     "source": SSH_FROM.split("/")[0], "port": 50112 + n, "accepted": True, "key_type": key[0],
                     "key_fp": key[1], "origin": "journal", "own": True})
    rows.append({"time": (day - timedelta(days=1)).replace(hour=3, minute=12, second=37).astimezone(timezone.utc),
                 "user": STUDENT, "method": "publickey", "source": "203.0.113.45", "port": 39822, "accepted": True,
                 "key_type": key[0], "key_fp": key[1], "origin": "journal", "unusual": True,
                 "why": ("unknown-source", "unusual-hour")})
    scanners = (("218.92.0.112", 38), ("61.177.172.13", 12), ("183.81.169.238", 5))
    for source, count in scanners:
        for i in range(count):
            t = day - timedelta(hours=2 + i * 0.7, minutes=len(source))
            rows.append({"time": t.astimezone(timezone.utc), "user": ("root", "admin", "ubuntu")[i % 3],
                         "method": "password", "source": source, "port": 40000 + i, "accepted": False,
                         "invalid_user": i % 3 != 0, "origin": "journal"})
    ls.add(host, rows)


def logins_shot(window: Any, save: Any, settle: Any) -> None:
    """Hosts → Recent logins… of the lab server over the Hosts page, from the sample logins (no SSH read)."""
    if not window.show_page("hosts"):
        return
    from app.ui.remote.logins_dialog import LoginsDialog
    from app.usecases import logins as usecase

    ctx = window.ctx
    sample_logins(ctx.store, LAB_HOST)

    def check() -> Any:
        logins = usecase.recent(ctx.paths, ctx.store, LAB_HOST)
        return usecase.LoginReport(LAB_HOST, "journal", "", True, [], logins,
                                   usecase.summary([x for x in logins if not x.accepted]))

    page = window.pages["hosts"]
    page.select(LAB_HOST)
    dialog = LoginsDialog(ctx, LAB_HOST, page, check=check)
    dialog.show()
    dialog.refresh()
    settle(10)
    save("logins", lambda: over(window, dialog), dialog)
    dialog.reject()
    settle(2)


def account_shots(window: Any, save: Any, settle: Any) -> None:
    """Accounts → Add… for each cloud LabGPU keeps accounts of, over the Accounts page: its own credential
    fields and settings, a sample name typed, the secrets left empty (account-<cloud>.png)."""
    if not window.show_page("accounts"):
        return
    page = window.pages["accounts"]
    dialog = page.open_dialog()
    for index in range(dialog.provider_combo.count()):
        provider = str(dialog.provider_combo.itemData(index))
        dialog.provider_combo.setCurrentIndex(index)
        dialog.name_edit.setText(dialog.spec().account_hint or f"lab-{provider}")
        dialog.adjustSize()
        settle(3)
        save(f"account-{provider}", lambda: over(window, dialog), dialog)
    dialog.reject()
    settle(2)


def shrink(path: Path) -> None:
    """Store the PNG with a palette of its 256 most used colours (exact when it has no more; antialiased
    text otherwise takes the nearest), when that is smaller."""
    from collections import Counter

    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImage

    _app = QGuiApplication.instance() or QGuiApplication(["screenshots", "-platform", "offscreen"])
    image = QImage(str(path)).convertToFormat(QImage.Format.Format_RGB32)
    if image.isNull():
        return
    pixels = memoryview(image.constBits()).cast("I")
    table = [colour | 0xFF000000 for colour, _n in Counter(pixels).most_common(256)]
    small = image.convertToFormat(QImage.Format.Format_Indexed8, table, Qt.ImageConversionFlag.ThresholdDither)
    tmp = path.with_suffix(".tmp.png")
    if small.save(str(tmp), None, 0) and tmp.stat().st_size < path.stat().st_size:
        tmp.replace(path)
    else:
        tmp.unlink(missing_ok=True)


# -- the three stages: outside, in the private home, per language ------------------------------------

def parse(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--lang", nargs="+", default=list(LANGUAGES), choices=LANGUAGES)
    ap.add_argument("--pages", nargs="+", help="page ids (default: every page)")
    ap.add_argument("--all", metavar="DIR", help="also every page at 1280x800 and 1024x640 into DIR/<lang>/")
    ap.add_argument("--no-guide", action="store_true", help="do not write docs/images/")
    ap.add_argument("--no-first-run", action="store_true", help="skip the welcome dialog's steps")
    ap.add_argument("--stage", choices=("world", "shoot"), help=argparse.SUPPRESS)
    ap.add_argument("--namespace", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--world", help=argparse.SUPPRESS)
    ap.add_argument("--scratch", help=argparse.SUPPRESS)
    return ap.parse_args(argv)


def forward(args: argparse.Namespace) -> list[str]:
    out = ["--lang", *args.lang]
    if args.pages:
        out += ["--pages", *args.pages]
    if args.all:
        out += ["--all", str(Path(args.all).resolve())]
    if args.no_guide:
        out.append("--no-guide")
    if args.no_first_run:
        out.append("--no-first-run")
    return out


def forget_previews() -> None:
    """Drop the previews the Sync page recorded in the history (the sample world's runs stay)."""
    from app.core.paths import default_paths
    from app.core.store import Store

    with Store(paths=default_paths()).transaction() as c:
        c.execute("DELETE FROM sync_runs WHERE result='dry-run'")


def say(what: str) -> None:
    print(f"screenshots: {time.strftime('%H:%M:%S')} {what}", file=sys.stderr, flush=True)


def run_world(args: argparse.Namespace) -> int:
    """In the private home: keyring, peers, world; then a process per language."""
    scratch = Path(args.scratch)
    home = private_home(args.namespace, scratch)
    for var in XDG_VARS:
        os.environ.pop(var, None)
    os.environ["HOME"] = str(home)
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    os.environ.pop("QT_QPA_PLATFORMTHEME", None)  # the same look on every machine
    keyring = fixture("keyring_service")._SecretService()
    peers = lab = None
    world: dict[str, str] = {}
    try:
        os.environ.pop("XDG_DATA_HOME", None)  # the keyring's own files; the app's data is in HOME
        peers = Peers()
        # "What is my IP" answered by the Tencent stand-in (198.51.100.7): the launch dialog fills it in
        os.environ["LABGPU_PUBLIC_IP_URLS"] = f"{peers.tencent.endpoint}/_ip"
        if args.namespace:
            lab = LabServer(home, scratch)
            try:
                lab.start()
            except (OSError, RuntimeError, subprocess.SubprocessError) as exc:  # e.g. no sshd, no /run/sshd
                say(f"no lab server ({exc}): the job is shown as last seen, without its log")
                lab.stop()
                lab = None
        say("building the sample world")
        world = build_world(peers, home, lab)
        say("sample world ready")
        pages = args.pages or page_ids()
        for lang in args.lang:
            cmd = [sys.executable, str(Path(__file__).resolve()), "--stage", "shoot", "--world", json.dumps(world),
                   *forward(argparse.Namespace(**{**vars(args), "lang": [lang], "pages": pages}))]
            forget_previews()  # each language's Sync page previews once: its history shows that one
            say(f"shooting {lang}")
            r = subprocess.run(cmd, cwd=home, stdin=subprocess.DEVNULL, timeout=1800)
            if r.returncode != 0:
                return r.returncode
    finally:
        say("stopping the job and the peers")
        if world.get("job"):
            stop_job(world["job"])
        if lab is not None:
            lab.stop()
        if peers is not None:
            peers.stop()
        keyring.stop()
    if not args.namespace and not args.no_guide and "settings" in (args.pages or page_ids()):
        print("note: no private mount namespace here: the Settings page shows a temporary folder", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    sys.path.insert(0, str(ROOT))
    if args.stage == "shoot":
        shoot_language(args.lang[0], args.pages, not args.no_guide, Path(args.all) if args.all else None,
                       json.loads(args.world), not args.no_first_run)
        return 0
    if args.stage == "world":
        return run_world(args)
    for lang in args.lang:
        (GUIDE / lang).mkdir(parents=True, exist_ok=True)
    prefix = namespace_prefix()
    cmd = [*prefix, sys.executable, str(Path(__file__).resolve()), "--stage", "world", *forward(args)]
    if prefix:
        cmd.append("--namespace")
    started = time.monotonic()
    scratch = tempfile.mkdtemp(prefix="labgpu-shots-")
    try:  # the namespace's mounts (over /home, /etc) end with its process; its scratch folder is removed here
        rc = subprocess.run([*cmd, "--scratch", scratch], cwd=ROOT, stdin=subprocess.DEVNULL, timeout=3600).returncode
    finally:
        if not any(os.path.ismount(p) for p, _dirs, _files in os.walk(scratch)):
            shutil.rmtree(scratch, ignore_errors=True)
    if rc != 0:
        return rc
    written = [p for lang in args.lang for p in (GUIDE / lang).glob("*.png")
               if p.stat().st_mtime >= time.time() - (time.monotonic() - started) - 1] if not args.no_guide else []
    if args.all:
        written += list(Path(args.all).glob("*/*.png"))
    for path in written:
        shrink(path)
    print(f"{len(written)} screenshots, {sum(p.stat().st_size for p in written) // 1024} KiB in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
