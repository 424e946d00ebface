"""Property tests for the settings loader: random documents (wrong types, nested junk, huge numbers,
NaN, not JSON at all) never make ``load`` raise; the result is always valid and typed; whenever the
loader changed or dropped what the file said, the original bytes are kept aside under a new name."""

from __future__ import annotations

import json
import math
import os
import tempfile
import typing
from dataclasses import fields
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core import damage
from app.core.paths import Paths
from app.core.settings import SCHEMA_VERSION, Settings, SettingsStore, coerce

# Each example saves (with fsync): on a RAM disk where there is one, so thousands stay quick.
_FAST_TMP = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
_MISSING = coerce(object(), int)  # the loader's "not of this type" marker

_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(min_value=10**300, max_value=10**320),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
    st.sampled_from(["system", "en", "zh_CN", "USD", "CNY", "offers", "abc", ""]),
    st.sampled_from([0.8, 0.05, 1.0, 0.5, 7.0, 1e308, -0.0, 6.9]),
)
_json = st.recursive(_leaf, lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=6), c, max_size=3),
                     max_leaves=12)
_known = st.fixed_dictionaries({}, optional={f.name: _json for f in fields(Settings)})
_versions = st.sampled_from([1, 0, -1, 99, SCHEMA_VERSION + 1, "1", 1.0, True, None, [1]])


@st.composite
def documents(draw: st.DrawFn) -> bytes:
    kind = draw(st.sampled_from(["object", "object", "object", "object", "json", "text", "bytes"]))
    if kind == "text":
        return draw(st.text(max_size=60)).encode("utf-8")
    if kind == "bytes":
        return draw(st.binary(max_size=60))
    if kind == "json":
        return json.dumps(draw(_json)).encode("utf-8")
    doc = draw(_known)
    doc.update(draw(st.dictionaries(st.text(max_size=8), _json, max_size=3)))
    if draw(st.booleans()):
        doc["schema_version"] = draw(_versions)
    return json.dumps(doc).encode("utf-8")  # NaN and Infinity as Python writes them


def _typed(s: Settings) -> None:
    hints = typing.get_type_hints(Settings)
    for f in fields(Settings):
        value = getattr(s, f.name)
        got = coerce(value, hints[f.name])
        assert got is not _MISSING, (f.name, value)
        assert type(got) is type(value) and got == value, (f.name, value)
        if isinstance(value, float):
            assert math.isfinite(value)
    before = {f.name: getattr(s, f.name) for f in fields(Settings)}
    s.validate()
    assert before == {f.name: getattr(s, f.name) for f in fields(Settings)}  # already valid


@settings(max_examples=600, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_load_never_raises_is_typed_and_keeps_the_original_when_it_changes_anything(raw: bytes) -> None:
    seen: list[damage.DamageNotice] = []
    damage.add_listener(seen.append)
    try:
        with tempfile.TemporaryDirectory(prefix="labgpu-fuzz-settings-", dir=_FAST_TMP) as tmp:
            root = Path(tmp)
            paths = Paths(root / "config", root / "data", root / "cache", root / "logs")
            store = SettingsStore(paths)
            store.file.write_bytes(raw)
            loaded = store.load()
            assert isinstance(loaded, Settings)
            _typed(loaded)
            copies = sorted(store.file.parent.glob("settings.broken-*.json"))
            kinds = {n.kind for n in seen}
            if kinds & {"settings", "settings-fields"}:
                assert len(copies) == 1 and copies[0].read_bytes() == raw  # the original, byte for byte
            else:
                assert copies == []
                assert store.file.read_bytes() == raw  # untouched
                doc = json.loads(raw)
                hints = typing.get_type_hints(Settings)
                for f in fields(Settings):  # nothing changed without a word
                    if f.name in doc and not store.read_only:
                        assert coerce(doc[f.name], hints[f.name]) == getattr(loaded, f.name), f.name
            if store.read_only:
                store.save(loaded)
                assert store.file.read_bytes() == raw  # a newer LabGPU's file is never rewritten
            else:
                store.save(loaded)  # what it saves loads again, unchanged and without a warning
                seen.clear()
                assert store.load() == loaded
                assert seen == []
    finally:
        damage.remove_listener(seen.append)
