"""The GPU stream against a real sshd whose user has a scripted nvidia-smi."""

from __future__ import annotations

import pytest

from app.remote.gpustream import GpuStream, snapshot
from app.remote.ssh import open_connection
from app.watch import MonitorHub
from tests.fixtures.fake_nvidia_smi import DRIVER_STEP, LOST_STEP, MIG_STEP, MISMATCH_STEP, busy, idle
from tests.remote.gpu_support import Samples, gpu_server

pytestmark = pytest.mark.usefixtures("private_home")


def _stream(name: str, sink: Samples, **kw) -> tuple[GpuStream, list]:
    conns: list = []

    def connect():
        if conns and conns[-1].is_active:
            return conns[-1]
        conns.append(open_connection(name))
        return conns[-1]

    kw.setdefault("process_every_s", 0.2)
    kw.setdefault("retry_s", 0.2)
    kw.setdefault("quiet_flush_s", 0.03)
    return GpuStream(name, connect, sink, **kw), conns


def _close(stream: GpuStream, conns: list) -> None:
    stream.stop()
    for c in conns:
        c.close()


def test_one_long_lived_stream_busy_then_idle_with_processes():
    with gpu_server("box", {"steps": [busy(2)] * 3 + [idle(2)]}) as (_server, fake):
        fake.pin(0)  # stay busy until the process list has been read
        sink = Samples()
        stream, conns = _stream("box", sink)
        stream.start()
        try:
            first = sink.wait_for(lambda s: bool(s.gpus))
            assert first.error is None and [g.utilization_gpu for g in first.gpus] == [97.0, 96.0]
            with_procs = sink.wait_for(lambda s: bool(s.processes))
            assert {p.pid for p in with_procs.processes} <= {4242, 4243}
            fake.pin(None)  # let the scenario run on to idle
            quiet = sink.wait_for(lambda s: bool(s.gpus) and all(g.utilization_gpu == 0.0 for g in s.gpus))
            assert quiet.gpus[0].memory_used_mib == 3.0
            sink.wait_for(lambda s: bool(s.gpus))
            assert stream.streams_started == 1  # one nvidia-smi for all those samples, not one per sample
            assert len(conns) == 1
        finally:
            _close(stream, conns)


def test_mig_gpus_report_unknown_utilization_not_zero():
    with gpu_server("mig", {"steps": [MIG_STEP]}) as _:
        sink = Samples()
        stream, conns = _stream("mig", sink)
        stream.start()
        try:
            s = sink.wait_for(lambda s: bool(s.gpus))
            assert [g.utilization_gpu for g in s.gpus] == [None, None]
            assert all(g.status.startswith("mig") for g in s.gpus)
            assert s.to_json()["gpus"][0]["utilization_gpu"] is None
        finally:
            _close(stream, conns)


def test_a_first_interval_that_arrives_line_by_line_is_one_sample_of_every_gpu():
    """Before any interval has shown how many GPUs a host has, a short pause between its lines does not end the
    interval: the first sample has both GPUs, not one (seen once on a loaded machine)."""
    with gpu_server("slow", {"steps": [MIG_STEP], "line_gap_s": 0.3}) as _:
        sink = Samples()
        stream, conns = _stream("slow", sink, interval_s=5.0)  # a short batch may wait 1.5 intervals: 7.5 s
        stream.start()
        try:
            first = sink.wait_for(lambda s: bool(s.gpus))
            assert [g.index for g in first.gpus] == [0, 1], sink.all
        finally:
            _close(stream, conns)


def test_driver_error_mid_stream_is_reported_then_the_stream_recovers():
    steps = [busy(1), DRIVER_STEP, busy(1, 55)]
    with gpu_server("drv", {"steps": steps}) as _:
        sink = Samples()
        stream, conns = _stream("drv", sink)
        stream.start()
        try:
            sink.wait_for(lambda s: bool(s.gpus))
            err = sink.wait_for(lambda s: s.error is not None)
            assert "couldn't communicate with the NVIDIA driver" in err.error and "reboot" in err.error
            back = sink.wait_for(lambda s: bool(s.gpus) and s.gpus[0].utilization_gpu == 55.0)
            assert back.error is None
            assert stream.streams_started >= 2
        finally:
            _close(stream, conns)


