"""``labgpu vpn …``: import OpenVPN profiles and bring their tunnels up and down.

Scripts rely on this behaviour:

- ``vpn add PROFILE FILE.ovpn [--username U --password-stdin] [--key-passphrase-stdin]
  [--allow-scripts]`` imports (or replaces) a profile; secrets read from stdin (password first
  line, key passphrase next) go to the keyring only.
- ``vpn up PROFILE`` returns once the tunnel is CONNECTED; openvpn keeps running detached.
- ``vpn down PROFILE`` stops it and remembers the choice (the app does not reconnect).
- ``vpn status PROFILE [--json]`` prints the state (exit 0 whatever the state is, non-zero only
  when it cannot be determined); ``vpn ls [--json]``, ``vpn rm PROFILE``, ``vpn log PROFILE``.
- ``vpn keep PROFILE`` is internal: the keeper ``vpn up`` leaves behind (see app/remote/vpn/keeper.py).

Exit 0 on success; otherwise non-zero and one clear line on stderr (the shared CLI error path).
"""

from __future__ import annotations

import argparse
import getpass
import sys
import time
from typing import Any

from app.cli.output import read_stdin_secret, terminal_safe, translate
from app.core.errors import InputError
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.paths import default_paths

from .output import print_json, print_table


def register(sub: Any) -> None:
    p = sub.add_parser("vpn", help=translate("LabGPU", "OpenVPN profiles: import, connect, disconnect, status"))
    vs = p.add_subparsers(title=translate("LabGPU", "commands"), dest="vpn_command", metavar="ACTION", required=True)

    a = vs.add_parser("add", help=translate("LabGPU", "import an .ovpn profile (credentials go to the keyring)"))
    a.add_argument("profile", metavar="PROFILE", help=translate("LabGPU", "a name for the profile, e.g. lab"))
    a.add_argument(
        "file", metavar="FILE.ovpn", help=translate("LabGPU", "the .ovpn file your lab or provider gave you")
    )
    a.add_argument(
        "--username", default=None, help=translate("LabGPU", "VPN username (the profile has auth-user-pass)")
    )
    a.add_argument(
        "--password-stdin", action="store_true", help=translate("LabGPU", "read the VPN password from stdin")
    )
    a.add_argument(
        "--key-passphrase-stdin",
        action="store_true",
        help=translate("LabGPU", "read the private key's passphrase from stdin (after the password, if both)"),
    )
    a.add_argument(
        "--allow-scripts",
        action="store_true",
        help=translate("LabGPU", "accept a profile that runs programs (up/down scripts, plugins) as root"),
    )
    a.set_defaults(func=cmd_add)

    up = vs.add_parser("up", help=translate("LabGPU", "connect; returns once the tunnel is up"))
    up.add_argument("profile", metavar="PROFILE", help=translate("LabGPU", "profile name (labgpu vpn ls)"))
    up.add_argument(
        "--timeout", type=float, default=30.0, help=translate("LabGPU", "seconds to wait for CONNECTED (default 30)")
    )
    up.add_argument("--json", action="store_true", help=translate("LabGPU", "print JSON"))
    up.set_defaults(func=cmd_up)

    down = vs.add_parser("down", help=translate("LabGPU", "disconnect (and do not reconnect by itself)"))
    down.add_argument("profile", metavar="PROFILE", help=translate("LabGPU", "profile name (labgpu vpn ls)"))
    down.set_defaults(func=cmd_down)

    st = vs.add_parser("status", help=translate("LabGPU", "show the tunnel's state"))
    st.add_argument("profile", metavar="PROFILE", help=translate("LabGPU", "profile name (labgpu vpn ls)"))
    st.add_argument("--json", action="store_true", help=translate("LabGPU", "print JSON"))
    st.set_defaults(func=cmd_status)

    ls = vs.add_parser("ls", help=translate("LabGPU", "list profiles and their state"))
    ls.add_argument("--json", action="store_true", help=translate("LabGPU", "print JSON"))
    ls.set_defaults(func=cmd_ls)

    rm = vs.add_parser("rm", help=translate("LabGPU", "disconnect and remove a profile and its stored credentials"))
    rm.add_argument("profile", metavar="PROFILE", help=translate("LabGPU", "profile name (labgpu vpn ls)"))
    rm.set_defaults(func=cmd_rm)

    lg = vs.add_parser("log", help=translate("LabGPU", "print the end of the profile's OpenVPN log"))
    lg.add_argument("profile", metavar="PROFILE", help=translate("LabGPU", "profile name (labgpu vpn ls)"))
    lg.add_argument("-n", "--lines", type=int, default=40, help=translate("LabGPU", "how many lines (default 40)"))
    lg.set_defaults(func=cmd_log)

    kp = vs.add_parser(
        "keep", help=translate("LabGPU", "(internal, started by 'vpn up') answer OpenVPN's prompts while it runs")
    )
    kp.add_argument("profile", metavar="PROFILE", help=translate("LabGPU", "profile name (labgpu vpn ls)"))
    for d in ("config", "data", "cache", "log"):
        kp.add_argument(f"--{d}-dir", default=None)
    kp.set_defaults(func=cmd_keep)


def _manager() -> Any:
    from app.remote.vpn import VpnManager

    return VpnManager(default_paths())


def _status_dict(name: str, st: Any) -> dict[str, Any]:
    d: dict[str, Any] = st.to_dict()
    d["profile"] = name
    d["up"] = st.is_up
    return d


def _describe(name: str, st: Any) -> str:
    parts = [f"{name}: {st.state}"]
    if st.local_ip:
        parts.append(f"address {st.local_ip}")
    if st.remote:
        parts.append(f"server {st.remote}")
    if st.since and st.is_up:
        parts.append("since " + time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(st.since)))
    if st.message and not st.is_up:
        parts.append(f"({st.message})")
    return ", ".join(parts)


