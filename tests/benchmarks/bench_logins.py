"""A host's SSH login records under a flood of failed logins: LabGPU beside what a student would type.

Run as root (it starts its own sshd like the test fixture):  .venv/bin/python tests/benchmarks/bench_logins.py
Options: --mib N (new log per check, default 64), --reps N (best of N, default 3).

The host's log (RFC 3339 lines as rsyslog writes them, one failed password login from one of 5,000
addresses per line, one accepted login from a stranger in the middle) grows by N MiB between two checks.

- ``check``: one ``check_host`` on the new N MiB (connect, probe, read from the stored offset, parse, judge,
  store, summarise), beside ``ssh host "tail -c +OFFSET auth.log | grep -a 'Failed password' | awk … |
  sort | uniq -c | sort -rn | head -5; grep -a Accepted …"`` — the pipeline a student types to get the same
  count, top sources and accepted logins. Also LabGPU's peak Python memory (tracemalloc) for that check.

The LAST line is ``ratios: check=…`` = LabGPU time / the pipeline's time (lower is better).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tracemalloc
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from app.core.loginstore import LoginSettings  # noqa: E402
from app.core.paths import default_paths  # noqa: E402
from app.core.store import Store  # noqa: E402
from app.usecases import logins as usecase  # noqa: E402
from tests.fixtures.sshd import SshdServer  # noqa: E402
from tests.remote.gpu_support import save_host  # noqa: E402


def flood(mib: int, stranger_at: float = 0.5) -> bytes:
    stamp = datetime.now(timezone.utc).replace(microsecond=0).isoformat()
    lines = []
    for i in range(20000):
        lines.append(f"{stamp} box sshd[{10000 + i}]: Failed password for invalid user admin{i % 13} from "
                     f"10.{i % 50}.{i % 100}.{i % 2 + 1} port {20000 + i} ssh2\n")
    block = "".join(lines).encode()
    data = (block * (mib * 1024 * 1024 // len(block) + 1))[: mib * 1024 * 1024]
    data = data[: data.rfind(b"\n") + 1]
    mid = data.find(b"\n", int(len(data) * stranger_at)) + 1
    accepted = f"{stamp} box sshd[9]: Accepted publickey for labgpu-test from 192.0.2.77 port 4444 ssh2\n".encode()
    return data[:mid] + accepted + data[mid:]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mib", type=int, default=64)
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args()

    home = Path(tempfile.mkdtemp(prefix="labgpu-bench-logins-"))
    home.chmod(0o755)
    os.environ["LABGPU_HOME"] = str(home / "labgpu")
    srv = SshdServer(home / "sshd").start()
    try:
        paths = default_paths()
        store = Store(paths=paths)
        store.migrate()
        save_host(srv, "bench")
        log = srv.workdir / "auth.log"
        log.write_bytes(b"")
        srv.chown_to_user(log)
        usecase.set_log_path(store, "bench", str(log))
        settings = LoginSettings(unusual_from=0, unusual_to=0)
        usecase.check_host(paths, store, "bench", settings=settings)  # the first read: the file is empty
        chunk = flood(args.mib)
        t_lab, t_pipe, peak = float("inf"), float("inf"), 0
        for _ in range(args.reps):
            offset = log.stat().st_size
            with log.open("ab") as f:
                f.write(chunk)
            tracemalloc.start()
            t0 = time.perf_counter()
            report = usecase.check_host(paths, store, "bench", settings=settings)
            t_lab = min(t_lab, time.perf_counter() - t0)
            peak = max(peak, tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
            assert any(x.source == "192.0.2.77" and x.unusual for x in report.logins), "the stranger was missed"
            assert not any("more log" in n for n in report.notes), report.notes
            pipe = (f"tail -c +{offset + 1} {log} | grep -a 'Failed password' | awk '{{print $(NF-3)}}' | sort | "
                    f"uniq -c | sort -rn | head -5; tail -c +{offset + 1} {log} | grep -a 'Accepted '")
            cmd = ["ssh", *srv.openssh_args(), f"{srv.user}@{srv.host}", pipe]
            t0 = time.perf_counter()
            out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
            t_pipe = min(t_pipe, time.perf_counter() - t0)
            assert "192.0.2.77" in out
        n_lines = chunk.count(b"\n")
        print(f"check {args.mib} MiB ({n_lines:,} lines): labgpu {t_lab:.2f} s "
              f"({args.mib / t_lab:.0f} MiB/s, peak {peak / 2**20:.1f} MiB Python memory), "
              f"ssh + grep/awk/sort {t_pipe:.2f} s")
        print(f"ratios: check={t_lab / t_pipe:.2f}")
    finally:
        srv.stop()
        shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
