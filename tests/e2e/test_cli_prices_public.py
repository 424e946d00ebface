"""`labgpu prices refresh --public` and `labgpu offers` run as a user runs them (subprocesses with their
own LABGPU_HOME), against the local Azure Retail Prices API server."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from tests.fixtures import clirun
from tests.fixtures.azure_prices_server import SKUS

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LABGPU_HOME": str(home), "PYTHONIOENCODING": "utf-8"}
    return clirun.run([sys.executable, "-m", "app", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120, check=False)


def _azure_rows(home: Path) -> dict[str, dict]:
    r = _run("offers", "--provider", "azure", "--json", home=home)
    assert r.returncode == 0, r.stderr
    return {row["instance_type"]: row for row in json.loads(r.stdout)}


def test_public_refresh_fills_the_azure_rows_from_the_server(labgpu_home, azure_prices_server):
    before = _azure_rows(labgpu_home)
    r = _run("prices", "refresh", "--public", "--azure-endpoint", azure_prices_server.endpoint, home=labgpu_home)
    # one catalog SKU is not in the API's answer: exit 3 (partial) and it is named, its bundled price kept
    assert r.returncode == 3, r.stderr
    assert "azure/eastus/Standard_ND96isr_H100_v5: no Linux pay-as-you-go meter" in r.stderr
    assert "the bundled price is kept" in r.stderr
    assert f"4 public prices cached from {azure_prices_server.endpoint}" in r.stderr
    assert "[1/5] Azure eastus" in r.stderr  # progress
    assert "gcp (the Cloud Billing Catalog API needs an API key)" in r.stderr
    assert "Standard_NC6s_v3" in r.stdout and "3.1100" in r.stdout
    after = _azure_rows(labgpu_home)
    for sku, (_m, _s, on_demand, spot) in SKUS.items():
        row = after[sku]
        assert row["price_on_demand"] == on_demand
        assert row["price_spot"] == spot
        assert row["live"] is True and row["price_origin"] == "public" and row["fetched_at"]
        assert row["price_source"].startswith("Azure Retail Prices API (127.0.0.1:")
    kept = after["Standard_ND96isr_H100_v5"]
    assert kept == before["Standard_ND96isr_H100_v5"]
    assert kept["price_origin"] == "bundled"
    table = _run("offers", "--provider", "azure", home=labgpu_home)
    assert re.search(r"Standard_NC6s_v3 .* fetched (just now|\d+ min ago)", table.stdout)


def test_the_endpoint_setting_is_used_and_a_failure_keeps_bundled_prices(labgpu_home, azure_prices_server):
    from app.core.paths import default_paths
    from app.core.settings import SettingsStore

    paths = default_paths().ensure()
    store = SettingsStore(paths)
    settings = store.load()
    settings.azure_prices_endpoint = azure_prices_server.endpoint
    store.save(settings)
    before = _azure_rows(labgpu_home)
    azure_prices_server.fail(503, after_pages=2)  # the first pages answer, then the API is busy
    r = _run("prices", "refresh", "--public", home=labgpu_home)
    assert r.returncode == 2
    assert azure_prices_server.requests, "the setting's endpoint was not asked"
    line = r.stderr.strip().splitlines()[-1]
    assert line.startswith("labgpu: [AzurePricesUnavailable] Azure's public price list could not be read from "
                           f"{azure_prices_server.endpoint}: HTTP 503")
    assert "The bundled prices are kept." in line and "— Check your internet connection" in line
    assert _azure_rows(labgpu_home) == before  # nothing partial was kept
    azure_prices_server.reset()
    ok = _run("prices", "refresh", "--public", "--json", home=labgpu_home)
    doc = json.loads(ok.stdout)
    assert doc["endpoint"] == azure_prices_server.endpoint
    assert len(doc["offers"]) == 4 and doc["missing"][0]["key"][2] == "Standard_ND96isr_H100_v5"


def test_azure_endpoint_needs_public_and_public_needs_no_account(labgpu_home):
    r = _run("prices", "refresh", "--azure-endpoint", "http://127.0.0.1:9/x", home=labgpu_home)
    assert r.returncode == 2
    assert "[AzureEndpointWithoutPublic]" in r.stderr
    r = _run("prices", "refresh", "--public", "--account", "lab", home=labgpu_home)
    assert r.returncode == 2
    assert "[PublicWithAccount]" in r.stderr
    r = _run("prices", "refresh", "--public", "--azure-endpoint", "ftp://mirror/prices", home=labgpu_home)
    assert r.returncode == 2
    assert "[AzurePricesEndpoint] The Azure prices address ftp://mirror/prices is not an http(s) URL." in r.stderr


def test_offers_shows_the_tencent_public_list_prices_with_their_source(labgpu_home):
    r = _run("offers", "--provider", "tencent", "--json", home=labgpu_home)
    assert r.returncode == 0, r.stderr
    rows = {row["instance_type"]: row for row in json.loads(r.stdout)}
    expected = {"GN7.2XLARGE32": (7.81, "1.26"), "GN7.5XLARGE80": (12.5, "2.01"),
                "GN10X.2XLARGE40": (16.21, "2.68"), "GN10Xp.2XLARGE40": (11.98, "1.72"),
                "GN10Xp.20XLARGE320": (95.84, "13.78")}
    for name, (cny, usd) in expected.items():
        row = rows[name]
        assert (row["price_on_demand"], row["currency"]) == (cny, "CNY"), name
        assert "价格总览" in row["price_source"] and "qcloud-documents" in row["price_source"]
        assert f"{usd} USD/h in Guangzhou zone 3" in row["notes"]
        assert row["price_origin"] == "bundled"
    assert rows["GN7vw.2XLARGE32"]["price_on_demand"] is None  # no public price: still unknown
    table = _run("offers", "--provider", "tencent", home=labgpu_home)
    assert "undated snapshot" in table.stdout
