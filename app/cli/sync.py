"""``labgpu sync LOCAL NAME:REMOTE`` / ``labgpu sync LOCAL s3://BUCKET/PREFIX``: one sync, as scripts rely on.

Uploads LOCAL's contents into REMOTE (``--down``: REMOTE's into LOCAL). REMOTE is a folder on a
saved host, or a bucket location (``s3://``, ``cos://``, ``oss://``, ``obs://``) reached with a cloud
account (``--account``; "" = the only account of that cloud), optionally encrypted on this computer
(``--encrypt [--key NAME]``) or by the service (``--sse kms[:ID]``). A bucket and a host folder
(``labgpu sync cos://b/p gpu1:~/data`` and back) go straight between them: the instance fetches
with presigned URLs and never holds a key (app/usecases/bucketinstance.py). ``--json`` prints ONE
summary object on stdout; progress goes to stderr only when stderr is a terminal. Exit 0 on
success; otherwise non-zero and one clear line on stderr (the shared CLI error path).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import threading
import time
from typing import Any

from app.cli.output import translate
from app.core.errors import InputError
from app.core.i18n import QT_TRANSLATE_NOOP


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "sync",
        help=translate("LabGPU", "sync a local folder with a folder on a saved host or a bucket"),
        description=translate("LabGPU", "Upload LOCAL's contents into REMOTE on host NAME or into a bucket location "
        "(with --down: REMOTE's into LOCAL). Unchanged files (same size and mtime) are skipped; a "
        "destination file newer than the source is never overwritten unless --force. A bucket and a "
        "host folder (cos://b/p gpu1:~/data, or the other way round) sync directly: the host fetches "
        "with short-lived presigned URLs and never holds a key."),
    )
    p.add_argument("local", metavar="LOCAL", help=translate("LabGPU", "local folder (or a bucket URL / NAME:REMOTE, "
                                                                      "see above)"))
    p.add_argument(
        "remote",
        metavar="NAME:REMOTE|URL",
        help=translate("LabGPU", "saved host (labgpu hosts add) and remote folder, e.g. gpu1:~/data; or a bucket "
                                 "location "
        "s3://BUCKET/PREFIX (cos://, oss://, obs://)"),
    )
    p.add_argument("--down", action="store_true", help=translate("LabGPU", "download REMOTE into LOCAL"))
    p.add_argument(
        "--delete",
        action="store_true",
        help=translate("LabGPU", "mirror: delete destination files missing from the source (preview with --dry-run)"),
    )
    p.add_argument("--dry-run", action="store_true", help=translate("LabGPU", "show what would change; change nothing"))
    p.add_argument(
        "--verify",
        action="store_true",
        help=translate("LabGPU", "compare sha256 of unchanged-looking files and verify every transferred file"),
    )
    p.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="PATTERN",
        help=translate("LabGPU", "exclude paths matching PATTERN (.gitignore syntax); repeatable"),
    )
    p.add_argument("--gitignore", action="store_true", help=translate("LabGPU", "also honour .gitignore files in the "
                                                                                "source"))
    p.add_argument(
        "--no-default-excludes",
        action="store_true",
        help=translate("LabGPU", "do not skip .git/, __pycache__/, .ipynb_checkpoints/"),
    )
    p.add_argument("--force", action="store_true",
                   help=translate("LabGPU", "overwrite destination files that are newer"))
    p.add_argument("--bwlimit", type=float, default=None, metavar="KBPS", help=translate("LabGPU", "bandwidth limit "
                                                                                                   "in KiB/s"))
    p.add_argument(
        "--channels", type=int, default=None, metavar="N",
        help=translate("LabGPU", "parallel SFTP channels (default 4)"))
    p.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help=translate("LabGPU", "fail a remote step after this long without an answer (default 120)"),
    )
    p.add_argument("--account", default="", metavar="NAME",
                   help=translate("LabGPU", "bucket: the cloud account that reaches it (default: the only account of "
                                            "that cloud)"))
    p.add_argument("--encrypt", action="store_true",
                   help=translate("LabGPU", "bucket: encrypt names and contents on this computer (AES-256-GCM) with a "
                                            "LabGPU key"))
    p.add_argument("--key", default="", metavar="NAME",
                   help=translate("LabGPU", "with --encrypt: the key's name in the keyring (default 'default'; "
                                            "created when missing)"))
    p.add_argument("--sse", default="", metavar="kms[:ID]",
                   help=translate("LabGPU", "bucket: ask the service to encrypt with its KMS (optionally this key id)"))
    p.add_argument("--json", action="store_true", help=translate("LabGPU", "print one JSON summary object"))
    p.set_defaults(func=cmd_sync)


_URL_LIKE = re.compile(r"^[A-Za-z0-9+.-]+://")


def is_url_arg(text: str) -> bool:
    """Whether an argument is meant as a bucket location (``scheme://…``; an unknown scheme is then
    refused by parse_bucket_url with the list of known ones)."""
    return bool(_URL_LIKE.match(text.strip()))


def host_arg(text: str) -> tuple[str, str] | None:
    """``NAME:DIR`` when an argument names a host folder rather than a local one (as scp reads it:
    a colon before any '/', and no local file of that name), else None."""
    host, sep, remote = text.partition(":")
    if not sep or not host or "/" in host or "\\" in host or os.path.exists(text):
        return None
    return host, remote or "~"


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


def _options(args: argparse.Namespace) -> Any:
    from app.core.syncmodel import DOWN, UP, SyncOptions

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
    return opts


_BUCKET_ONLY = QT_TRANSLATE_NOOP("LabGPU", "{option} is for a bucket location, and {target} is a host folder.")
_BUCKET_ONLY_HINT = QT_TRANSLATE_NOOP(
    "LabGPU", "Leave {option} out, or sync with a bucket: labgpu sync LOCAL s3://BUCKET/PREFIX --account NAME."
)


def cmd_sync(args: argparse.Namespace) -> int:
    first, second = args.local, args.remote
    if is_url_arg(second):
        if host_arg(first) is not None:
            return _cmd_host_bucket(args, from_bucket=False)
        return _cmd_bucket(args)
    if is_url_arg(first):
        if host_arg(second) is not None:
            return _cmd_host_bucket(args, from_bucket=True)
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "The local folder comes first: {text!r} is a bucket location."),
            QT_TRANSLATE_NOOP(
                "LabGPU", "Write labgpu sync LOCAL {url} --down to download the bucket into LOCAL."
            ),
            code="BadTarget",
            text=first,
            url=first,
        )
    host, remote = split_target(second)
    for option, used in (("--account", args.account), ("--encrypt", args.encrypt or args.key),
                         ("--sse", args.sse)):
        if used:
            raise InputError(_BUCKET_ONLY, _BUCKET_ONLY_HINT, code="NotABucket", option=option, target=second)
    from app.usecases.sync import SyncRequest

    return _run(args, SyncRequest(host, args.local, remote, _options(args)))


def _cmd_bucket(args: argparse.Namespace) -> int:
    """LOCAL ↔ a bucket location, through the sync registry like a host's folder."""
    from app.core.buckets import parse_bucket_url
    from app.core.paths import default_paths
    from app.usecases.buckets import account_for
    from app.usecases.sync import SyncRequest

    opts = _options(args)
    paths = default_paths()
    url = parse_bucket_url(args.remote)
    # the account now (no keyring): a missing or wrong account is one clear line before anything runs
    _url, account = account_for(url, args.account, paths=paths)
    if args.sse:
        from app.core.bucketsse import parse_sse, sse_params

        sse_params(url.scheme, parse_sse(args.sse))  # a service whose S3 API takes no KMS says so now
    key = ""
    if args.encrypt or args.key:
        key = args.key or "default"
        _ensure_key(key, up=not args.down, paths=paths)
    request = SyncRequest("", args.local, str(url), opts, account=account.name, encrypt_key=key, sse=args.sse)
    return _run(args, request)


