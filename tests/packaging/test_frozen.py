"""The frozen app as a student gets it: built once per source state (tests/packaging/frozen_build.py),
then run as a program — the CLI, every page rendered in both languages, the keyring backend against a
real Secret Service, a sync to the real sshd through paramiko, the GUI on a real X server with a tray,
the .deb unpacked into a throw-away root, the tarball's install.sh into a throw-away HOME.

A module the bundle lacks fails here (not on a laptop): the bundle must hold every module of app/, and
its `--help` must list every command the source tree's does. Commands and modules that other features
add (monitor, tray) are tested as soon as they exist in app/.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tarfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.fixtures.tencent_cvm_server import TEST_SECRET_ID, TEST_SECRET_KEY
from tests.packaging.frozen_build import ROOT, FrozenBuild, S, build, get_frozen_build

# The first test also waits for the cold build (a few minutes on 2 busy cores).
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1500)]

# The one-folder bundle may not grow past this without someone deciding so (QML or the GTK stack
# sneaking back in adds 100+ MB). Release numbers: docs/packaging.md. Decided 2026-12-06 (issue 28): the five
# clouds' SDKs (Google's compute_v1 types and the gRPC it imports, Azure's ARM clients, Huawei's IMS/KPS) take the
# folder from 241 to 284 MB. Then (issue 26) the modules ship as .pyc files instead of one zlib archive: ~285 ->
# 378 MB on disk, for a start ~20 ms sooner and installers 6-21 % smaller; 400 leaves room for a fix, not for
# another stack.
BUNDLE_BUDGET_MB = 400


@pytest.fixture(scope="session")
def frozen() -> FrozenBuild:
    fb = get_frozen_build()
    print(f"\nfrozen build: {'cached' if fb.cached else 'built'}; {fb.build_seconds:.0f} s when built; "
          f"bundle {build.tree_size(fb.bundle) / 1e6:.0f} MB", file=sys.stderr)
    return fb


def run(cmd: list[str], timeout: float = 120, **kw) -> subprocess.CompletedProcess:
    kw.setdefault("env", dict(os.environ))
    if "input" not in kw:
        kw.setdefault("stdin", subprocess.DEVNULL)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)


def ok(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    r = run(cmd, **kw)
    assert r.returncode == 0, (cmd, r.stdout[-2000:], r.stderr[-4000:])
    assert "Traceback" not in r.stderr, r.stderr
    return r


def source_cli(*args: str, **kw) -> subprocess.CompletedProcess:
    return run([sys.executable, "-m", "app", *args], cwd=ROOT, **kw)


def help_commands(text: str) -> set[str]:
    """Subcommand names in `labgpu --help` (argparse lists them indented under the COMMAND group)."""
    names, inside = set(), False
    for line in text.splitlines():
        if line.strip().startswith("COMMAND"):
            inside = True
            continue
        if inside:
            m = re.match(r"^ {4}([a-z][a-z0-9-]*)(\s|$)", line)
            if m:
                names.add(m.group(1))
            elif line and not line.startswith(" "):
                inside = False
    return names


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", data[16:24])


# --- the bundle itself ---------------------------------------------------------------------------

def test_version_is_the_apps(frozen):
    r = ok([str(frozen.exe), "--version"])
    assert r.stdout.strip() == f"LabGPU {frozen.version}"
    assert frozen.version == S.read_version()


def test_bundle_holds_every_module_of_app_and_the_runtime_imports(frozen):
    bundled = S.modules_in_bundle(frozen.bundle / "_internal")
    missing = [m for m in S.source_app_modules() + S.required_app_modules() if m not in bundled]
    assert not missing, f"not in the frozen app: {missing}"
    for name in ("keyring.backends.SecretService", "secretstorage", "jeepney", "paramiko", "boto3",
                 "botocore.client", "tencentcloud.common.common_client", "tencentcloud.cvm.v20170312.cvm_client",
                 "alibabacloud_ecs20140526.client", "alibabacloud_tea_openapi.client", "platformdirs.unix"):
        assert name in bundled, name


def test_bundle_is_trimmed(frozen):
    internal = frozen.bundle / "_internal"
    qt = internal / "PySide6" / "Qt"
    translations = sorted(p.name for p in (qt / "translations").glob("*.qm"))
    assert translations, "Qt's own zh_CN dialogs translations are gone"
    assert all(n.rsplit(".", 1)[0].endswith(("_zh_CN", "_en")) for n in translations), translations
    assert not list(qt.rglob("libqgtk3.so")), "the gtk3 platform theme drags GTK in"
    assert not list(internal.glob("libgtk-3*")), "GTK libraries still bundled"
    assert not list(qt.glob("lib/libQt6Qml*")) and not list(qt.glob("lib/libQt6Quick*"))
    services = sorted(p.name for p in (internal / "botocore" / "data").iterdir() if p.is_dir())
    assert services == S.aws_services()
    for top in ("endpoints.json", "partitions.json", "sdk-default-configuration.json", "_retry.json"):
        assert (internal / "botocore" / "data" / top).is_file(), top
    assert not list((internal / "botocore" / "data").rglob("examples-1.json"))
    assert (internal / "resources" / "catalog" / "offers.csv").is_file()
    assert list((internal / "resources" / "translations").glob("*_zh_CN.qm"))
    assert not list((internal / "resources" / "translations").glob("*.ts"))
    size_mb = build.tree_size(frozen.bundle) / 1e6
    assert size_mb <= BUNDLE_BUDGET_MB, f"bundle is {size_mb:.0f} MB"


def test_help_lists_every_command_the_source_tree_has(frozen):
    src = source_cli("--help")
    assert src.returncode == 0, src.stderr
    want = help_commands(src.stdout)
    assert {"offers", "sync", "hosts"} <= want, src.stdout
    if (ROOT / "app" / "cli" / "monitor.py").exists():
        assert "monitor" in want
    got = help_commands(ok([str(frozen.exe), "--help"]).stdout)
    assert got == want, f"frozen lacks {sorted(want - got)}; has extra {sorted(got - want)}"


def test_offers_json_matches_the_source(frozen):
    frozen_offers = json.loads(ok([str(frozen.exe), "offers", "--json"]).stdout)
    src = source_cli("offers", "--json")
    assert src.returncode == 0, src.stderr
    source_offers = json.loads(src.stdout)
    assert len(frozen_offers) == len(source_offers) >= 40
    key = ("provider", "instance_type", "region", "price_on_demand")
    assert [tuple(o[k] for k in key) for o in frozen_offers] == [tuple(o[k] for k in key) for o in source_offers]


def test_screenshot_of_every_page_in_both_languages(frozen, tmp_path):
    pages = [spec[0] for spec in S._literal(ROOT / "app" / "ui" / "main_window.py", "PAGES")
             if S.module_exists(spec[1])]
    assert len(pages) >= 8
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")

    def shot(page_lang: tuple[str, str]) -> tuple[str, str, Path, subprocess.CompletedProcess]:
        page, lang = page_lang
        out = tmp_path / f"{page}-{lang}.png"
        home = tmp_path / f"home-{page}-{lang}"
        r = run([str(frozen.exe), "--screenshot", str(out), "--page", page, "--lang", lang, "--size", "1024x640"],
                env=dict(env, LABGPU_HOME=str(home)))
        return page, lang, out, r

    jobs = [(p, lang) for p in pages for lang in ("en", "zh_CN")]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(shot, jobs))
    for page, lang, out, r in results:
        assert r.returncode == 0, (page, lang, r.stderr[-3000:])
        assert "Traceback" not in r.stderr, (page, lang, r.stderr)
        assert png_size(out) == (1024, 640), (page, lang)
        assert out.stat().st_size > 5000, (page, lang)
    # the Chinese rendering differs from the English one (translations and CJK fonts were found)
    differs = [p for p in pages
               if (tmp_path / f"{p}-en.png").read_bytes() != (tmp_path / f"{p}-zh_CN.png").read_bytes()]
    assert differs == pages


# --- real peers -----------------------------------------------------------------------------------

def test_tencent_account_in_the_real_secret_service(frozen, secret_service, tencent_server, labgpu_home):
    env = dict(os.environ, **secret_service)
    env.pop("PYTHON_KEYRING_BACKEND", None)
    ok([str(frozen.exe), "accounts", "add", "tencent", "lab", "--region", "ap-guangzhou",
        "--endpoint", tencent_server.endpoint], input=f"{TEST_SECRET_ID}\n{TEST_SECRET_KEY}\n", env=env)
    r = ok([str(frozen.exe), "accounts", "test", "lab"], env=env)
    assert "AKIDla" in r.stdout
    # The secret went to the Secret Service (the frozen keyring backend was found), not a file:
    # the source tree's CLI, using the same Secret Service, reads it back.
    r = source_cli("accounts", "test", "lab", env=env)
    assert r.returncode == 0, r.stderr
    for p in labgpu_home.rglob("*"):
        if p.is_file():
            assert TEST_SECRET_KEY.encode() not in p.read_bytes(), p


def test_sync_to_the_real_sshd(frozen, sshd, private_home, labgpu_home, tmp_path):
    exe = str(frozen.exe)
    ok([exe, "hosts", "add", "gpu1", f"ssh -p {sshd.port} -i {sshd.client_key} {sshd.user}@{sshd.host}",
        "--fingerprint", sshd.host_key_fingerprint])
    local = tmp_path / "proj"
    (local / "data").mkdir(parents=True)
    (local / "train.py").write_bytes(b"print('hi')\n")
    blob = os.urandom(3 * 1024 * 1024)  # several SSH windows: the lean packet path carries it
    (local / "data" / "big.bin").write_bytes(blob)
    remote = sshd.remote_dir("frozen-sync")
    s = json.loads(ok([exe, "sync", str(local), f"gpu1:{remote}", "--json"]).stdout)
    assert (s["files"], s["conflicts"]) == (2, 0)
    assert (remote / "data" / "big.bin").read_bytes() == blob
    back = tmp_path / "back"
    s = json.loads(ok([exe, "sync", str(back), f"gpu1:{remote}", "--down", "--verify", "--json"]).stdout)
    assert (s["files"], s["verified"]) == (2, 2)
    assert (back / "data" / "big.bin").read_bytes() == blob
    logs = "".join(p.read_text(errors="replace") for p in labgpu_home.rglob("*.log*") if p.is_file())
    assert "internals differ" not in logs, "the frozen paramiko lost the fast data path"


NVIDIA_SMI = r"""#!/bin/sh
# Scripted nvidia-smi: two A100s. Answers --query-gpu=<fields> (in the order asked) and
# --query-compute-apps=<fields> with --format=csv[,noheader][,nounits].
fields=""; apps=""; header=1
for a in "$@"; do
  case $a in
    --query-gpu=*) fields=${a#--query-gpu=} ;;
    --query-compute-apps=*) apps=${a#--query-compute-apps=} ;;
    --format=*) case $a in *noheader*) header=0 ;; esac ;;
  esac
