"""The packaging rules without running PyInstaller: what ships, the icons' containers, the macOS
Info.plist, the .deb's control data, the per-user install script and bootstrap's venv stamp."""

from __future__ import annotations

import plistlib
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from tests.packaging.frozen_build import ROOT, S, build

sys.path.insert(0, str(ROOT / "packaging"))
import icons  # noqa: E402


def test_version_comes_from_app():
    import app

    assert S.read_version() == app.__version__


def test_every_command_and_page_module_is_known_and_exists():
    import app.cli
    from app.ui import main_window

    assert S.command_modules() == list(app.cli.COMMAND_MODULES)
    assert S.page_modules() == [p[1] for p in main_window.PAGES]
    required = S.required_app_modules()
    assert "app.cli.offers" in required and "app.ui.offers.page" in required
    assert set(required) <= set(S.source_app_modules())
    assert "app.core.resources" in S.source_app_modules()
    assert "app" in S.source_app_modules()


def test_every_provider_plugin_package_is_bundled(tmp_path):
    """Each app/cloud/<pkg>/ with a spec.py is a plugin the registry imports by a computed name: it and
    its modules must be hidden imports, and packaging finds the same set as the registry."""
    from app.cloud import registry

    plugins = sorted(p.parent for p in (ROOT / "app" / "cloud").glob("*/spec.py"))
    assert len(plugins) >= 2
    required = set(S.required_app_modules())
    for folder in plugins:
        package = f"app.cloud.{folder.name}"
        assert package in required
        for module in folder.glob("*.py"):
            if module.stem != "__init__":
                assert f"{package}.{module.stem}" in required
    assert S.plugin_packages() == list(registry.BUILTIN_PLUGINS)
    # a new plugin package is found without an edit anywhere; a package without a spec is not one
    for name, files in (("newcloud", ("__init__", "spec", "client")), ("util", ("__init__", "x"))):
        (tmp_path / "app" / "cloud" / name).mkdir(parents=True)
        for f in files:
            (tmp_path / "app" / "cloud" / name / f"{f}.py").write_text("")
    assert S.plugin_packages(tmp_path) == ["app.cloud.newcloud"]
    assert S.provider_plugins(tmp_path) == ["app.cloud.newcloud", "app.cloud.newcloud.client",
                                            "app.cloud.newcloud.spec"]


def test_aws_services_cover_every_boto3_client_in_app():
    services = S.aws_services()
    assert {"ec2", "sts", "pricing"} <= set(services)
    assert "cvm" not in services  # Tencent's client is not a boto3 one
    # a client for a new service anywhere in app/ is found (the data for it then ships)
    import re

    for path in (ROOT / "app").rglob("*.py"):
        if "boto3" not in path.read_text():
            continue
        for name in re.findall(r"""(?:\.client|_client)\([^)]*?["']([a-z0-9-]+)["']""", path.read_text()):
            assert name in services, (path, name)


def test_botocore_data_kept_only_for_called_services():
    latest = {"ec2": "2016-11-15", "sts": "2011-06-15"}
    keep = lambda d: S.keep_data(d, ["ec2", "sts"], latest)  # noqa: E731
    assert keep("botocore/data/endpoints.json")
    assert keep("botocore/data/partitions.json")
    assert keep("botocore/data/sdk-default-configuration.json")
    assert keep("botocore/data/ec2/2016-11-15/service-2.json.gz")
    assert keep("botocore/data/ec2/2016-11-15/paginators-1.json")
    assert not keep("botocore/data/ec2/2016-11-15/examples-1.json")
    assert not keep("botocore/data/ec2/2015-10-01/service-2.json.gz")  # older API versions
    assert not keep("botocore/data/s3/2006-03-01/service-2.json.gz")
    assert keep("boto3/data/ec2/2016-11-15/resources-1.json")
    assert not keep("boto3/data/s3/2006-03-01/resources-1.json")
    assert keep("botocore\\data\\sts\\2011-06-15\\service-2.json.gz")  # Windows separators


