"""Training jobs on a real sshd, with tmux on the user's PATH and without it (setsid): the argv arrives as
typed, the job survives its connection being cut, a restart finds it, another laptop's job is listed,
stop ends it (TERM, then KILL for one that ignores TERM), a host whose clock is off still gives right
durations, and a host that lies (odd folder names, a huge or binary log, forged files) neither crashes
nor misleads."""

from __future__ import annotations

import calendar
import json
import threading
import time

import pytest

from app.core.errors import InputError, LabGpuError
from app.core.jobs import JobSpec, JobStore
from app.core.paths import default_paths
from app.core.store import Store
from app.core.vocab import JobState
from app.remote import jobs as hostjobs
from app.remote.ssh import open_connection
from app.usecases import jobs as uc
from tests.fixtures.waits import wait_for
from tests.remote.jobs_support import jobs_server, remove_job, saved, standin

pytestmark = pytest.mark.usefixtures("private_home")

WEIRD = ["it's", 'say "hi"', "$HOME", "`id`", "a; rm -rf ~", "two\nlines", "", "  spaced  ", "*", "\\n",
         "ünï ✓", "--flag=$(date)"]


@pytest.fixture(params=["tmux", "no-tmux"], scope="module")
def server(request):
    with jobs_server(tmux=request.param == "tmux") as srv:
        yield request.param, srv


@pytest.fixture
def host(server):
    kind, srv = server
    with saved(srv, f"jobs-{kind}") as name:
        yield name, kind, srv


def _store() -> Store:
    return Store(paths=default_paths())


def _ended(store, job_id, timeout=120.0):
    def ended():
        rec = uc.refresh(default_paths(), store, job_id)
        return rec if rec.state != JobState.RUNNING else None

    return wait_for(ended, timeout, f"job {job_id} to end", interval=0.2)


def test_probe_says_tmux_or_setsid(host):
    name, kind, _server = host
    conn = open_connection(name)
    try:
        assert hostjobs.probe(conn) == ("tmux" if kind == "tmux" else "setsid")
    finally:
        conn.close()


def test_argv_arrives_exactly_as_typed(host):
    name, kind, _server = host
    store = _store()
    rec = uc.start_job(default_paths(), store, JobSpec(host=name, argv=standin("--steps", "1", "--echo-argv",
                                                                               *WEIRD), name="argv"))
    assert rec.detach == ("tmux" if kind == "tmux" else "setsid")
    done = _ended(store, rec.id)
    assert done.state == JobState.EXITED and done.exit_code == 0
    text = "".join(uc.follow(default_paths(), store, rec.id, stop_event=threading.Event(), until_end=False))
    line = next(ln for ln in text.splitlines() if ln.startswith("ARGV "))
    assert json.loads(line[5:]) == WEIRD


def test_a_program_not_a_shell_line(host):
    name, _kind, _server = host
    store = _store()
    rec = uc.start_job(default_paths(), store, JobSpec(host=name, argv=["exit", "3"]))
    done = _ended(store, rec.id)
    assert done.state == JobState.EXITED and done.exit_code == 127  # no program "exit": never a shell's builtin


def test_survives_a_cut_connection_and_a_restart(host, host_tmp):
    name, _kind, server = host
    store = _store()
    paths = default_paths()
    gate = host_tmp("labgpu-jobs-gate")
    rec = uc.start_job(paths, store, JobSpec(host=name, argv=standin("--steps", "20", "--sleep", "0.05",
                                                                     "--hold", gate), name="survive"))
    conn = open_connection(name)
    try:
        assert hostjobs.status(conn, rec.id).state == JobState.RUNNING
        assert server.drop_connections() > 0  # every SSH session cut mid-run
        wait_for(lambda: not conn.is_active, 30, "the cut connection to be seen")
    finally:
        conn.close()
    # a restart: a new store on the same database, a new connection
    store2 = _store()
    assert JobStore(store2).get(rec.id) is not None
    assert uc.refresh(paths, store2, rec.id).state == JobState.RUNNING
    c2 = open_connection(name)
    try:
        c2.exec(["touch", gate])
    finally:
        c2.close()
    done = _ended(store2, rec.id)
    assert done.state == JobState.EXITED and done.exit_code == 0
    assert done.runtime_s is not None and done.runtime_s >= 1  # 20 × 0.05 s at least
    assert done.started and done.started.endswith("Z")
    assert "steps/s" in done.last_line


