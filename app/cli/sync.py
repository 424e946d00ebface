"""``labgpu sync LOCAL NAME:REMOTE``: one sync with a saved host, as scripts rely on.

Uploads LOCAL's contents into REMOTE (``--down``: REMOTE's into LOCAL). ``--json`` prints ONE
summary object on stdout; progress goes to stderr only when stderr is a terminal. Exit 0 on
success; otherwise non-zero and one clear line on stderr (the shared CLI error path).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from app.core.errors import InputError
from app.core.i18n import QT_TRANSLATE_NOOP


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "sync",
        help="sync a local folder with a folder on a saved host",
        description="Upload LOCAL's contents into REMOTE on host NAME (with --down: REMOTE's into LOCAL). "
        "Unchanged files (same size and mtime) are skipped; a destination file newer than the "
        "source is never overwritten unless --force.",
    )
    p.add_argument("local", metavar="LOCAL", help="local folder")
    p.add_argument(
        "remote",
        metavar="NAME:REMOTE",
        help="saved host (labgpu hosts add) and remote folder, e.g. gpu1:~/data",
    )
    p.add_argument("--down", action="store_true", help="download REMOTE into LOCAL")
    p.add_argument(
        "--delete",
        action="store_true",
        help="mirror: delete destination files missing from the source (preview with --dry-run)",
    )
    p.add_argument("--dry-run", action="store_true", help="show what would change; change nothing")
    p.add_argument(
        "--verify",
        action="store_true",
        help="compare sha256 of unchanged-looking files and verify every transferred file",
    )
    p.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="PATTERN",
        help="exclude paths matching PATTERN (.gitignore syntax); repeatable",
    )
    p.add_argument("--gitignore", action="store_true", help="also honour .gitignore files in the source")
    p.add_argument(
        "--no-default-excludes",
        action="store_true",
        help="do not skip .git/, __pycache__/, .ipynb_checkpoints/",
    )
    p.add_argument("--force", action="store_true", help="overwrite destination files that are newer")
    p.add_argument("--bwlimit", type=float, default=None, metavar="KBPS", help="bandwidth limit in KiB/s")
    p.add_argument(
        "--channels", type=int, default=None, metavar="N", help="parallel SFTP channels (default 4)"
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="fail a remote step after this long without an answer (default 120)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON summary object")
    p.set_defaults(func=cmd_sync)


def split_target(text: str) -> tuple[str, str]:
    host, sep, remote = text.partition(":")
    if not sep or not host:
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "Expected NAME:REMOTE, got {text!r}."),
            QT_TRANSLATE_NOOP(
                "LabGPU", "Write the saved host name, a colon and the remote folder, e.g. gpu1:~/data."
            ),
            code="BadTarget",
            text=text,
        )
    return host, remote or "~"


def _fmt_progress(p: Any) -> str:
    from app.core.units import human_bytes

    if p.state == "waiting":
        return f"waiting for connection (attempt {p.attempt})…"
    if p.state == "queued":
        return "waiting for the other sync of these folders to end…"
    if p.state != "transferring":
        return f"{p.state}…"
    eta = "" if p.eta is None else f" ETA {int(p.eta) // 60}:{int(p.eta) % 60:02d}"
    return (
        f"{p.files_done}/{p.files_total} files  {human_bytes(p.bytes_done)}/{human_bytes(p.bytes_total)}"
        f"  {human_bytes(p.rate)}/s{eta}"
    )


def cmd_sync(args: argparse.Namespace) -> int:
    from app.cli.output import print_json, print_table, terminal_safe
    from app.core.paths import default_paths
    from app.core.syncmodel import DOWN, UP, SyncOptions, display_name
    from app.core.syncpairs import SyncStore
    from app.core.units import human_bytes
    from app.usecases.sync import JOBS, SyncRequest

    host, remote = split_target(args.remote)
    if args.bwlimit is not None and args.bwlimit <= 0:
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "--bwlimit must be a positive number of KiB/s."),
            "",
            code="BadBwlimit",
        )
    opts = SyncOptions(
        direction=DOWN if args.down else UP,
        delete=args.delete,
        dry_run=args.dry_run,
        verify=args.verify,
        force=args.force,
        excludes=list(args.exclude),
        default_excludes=not args.no_default_excludes,
        gitignore=args.gitignore,
        bwlimit_kbps=args.bwlimit,
    )
    if args.channels:
        opts.channels = max(1, min(16, args.channels))
    if args.timeout is not None:
        if not args.timeout > 0 or args.timeout != args.timeout or args.timeout == float("inf"):
            raise InputError(
                QT_TRANSLATE_NOOP("LabGPU", "--timeout must be a positive number of seconds."),
                "",
                code="BadTimeout",
            )
        opts.step_timeout = args.timeout
    paths = default_paths()
    tty = sys.stderr.isatty()
    last = [0.0]

    def progress(p: Any) -> None:
        if tty and (time.monotonic() - last[0] > 0.2 or p.state == "done"):
            last[0] = time.monotonic()
            sys.stderr.write("\r\x1b[K" + _fmt_progress(p))
            sys.stderr.flush()

    # one job per pair at a time in this process; Ctrl+C cancels it (the engine closes its own
    # connection, so a blocked transfer stops at once; finished files stay, the rest resumes)
    job = JOBS.start(SyncRequest(host, args.local, remote, opts), paths=paths, store=SyncStore(paths=paths),
                     progress=progress)
    try:
        while not job.wait(0.2):
            pass
    except KeyboardInterrupt:
        job.cancel()
        job.wait(30)
        raise
    finally:
        if tty:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
    result = job.result()
    if args.json:
        print_json(result.summary())
        return 0 if (result.complete or args.dry_run) else 1
    if args.dry_run and result.plan is not None:
        items = result.plan.items()
        if items:
            print_table(
                ["ACTION", "PATH", "SIZE", "REASON"],
                [(i.action, i.path, human_bytes(i.size) if i.size else "", i.reason) for i in items[:2000]],
            )
        print(
            f"dry run: would transfer {result.files} files ({human_bytes(result.bytes)}), "
            f"delete {result.deleted}, skip {result.skipped} unchanged; {result.conflicts} conflicts"
        )
        _print_not_transferred(result, would=True)
        return 0
    print(
        f"{result.files} files ({human_bytes(result.bytes)}) transferred, {result.skipped} unchanged, "
        f"{result.deleted} deleted, {result.conflicts} conflicts in {result.seconds:.1f} s"
    )
    if result.conflicts:
        print(
            f"labgpu: {result.conflicts} destination files are newer and were kept "
            f"(e.g. {terminal_safe(display_name(result.conflict_paths[0]))}); use --force to overwrite",
            file=sys.stderr,
        )
    if not result.complete:
        _print_not_transferred(result, would=False)
        return 1
    return 0


def _print_not_transferred(result: Any, *, would: bool) -> None:
    """Name what was skipped and why (stderr): a sync never leaves a file behind silently."""
    from app.cli.output import terminal_safe
    from app.core.syncmodel import display_name

    skipped = result.not_transferred
    if not skipped:
        return
    for x in skipped[:50]:
        # a remote file name and the host's reason (`find`'s stderr, an SFTP message): shown, never obeyed
        print(f"labgpu: not transferred: {terminal_safe(display_name(x['path']))} — {terminal_safe(x['why'])}",
              file=sys.stderr)
    if len(skipped) > 50:
        print(f"labgpu: … and {len(skipped) - 50} more (--json lists them)", file=sys.stderr)
    verb = "would not be transferred" if would else "were NOT transferred"
    print(
        f"labgpu: [Incomplete] {len(skipped)} item(s) you asked for {verb} (see above) — "
        "fix permissions or replace special files/links with regular files, then sync again",
        file=sys.stderr,
    )
