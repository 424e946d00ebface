"""Following a job's TensorBoard folder on a real sshd: events written on the host side by a real
writer (tensorboardX) are read incrementally, only from where the last poll stopped; hostile names,
symlinks, a FIFO and a huge file neither crash the follower nor lead it out of the folder."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
from pathlib import Path

import pytest
from tensorboardX import SummaryWriter
from tensorboardX.event_file_writer import EventsWriter
from tensorboardX.proto.event_pb2 import Event
from tensorboardX.summary import scalar

from app.core.errors import InputError
from app.remote import tbread
from app.remote.ssh import open_connection
from app.remote.tbread import TbFollower, folder_argument
from tests.remote.gpu_support import save_host

pytestmark = pytest.mark.usefixtures("private_home")


@pytest.fixture
def conn(sshd):
    save_host(sshd, "tbhost")
    c = open_connection("tbhost")
    yield c
    c.close()


def _steps(events, tag="loss"):
    return [e.step for e in events if e.tag == tag]


def _write_steps(writer: EventsWriter, steps: range) -> None:
    """What SummaryWriter.add_scalar writes, through the synchronous writer underneath it (its own
    queue thread gives no moment at which the file is known to hold a step)."""
    for i in steps:
        writer.write_event(Event(wall_time=1.7e9 + i, step=i, summary=scalar("loss", 1.0 / (i + 1))))
    writer.flush()


def test_events_are_read_incrementally_and_resume_after_a_restart(sshd, conn):
    remote = sshd.remote_dir("tb-incr")
    run = remote / "runs" / "exp1"
    run.mkdir(parents=True)
    w = EventsWriter(str(run / "events"))
    _write_steps(w, range(10))
    sshd.chown_to_user(remote)
    f = TbFollower("runs", base=str(remote))  # relative to the job's working folder
    first = f.poll(conn)
    assert _steps(first) == list(range(10))
    assert f.exists is True and len(f.files) == 1 and f.files[0].startswith("./exp1/events.out.tfevents.")
    assert f.poll(conn) == []  # nothing new: nothing read again
    _write_steps(w, range(10, 25))
    # the app restarts between refreshes: the follower comes back from its JSON
    again = TbFollower.from_json(f.to_json())
    got = again.poll(conn)
    w.close()
    assert _steps(got) == list(range(10, 25))
    assert [e.wall_time for e in got] == [1.7e9 + i for i in range(10, 25)]
    assert f.corrupt == 0 and again.corrupt == 0


def test_a_torn_record_waits_for_the_rest(sshd, conn, tmp_path):
    remote = sshd.remote_dir("tb-torn")
    w = SummaryWriter(str(tmp_path / "src"))
    for i in range(3):
        w.add_scalar("loss", float(i), i)
    w.close()
    (src,) = (tmp_path / "src").glob("events.out.tfevents.*")
    data = src.read_bytes()
    target = remote / src.name
    target.write_bytes(data[:-10])  # the writer is mid-record
    sshd.chown_to_user(remote)
    f = TbFollower(str(remote))
    assert _steps(f.poll(conn)) == [0, 1]
    with target.open("ab") as fh:
        fh.write(data[-10:])
    assert _steps(f.poll(conn)) == [2]


def test_a_missing_folder_is_not_an_error_and_is_found_once_made(sshd, conn):
    remote = sshd.remote_dir("tb-later")
    f = TbFollower(str(remote / "not-yet"))
    assert f.poll(conn) == [] and f.exists is False
    w = SummaryWriter(str(remote / "not-yet"))
    w.add_scalar("loss", 0.5, 7)
    w.close()
    sshd.chown_to_user(remote)
    assert _steps(f.poll(conn)) == [7] and f.exists is True


def test_hostile_names_symlinks_fifo_and_a_huge_file(sshd, conn, tmp_path):
    remote = sshd.remote_dir("tb-hostile")
    logdir = remote / "logs"
    w = SummaryWriter(str(logdir))
    for i in range(5):
        w.add_scalar("loss", float(i), i)
    w.close()
    (good,) = logdir.glob("events.out.tfevents.*")
    # a name that a shell would run, one with a newline, one with a tab and a leading dash in a folder
    shutil.copy(good, logdir / "events.out.tfevents.1.$(touch PWNED)")
    shutil.copy(good, logdir / "events.out.tfevents.2.a\nb")
    (logdir / "-rf").mkdir()
    shutil.copy(good, logdir / "-rf" / "events.out.tfevents.3.\tdash")
    shutil.copy(good, logdir / "-rf" / "events.out.tfevents.8.ok")
    # outside the folder: reachable only through symlinks, which are not followed
    outside = remote / "outside"
    w2 = SummaryWriter(str(outside))
    w2.add_scalar("secret", 42.0, 1)
    w2.close()
    (secret,) = outside.glob("events.out.tfevents.*")
    os.symlink(secret, logdir / "events.out.tfevents.4.link")
    os.symlink(outside, logdir / "linked-dir")
    os.symlink("/etc/shadow", logdir / "events.out.tfevents.5.shadow")
    os.mkfifo(logdir / "events.out.tfevents.6.fifo")
    # a 20 GB sparse file of zeros: read a bounded slice per poll, never whole
    with (logdir / "events.out.tfevents.7.huge").open("wb") as fh:
        fh.truncate(20 * 1024**3)
    sshd.chown_to_user(remote)

    f = TbFollower(str(logdir))
    events = f.poll(conn)
    names = f.files
    assert "./events.out.tfevents.1.$(touch PWNED)" in names
    assert "./-rf/events.out.tfevents.3.\tdash" not in names  # a control character in the name
    assert not any("link" in n or "shadow" in n or "fifo" in n or "\n" in n or "linked-dir" in n for n in names)
    assert f.skipped_names >= 1
    assert not (logdir / "PWNED").exists() and not (Path(sshd.pw.pw_dir) / "PWNED").exists()
    assert "secret" not in {e.tag for e in events}
    assert "./-rf/events.out.tfevents.8.ok" in names
    assert sorted(_steps(events)) == sorted(list(range(5)) * 3)  # the good file, the $(…) one, -rf/…ok
    huge = next(n for n in f.to_json()["files"] if n.endswith("huge"))
    pos1 = f.to_json()["files"][huge]["consumed"]
    assert 0 < pos1 <= tbread.MAX_FILE_BYTES
    assert f.poll(conn) == []
    pos2 = f.to_json()["files"][huge]["consumed"]
    assert pos1 < pos2 <= 2 * tbread.MAX_FILE_BYTES


def test_a_folder_with_a_leading_dash_is_never_an_option(sshd, conn):
    home = Path(sshd.pw.pw_dir)
    name = f"-tb-{secrets.token_hex(4)}"
    assert folder_argument(name) == f"./{name}"
    folder = home / name
    try:
        w = SummaryWriter(str(folder))
        w.add_scalar("loss", 1.0, 3)
        w.close()
        subprocess.run(["chown", "-R", f"{sshd.user}:", str(folder)], check=True)
        f = TbFollower(name)  # relative: the login home
        assert _steps(f.poll(conn)) == [3]
        assert _steps(TbFollower("~/" + name).poll(conn)) == [3]
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_many_files_are_bounded_to_the_newest(sshd, conn, tmp_path):
    remote = sshd.remote_dir("tb-many")
    w = SummaryWriter(str(tmp_path / "src"))
    w.add_scalar("loss", 1.0, 1)
    w.close()
    (src,) = (tmp_path / "src").glob("events.out.tfevents.*")
    for i in range(tbread.MAX_FILES + 10):
        shutil.copy(src, remote / f"events.out.tfevents.{1700000000 + i}.host")
    sshd.chown_to_user(remote)
    f = TbFollower(str(remote))
    assert len(f.poll(conn)) == tbread.MAX_FILES  # the newest by the time in their names
    assert f.files == sorted(f"./events.out.tfevents.{1700000000 + i}.host" for i in range(10, 26))
    recent = TbFollower(str(remote), since=1700000000 + 80)  # the job started then: older runs are not its
    assert len(recent.poll(conn)) == 6 and len(recent.files) == 6


def test_bad_folders_and_damaged_state():
    for bad in ("a\nb", "x\x00", "y" * 5000):
        with pytest.raises(InputError):
            TbFollower(bad)
    f = TbFollower.from_json({"v": 1, "logdir": "runs", "files": {"../../etc/x": {}, "./events.out.tfevents.1.h":
                                                                   {"consumed": -5}, "./ok": 3}})
    assert f.files == ["./events.out.tfevents.1.h"] and f.to_json()["files"]["./events.out.tfevents.1.h"][
        "consumed"] == 0
    assert TbFollower.from_json({"junk": True}).folder == "."
