"""Uploads over SFTP: remote folders first, pipelined batches into temporary files, renames once
every write is confirmed, verified resume of an interrupted file."""

from __future__ import annotations

import contextlib
import hashlib
import logging
from collections import deque
from collections.abc import Sequence
from typing import Any

import paramiko
from paramiko.sftp import (
    CMD_CLOSE,
    CMD_EXTENDED,
    CMD_FSETSTAT,
    CMD_MKDIR,
    CMD_OPEN,
    CMD_REMOVE,
    CMD_RMDIR,
    SFTP_FLAG_CREATE,
    SFTP_FLAG_TRUNC,
    SFTP_FLAG_WRITE,
)
from paramiko.sftp_attr import SFTPAttributes

from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.syncplan import DIR, PlanItem, SyncPlan, encode_name, part_name, remote_join

from .attempt import Attempt
from .checks import Verifier
from .errors import SyncError, disk_full_error, local_error, source_changed_error
from .local import LocalRoot, sha256_file
from .sftp import Channel, SftpError, sftp_attrs, sftp_mkdirs
from .shell import RemoteShell, quote_path
from .tuning import REQUEST_SIZE, WRITE_SIZE, WRITES_IN_FLIGHT

log = logging.getLogger(__name__)

_RENAME_FAILED = QT_TRANSLATE_NOOP("LabGPU", "Could not finish {path} on the server: {why}")
_DELETE_FAILED = QT_TRANSLATE_NOOP("LabGPU", "Could not delete {path} on the server: {why}")


