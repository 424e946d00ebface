"""Typed errors: each carries a user-facing message and a next step (hint), never a secret.

Messages are templates (``"Port {port} is in use"``) marked for translation with
``QT_TRANSLATE_NOOP("LabGPU", ...)``; ``params`` fill them after translation.
"""

from __future__ import annotations

from typing import Any

from .i18n import translate


class LabGpuError(Exception):
    """Base for every error the user may see."""

    def __init__(self, message: str, hint: str = "", *, code: str = "", **params: Any) -> None:
        self.template = message
        self.hint_template = hint
        self.code = code
        self.params = params
        super().__init__(self.text())

    @staticmethod
    def _fill(template: str, params: dict[str, Any]) -> str:
        try:
            return template.format(**params)
        except (KeyError, IndexError, ValueError):
            return template

    def text(self) -> str:
        return self._fill(translate(self.template), self.params)

    def hint(self) -> str:
        return self._fill(translate(self.hint_template), self.params) if self.hint_template else ""

    def one_line(self) -> str:
        """What the CLI prints on stderr: code, message and next step on one line."""
        parts = [f"[{self.code}] " if self.code else "", self.text()]
        hint = self.hint()
        if hint:
            parts.append(f" — {hint}")
        return "".join(parts).replace("\n", " ")

    def key(self) -> str:
        """Identity used to show the same error only once."""
        return f"{type(self).__name__}:{self.code}:{self.text()}"


class ConfigError(LabGpuError):
    """Settings, catalog or other local data is wrong."""


class InputError(LabGpuError):
    """The user typed something that cannot work; shown inline."""
