"""Build LabGPU's frozen app and this platform's installer (stdlib only, like bootstrap.py).

    python3 packaging/build.py                 # .venv with PyInstaller, dist/LabGPU/, then the installer(s)
    python3 packaging/build.py --bundle-only   # only dist/LabGPU/ (or dist/LabGPU.app on macOS)
    python3 packaging/build.py --nsis-check    # Linux: also compile the Windows installer script over
                                               # the Linux bundle (needs makensis, Debian package nsis)

Outputs in dist/:
  Linux    labgpu_<version>_amd64.deb, LabGPU-<version>-linux-x86_64.tar.gz (with install.sh)
  Windows  LabGPU-Setup-<version>.exe (NSIS; makensis on PATH or in Program Files)
  macOS    LabGPU.app, LabGPU-<version>-macos.dmg (hdiutil)
Signing and notarisation are manual steps: docs/packaging.md.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
import spec_support as S  # noqa: E402

SPEC = HERE / "labgpu.spec"
INSTALL_SH = HERE / "linux" / "install.sh"
NSIS_SCRIPT = HERE / "windows" / "labgpu.nsi"
DEB_ARCH = "amd64"
# Installed by the .deb: the app itself, a command on PATH, the menu entry and icons.
DEB_PREFIX = "opt/labgpu"
# Debian packages the bundled Qt needs from the system (its xcb platform plugin): bootstrap's list.
DEB_NOT_LIBS = ("python3-venv",)
# Renamed in Ubuntu 24.04's 64-bit time_t transition: either name satisfies the dependency.
DEB_ALTERNATIVES = {"libglib2.0-0": "libglib2.0-0t64 | libglib2.0-0"}


def log(msg: str) -> None:
    print(f"[labgpu build] {msg}", flush=True)


def _bootstrap():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("labgpu_bootstrap", HERE / "bootstrap.py")
    if spec is None or spec.loader is None:
        raise SystemExit("packaging/bootstrap.py is missing")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- the frozen bundle --------------------------------------------------------------------------

# `python -m PyInstaller` with the cyclic garbage collector off: its analysis holds a graph of every module the
# bundle ships (~8,500) and the collector kept walking it — 90.6 s of CPU for the build on the 2-core VM, 64.6 s
# without it (peak memory 0.66 GB); the bundle is the same.
_PYINSTALLER_WITHOUT_GC = ("import gc, runpy, sys; gc.disable(); sys.argv[0] = 'pyinstaller'; "
                           "runpy.run_module('PyInstaller', run_name='__main__', alter_sys=True)")


def run_pyinstaller(python: Path | str, dist: Path, work: Path, quiet: bool = True) -> Path:
    """dist/LabGPU/ (one folder; plus dist/LabGPU.app on macOS). Returns the one-folder bundle."""
    dist.mkdir(parents=True, exist_ok=True)
    cmd = [str(python), "-c", _PYINSTALLER_WITHOUT_GC, "--noconfirm", "--distpath", str(dist),
           "--workpath", str(work), "--log-level", "WARN" if quiet else "INFO", str(SPEC)]
    log("running -m PyInstaller " + " ".join(cmd[3:]))
    env = dict(os.environ, PYTHONHASHSEED="0", QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
    env.pop("LABGPU_HOME", None)
    subprocess.run(cmd, check=True, cwd=ROOT, env=env)
    bundle = dist / S.APP_NAME
    exe = bundle / ("LabGPU.exe" if sys.platform == "win32" else "labgpu")
    if not exe.is_file():
        raise SystemExit(f"PyInstaller finished but {exe} is missing")
    return bundle


def tree_size(path: Path) -> int:
    total = 0
    for p in path.rglob("*"):
        if p.is_file() and not p.is_symlink():
            total += p.stat().st_size
    return total


def _copy_tree(src: Path, dst: Path) -> None:
    """Hard links where the file system allows (the bundle is ~250 MB), copies otherwise."""
    def link_or_copy(s: str, d: str) -> str:
        try:
            os.link(s, d)
        except OSError:
            shutil.copy2(s, d)
        return d

    shutil.copytree(src, dst, symlinks=True, copy_function=link_or_copy)


# --- Linux: .deb --------------------------------------------------------------------------------

def deb_depends() -> tuple[list[str], list[str]]:
    """(Depends, Recommends) from bootstrap's APT_RUNTIME: libraries are required, fonts recommended."""
    runtime = _bootstrap().APT_RUNTIME
    depends = [DEB_ALTERNATIVES.get(p, p) for p in runtime if p.startswith("lib") and p not in DEB_NOT_LIBS]
    recommends = [p for p in runtime if p.startswith("fonts-")]
    return depends, recommends