def test_latest_api_version_is_what_botocore_loads():
    import botocore
    import botocore.loaders

    data = Path(botocore.__file__).parent / "data"
    latest = S.latest_api_versions(data, ["ec2", "sts"])
    loader = botocore.loaders.create_loader()
    for service, version in latest.items():
        assert loader.determine_latest_version(service, "service-2") == version


def test_qt_translations_and_plugins_filter():
    assert S.keep_data("PySide6/Qt/translations/qtbase_zh_CN.qm")
    assert S.keep_data("PySide6/Qt/translations/qt_en.qm")
    assert not S.keep_data("PySide6/Qt/translations/qtbase_de.qm")
    assert not S.keep_data("PySide6/Qt/translations/qt_zh_TW.qm")
    assert not S.keep_data("resources/translations/offers_zh_CN.ts")
    assert S.keep_data("resources/translations/offers_zh_CN.qm")
    assert S.keep_data("resources/catalog/offers.csv")
    assert not S.keep_binary("PySide6/Qt/plugins/platformthemes/libqgtk3.so")
    assert S.keep_binary("PySide6/Qt/plugins/platformthemes/libqxdgdesktopportal.so")
    assert S.keep_binary("PySide6/Qt/plugins/platforms/libqxcb.so")
    assert S.keep_binary("PySide6/Qt/plugins/platforms/libqoffscreen.so")
    assert S.keep_binary("PySide6/Qt/plugins/imageformats/libqsvg.so")
    assert not S.keep_binary("PySide6/Qt/plugins/sqldrivers/libqsqlite.so")
    assert not S.keep_binary("PySide6/Qt/lib/libQt6Qml.so.6")
    assert not S.keep_binary("PySide6/Qt/lib/libQt6QuickControls2.so.6")
    assert not S.keep_binary("PySide6/Qt6Pdf.dll")
    for kept in ("libQt6Core.so.6", "libQt6Gui.so.6", "libQt6Widgets.so.6", "libQt6Svg.so.6", "libQt6DBus.so.6",
                 "libQt6XcbQpa.so.6", "libQt6WaylandClient.so.6", "libQt6OpenGL.so.6", "Qt6Core.dll"):
        assert S.keep_binary(f"PySide6/Qt/lib/{kept}"), kept


def test_unreachable_libraries_are_pruned_and_needed_ones_kept():
    needed = {
        "/x/libqxcb.so": ["libQt6XcbQpa.so.6", "libxcb-cursor.so.0"],
        "/x/libxcb-cursor.so.0": ["libxcb-render.so.0"],
        "/x/libxcb-render.so.0": [],
        "/x/libgtk-3.so.0": ["libcairo.so.2"],
        "/x/libcairo.so.2": [],
        "/x/_cffi_backend.cpython-311-x86_64-linux-gnu.so": ["libffi.so.8"],
        "/x/libffi.so.8": [],
        "/x/libpython3.11.so.1.0": [],
    }
    binaries = [
        ("PySide6/Qt/plugins/platforms/libqxcb.so", "/x/libqxcb.so", "BINARY"),
        ("libxcb-cursor.so.0", "/x/libxcb-cursor.so.0", "BINARY"),
        ("libxcb-render.so.0", "/x/libxcb-render.so.0", "BINARY"),
        ("libgtk-3.so.0", "/x/libgtk-3.so.0", "BINARY"),
        ("libcairo.so.2", "/x/libcairo.so.2", "BINARY"),
        ("_cffi_backend.cpython-311-x86_64-linux-gnu.so", "/x/_cffi_backend.cpython-311-x86_64-linux-gnu.so",
         "EXTENSION"),
        ("libffi.so.8", "/x/libffi.so.8", "BINARY"),
        ("libpython3.11.so.1.0", "/x/libpython3.11.so.1.0", "BINARY"),
    ]
    kept = {d for d, _s, _k in S.prune_unreachable_libraries(binaries, lambda p: needed[p])}
    assert kept == {"PySide6/Qt/plugins/platforms/libqxcb.so", "libxcb-cursor.so.0", "libxcb-render.so.0",
                    "_cffi_backend.cpython-311-x86_64-linux-gnu.so", "libffi.so.8", "libpython3.11.so.1.0"}


