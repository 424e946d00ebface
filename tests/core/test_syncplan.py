"""The pure sync planner: gitignore matching, quick check, conflicts, mirror, name safety, partials."""

from __future__ import annotations

import pytest

from app.core.syncplan import (
    DIR,
    FILE,
    LINK,
    Entry,
    IgnoreRules,
    build_plan,
    decode_name,
    default_rules,
    encode_name,
    final_of_part,
    part_name,
    unsafe_path,
)


def F(path, size=10, mtime=1000.0):
    return Entry(path, FILE, size, mtime)


def D(path):
    return Entry(path, DIR)


def listing(*entries):
    return {e.path: e for e in entries}


# --- gitignore ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("patterns", "path", "is_dir", "expected"),
    [
        (["*.log"], "a.log", False, True),
        (["*.log"], "deep/er/a.log", False, True),
        (["*.log"], "a.logx", False, False),
        (["/build"], "build", True, True),
        (["/build"], "src/build", True, False),  # anchored
        (["build/"], "build", False, False),  # dir only
        (["build/"], "src/build", True, True),  # dir-only unanchored matches at any depth
        (["build/"], "src/build/x.o", False, True),  # inside an excluded folder
        (["doc/*.txt"], "doc/a.txt", False, True),
        (["doc/*.txt"], "doc/sub/a.txt", False, False),  # '*' does not cross '/'
        (["doc/**/*.txt"], "doc/sub/deep/a.txt", False, True),
        (["doc/**/*.txt"], "doc/a.txt", False, True),  # '**/' matches zero folders
        (["**/cache"], "x/y/cache", True, True),
        (["logs/**"], "logs/a/b", False, True),
        (["logs/**"], "logs", True, False),
        (["*.log", "!keep.log"], "keep.log", False, False),  # negation, last match wins
        (["!keep.log", "*.log"], "keep.log", False, True),
        (["data/", "!data/keep.txt"], "data/keep.txt", False, True),  # cannot re-include below excluded dir
        (["data/*", "!data/keep.txt"], "data/keep.txt", False, False),
        (["a?c"], "abc", False, True),
        (["a?c"], "a/c", False, False),
        (["[ab]x"], "bx", False, True),
        (["[!ab]x"], "cx", False, True),
        (["[!ab]x"], "ax", False, False),
        (["\\#hash"], "#hash", False, True),
        (["\\!bang"], "!bang", False, True),
        (["# comment", ""], "# comment", False, False),
        (["trail   "], "trail", False, True),
        (["a/b"], "x/a/b", False, False),  # middle slash anchors
    ],
)
def test_gitignore_semantics(patterns, path, is_dir, expected):
    assert IgnoreRules(patterns).excluded(path, is_dir) is expected


def test_default_excludes_and_nested_gitignore_base():
    rules = default_rules()
    assert rules.excluded(".git", True)
    assert rules.excluded(".git/objects/ab", False)
    assert rules.excluded("pkg/__pycache__/m.pyc", False)
    assert rules.excluded("nb/.ipynb_checkpoints/x.ipynb", False)
    assert not rules.excluded("src/git.py", False)
    rules.add_gitignore("*.tmp\n/local\n", base="sub")
    assert rules.excluded("sub/a.tmp", False)
    assert rules.excluded("sub/local", True)
    assert not rules.excluded("local", True)  # rule of sub/.gitignore applies below sub only
    assert not rules.excluded("a.tmp", False)


# --- names ------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["..", "a/../b", ".", "a/./b", "a\\b", "x\x00y", "/abs", "a//b", ""])
def test_unsafe_paths(path):
    assert unsafe_path(path)


def test_safe_and_windows_names():
    assert not unsafe_path("a/b c/d.txt")
    assert not unsafe_path("line\nbreak")
    assert unsafe_path("con:x", windows=True)
    assert unsafe_path("line\nbreak", windows=True)


def test_non_utf8_roundtrip_and_part_names():
    raw = b"caf\xe9.txt"
    name = decode_name(raw)
    assert encode_name(name) == raw
    assert part_name("a/b/data.bin") == "a/b/.data.bin.labgpu-part"
    assert part_name("x") == ".x.labgpu-part"
    assert final_of_part("a/.data.bin.labgpu-part") == "a/data.bin"
    assert final_of_part("a/data.bin") is None
    assert final_of_part(".labgpu-part") is None
    assert part_name("a/x.bin", "0123abcd") == "a/.x.bin.0123abcd.labgpu-part"
    assert final_of_part("a/.x.bin.0123abcd.labgpu-part") == "a/x.bin"
    assert final_of_part(".x.bin.notatoken.labgpu-part") == "x.bin.notatoken"