done
uuid() { echo "GPU-$1$1$1$1$1$1$1$1-2222-3333-4444-555555555555"; }
if [ -n "$apps" ]; then
  [ $header = 1 ] && echo "$apps" | sed 's/,/, /g'
  line=""
  for f in $(echo "$apps" | tr ',' ' '); do
    case $f in
      gpu_uuid) v=$(uuid 0) ;; pid) v=4242 ;; process_name|name) v=python ;; used_memory) v=30000 ;;
      *) v="[N/A]" ;;
    esac
    line="${line:+$line, }$v"
  done
  echo "$line"
  exit 0
fi
[ -n "$fields" ] || { echo "NVIDIA-SMI 550.54.15  Driver Version: 550.54.15  CUDA Version: 12.4"; exit 0; }
[ $header = 1 ] && echo "$fields" | sed 's/,/, /g'
for i in 0 1; do
  line=""
  for f in $(echo "$fields" | tr ',' ' '); do
    case $f in
      index) v=$i ;;
      uuid|gpu_uuid) v=$(uuid $i) ;;
      name) v="NVIDIA A100-SXM4-80GB" ;;
      pci.bus_id) v="00000000:0$i:00.0" ;;
      utilization.gpu) v=$((40 + i * 10)) ;;
      memory.used) v=$((30000 + i * 1000)) ;;
      memory.total) v=81920 ;;
      temperature.gpu) v=$((50 + i)) ;;
      power.draw) v="250.50" ;;
      power.limit|enforced.power.limit) v="400.00" ;;
      mig.mode.current) v="Disabled" ;;
      *) v="[N/A]" ;;
    esac
    line="${line:+$line, }$v"
  done
  echo "$line"
