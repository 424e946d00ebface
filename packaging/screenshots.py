"""The user guide's screenshots, made by the app's own ``--screenshot`` mode.

    python packaging/screenshots.py [--lang zh_CN en] [--pages offers advisor …] [--size 1280x800]

writes docs/images/<lang>/<page>.png for every page of the main window (app.ui.main_window.PAGES) in
both languages, and docs/images/<lang>/first-run-<step>.png for the three steps of the welcome. Each
shot runs ``python -m app --screenshot`` in a fresh process with a temporary, empty LABGPU_HOME (your
own accounts, hosts and settings never appear) and Qt's offscreen platform. Afterwards each PNG is
stored with a palette of its 256 most used colours (ordinary UI shots: a fraction of the size, no
visible loss). Only the standard library and the app (PySide6) are used.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "images"
LANGUAGES = ("en", "zh_CN")
FIRST_RUN_STEPS = (1, 2, 3)


def page_ids() -> list[str]:
    """Every page of the main window, in navigation order (read without building the window)."""
    sys.path.insert(0, str(ROOT))
    from app.ui.main_window import available_pages

    return [spec[0] for spec in available_pages()]


def shoot(target: Path, lang: str, size: str, home: Path, extra: list[str]) -> None:
    env = dict(os.environ, LABGPU_HOME=str(home), QT_QPA_PLATFORM="offscreen")
    env.pop("QT_QPA_PLATFORMTHEME", None)  # the same look on every machine
    cmd = [sys.executable, "-m", "app", "--screenshot", str(target), "--lang", lang, "--size", size, *extra]
    r = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
                       stdin=subprocess.DEVNULL)
    if r.returncode != 0 or not target.exists():
        raise SystemExit(f"screenshot failed: {' '.join(cmd)}\n{r.stderr}")


def shrink(path: Path) -> None:
    """Store the PNG with a palette of its 256 most used colours (exact when it has no more; antialiased
    text otherwise takes the nearest), when that is smaller."""
    from collections import Counter

    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImage

    _app = QGuiApplication.instance() or QGuiApplication(["screenshots", "-platform", "offscreen"])
    image = QImage(str(path)).convertToFormat(QImage.Format.Format_RGB32)
    if image.isNull():
        return
    pixels = memoryview(image.constBits()).cast("I")
    table = [colour | 0xFF000000 for colour, _n in Counter(pixels).most_common(256)]
    small = image.convertToFormat(QImage.Format.Format_Indexed8, table, Qt.ImageConversionFlag.ThresholdDither)
    tmp = path.with_suffix(".tmp.png")
    if small.save(str(tmp), "PNG", 0) and tmp.stat().st_size < path.stat().st_size:
        tmp.replace(path)
    else:
        tmp.unlink(missing_ok=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lang", nargs="+", default=list(LANGUAGES), choices=LANGUAGES)
    ap.add_argument("--pages", nargs="+", help="page ids (default: every page)")
    ap.add_argument("--size", default="1280x800", help="window size, WxH (default 1280x800)")
    ap.add_argument("--no-first-run", action="store_true", help="skip the welcome dialog's steps")
    args = ap.parse_args(argv)
    pages = args.pages or page_ids()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    written: list[Path] = []
    for lang in args.lang:
        folder = OUT / lang
        folder.mkdir(parents=True, exist_ok=True)
        jobs: list[tuple[Path, list[str]]] = [(folder / f"{p}.png", ["--page", p]) for p in pages]
        if not args.no_first_run:
            jobs += [(folder / f"first-run-{n}.png", ["--page", "offers", "--first-run", "--first-run-step", str(n)])
                     for n in FIRST_RUN_STEPS]
        for target, extra in jobs:
            with tempfile.TemporaryDirectory(prefix="labgpu-shot-") as home:
                shoot(target, lang, args.size, Path(home), extra)
            shrink(target)
            written.append(target)
            print(f"{target.relative_to(ROOT)}  {target.stat().st_size // 1024} KiB", flush=True)
    total = sum(p.stat().st_size for p in written)
    print(f"{len(written)} screenshots, {total // 1024} KiB in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