def test_hidden_imports_per_platform():
    linux = S.hidden_imports("linux")
    assert "keyring.backends.SecretService" in linux and "secretstorage" in linux
    assert "keyring.backends.Windows" in linux and "keyring.backends.macOS" in linux
    assert "win32ctypes.core" in S.hidden_imports("win32")
    assert "secretstorage" not in S.hidden_imports("darwin")
    assert {"app", "tencentcloud.cvm", "tencentcloud.common", "alibabacloud_ecs20140526", "darabonba"} <= set(
        S.COLLECT_PACKAGES
    )
    # pyqtgraph (the monitor's plots) imports both by a computed name: not excluded, always bundled
    for qt in ("PySide6.QtOpenGL", "PySide6.QtOpenGLWidgets"):
        assert qt in linux and qt not in S.QT_EXCLUDES
        assert S.keep_binary(f"PySide6/Qt/lib/lib{qt.split('.')[1].replace('Qt', 'Qt6', 1)}.so.6")


def test_info_plist_for_the_mac_app():
    raw = plistlib.dumps(S.info_plist("1.2.3"))
    plist = plistlib.loads(raw)
    assert plist["CFBundleIdentifier"] == "org.labgpu.LabGPU"
    assert plist["CFBundleShortVersionString"] == plist["CFBundleVersion"] == "1.2.3"
    assert plist["NSHighResolutionCapable"] is True
    assert plist["NSRequiresAquaSystemAppearance"] is False  # dark mode follows the system
    assert plist["LSApplicationCategoryType"].startswith("public.app-category.")
    assert plist["CFBundleExecutable"] == "labgpu"
    assert plist["CFBundleIconFile"] == "labgpu.icns"
    assert "zh_CN" in plist["CFBundleLocalizations"]
    spec = (ROOT / "packaging" / "labgpu.spec").read_text()
    assert "info_plist=S.info_plist(version)" in spec and "bundle_identifier=S.BUNDLE_ID" in spec


def _fake_png(size: int) -> bytes:
    return icons.PNG_MAGIC + struct.pack(">I", 13) + b"IHDR" + struct.pack(">II", size, size) + b"\x08\x06\0\0\0" + b"x"


def test_ico_and_icns_containers(tmp_path):
    pngs = {s: _fake_png(s) for s in (16, 32, 48, 64, 128, 256, 512)}
    icons.write_ico(pngs, tmp_path / "a.ico")
    ico = icons.read_ico((tmp_path / "a.ico").read_bytes())
    assert ico == {s: pngs[s] for s in (16, 32, 48, 64, 128, 256)}
    icons.write_icns(pngs, tmp_path / "a.icns")
    icns = icons.read_icns((tmp_path / "a.icns").read_bytes())
    assert icns["icp4"] == pngs[16] and icns["ic07"] == pngs[128] and icns["ic09"] == pngs[512]
    assert icns["ic14"] == pngs[512] and icns["ic11"] == pngs[32]
    with pytest.raises(ValueError):
        icons.write_ico({32: _fake_png(16)}, tmp_path / "b.ico")


def test_icons_rendered_from_the_svg(tmp_path, qapp):
    out = icons.generate(tmp_path)
    for s in S.ICON_SIZES:
        data = (out["png"] / f"labgpu-{s}.png").read_bytes()
        assert icons.png_size(data) == (s, s)
    from PySide6.QtGui import QImage

    img = QImage(str(out["png"] / "labgpu-64.png"))
    assert img.pixelColor(32, 32).alpha() > 0  # something was drawn
    assert img.hasAlphaChannel()
    ico = icons.read_ico(out["ico"].read_bytes())
    assert sorted(ico) == [16, 24, 32, 48, 64, 128, 256]
    assert icons.png_size(ico[256]) == (256, 256)
    icns = icons.read_icns(out["icns"].read_bytes())
    assert icons.png_size(icns["ic09"]) == (512, 512) and icons.png_size(icns["icp4"]) == (16, 16)


