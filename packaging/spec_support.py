"""What the PyInstaller spec bundles and drops, as plain functions (stdlib only).

The spec (packaging/labgpu.spec), packaging/build.py and tests/packaging/ all import this module, so
the rules that decide what a student's download contains are tested without running PyInstaller:

- which of LabGPU's own modules must be in the bundle (every submodule of ``app``; the command
  modules named in app/cli/__init__.py COMMAND_MODULES and the pages in app/ui/main_window.py PAGES
  are checked by name, read from the source with ``ast`` so nothing is hard-coded here);
- which AWS services botocore keeps data for (found by scanning app/ for boto3 client names);
- which Qt translations, plugins and libraries are dropped;
- the macOS Info.plist.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parents[1]
APP_NAME = "LabGPU"
APP_ID = "labgpu"
BUNDLE_ID = "org.labgpu.LabGPU"
# Interface languages: Qt's own translations other than these are dropped.
LANGUAGES = ("zh_CN", "en")
# Icon sizes written for every platform (hicolor PNGs, .ico, .icns are made from these).
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
# Inside the one-folder bundle (PyInstaller's contents directory): the .desktop entry and icons the
# Linux installers copy out, so the .deb, the tarball's install.sh and the bundle agree.
SHARE_DIR = "share"


def read_version(root: Path = ROOT) -> str:
    """app.__version__, read without importing the app."""
    tree = ast.parse((root / "app" / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__version__" for t in node.targets):
            value = ast.literal_eval(node.value)
            if isinstance(value, str) and re.fullmatch(r"\d+(\.\d+)*([.+-][0-9A-Za-z.+-]+)?", value):
                return value
    raise RuntimeError("app/__init__.py has no usable __version__")


def _literal(path: Path, name: str) -> object:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        target = None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
        elif isinstance(node, ast.AnnAssign):
            target = node.target
        if isinstance(target, ast.Name) and target.id == name and node.value is not None:
            return ast.literal_eval(node.value)
    raise RuntimeError(f"{path} has no literal {name}")


def command_modules(root: Path = ROOT) -> list[str]:
    """Every module in app/cli/__init__.py COMMAND_MODULES (whether or not it exists yet)."""
    value = _literal(root / "app" / "cli" / "__init__.py", "COMMAND_MODULES")
    return [str(m) for m in value]  # type: ignore[union-attr]


def page_modules(root: Path = ROOT) -> list[str]:
    """Every page module in app/ui/main_window.py PAGES."""
    value = _literal(root / "app" / "ui" / "main_window.py", "PAGES")
    return [str(spec[1]) for spec in value]  # type: ignore[union-attr]


def module_exists(name: str, root: Path = ROOT) -> bool:
    base = root.joinpath(*name.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def plugin_packages(root: Path = ROOT) -> list[str]:
    """The provider plugin packages, found by the rule app/cloud/registry.py discover_plugins uses:
    every package app/cloud/<name>/ with a spec.py module."""
    cloud = root / "app" / "cloud"
    return [f"app.cloud.{d.name}" for d in sorted(cloud.iterdir())
            if (d / "__init__.py").is_file() and (d / "spec.py").is_file()]


def provider_plugins(root: Path = ROOT) -> list[str]:
    """The provider plugin packages (registry.load_builtin imports them by a computed name) and their
    modules: PyInstaller cannot see an import by name, so they are hidden imports."""
    out = []
    for package in plugin_packages(root):
        out.append(package)
        folder = root.joinpath(*package.split("."))
        out += [f"{package}.{p.stem}" for p in sorted(folder.glob("*.py")) if p.stem != "__init__"]
    return out


def required_app_modules(root: Path = ROOT) -> list[str]:
    """Command and page modules and the provider plugins present in the source tree: the bundle must
    contain each of them."""
    names = dict.fromkeys(command_modules(root) + page_modules(root) + provider_plugins(root))
    return [n for n in names if module_exists(n, root)]


def source_app_modules(root: Path = ROOT) -> list[str]:
    """Every module of the ``app`` package in the source tree (what collect_submodules must find)."""
    out = []
    for path in sorted((root / "app").rglob("*.py")):
        rel = path.relative_to(root).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        if "__pycache__" in parts:
            continue
        out.append(".".join(parts))
    return out


def module_of_pyc(dest: str) -> str | None:
    """The module a bundled ``.pyc`` file is (``app/cli/offers.pyc`` -> ``app.cli.offers``, a package's
    ``__init__.pyc`` -> the package), or None for any other file. The bundle collects modules as files
    (``noarchive``: see docs/packaging.md), so a module is in the bundle when its .pyc is."""
    p = _norm(dest)
    if p.suffix != ".pyc" or "__pycache__" in p.parts:
        return None
    parts = list(p.with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts) or None


def bundled_modules(pure: Iterable[tuple[str, str, str]], datas: Iterable[tuple[str, str, str]]) -> set[str]:
    """Module names an Analysis ships: those in its archive (``a.pure``) and those collected as .pyc files."""
    names = {name for name, _path, _kind in pure}
    names.update(m for m in (module_of_pyc(dest) for dest, _src, _kind in datas) if m)
    return names


def modules_in_bundle(internal: Path) -> set[str]:
    """Module names a built bundle's ``_internal`` folder holds as .pyc files (what a frozen import finds)."""
    return {m for m in (module_of_pyc(str(p.relative_to(internal))) for p in internal.rglob("*.pyc")) if m}