def test_another_laptops_job_is_listed(host):
    name, _kind, _server = host
    paths, store = default_paths(), _store()
    rec = uc.start_job(paths, store, JobSpec(host=name, argv=standin("--steps", "1"), name="elsewhere",
                                             workdir="~"))
    JobStore(store).remove(rec.id)  # this computer never heard of it
    try:
        listed = {r.id: r for r in uc.list_jobs(paths, store, name)}
        assert rec.id in listed
        found = listed[rec.id]
        assert found.origin == "host" and found.name == "elsewhere" and found.argv == standin("--steps", "1")
        assert found.workdir == "~"
    finally:
        remove_job(name, rec.id)


def test_a_new_job_is_found_behind_hundreds_of_old_ones(host):
    """A host with more old job folders than one refresh records (uc.MAX_DISCOVER): the newest come first,
    so another laptop's job started just now is listed."""
    name, _kind, server = host
    jobs_dir = f"{server.pw.pw_dir}/.labgpu/jobs"
    old = [hostjobs.new_id() for _ in range(uc.MAX_DISCOVER + 50)]
    paths, store = default_paths(), _store()
    conn = open_connection(name)
    try:
        rc, _out, err = conn.exec(["sh", "-c", 'cd "$1" && shift && mkdir "$@" && touch -d "2020-01-01" "$@"',
                                   "old", jobs_dir, *old])
        assert rc == 0, err
        rec = uc.start_job(paths, store, JobSpec(host=name, argv=standin("--steps", "1"), name="fresh"))
        JobStore(store).remove(rec.id)  # started elsewhere, as far as this computer knows
        assert hostjobs.list_ids(conn)[0] == rec.id
        listed = {r.id: r for r in uc.list_jobs(paths, store, name)}
        assert rec.id in listed and listed[rec.id].name == "fresh"
    finally:
        conn.exec(["sh", "-c", 'cd "$1" && shift && rm -rf -- "$@"', "old", jobs_dir, *old])
        conn.close()
        remove_job(name, rec.id)
        for jid in old:
            JobStore(store).remove(jid)


def test_stop_terms_then_kills(host, host_tmp):
    name, _kind, _server = host
    paths, store = default_paths(), _store()
    polite = uc.start_job(paths, store, JobSpec(host=name, argv=["sleep", "600"]))
    out = uc.stop_job(paths, store, polite.id, grace_s=30)
    assert out.state == JobState.EXITED and out.exit_code == 143  # ended on TERM, well within the grace
    ready = host_tmp("labgpu-jobs-ready")
    stubborn = uc.start_job(paths, store, JobSpec(host=name, argv=standin("--ignore-term", "--ready", ready,
                                                                          "--stall-after", "0")))
    conn = open_connection(name)
    try:
        wait_for(lambda: conn.exec(["test", "-s", ready])[0] == 0, 60, "the stand-in to ignore TERM")
        t0 = time.monotonic()
        result = hostjobs.stop(conn, stubborn.id, grace_s=1)
        assert result.how == "killed" and time.monotonic() - t0 >= 1
        st = hostjobs.status(conn, stubborn.id)
        assert st.state == JobState.EXITED and st.exit_code == 137 and st.killed
        pid = conn.exec(["cat", ready])[1].strip()
        # the command itself is gone, not just its wrapper (a zombie for a moment, until it is reaped)
        wait_for(lambda: conn.exec(["kill", "-0", pid])[0] != 0, 30, "the stand-in to be gone")
        assert hostjobs.stop(conn, stubborn.id).how == "none"  # nothing left to stop
    finally:
        conn.close()


def test_a_host_clock_off_by_days_gives_right_durations(host):
    name, _kind, server = host
    fake_date = ('#!/bin/sh\nif [ "$1" = "+%s" ]; then echo $(( $(/bin/date +%s) + 3*86400 )); '
                 'else exec /bin/date "$@"; fi\n')
    server.install_executable("date", fake_date)
    try:
        paths, store = default_paths(), _store()
        before = time.time()
        rec = uc.start_job(paths, store, JobSpec(host=name, argv=standin("--steps", "40", "--sleep", "0.05")))
        started = calendar.timegm(time.strptime(rec.started, "%Y-%m-%dT%H:%M:%SZ"))
        assert before - 5 <= started <= time.time() + 5  # this computer's time, not the host's (3 days ahead)
        done = _ended(store, rec.id)
        assert done.runtime_s is not None and 1 <= done.runtime_s < 120  # whole seconds of the host's clock
    finally:
        (server.bin_dir / "date").unlink()