def deb_control(version: str, installed_kib: int) -> str:
    depends, recommends = deb_depends()
    return "\n".join([
        "Package: labgpu",
        f"Version: {version}",
        f"Architecture: {DEB_ARCH}",
        "Maintainer: LabGPU developers <labgpu@users.noreply.github.com>",
        f"Installed-Size: {installed_kib}",
        "Depends: " + ", ".join(depends),
        "Recommends: " + ", ".join(recommends + ["gnome-keyring | kwalletmanager"]),
        "Suggests: openvpn, openssh-client",
        "Section: science",
        "Priority: optional",
        "Homepage: https://github.com/labgpu/labgpu",
        "Description: compare, rent, sync with and watch cloud GPUs",
        " LabGPU is a desktop app for graduate students and small labs who rent GPUs in the",
        " cloud: it compares GPU offers, keeps cloud credentials in the OS keyring, launches",
        " and stops instances and syncs data over SSH, in Chinese and English.",
        "",
    ])


_CACHE_UPDATE = """\
if command -v update-desktop-database >/dev/null 2>&1; then
    update-desktop-database -q /usr/share/applications || true
fi
if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -d /usr/share/icons/hicolor ]; then
    gtk-update-icon-cache -q -t -f /usr/share/icons/hicolor || true
fi
"""
DEB_POSTINST = "#!/bin/sh\nset -e\nif [ \"$1\" = configure ]; then\n" + _CACHE_UPDATE + "fi\nexit 0\n"
DEB_POSTRM = "#!/bin/sh\nset -e\nif [ \"$1\" = remove ] || [ \"$1\" = purge ]; then\n" + _CACHE_UPDATE + "fi\nexit 0\n"


def make_deb(bundle: Path, out_dir: Path, version: str, work: Path, level: int = 6, compressor: str = "xz") -> Path:
    """dist/labgpu_<version>_amd64.deb built with dpkg-deb: /opt/labgpu, /usr/bin/labgpu → it, the
    .desktop entry and hicolor icons under /usr/share, Depends on the Qt runtime libraries. ``compressor``
    "none" stores the files (the suite's check of the package; releases are xz)."""
    if not shutil.which("dpkg-deb"):
        raise SystemExit("dpkg-deb is missing (Debian/Ubuntu have it; package dpkg)")
    stage = work / "deb-root"
    shutil.rmtree(stage, ignore_errors=True)
    (stage / "opt").mkdir(parents=True)
    _copy_tree(bundle, stage / DEB_PREFIX)
    share_src = bundle / "_internal" / S.SHARE_DIR
    (stage / "usr" / "bin").mkdir(parents=True)
    os.symlink(f"/{DEB_PREFIX}/labgpu", stage / "usr" / "bin" / "labgpu")
    _copy_tree(share_src / "applications", stage / "usr" / "share" / "applications")
    _copy_tree(share_src / "icons", stage / "usr" / "share" / "icons")
    doc = stage / "usr" / "share" / "doc" / "labgpu"
    doc.mkdir(parents=True)
    (doc / "copyright").write_text(
        "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
        "Upstream-Name: LabGPU\n\nFiles: *\nCopyright: LabGPU contributors\nLicense: MIT\n"
        "Comment: the bundled Qt (LGPLv3), Python (PSF) and Python packages keep their own licences;\n"
        " see /opt/labgpu/_internal/*.dist-info where present.\n")
    control = stage / "DEBIAN"
    control.mkdir()
    kib = (tree_size(stage) + 1023) // 1024
    (control / "control").write_text(deb_control(version, kib))
    for name, text in (("postinst", DEB_POSTINST), ("postrm", DEB_POSTRM)):
        (control / name).write_text(text)
    _normalise_modes(stage)
    out_dir.mkdir(parents=True, exist_ok=True)
    out = out_dir / f"labgpu_{version}_{DEB_ARCH}.deb"
    out.unlink(missing_ok=True)
    squeeze = ["-Znone"] if compressor == "none" else [f"-Z{compressor}", f"-z{level}"]
    subprocess.run(["dpkg-deb", "--root-owner-group", *squeeze, "--build", str(stage), str(out)],
                   check=True, stdout=subprocess.DEVNULL)
    shutil.rmtree(stage, ignore_errors=True)
    return out


