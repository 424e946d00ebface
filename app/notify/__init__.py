"""Notices that reach the student away from the laptop (mail, WeChat, Feishu, DingTalk, ntfy, webhooks).

Imports app.core only (pyproject.toml [tool.importlinter]); the watcher, the CLI and the UI use it.
See dispatch.py for the API (``Notifier``, ``guard_hook``).
"""
