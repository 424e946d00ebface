"""``labgpu hosts …``: add (from the SSH command a provider shows), ls, rm, forget-key, forward.

Scripts rely on this behaviour: ``add`` without a terminal trusts a first-contact host key only
when it matches ``--fingerprint`` (otherwise it fails and prints the key's fingerprint, saving
nothing); with a terminal it asks. Exit 0 on success; otherwise non-zero and one stderr line.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
import webbrowser
from dataclasses import replace
from typing import Any

from app.cli.output import read_stdin_secret, translate
from app.core.errors import InputError, LabGpuError
from app.core.hosts import HostStore, record_from_command
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.paths import default_paths
from app.core.sshcmd import PASSWORD_IN_COMMAND

from .output import print_json, print_table


def register(sub: Any) -> None:
    p = sub.add_parser("hosts", help=translate("LabGPU", "SSH hosts: add from an SSH command, list, remove, forward "
                                                         "ports"))
    hs = p.add_subparsers(title=translate("LabGPU", "commands"), dest="hosts_command", metavar="ACTION", required=True)

    a = hs.add_parser("add", help=translate("LabGPU", 'add a host: labgpu hosts add NAME "ssh -p PORT USER@HOST"'))
    a.add_argument("name", help=translate("LabGPU", "a name for the host, e.g. gpu1"))
    a.add_argument("command",
                   help=translate("LabGPU", 'the SSH command, e.g. "ssh -p 12345 root@region-1.example.com"'))
    a.add_argument(
        "--fingerprint",
        metavar="SHA256:…",
        action="append",
        help=translate("LabGPU", "the host key fingerprint your provider shows (required without a terminal; "
        "give it once more for each -J jump host seen for the first time)"),
    )
    a.add_argument(
        "--password-stdin",
        action="store_true",
        help=translate("LabGPU", "read the login password from stdin (stored in the keyring)"),
    )
    a.add_argument(
        "--passphrase-stdin",
        action="store_true",
        help=translate("LabGPU", "read the -i key's passphrase from stdin (stored in the keyring)"),
    )
    a.add_argument(
        "--via-vpn",
        metavar="PROFILE",
        default="",
        help=translate("LabGPU", "bring this VPN profile up first; the host is its private address"),
    )
    a.set_defaults(func=cmd_add)

    ls = hs.add_parser("ls", aliases=["list"], help=translate("LabGPU", "list hosts"))
    ls.add_argument("--json", action="store_true", help=translate("LabGPU", "print JSON"))
    ls.set_defaults(func=cmd_ls)

    rm = hs.add_parser("rm", help=translate("LabGPU", "remove a host and its stored password/passphrase"))
    rm.add_argument("name", help=translate("LabGPU", "host name (labgpu hosts ls)"))
    rm.set_defaults(func=cmd_rm)

    fk = hs.add_parser("forget-key",
                       help=translate("LabGPU", "forget a host's key (after a provider-confirmed rebuild)"))
    fk.add_argument("name", help=translate("LabGPU", "host name (labgpu hosts ls)"))
    fk.set_defaults(func=cmd_forget_key)

    tr = hs.add_parser("trust", help=translate("LabGPU", "accept a saved host's new key: the fingerprint your "
                                                         "provider shows"))
    tr.add_argument("name", help=translate("LabGPU", "host name (labgpu hosts ls)"))
    tr.add_argument("--fingerprint", metavar="SHA256:…", required=True,
                    help=translate("LabGPU", "the host key fingerprint your provider shows; any other key is refused"))
    tr.set_defaults(func=cmd_trust)

    fw = hs.add_parser("forward", help=translate("LabGPU", "open TensorBoard/Jupyter/PORT of a host on a local port"))
    fw.add_argument("name", help=translate("LabGPU", "host name (labgpu hosts ls)"))
    fw.add_argument("service", help=translate("LabGPU", "tensorboard (6006), jupyter (8888) or a remote port"))
    fw.add_argument("--local-port", type=_local_port, default=0, help=translate("LabGPU", "local port 1–65535 "
                                                                                          "(default: a free one)"))
    fw.add_argument("--open", action="store_true", help=translate("LabGPU", "open the URL in the browser"))
    fw.set_defaults(func=cmd_forward)


def _local_port(text: str) -> int:
    """argparse type for --local-port: a clear message instead of a traceback for 70000 or "abc"."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (1–65535)") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is outside 1–65535 (0 or nothing: a free port)")
    return port