def _normalise_modes(root: Path) -> None:
    """0755 for folders, executables and maintainer scripts; 0644 for everything else."""
    for dirpath, _dirnames, filenames in os.walk(root):
        os.chmod(dirpath, 0o755)  # noqa: S103 - a package's folders
        for f in filenames:
            p = Path(dirpath) / f
            if p.is_symlink():
                continue
            executable = p.stat().st_mode & 0o100 or (p.parent.name == "DEBIAN" and f in ("postinst", "postrm"))
            os.chmod(p, 0o755 if executable else 0o644)


# --- Linux: tarball with install.sh -------------------------------------------------------------

def tarball_name(version: str) -> str:
    return f"LabGPU-{version}-linux-x86_64"


def make_tarball(bundle: Path, out_dir: Path, version: str, level: int = 9) -> Path:
    """dist/LabGPU-<version>-linux-x86_64.tar.gz: LabGPU-…/install.sh and LabGPU-…/LabGPU/ (the bundle)."""
    top = tarball_name(version)
    out_dir.mkdir(parents=True, exist_ok=True)
    out = out_dir / f"{top}.tar.gz"
    tmp = out.with_suffix(".tmp")

    def owner(info: tarfile.TarInfo) -> tarfile.TarInfo:
        info.uid = info.gid = 0
        info.uname = info.gname = "root"
        if info.isdir():
            info.mode = 0o755
        elif info.isfile():
            info.mode = 0o755 if info.mode & 0o100 else 0o644
        return info

    with tarfile.open(tmp, "w:gz", compresslevel=level) as tar:
        tar.add(INSTALL_SH, f"{top}/install.sh", filter=lambda i: owner(_exec(i)))
        tar.add(bundle, f"{top}/{S.APP_NAME}", filter=owner)
    tmp.replace(out)
    return out


def _exec(info: tarfile.TarInfo) -> tarfile.TarInfo:
    info.mode = 0o755
    return info


# --- Windows: NSIS ------------------------------------------------------------------------------

def nsis_version4(version: str) -> str:
    """VIProductVersion wants four numbers."""
    import re

    m = re.match(r"\d+(\.\d+)*", version)
    nums = [str(int(n)) for n in m.group(0).split(".")] if m else []
    return ".".join((nums + ["0", "0", "0", "0"])[:4])


def find_makensis() -> str | None:
    found = shutil.which("makensis")
    if found:
        return found
    for base in (os.environ.get("PROGRAMFILES(X86)"), os.environ.get("PROGRAMFILES")):
        if base and (Path(base) / "NSIS" / "makensis.exe").is_file():
            return str(Path(base) / "NSIS" / "makensis.exe")
    return None


def compile_nsis(bundle: Path, out: Path, version: str, icon: Path | None = None, fast: bool = False) -> Path:
    """LabGPU-Setup-<version>.exe from packaging/windows/labgpu.nsi over ``bundle``. Warnings are errors
    (-WX). ``fast`` stores without compression (the Linux check of the script, not a release)."""
    makensis = find_makensis()
    if not makensis:
        raise SystemExit("makensis is missing: install NSIS (Debian: apt-get install nsis; Windows: nsis.sf.net)")
    out.parent.mkdir(parents=True, exist_ok=True)
    sep = "\\" if sys.platform == "win32" else "/"
    defines = [f"-DVERSION={version}", f"-DVERSION4={nsis_version4(version)}",
               f"-DSRCDIR={str(bundle.resolve()).rstrip(sep)}", f"-DOUTFILE={out.resolve()}"]
    if icon is not None:
        defines.append(f"-DICON={icon.resolve()}")
    if fast:
        defines.append("-DFAST")
    flag = "/" if sys.platform == "win32" else "-"
    cmd = [makensis, f"{flag}V2", f"{flag}WX", *[flag + d[1:] for d in defines], str(NSIS_SCRIPT)]
    subprocess.run(cmd, check=True)
    if not out.is_file():
        raise SystemExit(f"makensis finished but {out} is missing")
    return out