def cmd_add(args: argparse.Namespace) -> int:
    from app.core.vpnprofiles import validate_profile_name

    validate_profile_name(args.profile)
    password = key_phrase = None
    if args.password_stdin and not args.username:
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "--password-stdin needs --username."),
            QT_TRANSLATE_NOOP("LabGPU", "Give the VPN username with --username USER."),
            code="BadArgs",
        )
    if args.password_stdin:
        password = read_stdin_secret(command="vpn add", what="password")
    elif args.username:
        if not sys.stdin.isatty():
            raise InputError(
                QT_TRANSLATE_NOOP("LabGPU", "--username needs a password."),
                QT_TRANSLATE_NOOP("LabGPU", "Add --password-stdin and pipe the password in."),
                code="BadArgs",
            )
        password = getpass.getpass("VPN password: ")
    if args.key_passphrase_stdin:
        key_phrase = read_stdin_secret(command="vpn add", what="key passphrase")
    mgr = _manager()
    stored = mgr.add_profile(
        args.profile,
        args.file,
        allow_scripts=args.allow_scripts,
        username=args.username,
        password=password,
        key_passphrase=key_phrase,
    )
    missing = mgr.missing_credentials(stored.name)
    needs = []
    if stored.needs_auth:
        needs.append("username/password")
    if stored.needs_key_passphrase:
        needs.append("key passphrase")
    line = f"Imported VPN profile {stored.name} (server {', '.join(stored.remotes)})"
    if needs:
        line += "; needs " + " and ".join(needs)
    print(line)
    if stored.removed:
        print(
            "Removed (LabGPU runs OpenVPN with its own log, pid file and control socket): " + ", ".join(stored.removed),
            file=sys.stderr,
        )
    if missing:
        print(
            translate(
                "LabGPU",
                "Not stored yet: {join} — run 'labgpu vpn add {name} FILE.ovpn --username USER "
                "--password-stdin{value}' or use Credentials… on the VPN page",
            ).format(
                join=", ".join(m.replace("_", " ") for m in missing),
                name=stored.name,
                value=" --key-passphrase-stdin" if "key_passphrase" in missing else "",
            ),
            file=sys.stderr,
        )
    return 0


def cmd_up(args: argparse.Namespace) -> int:
    mgr = _manager()
    interactive = sys.stderr.isatty()

    def show(st: Any) -> None:
        if interactive:
            print(f"  {st.state}", file=sys.stderr)

    t0 = time.monotonic()
    st = mgr.up(args.profile, timeout=args.timeout, on_status=show)
    took = time.monotonic() - t0
    if args.json:
        d = _status_dict(args.profile, st)
        d["seconds"] = round(took, 3)
        print_json(d)
    else:
        print(_describe(args.profile, st) + f" ({took:.1f} s)")
    return 0


def cmd_down(args: argparse.Namespace) -> int:
    st = _manager().down(args.profile)
    print(_describe(args.profile, st))
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    st = _manager().status(args.profile)
    if args.json:
        print_json(_status_dict(args.profile, st))
    else:
        print(_describe(args.profile, st))
    return 0


def cmd_ls(args: argparse.Namespace) -> int:
    mgr = _manager()
    rows = []
    for prof in mgr.profiles():
        st = mgr.status(prof.name)
        try:
            missing = mgr.missing_credentials(prof.name)
        except Exception:  # noqa: BLE001 - no keyring: say so in the column, keep listing
            missing = ["keyring unavailable"]
        d = _status_dict(prof.name, st)
        d.update(
            remotes=prof.remotes,
            needs_auth=prof.needs_auth,
            needs_key_passphrase=prof.needs_key_passphrase,
            missing_credentials=missing,
        )
        rows.append(d)
    if args.json:
        print_json(rows)
        return 0
    print_table(
        [
            translate("LabGPU", "PROFILE"),
            translate("LabGPU", "STATE"),
            translate("LabGPU", "ADDRESS"),
            translate("LabGPU", "SERVER"),
            translate("LabGPU", "CREDENTIALS"),
        ],
        [
            [
                r["profile"],
                r["state"],
                r["local_ip"] or "-",
                ", ".join(r["remotes"]),
                ("missing: " + ", ".join(r["missing_credentials"])) if r["missing_credentials"] else "ok",
            ]
            for r in rows
        ],
    )
    return 0


def cmd_rm(args: argparse.Namespace) -> int:
    mgr = _manager()
    mgr.profile(args.profile)  # a clear error when it does not exist
    mgr.remove_profile(args.profile)
    print(translate("LabGPU", "Removed VPN profile {profile}").format(profile=args.profile))
    return 0


def cmd_log(args: argparse.Namespace) -> int:
    mgr = _manager()
    mgr.profile(args.profile)
    print(terminal_safe(mgr.log_tail(args.profile, max(1, args.lines))))  # OpenVPN's log quotes the server
    return 0


def cmd_keep(args: argparse.Namespace) -> int:
    """The keeper (see app.remote.vpn.run_keeper): runs until the profile's openvpn exits."""
    from pathlib import Path

    from app.core.paths import Paths
    from app.core.vpnprofiles import validate_profile_name
    from app.remote.vpn import VpnManager, run_keeper

    d = default_paths()
    paths = Paths(
        Path(args.config_dir or d.config_dir),
        Path(args.data_dir or d.data_dir),
        Path(args.cache_dir or d.cache_dir),
        Path(args.log_dir or d.log_dir),
    )
    return run_keeper(VpnManager(paths, netns=""), validate_profile_name(args.profile))
