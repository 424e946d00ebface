"""Wrong commands, typed as a new user types them, run as a user runs them (a subprocess with its own
LABGPU_HOME): each fails with exit 2, no traceback, and says what to do next — the command that lists
what exists or shows the right syntax — in English and in Chinese. And every command with verbs lists
each verb with a line saying what it does."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures import clirun

ROOT = Path(__file__).resolve().parents[2]
LOCALE_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def labgpu(*args: str, home: Path, lang: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in LOCALE_VARS}
    env.update(LABGPU_HOME=str(home), PYTHONIOENCODING="utf-8", LANG=lang)
    return clirun.run([sys.executable, "-m", "app", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=120, check=False, stdin=subprocess.DEVNULL)


# (what is typed, what the English error must point to, what the Chinese one must)
DEAD_ENDS = [
    (["ofers"], ["Did you mean 'offers'?", "Run 'labgpu --help' to list its commands."],
     ["你是不是想输入 'offers'？", "运行 'labgpu --help' 查看它的子命令。"]),
    (["vpn", "connect", "lab"], ["its commands: add, up, down", "Run 'labgpu vpn --help'"],
     ["它的命令：add、up、down", "运行 'labgpu vpn --help'"]),
    (["vpn", "up", "lab"], ["'labgpu vpn add lab FILE.ovpn'", "'labgpu vpn ls'"], ["'labgpu vpn add lab FILE.ovpn'"]),
    (["vpn", "up", "lab", "--jsn"], ["Did you mean '--json'?", "Run 'labgpu vpn up --help'"],
     ["你是不是想输入 '--json'？", "运行 'labgpu vpn up --help'"]),
    (["monitor"], ["required: NAME", "Run 'labgpu monitor --help' to see its arguments"],
     ["缺少必需的参数：NAME", "运行 'labgpu monitor --help'"]),
    (["monitor", "gpu9"], ["No host named 'gpu9'", "'labgpu hosts ls'"], ["'gpu9'", "'labgpu hosts ls'"]),
    (["sync", "./no-such-folder", "gpu9:~/data"], ["no-such-folder does not exist", "create the folder"],
     ["no-such-folder 不存在"]),
    (["sync", ".", "gpu9"], ["Expected NAME:REMOTE", "e.g. gpu1:~/data"], ["gpu1:~/data"]),
    (["offers", "--sort", "pricee"], ["Did you mean 'price'", "Run 'labgpu offers --help'"],
     ["你是不是想输入 'price'", "运行 'labgpu offers --help'"]),
    (["offers", "--provider", "oracle"], ["Use one of: aws"], ["aws"]),
    (["offers", "--max-price", "-1"], ["must be zero or more", "Give a plain amount"], ["1.5"]),
    (["accounts", "test", "nolab"], ["no account named 'nolab'", "'labgpu accounts ls'"], ["'labgpu accounts ls'"]),
    (["stop", "ins-nope"], ["no instance ins-nope", "'labgpu ls'"], ["'labgpu ls'"]),
    (["jobs", "stop", "nojob"], ["No job nojob", "`labgpu jobs`"], ["`labgpu jobs`"]),
    (["notify", "test", "phone"], ["`labgpu notify ls`", "`labgpu notify add`"], ["`labgpu notify ls`"]),
    (["keys", "rm", "lab"], ["'labgpu keys import lab'", "'labgpu keys ls'"], ["labgpu keys ls"]),
    (["waits", "cancel", "w1"], ["'labgpu waits'"], ["'labgpu waits'"]),
    (["cost", "--month", "2026-13"], ["YYYY-MM"], ["YYYY-MM"]),
    (["hosts", "add", "gpu1", "sssh root@example.com"], ["must start with ssh", "ssh -p 12345"], ["ssh -p 12345"]),
    (["run", "gpu9"], ["Put the command after `--`", "labgpu run HOST"], ["labgpu run HOST"]),
]


@pytest.mark.parametrize(("argv", "english", "chinese"), DEAD_ENDS, ids=[" ".join(d[0]) for d in DEAD_ENDS])
def test_a_wrong_command_says_what_to_do_next_in_both_languages(argv, english, chinese, tmp_path):
    for lang, wanted in (("en_US.UTF-8", english), ("zh_CN.UTF-8", chinese)):
        r = labgpu(*argv, home=tmp_path / "home", lang=lang, cwd=tmp_path)
        assert r.returncode == 2, (lang, r.stdout, r.stderr)
        assert "Traceback" not in r.stderr, r.stderr
        for words in wanted:
            assert words in r.stderr, (lang, words, r.stderr)
        if lang.startswith("zh"):
            assert any("\u4e00" <= c <= "\u9fff" for c in r.stderr), r.stderr


def test_listing_nothing_says_how_to_start_something(tmp_path):
    r = labgpu("jobs", "gpu9", "--no-refresh", home=tmp_path, lang="en_US.UTF-8")
    assert r.returncode == 0, r.stderr
    assert "No jobs on gpu9. Start one: labgpu run gpu9 -- CMD" in r.stdout
    r = labgpu("jobs", "--no-refresh", home=tmp_path, lang="zh_CN.UTF-8")
    assert "还没有任务。启动一个：labgpu run HOST -- CMD" in r.stdout


def _commands_with_verbs() -> dict[str, list[str]]:
    from app.cli import build_parser

    found: dict[str, list[str]] = {}

    def walk(parser: argparse.ArgumentParser, path: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                if path:
                    found[path] = list(dict.fromkeys(c.dest.split(" ")[0] for c in action._choices_actions))
                for name, sub in action.choices.items():
                    walk(sub, f"{path} {name}".strip())

    walk(build_parser(), "")
    return found


def test_every_command_with_verbs_lists_each_verb_with_what_it_does(tmp_path):
    from app.cli.output import use_language

    use_language("en")
    commands = _commands_with_verbs()
    assert {"vpn", "hosts", "accounts", "keys", "notify", "guard", "recovery", "buckets", "waits"} <= set(commands)
    assert commands["vpn"] == ["add", "up", "down", "status", "ls", "rm", "log", "keep"]
    for command, verbs in commands.items():
        assert verbs, command
    r = labgpu("vpn", "--help", home=tmp_path, lang="en_US.UTF-8")
    lines = r.stdout.splitlines()
    for verb in commands["vpn"]:
        line = next(x for x in lines if x.split()[:1] == [verb])
        assert len(line.split()) > 2, line  # the verb, then a description
    assert "connect; returns once the tunnel is up" in r.stdout
    zh = labgpu("vpn", "--help", home=tmp_path, lang="zh_CN.UTF-8")
    assert "连接；隧道建立后返回" in zh.stdout and "命令" in zh.stdout


def test_every_verb_has_a_description_in_the_parser():
    from app.cli import build_parser
    from app.cli.output import use_language

    use_language("en")
    missing = []

    def walk(parser: argparse.ArgumentParser, path: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                described = {c.dest.split(" ")[0] for c in action._choices_actions if c.help}
                missing.extend(f"{path} {n}" for n in dict.fromkeys(c.dest.split(" ")[0]
                                                                   for c in action._choices_actions)
                               if n not in described)
                for name, sub in action.choices.items():
                    walk(sub, f"{path} {name}")

    walk(build_parser(), "labgpu")
    assert missing == []


def test_a_command_parses_with_its_own_module_alone_as_with_all():
    """`labgpu WORD …` registers only WORD's module (start-up): the table of owners is exactly what the modules
    register, and a command parses to the same arguments either way; no command, --help first or a mistyped
    word gets the whole parser (its list of commands, its suggestion)."""
    import importlib

    from app.cli import COMMAND_MODULES, COMMAND_OWNERS, build_parser, command_word
    from app.cli.output import Parser

    registered = {}
    for name in COMMAND_MODULES:
        sub = Parser(prog="labgpu").add_subparsers(dest="command")
        importlib.import_module(name).register(sub)
        registered.update(dict.fromkeys(sub.choices, name))
    assert registered == COMMAND_OWNERS
    assert command_word(["--lang", "zh_CN", "--page", "offers", "ls", "--json"]) == "ls"
    assert command_word(["--help", "ls"]) is None and command_word(["--lang", "fr", "ls"]) is None
    assert command_word(["sssh", "x"]) == "sssh"  # not a command: the whole parser says so
    def commands(parser):
        return set(parser._subparsers._group_actions[0].choices)

    for argv, word in ((["ls", "--json"], "ls"), (["--lang", "en", "vpn", "ls"], "vpn"),
                       (["sync", "a", "h:/b", "--dry-run"], "sync"), (["hosts", "add", "lab", "ssh me@h"], "hosts")):
        one, whole = build_parser(argv), build_parser()
        assert commands(one) == {w for w, m in COMMAND_OWNERS.items() if m == COMMAND_OWNERS[word]}
        mine, all_ = vars(one.parse_args(argv)), vars(whole.parse_args(argv))
        assert mine.pop("func").__name__ == all_.pop("func").__name__
        assert mine == all_
    assert commands(build_parser(["sssh", "x"])) == set(COMMAND_OWNERS)