# --- macOS: dmg ---------------------------------------------------------------------------------

def make_dmg(app_bundle: Path, out_dir: Path, version: str, work: Path) -> Path:
    stage = work / "dmg"
    shutil.rmtree(stage, ignore_errors=True)
    stage.mkdir(parents=True)
    shutil.copytree(app_bundle, stage / app_bundle.name, symlinks=True)
    os.symlink("/Applications", stage / "Applications")
    out = out_dir / f"LabGPU-{version}-macos.dmg"
    out.unlink(missing_ok=True)
    subprocess.run(["hdiutil", "create", "-volname", f"LabGPU {version}", "-srcfolder", str(stage), "-ov",
                    "-format", "UDZO", str(out)], check=True)
    return out


# --- driver -------------------------------------------------------------------------------------

def human(n: int) -> str:
    return f"{n / 1e6:.1f} MB"


def build_installers(bundle: Path, dist: Path, work: Path, version: str, nsis_check: bool = False) -> list[Path]:
    outputs: list[Path] = []
    if sys.platform.startswith("linux"):
        outputs.append(make_deb(bundle, dist, version, work))
        outputs.append(make_tarball(bundle, dist, version))
        if nsis_check:
            outputs.append(compile_nsis(bundle, work / f"LabGPU-Setup-{version}-linux-check.exe", version,
                                        icon=work / "pyinstaller" / "labgpu" / "icons" / "labgpu.ico", fast=True))
    elif sys.platform == "win32":
        icon = work / "pyinstaller" / "labgpu" / "icons" / "labgpu.ico"
        outputs.append(compile_nsis(bundle, dist / f"LabGPU-Setup-{version}.exe", version,
                                    icon=icon if icon.is_file() else None))
    elif sys.platform == "darwin":
        outputs.append(make_dmg(dist / f"{S.APP_NAME}.app", dist, version, work))
    else:
        log(f"no installer for {sys.platform}: the one-folder bundle is {bundle}")
    return outputs


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description="Build LabGPU's frozen app and installer for this machine.")
    ap.add_argument("--bundle-only", action="store_true", help="stop after dist/LabGPU/")
    ap.add_argument("--installers-only", action="store_true", help="reuse dist/LabGPU/, make the installers")
    ap.add_argument("--nsis-check", action="store_true", help="Linux: also compile the NSIS script")
    ap.add_argument("--dist", type=Path, default=ROOT / "dist")
    ap.add_argument("--work", type=Path, default=ROOT / "build")
    ap.add_argument("--python", type=Path, default=None,
                    help="a Python that already has LabGPU's packages and PyInstaller (default: .venv, set up here)")
    args = ap.parse_args(argv)
    version = S.read_version()
    if platform.machine().lower() not in ("x86_64", "amd64") and sys.platform.startswith("linux"):
        log(f"note: this machine is {platform.machine()}; the Linux package names still say x86_64/amd64")
    t0 = time.monotonic()
    bundle = args.dist / S.APP_NAME
    if sys.platform.startswith("linux"):
        # PyInstaller strips and inspects binaries with binutils; makensis comes from nsis.
        tools = {"binutils": "strip", "nsis": "makensis"} if args.nsis_check else {"binutils": "strip"}
        missing = [pkg for pkg, tool in tools.items() if not shutil.which(tool)]
        if missing and not _bootstrap().ensure_system_packages(missing, required=True):
            return 3
    if not args.installers_only:
        python = args.python or _bootstrap().ensure_venv("package")
        bundle = run_pyinstaller(python, args.dist, args.work / "pyinstaller")
        log(f"bundle {bundle}: {human(tree_size(bundle))} in {time.monotonic() - t0:.0f} s")
    if args.bundle_only:
        return 0
    for out in build_installers(bundle, args.dist, args.work, version, args.nsis_check):
        log(f"{out}: {human(out.stat().st_size)}")
    log(f"done in {time.monotonic() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
