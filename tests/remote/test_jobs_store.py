"""The jobs' local side without a host: the spec's checks, the store across a restart (a new Store on the
same file), the stall rule and the JSON on a fake clock, the run.sh the host gets, the CLI's split of
options and command."""

from __future__ import annotations

import json
import shlex
import subprocess

import pytest

from app.cli.jobs import printable_log, split_command
from app.core.errors import InputError
from app.core.jobs import JobRecord, JobSpec, JobStore
from app.core.paths import default_paths
from app.core.store import Store
from app.core.vocab import JobState, JobThen
from app.remote import jobs as hostjobs
from app.usecases import jobs as uc


def test_spec_checks():
    ok = JobSpec(host="h", argv=["python", "t.py"], then="pull-and-stop", stall_minutes=5).validate()  # type: ignore[arg-type]
    assert ok.then is JobThen.PULL_AND_STOP
    for bad in (dict(host=" "), dict(then="explode"), dict(stall_minutes=0), dict(stall_minutes=float("nan")),
                dict(stall_action="reboot"), dict(name="a\x1bb"), dict(name="x" * 101)):
        with pytest.raises(InputError):
            JobSpec(**{"host": "h", "argv": ["x"], **bad}).validate()  # type: ignore[arg-type]
    for argv in ([], [""], ["a\x00b"], ["x" * (200 * 1024)]):
        with pytest.raises(InputError):
            hostjobs.check_argv(argv)


def test_store_survives_a_restart_and_finds_by_prefix_or_name():
    paths = default_paths()
    js = JobStore(Store(paths=paths))
    rec = JobRecord.from_spec("0123456789abcdef", JobSpec(host="h", argv=["a b", "$c"], name="bert"), now=100.0)
    rec.progress_state = {"v": 1, "pending": "50%|"}
    js.save(rec)
    js.save(JobRecord.from_spec("0123ffffffffffff", JobSpec(host="g", argv=["x"]), now=200.0))
    again = JobStore(Store(paths=paths))  # a new process' view of the same database
    got = again.get(rec.id)
    assert got == rec
    assert [r.id for r in again.find("0123")] == ["0123456789abcdef", "0123ffffffffffff"]
    assert [r.id for r in again.find("bert")] == [rec.id]
    assert [r.id for r in again.all("g")] == ["0123ffffffffffff"] and again.hosts() == ["g", "h"]
    with pytest.raises(InputError):
        uc.find_job(again.store, "0123")  # two jobs: ambiguous
    assert uc.find_job(again.store, "01234").id == rec.id
    with pytest.raises(ValueError):
        js.save(JobRecord(id="../x", host="h"))


def test_a_damaged_row_reads_as_a_lost_job_not_a_crash():
    store = Store(paths=default_paths())
    JobStore(store)
    with store.transaction() as c:
        c.execute("INSERT INTO jobs(id, host, record, state, created_at, updated_at) VALUES(?,?,?,?,?,?)",
                  ("abcdefabcdefabcd", "h", json.dumps({"id": "abcdefabcdefabcd", "host": "h", "state": "odd",
                                                        "then": "??", "junk": 1}), "odd", 1.0, 1.0))
    rec = JobStore(store).get("abcdefabcdefabcd")
    assert rec is not None and rec.state is JobState.LOST and rec.then is JobThen.NOTHING


def test_stalled_and_json_on_a_fake_clock():
    rec = JobRecord.from_spec("0123456789abcdef", JobSpec(host="h", argv=["x"], stall_minutes=10), now=1000.0)
    rec.last_progress_at = 1000.0
    assert not uc.stalled(rec, 1000.0 + 599)
    assert uc.stalled(rec, 1000.0 + 600)
    rec.state = JobState.EXITED
    rec.exit_code = 0
    assert not uc.stalled(rec, 1e9)  # only a running job stalls
    doc = uc.job_json(rec)
    assert {"id", "name", "host", "state", "exit_code", "steps_per_s", "eta_s", "started", "last_line",
            "runtime_s", "then"} <= set(doc)
    assert doc["state"] == "exited" and doc["exit_code"] == 0 and doc["then"] == "nothing"
    rec.state, rec.exit_code = JobState.RUNNING, None
    assert uc.job_json(rec)["exit_code"] is None
    json.dumps(doc)  # plain JSON


def test_run_sh_rebuilds_the_argv_exactly():
    """The script's argv line, parsed by a real POSIX sh, gives back every argument byte for byte."""
    args = ["it's", "$(id)", "a;b", "two\nlines", "", "tab\there", "'", '"', "\\", "ü✓", "-x"]
    script = hostjobs.job_script("0123456789abcdef", args, "~/w d", "n").decode()
    line = next(ln for ln in script.splitlines() if ln.startswith("set -- "))
    start = script.index(line)
    block = script[start:script.index("\n  ( exec", start)]
    out = subprocess.run(["sh", "-c", block + '\nfor a in "$@"; do printf "%s\\0" "$a"; done'],
                         capture_output=True, check=True).stdout
    assert out.decode().split("\0")[:-1] == args
    header = json.loads(script.splitlines()[1][len("# labgpu-job "):])
    assert header["argv"] == args and header["workdir"] == "~/w d"
    assert "W=" + shlex.quote("~/w d") in script


def test_cli_splits_options_from_the_command():
    assert split_command(["--name", "x", "--", "python", "-c", "1", "--", "y"]) == (
        ["--name", "x"], ["python", "-c", "1", "--", "y"])
    assert split_command(["python", "--", "x"]) == ([], ["python", "--", "x"])  # argparse ate the first --
    with pytest.raises(InputError):
        split_command(["--name", "x"])
    assert printable_log("\x1b[2J 10%|#\r 20%|##\r\n") == "\\x1b[2J 10%|#\n 20%|##\n"
