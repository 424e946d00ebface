"""The atomic writer behind settings.json (and the audit log, price cache, autostart files):
an unpredictable temporary file next to the target, never a symlink followed."""

from __future__ import annotations

import json
import os

import pytest

from app.core.paths import atomic_write_text
from app.core.settings import Settings, SettingsStore

pytestmark = pytest.mark.skipif(os.name != "posix", reason="symlinks planted by another user: POSIX")


def test_symlink_planted_at_the_old_predictable_temp_name_is_not_written_through(tmp_path):
    store = SettingsStore()
    store.file.parent.mkdir(parents=True, exist_ok=True)
    victim = tmp_path / "victim.txt"  # e.g. ~/.bashrc of the student
    victim.write_text("precious\n")
    # the name the writer used to take: .settings.json.<pid>.tmp, next to the target
    planted = store.file.with_name(f".{store.file.name}.{os.getpid()}.tmp")
    planted.symlink_to(victim)
    s = Settings()
    s.language = "zh_CN"
    store.save(s)
    assert victim.read_text() == "precious\n"  # nothing written through the symlink
    assert planted.is_symlink()  # never opened, never replaced
    assert json.loads(store.file.read_text(encoding="utf-8"))["language"] == "zh_CN"
    assert not store.file.is_symlink()
    assert store.file.stat().st_mode & 0o777 == 0o600


def test_a_symlink_at_the_target_is_replaced_not_followed(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    target = tmp_path / "cfg" / "settings.json"
    target.parent.mkdir()
    target.symlink_to(victim)
    atomic_write_text(target, '{"a": 1}\n')
    assert victim.read_text() == "precious\n"
    assert not target.is_symlink() and target.read_text() == '{"a": 1}\n'


def test_temporary_names_are_unpredictable_and_none_is_left_behind(tmp_path, monkeypatch):
    target = tmp_path / "settings.json"
    seen: list[str] = []
    real_replace = os.replace

    def spy_replace(src, dst):  # records the temporary name the writer chose
        seen.append(os.path.basename(src))
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", spy_replace)
    atomic_write_text(target, "1")
    atomic_write_text(target, "2")
    assert len(set(seen)) == 2 and all(n.startswith(".settings.json.") for n in seen)
    assert f".settings.json.{os.getpid()}.tmp" not in seen
    with pytest.raises(UnicodeEncodeError):
        atomic_write_text(target, "bad \udcff surrogate")  # a failed write: no temporary file stays
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.json"]
    assert target.read_text() == "2"