def _ensure_key(name: str, *, up: bool, paths: Any) -> None:
    """An upload with a key that does not exist yet creates it (in the keyring) and says, once, how to
    keep its recovery phrase: without the key nobody can read the objects. A download needs the key
    that encrypted them (the job says so: labgpu keys import)."""
    from app.core.cryptkeys import CryptKeys

    keys = CryptKeys(paths)
    if not up or name in keys.names():
        return
    keys.create(name)
    print(
        "labgpu: "
        + translate(
            "LabGPU",
            "created the encryption key '{name}' (in your keyring). Save its recovery "
            "phrase now with 'labgpu keys export {name}' and keep it somewhere safe: "
            "without this key nobody, not even LabGPU, can read the encrypted files.",
        ).format(name=name),
        file=sys.stderr,
    )


def _run(args: argparse.Namespace, request: Any) -> int:
    from app.core.paths import default_paths
    from app.core.syncpairs import SyncStore
    from app.usecases.sync import JOBS

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
    job = JOBS.start(request, paths=paths, store=SyncStore(paths=paths), progress=progress)
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
    return _report(args, job.result())


def _report(args: argparse.Namespace, result: Any) -> int:
    from app.cli.output import print_json, print_table, terminal_safe
    from app.core.syncmodel import display_name
    from app.core.units import human_bytes

    if args.json:
        print_json(result.summary())
        return 0 if (result.complete or args.dry_run) else 1
    if args.dry_run and result.plan is not None:
        items = result.plan.items()
        if items:
            print_table(
                [
                    translate("LabGPU", "ACTION"),
                    translate("LabGPU", "PATH"),
                    translate("LabGPU", "SIZE"),
                    translate("LabGPU", "REASON"),
                ],
                [(i.action, i.path, human_bytes(i.size) if i.size else "", i.reason) for i in items[:2000]],
            )
        print(
            translate(
                "LabGPU",
                "dry run: would transfer {files} files ({human_bytes}), delete {deleted}, skip "
                "{skipped} unchanged; {conflicts} conflicts",
            ).format(
                files=result.files,
                human_bytes=human_bytes(result.bytes),
                deleted=result.deleted,
                skipped=result.skipped,
                conflicts=result.conflicts,
            )
        )
        _print_not_transferred(result, would=True)
        return 0
    print(
        translate(
            "LabGPU",
            "{files} files ({human_bytes}) transferred, {skipped} unchanged, {deleted} deleted, "
            "{conflicts} conflicts in {seconds:.1f} s",
        ).format(
            files=result.files,
            human_bytes=human_bytes(result.bytes),
            skipped=result.skipped,
            deleted=result.deleted,
            conflicts=result.conflicts,
            seconds=result.seconds,
        )
    )
    if result.conflicts:
        print(
            "labgpu: "
            + translate(
                "LabGPU",
                "{conflicts} destination files are newer and were kept (e.g. "
                "{conflict_paths}); use --force to overwrite",
            ).format(conflicts=result.conflicts, conflict_paths=terminal_safe(display_name(result.conflict_paths[0]))),
            file=sys.stderr,
        )
    if not result.complete:
        _print_not_transferred(result, would=False)
        return 1
    return 0


