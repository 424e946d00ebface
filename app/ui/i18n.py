"""Install translators: every resources/translations/*_<lang>.qm plus Qt's own for its dialogs."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from app.core import i18n as core_i18n
from app.core.resources import resource_path

if TYPE_CHECKING:
    from PySide6.QtGui import QFont

log = logging.getLogger(__name__)

_installed: list[QTranslator] = []
_latin_font: list[QFont] = []  # the application font before a Chinese font was put first

# Chinese UI fonts, best first. A Latin font with CJK only as a fallback puts Chinese text above the
# middle of spin boxes and line edits (the box is laid out with the Latin font's metrics).
CJK_FAMILIES = ("Microsoft YaHei UI", "Microsoft YaHei", "PingFang SC", "Hiragino Sans GB", "Noto Sans CJK SC",
                "Source Han Sans SC", "Source Han Sans CN", "WenQuanYi Micro Hei", "Droid Sans Fallback")


def apply_language_font(app: QCoreApplication, language: str) -> None:
    """In Chinese, an installed Chinese UI font goes first (its metrics include CJK); in English, the
    font the application started with."""
    from PySide6.QtGui import QFont, QFontDatabase, QGuiApplication

    if not isinstance(app, QGuiApplication):
        return
    if not _latin_font:
        _latin_font.append(QFont(QGuiApplication.font()))
    base = QFont(_latin_font[0])
    if language == "zh_CN":
        installed = set(QFontDatabase.families())
        cjk = next((f for f in CJK_FAMILIES if f in installed), None)
        if cjk is not None:
            base.setFamilies([cjk, *base.families()])
    QGuiApplication.setFont(base)


def resolve_language(setting: str, override: str | None = None) -> str:
    lang = override or setting
    if lang in ("", "system", None):
        lang = "zh_CN" if QLocale.system().name().lower().startswith("zh") else "en"
    return "zh_CN" if lang.lower().startswith("zh") else "en"


def install(app: QCoreApplication, language: str) -> str:
    """(Re)install translators for `language` ("en" | "zh_CN"); returns the language in force."""
    for t in _installed:
        app.removeTranslator(t)
    _installed.clear()
    if language != "en":
        qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
        for base in ("qtbase",):
            t = QTranslator(app)
            if t.load(f"{base}_{language}", qt_dir):
                app.installTranslator(t)
                _installed.append(t)
        tdir = resource_path("translations")
        for qm in sorted(tdir.glob(f"*_{language}.qm")):
            t = QTranslator(app)
            if t.load(str(qm)):
                app.installTranslator(t)
                _installed.append(t)
            else:
                log.warning("could not load translation %s", qm)
    QLocale.setDefault(QLocale(QLocale.Language.Chinese, QLocale.Country.China)
                       if language == "zh_CN" else QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
    core_i18n.set_translator(QCoreApplication.translate)
    core_i18n.set_language(language)
    apply_language_font(app, language)
    return language
