"""Listing the remote folder (GNU ``find`` inside the probe's exec, or an SFTP walk) and its
``.gitignore`` files."""

from __future__ import annotations

import logging
import stat as statmod

import paramiko
from paramiko.sftp import CMD_CLOSE, CMD_DATA, CMD_OPEN, CMD_READ, SFTP_FLAG_READ, int64
from paramiko.sftp_attr import SFTPAttributes

from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.syncmodel import DOWN
from app.core.syncplan import DIR, FILE, LINK, OTHER, Entry, IgnoreRules, decode_name, encode_name

from .attempt import Attempt
from .caps import NO_SHELL, ProbeListing, ServerCaps
from .errors import SyncError
from .sftp import Channel, SftpError
from .shell import ReadCmd, RemoteShell, parse_find_output, quote_path
from .tuning import PROBE_TIMEOUT, REQUEST_SIZE

log = logging.getLogger(__name__)


class RemoteLister:
    """What is on the remote side: the listing (with what could not be listed) and ignore rules."""

    def __init__(self, a: Attempt) -> None:
        self.a = a

    def probe(self, shell: RemoteShell) -> ProbeListing:
        """The capability probe, in the same exec as the root's state, free space and listing."""
        if self.a.opts.force_mode == "sftp":
            return ProbeListing(ServerCaps(note="pure SFTP (forced)"))
        pre = shell.probe(PROBE_TIMEOUT, quote_path(self.a.remote))
        log.info("sync server capabilities: %s (%s)", pre.caps.mode, pre.caps.note)
        self.a.free_hint = pre.free
        return pre

    # listing ------------------------------------------------------------------------------------
    def list_remote(
        self, shell: RemoteShell, t: paramiko.Transport, pre: ProbeListing | None = None
    ) -> tuple[dict[str, Entry], bool]:
        """(listing, the root exists). GNU find over a framed exec when the server has it (done
        inside the probe's exec: one round trip), else a bytes-level SFTP walk; never output a
        banner could have touched."""
        if pre is None and self.a.caps is NO_SHELL:
            pre = self.probe(shell)
            self.a.caps = pre.caps
        if pre is not None and pre.caps.shell_ok and pre.state:
            if pre.state == "N":
                return {}, False
            if pre.state == "F":
                raise self.not_a_folder()
            if pre.listing is None:
                return self.list_remote_sftp(t), True
            return self.find_result(t, pre.rc, pre.listing, pre.err), True
        ch = self.a.channel(t)
        try:
            ch.doing = "the remote folder's status"
            kind = ch.stat_kind(encode_name(self.a.remote))
        except SftpError as exc:
            raise SyncError(
                QT_TRANSLATE_NOOP("LabGPU", "Could not look at the remote folder {path}: {why}"),
                QT_TRANSLATE_NOOP("LabGPU", "Check the path and your permissions there."),
                code="RemoteStat",
                path=self.a.remote_text,
                why=exc.text,
            ) from None
        finally:
            ch.close()
        if kind is None:
            return {}, False
        if kind != DIR:
            raise self.not_a_folder()
        if not self.a.caps.find_printf:
            return self.list_remote_sftp(t), True
        cmd = ReadCmd(b"find -H " + quote_path(self.a.remote) + b" -mindepth 1 -printf '%y %s %T@ %m %P\\0'")
        rc, out, err = shell.run(cmd, what="the remote file listing (find)")
        return self.find_result(t, rc, out, err), True

    def not_a_folder(self) -> SyncError:
        return SyncError(
            QT_TRANSLATE_NOOP("LabGPU", "The remote path {path} is not a folder."),
            QT_TRANSLATE_NOOP("LabGPU", "Give the folder that contains it (sync works on folders)."),
            code="RemoteNotFolder",
            path=self.a.remote_text,
        )

    def find_result(self, t: paramiko.Transport, rc: int, out: bytes, err: bytes) -> dict[str, Entry]:
        if rc == 0:
            return parse_find_output(out)
        if out and b"printf" not in err and b"unknown" not in err.lower():
            # partial listing (e.g. an unreadable sub-folder): use what could be read
            why = err.decode("utf-8", "replace").strip()
            log.warning("remote listing incomplete: %s", why[:300])
            self.a.incomplete["remote"] = why.splitlines()[0] if why else "find failed"
            return parse_find_output(out)
        return self.list_remote_sftp(t)

    def list_remote_sftp(self, t: paramiko.Transport) -> dict[str, Entry]:
        ch = self.a.channel(t)
        ch.doing = "the remote file listing (SFTP)"
        out: dict[str, Entry] = {}
        try:
            stack = [""]
            root = encode_name(self.a.remote)
            while stack:
                rel = stack.pop()
                path = root + (b"/" + encode_name(rel) if rel else b"")
                try:
                    items = ch.listdir_bytes(path)
                except SftpError as exc:
                    log.warning("cannot list %r: %s", path, exc)
                    self.a.incomplete.setdefault("remote", f"{decode_name(path)}: {exc.text}")
                    continue
                for raw, a in items:
                    name = decode_name(raw)
                    p = f"{rel}/{name}" if rel else name
                    mode = a.st_mode or 0
                    kind = (
                        LINK
                        if statmod.S_ISLNK(mode)
                        else DIR
                        if statmod.S_ISDIR(mode)
                        else FILE
                        if statmod.S_ISREG(mode)
                        else OTHER
                    )
                    out[p] = Entry(
                        p,
                        kind,
                        (a.st_size or 0) if kind == FILE else 0,
                        float(a.st_mtime or 0),
                        statmod.S_IMODE(mode),
                    )
                    if kind == DIR and "/" not in name and "\\" not in name and name not in (".", ".."):
                        stack.append(p)
        finally:
            ch.close()
        return out

    def add_gitignores(self, rules: IgnoreRules, source: dict[str, Entry], t: paramiko.Transport) -> None:
        names = sorted(
            (
                p
                for p, e in source.items()
                if e.kind == FILE and (p == ".gitignore" or p.endswith("/.gitignore"))
            ),
            key=lambda p: p.count("/"),
        )
        ch = self.a.channel(t) if self.a.opts.direction == DOWN and names else None
        try:
            for p in names:
                base = p.rpartition("/")[0]
                if base and rules.excluded(base, True):
                    continue
                try:
                    if ch is None:
                        text = (self.a.local / p).read_text(encoding="utf-8", errors="replace")
                    else:
                        text = self.read_small_remote(ch, p, source[p].size).decode("utf-8", "replace")
                except (OSError, SftpError) as exc:
                    log.warning("cannot read %s: %s", p, exc)
                    continue
                rules.add_gitignore(text, base)
        finally:
            if ch is not None:
                ch.close()

    def read_small_remote(self, ch: Channel, rel: str, size: int) -> bytes:
        h = ch.handle(ch.send(CMD_OPEN, self.a.rpath(rel), SFTP_FLAG_READ, SFTPAttributes()))
        try:
            nums = [
                ch.send(CMD_READ, h, int64(off), min(REQUEST_SIZE, size - off))
                for off in range(0, min(size, 1 << 20), REQUEST_SIZE)
            ]
            data = bytearray()
            for n in nums:
                t, msg = ch.wait(n)
                if t == CMD_DATA:
                    data += msg.get_string()
            return bytes(data)
        finally:
            ch.status(ch.send(CMD_CLOSE, h))
