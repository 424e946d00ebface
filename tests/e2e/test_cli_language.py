"""The CLI in the user's language, run as a user runs it (a subprocess with its own LABGPU_HOME): LANG and
friends or ``--lang`` choose Chinese or English for help, argparse's own words, tables, messages and errors;
``offers --currency`` shows every price in one currency with the rate's date said once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli.output import choose_language, read_qm
from app.core.currency import default_rate
from tests.fixtures import clirun

ROOT = Path(__file__).resolve().parents[2]
LOCALE_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def labgpu(*args: str, home: Path, **locale: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in LOCALE_VARS}
    env.update(LABGPU_HOME=str(home), PYTHONIOENCODING="utf-8", **locale)
    return clirun.run([sys.executable, "-m", "app", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120, check=False)


@pytest.mark.parametrize(("argv", "environ", "expected"), [
    ([], {"LANG": "zh_CN.UTF-8"}, "zh_CN"),
    ([], {"LANG": "en_US.UTF-8"}, "en"),
    ([], {}, "en"),
    (["--lang", "en", "offers"], {"LANG": "zh_CN.UTF-8"}, "en"),
    (["--lang=zh_CN", "offers"], {"LANG": "en_US.UTF-8"}, "zh_CN"),
    # gettext's order: LC_ALL over LC_MESSAGES over LANG; LANGUAGE first unless the locale is C
    ([], {"LC_ALL": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh_CN"),
    ([], {"LC_MESSAGES": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh_CN"),
    ([], {"LC_ALL": "en_US.UTF-8", "LC_MESSAGES": "zh_CN.UTF-8"}, "en"),
    ([], {"LANGUAGE": "zh_CN:en", "LANG": "en_US.UTF-8"}, "zh_CN"),
    ([], {"LANGUAGE": "fr:en", "LANG": "zh_CN.UTF-8"}, "en"),
    ([], {"LANGUAGE": "zh_CN", "LC_ALL": "C"}, "en"),
    ([], {"LANGUAGE": "zh_CN", "LC_ALL": "C.UTF-8"}, "en"),
    ([], {"LANG": "zh_TW.UTF-8"}, "zh_CN"),
    (["sync", "--", "--lang", "zh_CN"], {"LANG": "en_US.UTF-8"}, "en"),
])
def test_the_language_follows_lang_option_then_the_environment_as_gettext_reads_it(argv, environ, expected):
    assert choose_language(argv, environ) == expected


def test_the_cli_reads_the_windows_compiled_catalogs_without_qt(tmp_path):
    catalog = read_qm(ROOT / "resources" / "translations" / "offers_zh_CN.qm")
    found = catalog[(b"LabGPU", b"Unknown provider {name}.")]
    assert found.decode("utf-16-be") == "未知的云服务商 {name}。"
    not_a_catalog = tmp_path / "x_zh_CN.qm"
    not_a_catalog.write_bytes(b"<TS>not compiled</TS>")
    assert read_qm(not_a_catalog) == {}


def test_lang_zh_gives_chinese_help_with_argparse_words_and_command_descriptions(tmp_path):
    r = labgpu("--help", home=tmp_path, LANG="zh_CN.UTF-8")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("用法：labgpu")
    for words in ("选项", "显示此帮助并退出", "命令", "列出各云的 GPU 报价", "OpenVPN 配置：导入、连接、断开、状态"):
        assert words in r.stdout, words
    assert "show this help message" not in r.stdout and "usage:" not in r.stdout
    english = labgpu("--lang", "en", "--help", home=tmp_path, LANG="zh_CN.UTF-8")
    assert english.stdout.startswith("usage: labgpu") and "list GPU offers across clouds" in english.stdout


def test_doctor_speaks_chinese_under_a_chinese_locale(tmp_path):
    r = labgpu("doctor", home=tmp_path, LANG="zh_CN.UTF-8")
    assert "Traceback" not in r.stderr, r.stderr
    header = r.stdout.splitlines()[0].split()
    assert header == ["检查项", "状态", "详情", "下一步"]
    assert "密钥环" in r.stdout and "数据文件夹" in r.stdout
    as_json = json.loads(labgpu("doctor", "--json", home=tmp_path, LANG="zh_CN.UTF-8").stdout)
    assert {c["key"] for c in as_json["checks"]} >= {"keyring", "data"}  # keys stay stable for scripts


def _table(stdout: str) -> tuple[list[str], list[list[str]]]:
    """Header cells and rows of print_table's output, cut where the dashes under the header say (a Chinese
    character takes two columns of a terminal)."""
    import re
    import unicodedata

    lines = [("".join(c + "\0" if unicodedata.east_asian_width(c) in "WF" else c for c in line))
             for line in stdout.splitlines()]
    starts = [m.start() for m in re.finditer(r"-+", lines[1])]

    def cells(line: str) -> list[str]:
        return [line[a:b].replace("\0", "").strip() for a, b in zip(starts, [*starts[1:], None], strict=True)]

    return cells(lines[0]), [cells(line) for line in lines[2:] if line.strip()]


def test_offers_in_chinese_with_usd_one_currency_per_column_and_the_rate_date_once(tmp_path):
    rate = default_rate()
    r = labgpu("--lang", "zh_CN", "offers", "--currency", "USD", "--provider", "tencent", "--provider", "aws",
               home=tmp_path, LANG="en_US.UTF-8")
    assert r.returncode == 0, r.stderr
    header, rows = _table(r.stdout)
    assert header[:3] == ["云服务商", "地域", "实例类型"]
    assert "按量/小时 ($)" in header and "竞价/小时 ($)" in header and "币种" not in header
    on_demand = header.index("按量/小时 ($)")
    assert {row[0] for row in rows} == {"tencent", "aws"}
    assert all(row[on_demand].startswith("$") or row[on_demand] == "未知" for row in rows)
    assert r.stderr.count(rate.as_of.isoformat()) == 1 and "1 美元 = 7.0197 人民币" in r.stderr
    assert "中国外汇交易中心人民币汇率中间价" in r.stderr and "CFETS" not in r.stderr  # the source too

    # the figures are the window's conversion of the native prices, which JSON keeps beside them
    native = json.loads(labgpu("offers", "--provider", "tencent", "--json", home=tmp_path).stdout)
    shown = json.loads(labgpu("offers", "--provider", "tencent", "--currency", "USD", "--json",
                              home=tmp_path).stdout)
    assert "display" not in native[0]
    assert [{k: v for k, v in row.items() if k != "display"} for row in shown] == native
    priced = next(row for row in shown if row["price_on_demand"])
    assert priced["currency"] == "CNY" and priced["display"]["currency"] == "USD"
    assert priced["display"]["price_on_demand"] == pytest.approx(priced["price_on_demand"] / rate.usd_cny, rel=1e-6)
    assert priced["display"]["rate_date"] == rate.as_of.isoformat()
    row = next(r for r in rows if r[2] == priced["instance_type"])
    assert row[on_demand] == f"${priced['price_on_demand'] / rate.usd_cny:,.2f}"


def test_offers_in_cny_converts_dollar_prices(tmp_path):
    r = labgpu("offers", "--currency", "CNY", "--provider", "aws", "--gpu", "A10G", home=tmp_path, LANG="C")
    assert r.returncode == 0, r.stderr
    header, rows = _table(r.stdout)
    col = header.index("on_demand/h (¥)")
    native = {o["instance_type"]: o for o in json.loads(labgpu("offers", "--provider", "aws", "--gpu", "A10G",
                                                                "--json", home=tmp_path).stdout)}
    assert rows
    for row in rows:
        usd = native[row[2]]["price_on_demand"]
        assert row[col] == f"¥{usd * default_rate().usd_cny:,.2f}"
    assert "Prices converted to CNY" in r.stderr


def test_errors_and_argparse_errors_in_chinese(tmp_path):
    r = labgpu("offers", "--provider", "oracle", home=tmp_path, LC_ALL="zh_CN.UTF-8")
    assert r.returncode == 2
    assert "未知的云服务商 oracle" in r.stderr and "请使用以下之一" in r.stderr
    r = labgpu("vpn", "up", home=tmp_path, LANGUAGE="zh_CN", LANG="zh_CN.UTF-8")
    assert r.returncode == 2
    assert "缺少必需的参数：PROFILE" in r.stderr and "运行 'labgpu vpn up --help'" in r.stderr
