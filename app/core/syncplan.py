"""What a sync will do, decided from two listings alone (no I/O here, so it is fully testable).

A listing is a dict ``relative posix path -> Entry``. Names are ``str`` decoded with
``surrogateescape``, so a non-UTF-8 name survives the round trip to bytes unchanged
(``encode_name``/``decode_name``). The planner:

* applies excludes in .gitignore syntax (``IgnoreRules``: negation, ``dir/``, ``**``, anchored
  patterns, last match wins, nothing re-included below an excluded folder);
* quick-checks files by size + whole-second mtime (SFTP v3 carries seconds only);
* never overwrites a newer destination file silently: that is a *conflict*, skipped unless ``force``;
* deletes destination-only entries only when ``delete`` is asked (mirror), and never excluded ones;
* refuses unsafe names (``..``, ``.``, empty, ``/``, ``\\``, NUL — CVE-2019-6111) and never writes
  below a destination parent that is not a real folder (a symlink there could point anywhere);
* ignores its own temporary files (``.NAME.labgpu-part``) as entries but reports them, so an
  interrupted transfer resumes from them and stale ones are cleaned up.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .errors import LabGpuError
from .i18n import QT_TRANSLATE_NOOP

PART_SUFFIX = ".labgpu-part"
DEFAULT_EXCLUDES: tuple[str, ...] = (".git/", "__pycache__/", ".ipynb_checkpoints/")

FILE, DIR, LINK, OTHER = "f", "d", "l", "o"

# Actions of a plan item.
COPY = "copy"  # missing at the destination
UPDATE = "update"  # differs, destination older (or forced)
CONFLICT = "conflict"  # destination newer / type clash: skipped
DELETE = "delete"  # destination-only, mirror asked
MKDIR = "mkdir"

REASONS = {
    "new": QT_TRANSLATE_NOOP("LabGPU", "new file"),
    "changed": QT_TRANSLATE_NOOP("LabGPU", "changed"),
    "checksum": QT_TRANSLATE_NOOP("LabGPU", "content differs (checksum)"),
    "newer": QT_TRANSLATE_NOOP("LabGPU", "destination is newer"),
    "forced": QT_TRANSLATE_NOOP("LabGPU", "destination is newer (overwritten: force)"),
    "type": QT_TRANSLATE_NOOP("LabGPU", "a folder and a file have the same name"),
    "parent": QT_TRANSLATE_NOOP("LabGPU", "destination parent is not a folder"),
    "mirror": QT_TRANSLATE_NOOP("LabGPU", "not in source (mirror)"),
    "unsafe": QT_TRANSLATE_NOOP("LabGPU", "unsafe name refused"),
    "symlink": QT_TRANSLATE_NOOP("LabGPU", "symbolic link not followed"),
    "special": QT_TRANSLATE_NOOP("LabGPU", "not a regular file"),
}


@dataclass(frozen=True)
class Entry:
    """One listed path. ``mtime`` in seconds (float); ``size`` 0 for folders."""

    path: str
    kind: str
    size: int = 0
    mtime: float = 0.0
    mode: int = 0o644


@dataclass(frozen=True)
class PlanItem:
    action: str
    path: str
    size: int = 0
    mtime: float = 0.0
    mode: int = 0o644
    reason: str = ""
    resume_from: int = 0  # size of an existing temporary file to continue from (verified later)
    kind: str = FILE
    resume_part: str = ""  # that temporary file's path


@dataclass
class SyncPlan:
    transfers: list[PlanItem] = field(default_factory=list)  # COPY/UPDATE (+ forced)
    mkdirs: list[str] = field(default_factory=list)  # parents first
    deletions: list[PlanItem] = field(default_factory=list)  # deepest first
    conflicts: list[PlanItem] = field(default_factory=list)
    refused: list[PlanItem] = field(default_factory=list)  # unsafe names, symlinks, specials
    unchanged: int = 0
    unchanged_bytes: int = 0
    excluded: int = 0
    stale_parts: list[str] = field(default_factory=list)  # temp files with no transfer to resume
    stale_dirs: list[str] = field(default_factory=list)  # a cut upload's staging folders, deepest first
    checksum_candidates: list[str] = field(default_factory=list)  # quick-check equal: verify compares

    @property
    def bytes_to_transfer(self) -> int:
        return sum(i.size - i.resume_from for i in self.transfers)

    @property
    def is_empty(self) -> bool:
        return not (self.transfers or self.mkdirs or self.deletions)

    def items(self) -> list[PlanItem]:
        """Everything that will change or needs attention, for a preview table."""
        return (
            [PlanItem(MKDIR, p) for p in self.mkdirs]
            + self.transfers
            + self.deletions
            + self.conflicts
            + self.refused
        )

    def summary(self) -> dict[str, int]:
        return {
            "to_transfer": len(self.transfers),
            "bytes": self.bytes_to_transfer,
            "mkdirs": len(self.mkdirs),
            "to_delete": len(self.deletions),
            "conflicts": len(self.conflicts),
            "refused": len(self.refused),
            "unchanged": self.unchanged,
            "excluded": self.excluded,
        }


# ---------------------------------------------------------------------------------------------
# names


def encode_name(name: str) -> bytes:
    return name.encode("utf-8", "surrogateescape")


def decode_name(raw: bytes) -> str:
    return raw.decode("utf-8", "surrogateescape")


_WINDOWS_BAD = set('<>:"|?*')


def unsafe_component(component: str, *, windows: bool = False) -> bool:
    """True for a name component that must never be written or trusted."""
    if component in ("", ".", ".."):
        return True
    if "/" in component or "\\" in component or "\x00" in component:
        return True
    return windows and (
        any(c in _WINDOWS_BAD or ord(c) < 32 for c in component) or component.endswith((" ", "."))
    )


def unsafe_path(relpath: str, *, windows: bool = False) -> bool:
    if not relpath or relpath.startswith("/"):
        return True
    return any(unsafe_component(c, windows=windows) for c in relpath.split("/"))


class RemotePathError(LabGpuError):
    """A remote folder text LabGPU will not hand to the server."""


def remote_target(text: str) -> str:
    """The remote folder as LabGPU hands it to ANY remote command or SFTP request.

    The result can never be read as an option by ``find``/``tar``/``mkdir``/``df``/``head``/
    ``sha256sum``/``cd`` (a leading ``-`` once made ``find`` run ``-delete`` on the home folder):
    it is either absolute (``/…``) or starts with ``./``. ``~``, ``~/x`` and relative paths are
    relative to the login folder (where exec and SFTP both start). ``..`` components, NUL and
    control characters other than newline/tab are refused (the target must be the folder the
    user named, never somewhere above it); surrounding spaces are dropped, ``//`` and ``/./``
    collapse, a trailing ``/`` is ignored."""
    if not isinstance(text, str):
        raise TypeError(type(text).__name__)
    r = text.strip(" ")
    if r in ("", "~", "~/"):
        return "."
    if r.startswith("~/"):
        r = r[2:]
    bad = next((c for c in r if c == "\x00" or (ord(c) < 32 and c not in "\t\n") or c == "\x7f"), None)
    if bad is not None:
        raise RemotePathError(
            QT_TRANSLATE_NOOP("LabGPU", "The remote folder {path!r} contains a control character."),
            QT_TRANSLATE_NOOP("LabGPU", "Type the folder name without control characters."),
            code="BadRemotePath",
            path=text,
        )
    absolute = r.startswith("/")
    parts = [c for c in r.split("/") if c not in ("", ".")]
    if ".." in parts:
        raise RemotePathError(
            QT_TRANSLATE_NOOP("LabGPU", "The remote folder {path!r} goes up with '..'."),
            QT_TRANSLATE_NOOP(
                "LabGPU", "Write the folder without '..' (an absolute path like /data/x works)."
            ),
            code="BadRemotePath",
            path=text,
        )
    if absolute:
        return "/" + "/".join(parts)
    return "./" + "/".join(parts) if parts else "."


def remote_join(root: str, rel: str) -> str:
    """``root`` (from :func:`remote_target`) joined with a planned relative path: the result
    still starts with ``/`` or ``./`` (never with ``-``)."""
    if not (root.startswith("/") or root == "." or root.startswith("./")):
        raise ValueError(f"remote root not normalised: {root!r}")
    if not rel:
        return root
    return ("" if root == "/" else root) + "/" + rel


_TOKEN_RE = re.compile(r"\.[0-9a-f]{8}$")


def part_name(relpath: str, token: str = "") -> str:
    """``a/b/data.bin`` → ``a/b/.data.bin.<token>.labgpu-part`` (hidden, same folder: the final
    rename is atomic). Each attempt writes under its OWN token: a server process of a connection
    that was cut may still execute requests it had already received (a late write into the old
    file, a late rename of the old name), and those must never touch the file being written now."""
    head, _, base = relpath.rpartition("/")
    tmp = f".{base}.{token}{PART_SUFFIX}" if token else f".{base}{PART_SUFFIX}"
    return f"{head}/{tmp}" if head else tmp


def final_of_part(relpath: str) -> str | None:
    head, _, base = relpath.rpartition("/")
    if not (base.startswith(".") and base.endswith(PART_SUFFIX)) or len(base) <= len(PART_SUFFIX) + 1:
        return None
    final = _TOKEN_RE.sub("", base[1 : -len(PART_SUFFIX)])
    if not final:
        return None
    return f"{head}/{final}" if head else final


# ---------------------------------------------------------------------------------------------
# .gitignore matching


def _glob_to_regex(pattern: str) -> str:
    """Translate one gitignore glob (already without '!' and trailing '/') to a regex body."""
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "*":
            if pattern.startswith("**", i):
                at_start = i == 0 or pattern[i - 1] == "/"
                j = i + 2
                at_end = j == n or pattern[j] == "/"
                if at_start and at_end:
                    if j == n:  # "foo/**" or "**": everything below
                        out.append(".*")
                    else:  # "**/" : zero or more folders
                        out.append("(?:.*/)?")
                        j += 1
                    i = j
                    continue
                out.append("[^/]*")  # other "**" act like "*"
                i = j
                continue
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            j = i + 1
            if j < n and pattern[j] in "!^":
                j += 1
            if j < n and pattern[j] == "]":
                j += 1
            while j < n and pattern[j] != "]":
                j += 1
            if j >= n:
                out.append(re.escape(c))
            else:
                body = pattern[i + 1 : j]
                neg = body[:1] in ("!", "^")
                if neg:
                    body = body[1:]
                body = body.replace("\\", "\\\\")
                out.append(f"[^/{body}]" if neg else f"[{body}]")
                i = j + 1
                continue
        elif c == "\\" and i + 1 < n:
            i += 1
            out.append(re.escape(pattern[i]))
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


@dataclass(frozen=True)
class IgnoreRule:
    pattern: str
    regex: re.Pattern[str]
    negate: bool
    dir_only: bool
    base: str  # folder (relative, '' = root) the rule applies below


def parse_rule(line: str, base: str = "") -> IgnoreRule | None:
    """One .gitignore line → rule, or None for blanks and comments."""
    text = line.rstrip("\n").rstrip("\r")
    # trailing spaces are ignored unless escaped
    while text.endswith(" ") and not text.endswith("\\ "):
        text = text[:-1]
    if not text or text.startswith("#"):
        return None
    negate = False
    if text.startswith("!"):
        negate, text = True, text[1:]
    elif text.startswith(("\\!", "\\#")):
        text = text[1:]
    dir_only = text.endswith("/") and not text.endswith("\\/")
    text = text.rstrip("/") if dir_only else text
    if not text:
        return None
    anchored = "/" in text
    body = _glob_to_regex(text.lstrip("/") if anchored else text)
    regex = re.compile(("^" if anchored else "^(?:.*/)?") + body + "$", re.DOTALL)
    return IgnoreRule(line.strip(), regex, negate, dir_only, base.strip("/"))


class IgnoreRules:
    """An ordered rule list with git's semantics; decisions for folders are cached."""

    def __init__(self, patterns: Iterable[str] = (), base: str = "") -> None:
        self.rules: list[IgnoreRule] = []
        self._cache: dict[str, bool] = {}
        self.add(patterns, base)

    def add(self, patterns: Iterable[str], base: str = "") -> None:
        for p in patterns:
            rule = parse_rule(p, base)
            if rule is not None:
                self.rules.append(rule)
        self._cache.clear()

    def add_gitignore(self, text: str, base: str = "") -> None:
        self.add(text.splitlines(), base)

    def _match_self(self, path: str, is_dir: bool) -> bool:
        excluded = False
        for rule in self.rules:
            if rule.dir_only and not is_dir:
                continue
            if rule.base:
                if not path.startswith(rule.base + "/"):
                    continue
                rel = path[len(rule.base) + 1 :]
            else:
                rel = path
            if rule.regex.match(rel):
                excluded = not rule.negate
        return excluded

    def excluded(self, path: str, is_dir: bool) -> bool:
        """True when ``path`` (or one of its parent folders) is excluded."""
        if not self.rules:
            return False
        head = path.rpartition("/")[0]
        if head and self._dir_excluded(head):
            return True
        if is_dir:
            return self._dir_excluded(path)
        return self._match_self(path, False)

    def _dir_excluded(self, path: str) -> bool:
        hit = self._cache.get(path)
        if hit is None:
            head = path.rpartition("/")[0]
            hit = (bool(head) and self._dir_excluded(head)) or self._match_self(path, True)
            self._cache[path] = hit
        return hit