done
"""


def test_monitor_once_json_like_the_source(frozen, extra_sshd, private_home, labgpu_home):
    """`labgpu monitor HOST --once --json` over SSH to a real sshd whose user has a scripted
    nvidia-smi: the frozen app prints what the source tree prints (once app/cli/monitor.py exists;
    before that the frozen app must not claim the command)."""
    has_monitor = (ROOT / "app" / "cli" / "monitor.py").exists()
    exe = str(frozen.exe)
    assert ("monitor" in help_commands(ok([exe, "--help"]).stdout)) == has_monitor
    if not has_monitor:
        return
    extra_sshd.install_executable("nvidia-smi", NVIDIA_SMI)
    ok([exe, "hosts", "add", "gpu1", f"ssh -p {extra_sshd.port} -i {extra_sshd.client_key} "
        f"{extra_sshd.user}@{extra_sshd.host}", "--fingerprint", extra_sshd.host_key_fingerprint])
    fro = ok([exe, "monitor", "gpu1", "--once", "--json"], timeout=90)
    src = source_cli("monitor", "gpu1", "--once", "--json", timeout=90)
    assert src.returncode == 0, src.stderr
    docs = [json.loads(r.stdout.strip().splitlines()[0]) for r in (fro, src)]
    for d in docs:
        d.pop("time", None)
    assert docs[0] == docs[1]
    assert docs[0].get("error") is None, docs[0]
    assert len(docs[0]["gpus"]) == 2, docs[0]


# --- the GUI on a real X server, with a system tray -----------------------------------------------

def _start_xvfb(tmp_path: Path) -> tuple[subprocess.Popen, str]:
    r, w = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                            pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(w)
    with os.fdopen(r) as fh:
        number = fh.readline().strip()  # Xvfb writes the display number once it accepts clients
    assert number.isdigit(), "Xvfb did not start"
    return xvfb, f":{number}"


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def _panel(display: str) -> str | None:
    """trayer's panel window (its system-tray box), once it is mapped."""
    r = run(["xwininfo", "-display", display, "-root", "-tree"], timeout=30)
    m = re.search(r"^\s*(0x[0-9a-f]+) \"panel\": \(\"panel\" \"trayer\"\)", r.stdout, re.M)
    return m.group(1) if m else None