# --- AWS: botocore data for the services LabGPU calls --------------------------------------------

_CLIENT_PATTERNS = (
    re.compile(r"""\.client\(\s*["']([a-z0-9-]+)["']"""),                       # session.client("ec2")
    re.compile(r"""_client\([^()"']*?["']([a-z0-9-]+)["']"""),                    # self._client(a, c, "sts")
    re.compile(r"""\bservice:\s*str\s*=\s*["']([a-z0-9-]+)["']"""),              # def _client(..., service="ec2")
)


def aws_services(root: Path = ROOT) -> list[str]:
    """AWS service names LabGPU creates boto3 clients for, found in app/ (always at least ec2, sts)."""
    found = {"ec2", "sts"}
    for path in (root / "app").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if "boto3" not in text and "botocore" not in text:  # other SDKs have their own _client()s
            continue
        for pattern in _CLIENT_PATTERNS:
            found.update(pattern.findall(text))
    return sorted(found)


def _norm(dest: str) -> PurePosixPath:
    return PurePosixPath(dest.replace("\\", "/"))


def keep_botocore_data(dest: str, services: Iterable[str], latest: dict[str, str] | None = None) -> bool:
    """Keep botocore's top-level data (endpoints, partitions, retry, default configuration) and the
    newest API version of each service LabGPU calls; never examples. ``latest`` maps a service to the
    API version to keep (None keeps every version of it)."""
    p = _norm(dest)
    parts = p.parts
    if len(parts) < 3 or parts[0] not in ("botocore", "boto3") or parts[1] != "data":
        return True
    if p.name.startswith("examples-"):
        return False
    if len(parts) == 3:  # botocore/data/endpoints.json …
        return True
    service = parts[2]
    if service not in set(services):
        return False
    if latest and service in latest and len(parts) >= 5 and parts[0] == "botocore":
        return parts[3] == latest[service]
    return True


def latest_api_versions(botocore_data: Path, services: Iterable[str]) -> dict[str, str]:
    """The API version botocore loads for each service (it picks the newest folder)."""
    out = {}
    for s in services:
        versions = sorted(d.name for d in (botocore_data / s).iterdir() if d.is_dir()) \
            if (botocore_data / s).is_dir() else []
        if versions:
            out[s] = versions[-1]
    return out


# --- Qt: translations, plugins, libraries --------------------------------------------------------