def test_deb_control_declares_qt_runtime_dependencies():
    text = build.deb_control("1.2.3", 12345)
    fields = dict(line.split(": ", 1) for line in text.splitlines() if line and not line.startswith(" "))
    assert fields["Package"] == "labgpu" and fields["Version"] == "1.2.3"
    assert fields["Architecture"] == "amd64" and fields["Installed-Size"] == "12345"
    depends = [d.strip() for d in fields["Depends"].split(",")]
    boot = build._bootstrap()
    assert [d.split(" | ")[-1] for d in depends] == [p for p in boot.APT_RUNTIME if p.startswith("lib")]
    assert "libglib2.0-0t64 | libglib2.0-0" in depends  # Ubuntu 24.04 renamed it
    assert "python3-venv" not in fields["Depends"]
    assert "fonts-noto-cjk" in fields["Recommends"]
    assert text.endswith("\n")
    for script in (build.DEB_POSTINST, build.DEB_POSTRM):
        r = subprocess.run(["sh", "-n"], input=script, text=True, capture_output=True)
        assert r.returncode == 0, r.stderr
        assert "update-desktop-database" in script and "gtk-update-icon-cache" in script


def test_install_sh_is_valid_and_refuses_bad_use(tmp_path):
    script = ROOT / "packaging" / "linux" / "install.sh"
    assert subprocess.run(["sh", "-n", str(script)]).returncode == 0
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    r = subprocess.run(["sh", str(script), "--purge"], env=env, capture_output=True, text=True)
    assert r.returncode != 0 and "--uninstall" in r.stderr
    r = subprocess.run(["sh", str(script)], env=env, capture_output=True, text=True)  # no bundle beside it
    assert r.returncode != 0 and "unpack the whole tarball" in r.stderr
    assert not (tmp_path / ".local" / "opt").exists()


def test_nsis_version_and_defines():
    assert build.nsis_version4("0.1.0") == "0.1.0.0"
    assert build.nsis_version4("1.2") == "1.2.0.0"
    assert build.nsis_version4("1.2.3.4.5") == "1.2.3.4"
    assert build.nsis_version4("2.0.0rc1") == "2.0.0.0"
    nsi = (ROOT / "packaging" / "windows" / "labgpu.nsi").read_text(encoding="utf-8")
    assert "RequestExecutionLevel user" in nsi
    assert 'InstallDir "$LOCALAPPDATA\\Programs\\${APP}"' in nsi
    assert "Software\\Microsoft\\Windows\\CurrentVersion\\Run" in nsi
    assert 'Section /o "un.$(UnSecData)"' in nsi  # the data is removed only when asked


def test_bootstrap_stamp_keeps_installed_extras(tmp_path, monkeypatch):
    boot = build._bootstrap()
    assert boot._stamp_extras("abc extras=package,test\n", "abc") == {"package", "test"}
    assert boot._stamp_extras("abc extras=\n", "abc") == set()
    assert boot._stamp_extras("other extras=test\n", "abc") is None
    assert boot._stamp_extras("0123deadbeef", "abc") is None  # the old stamp format: reinstall once
    assert {"binutils", "nsis"} <= set(boot.APT_TEST)


def test_each_plugins_sdk_is_collected_and_its_strings_have_a_catalog():
    """A provider plugin declares the SDK packages it imports lazily (spec.py FROZEN_PACKAGES): the
    frozen app collects each of them, and each is installed here; a plugin that no translation domain
    lists gets its own, so adding a provider touches neither packaging file."""
    import importlib.util

    import i18n  # packaging/ is on sys.path (see the imports above)

    for package in S.plugin_packages():
        name = package.rsplit(".", 1)[1]
        globs = {g for v in i18n.DOMAINS.values() for g in v}
        assert f"app/cloud/{name}/*.py" in globs, name
    declared = S.plugin_frozen_packages()
    assert {"tencentcloud.cvm", "alibabacloud_ecs20140526", "darabonba"} <= set(declared)
    for mod in declared:
        assert mod in S.COLLECT_PACKAGES
        assert importlib.util.find_spec(mod) is not None, f"{mod} is not installed"
    assert i18n.DOMAINS["alibaba"] == ["app/cloud/alibaba/*.py"]


