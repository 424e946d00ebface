"""One long-lived `nvidia-smi -l` stream per host over its SSH connection, plus compute apps.

``GpuStream(host, connect, on_sample)`` runs a thread that:
- gets a logged-in Connection from ``connect()`` (the app's existing connection for that host;
  reconnecting is ``connect``'s business — ``Connection.ensure`` does it with backoff);
- starts ``nvidia-smi --query-gpu=… --format=csv,noheader,nounits -l N`` once and turns its lines
  into HostSamples (``app.core.gpumon.SampleAssembler``);
- every ``process_every_s`` lists compute apps on a second, short exec (own thread);
- when the command ends (driver error, GPU lost, no nvidia-smi), reports a sample whose ``error``
  carries nvidia-smi's message and what to do, waits ``retry_s`` and starts it again;
- when the connection drops, reports the error and reconnects; the stream then continues.
Callbacks run on the stream's thread; a callback that raises is logged, never kills the stream.
"""

from __future__ import annotations

import logging
import select
import threading
import time
from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from typing import Any, Protocol

from app.core.errors import LabGpuError
from app.core.gpumon import (
    LEGACY_QUERY_FIELDS,
    PROCESS_FIELDS,
    QUERY_FIELDS,
    HostSample,
    LineSplitter,
    SampleAssembler,
    failure_kind,
    parse_processes,
    parse_snapshot,
)

log = logging.getLogger(__name__)

SMI = "nvidia-smi"


class StreamConnection(Protocol):
    """What the stream needs of app.remote.ssh.Connection."""

    @property
    def is_active(self) -> bool: ...

    def open_stream(self, cmd_argv: Sequence[str]) -> Any: ...

    def exec(self, cmd_argv: Sequence[str], *, timeout: float | None = 60.0) -> tuple[int, str, str]: ...


def gpu_query_argv(fields: Sequence[str] = QUERY_FIELDS, interval_s: float | None = 1.0) -> list[str]:
    argv = [SMI, "--query-gpu=" + ",".join(fields), "--format=csv,noheader,nounits"]
    if interval_s is not None:
        if interval_s < 1:
            argv += ["-lms", str(max(100, int(interval_s * 1000)))]
        else:
            argv += ["-l", str(int(round(interval_s)))]
    return argv


def process_query_argv() -> list[str]:
    return [SMI, "--query-compute-apps=" + ",".join(PROCESS_FIELDS), "--format=csv,noheader,nounits"]


def _invalid_field(text: str) -> bool:
    return "is not a valid field to query" in text


def snapshot(conn: StreamConnection, host: str, timeout: float = 30.0) -> HostSample:
    """One sample by running nvidia-smi once (for `labgpu monitor --once`)."""
    fields: Sequence[str] = QUERY_FIELDS
    rc, out, err = conn.exec(gpu_query_argv(fields, None), timeout=timeout)
    if rc != 0 and _invalid_field(out + err):
        fields = LEGACY_QUERY_FIELDS
        rc, out, err = conn.exec(gpu_query_argv(fields, None), timeout=timeout)
    procs = ""
    if rc == 0:
        prc, pout, _perr = conn.exec(process_query_argv(), timeout=timeout)
        if prc == 0:
            procs = pout
    return parse_snapshot(host, out + ("\n" + err if err.strip() else ""), rc, procs, fields=fields)