class Uploader:
    """Local → remote over SFTP (the tar stream for many small files is :mod:`.tarstream`)."""

    def __init__(self, a: Attempt, checks: Verifier) -> None:
        self.a = a
        self.checks = checks

    def remote_prepare(
        self, t: paramiko.Transport, shell: RemoteShell, plan: SyncPlan, exists: bool
    ) -> None:
        self.a.writable("create remote folders")
        if not exists:
            # mkdir -p over SFTP (works without a shell): every prefix, in flight at once
            parts = self.a.remote.split("/")
            prefixes = ["/".join(parts[: k + 1]) for k in range(len(parts))]
            prefixes = [p for p in prefixes if p not in ("", ".")]
            ch = self.a.take_channel(t)
            ch.doing = "the remote folder to be created"
            try:
                sftp_mkdirs(ch, [encode_name(p) for p in prefixes])
                kind = ch.stat_kind(encode_name(self.a.remote))
            except SftpError as exc:
                kind, why = None, exc.text
            else:
                why = "not created" if kind is None else "a file of that name exists"
            finally:
                self.a.give_back(ch)
            if kind != DIR:
                raise SyncError(
                    QT_TRANSLATE_NOOP("LabGPU", "Could not create the remote folder {path}: {why}"),
                    QT_TRANSLATE_NOOP("LabGPU", "Check the path and your permissions there."),
                    code="RemoteMkdir",
                    path=self.a.remote_text,
                    why=why,
                )
        if not plan.mkdirs and not plan.stale_parts and not plan.stale_dirs:
            return
        ch = self.a.take_channel(t)
        ch.doing = "remote folders to be created"
        ok = False
        try:
            # all mkdirs in flight at once, parents first (the server handles requests in order)
            nums = list(
                zip(
                    plan.mkdirs,
                    ch.send_many([(CMD_MKDIR, self.a.rpath(d), SFTPAttributes()) for d in plan.mkdirs]),
                    strict=True,
                )
            )
            for d, n in nums:
                try:
                    ch.status(n)
                    self.a.result.mkdirs += 1
                except SftpError as exc:
                    if exc.code != 4:  # generic failure = exists already (race); others are real
                        raise SyncError(
                            QT_TRANSLATE_NOOP("LabGPU", "Could not create the remote folder {path}: {why}"),
                            "",
                            code="RemoteMkdir",
                            path=d,
                            why=exc.text,
                        ) from None
            stale = ch.send_many([(CMD_REMOVE, self.a.rpath(p)) for p in plan.stale_parts])
            # a cut upload's staging folders, emptied by the removals above (deepest first)
            stale += ch.send_many([(CMD_RMDIR, self.a.rpath(d)) for d in plan.stale_dirs])
            for n in stale:
                with contextlib.suppress(SftpError):
                    ch.status(n)
            ok = True
        finally:
            if ok:
                self.a.give_back(ch)  # the first transfer worker continues on it
            else:
                ch.close()

    def resume_upload(self, shell: RemoteShell, lr: LocalRoot, item: PlanItem, tmp: str) -> int:
        """Copy the verified prefix of an earlier attempt's temporary file into this attempt's own
        (a new file no late request of a cut session can reach), drop the old one, and check the
        copy by sha256 against the local source. Returns the offset to continue from (0: restart)."""
        n = item.resume_from
        if n <= 0 or not item.resume_part:
            return 0
        if not self.a.caps.sha256:
            # no shell to copy and hash the prefix on the server: start over (same result)
            log.info("resume upload %s: server has no sha256sum/head, restarting", item.path)
            return 0
        old = quote_path(remote_join(self.a.remote, item.resume_part))
        new = quote_path(remote_join(self.a.remote, tmp))
        cmd = (
            b"head -c "
            + str(n).encode()
            + b" -- "
            + old
            + b" > "
            + new
            + b"; rc=$?; rm -f -- "
            + old
            + b"; [ $rc = 0 ] && sha256sum < "
            + new
        )
        rc, out, _e = shell.run(
            cmd, what="the check of the interrupted upload", timeout=self.a.opts.step_timeout + n / (50 << 20)
        )
        ok = rc == 0 and out[:64].decode("ascii", "replace") == sha256_file(lr.path(item.path), n)
        log.info("resume upload %s from %d: prefix %s", item.path, n, "verified" if ok else "differs")
        return n if ok else 0

    def upload_batch(
        self, ch: Channel, lr: LocalRoot, job: list[PlanItem], shell: RemoteShell
    ) -> list[tuple[PlanItem, str]]:
        """Pipelined: open all → writes, mtime, close for all → renames after everything is confirmed."""
        verify = self.a.opts.verify
        opened: list[tuple[PlanItem, int, int, Any]] = []
        for item in job:
            tmp = self.a.temp_for(item)
            offset = self.resume_upload(shell, lr, item, tmp) if item.resume_from else 0
            self.a.offsets[item.path] = offset
            try:
                fh = open(lr.path(item.path), "rb")  # noqa: SIM115 - closed below
            except OSError as exc:
                for _i, _n, _o, f in opened:
                    f.close()
                raise local_error(exc, item.path) from None
            flags = SFTP_FLAG_WRITE | SFTP_FLAG_CREATE | (0 if offset else SFTP_FLAG_TRUNC)
            num = ch.send(CMD_OPEN, self.a.rpath(tmp), flags, SFTPAttributes())
            opened.append((item, num, offset, fh))
        pending: list[tuple[PlanItem, str]] = []
        outstanding: deque[tuple[int, PlanItem]] = deque()
        add, take = self.a.progress.add, self.a.take  # bound once: called per 252 KiB
        try:
            for item, num, offset, fh in opened:
                try:
                    handle = ch.handle(num)
                except SftpError as exc:
                    raise self.remote_write_error(shell, exc, item) from None
                h = hashlib.sha256() if verify else None
                if offset:
                    fh.seek(0)
                    if h is not None:
                        h.update(fh.read(offset))
                    fh.seek(offset)
                pos = offset
                add(0, current=item.path)
                while True:
                    data = fh.read(WRITE_SIZE)
                    if not data:
                        break
                    take(len(data))
                    if h is not None:
                        h.update(data)
                    outstanding.append((ch.send_write(handle, pos, data), item))
                    pos += len(data)
                    add(len(data))
                    while len(outstanding) > WRITES_IN_FLIGHT:
                        self.check_write(ch, *outstanding.popleft(), shell)
                if pos != item.size:
                    raise source_changed_error(item.path)
                attrs = sftp_attrs(item.mtime, item.mode if self.a.opts.preserve_mode else None)
                outstanding.append((ch.send(CMD_FSETSTAT, handle, attrs), item))
                outstanding.append((ch.send(CMD_CLOSE, handle), item))
                pending.append((item, h.hexdigest() if h is not None else ""))
            while outstanding:
                self.check_write(ch, *outstanding.popleft(), shell)
        finally:
            for _i, _n, _o, fh in opened:
                fh.close()
        if verify:
            return pending
        self.commit_remote(ch, [item for item, _d in pending])
        return []

    def commit_remote(self, ch: Channel, items: Sequence[PlanItem]) -> None:
        """Rename finished temporary files to their final names, all requests in flight at once. Files
        unpacked into a staging folder (a new folder's files, see TarUploader) go into place with ONE
        rename of that folder; where the folder exists already (another stream's staging folder won
        the race), file by file, and the staging folder is removed."""
        by_stage: dict[str, list[PlanItem]] = {}
        singles: list[PlanItem] = []
        for i in items:
            stage = self.a.temps[i.path].rpartition("/")[0]
            (by_stage.setdefault(stage, []) if stage in self.a.stages else singles).append(i)
        emptied: list[str] = []
        if by_stage:
            order = list(by_stage)
            whole = ch.send_many(
                [(CMD_EXTENDED, "posix-rename@openssh.com", self.a.rpath(st), self.a.rpath(self.a.stages[st]))
                 for st in order]
            )
            for stage, n in zip(order, whole, strict=True):
                try:
                    ch.status(n)
                except SftpError:
                    singles += by_stage[stage]  # the folder is there already: its files one by one
                    emptied.append(stage)
                else:
                    self._committed(by_stage[stage])
        renames = list(
            zip(
                singles,
                ch.send_many(
                    [
                        (
                            CMD_EXTENDED,
                            "posix-rename@openssh.com",
                            self.a.rpath(self.a.temps[i.path]),
                            self.a.rpath(i.path),
                        )
                        for i in singles
                    ]
                ),
                strict=True,
            )
        )
        for item, n in renames:
            _answered(ch, n, _RENAME_FAILED, "RenameFailed", item.path)
            self._committed([item])
        for n in ch.send_many([(CMD_RMDIR, self.a.rpath(st)) for st in emptied]):
            with contextlib.suppress(SftpError):
                ch.status(n)

    def _committed(self, items: Sequence[PlanItem]) -> None:
        self.a.progress.add(0, files=len(items))
        with self.a.lock:
            self.a.result.files += len(items)
            self.a.result.bytes += sum(i.size - self.a.offsets.get(i.path, 0) for i in items)

    def make_deferred_dirs(self, ch: Channel) -> None:
        """Folders left for a tar stream that then could not run: made over SFTP."""
        with self.a.lock:
            dirs, self.a.tar_dirs = self.a.tar_dirs, []
            make_root, self.a.tar_make_root = self.a.tar_make_root, False
        if make_root:
            parts = self.a.remote.split("/")
            prefixes = ["/".join(parts[: k + 1]) for k in range(len(parts))]
            sftp_mkdirs(ch, [encode_name(p) for p in prefixes if p not in ("", ".")])
        if dirs:
            sftp_mkdirs(ch, [self.a.rpath(d) for d in dirs])
            with self.a.lock:
                self.a.result.mkdirs += len(dirs)

    def check_write(self, ch: Channel, num: int, item: PlanItem, shell: RemoteShell) -> None:
        try:
            ch.status(num)
        except SftpError as exc:
            raise self.remote_write_error(shell, exc, item, ch) from None

    def remote_write_error(
        self, shell: RemoteShell, exc: SftpError, item: PlanItem, ch: Channel | None = None
    ) -> SyncError:
        """Classify a failed remote write; remove the temporary file when the disk is full."""
        part = self.a.rpath(self.a.temps.get(item.path, part_name(item.path)))
        free = None
        with contextlib.suppress(SyncError):
            free = self.checks.remote_free(shell)
        if exc.code == 4 and free is not None and free < max(REQUEST_SIZE * 4, 1 << 20):
            if ch is not None:
                with contextlib.suppress(SyncError, SftpError):
                    ch.status(ch.send(CMD_REMOVE, part))
            return disk_full_error(True, item.size, free, self.a.remote_text)
        if exc.code == 3:
            return SyncError(
                QT_TRANSLATE_NOOP("LabGPU", "Permission denied writing {path} on the server."),
                QT_TRANSLATE_NOOP("LabGPU", "Choose a remote folder you can write to."),
                code="PermissionDenied",
                path=item.path,
            )
        return SyncError(
            QT_TRANSLATE_NOOP("LabGPU", "The server could not write {path}: {why}"),
            QT_TRANSLATE_NOOP("LabGPU", "Check free space and permissions on the server."),
            code="RemoteWriteFailed",
            path=item.path,
            why=exc.text or "failure",
        )

    def delete_remote(self, t: paramiko.Transport, plan: SyncPlan) -> None:
        """A mirror's deletions on the server, all requests in flight at once (files before their
        folders: the plan's order)."""
        self.a.writable("delete files")
        ch = self.a.channel(t)
        try:
            reqs = [(CMD_RMDIR if i.kind == DIR else CMD_REMOVE, self.a.rpath(i.path)) for i in plan.deletions]
            for item, n in zip(plan.deletions, ch.send_many(reqs), strict=True):
                _answered(ch, n, _DELETE_FAILED, "DeleteFailed", item.path)
        finally:
            ch.close()


def _answered(ch: Channel, num: int, template: str, code: str, path: str) -> None:
    """Request ``num`` succeeded, or a SyncError with ``template`` ({path}, {why}) names it."""
    try:
        ch.status(num)
    except SftpError as exc:
        raise SyncError(template, "", code=code, path=path, why=exc.text) from None