def tty_accept(prompt: Any) -> bool:
    """OpenSSH-style question on the terminal."""
    print(
        translate(
            "LabGPU",
            "The authenticity of host {display} can't be established.\n{key_type} key fingerprint is {fingerprint}.",
        ).format(display=prompt.display, key_type=prompt.key_type, fingerprint=prompt.fingerprint),
        file=sys.stderr,
    )
    try:
        with open("/dev/tty") as tty:
            print(
                translate("LabGPU", "Accept this key and continue connecting (yes/no)? "),
                end="",
                file=sys.stderr,
                flush=True,
            )
            answer = tty.readline().strip().lower()
    except OSError:
        answer = input("Accept this key and continue connecting (yes/no)? ").strip().lower()
    return answer in ("yes", "y")


def is_interactive() -> bool:
    return sys.stdin.isatty() and sys.stderr.isatty()


def cmd_add(args: argparse.Namespace) -> int:
    from app.remote.hostkeys import HostKeyError, HostKeyUnknownError
    from app.usecases.hosts import accept_only, add_host, refuse_existing

    paths = default_paths()
    hosts = HostStore(paths=paths)
    if args.password_stdin and args.passphrase_stdin:
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "Use only one of --password-stdin and --passphrase-stdin."),
            "",
            code="BadArgs",
        )
    try:
        rec = record_from_command(args.name, args.command, via_vpn=args.via_vpn)
    except InputError as exc:
        if exc.code != PASSWORD_IN_COMMAND:
            raise
        # the same sentence as the Hosts page (which never repeats the password); here the next
        # step is stdin, never argv (shell history and `ps` see argv)
        raise InputError(
            exc.template,
            QT_TRANSLATE_NOOP(
                "LabGPU",
                "Remove it from the command and give it on stdin instead: labgpu hosts add NAME "
                '"ssh …" --password-stdin (it is kept in the system keyring).',
            ),
            code=exc.code,
            **exc.params,
        ) from None
    if args.password_stdin and not rec.key_path:
        rec = replace(rec, auth="password")
    refuse_existing(hosts, rec.name)
    password = read_stdin_secret(command="hosts add", what="password") if args.password_stdin else None
    passphrase = read_stdin_secret(command="hosts add", what="passphrase") if args.passphrase_stdin else None
    if args.fingerprint:
        accept = accept_only(args.fingerprint)
    elif is_interactive() and not args.password_stdin and not args.passphrase_stdin:
        accept = tty_accept
    else:
        accept = None
    try:
        added = add_host(
            rec,
            paths,
            accept=accept,
            password=password,
            passphrase=passphrase,
            expected=args.fingerprint or (),
            hosts=hosts,
        )
    except HostKeyUnknownError as exc:
        raise HostKeyError(
            QT_TRANSLATE_NOOP("LabGPU", "The host key of {host} was not accepted: {key_type} {fingerprint}."),
            QT_TRANSLATE_NOOP(
                "LabGPU",
                "If this matches the fingerprint your provider shows, run the same 'labgpu hosts add' "
                "again with --fingerprint {fingerprint}.",
            ),
            code=exc.code,
            host=exc.prompt.display,
            key_type=exc.prompt.key_type,
            fingerprint=exc.prompt.fingerprint,
        ) from None
    print(
        translate("LabGPU", "Added host {name} ({address}), host key {fingerprint}").format(
            name=rec.name, address=rec.address, fingerprint=added.fingerprint
        )
    )
    return 0