def default_rules(extra: Iterable[str] = (), *, defaults: bool = True) -> IgnoreRules:
    rules = IgnoreRules(DEFAULT_EXCLUDES if defaults else ())
    rules.add(extra)
    return rules


# ---------------------------------------------------------------------------------------------
# planning


def _whole(t: float) -> int:
    return int(t // 1)


def same_file(src: Entry, dst: Entry) -> bool:
    return src.size == dst.size and _whole(src.mtime) == _whole(dst.mtime)


def _staging_dirs(listing: Mapping[str, Entry]) -> set[str]:
    """Folders named as our temporary files (``.NAME.<token>.labgpu-part``): a new folder of small files
    is unpacked into one and renamed into place whole (see the tar upload); one a cut left behind is
    never an entry, nor is anything in it."""
    return {path for path, e in listing.items() if e.kind == DIR and final_of_part(path) is not None}


def _split(
    listing: Mapping[str, Entry], staging: set[str] | None = None
) -> tuple[dict[str, Entry], dict[str, list[tuple[str, int]]]]:
    """Separate our temporary files (final path → [(temp path, size)]) from real entries; what lies in a
    staging folder (``staging``) is neither."""
    real: dict[str, Entry] = {}
    parts: dict[str, list[tuple[str, int]]] = {}
    for path, e in listing.items():
        if staging and (path in staging or _inside(path, staging)):
            continue
        final = final_of_part(path) if e.kind == FILE else None
        if final is not None:
            parts.setdefault(final, []).append((path, e.size))
        else:
            real[path] = e
    return real, parts


def _inside(path: str, folders: set[str]) -> bool:
    head = path.rpartition("/")[0]
    while head:
        if head in folders:
            return True
        head = head.rpartition("/")[0]
    return False


def build_plan(
    source: Mapping[str, Entry],
    dest: Mapping[str, Entry],
    rules: IgnoreRules | None = None,
    *,
    delete: bool = False,
    force: bool = False,
    windows_dest: bool = False,
    strict_source_names: bool = True,
) -> SyncPlan:
    """Compare two listings and decide every action. ``strict_source_names`` refuses
    unsafe names coming from the source (always on when the source is remote)."""
    rules = rules or IgnoreRules()
    plan = SyncPlan()
    src, _src_parts = _split(source, _staging_dirs(source))
    staging = _staging_dirs(dest)
    dst, dst_parts = _split(dest, staging)
    resumed: set[str] = set()  # temp paths chosen to resume from

    def pick_part(path: str, size: int) -> tuple[int, str]:
        """The largest temporary file not longer than the source (its prefix is verified later)."""
        best = max(((n, p) for p, n in dst_parts.get(path, []) if 0 < n <= size), default=(0, ""))
        if best[1]:
            resumed.add(best[1])
        return best

    def dest_parent_blocked(path: str) -> bool:
        head = path.rpartition("/")[0]
        while head:
            d = dst.get(head)
            if d is not None and d.kind != DIR:
                return True
            head = head.rpartition("/")[0]
        return False

    refused_dirs: set[str] = set()
    for path in sorted(src):
        e = src[path]
        head = path.rpartition("/")[0]
        if any(head == r or head.startswith(r + "/") for r in refused_dirs if head):
            continue
        if (strict_source_names and unsafe_path(path)) or unsafe_path(path, windows=windows_dest):
            plan.refused.append(PlanItem(CONFLICT, path, e.size, e.mtime, reason="unsafe"))
            if e.kind == DIR:
                refused_dirs.add(path)
            continue
        if rules.excluded(path, e.kind == DIR):
            plan.excluded += 1
            continue
        if e.kind == LINK:
            plan.refused.append(PlanItem(CONFLICT, path, reason="symlink"))
            continue
        if e.kind not in (FILE, DIR):
            plan.refused.append(PlanItem(CONFLICT, path, reason="special"))
            continue
        if dest_parent_blocked(path):
            plan.conflicts.append(PlanItem(CONFLICT, path, e.size, e.mtime, reason="parent"))
            if e.kind == DIR:
                refused_dirs.add(path)
            continue
        d = dst.get(path)
        if e.kind == DIR:
            if d is None:
                plan.mkdirs.append(path)
            elif d.kind != DIR:
                plan.conflicts.append(PlanItem(CONFLICT, path, reason="type"))
                refused_dirs.add(path)
            continue
        if d is None:
            resume, part = pick_part(path, e.size)
            plan.transfers.append(
                PlanItem(COPY, path, e.size, e.mtime, e.mode, "new", resume, resume_part=part)
            )
            continue
        if d.kind != FILE:
            plan.conflicts.append(PlanItem(CONFLICT, path, e.size, e.mtime, reason="type"))
            continue
        if same_file(e, d):
            plan.unchanged += 1
            plan.unchanged_bytes += e.size
            plan.checksum_candidates.append(path)
            continue
        if _whole(d.mtime) > _whole(e.mtime):
            if force:
                resume, part = pick_part(path, e.size)
                plan.transfers.append(
                    PlanItem(UPDATE, path, e.size, e.mtime, e.mode, "forced", resume, resume_part=part)
                )
            else:
                plan.conflicts.append(PlanItem(CONFLICT, path, e.size, e.mtime, reason="newer"))
            continue
        resume, part = pick_part(path, e.size)
        plan.transfers.append(
            PlanItem(UPDATE, path, e.size, e.mtime, e.mode, "changed", resume, resume_part=part)
        )

    plan.stale_parts = sorted(p for lst in dst_parts.values() for p, _n in lst if p not in resumed)
    if staging:  # removed whole: the files in them, then the folders, deepest first
        inside = [(p, e.kind) for p, e in dest.items() if _inside(p, staging)]
        plan.stale_parts += sorted(p for p, kind in inside if kind != DIR)
        folders = {p for p, kind in inside if kind == DIR} | staging
        plan.stale_dirs = sorted(folders, key=lambda p: (-p.count("/"), p))

    if delete:
        for path in sorted(dst):
            if path in src:
                continue  # same kind: handled above; different kind: a conflict, never deleted
            d = dst[path]
            if unsafe_path(path):
                continue  # never act on a name we cannot trust (it is listed in refused when seen)
            if rules.excluded(path, d.kind == DIR):
                continue
            if any(path.startswith(r + "/") or path == r for r in refused_dirs):
                continue
            plan.deletions.append(PlanItem(DELETE, path, d.size, d.mtime, reason="mirror", kind=d.kind))
        # a folder is only deleted if everything inside it goes too
        kept = {p for p in dst if p not in {x.path for x in plan.deletions}}
        doomed_dirs = {x.path for x in plan.deletions if dst[x.path].kind == DIR}
        blocked = set()
        for p in kept:
            head = p.rpartition("/")[0]
            while head:
                if head in doomed_dirs:
                    blocked.add(head)
                head = head.rpartition("/")[0]
        plan.deletions = [x for x in plan.deletions if x.path not in blocked]
        plan.deletions.sort(key=lambda x: (-x.path.count("/"), x.path))
    return plan


def checksum_mismatches(
    plan: SyncPlan, src_sums: Mapping[str, str], dst_sums: Mapping[str, str], source: Mapping[str, Entry]
) -> list[PlanItem]:
    """Quick-check-equal files whose sha256 differ — or could not be computed on one side (then
    they cannot be proven equal) — are transferred too (``--verify``)."""
    out = []
    for path in plan.checksum_candidates:
        a, b = src_sums.get(path), dst_sums.get(path)
        if a is None or b is None or a != b:
            e = source[path]
            out.append(PlanItem(UPDATE, path, e.size, e.mtime, e.mode, "checksum"))
    return out