class GpuStream:
    def __init__(
        self,
        host: str,
        connect: Callable[[], StreamConnection],
        on_sample: Callable[[HostSample], None],
        *,
        interval_s: float = 1.0,
        process_every_s: float = 5.0,
        retry_s: float = 10.0,
        quiet_flush_s: float = 0.3,
        on_state: Callable[[str, str], None] | None = None,
    ) -> None:
        self.host = host
        self.connect = connect
        self.on_sample = on_sample
        self.on_state = on_state
        self.interval_s = interval_s
        self.process_every_s = process_every_s
        self.retry_s = retry_s
        self.quiet_flush_s = quiet_flush_s
        self.state = "idle"
        self.fields: tuple[str, ...] = QUERY_FIELDS
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._proc_thread: threading.Thread | None = None
        self._chan: Any = None
        self._conn: StreamConnection | None = None
        self._asm = SampleAssembler(host=host, fields=self.fields)
        self.samples_emitted = 0
        self.streams_started = 0
        self._gpu_count = 0  # the most GPUs one interval has shown
        self.splitter: LineSplitter | None = None  # the running stream's (tests read its bound)

    # lifecycle ----------------------------------------------------------------------------------
    def start(self) -> GpuStream:
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=f"gpustream-{self.host}", daemon=True)
        self._thread.start()
        self._proc_thread = threading.Thread(target=self._run_processes, name=f"gpuprocs-{self.host}",
                                             daemon=True)
        self._proc_thread.start()
        return self

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        chan = self._chan
        if chan is not None:
            try:
                chan.close()
            except Exception as exc:  # noqa: BLE001 - closing a dead channel
                log.debug("closing the stream channel: %r", exc)
        for t in (self._thread, self._proc_thread):
            if t is not None and t is not threading.current_thread():
                t.join(timeout)

    @property
    def suspicious(self) -> bool:
        """The host reported more GPUs than MAX_GPUS_PER_HOST (its extra uuids were dropped)."""
        return self._asm.suspicious

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    # internals ----------------------------------------------------------------------------------
    def _set_state(self, state: str, detail: str = "") -> None:
        self.state = state
        if self.on_state is not None:
            try:
                self.on_state(state, detail)
            except Exception:  # noqa: BLE001
                log.exception("monitor state callback failed")

    def _emit(self, sample: HostSample) -> None:
        self.samples_emitted += 1
        try:
            self.on_sample(sample)
        except Exception:  # noqa: BLE001 - a broken subscriber must not stop the monitor
            log.exception("monitor subscriber failed for %s", self.host)

    def _error_sample(self, message: str) -> HostSample:
        return HostSample(host=self.host, time=datetime.now(timezone.utc), error=message)

    def _get_connection(self) -> StreamConnection | None:
        try:
            conn = self.connect()
        except LabGpuError as exc:
            self._set_state("disconnected", exc.one_line())
            self._emit(self._error_sample(exc.one_line()))
            return None
        except Exception as exc:  # noqa: BLE001 - anything from the network must not kill the thread
            log.exception("connect for monitor failed")
            self._set_state("disconnected", str(exc))
            self._emit(self._error_sample(f"{type(exc).__name__}: {exc}"))
            return None
        self._conn = conn
        return conn

    def _run(self) -> None:
        while not self._stop.is_set():
            self._set_state("connecting")
            conn = self._get_connection()
            if conn is None:
                self._stop.wait(self.retry_s)
                continue
            try:
                retry_now = self._stream_once(conn)
            except LabGpuError as exc:
                self._emit(self._error_sample(exc.one_line()))
                retry_now = False
            except Exception as exc:  # noqa: BLE001 - paramiko raises many things when a link dies
                log.info("monitor stream of %s broke: %r", self.host, exc)
                self._emit(self._error_sample(f"{type(exc).__name__}: {exc}"))
                retry_now = False
            if self._stop.is_set():
                break
            if not retry_now:
                # a dead connection reconnects at once (connect() backs off); a failing nvidia-smi waits
                active = False
                try:
                    active = bool(conn.is_active)
                except Exception:  # noqa: BLE001
                    active = False
                self._set_state("error" if active else "disconnected")
                self._stop.wait(self.retry_s if active else min(self.retry_s, 1.0))
        self._set_state("stopped")

    def _stream_once(self, conn: StreamConnection) -> bool:
        """Run one nvidia-smi stream until it ends. True: restart at once (field fallback)."""
        old = self._asm  # the host's known GPUs and its suspicion outlive one nvidia-smi run
        self._asm = SampleAssembler(host=self.host, fields=self.fields, processes=old.processes,
                                    known=old.known, suspicious=old.suspicious, dropped_total=old.dropped_total)
        chan = conn.open_stream(gpu_query_argv(self.fields, self.interval_s))
        self._chan = chan
        self.streams_started += 1
        self._set_state("streaming")
        # lines capped at MAX_LINE_BYTES and only new bytes scanned: an endless line costs linear time
        splitter = LineSplitter()
        self.splitter = splitter
        last_line = time.monotonic()
        got_sample = False
        try:
            while not self._stop.is_set():
                r, _, _ = select.select([chan], [], [], self.quiet_flush_s)
                if r:
                    data = chan.recv(65536)
                    if not data:
                        break
                    cut = splitter.cut_lines
                    lines = splitter.feed(data)
                    if splitter.cut_lines != cut:
                        self._asm.note_long_line()
                    for text in lines:
                        s = self._asm.feed(text)
                        if s is not None:
                            got_sample = True
                            self._gpu_count = max(self._gpu_count, len(s.gpus))
                            self._emit(s)
                    last_line = time.monotonic()
                elif self._asm.pending():
                    # an interval is complete when every GPU seen so far has reported; a batch that
                    # is still short (a slow link split it) waits up to 1.5 intervals — and so does the
                    # host's first, before any interval has shown how many GPUs it has (a first sample
                    # of one GPU out of two, seen on a loaded host, would be a partial result)
                    quiet = time.monotonic() - last_line
                    full = 0 < self._gpu_count <= self._asm.pending()
                    if (full and quiet >= self.quiet_flush_s) or quiet >= max(self.quiet_flush_s,
                                                                               1.5 * self.interval_s):
                        s = self._asm.flush()
                        if s is not None:
                            got_sample = True
                            self._gpu_count = max(self._gpu_count, len(s.gpus))
                            self._emit(s)
                if chan.closed and not chan.recv_ready():
                    break  # only once what arrived before the close is read (its error text decides)
            if self._stop.is_set():
                return False
            tail = splitter.rest()
            if tail.strip():
                s = self._asm.feed(tail)
                if s is not None:
                    self._emit(s)
            pending = self._asm.flush()
            if pending is not None:
                got_sample = True
                self._emit(pending)
            rc = _exit_status(chan)
        finally:
            self._chan = None
            chan.close()
        noise = "\n".join(self._asm.noise)
        if self.fields == QUERY_FIELDS and _invalid_field(noise) and not got_sample:
            self.fields = LEGACY_QUERY_FIELDS  # driver older than 450: no mig.mode.current
            self._asm.noise = []
            return True
        if rc is None and failure_kind(None, noise) is None:
            # the channel died with the connection: say so (the next loop reconnects)
            self._asm.noise = []
            self._emit(self._error_sample(_connection_lost(self.host)))
            return False
        self._emit(self._asm.failure(rc))
        return False

    def _run_processes(self) -> None:
        while not self._stop.wait(self.process_every_s if self.samples_emitted else 0.2):
            conn = self._conn
            if conn is None or self.state != "streaming":
                continue
            try:
                rc, out, _err = conn.exec(process_query_argv(), timeout=max(10.0, self.process_every_s * 2))
            except Exception as exc:  # noqa: BLE001 - the stream thread reports connection trouble
                log.debug("process list of %s failed: %r", self.host, exc)
                continue
            if rc == 0:
                self._asm.processes = parse_processes(out)


def _exit_status(chan: Any, timeout: float = 5.0) -> int | None:
    """The command's exit status; sshd may send it just after EOF. None when the link died first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if chan.exit_status_ready():
            return int(chan.recv_exit_status())
        t = chan.get_transport()
        if t is None or not t.is_active():
            return None
        event = getattr(chan, "status_event", None)
        if event is not None:
            event.wait(0.1)
        else:
            time.sleep(0.05)
    return None


def _connection_lost(host: str) -> str:
    from app.core.i18n import QT_TRANSLATE_NOOP, translate

    msg = QT_TRANSLATE_NOOP("LabGPU", "The SSH connection to {host} dropped — reconnecting; the graphs "
                                      "continue when it is back")
    return translate(msg).format(host=host)
