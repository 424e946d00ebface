"""Downloads over SFTP: local folders first, pipelined READs into temporary files (whole files or
one byte range of a big file fetched as parallel ranges), verified resume, then the rename into place."""

from __future__ import annotations

import contextlib
import logging
import math
import os
import threading
from collections import deque
from collections.abc import Iterator
from dataclasses import replace

from paramiko.sftp import (
    CMD_ATTRS,
    CMD_CLOSE,
    CMD_FSTAT,
    CMD_OPEN,
    CMD_READ,
    CMD_STATUS,
    SFTP_EOF,
    SFTP_FLAG_READ,
    int64,
)
from paramiko.sftp_attr import SFTPAttributes

from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.syncplan import PlanItem, SyncPlan, remote_join

from .attempt import Attempt
from .errors import SyncError, local_error, source_changed_error
from .local import LocalRoot, local_umask, sha256_file
from .sftp import Channel, SftpError, attrs_from_msg
from .shell import ReadCmd, RemoteShell, quote_path
from .tuning import IN_FLIGHT, REQUEST_SIZE

log = logging.getLogger(__name__)


class ByteSplit:
    """One big download fetched as byte ranges by several workers into the same temporary file."""

    def __init__(self, item: PlanItem, tmp: str, parts: int) -> None:
        self.item = item
        self.tmp = tmp
        self.lock = threading.Lock()
        step = -(-item.size // parts)
        bounds = [(k * step, min(item.size, (k + 1) * step)) for k in range(parts)]
        self.parts = [ByteSplitPart(self, a, b) for a, b in bounds if a < b]
        self.left = len(self.parts)
        self.complete = False

    def keep_prefix(self) -> None:
        """After a failure: cut the temporary file to its contiguous complete prefix, the part a
        later run can verify and resume from (ranges beyond a gap would only fail the check)."""
        if self.complete:
            return
        prefix = 0
        for p in self.parts:
            prefix = p.upto
            if p.upto < p.end:
                break
        with contextlib.suppress(OSError):
            os.truncate(self.tmp, prefix)


class ByteSplitPart:
    def __init__(self, split: ByteSplit, start: int, end: int) -> None:
        self.split, self.start, self.end, self.upto = split, start, end, start
        self.last = False  # set when this range was the last of its file to finish

    @property
    def item(self) -> PlanItem:
        return self.split.item

    def finish(self) -> bool:
        """Mark this range done; True for the last one (which then finishes the file)."""
        with self.split.lock:
            self.split.left -= 1
            last = self.split.left == 0
            if last:
                self.split.complete = True
            return last


def _changed(item: PlanItem, st: SFTPAttributes | None) -> bool:
    """True when the remote file's size or modification time (whole seconds: what SFTP v3 gives)
    after the transfer differ from the ones the transfer was planned with."""
    if st is None:
        return False
    if st.st_size is not None and st.st_size != item.size:
        return True
    return st.st_mtime is not None and st.st_mtime != math.floor(item.mtime)



@contextlib.contextmanager
def closed_on_error(ch: Channel, handle: bytes) -> Iterator[None]:
    """Close ``handle`` when the block raises; a block that ends normally leaves it open for
    :meth:`Downloader.stat_and_close` (one round trip for both)."""
    try:
        yield
    except BaseException:
        with contextlib.suppress(SftpError):
            ch.status(ch.send(CMD_CLOSE, handle))
        raise

class Downloader:
    """Remote → local over SFTP.

    A file that changes while it is read (a training job rewriting its checkpoint) would land as
    a torn copy, half old and half new. So every download ends with an FSTAT of its open handle,
    sent after its last READ was answered and pipelined with the CLOSE (no extra round trip): a
    size or mtime other than the listing's means it changed; it is fetched once more (planned
    from a fresh FSTAT), and if it changes again it is not put in place and the sync fails
    naming it (SourceChanged). Same-second, same-size rewrites are caught by ``verify``
    (sha256 on both sides), which guard and spot pulls always use (app.usecases.sync: a request's
    ``purpose``).
    """

    def __init__(self, a: Attempt) -> None:
        self.a = a

    def local_prepare(self, plan: SyncPlan) -> None:
        self.a.writable("create local folders")
        self.a.umask = local_umask()
        lr = LocalRoot(self.a.local)
        self.a.local.mkdir(parents=True, exist_ok=True)
        lr.real = os.path.realpath(self.a.local)
        for d in plan.mkdirs:
            path = lr.path(d)
            try:
                os.mkdir(path)
                self.a.result.mkdirs += 1
            except FileExistsError:
                pass
            except OSError as exc:
                raise local_error(exc, path) from None
        for p in plan.stale_parts:
            with contextlib.suppress(OSError, SyncError):
                os.unlink(lr.path(p))
        for d in plan.stale_dirs:  # emptied above, deepest first
            with contextlib.suppress(OSError, SyncError):
                os.rmdir(lr.path(d))

    def resume_download(self, shell: RemoteShell, lr: LocalRoot, item: PlanItem) -> tuple[str, int]:
        """Reuse a local temporary file whose prefix matches the remote source (sha256 both sides)."""
        n = item.resume_from
        if n <= 0 or not item.resume_part:
            return self.a.temp_for(item), 0
        if not self.a.caps.sha256:
            log.info("resume download %s: server has no sha256sum/head, restarting", item.path)
            return self.a.temp_for(item), 0
        with self.a.lock:
            self.a.temps[item.path] = item.resume_part
        rc, out, _e = shell.run(
            ReadCmd(
                b"head -c " + str(n).encode() + b" -- "
                + quote_path(remote_join(self.a.remote, item.path)) + b" | sha256sum"
            ),
            what="the check of the interrupted download",
            timeout=self.a.opts.step_timeout + n / (50 << 20),
        )
        ok = rc == 0 and out[:64].decode("ascii", "replace") == sha256_file(lr.path(item.resume_part), n)
        log.info("resume download %s from %d: prefix %s", item.path, n, "verified" if ok else "differs")
        return item.resume_part, (n if ok else 0)

    def download_batch(
        self, ch: Channel, lr: LocalRoot, job: list[PlanItem], shell: RemoteShell
    ) -> list[tuple[PlanItem, str]]:
        opened: list[tuple[PlanItem, int, int]] = []
        for item in job:
            _tmp, offset = self.resume_download(shell, lr, item)
            self.a.offsets[item.path] = offset
            opened.append(
                (item, ch.send(CMD_OPEN, self.a.rpath(item.path), SFTP_FLAG_READ, SFTPAttributes()), offset)
            )
        handles: list[tuple[PlanItem, bytes | None, int]] = []
        for item, num, offset in opened:
            try:
                handles.append((item, ch.handle(num), offset))
            except SftpError as exc:
                handles.append((item, None, offset))
                log.warning("cannot open remote %s: %s", item.path, exc)
        done: list[tuple[PlanItem, str]] = []
        failed: list[str] = []
        for item, handle, offset in handles:
            if handle is None:
                failed.append(item.path)
                continue
            with closed_on_error(ch, handle):
                dig = self.download_one(ch, lr, item, handle, offset)
            st = self.stat_and_close(ch, handle)
            if _changed(item, st):
                again = self.refetch(ch, lr, item)
                if again is None:
                    continue
                item, dig = again
            if self.a.opts.verify:
                done.append((item, dig))
                continue
            self.commit_local(lr, item)
        if failed:
            raise SyncError(
                QT_TRANSLATE_NOOP("LabGPU", "Could not read {path} on the server."),
                QT_TRANSLATE_NOOP("LabGPU", "It may have been removed or be unreadable; run the sync again."),
                code="RemoteReadFailed",
                path=failed[0],
            )
        return done

    def stat_and_close(self, ch: Channel, handle: bytes) -> SFTPAttributes | None:
        """FSTAT then CLOSE of a handle whose reads are all answered: one round trip for both."""
        fst = ch.send(CMD_FSTAT, handle)
        cls = ch.send(CMD_CLOSE, handle)
        t, msg = ch.wait(fst)
        st = attrs_from_msg(msg) if t == CMD_ATTRS else None
        with contextlib.suppress(SftpError):
            ch.status(cls)
        return st

    def refetch(self, ch: Channel, lr: LocalRoot, item: PlanItem) -> tuple[PlanItem, str] | None:
        """The file changed during its transfer: fetch it once more, planned from a fresh FSTAT of
        a fresh handle. None (recorded in ``_changed``, temporary file removed) if it changed again."""
        log.warning("%s changed while it was being downloaded; fetching it once more", item.path)
        with contextlib.suppress(OSError, SyncError):
            os.unlink(lr.path(self.a.temps[item.path]))
        self.a.offsets[item.path] = 0
        try:
            handle = ch.handle(ch.send(CMD_OPEN, self.a.rpath(item.path), SFTP_FLAG_READ, SFTPAttributes()))
        except SftpError:
            raise source_changed_error(item.path) from None  # gone or unreadable now
        with closed_on_error(ch, handle):
            t, msg = ch.wait(ch.send(CMD_FSTAT, handle))
            if t != CMD_ATTRS:
                raise source_changed_error(item.path)
            st0 = attrs_from_msg(msg)
            mtime = item.mtime if st0.st_mtime == math.floor(item.mtime) else float(st0.st_mtime or 0)
            new = replace(item, size=st0.st_size or 0, mtime=mtime, resume_from=0, resume_part="")
            self.a.temp_for(new)
            with self.a.progress.lock:
                self.a.progress.p.bytes_total += new.size
            dig = self.download_one(ch, lr, new, handle, 0)
        st1 = self.stat_and_close(ch, handle)
        if _changed(new, st1):
            log.warning("%s changed again while it was downloaded once more: not put in place", item.path)
            with contextlib.suppress(OSError, SyncError):
                os.unlink(lr.path(self.a.temps[item.path]))
            with self.a.lock:
                self.a.changed.append(item.path)
            return None
        return new, dig

    def download_one(
        self,
        ch: Channel,
        lr: LocalRoot,
        item: PlanItem,
        handle: bytes,
        offset: int,
        part: ByteSplitPart | None = None,
    ) -> str:
        """Pipelined READs into the temporary file; ``part`` = one byte range of a split file."""
        tmp = lr.path(self.a.temps[item.path])
        whole = part is None
        flags = (
            os.O_WRONLY
            | os.O_CREAT
            | (0 if (offset or not whole) else os.O_TRUNC)
            | getattr(os, "O_BINARY", 0)
        )
        try:
            fd = os.open(tmp, flags, 0o600)
        except OSError as exc:
            raise local_error(exc, tmp, item.size) from None
        try:
            if offset and whole:
                os.ftruncate(fd, offset)
            add, take = self.a.progress.add, self.a.take  # bound once: called per 255 KiB
            add(0, current=item.path)
            want: deque[tuple[int, int, int]] = deque()  # (request id, offset, length)
            next_off = offset
            size = item.size if part is None else part.end
            while next_off < size or want:
                while next_off < size and len(want) < IN_FLIGHT:
                    n = min(REQUEST_SIZE, size - next_off)
                    take(n)
                    want.append((ch.send(CMD_READ, handle, int64(next_off), n), next_off, n))
                    next_off += n
                num, off, length = want.popleft()
                t, msg, view = ch.wait_data(num)
                if t == CMD_STATUS:
                    code = msg.get_int()
                    if code == SFTP_EOF:
                        raise source_changed_error(item.path)
                    raise SyncError(
                        QT_TRANSLATE_NOOP("LabGPU", "Could not read {path} on the server: {why}"),
                        "",
                        code="RemoteReadFailed",
                        path=item.path,
                        why=msg.get_text(),
                    )
                data = view if view is not None else msg.get_string()
                if not data:
                    raise source_changed_error(item.path)
                try:
                    os.pwrite(fd, data, off)
                except OSError as exc:
                    raise local_error(exc, tmp, item.size) from None
                if part is not None:
                    part.upto = off + len(data)  # replies come in order: this is contiguous
                if len(data) < length:  # short read: ask for the rest right away
                    rest = off + len(data)
                    want.appendleft(
                        (ch.send(CMD_READ, handle, int64(rest), length - len(data)), rest, length - len(data))
                    )
                add(len(data))
            if part is not None:
                part.last = part.finish()
                if not part.last:
                    return ""  # another range of this file is still running; its worker finishes the file
            if hasattr(os, "fchmod"):
                # the local umask decides, as for any file made here: a remote 0777 (or a setuid
                # bit) never becomes a world-writable local file
                umask = self.a.umask if self.a.umask is not None else local_umask()
                mode = item.mode if self.a.opts.preserve_mode else 0o666
                with contextlib.suppress(OSError):
                    os.fchmod(fd, mode & 0o777 & ~umask)
        finally:
            os.close(fd)
        os.utime(tmp, (item.mtime, item.mtime))
        return sha256_file(tmp) if self.a.opts.verify else ""

    def download_part(self, ch: Channel, lr: LocalRoot, part: ByteSplitPart) -> list[tuple[PlanItem, str]]:
        item = part.item
        try:
            handle = ch.handle(ch.send(CMD_OPEN, self.a.rpath(item.path), SFTP_FLAG_READ, SFTPAttributes()))
        except SftpError:
            raise SyncError(
                QT_TRANSLATE_NOOP("LabGPU", "Could not read {path} on the server."),
                QT_TRANSLATE_NOOP("LabGPU", "It may have been removed or be unreadable; run the sync again."),
                code="RemoteReadFailed",
                path=item.path,
            ) from None
        open_handle: bytes | None = handle
        try:
            dig = self.download_one(ch, lr, item, handle, part.start, part)
            open_handle = None
            st = self.stat_and_close(ch, handle)
        finally:
            if open_handle is not None:
                with contextlib.suppress(SftpError):
                    ch.status(ch.send(CMD_CLOSE, open_handle))
        if _changed(item, st):
            # one range of a split file: reported (the next run fetches it again; its kept prefix
            # is checked by sha256 on both sides before it is reused)
            part.split.complete = False
            raise source_changed_error(item.path)
        if not part.last:
            return []
        if self.a.opts.verify:
            return [(item, dig)]
        self.commit_local(lr, item)
        return []

    def commit_local(self, lr: LocalRoot, item: PlanItem) -> None:
        self.a.writable("rename a downloaded file")
        tmp, final = lr.path(self.a.temps[item.path]), lr.path(item.path)
        st = os.stat(tmp)
        if st.st_size != item.size:
            raise source_changed_error(item.path)
        os.replace(tmp, final)
        self.a.progress.add(0, files=1)
        with self.a.lock:
            self.a.result.files += 1
            self.a.result.bytes += item.size - self.a.offsets.get(item.path, 0)

    def delete_local(self, plan: SyncPlan) -> None:
        """A mirror's deletions here (files before their folders: the plan's order)."""
        self.a.writable("delete files")
        lr = LocalRoot(self.a.local)
        for item in plan.deletions:
            path = lr.path(item.path)
            try:
                if os.path.isdir(path) and not os.path.islink(path):
                    os.rmdir(path)
                else:
                    os.unlink(path)
            except FileNotFoundError:
                pass
            except OSError as exc:
                raise local_error(exc, path) from None