def cmd_ls(args: argparse.Namespace) -> int:
    from app.remote.hostkeys import KnownHosts
    from app.remote.ssh import resolve_target
    from app.usecases.hosts import all_hosts

    paths = default_paths()
    known = KnownHosts(paths)
    rows = []
    for entry in all_hosts(paths):
        h = entry.record
        d = h.to_json()
        d["source"] = str(entry.source)
        try:
            t = resolve_target(h, paths)  # a ~/.ssh/config alias is known under its real HostName
            d["known_host_keys"] = known.fingerprints(t.hostname, t.port)
        except LabGpuError:
            d["known_host_keys"] = []
        rows.append(d)
    if args.json:
        print_json(rows)
        return 0
    print_table(
        [
            translate("LabGPU", "NAME"),
            translate("LabGPU", "ADDRESS"),
            translate("LabGPU", "AUTH"),
            translate("LabGPU", "VPN"),
            translate("LabGPU", "JUMP"),
            translate("LabGPU", "HOST KEY"),
            translate("LabGPU", "SOURCE"),
        ],
        [
            [
                r["name"],
                r["address"],
                r["auth"],
                r["via_vpn"] or "-",
                r["jump"] or "-",
                (r["known_host_keys"] or [r["fingerprint"] or "-"])[0],
                r["source"],
            ]
            for r in rows
        ],
    )
    return 0


def cmd_rm(args: argparse.Namespace) -> int:
    from app.usecases.hosts import remove_host

    remove_host(args.name, HostStore(paths=default_paths()))
    print(translate("LabGPU", "Removed host {name}").format(name=args.name))
    return 0


def cmd_forget_key(args: argparse.Namespace) -> int:
    from app.remote.ssh import find_host
    from app.usecases.hosts import forget_host_key

    paths = default_paths()
    rec = find_host(args.name, paths)
    before = forget_host_key(rec, paths)
    if before:
        print(
            translate(
                "LabGPU",
                "Forgot the host key of {name} ({join}). Accept the new key with 'labgpu hosts trust "
                "{name} --fingerprint SHA256:…' (the fingerprint your provider shows), or answer the "
                "question in the app",
            ).format(name=rec.name, join=", ".join(before))
        )
    else:
        print(translate("LabGPU", "No host key was known for {name}").format(name=rec.name))
    return 0


def cmd_trust(args: argparse.Namespace) -> int:
    from app.usecases.hosts import trust_host_key

    rec = trust_host_key(args.name, default_paths(), args.fingerprint)
    print(
        translate("LabGPU", "Trusted the host key of {name}: {fingerprint}").format(
            name=rec.name, fingerprint=rec.fingerprint
        )
    )
    return 0


def cmd_forward(args: argparse.Namespace) -> int:
    from app.remote.ssh import open_connection
    from app.remote.tunnels import LocalForward, service_port

    paths = default_paths()
    remote_port = service_port(args.service)
    accept = tty_accept if is_interactive() else None
    conn = open_connection(args.name, paths, accept)
    stop = threading.Event()
    previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    fwd = LocalForward(conn, remote_port, local_port=args.local_port)
    try:
        fwd.start()
        if not fwd.check_remote():
            print(
                "labgpu: "
                + translate("LabGPU", "note: nothing listens on 127.0.0.1:{remote_port} on {name} yet").format(
                    remote_port=remote_port, name=args.name
                ),
                file=sys.stderr,
            )
        print(
            translate("LabGPU", "Forwarding {url} -> {name}:127.0.0.1:{remote_port} (Ctrl-C to stop)").format(
                url=fwd.url, name=args.name, remote_port=remote_port
            ),
            flush=True,
        )
        if args.open:
            webbrowser.open(fwd.url)
        try:
            while not stop.wait(1.0):
                if not conn.is_active:
                    conn.ensure(cancelled=stop.is_set)
        except KeyboardInterrupt:
            pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        fwd.stop()
        conn.close()
    return 0
