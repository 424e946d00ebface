"""``labgpu buckets ls ACCOUNT [URL]``: the account's buckets, or one level of a bucket location.

Without URL: every bucket the account's key can list (name, created). With URL
(``cos://data-1250000000/imagenet``): the folders and objects directly below it, with sizes and
modification times, as the Sync page's bucket browser shows them (app/cloud/storage/browse.py);
``--json``: ``{url, folders: [name], objects: [{key, name, size, mtime}], truncated, hidden}``.
Bucket names and object keys are the service's text: printed terminal-safe, never obeyed.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime, timezone
from typing import Any

from app.cli.output import translate


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("buckets", help=translate("LabGPU", "list an account's buckets or a folder in one"),
                              description=translate("LabGPU", "Object storage (S3, Tencent COS, Alibaba OSS, Huawei "
                                                              "OBS) seen "
                              "through a cloud account: its buckets, or one level of a bucket location."))
    sub = p.add_subparsers(
        title=translate("LabGPU", "commands"), dest="buckets_command", metavar="ACTION", required=True
    )
    ls = sub.add_parser(
        "ls", help=translate("LabGPU", "list buckets, or the folders and objects below a bucket location")
    )
    ls.add_argument("account", metavar="ACCOUNT", help=translate("LabGPU", "a cloud account (labgpu accounts ls)"))
    ls.add_argument(
        "url",
        metavar="URL",
        nargs="?",
        default="",
        help=translate("LabGPU", "a bucket location, e.g. s3://my-lab-data/imagenet (cos://, oss://, obs://)"),
    )
    ls.add_argument(
        "--max", type=int, default=1000, metavar="N", help=translate("LabGPU", "list at most N entries (default 1000)")
    )
    ls.add_argument("--json", action="store_true", help=translate("LabGPU", "print JSON"))
    ls.set_defaults(func=cmd_ls)


def _when(value: Any) -> str:
    """A time the service gave (datetime or epoch seconds) as ISO 8601 UTC; "" when it gave none."""
    if isinstance(value, datetime):
        dt = value if value.tzinfo else value.replace(tzinfo=timezone.utc)
    elif isinstance(value, (int, float)) and value > 0:
        dt = datetime.fromtimestamp(value, timezone.utc)
    else:
        return ""
    return dt.astimezone(timezone.utc).replace(microsecond=0).isoformat()


def cmd_ls(args: argparse.Namespace) -> int:
    from app.cli.output import print_json, print_table, terminal_safe
    from app.core.accounts import AccountBook
    from app.core.paths import default_paths
    from app.core.store import Store
    from app.core.units import human_bytes
    from app.usecases.buckets import resolve_bucket

    paths = default_paths()
    limit = max(1, min(args.max, 1000))
    if not args.url:
        from app.cloud.storage.browse import list_buckets

        store = Store(paths=paths)
        try:
            book = AccountBook(store)
            account = book.get(args.account)
            creds = book.credentials(args.account)
        finally:
            store.close()
        buckets = list_buckets(account, creds)
        if args.json:
            print_json([{"name": b.name, "created": _when(b.created)} for b in buckets])
        else:
            print_table(
                [translate("LabGPU", "BUCKET"), translate("LabGPU", "CREATED")],
                [(terminal_safe(b.name), _when(b.created)) for b in buckets],
            )
        return 0
    from app.cloud.storage.browse import list_level

    target, creds = resolve_bucket(args.url, args.account, paths=paths)
    level = list_level(target, creds, max_keys=limit)
    if args.json:
        print_json(
            {
                "url": str(target.url),
                "folders": list(level.folders),
                "objects": [
                    {"key": o.key, "name": o.rel, "size": o.size, "mtime": _when(o.mtime)} for o in level.objects
                ],
                "truncated": level.truncated,
                "hidden": level.hidden,
            }
        )
        return 0
    rows: list[tuple[str, str, str]] = [(terminal_safe(f + "/"), "", "") for f in level.folders]
    rows += [(terminal_safe(o.rel), human_bytes(o.size), _when(o.mtime)) for o in level.objects]
    print_table([translate("LabGPU", "NAME"), translate("LabGPU", "SIZE"), translate("LabGPU", "MODIFIED")], rows)
    if level.truncated:
        print(
            "labgpu: "
            + translate(
                "LabGPU", "more than {limit} entries; only the first {limit} are shown (--max N, up to 1000)"
            ).format(limit=limit),
            file=sys.stderr,
        )
    if level.hidden:
        # keys with '..', '//', a backslash or a control character: a sync would never write them either
        print(
            "labgpu: "
            + translate("LabGPU", "{hidden} object name(s) that cannot be a local path are not shown").format(
                hidden=level.hidden
            ),
            file=sys.stderr,
        )
    return 0