# Qt modules LabGPU (and pyqtgraph as LabGPU uses it) never imports. Excluded from the analysis.
QT_EXCLUDES = [
    "PySide6.QtQml", "PySide6.QtQuick", "PySide6.QtQuickWidgets", "PySide6.QtQuickControls2",
    "PySide6.QtQuickTest", "PySide6.QtNetwork", "PySide6.QtPdf", "PySide6.QtPdfWidgets",
    "PySide6.QtSql", "PySide6.QtTest",
    "PySide6.QtDesigner", "PySide6.QtHelp", "PySide6.QtUiTools", "PySide6.QtXml", "PySide6.QtConcurrent",
    "PySide6.QtDBus", "PySide6.QtPrintSupport", "PySide6.QtSvgWidgets", "PySide6.QtWebEngineCore",
    "PySide6.QtWebEngineWidgets", "PySide6.Qt3DCore", "PySide6.QtMultimedia", "PySide6.QtCharts",
    "PySide6.QtDataVisualization", "PySide6.QtGraphs", "PySide6.QtBluetooth", "PySide6.QtPositioning",
    "PySide6.QtSerialPort", "PySide6.QtWebSockets", "PySide6.QtStateMachine", "PySide6.QtScxml",
    "PySide6.QtTextToSpeech", "PySide6.QtNfc", "PySide6.QtRemoteObjects", "PySide6.QtSensors",
    "PySide6.QtHttpServer", "PySide6.QtLocation", "PySide6.QtSpatialAudio", "PySide6.QtAxContainer",
]
# Python packages that are in a developer's venv (tests, tools, optional backends) but not LabGPU.
PY_EXCLUDES = [
    "tkinter", "_tkinter", "moto", "pytest", "_pytest", "pytestqt", "hypothesis", "mypy", "ruff",
    "IPython", "matplotlib", "scipy", "pandas", "PyQt5", "PyQt6", "PySide2", "pyqtgraph.opengl",
    "pyqtgraph.examples", "pyqtgraph.jupyter", "OpenGL", "cupy", "h5py", "numba", "colorcet",
    "flask", "werkzeug", "docker", "sphinx", "setuptools", "pkg_resources", "pip",
    "numpy.f2py", "numpy.distutils",  # build tools; numpy imports neither at run time
    # installed for the dev tools (import-linter's output, pytest's): at run time only optional imports reach
    # them (tqdm.rich, pydantic's debug printer), which LabGPU never makes; ~500 modules of the bundle
    "rich", "pygments", "markdown_it",
]

# Qt plugin folders and files a widgets app on a desktop never loads. The gtk3 platform theme drags
# the whole GTK stack into the bundle; Qt's own Fusion style is used without it.
_QT_PLUGIN_DROP_DIRS = {
    "designer", "qmllint", "qmltooling", "sqldrivers", "tls", "networkinformation", "printsupport",
    "vectorimageformats", "wayland-graphics-integration-server", "egldeviceintegrations", "generic",
    "scenegraph", "position", "multimedia", "renderers", "geometryloaders", "sceneparsers",
}
_QT_PLUGIN_DROP_FILES = {
    "libqgtk3.so", "libqeglfs.so", "libqlinuxfb.so", "libqminimalegl.so", "libqvnc.so",
    "libqvkkhrdisplay.so", "libqpdf.so", "qpdf.dll", "libqtvirtualkeyboardplugin.so",
    "qtvirtualkeyboardplugin.dll", "libqlottievectorimage.so",
}
_QT_LIB_DROP = re.compile(
    r"(^|/)(lib)?Qt6(Qml|Quick|Pdf|Network|Sql|Designer|Help|UiTools|Test|Lottie|Labs|Wayland(Compositor|Egl)|"
    r"WlShell|EglFS|EglFs|Concurrent|Xml|PrintSupport|SvgWidgets|VirtualKeyboard)[A-Za-z0-9]*"
    r"(\.so(\.\d+)*|\.dll|\.dylib)?$"
)


