"""Translation workflow: collect strings with pyside6-lupdate, fill zh_CN, compile .qm.

Each feature owns one catalog, resources/translations/<domain>_zh_CN.ts, built from the files in
DOMAINS[domain]; the app loads every *_zh_CN.qm. Usage:

    python packaging/i18n.py update [DOMAIN…]      # re-scan sources into the .ts (keeps translations)
    python packaging/i18n.py fill DOMAIN FILE.json # {"English source": "中文", …} into the .ts
    python packaging/i18n.py missing [DOMAIN…]     # list strings without a translation (exit 1 if any)
    python packaging/i18n.py compile [DOMAIN…]     # .ts → .qm
"""

from __future__ import annotations

import glob
import json
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TS_DIR = ROOT / "resources" / "translations"
LANG = "zh_CN"

# domain → source globs (relative to the repository root). A file belongs to one domain only.
DOMAINS: dict[str, list[str]] = {
    "shell": ["app/ui/app.py", "app/cli/__init__.py", "app/cli/output.py", "app/cli/doctor.py", "app/ui/main_window.py",
              "app/ui/settings_page.py", "app/ui/errors.py", "app/ui/context.py", "app/ui/widgets.py",
              "app/ui/first_run.py",
              "app/core/errors.py", "app/core/settings.py", "app/core/secrets.py", "app/core/store.py",
              "app/core/display.py"],
    "offers": ["app/ui/offers/*.py", "app/cli/offers.py", "app/core/catalog.py", "app/core/offerprices.py",
               "app/core/offerquery.py", "app/core/currency.py"],
    "advisor": ["app/ui/advisor/*.py", "app/ui/shared/estimator.py", "app/core/advisor.py", "app/core/vram.py",
                "app/core/offerfacts.py", "app/core/costs.py", "app/core/providers.py",
                "app/core/catalog_providers.py"],
    "cloud": ["app/cloud/base.py", "app/cloud/resthttp.py", "app/cloud/aws/*.py", "app/cloud/registry.py",
              "app/cloud/launch.py",
              "app/cloud/actions.py", "app/cloud/launch_plan.py", "app/cloud/kit.py",
              "app/cloud/errors.py", "app/cloud/sshkeys.py", "app/cloud/netaddr.py", "app/cloud/public_prices.py",
              "app/cloud/pricing.py", "app/cloud/recovery.py", "app/core/launch_defaults.py",
              "app/usecases/accounts.py", "app/usecases/launch.py", "app/cli/guard_args.py",
              "app/cloud/spot_history.py", "app/core/launchwaits.py", "app/usecases/waitlaunch.py",
              "app/cli/waits.py",
              "app/cli/cloud.py", "app/cli/accountscmd.py", "app/cli/pricescmd.py",
              "app/core/accounts.py", "app/core/audit.py", "app/core/instances.py",
              "app/core/ledgerdb.py", "app/core/pendinglaunches.py", "app/core/monthreport.py",
              "app/core/live_prices.py", "app/core/backstops.py"],
    "cloudui": ["app/ui/cloud/*.py", "app/cloud/tencent/*.py", "app/ui/shared/recovery_ui.py"],
    "hosts": ["app/ui/remote/hosts*.py", "app/usecases/hosts.py", "app/cli/hosts.py", "app/remote/ssh/*.py",
              "app/remote/hostkeys.py", "app/remote/tunnels.py", "app/core/hosts.py", "app/core/sshcmd.py"],
    "sync": ["app/usecases/sync.py", "app/ui/remote/sync*.py", "app/remote/sync/*.py", "app/core/syncplan.py",
             "app/cli/sync.py", "app/core/localtree.py"],
    "storage": ["app/core/buckets.py", "app/cloud/storage/*.py", "app/core/objcrypt.py", "app/core/cryptkeys.py",
                "app/core/bucketsse.py", "app/core/storageprices.py", "app/core/bucketstate.py",
                "app/usecases/buckets.py", "app/usecases/bucketinstance.py", "app/remote/presigned.py",
                "app/cli/keys.py", "app/cli/buckets.py", "app/ui/remote/bucket*.py"],
    "vpn": ["app/ui/remote/vpn*.py", "app/cli/vpn.py", "app/remote/vpn/*.py", "app/core/vpnprofiles.py",
            "app/core/ovpn_parse.py"],
    "jobsui": ["app/ui/jobs/*.py"],
    "notify": ["app/notify/*.py", "app/cli/notify.py", "app/ui/notify/*.py"],
    "monitorui": ["app/ui/monitor/*.py", "app/ui/shared/guards_ui.py", "app/ui/tray.py", "app/ui/tray_events.py",
                  "app/core/autostart.py"],
    "monitor": ["app/core/gpumon.py", "app/core/gpuhistory.py", "app/core/guards.py", "app/watch/*.py",
                "app/remote/gpustream.py", "app/remote/spotwatch.py", "app/remote/watchdog.py", "app/cli/monitor.py",
                "app/cli/costcmd.py", "app/cli/guardcmd.py", "app/usecases/guards.py", "app/usecases/costs.py"],
    "jobs": ["app/core/jobs.py", "app/core/jobprogress.py", "app/core/tbevents.py", "app/remote/jobs.py",
             "app/remote/tbread.py", "app/usecases/jobs.py", "app/cli/jobs.py"],
    "recovery": ["app/core/recoverypolicy.py", "app/usecases/spotrecovery.py", "app/usecases/spotcheckpoint.py",
                 "app/cli/recovery.py", "app/core/runs.py"],
    # who touched the instance (issue 27): SSH logins read on the host, cloud API calls LabGPU did not make
    "logins": ["app/core/logins.py", "app/core/loginfailed.py", "app/core/loginrules.py",
               "app/core/loginstore.py", "app/remote/loginread.py",
               "app/usecases/logins.py", "app/cli/logins.py", "app/ui/remote/logins*.py"],
    "cloudaudit": ["app/core/cloudevents.py", "app/usecases/cloudaudit.py", "app/cli/auditcmd.py",
                   "app/cloud/eventkit.py"],
}