def test_ids_from_a_host_are_never_paths(host):
    name, _kind, server = host
    home = server.pw.pw_dir
    conn = open_connection(name)
    try:
        for odd in ("..x", "ABCDEF0123456789", "0123456789abcdef0", "x;id", "-rf"):
            conn.exec(["mkdir", "-p", f"{home}/.labgpu/jobs/{odd}"])
        ids = hostjobs.list_ids(conn)
        assert all(hostjobs.is_job_id(i) for i in ids)
        for odd in ("../x", "..x", "ABCDEF0123456789", "/etc/passwd", "0" * 15):
            with pytest.raises(InputError):
                hostjobs.status(conn, odd)
            with pytest.raises(InputError):
                hostjobs.read_log(conn, odd, 0)
            with pytest.raises(InputError):
                hostjobs.stop(conn, odd)
    finally:
        for odd in ("..x", "ABCDEF0123456789", "0123456789abcdef0", "x;id", "-rf"):
            conn.exec(["rm", "-rf", "--", f"{home}/.labgpu/jobs/{odd}"])
        conn.close()


def test_a_lying_host_neither_crashes_nor_misleads(host):
    """Forged files in a job folder: a pid of 1 with process group 1, an exit code of 999, a meta line with
    escapes, a 5 GB sparse log with binary junk and carriage-return bars at its end."""
    name, _kind, server = host
    jid = hostjobs.new_id()
    d = f"{server.pw.pw_dir}/.labgpu/jobs/{jid}"
    meta = json.dumps({"name": "\x1b]52;c;cm0=\x07evil\x1b[2J", "argv": ["x"] * 5000, "workdir": 7})
    forge = (f'mkdir -p "{d}" && printf "pid=1\\npgid=1\\nstarted=abc\\n" > "{d}/proc" && '
             f'printf "code=999\\nended=-5\\n" > "{d}/exit" && '
             f"printf '%s\\n%s\\n' '#!/bin/sh' '# labgpu-job '\"$1\" > \"{d}/run.sh\" && "
             f'truncate -s 5G "{d}/log" && head -c 300000 /dev/urandom >> "{d}/log" && '
             f'printf "\\r 50%%|#####     | 50/100 [00:05<00:05, 9.50it/s]\\000\\377" >> "{d}/log"')
    try:
        conn = open_connection(name)
        try:
            rc, _out, err = conn.exec(["sh", "-c", forge, "forge", meta])
            assert rc == 0, err
            st = hostjobs.status(conn, jid, meta=True)
            assert st.state == JobState.LOST and st.exit_code is None and st.started_epoch is None
            assert st.meta is not None and "\x1b" not in st.meta.name and len(st.meta.argv) <= 200
            assert st.log_size > 5 * 1024 ** 3
            assert hostjobs.stop(conn, jid).how == "none"  # pid 1 is not this job's wrapper: nothing is signalled
            data, nxt, size = hostjobs.read_log(conn, jid, 0, 10 * 1024 * 1024)
            assert len(data) <= hostjobs.MAX_READ and nxt == len(data) and size == st.log_size
        finally:
            conn.close()
        paths, store = default_paths(), _store()
        listed = {r.id: r for r in uc.list_jobs(paths, store, name)}
        rec = listed[jid]
        assert rec.state == JobState.LOST and rec.exit_code is None and rec.origin == "host"
        assert rec.log_offset >= rec.log_size - uc.READS_PER_REFRESH * uc.READ_CHUNK  # only its end was read
        assert "\x00" not in rec.last_line and len(rec.last_line) < 5000
        assert rec.step == 50 and rec.total == 100  # the bar at its end still reads
    finally:
        remove_job(name, jid)  # 5 GB (sparse) and not this test's LabGPU's own job


def test_follow_reads_from_an_offset_in_bounded_chunks(host):
    name, _kind, _server = host
    paths, store = default_paths(), _store()
    rec = uc.start_job(paths, store, JobSpec(host=name, argv=[
        "python3", "-c", "import sys; sys.stdout.write(''.join('line %05d\\n' % i for i in range(20000)))"]))
    _ended(store, rec.id)
    chunks = list(uc.follow(paths, store, rec.id, from_offset=11 * 10000, stop_event=threading.Event(),
                            max_bytes=4096))
    assert all(len(c.encode()) <= 4096 for c in chunks) and len(chunks) > 20
    text = "".join(chunks)
    assert text.startswith("line 10000\n") and text.endswith("line 19999\n")
    tail = "".join(uc.follow(paths, store, rec.id, from_offset=-11, stop_event=threading.Event()))
    assert tail == "line 19999\n"


