"""packaging/screenshots.py draws the guide's pages over its sample world, never over a temporary folder.

The script is run as a student's maintainer would run it (a real process: private mount namespace,
gnome-keyring, the local cloud peers), for the Sync and Settings pages in both languages at both sizes.
What the window showed is read back from the texts it wrote beside the PNGs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SIZES = ("1280x800", "1024x640")


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("shots")
    env = {k: v for k, v in os.environ.items() if k not in ("LABGPU_HOME", "DBUS_SESSION_BUS_ADDRESS")}
    r = subprocess.run([sys.executable, "packaging/screenshots.py", "--pages", "sync", "settings", "--no-guide",
                        "--no-first-run", "--all", str(out)], cwd=ROOT, env=env, capture_output=True, text=True,
                       timeout=900, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return out


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_each_page_is_drawn_at_both_sizes_over_the_sample_world(shots: Path, lang: str) -> None:
    for size in SIZES:
        for page in ("sync", "settings"):
            png = shots / lang / f"{page}-{size}.png"
            assert png.stat().st_size > 10_000, png
        texts = json.loads((shots / lang / f"texts-{size}.json").read_text(encoding="utf-8"))
        sync = texts["sync"]
        assert "lab-a100" in sync and "~/thesis/code" in sync, sync  # the pairs
        assert any(t in ("OK", "成功") for t in sync), sync  # the history's runs
        assert "/home/student/.config/labgpu" in texts["settings"], texts["settings"]


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_no_temporary_folder_appears_in_the_window(shots: Path, lang: str) -> None:
    temp = {tempfile.gettempdir(), "/tmp/", "pytest-", "labgpu-shots-", "labgpu-keyring-"}
    for size in SIZES:
        texts = json.loads((shots / lang / f"texts-{size}.json").read_text(encoding="utf-8"))
        for page, shown in texts.items():
            bad = [t for t in shown if any(mark in t for mark in temp)]
            assert bad == [], f"{lang} {size} {page}: {bad}"