def _embedded(display: str, panel: str) -> int:
    """Windows inside trayer's panel: an icon embedded by XEmbed adds one (or more)."""
    r = run(["xwininfo", "-display", display, "-tree", "-id", panel], timeout=30)
    return len(re.findall(r"^\s+0x[0-9a-f]+ ", r.stdout, re.M))


def _wait(what: str, check, timeout: float = 60):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout  # an upper bound for something that will happen
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def test_gui_starts_on_x11_with_a_tray(frozen, tmp_path):
    """The xcb platform plugin and its libraries are in the bundle (offscreen runs do not load them):
    the window comes up and finishes its first page on a real X server with trayer providing a tray.
    Once app/ui/tray.py exists, the frozen app's tray icon must be embedded in trayer's panel."""
    xvfb, display = _start_xvfb(tmp_path)
    procs: list[subprocess.Popen] = []
    try:
        trayer_log = tmp_path / "trayer.log"
        with open(trayer_log, "wb") as out:
            procs.append(subprocess.Popen(
                ["trayer", "--edge", "top", "--align", "right", "--widthtype", "pixel", "--width", "200",
                 "--height", "24"], env=dict(os.environ, DISPLAY=display),
                stdout=out, stderr=subprocess.STDOUT))

        def panel_or_why() -> str | None:
            found = _panel(display)
            if found is None and procs[0].poll() is not None:  # trayer is gone: say so now, with its words
                raise AssertionError(f"trayer exited ({procs[0].returncode}) before its panel showed: "
                                     f"{trayer_log.read_text(errors='replace')[-2000:]}")
            return found

        try:
            panel = _wait("trayer's panel", panel_or_why)
        except AssertionError as exc:
            tree = run(["xwininfo", "-display", display, "-root", "-tree"], timeout=30).stdout
            raise AssertionError(f"{exc}\ntrayer's output: {trayer_log.read_text(errors='replace')[-2000:]}\n"
                                 f"the X server's windows:\n{tree[-3000:]}") from None
        env = dict(os.environ, DISPLAY=display, QT_QPA_PLATFORM="xcb")
        r = ok([str(frozen.exe), "--lang", "zh_CN"], env=dict(env, LABGPU_STARTUP_PROBE="1"), timeout=120)
        assert "LABGPU_SHOWN" in r.stdout and "LABGPU_READY" in r.stdout, r.stdout
        if (ROOT / "app" / "ui" / "tray.py").exists():
            before = _embedded(display, panel)
            app = subprocess.Popen([str(frozen.exe), "--lang", "en"], env=env, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            procs.insert(0, app)
            _wait("the tray icon in trayer's panel",
                  lambda: _embedded(display, panel) > before or app.poll() is not None, timeout=90)
            assert app.poll() is None, app.communicate()[1][-3000:]
    finally:
        for p in procs:
            _stop(p)
        _stop(xvfb)


# --- the installers -------------------------------------------------------------------------------

def test_deb_unpacked_in_a_throwaway_root_runs(frozen, tmp_path):
    fields = ok(["dpkg-deb", "-f", str(frozen.deb), "Package", "Version", "Architecture", "Depends"]).stdout
    assert "Package: labgpu" in fields and f"Version: {frozen.version}" in fields
    assert "Architecture: amd64" in fields
    depends, _rec = build.deb_depends()
    assert "libxcb-cursor0" in depends and "libxkbcommon-x11-0" in depends
    for pkg in depends:
        assert pkg in fields, pkg
    control = tmp_path / "control"
    ok(["dpkg-deb", "-e", str(frozen.deb), str(control)])
    for script in ("postinst", "postrm"):
        assert os.access(control / script, os.X_OK), script
        ok(["sh", "-n", str(control / script)])
    root = tmp_path / "root"
    ok(["dpkg-deb", "-x", str(frozen.deb), str(root)])
    link = root / "usr" / "bin" / "labgpu"
    assert link.is_symlink() and os.readlink(link) == "/opt/labgpu/labgpu"
    desktop = (root / "usr" / "share" / "applications" / "labgpu.desktop").read_text()
    assert "Exec=labgpu" in desktop and "Icon=labgpu" in desktop
    for size in (16, 48, 256):
        assert png_size(root / f"usr/share/icons/hicolor/{size}x{size}/apps/labgpu.png") == (size, size)
    assert (root / "usr/share/icons/hicolor/scalable/apps/labgpu.svg").is_file()
    exe = root / "opt" / "labgpu" / "labgpu"
    assert ok([str(exe), "--version"]).stdout.strip() == f"LabGPU {frozen.version}"
    assert len(json.loads(ok([str(exe), "offers", "--json"]).stdout)) >= 40


def test_tarball_install_sh_per_user_then_uninstall(frozen, tmp_path):
    with tarfile.open(frozen.tarball) as tar:
        names = tar.getnames()
        top = build.tarball_name(frozen.version)
        assert f"{top}/install.sh" in names and f"{top}/LabGPU/labgpu" in names
        assert all(m.uid == 0 for m in tar.getmembers())
        tar.extractall(tmp_path / "x", filter="tar")
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env.update(HOME=str(home), PATH="/usr/bin:/bin")
    r = ok(["sh", str(tmp_path / "x" / top / "install.sh")], env=env)
    assert f"LabGPU {frozen.version}" in r.stdout
    assert "not on your PATH" in r.stdout
    launcher = home / ".local" / "bin" / "labgpu"
    appdir = home / ".local" / "opt" / "labgpu"
    assert launcher.is_symlink() and Path(os.readlink(launcher)) == appdir / "labgpu"
    shutil.rmtree(tmp_path / "x")  # runs without the unpacked tarball
    assert ok([str(launcher), "--version"], env=env).stdout.strip() == f"LabGPU {frozen.version}"
    assert len(json.loads(ok([str(launcher), "offers", "--json"], env=env).stdout)) >= 40
    desktop = (home / ".local/share/applications/labgpu.desktop").read_text()
    assert f'Exec="{appdir}/labgpu"' in desktop
    assert png_size(home / ".local/share/icons/hicolor/48x48/apps/labgpu.png") == (48, 48)
    # user data made by a run survives --uninstall, goes with --purge
    data = home / ".config" / "labgpu"
    data.mkdir(parents=True, exist_ok=True)
    (data / "keep.txt").write_text("mine")
    r = ok(["sh", str(appdir / "install.sh"), "--uninstall"], env=env)
    assert "kept" in r.stdout
    assert not appdir.exists() and not launcher.exists() and not launcher.is_symlink()
    assert not (home / ".local/share/applications/labgpu.desktop").exists()
    assert not list((home / ".local/share/icons").rglob("labgpu.*"))
    assert (data / "keep.txt").read_text() == "mine"
    with tarfile.open(frozen.tarball) as tar:
        tar.extract(f"{top}/install.sh", tmp_path / "y", filter="tar")
    ok(["sh", str(tmp_path / "y" / top / "install.sh"), "--uninstall", "--purge"], env=env)
    assert not data.exists()


def test_windows_installer_script_compiles_over_the_linux_bundle(frozen, tmp_path):
    """packaging/windows/labgpu.nsi compiled by makensis with warnings as errors: a broken script
    cannot ship. The payload is the Linux bundle (stored, not compressed: this checks the script)."""
    out = tmp_path / f"LabGPU-Setup-{frozen.version}.exe"
    icon = frozen.work / "pyinstaller" / "labgpu" / "icons" / "labgpu.ico"
    build.compile_nsis(frozen.bundle, out, frozen.version, icon=icon, fast=True)
    head = out.read_bytes()[:2]
    assert head == b"MZ"
    assert out.stat().st_size > build.tree_size(frozen.bundle) * 0.9  # the whole bundle is in it