def keep_qt_translation(name: str) -> bool:
    """qt_zh_CN.qm, qtbase_en.qm … stay; every other language goes (≈ 7 MB)."""
    stem = name.rsplit(".", 1)[0]
    return any(stem.endswith("_" + lang) for lang in LANGUAGES)


def keep_data(dest: str, services: Iterable[str] = ("ec2", "sts"),
              latest: dict[str, str] | None = None) -> bool:
    """Whether a datas entry (its destination path inside the bundle) ships."""
    p = _norm(dest)
    parts = p.parts
    if "translations" in parts and parts[:1] == ("PySide6",):
        return keep_qt_translation(p.name)
    if parts[:1] == ("resources",) and p.suffix == ".ts":  # translation sources; the .qm files ship
        return False
    if p.name in ("py.typed",) or p.suffix in (".pyi",):
        return False
    return keep_botocore_data(dest, services, latest)


def keep_binary(dest: str) -> bool:
    """Whether a binaries entry ships (Qt plugins and libraries of modules LabGPU does not use go)."""
    p = _norm(dest)
    parts = p.parts
    if "plugins" in parts and parts[:1] == ("PySide6",):
        i = parts.index("plugins")
        if len(parts) > i + 1 and parts[i + 1] in _QT_PLUGIN_DROP_DIRS:
            return False
        return p.name not in _QT_PLUGIN_DROP_FILES
    return not _QT_LIB_DROP.search(p.name)


def _is_plain_library(dest: str) -> bool:
    """A shared library PyInstaller copied next to the others (lib*.so*), not a Python extension."""
    p = _norm(dest)
    return len(p.parts) == 1 and p.name.startswith("lib") and ".so" in p.name \
        and not p.name.startswith("libpython") and ".cpython-" not in p.name and ".abi3." not in p.name


def prune_unreachable_libraries(binaries: list[tuple[str, str, str]],
                                imports_of: Callable[[str], Iterable[str]]) -> list[tuple[str, str, str]]:
    """Linux: drop the top-level libraries no kept binary needs any more (the GTK stack the gtk3
    platform theme pulled in, once that plugin is dropped). ``imports_of(path)`` lists a binary's
    DT_NEEDED names (PyInstaller's bindepend.get_imports in the spec)."""
    by_name = {_norm(dest).name: (dest, src) for dest, src, _kind in binaries if _is_plain_library(dest)}
    stack: list[str] = []
    for dest, src, _kind in binaries:
        if not _is_plain_library(dest):
            stack.extend(_basenames(imports_of(src)))
    seen: set[str] = set()
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen.add(name)
        if name in by_name:
            stack.extend(_basenames(imports_of(by_name[name][1])))
    return [e for e in binaries if not _is_plain_library(e[0]) or _norm(e[0]).name in seen]


def _basenames(names: Iterable[object]) -> list[str]:
    out = []
    for n in names:
        text = n if isinstance(n, str) else str(n[0])  # type: ignore[index]
        out.append(PurePosixPath(text.replace("\\", "/")).name)
    return out


# --- hidden imports -----------------------------------------------------------------------------

# Imported by name at run time (entry points, lazy imports inside functions, per-OS backends).
STATIC_HIDDEN_IMPORTS = [
    "keyring.backends.SecretService", "keyring.backends.Windows", "keyring.backends.macOS",
    "keyring.backends.chainer", "keyring.backends.fail", "keyring.backends.null",
    "keyring.backends.libsecret", "keyring.backends.kwallet",
    "platformdirs.unix", "platformdirs.windows", "platformdirs.macos",
    "boto3", "botocore", "paramiko", "bcrypt", "nacl", "cryptography",
    "PySide6.QtSvg",  # the window icon and the icon engine render labgpu.svg
    # pyqtgraph's curves import these by computed name (pyqtgraph/Qt/OpenGLHelpers.py), even unused:
    "PySide6.QtOpenGL", "PySide6.QtOpenGLWidgets",
]
# The keyring backend each OS uses needs its own third-party package.
PLATFORM_HIDDEN_IMPORTS = {
    "linux": ["secretstorage", "jeepney", "jeepney.io.blocking"],
    "win32": ["win32ctypes.core", "win32ctypes.pywin32.win32cred"],
    "darwin": [],
}


