"""A job's TensorBoard event files on its host, followed incrementally over SSH.

``TbFollower(logdir)`` lists ``events.out.tfevents.*`` under the log folder with a POSIX-sh script
(``find`` to a fixed depth, regular files only: a symlink is not followed) and reads each file only
from where the last poll stopped (``dd`` from a 4 KiB block, hex-dumped with ``od`` so binary bytes
survive the text channel), decoding the records with :mod:`app.core.tbevents`.

What a host cannot do to it:
- the folder is an argument of the script, never part of its text; a name starting with ``-`` is
  given as ``./-…`` so no command reads it as an option; ``CDPATH`` is unset before ``cd``;
- file names come back as ``./relative/path`` and are taken only when they are printable UTF-8, have no
  ``..`` component, end in an ``events.out.tfevents.`` name, and are at most ``MAX_NAME_CHARS``; the
  listing is cut at ``MAX_LISTED`` lines and ``MAX_FILES`` files are followed (the newest by the time
  in their name); a file read is checked again to be a regular file and not a symlink;
- at most ``MAX_POLL_BYTES`` are read per poll (``MAX_FILE_BYTES`` per file): a huge or endless file
  (a symlink swapped in for /dev/zero) costs one bounded read per poll; a file that got shorter was
  replaced and is read again from its start; corrupt records are counted, never raised.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.core.errors import InputError
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.tbevents import EventFileReader, ScalarEvent
from app.remote.ssh import Connection

MAX_LISTED = 200
MAX_FILES = 16
MAX_DEPTH = 5
MAX_NAME_CHARS = 1024
MAX_LOGDIR_CHARS = 1024
MAX_POLL_BYTES = 1024 * 1024
MAX_FILE_BYTES = 512 * 1024
_BLOCK = 4096
_PREFIX = "events.out.tfevents."
_NAME_TIME = re.compile(r"^events\.out\.tfevents\.(\d{1,12})")
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")

# $1 the folder (~ and ~/… are the login home; relative: to the home)
_CD = (
    'unset CDPATH; d=$1; case "$d" in "~") d=$HOME;; "~/"*) d=$HOME/${d#"~/"};; esac; '
    'cd "$d" 2>/dev/null || { echo NODIR; exit 0; }; '
)
_LIST = _CD + (
    'echo OK; NL="\n"; '
    f"find . -maxdepth {MAX_DEPTH} -type f -name '{_PREFIX}*' ! -path \"*$NL*\" 2>/dev/null "
    f"| head -n {MAX_LISTED}"
)
# $1 folder, $2 bytes per file, then pairs: name offset. Per file: "F size" [hex of the bytes] "E", or "X".
_READ = _CD + (
    "max=$2; shift 2; "
    'while [ "$#" -ge 2 ]; do f=$1; off=$2; shift 2; '
    'case "$off" in ""|*[!0-9]*) echo X; continue;; esac; '
    'if [ -f "$f" ] && [ ! -L "$f" ]; then '
    "size=$(ls -ln \"$f\" 2>/dev/null | awk 'NR==1{print $5}'); "
    'case "$size" in ""|*[!0-9]*) echo X; continue;; esac; '
    'echo "F $size"; '
    f'if [ "$size" -gt "$off" ]; then blk=$((off / {_BLOCK})); n=$(( max / {_BLOCK} + 2 )); '
    f'dd if="$f" bs={_BLOCK} skip="$blk" count="$n" 2>/dev/null | od -An -v -tx1; fi; '
    "echo E; else echo X; fi; done"
)


@dataclass
class _File:
    reader: EventFileReader
    resets: int = 0


def folder_argument(logdir: str, base: str | None = None) -> str:
    """The folder as the script gets it: ``base``/``logdir`` for a relative one, ``./`` before a
    leading ``-``; InputError for what cannot be a folder."""
    for value in (logdir, base or ""):
        if len(value) > MAX_LOGDIR_CHARS or "\x00" in value or "\n" in value or "\r" in value:
            raise InputError(
                QT_TRANSLATE_NOOP("LabGPU", "The TensorBoard folder is not a usable path."),
                QT_TRANSLATE_NOOP("LabGPU", "Give a folder on the host, e.g. runs or ~/project/runs, "
                                            "without line breaks."),
                code="BadTbLogdir",
            )
    path = logdir.strip() or "."
    if base and not path.startswith(("/", "~")):
        path = base.rstrip("/") + "/" + path if base.strip("/") else "/" + path
    return "./" + path if path.startswith("-") else path


def _valid_name(name: str) -> bool:
    if not name.startswith("./") or len(name) > MAX_NAME_CHARS or _UNSAFE.search(name) or "\ufffd" in name:
        return False
    parts = name[2:].split("/")
    return ".." not in parts and "" not in parts and parts[-1].startswith(_PREFIX)


def _name_time(name: str) -> int:
    m = _NAME_TIME.match(name.rsplit("/", 1)[-1])
    return int(m.group(1)) if m else 0


class TbFollower:
    """Follows the event files of one log folder; ``poll`` returns the scalars written since."""

    def __init__(self, logdir: str, *, base: str | None = None, since: float | None = None) -> None:
        self.logdir = logdir
        self.base = base
        self.since = since  # ignore files named before this (host clock, epoch s; 60 s of slack)
        self.folder = folder_argument(logdir, base)
        self._files: dict[str, _File] = {}
        self.exists: bool | None = None  # None before the first poll
        self.skipped_names = 0  # names refused by the checks above, last listing

    @property
    def files(self) -> list[str]:
        return sorted(self._files)

    @property
    def corrupt(self) -> int:
        return sum(f.reader.corrupt for f in self._files.values())

    def poll(self, conn: Connection, *, max_bytes: int = MAX_POLL_BYTES) -> list[ScalarEvent]:
        """List the folder, then read what each followed file gained (``max_bytes`` at most)."""
        self._list(conn)
        if not self._files:
            return []
        budget = max(_BLOCK, min(max_bytes, MAX_POLL_BYTES))
        per_file = max(_BLOCK, min(MAX_FILE_BYTES, budget // len(self._files)))
        args = ["sh", "-c", _READ, "tbread", self.folder, str(per_file)]
        order = sorted(self._files)
        for name in order:
            args += [name, str(self._files[name].reader.position)]
        _rc, out, _err = conn.exec(args, timeout=60)
        return self._take(order, out, per_file)

    def _list(self, conn: Connection) -> None:
        _rc, out, _err = conn.exec(["sh", "-c", _LIST, "tbread", self.folder], timeout=30)
        lines = out.splitlines()
        if not lines or lines[0] != "OK":
            self.exists = False
            return
        self.exists = True
        names = []
        skipped = 0
        for line in lines[1:MAX_LISTED + 1]:
            if _valid_name(line):
                names.append(line)
            else:
                skipped += 1
        self.skipped_names = skipped
        if self.since is not None:
            names = [n for n in names if n in self._files or _name_time(n) >= self.since - 60]
        keep = sorted(names, key=lambda n: (_name_time(n), n), reverse=True)[:MAX_FILES]  # the newest
        self._files = {n: self._files.get(n) or _File(EventFileReader()) for n in keep}

    def _take(self, order: list[str], out: str, per_file: int) -> list[ScalarEvent]:
        events: list[ScalarEvent] = []
        lines = iter(out.splitlines())
        for name in order:
            head = next(lines, "X")
            f = self._files[name]
            if not head.startswith("F "):
                continue  # gone or not a regular file now: listed again next poll
            try:
                size = int(head[2:])
            except ValueError:
                size = -1
            chunks: list[str] = []
            for line in lines:
                if line == "E":
                    break
                chunks.append(line)
            if size < f.reader.position:
                f.reader = EventFileReader()  # shorter: replaced (or rewritten) since: again from the start
                f.resets += 1
                continue
            start = f.reader.position
            try:
                data = bytes.fromhex(" ".join(chunks))
            except ValueError:
                continue  # not od's output: read again next poll
            data = data[start - (start // _BLOCK) * _BLOCK:][:per_file]
            events += f.reader.feed(data)
        events.sort(key=lambda e: (e.wall_time, e.step))
        return events

    # persistence ------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {"v": 1, "logdir": self.logdir, "base": self.base, "since": self.since,
                "skipped_names": self.skipped_names,  # what the last listing refused (a diagnosis)
                "files": {n: {**f.reader.to_json(), "resets": f.resets} for n, f in sorted(self._files.items())}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TbFollower:
        """The follower ``to_json`` saved; a torn record is read again from its start. InputError
        only for a folder that is not a usable path; anything else damaged starts over."""
        logdir = data.get("logdir") if isinstance(data, Mapping) else None
        base = data.get("base") if isinstance(data, Mapping) else None
        since = data.get("since") if isinstance(data, Mapping) else None
        f = cls(logdir if isinstance(logdir, str) else "",
                base=base if isinstance(base, str) else None,
                since=float(since) if isinstance(since, int | float) and not isinstance(since, bool) else None)
        files = data.get("files") if isinstance(data, Mapping) else None
        if isinstance(files, Mapping):
            for name, state in list(files.items())[:MAX_FILES]:
                if isinstance(name, str) and _valid_name(name) and isinstance(state, Mapping):
                    resets = state.get("resets")
                    f._files[name] = _File(EventFileReader.from_json(state),
                                           resets if isinstance(resets, int) and 0 <= resets < 2**31 else 0)
        return f
