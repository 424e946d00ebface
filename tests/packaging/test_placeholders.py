"""One placeholder style in translated text: ``{name}`` filled by ``.format(name=…)``. A ``%1``, ``%s`` or
``{0}`` in a source string tells the translator nothing about what goes there, and a ``.replace("%1", …)``
chain substitutes into what an earlier value brought in."""

from __future__ import annotations

import ast
import re
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
POSITIONAL = re.compile(r"%\d|%[sdfr]|%\(\w+\)[sdf]|\{\d*(?:[:!][^}]*)?\}")
# source texts whose % is not a placeholder: shell text the user types
ALLOWED = {
    "Pipe it in, e.g. printf '%s\\n' \"$PW\" | labgpu {command} …",
}
MARKERS = {"tr": 0, "translate": 1, "QT_TRANSLATE_NOOP": 1}
# argparse's own words (app/cli/output.py): argparse fills them with %-formatting itself, so their
# translations must keep its placeholders as they are
ARGPARSE_CONTEXT = "argparse"


def _positional(text: str) -> bool:
    return text not in ALLOWED and bool(POSITIONAL.search(text))


def test_translation_sources_use_named_placeholders():
    bad = []
    for ts in sorted((ROOT / "resources" / "translations").glob("*.ts")):
        for ctx in ET.parse(ts).getroot().iter("context"):
            for msg in ctx.iter("message"):
                tr = msg.find("translation")
                if tr is not None and tr.get("type") in ("obsolete", "vanished"):
                    continue
                source = msg.findtext("source") or ""
                if _positional(source) and ctx.findtext("name") != ARGPARSE_CONTEXT:
                    bad.append(f"{ts.name} [{ctx.findtext('name')}]: {source[:80]!r}")
    assert not bad, "positional placeholders (use {name} and .format):\n" + "\n".join(bad)


def test_translated_literals_in_the_code_use_named_placeholders():
    bad = []
    for path in sorted((ROOT / "app").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            index = MARKERS.get(name)
            if index is None or len(node.args) <= index:
                continue
            arg = node.args[index]
            context = node.args[0] if index == 1 else None
            if isinstance(context, ast.Constant) and context.value == ARGPARSE_CONTEXT:
                continue
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and _positional(arg.value):
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno}: {arg.value[:80]!r}")
    assert not bad, "positional placeholders (use {name} and .format):\n" + "\n".join(bad)