def _cmd_host_bucket(args: argparse.Namespace, *, from_bucket: bool) -> int:
    """A bucket straight to a host's folder or back: the host transfers with presigned URLs the
    laptop signs (app/usecases/bucketinstance.py); no key ever reaches the host."""
    from app.core.buckets import parse_bucket_url
    from app.core.paths import default_paths
    from app.usecases import bucketinstance
    from app.usecases.buckets import account_for

    for option, used in (
        ("--down", args.down),
        ("--encrypt", args.encrypt or args.key),
        ("--sse", args.sse),
        ("--dry-run", args.dry_run),
        ("--delete", args.delete),
        ("--exclude", args.exclude),
        ("--gitignore", args.gitignore),
    ):
        if used:
            raise InputError(
                QT_TRANSLATE_NOOP("LabGPU", "{option} cannot be used between a bucket and a host folder."),
                QT_TRANSLATE_NOOP(
                    "LabGPU",
                    "Leave it out. The order of the two says the direction: labgpu sync URL NAME:DIR "
                    "copies the bucket to the host, labgpu sync NAME:DIR URL the other way; files the "
                    "destination already has (same size, not older) are skipped.",
                ),
                code="BadOption",
                option=option,
            )
    paths = default_paths()
    url_text, host_text = (args.local, args.remote) if from_bucket else (args.remote, args.local)
    url = parse_bucket_url(url_text)
    _url, account = account_for(url, args.account, paths=paths)
    found = host_arg(host_text)
    assert found is not None
    host, remote_dir = found
    cancel = threading.Event()
    box: dict[str, Any] = {}
    tty = sys.stderr.isatty()
    last = [0.0]

    def progress(p: Any) -> None:
        if tty and (time.monotonic() - last[0] > 0.2 or p.state == "done"):
            last[0] = time.monotonic()
            sys.stderr.write("\r\x1b[K" + _fmt_progress(p))
            sys.stderr.flush()

    extra: dict[str, Any] = {"force": args.force}
    if args.channels:
        extra["channels"] = max(1, min(16, args.channels))

    def work() -> None:
        try:
            if from_bucket:
                box["result"] = bucketinstance.bucket_to_host(
                    host, url, account.name, remote_dir, paths=paths, progress=progress, cancel=cancel, **extra
                )
            else:
                box["result"] = bucketinstance.host_to_bucket(
                    host, remote_dir, url, account.name, paths=paths, progress=progress, cancel=cancel, **extra
                )
        except BaseException as exc:  # noqa: BLE001 - raised again on the main thread
            box["error"] = exc

    worker = threading.Thread(target=work, name="labgpu-bucket-host", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.2)
    except KeyboardInterrupt:
        cancel.set()
        worker.join(30)
        raise
    finally:
        if tty:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
    if "error" in box:
        raise box["error"]
    return _report(args, box["result"])


def _print_not_transferred(result: Any, *, would: bool) -> None:
    """Name what was skipped and why (stderr): a sync never leaves a file behind silently."""
    from app.cli.output import terminal_safe
    from app.core.syncmodel import display_name

    skipped = result.not_transferred
    if not skipped:
        return
    for x in skipped[:50]:
        # a remote file name and the host's reason (`find`'s stderr, an SFTP message): shown, never obeyed
        print(
            "labgpu: "
            + translate("LabGPU", "not transferred: {path} — {why}").format(
                path=terminal_safe(display_name(x["path"])), why=terminal_safe(x["why"])
            ),
            file=sys.stderr,
        )
    if len(skipped) > 50:
        print(
            "labgpu: " + translate("LabGPU", "… and {n} more (--json lists them)").format(n=len(skipped) - 50),
            file=sys.stderr,
        )
    verb = "would not be transferred" if would else "were NOT transferred"
    print(
        translate(
            "LabGPU",
            "labgpu: [Incomplete] {n} item(s) you asked for {verb} (see above) — fix permissions or "
            "replace special files/links with regular files, then sync again",
        ).format(n=len(skipped), verb=verb),
        file=sys.stderr,
    )
