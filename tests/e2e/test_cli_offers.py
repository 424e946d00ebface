"""`labgpu offers` run as a user runs it: a subprocess with its own LABGPU_HOME."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.fixtures import clirun

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LABGPU_HOME": str(home), "PYTHONIOENCODING": "utf-8"}
    return clirun.run([sys.executable, "-m", "app", "offers", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60, check=False)


def test_gpu_a100_json_lists_at_least_four_providers(labgpu_home):
    r = _run("--gpu", "A100", "--json", home=labgpu_home)
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)
    assert rows
    assert all(row["gpu_model"].startswith("A100") for row in rows)
    assert {"A100-40GB", "A100-80GB"} <= {row["gpu_model"] for row in rows}
    assert len({row["provider"] for row in rows}) >= 4
    for key in ("provider", "region", "instance_type", "gpu_model", "gpu_count", "vram_gb", "fp16_tflops",
                "vcpu", "ram_gb", "network_gbps", "price_on_demand", "price_spot", "price_prepaid_month",
                "currency", "price_source", "price_date", "price_per_tflop_hour", "live"):
        assert key in rows[0], key
    # default order: price per TFLOP-hour ascending, unknown (null) last
    per = [row["price_per_tflop_hour"] for row in rows]
    known = [p for p in per if p is not None]
    assert known == sorted(known)
    assert per[len(known):] == [None] * (len(per) - len(known))
    tencent = [row for row in rows if row["provider"] == "tencent"]
    assert tencent
    # GT4 has a public China-site list price now; every price names its source
    assert all(row["price_source"] for row in tencent if row["price_on_demand"] is not None)


def test_provider_min_vram_max_price_in_cny_and_sort(labgpu_home):
    r = _run("--max-price", "20", "--currency", "CNY", "--sort", "price", "--json", home=labgpu_home)
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)
    assert rows
    rate = 7.0197
    cny = [row["price_on_demand"] * (rate if row["currency"] == "USD" else 1) for row in rows]
    assert all(p <= 20 + 1e-6 for p in cny)
    assert cny == sorted(cny)
    r = _run("--provider", "aws", "--min-vram", "40", "--spot", "--json", home=labgpu_home)
    rows = json.loads(r.stdout)
    assert {row["provider"] for row in rows} == {"aws"}
    assert all(row["vram_gb"] >= 40 for row in rows)
    assert {row["instance_type"] for row in rows} == {"p4d.24xlarge", "p5.48xlarge"}


def test_table_output_and_bad_input(labgpu_home):
    r = _run("--gpu", "H100", home=labgpu_home)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].split()[:4] == ["provider", "region", "instance_type", "gpu"]
    assert any("p5.48xlarge" in line for line in lines)
    assert "offer(s)" in r.stderr
    bad = _run("--provider", "oracle", home=labgpu_home)
    assert bad.returncode == 2
    assert "Unknown provider oracle" in bad.stderr
    assert bad.stdout == ""


def test_catalog_problems_are_warnings_on_stderr_and_the_rest_lists(labgpu_home):
    from app.core import live_prices
    from app.core.paths import default_paths

    cache = live_prices._path(default_paths().ensure())
    cache.write_text('{"version": "not-a-cache"}', encoding="utf-8")
    r = _run("--gpu", "T4", "--json", home=labgpu_home)
    assert r.returncode == 0
    assert "labgpu: warning: live price cache:" in r.stderr
    assert json.loads(r.stdout)


def test_live_price_from_the_cache_shows_in_json(labgpu_home):
    from dataclasses import replace
    from datetime import datetime, timezone

    from app.core import live_prices
    from app.core.catalog import load_catalog
    from app.core.paths import default_paths

    paths = default_paths().ensure()
    bundled = load_catalog(paths, include_live=False).offers
    gn7 = next(o for o in bundled if o.instance_type == "GN7.2XLARGE32")
    live_prices.save(paths, [replace(gn7, price_on_demand=8.68, fetched_at=datetime.now(timezone.utc),
                                     price_source="InquiryPriceRunInstances")])
    r = _run("--provider", "tencent", "--gpu", "T4", "--json", home=labgpu_home)
    assert r.returncode == 0, r.stderr
    row = next(x for x in json.loads(r.stdout) if x["instance_type"] == "GN7.2XLARGE32")
    assert row["live"] is True
    assert row["price_on_demand"] == 8.68
    assert row["fetched_at"]