def test_a_long_log_is_caught_up_whole_and_in_order(host):
    """More than a MiB behind: the log comes over one pipelined SFTP read (hostjobs.stream_log), byte for
    byte, in bounded chunks; a log that is not a regular file (a FIFO a host put there) is not streamed."""
    name, _kind, server = host
    paths, store = default_paths(), _store()
    rec = uc.start_job(paths, store, JobSpec(host=name, argv=[
        "python3", "-c", "import sys; sys.stdout.write(''.join('line %07d\\n' % i for i in range(300000)))"]))
    _ended(store, rec.id)
    chunks = list(uc.follow(paths, store, rec.id, stop_event=threading.Event(), max_bytes=64 * 1024))
    assert all(len(c.encode()) <= 64 * 1024 for c in chunks)
    assert "".join(chunks) == "".join(f"line {i:07d}\n" for i in range(300000))  # 3.6 MB, nothing lost or doubled
    jid = hostjobs.new_id()
    d = f"{server.pw.pw_dir}/.labgpu/jobs/{jid}"
    conn = open_connection(name)
    try:
        rc, _out, err = conn.exec(["sh", "-c", f'mkdir -p "{d}" && mkfifo "{d}/log"'])
        assert rc == 0, err
        assert hostjobs.stream_log(conn, jid, 0, 10 * 1024 * 1024) is None  # never a read that blocks
        assert hostjobs.read_log(conn, jid, 0, 4096)[0] == b""
    finally:
        conn.close()
        remove_job(name, jid)


def test_follow_ends_when_asked():
    stop = threading.Event()
    stop.set()
    # the id is checked against the store first: no job, no connection
    with pytest.raises(InputError):
        list(uc.follow(default_paths(), _store(), "0" * 16, stop_event=stop))


def test_a_start_that_fails_leaves_nothing_behind(host):
    name, _kind, server = host
    server.install_executable("tmux", '#!/bin/sh\n[ "$1" = -V ] && { echo "tmux 9.9"; exit 0; }\n'
                                      'echo "error connecting to /tmp/tmux-0/labgpu (Permission denied)" >&2\nexit 1\n')
    conn = open_connection(name)
    try:
        before = set(hostjobs.list_ids(conn))  # the shared home may hold other tests' jobs
        paths, store = default_paths(), _store()
        with pytest.raises(LabGpuError) as info:
            uc.start_job(paths, store, JobSpec(host=name, argv=["true"], name="refused"))
        assert info.value.code == "JobStart" and "Permission denied" in info.value.text()
        assert JobStore(store).all() == []
        new = [i for i in hostjobs.list_ids(conn) if i not in before]
        metas = hostjobs.statuses(conn, new, meta=True).values()
        assert not [st for st in metas if st.meta and st.meta.name == "refused"]  # its folder went with it
    finally:
        conn.close()
        (server.bin_dir / "tmux").unlink()


def test_the_command_gets_the_logins_umask_and_environment(host):
    """Its folder is private (umask 077 while LabGPU writes it), but the command's own files are made with the
    login's umask, and it sees the login's PATH (in tmux too, whose server may be older than this login)."""
    name, _kind, server = host
    conn = open_connection(name)
    try:
        login = conn.exec(["sh", "-c", "umask; echo $PATH"])[1]
    finally:
        conn.close()
    paths, store = default_paths(), _store()
    rec = uc.start_job(paths, store, JobSpec(host=name, argv=["sh", "-c", "umask; echo $PATH"]))
    _ended(store, rec.id)
    text = "".join(uc.follow(paths, store, rec.id, stop_event=threading.Event(), until_end=False))
    assert text == login and str(server.bin_dir) in text


def test_lost_when_the_process_dies_without_an_exit_status_or_the_folder_goes(host):
    """What a reboot or an OOM kill leaves: the wrapper and its command gone with no exit file; and a job
    folder someone deleted."""
    name, _kind, server = host
    paths, store = default_paths(), _store()
    killed = uc.start_job(paths, store, JobSpec(host=name, argv=["sleep", "600"]))
    deleted = uc.start_job(paths, store, JobSpec(host=name, argv=["sleep", "600"]))
    conn = open_connection(name)
    try:
        pgid = conn.exec(["sh", "-c", 'ps -o pgid= -p "$1"', "x", str(killed.pid)])[1].strip()
        assert conn.exec(["kill", "-KILL", "--", f"-{pgid}"])[0] == 0
        hostjobs.stop(conn, deleted.id, grace_s=5)
        conn.exec(["rm", "-rf", f"{server.pw.pw_dir}/.labgpu/jobs/{deleted.id}"])
    finally:
        conn.close()
    lost = wait_for(lambda: (lambda r: r if r.state == JobState.LOST else None)(uc.refresh(paths, store, killed.id)),
                    30, "the killed job to read as lost", interval=0.1)
    assert lost.exit_code is None
    gone = uc.refresh(paths, store, deleted.id)
    assert gone.state == JobState.LOST and gone.exit_code is None
    assert uc.job_json(gone)["state"] == "lost"
