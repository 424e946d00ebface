"""Install translators: every resources/translations/*_<lang>.qm plus Qt's own for its dialogs."""

from __future__ import annotations

import logging

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from app.core import i18n as core_i18n
from app.core.resources import resource_path

log = logging.getLogger(__name__)

_installed: list[QTranslator] = []


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
    return language
