"""Checksums of remote and local files, and free space on both sides before anything is written."""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
from collections.abc import Sequence

from paramiko.sftp import CMD_ATTRS, CMD_STAT

from app.core.syncplan import SyncPlan, decode_name, encode_name, remote_join

from .base import EngineBase
from .caps import NO_SHELL
from .errors import _disk_full
from .local import LocalRoot, sha256_file
from .sftp import SftpError, attrs_from_msg, sftp_sha256
from .shell import ReadCmd, RemoteShell, _arg_batches, _q

log = logging.getLogger(__name__)


class RemoteChecks(EngineBase):
    """sha256 on the server (``sha256sum`` or reading back over SFTP) and free space checks."""

    # checksums ----------------------------------------------------------------------------------
    def remote_sha256(
        self, shell: RemoteShell, rels: Sequence[str], sizes: dict[str, int] | None = None
    ) -> dict[str, str]:
        """sha256 of remote files (relative to the remote root): batched ``sha256sum`` over a
        framed exec, or (no shell) read back over SFTP."""
        sums: dict[str, str] = {}
        if not self.caps.sha256 and self.caps is not NO_SHELL:
            ch = self._channel(shell.t)
            try:
                for p in rels:
                    ch.doing = f"the checksum of {p} (SFTP read)"
                    size = (sizes or {}).get(p)
                    if size is None:
                        t, msg = ch.wait(ch.send(CMD_STAT, self._rpath(p)))
                        if t != CMD_ATTRS:
                            continue
                        size = attrs_from_msg(msg).st_size or 0
                    dig = sftp_sha256(ch, self._rpath(p), size)
                    if dig is not None:
                        sums[p] = dig
            finally:
                ch.close()
            return sums
        for batch in _arg_batches(list(rels)):
            # "./name": a name starting with "-" is never an option, even to a sha256sum without "--"
            cmd = ReadCmd(
                b"cd "
                + _q(self.remote)
                + b" && sha256sum -z -- "
                + b" ".join(_q(remote_join(".", p)) for p in batch)
            )
            total = sum((sizes or {}).get(p, 0) for p in batch)
            rc, out, err = shell.run(
                cmd,
                what="remote checksums (sha256sum)",
                timeout=self.opts.step_timeout + total / (50 * 1024 * 1024),
            )
            for rec in out.split(b"\x00"):
                if len(rec) > 68 and rec[64:68] == b"  ./":
                    sums[decode_name(rec[68:])] = rec[:64].decode()
            if rc != 0 and not out:
                log.warning("sha256sum failed: %s", err.decode("utf-8", "replace")[:300])
        return sums

    def _sums(
        self, shell: RemoteShell, rels: Sequence[str], up: bool
    ) -> tuple[dict[str, str], dict[str, str]]:
        remote = self.remote_sha256(shell, rels)
        lr = LocalRoot(self.local)
        local: dict[str, str] = {}
        for p in rels:
            self._check_cancel()
            with contextlib.suppress(OSError):
                local[p] = sha256_file(lr.path(p))
        return (local, remote) if up else (remote, local)

    # free space -------------------------------------------------------------------------------
    @staticmethod
    def _needed(plan: SyncPlan) -> int:
        return plan.bytes_to_transfer + 4096 * len(plan.transfers) + 4096 * len(plan.mkdirs)

    def _remote_free(self, shell: RemoteShell) -> int | None:
        path = self.remote
        if not self.caps.df:
            ch = self._channel(shell.t)
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
            rc, out, _err = shell.run(ReadCmd(b"df -Pk -- " + _q(path)), what="the remote free space (df)")
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

    def _local_free(self) -> int:
        p = self.local
        while not p.exists() and p != p.parent:
            p = p.parent
        return shutil.disk_usage(p).free

    def _check_space(self, shell: RemoteShell, plan: SyncPlan, up: bool) -> None:
        need = self._needed(plan)
        hint, self._free_hint = self._free_hint, None  # measured by the probe a moment ago
        free = (hint if hint is not None else self._remote_free(shell)) if up else self._local_free()
        if free is not None and need > free:
            raise _disk_full(up, need, free, self.remote if up else str(self.local))