# --- planning ---------------------------------------------------------------------------------


def test_new_changed_unchanged_and_mkdir():
    src = listing(D("d"), F("d/a", 5, 100), F("b", 7, 200), F("c", 3, 300))
    dst = listing(F("b", 7, 200.9), F("c", 4, 250))
    plan = build_plan(src, dst)
    assert plan.mkdirs == ["d"]
    assert [(i.action, i.path) for i in plan.transfers] == [("update", "c"), ("copy", "d/a")]
    assert plan.unchanged == 1  # same size, same whole second
    assert plan.bytes_to_transfer == 8


def test_newer_destination_is_a_conflict_unless_forced():
    src = listing(F("m", 5, 100))
    dst = listing(F("m", 6, 500))
    plan = build_plan(src, dst)
    assert plan.transfers == []
    assert [(c.path, c.reason) for c in plan.conflicts] == [("m", "newer")]
    forced = build_plan(src, dst, force=True)
    assert [(i.path, i.reason) for i in forced.transfers] == [("m", "forced")]


def test_type_clash_and_blocked_parent():
    src = listing(D("x"), F("x/f"), F("y"), F("ln/inside"), D("ln"))
    dst = listing(F("x"), D("y"), Entry("ln", LINK))
    plan = build_plan(src, dst, force=True)
    reasons = {c.path: c.reason for c in plan.conflicts}
    assert reasons == {"x": "type", "y": "type", "ln": "type"}
    assert plan.transfers == []  # nothing written through the symlink "ln" nor below file "x"
    # a parent that is a symlink at the destination, even when the source does not list the folder
    plan2 = build_plan(listing(F("ln/deep")), listing(Entry("ln", LINK)))
    assert [(c.path, c.reason) for c in plan2.conflicts] == [("ln/deep", "parent")]


def test_mirror_deletes_only_when_asked_and_not_excluded():
    src = listing(F("keep"))
    dst = listing(F("keep"), F("gone"), D("old"), F("old/x"), F("cache.log"), D(".git"), F(".git/HEAD"))
    rules = default_rules(["*.log"])
    assert build_plan(src, dst, rules).deletions == []
    plan = build_plan(src, dst, rules, delete=True)
    assert [d.path for d in plan.deletions] == ["old/x", "gone", "old"]  # deepest first


def test_mirror_keeps_folder_that_still_holds_excluded_files():
    src = listing(F("a"))
    dst = listing(F("a"), D("d"), F("d/x.log"), F("d/y"))
    plan = build_plan(src, dst, IgnoreRules(["*.log"]), delete=True)
    assert [d.path for d in plan.deletions] == ["d/y"]


def test_refused_names_symlinks_and_excluded_counts():
    src = listing(
        F("ok"), F("bad\\name"), Entry("lnk", LINK), D(".git"), F(".git/HEAD"), D(".."), F("../escape")
    )
    plan = build_plan(src, {}, default_rules())
    assert [i.path for i in plan.transfers] == ["ok"]
    assert {(r.path, r.reason) for r in plan.refused} == {
        ("bad\\name", "unsafe"),
        ("lnk", "symlink"),
        ("..", "unsafe"),
    }  # nothing below ".." is looked at
    assert plan.excluded == 2


def test_unsafe_destination_names_are_never_deleted():
    plan = build_plan({}, listing(F("a\\b"), F("fine")), delete=True)
    assert [d.path for d in plan.deletions] == ["fine"]


def test_partials_resume_and_stale_cleanup():
    src = listing(F("big", 1000, 10), F("small", 5, 10))
    dst = listing(
        F(".big.labgpu-part", 400),
        F(".big.0000beef.labgpu-part", 700),
        F(".gone.labgpu-part", 9),
        F(".small.labgpu-part", 50),
    )
    plan = build_plan(src, dst)
    by = {i.path: i for i in plan.transfers}
    assert (by["big"].resume_from, by["big"].resume_part) == (700, ".big.0000beef.labgpu-part")  # largest
    assert by["small"].resume_from == 0  # partial longer than the file: start over
    assert plan.stale_parts == [".big.labgpu-part", ".gone.labgpu-part", ".small.labgpu-part"]
    assert plan.bytes_to_transfer == 300 + 5
    # our temporary files are never uploaded nor mirrored away
    plan2 = build_plan(listing(F(".x.labgpu-part")), listing(F(".y.labgpu-part")), delete=True)
    assert plan2.transfers == []
    assert plan2.deletions == []


def test_resync_plan_is_empty():
    src = listing(D("a"), F("a/1", 1, 5), F("b", 2, 6))
    plan = build_plan(src, dict(src), delete=True)
    assert plan.is_empty
    assert plan.unchanged == 2
