"""The GPU stream reading a 2 MiB nvidia-smi error line (one such line once froze the
window ~4 s): CPU time of the real ``GpuStream._stream_once`` reading it from a socket.

Run:  .venv/bin/python tests/benchmarks/bench_bounds.py [--chunk BYTES (1024)] [--mib N (2)]
To compare with an older tree: PYTHONPATH=/path/to/old/tree .venv/bin/python tests/benchmarks/bench_bounds.py

The channel is a real socket pair (select() and recv() as on a paramiko channel); a writer thread
sends the line ``--chunk`` bytes at a time (a slow or busy link delivers SSH data in small pieces),
then nvidia-smi's driver error and the end of the stream. Measured: the stream thread's CPU time
(``time.thread_time``) from the first byte to the error sample: the time it holds the interpreter
lock that the window's GUI thread needs, and the length of the error text the window shows (with
``--unknown`` the line is not a known nvidia-smi message, so the error quotes it). The LAST line is
``bounds: chunk=… cpu_s=… error_ok=… error_chars=…``.
"""

from __future__ import annotations

import argparse
import socket
import threading
import time


class _Chan:
    """The part of a paramiko Channel the stream uses, over one end of a socket pair."""

    def __init__(self, sock: socket.socket, chunk: int) -> None:
        self.sock = sock
        self.chunk = chunk  # at most this much per recv(), as a link delivering small packets
        self.closed = False
        self._eof = False

    def fileno(self) -> int:
        return self.sock.fileno()

    def recv(self, n: int) -> bytes:
        data = self.sock.recv(min(n, self.chunk))
        if not data:
            self._eof = True
            self.closed = True
        return data

    def recv_ready(self) -> bool:
        return False

    def exit_status_ready(self) -> bool:
        return self._eof

    def recv_exit_status(self) -> int:
        return 9

    def get_transport(self) -> None:
        return None

    def close(self) -> None:
        self.closed = True
        self.sock.close()


class _Conn:
    is_active = True

    def __init__(self, chan: _Chan) -> None:
        self.chan = chan

    def open_stream(self, argv: object) -> _Chan:
        return self.chan

    def exec(self, argv: object, *, timeout: float | None = 60.0) -> tuple[int, str, str]:
        return 0, "", ""


def run(chunk: int, mib: int, known: bool) -> tuple[float, bool, int]:
    from app.remote.gpustream import GpuStream

    a, b = socket.socketpair()
    chan = _Chan(a, chunk)
    got: list[object] = []
    stream = GpuStream("bench", lambda: _Conn(chan), got.append, quiet_flush_s=0.05)
    payload = b"x" * (mib * 1024 * 1024)
    tail = (b"\nNVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure "
            b"that the latest NVIDIA driver is installed and running.\n") if known else b"\n"

    def writer() -> None:
        view = memoryview(payload)
        for i in range(0, len(payload), chunk):
            b.sendall(view[i:i + chunk])
        b.sendall(tail)
        b.shutdown(socket.SHUT_WR)

    result: dict[str, float] = {}

    def reader() -> None:
        t0 = time.thread_time()
        stream._stream_once(_Conn(chan))  # noqa: SLF001 - the real read loop, one run
        result["cpu"] = time.thread_time() - t0

    rt = threading.Thread(target=reader)
    rt.start()
    wt = threading.Thread(target=writer)
    wt.start()
    wt.join()
    rt.join()
    b.close()
    errors = [getattr(s, "error", "") or "" for s in got]
    ok = any(("couldn't communicate with the NVIDIA driver" if known else "exit status 9") in e for e in errors)
    return result["cpu"], ok, max(map(len, errors), default=0)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--chunk", type=int, default=1024)
    ap.add_argument("--mib", type=int, default=2)
    ap.add_argument("--unknown", action="store_true", help="a line no rule knows (the error quotes it)")
    args = ap.parse_args()
    cpu, ok, length = run(args.chunk, args.mib, not args.unknown)
    print(f"bounds: chunk={args.chunk} cpu_s={cpu:.3f} error_ok={ok} error_chars={length}")


if __name__ == "__main__":
    main()