def hidden_imports(platform: str) -> list[str]:
    key = "linux" if platform.startswith("linux") else platform
    return STATIC_HIDDEN_IMPORTS + PLATFORM_HIDDEN_IMPORTS.get(key, [])


# Whole packages whose submodules are imported lazily: LabGPU itself, the cloud SDKs.
def plugin_frozen_packages(root: Path = ROOT) -> list[str]:
    """What each provider plugin's spec.py lists in FROZEN_PACKAGES: its SDK's packages, imported
    lazily by the plugin, so PyInstaller's analysis cannot see them (read as a literal, not imported)."""
    out: list[str] = []
    for package in plugin_packages(root):
        spec_py = root.joinpath(*package.split(".")) / "spec.py"
        try:
            value = _literal(spec_py, "FROZEN_PACKAGES")
        except RuntimeError:
            continue
        out += [str(v) for v in value]  # type: ignore[attr-defined]
    return out


COLLECT_PACKAGES = ["app", *plugin_frozen_packages()]


def keep_module(name: str) -> bool:
    """Whether collect_submodules keeps ``name`` (a filter: a package refused is not walked into). LabGPU calls
    its SDKs synchronously: their asyncio twins (the Azure SDK's ``aio`` packages, as big as the sync ones) and
    any test package stay out."""
    parts = name.split(".")
    return "aio" not in parts and "tests" not in parts


# --- macOS --------------------------------------------------------------------------------------

# PyInstaller runtime hooks the bundle leaves out. Each ran at every start before main.py — together ~14 ms of
# a ~155 ms frozen start (tests/benchmarks/bench_startup.py --frozen) — for a use LabGPU does not have:
# - pyi_rth_multiprocessing lets multiprocessing's spawned children run in a frozen app: LabGPU starts no
#   multiprocessing child (its own processes are `labgpu COMMAND` through subprocess; a test reads app/);
# - pyi_rth_inspect lets inspect.getsourcefile() name a frozen module's file: the bundle ships no source, so
#   inspect.getsource() fails either way, and PySide's import hook is answered by app/ui/__init__.py.
DROPPED_RUNTIME_HOOKS = ("pyi_rth_inspect", "pyi_rth_multiprocessing")


def keep_script(name: str) -> bool:
    """Whether an entry of Analysis.scripts (a runtime hook or the entry script) goes into the bundle."""
    return name not in DROPPED_RUNTIME_HOOKS


def info_plist(version: str) -> dict[str, object]:
    """The LabGPU.app Info.plist entries (PyInstaller's BUNDLE merges them into its own)."""
    return {
        "CFBundleName": APP_NAME,
        "CFBundleDisplayName": APP_NAME,
        "CFBundleIdentifier": BUNDLE_ID,
        "CFBundleExecutable": APP_ID,
        "CFBundlePackageType": "APPL",
        "CFBundleShortVersionString": version,
        "CFBundleVersion": version,
        "CFBundleIconFile": "labgpu.icns",
        "CFBundleDevelopmentRegion": "en",
        "CFBundleLocalizations": ["en", "zh_CN"],
        "LSApplicationCategoryType": "public.app-category.developer-tools",
        "LSMinimumSystemVersion": "11.0",
        "NSHighResolutionCapable": True,
        "NSRequiresAquaSystemAppearance": False,  # follow the system's dark mode
        "NSSupportsAutomaticGraphicsSwitching": True,
        "NSHumanReadableCopyright": "LabGPU contributors, MIT licence",
    }