def test_dropped_connection_reconnects_and_the_stream_continues():
    with gpu_server("drop", {"steps": [busy(1)]}) as (server, _fake):
        sink = Samples()
        stream, conns = _stream("drop", sink)
        stream.start()
        try:
            sink.wait_for(lambda s: bool(s.gpus))
            assert server.drop_connections() > 0
            sink.wait_for(lambda s: s.error is not None)
            sink.wait_for(lambda s: bool(s.gpus) and s.error is None)
            assert len(conns) >= 2  # a new SSH connection carried on
        finally:
            _close(stream, conns)


def test_old_driver_without_mig_field_falls_back():
    legacy = ["index", "uuid", "name", "utilization.gpu", "memory.used", "memory.total", "temperature.gpu",
              "power.draw", "power.limit"]
    with gpu_server("old", {"steps": [busy(1)], "valid_fields": legacy}) as _:
        sink = Samples()
        stream, conns = _stream("old", sink)
        stream.start()
        try:
            s = sink.wait_for(lambda s: bool(s.gpus) or s.error is not None)
            assert s.error is None and s.gpus[0].utilization_gpu == 97.0
        finally:
            _close(stream, conns)


def test_snapshot_failures_and_lost_gpu():
    with gpu_server("snap", {"steps": [MISMATCH_STEP]}) as (_server, fake):
        conn = open_connection("snap")
        try:
            s = snapshot(conn, "snap")
            assert s.gpus == () and "Driver/library version mismatch" in (s.error or "")
            fake.set({"steps": [LOST_STEP]})
            s = snapshot(conn, "snap")
            assert "Unknown Error" in (s.error or "")
            assert [g.utilization_gpu for g in s.gpus] == [88.0, 91.0, None]
        finally:
            conn.close()
    with gpu_server("none", None) as _:
        conn = open_connection("none")
        try:
            s = snapshot(conn, "none")
            assert "nvidia-smi is not installed" in (s.error or "")
        finally:
            conn.close()


def test_hub_one_failing_host_does_not_stop_the_other():
    with gpu_server("good", {"steps": [busy(2)]}) as _, gpu_server("bad", {"steps": [DRIVER_STEP]}) as _b:
        hub = MonitorHub(interval_s=1.0, process_every_s=0.5, retry_s=0.2)
        sink = Samples()
        hub.subscribe(sink)
        try:
            hub.watch("good")
            hub.watch("bad")
            sink.wait_for(lambda s: s.host == "bad" and s.error is not None)
            n_good = sum(1 for s in sink.all if s.host == "good" and s.gpus)
            sink.wait_for(lambda s: s.host == "good" and bool(s.gpus)
                          and sum(1 for x in sink.all if x.host == "good" and x.gpus) > n_good + 1)
            assert [g.index for g in hub.history.gpus("good")] == [0, 1]
            t, v = hub.history.series("good", hub.history.gpus("good")[0].uuid, "utilization_gpu")
            assert len(t) == len(v) and v[-1] == 97.0
        finally:
            hub.close()


def test_lost_gpu_in_the_stream_keeps_the_healthy_ones_updating():
    with gpu_server("lost", {"steps": [LOST_STEP]}) as _:
        sink = Samples()
        stream, conns = _stream("lost", sink)
        stream.start()
        try:
            s = sink.wait_for(lambda s: len(s.gpus) == 3)
            assert s.error is not None and "Unknown Error" in s.error
            healthy = [g for g in s.gpus if g.uuid.startswith("GPU-")]
            assert [g.utilization_gpu for g in healthy] == [88.0, 91.0]
            assert [g.status for g in s.gpus if g.uuid.startswith("bus:")] == ["lost: Unknown Error"]
            sink.wait_for(lambda s: len(s.gpus) == 3)  # and it keeps coming
        finally:
            _close(stream, conns)


def test_hub_own_connection_reconnects_after_a_drop():
    with gpu_server("hubdrop", {"steps": [busy(1)]}) as (server, _fake):
        hub = MonitorHub(interval_s=1.0, process_every_s=0.5, retry_s=0.2)
        sink = Samples()
        unsubscribe = hub.subscribe(sink)
        try:
            hub.watch("hubdrop")
            sink.wait_for(lambda s: bool(s.gpus))
            assert hub.states() == {"hubdrop": "streaming"}
            assert server.drop_connections() > 0
            sink.wait_for(lambda s: s.error is not None)
            sink.wait_for(lambda s: bool(s.gpus) and s.error is None)
            unsubscribe()
            hub.unwatch("hubdrop")
            assert hub.watched() == []
        finally:
            hub.close()
