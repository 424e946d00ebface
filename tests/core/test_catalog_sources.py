"""The catalog is rebuilt from pinned source extracts: the committed offers.csv must be what they give,
the documented rules hold, and rows once wrong (Lambda A100, Tencent GN7/GN10X, interconnects, RAM) are right."""

from __future__ import annotations

import csv
import importlib.util
import io
import shutil
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from app.core.catalog import load_catalog

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "resources" / "catalog" / "sources"


def _builder():
    spec = importlib.util.spec_from_file_location("labgpu_catalog_builder", ROOT / "packaging" / "catalog.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


def test_committed_offers_csv_is_exactly_what_the_sources_give():
    builder = _builder()
    committed = (ROOT / "resources" / "catalog" / "offers.csv").read_text(encoding="utf-8")
    rebuilt = builder.build(SOURCES)
    assert builder.diff_rows(committed, rebuilt) == []
    assert committed == rebuilt


def test_the_maintainers_command_checks_and_names_a_changed_price(tmp_path):
    out = tmp_path / "offers.csv"
    cmd = [sys.executable, str(ROOT / "packaging" / "catalog.py"), "--out", str(out)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "46 offers" in done.stdout
    check = subprocess.run([*cmd, "--check"], capture_output=True, text=True, timeout=120, check=False)
    assert check.returncode == 0, check.stdout
    # a hand edit of a price (not through its source) is caught and named
    text = out.read_text(encoding="utf-8").replace(",1.99,", ",1.49,", 1)
    out.write_text(text, encoding="utf-8")
    check = subprocess.run([*cmd, "--check"], capture_output=True, text=True, timeout=120, check=False)
    assert check.returncode == 1
    assert "lambda/all regions/gpu_1x_a100_sxm4 price_on_demand: committed '1.49', sources give '1.99'" \
        in check.stdout


def _sources(tmp_path: Path, prices: list[str], instances: list[str] | None = None) -> Path:
    d = tmp_path / "sources"
    d.mkdir()
    shutil.copy(SOURCES / "sources.csv", d / "sources.csv")
    inst_header = (SOURCES / "instances.csv").read_text(encoding="utf-8").splitlines()[0]
    rows = instances or ["aws,us-east-1,x.8,A100-40GB,8,40,96,1152,,USD,yes,,no,,"]
    (d / "instances.csv").write_text("\n".join([inst_header, *rows]) + "\n", encoding="utf-8")
    price_header = (SOURCES / "prices.csv").read_text(encoding="utf-8").splitlines()[0]
    (d / "prices.csv").write_text("\n".join([price_header, *prices]) + "\n", encoding="utf-8")
    return d


SNAP = "skypilot-org/skypilot-catalog: catalogs/v7/aws/vms.csv @001367d22a00 (undated snapshot)"
DATED = "datareceipts/data-receipts: 109-gpu-pricing/hyperscalers.json (retrieved 2026-11-09)"
SILY = "tgarg01/silybench-data: gpu_prices.csv (checked 2026-09-25)"


def _row(text: str) -> dict[str, str]:
    return next(csv.DictReader(io.StringIO(text, newline="")))


def test_rules_lowest_zone_range_low_end_per_gpu_and_newest_dated_source(tmp_path):
    b = _builder()
    d = _sources(tmp_path, [
        f"aws,us-east-1,x.8,spot,0.30,instance,USD,{SNAP},,use1-az1,",
        f"aws,us-east-1,x.8,spot,0.25,instance,USD,{SNAP},,use1-az4,",
        f"aws,us-east-1,x.8,spot,0.27,instance,USD,{SNAP},,use1-az6,",
        f"aws,us-east-1,x.8,on_demand,30,instance,USD,{SNAP},,,",
        f"aws,us-east-1,x.8,on_demand,2.5,gpu,USD,{SILY},2026-09-25,,",
        f"aws,us-east-1,x.8,on_demand,21,instance,USD,{DATED},2026-11-09,,",
    ])
    row = _row(b.build(d))
    assert row["price_spot"] == "0.25"  # the cheapest zone
    assert "lowest zone's price (use1-az4) of 0.25-0.3" in row["notes"]
    assert row["price_on_demand"] == "21"  # the newest dated source wins
    assert row["price_date"] == "2026-11-09"
    assert "on-demand 20 per tgarg01" in row["notes"]  # 2.5 per GPU-hour x 8 GPUs, kept as the older figure
    assert "on-demand 30 per skypilot" in row["notes"]
    assert row["price_source"] == f"on-demand: {DATED}; spot: {SNAP}"
    assert "spot from an undated snapshot, on-demand dated" in row["notes"]


def test_rules_range_and_parts(tmp_path):
    b = _builder()
    d = _sources(tmp_path, [
        f"aws,us-east-1,x.8,spot,1.5-2.5,instance,USD,{SNAP},,,by AZ",
        f"aws,us-east-1,x.8,on_demand,0.38,part,USD,{SNAP},,,VM",
        f"aws,us-east-1,x.8,on_demand,2.48,part,USD,{SNAP},,,GPU",
    ])
    row = _row(b.build(d))
    assert row["price_spot"] == "1.5"
    assert "spot stored = low end of the range 1.5-2.5" in row["notes"]
    assert row["price_on_demand"] == "2.86"
    assert "on-demand = VM 0.38 + GPU 2.48" in row["notes"]
    assert row["price_date"] == ""


@pytest.mark.parametrize(("line", "problem"), [
    (f"aws,us-east-1,nope,on_demand,1,instance,USD,{SNAP},,,", "no such offer in instances.csv"),
    (f"aws,us-east-1,x.8,on_demand,1,instance,CNY,{SNAP},,,", "currency CNY differs"),
    ("aws,us-east-1,x.8,on_demand,1,instance,USD,somebody's blog,,,", "is not described in sources.csv"),
    (f"aws,us-east-1,x.8,on_demand,1,instance,USD,{SNAP},2026-01-01,,", "differs from sources.csv"),
    (f"aws,us-east-1,x.8,on_demand,cheap,instance,USD,{SNAP},,,", "not a number"),
    (f"aws,us-east-1,x.8,reserved,1,instance,USD,{SNAP},,,", "kind must be one of"),
])
def test_a_source_row_the_rules_cannot_use_is_refused_by_line(tmp_path, line, problem):
    b = _builder()
    with pytest.raises(b.SourceError) as err:
        b.build(_sources(tmp_path, [line]))
    assert problem in str(err.value)


def _offer(instance_type: str):
    load = load_catalog(include_live=False)
    assert load.problems == []
    return next(o for o in load.offers if o.instance_type == instance_type)


def test_the_rows_issue_13_found_are_right():
    a100 = _offer("gpu_1x_a100_sxm4")
    assert (a100.price_on_demand, a100.price_date) == (1.99, date(2026, 9, 25))
    assert "silybench" in a100.price_source
    a100x8 = _offer("gpu_8x_a100_80gb_sxm4")
    assert (a100x8.price_on_demand, a100x8.price_date) == (22.32, date(2026, 9, 25))
    expected = {"GN7.2XLARGE32": (7.81, "1.26 USD/h"), "GN7.5XLARGE80": (12.5, "2.01 USD/h"),
                "GN10X.2XLARGE40": (16.21, "2.68 USD/h"), "GN10Xp.2XLARGE40": (11.98, "1.72 USD/h"),
                "GN10Xp.20XLARGE320": (95.84, "13.78 USD/h")}
    for name, (cny, usd) in expected.items():
        o = _offer(name)
        assert o.currency == "CNY"
        assert o.price_on_demand == cny, name
        assert "qcloud-documents" in o.price_source and "价格总览" in o.price_source
        assert usd in o.notes and "Guangzhou zone 3" in o.notes, name
    assert "NVLink" in _offer("GT4.41XLARGE948").interconnect
    assert _offer("p2v.2xlarge.8").interconnect == ""
    assert _offer("g4dn.xlarge").price_spot == 0.1845
    nc40 = _offer("Standard_NC40ads_H100_v5")
    assert (nc40.ram_gb, nc40.network_gbps) == (320, 40)
    assert _offer("ecs.gn7i-c8g1.2xlarge").network_gbps == 16
    assert _offer("ecs.gn7-c13g1.26xlarge").ram_gb == 756
    assert load_catalog(include_live=False).gpus["A100-80GB-PCIe"].mem_bandwidth_gbs == 1935
