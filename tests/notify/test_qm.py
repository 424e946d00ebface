"""The Qt-free .qm reader (notices in the Settings language from the CLI) agrees with Qt's QTranslator on
every message of every catalog LabGPU ships, and composes a notice's text as outside text: plain, capped."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from app.core.vocab import GuardEventKind
from app.notify.events import MAX_BODY, compose, plain
from app.notify.qm import QmCatalog

TS_DIR = Path(__file__).resolve().parents[2] / "resources" / "translations"


def test_the_reader_agrees_with_qtranslator_on_every_catalog():
    from PySide6.QtCore import QTranslator

    checked = 0
    for ts in sorted(TS_DIR.glob("*_zh_CN.ts")):
        qm = ts.with_suffix(".qm")
        ours = QmCatalog.from_file(qm)
        qt = QTranslator()
        assert ours is not None and qt.load(str(qm)), qm
        for ctx in ET.parse(ts).getroot().iter("context"):
            name = ctx.findtext("name") or ""
            for m in ctx.iter("message"):
                src, comment = m.findtext("source") or "", m.findtext("comment") or ""
                assert ours.translate(name, src, comment) == (qt.translate(name, src, comment or None) or None)
                checked += 1
    assert checked > 1000


def test_a_notice_in_chinese_with_hostile_outside_text():
    msg = compose(GuardEventKind.STOP_FAILED, {"tries": 3, "why": "\u202eevil\x1b]52;c;AAAA\x07" + "x" * 5000},
                  target="ins-\n1", lang="zh_CN", when="2026-12-05 08:00:00 UTC")
    assert msg.title == "ins- 1 无法停止：仍在计费"
    assert "\x1b" not in msg.body and "\u202e" not in msg.body and "\x07" not in msg.body
    assert len(msg.body) <= MAX_BODY and "由 LabGPU 于 2026-12-05 08:00:00 UTC 发送。" in msg.body


def test_a_template_whose_fields_are_missing_falls_back_to_the_events_own_words():
    msg = compose(GuardEventKind.BUDGET_WARN, {}, target="ins-1", lang="en", fallback="ins-1 used 80 %")
    assert (msg.title, msg.body) == ("LabGPU: ins-1", "ins-1 used 80 %")
    assert plain("a\tb\u200bc") == "a b c"