# A provider plugin package (app/cloud/<name>/ with a spec.py) that no domain above lists is a domain
# of its own, named after it: adding a provider needs no line here.
_LISTED = {g for globs in DOMAINS.values() for g in globs}
for _spec in sorted(ROOT.glob("app/cloud/*/spec.py")):
    _glob = f"app/cloud/{_spec.parent.name}/*.py"
    if _glob not in _LISTED:
        DOMAINS[_spec.parent.name] = [_glob]


def _tool(name: str) -> str:
    exe = shutil.which(name) or str(Path(sys.executable).with_name(name))
    return exe


def ts_path(domain: str) -> Path:
    return TS_DIR / f"{domain}_{LANG}.ts"


def sources(domain: str) -> list[str]:
    files: list[str] = []
    for pattern in DOMAINS[domain]:
        files.extend(sorted(glob.glob(str(ROOT / pattern))))
    return [f for f in files if not f.endswith("__init__.py") or Path(f).stat().st_size > 200]


def update(domain: str, ts: Path | None = None) -> Path:
    ts = ts or ts_path(domain)
    ts.parent.mkdir(parents=True, exist_ok=True)
    files = sources(domain)
    if not files:
        raise SystemExit(f"no sources for domain {domain}")
    subprocess.run([_tool("pyside6-lupdate"), "-silent", "-no-obsolete", "-locations", "none",
                    "-target-language", LANG, *files, "-ts", str(ts)], check=True)
    return ts


def _messages(ts: Path) -> list[ET.Element]:
    return list(ET.parse(ts).getroot().iter("message"))


def missing(domain: str) -> list[str]:
    out = []
    for m in _messages(ts_path(domain)):
        t = m.find("translation")
        src = m.findtext("source") or ""
        if t is None or t.get("type") in ("unfinished", "vanished", "obsolete") or not (t.text or "").strip():
            if t is not None and t.get("type") in ("vanished", "obsolete"):
                continue
            out.append(src)
    return out


def fill(domain: str, mapping: dict[str, str]) -> int:
    ts = ts_path(domain)
    tree = ET.parse(ts)
    n = 0
    for m in tree.getroot().iter("message"):
        src = m.findtext("source") or ""
        if src in mapping:
            t = m.find("translation")
            if t is None:
                t = ET.SubElement(m, "translation")
            t.text = mapping[src]
            t.attrib.pop("type", None)
            n += 1
    tree.write(ts, encoding="utf-8", xml_declaration=True)
    return n


def compile_(domain: str) -> Path:
    qm = ts_path(domain).with_suffix(".qm")
    subprocess.run([_tool("pyside6-lrelease"), "-silent", str(ts_path(domain)), "-qm", str(qm)], check=True)
    return qm


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    cmd, rest = argv[0], argv[1:]
    if cmd == "fill":
        domain, file = rest
        mapping = json.loads(Path(file).read_text(encoding="utf-8"))
        print(f"{fill(domain, mapping)} translations written to {ts_path(domain).name}")
        return 0
    domains = rest or list(DOMAINS)
    status = 0
    for d in domains:
        if cmd == "update":
            update(d)
        elif cmd == "compile":
            compile_(d)
        elif cmd == "missing":
            miss = missing(d)
            for s in miss:
                print(f"{d}: {s}")
            status |= bool(miss)
        else:
            print(__doc__)
            return 2
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
