"""Translation markers for text that core code produces but the UI shows.

pyside6-lupdate collects calls named ``QT_TRANSLATE_NOOP(context, text)`` from any Python file, so
core code marks its user-facing templates with this no-op and the UI translates them with
``QCoreApplication.translate(context, template)`` before formatting.
"""

from __future__ import annotations

from collections.abc import Callable

CONTEXT = "LabGPU"


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # noqa: N802 - lupdate looks for this name
    return text


# A hook the UI installs so core templates are shown in the user's language; the CLI leaves it.
_translate: Callable[[str, str], str] | None = None


def set_translator(func: Callable[[str, str], str] | None) -> None:
    global _translate
    _translate = func


_language = "en"


def set_language(lang: str) -> None:
    """The UI says which language it shows ("en" | "zh_CN"), for names a spec gives in both."""
    global _language
    _language = lang or "en"


def language() -> str:
    return _language


def translate(template: str, context: str = CONTEXT) -> str:
    if _translate is None:
        return template
    return str(_translate(context, template))


def join_names(names: list[str], word: str = "and") -> str:
    """Names as a sentence lists them: "A", "A and B", "A, B and C" (``word`` "and" or "or"); in
    Chinese "A和B", "A、B和C" (或)."""
    if len(names) <= 1:
        return "".join(names)
    if language().startswith("zh"):
        return "、".join(names[:-1]) + ("或" if word == "or" else "和") + names[-1]
    return ", ".join(names[:-1]) + f" {word} " + names[-1]