def test_the_sdks_asyncio_twins_and_test_packages_stay_out_of_the_bundle():
    """LabGPU calls its SDKs synchronously: the Azure SDK's aio packages (as big as the sync ones) are not
    collected, nor a test package; the sync clients and models are."""
    assert not S.keep_module("azure.mgmt.network.aio")
    assert not S.keep_module("azure.mgmt.compute.aio.operations._operations")
    assert not S.keep_module("huaweicloudsdkcore.tests")
    for kept in ("azure.mgmt.network.operations", "azure.identity", "google.cloud.compute_v1.services.instances",
                 "huaweicloudsdkecs.v2.model", "app.cloud.azure.client", "aiohttp"):
        assert S.keep_module(kept), kept


def test_the_runtime_hooks_left_out_serve_nothing_labgpu_does():
    """The bundle leaves out PyInstaller's multiprocessing and inspect runtime hooks (start-up time): right only
    while no LabGPU module starts a multiprocessing child (a spawned child of a frozen app needs that hook)."""
    import ast

    assert not S.keep_script("pyi_rth_multiprocessing") and not S.keep_script("pyi_rth_inspect")
    for kept in ("pyi_rth_pkgutil", "pyi_rth_pyside6", "main"):  # plugin discovery, Qt's paths, the app
        assert S.keep_script(kept)
    users = []
    for path in sorted((ROOT / "app").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [f"{node.module}.{a.name}" for a in node.names] if isinstance(node, ast.ImportFrom) else []
            users += [(path.name, n) for n in names
                      if n.split(".")[0] == "multiprocessing" or n.endswith("ProcessPoolExecutor")]
    assert users == []


def test_modules_shipped_as_pyc_files_are_counted_as_bundled(tmp_path):
    """The bundle collects modules as .pyc files (noarchive): the spec's and the smoke test's check that every
    module of app/ ships reads them, packages by their __init__.pyc; other files are not modules."""
    assert S.module_of_pyc("app/cli/offers.pyc") == "app.cli.offers"
    assert S.module_of_pyc("app/__init__.pyc") == "app"
    assert S.module_of_pyc("paramiko/__pycache__/client.cpython-311.pyc") is None
    assert S.module_of_pyc("resources/catalog/offers.csv") is None
    pure = [("keyring", "/x/keyring/__init__.py", "PYMODULE")]
    datas = [("app/cloud/aws/spec.pyc", "/b/spec.pyc", "DATA"), ("resources/icons/labgpu.svg", "/s.svg", "DATA")]
    assert S.bundled_modules(pure, datas) == {"keyring", "app.cloud.aws.spec"}
    internal = tmp_path / "_internal"
    for rel in ("app/__init__.pyc", "app/ui/app.pyc", "PySide6/QtCore.abi3.so", "base_library.zip"):
        (internal / rel).parent.mkdir(parents=True, exist_ok=True)
        (internal / rel).write_bytes(b"")
    assert S.modules_in_bundle(internal) == {"app", "app.ui.app"}


def test_the_suite_runs_fewer_workers_where_memory_is_short():
    """~1 GB a worker: eight where 14 GB is free, then six, four, two; unknown memory (not Linux) keeps eight."""
    boot = build._bootstrap()
    gib = 1 << 30
    assert [boot.suite_workers(n * gib) for n in (24, 14, 13, 9, 8, 5, 4, 1)] == [8, 8, 6, 6, 4, 4, 2, 2]
    assert boot.suite_workers(None) == 8
    available = boot.available_memory()
    assert available is None or available > 0
