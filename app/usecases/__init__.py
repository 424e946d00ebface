"""Workflows that both the CLI and the desktop app offer, written once.

A use case takes plain values (records, paths, callbacks), does the work in the right order, and
returns or raises; it never prints and never touches a widget. The CLI only parses and prints
around it, the UI only presents it (and runs it through ``ctx.runner``). Import rules
(pyproject.toml, import-linter): usecases may use core, cloud, remote and watch; it never imports
the CLI, the UI or Qt.
"""
