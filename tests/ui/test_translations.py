"""Every visible string has a Chinese translation, and the shipped .qm files are current."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("labgpu_i18n", ROOT / "packaging" / "i18n.py")
i18n = importlib.util.module_from_spec(spec)
spec.loader.exec_module(i18n)  # type: ignore[union-attr]

DOMAINS = [d for d in i18n.DOMAINS if i18n.sources(d)]


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_string_in_the_sources_is_translated(domain, tmp_path):
    shipped = i18n.ts_path(domain)
    assert shipped.exists(), f"{shipped.name} missing: run packaging/i18n.py update {domain}"
    fresh = tmp_path / shipped.name
    fresh.write_bytes(shipped.read_bytes())
    i18n.update(domain, fresh)
    untranslated = []
    for m in ET.parse(fresh).getroot().iter("message"):
        t = m.find("translation")
        kind = t.get("type") if t is not None else "unfinished"
        if kind in ("vanished", "obsolete"):
            continue
        if t is None or kind == "unfinished" or not (t.text or "").strip():
            untranslated.append(m.findtext("source"))
    assert untranslated == [], f"{domain}: untranslated strings (fill packaging/i18n.py {domain})"


@pytest.mark.parametrize("domain", DOMAINS)
def test_compiled_catalog_is_current(domain, tmp_path):
    shipped_qm = i18n.ts_path(domain).with_suffix(".qm")
    assert shipped_qm.exists(), f"run packaging/i18n.py compile {domain}"
    fresh_qm = tmp_path / shipped_qm.name
    subprocess.run([i18n._tool("pyside6-lrelease"), "-silent", str(i18n.ts_path(domain)), "-qm", str(fresh_qm)],
                   check=True)
    assert fresh_qm.read_bytes() == shipped_qm.read_bytes(), f"stale {shipped_qm.name}: run compile {domain}"


def test_placeholders_survive_translation():
    """A translation that drops or renames {name} would crash .format() or show wrong numbers."""
    import re

    bad = []
    for domain in DOMAINS:
        for m in ET.parse(i18n.ts_path(domain)).getroot().iter("message"):
            src, tr = m.findtext("source") or "", m.findtext("translation") or ""
            field = r"\{[a-z_0-9]*(?:![rsa])?(?::[^{}]*)?\}"  # {name}, {name!r}, {amount:.2f}
            if tr and sorted(re.findall(field, src)) != sorted(re.findall(field, tr)):
                bad.append((domain, src, tr))
            if tr and sorted(re.findall(r"%\d", src)) != sorted(re.findall(r"%\d", tr)):
                bad.append((domain, src, tr))
    assert bad == []


def test_sources_are_complete_list_of_ui_files():
    """Each module with user-visible text (the UI's tr()/translate(), and the templates the CLI and the
    lower layers mark with QT_TRANSLATE_NOOP) belongs to a translation domain, so none is forgotten
    by lupdate and no message reaches a Chinese user in English."""
    covered = {Path(f).resolve() for d in i18n.DOMAINS for f in i18n.sources(d)}
    marked = re.compile(r"\.tr\(|translate\(\"|QT_TRANSLATE_NOOP\(\"")
    files = [p for p in (ROOT / "app").rglob("*.py") if p.name != "__init__.py"
             and marked.search(p.read_text(encoding="utf-8"))]
    assert [str(p.relative_to(ROOT)) for p in files if p.resolve() not in covered] == []


def test_placeholder_check_catches_a_dropped_or_renamed_field():
    """The check above is not vacuous: the same comparison flags these."""
    field = r"\{[a-z_0-9]*(?:![rsa])?(?::[^{}]*)?\}"
    pairs = [("A host named {name!r} already exists.", "主机名已存在。"),
             ("{amount:.2f} spent", "已花费 {amount}"),
             ("%1 was not added: %2", "未添加 %1")]
    for src, tr in pairs:
        same_fields = sorted(re.findall(field, src)) == sorted(re.findall(field, tr))
        same_args = sorted(re.findall(r"%\d", src)) == sorted(re.findall(r"%\d", tr))
        assert not (same_fields and same_args), (src, tr)


def test_the_chinese_text_speaks_to_the_student_one_way():
    """你 everywhere (the VPN page said 您 where the others say 你)."""
    formal = [(d, m.findtext("source")) for d in DOMAINS
              for m in ET.parse(i18n.ts_path(d)).getroot().iter("message")
              if "您" in (m.findtext("translation") or "")]
    assert formal == []
