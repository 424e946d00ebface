"""Checksums of remote and local files, and free space on both sides before anything is written."""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
from collections.abc import Sequence
from pathlib import Path

from paramiko.sftp import CMD_ATTRS, CMD_STAT

from app.core.syncplan import SyncPlan, decode_name, encode_name, remote_join

from .attempt import Attempt
from .caps import NO_SHELL
from .errors import (
    disk_full_error,
    local_missing_error,
    local_not_folder_error,
    local_unreadable_error,
    local_unwritable_error,
)
from .local import LocalRoot, sha256_file
from .sftp import SftpError, attrs_from_msg, sftp_sha256
from .shell import ReadCmd, RemoteShell, arg_batches, quote_path

log = logging.getLogger(__name__)


def check_local_folder(local: Path, up: bool) -> None:
    """The local side of a sync is usable, checked before any connection is made: an upload's folder
    exists, is a folder and can be opened; a download's is a folder (or does not exist yet: it is
    made) that can be written into. Raises the SyncError that says which."""
    path = str(local)
    try:
        exists, is_dir = local.exists(), local.is_dir()
    except OSError as exc:  # e.g. a parent folder that cannot be searched
        raise local_unreadable_error(path, exc.strerror or str(exc)) from None
    if up and not exists:
        raise local_missing_error(path)
    if exists and not is_dir:
        raise local_not_folder_error(path, up)
    if not exists:
        return
    if up:
        try:
            with os.scandir(local) as it:
                next(it, None)
        except OSError as exc:
            raise local_unreadable_error(path, exc.strerror or str(exc)) from None
    elif not os.access(local, os.W_OK | os.X_OK):
        raise local_unwritable_error(path)


class Verifier:
    """sha256 on the server (``sha256sum`` or reading back over SFTP) and here, and free space on
    both sides before anything is written."""

    def __init__(self, a: Attempt) -> None:
        self.a = a

    # checksums ----------------------------------------------------------------------------------
    def remote_sha256(
        self, shell: RemoteShell, rels: Sequence[str], sizes: dict[str, int] | None = None
    ) -> dict[str, str]:
        """sha256 of remote files (relative to the remote root): batched ``sha256sum`` over a
        framed exec, or (no shell) read back over SFTP."""
        sums: dict[str, str] = {}
        if not self.a.caps.sha256 and self.a.caps is not NO_SHELL:
            ch = self.a.channel(shell.t)
            try:
                for p in rels:
                    ch.doing = f"the checksum of {p} (SFTP read)"
                    size = (sizes or {}).get(p)
                    if size is None:
                        t, msg = ch.wait(ch.send(CMD_STAT, self.a.rpath(p)))
                        if t != CMD_ATTRS:
                            continue
                        size = attrs_from_msg(msg).st_size or 0
                    dig = sftp_sha256(ch, self.a.rpath(p), size)
                    if dig is not None:
                        sums[p] = dig
            finally:
                ch.close()
            return sums
        for batch in arg_batches(list(rels)):
            # "./name": a name starting with "-" is never an option, even to a sha256sum without "--"
            cmd = ReadCmd(
                b"cd "
                + quote_path(self.a.remote)
                + b" && sha256sum -z -- "
                + b" ".join(quote_path(remote_join(".", p)) for p in batch)
            )
            total = sum((sizes or {}).get(p, 0) for p in batch)
            rc, out, err = shell.run(
                cmd,
                what="remote checksums (sha256sum)",
                timeout=self.a.opts.step_timeout + total / (50 * 1024 * 1024),
            )
            for rec in out.split(b"\x00"):
                if len(rec) > 68 and rec[64:68] == b"  ./":
                    sums[decode_name(rec[68:])] = rec[:64].decode()
            if rc != 0 and not out:
                log.warning("sha256sum failed: %s", err.decode("utf-8", "replace")[:300])
        return sums

    def sums(
        self, shell: RemoteShell, rels: Sequence[str], up: bool
    ) -> tuple[dict[str, str], dict[str, str]]:
        remote = self.remote_sha256(shell, rels)
        lr = LocalRoot(self.a.local)
        local: dict[str, str] = {}
        for p in rels:
            self.a.check_cancel()
            with contextlib.suppress(OSError):
                local[p] = sha256_file(lr.path(p))
        return (local, remote) if up else (remote, local)

    # free space -------------------------------------------------------------------------------
    @staticmethod
    def needed(plan: SyncPlan) -> int:
        return plan.bytes_to_transfer + 4096 * len(plan.transfers) + 4096 * len(plan.mkdirs)

    def remote_free(self, shell: RemoteShell) -> int | None:
        path = self.a.remote
        if not self.a.caps.df:
            ch = self.a.channel(shell.t)
            ch.doing = "the remote free space (statvfs)"
            try:
                for _ in range(40):
                    with contextlib.suppress(SftpError):
                        free = ch.statvfs_free(encode_name(path))
                        return free
                    parent = os.path.dirname(path.rstrip("/")) or "."
                    if parent == path:
                        return None
                    path = parent
            finally:
                ch.close()
            return None
        for _ in range(40):
            rc, out, _err = shell.run(ReadCmd(b"df -Pk -- " + quote_path(path)), what="the remote free space (df)")
            if rc == 0:
                try:
                    return int(out.splitlines()[-1].split()[3]) * 1024
                except (IndexError, ValueError):
                    return None
            parent = os.path.dirname(path.rstrip("/"))
            if parent in ("", path):
                parent = "." if not path.startswith("/") else "/"
                if parent == path:
                    return None
            path = parent
        return None

    def local_free(self) -> int:
        p = self.a.local
        while not p.exists() and p != p.parent:
            p = p.parent
        return shutil.disk_usage(p).free

    def check_space(self, shell: RemoteShell, plan: SyncPlan, up: bool) -> None:
        need = self.needed(plan)
        hint, self.a.free_hint = self.a.free_hint, None  # measured by the probe a moment ago
        free = (hint if hint is not None else self.remote_free(shell)) if up else self.local_free()
        if free is not None and need > free:
            raise disk_full_error(up, need, free, self.a.remote if up else str(self.a.local))
