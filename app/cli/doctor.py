"""``labgpu doctor``: what this computer gives LabGPU, each with a status and a next step.

- ``doctor [--json]`` checks, without changing anything (no secret is read or written, no file
  is created): the display (which one, and whether Qt opens it: asked of a separate Python, since Qt
  aborts the process it fails in), the keyring backend (and, without one, whether it is not installed or
  installed but not running, locked or without a D-Bus session, with the command that starts it),
  paramiko and whether the SSH fast paths are on (and why not),
  the OpenVPN binary and how it would get its privileges, nvidia-smi here (it matters on GPU
  hosts), the settings file, the data folder, the log file and this computer's clock against the clouds'
  (the offset their last answers measured; more than a minute off is a warning with what to do).
- Each check is ``ok``, ``warn`` (a feature is slower or unavailable) or ``fail`` (LabGPU cannot
  work as it should). ``--json`` prints ``{"ok": bool, "checks": [{"key", "name", "status",
  "detail", "next_step"}]}``; ``key`` is stable for scripts, the rest is for people.

Exit 0 when no check fails, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from app.core.i18n import QT_TRANSLATE_NOOP, translate
from app.core.paths import Paths, default_paths

from .output import print_json, print_table, terminal_safe
from .qtprobe import qt_opens

OK, WARN, FAIL = "ok", "warn", "fail"


@dataclass(frozen=True)
class Check:
    key: str  # stable identifier (JSON)
    name: str
    status: str  # ok / warn / fail
    detail: str
    next_step: str = ""


def register(sub: Any) -> None:
    p = sub.add_parser("doctor", help="check this computer's setup: keyring, SSH, OpenVPN, folders")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_doctor)


def _t(text: str, **params: Any) -> str:
    out = translate(text)
    return out.format(**params) if params else out


def check_keyring() -> Check:
    from app.core import secrets

    name = translate(QT_TRANSLATE_NOOP("LabGPU", "Keyring"))
    backend, problem = secrets.backend_status()
    if problem is None:
        return Check("keyring", name, OK, backend)
    return Check("keyring", name, FAIL, problem.text(), problem.hint())


def check_display() -> Check:
    """Where the window would open, and whether Qt can open it there (asked of a separate Python)."""
    from app.core import display

    name = translate(QT_TRANSLATE_NOOP("LabGPU", "Display"))
    cli = display.cli_command()
    p = display.probe()
    if p.state in (display.NONE, display.UNREACHABLE):
        if p.state == display.NONE:
            step = _t(QT_TRANSLATE_NOOP(
                "LabGPU", "The window needs a desktop. Here, use the command line ('{cli} --help'); "
                          "to see the window over SSH, connect with 'ssh -X'."), cli=cli)
        else:
            step = _t(QT_TRANSLATE_NOOP(
                "LabGPU", "Check that the X server (or the 'ssh -X' connection) is still running, or unset "
                          "{variable} and use the command line ('{cli} --help')."), variable=p.variable, cli=cli)
        return Check("display", name, WARN, display.problem_text(p), step)
    if p.headless:
        return Check("display", name, WARN,
                     _t(QT_TRANSLATE_NOOP("LabGPU", "none: QT_QPA_PLATFORM={platform} draws the window off screen"),
                        platform=p.name),
                     translate(QT_TRANSLATE_NOOP("LabGPU", "Unset QT_QPA_PLATFORM to see the window.")))
    where = {
        "x11": _t(QT_TRANSLATE_NOOP("LabGPU", "X11 display {name}"), name=p.name),
        "wayland": _t(QT_TRANSLATE_NOOP("LabGPU", "Wayland display {name}"), name=p.name),
    }.get(p.kind) or (_t(QT_TRANSLATE_NOOP("LabGPU", "Qt platform {name} (QT_QPA_PLATFORM)"), name=p.name)
                      if p.state == display.CHOSEN else translate(QT_TRANSLATE_NOOP("LabGPU", "the desktop")))
    qt = qt_opens()
    if qt.opened is None:
        return Check("display", name, OK, where)
    if qt.opened:
        detail = _t(QT_TRANSLATE_NOOP("LabGPU", "{where}: Qt opens it ({platform}, {size})"), where=where,
                    platform=qt.platform, size=qt.size) if qt.size else \
            _t(QT_TRANSLATE_NOOP("LabGPU", "{where}: Qt opens it ({platform})"), where=where, platform=qt.platform)
        return Check("display", name, OK, detail)
    detail = _t(QT_TRANSLATE_NOOP("LabGPU", "{where}: Qt cannot open it: {error}"), where=where,
                error=terminal_safe(qt.error))
    missing = display.missing_qt_libraries()
    if missing:
        step = _t(QT_TRANSLATE_NOOP("LabGPU", "Install the libraries Qt lacks ({libraries}), on Debian/Ubuntu: "
                                              "sudo apt install {packages}"),
                  libraries=", ".join(missing), packages=" ".join(display.debian_package(m) for m in missing))
    else:
        step = _t(QT_TRANSLATE_NOOP("LabGPU", "Run 'python3 packaging/bootstrap.py app' from a checkout (it installs "
                                              "Qt's system libraries), or use the command line ('{cli} --help')."),
                  cli=cli)
    return Check("display", name, FAIL, detail, step)


def check_ssh() -> Check:
    import paramiko

    from app.remote import paramiko_probe

    name = translate(QT_TRANSLATE_NOOP("LabGPU", "SSH fast paths"))
    result = paramiko_probe.check()
    version = str(getattr(paramiko, "__version__", "?"))
    if result.enabled:
        detail = _t(QT_TRANSLATE_NOOP("LabGPU", "on: {reason}"), reason=result.reason)
        return Check("ssh_fast_path", name, OK, detail)
    detail = _t(QT_TRANSLATE_NOOP("LabGPU", "off: {reason}"), reason=result.reason)
    if os.environ.get(paramiko_probe.STOCK_ENV):
        step = _t(QT_TRANSLATE_NOOP("LabGPU", "Unset {env} for faster transfers."), env=paramiko_probe.STOCK_ENV)
    else:
        known = sorted(paramiko_probe.KNOWN_VERSIONS)
        step = _t(
            QT_TRANSLATE_NOOP(
                "LabGPU",
                "Transfers work but are slower. Install paramiko {known} (installed: {version}), "
                "e.g. pip install 'paramiko=={known}'.",
            ),
            known=known[-1],
            version=version,
        )
    return Check("ssh_fast_path", name, WARN, detail, step)


def check_openvpn() -> list[Check]:
    from app.core.errors import LabGpuError
    from app.remote.vpn.privileges import find_openvpn, privilege_plan

    name = translate(QT_TRANSLATE_NOOP("LabGPU", "OpenVPN"))
    priv = translate(QT_TRANSLATE_NOOP("LabGPU", "OpenVPN privileges"))
    try:
        binary = find_openvpn()
    except LabGpuError as exc:
        needed = translate(QT_TRANSLATE_NOOP("LabGPU", "Only hosts reached through a VPN need it."))
        return [
            Check("openvpn", name, WARN, exc.text(), f"{exc.hint()} {needed}".strip()),
            Check(
                "openvpn_privileges",
                priv,
                WARN,
                translate(QT_TRANSLATE_NOOP("LabGPU", "not checked: OpenVPN is not installed")),
                "",
            ),
        ]
    found = Check("openvpn", name, OK, binary)
    try:
        plan = privilege_plan(binary, netns=os.environ.get("LABGPU_VPN_NETNS") or None)
    except LabGpuError as exc:
        return [found, Check("openvpn_privileges", priv, WARN, exc.text(), exc.hint())]
    how = {
        "root": QT_TRANSLATE_NOOP("LabGPU", "runs as root"),
        "capability": QT_TRANSLATE_NOOP("LabGPU", "the binary has cap_net_admin"),
        "pkexec": QT_TRANSLATE_NOOP("LabGPU", "started through pkexec (asks for your password)"),
        "netns": QT_TRANSLATE_NOOP("LabGPU", "started in the test network namespace"),
    }.get(plan.method, plan.method)
    return [found, Check("openvpn_privileges", priv, OK, translate(how))]


def check_nvidia_smi() -> Check:
    name = translate(QT_TRANSLATE_NOOP("LabGPU", "nvidia-smi (this computer)"))
    found = shutil.which("nvidia-smi")
    if found:
        return Check("nvidia_smi", name, OK, found)
    return Check(
        "nvidia_smi",
        name,
        OK,
        translate(QT_TRANSLATE_NOOP("LabGPU", "not found here; only GPU hosts need it")),
        translate(
            QT_TRANSLATE_NOOP("LabGPU", "On a GPU host, install the NVIDIA driver (it brings nvidia-smi).")
        ),
    )


def _writable(path: Path) -> bool:
    """Could LabGPU write ``path`` (a folder, or a file in it)? Creates nothing."""
    p = path
    while not p.exists():
        if p.parent == p:
            return False
        p = p.parent
    if p.is_dir():
        return os.access(p, os.W_OK | os.X_OK)
    return os.access(p, os.W_OK)


def _path_check(key: str, name: str, path: Path, folder: Path) -> Check:
    if not _writable(path if path.exists() else folder):
        return Check(
            key,
            name,
            FAIL,
            _t(QT_TRANSLATE_NOOP("LabGPU", "{path} (not writable)"), path=str(path)),
            _t(
                QT_TRANSLATE_NOOP("LabGPU", "Make {folder} writable for this user, or set LABGPU_HOME elsewhere."),
                folder=str(folder),
            ),
        )
    if not path.exists():
        return Check(key, name, OK, _t(QT_TRANSLATE_NOOP("LabGPU", "{path} (not created yet)"), path=str(path)))
    return Check(key, name, OK, str(path))


def check_settings(paths: Paths) -> Check:
    name = translate(QT_TRANSLATE_NOOP("LabGPU", "Settings file"))
    got = _path_check("settings", name, paths.settings_file, paths.config_dir)
    if got.status == OK and paths.settings_file.is_file():
        try:
            json.loads(paths.settings_file.read_text(encoding="utf-8"))
        except (OSError, ValueError, UnicodeDecodeError):
            return Check(
                "settings",
                name,
                WARN,
                _t(QT_TRANSLATE_NOOP("LabGPU", "{path} (cannot be read)"), path=str(paths.settings_file)),
                translate(
                    QT_TRANSLATE_NOOP(
                        "LabGPU", "LabGPU keeps a copy of it and starts with defaults; check Settings."
                    )
                ),
            )
    return got


def check_data(paths: Paths) -> Check:
    name = translate(QT_TRANSLATE_NOOP("LabGPU", "Data folder"))
    return _path_check("data", name, paths.data_dir, paths.data_dir)


def check_log(paths: Paths) -> Check:
    name = translate(QT_TRANSLATE_NOOP("LabGPU", "Log file"))
    return _path_check("log", name, paths.log_file, paths.log_dir)


def check_clock(paths: Paths) -> Check:
    """This computer's clock against the clouds': the offset the last cloud answers measured
    (their HTTP Date headers, kept in the database by any LabGPU process), read-only. More than a minute
    off: a warning with the offset and what to do (the clouds refuse requests signed 5 minutes off)."""
    from app.core.ledgerdb import SKEW_WARN_S, read_stored_skew, skew_text

    name = translate(QT_TRANSLATE_NOOP("LabGPU", "Clock"))
    skew = read_stored_skew(paths.database_file)
    if skew is None:
        return Check("clock", name, OK, translate(QT_TRANSLATE_NOOP(
            "LabGPU", "not compared yet: no cloud has answered LabGPU on this computer")))
    if abs(skew.offset_s) <= SKEW_WARN_S:
        detail = _t(QT_TRANSLATE_NOOP("LabGPU", "within {seconds} s of {cloud}'s clock"),
                    seconds=f"{abs(skew.offset_s):.0f}", cloud=_provider_name(skew.provider))
        return Check("clock", name, OK, detail)
    text, hint = skew_text(skew)
    return Check("clock", name, WARN, text, hint)


def _provider_name(provider_id: str) -> str:
    from app.core import providers

    return providers.display_name(provider_id)


def run_checks(paths: Paths | None = None) -> list[Check]:
    paths = paths or default_paths()
    return [
        check_display(),
        check_keyring(),
        check_ssh(),
        *check_openvpn(),
        check_nvidia_smi(),
        check_settings(paths),
        check_data(paths),
        check_log(paths),
        check_clock(paths),
    ]


def cmd_doctor(args: argparse.Namespace) -> int:
    checks = run_checks()
    failed = any(c.status == FAIL for c in checks)
    if args.json:
        print_json({"ok": not failed, "checks": [asdict(c) for c in checks]})
    else:
        status_text = {
            OK: translate(QT_TRANSLATE_NOOP("LabGPU", "ok")),
            WARN: translate(QT_TRANSLATE_NOOP("LabGPU", "warn")),
            FAIL: translate(QT_TRANSLATE_NOOP("LabGPU", "fail")),
        }
        headers = [
            translate(QT_TRANSLATE_NOOP("LabGPU", "CHECK")),
            translate(QT_TRANSLATE_NOOP("LabGPU", "STATUS")),
            translate(QT_TRANSLATE_NOOP("LabGPU", "DETAIL")),
            translate(QT_TRANSLATE_NOOP("LabGPU", "NEXT STEP")),
        ]
        print_table(headers, [(c.name, status_text[c.status], c.detail, c.next_step) for c in checks])
    return 1 if failed else 0
