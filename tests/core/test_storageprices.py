"""Object storage prices: the bundled table loads with a source and a date on every row, costs are
computed in the services' GB (2**30 bytes), egress warnings fire across regions and clouds only."""

from __future__ import annotations

import csv
from datetime import date
from pathlib import Path

import pytest

from app.core import storageprices as sp
from app.core.i18n import translate
from app.core.resources import resource_path

BUNDLED = resource_path("catalog", "storage_prices.csv")
HEADER = "provider,region,per_gb_month,currency,egress_per_gb,source,date,notes"
GOOD = "aws,us-east-1,0.023,USD,0.09,https://aws.amazon.com/s3/pricing/,2026-12-05,n"


def test_bundled_table_loads_without_problems() -> None:
    load = sp.load_storage_prices()
    assert load.problems == []
    with BUNDLED.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(load.prices) == len(rows) > 0


def test_every_bundled_row_has_a_source_url_and_the_date_it_was_read() -> None:
    with BUNDLED.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    for row in rows:
        where = f"{row['provider']}/{row['region']}"
        assert row["source"].startswith("https://"), where
        assert date.fromisoformat(row["date"]) <= date.today(), where
        assert row["currency"] in ("USD", "CNY"), where
        assert float(row["per_gb_month"]) > 0, where


def test_students_regions_that_a_page_confirmed_are_there() -> None:
    for provider, region in [("aws", "us-east-1"), ("tencent", "ap-guangzhou"), ("tencent", "ap-shanghai"),
                             ("tencent", "ap-beijing")]:
        price = sp.storage_price(provider, region)
        assert price is not None, (provider, region)
        assert price.egress_per_gb is not None


def test_an_unconfirmed_region_has_no_price_rather_than_a_guess() -> None:
    assert sp.storage_price("aws", "eu-nowhere-9") is None
    assert sp.monthly_cost("huawei", "cn-nowhere-9", 10 * sp.GB) is None


def test_one_tib_in_us_east_1_costs_1024_gb_months() -> None:
    result = sp.monthly_cost("aws", "us-east-1", 1024**4)
    assert result is not None
    amount, price = result
    # AWS S3 FAQ: GB-Months = Byte-Hours / 1,073,741,824 / hours in the month, so 1 TiB = 1,024 GB
    assert price.per_gb_month == 0.023 and price.currency == "USD"
    assert amount == pytest.approx(1024 * 0.023)  # 23.552 USD
    assert sp.monthly_cost("aws", "us-east-1", 0) == (0.0, price)


def test_one_tib_in_guangzhou_is_priced_in_the_pages_currency() -> None:
    result = sp.monthly_cost("tencent", "ap-guangzhou", 1024**4)
    assert result is not None
    amount, price = result
    assert amount == pytest.approx(1024 * price.per_gb_month)
    assert price.currency == "USD"  # the international site's list price, as the row says


def test_no_warning_in_the_same_region_of_the_same_cloud() -> None:
    assert sp.egress_warning("tencent", "ap-guangzhou", "tencent", "ap-guangzhou") is None
    assert sp.egress_warning("aws", "us-east-1", "aws", "us-east-1") is None


def test_no_warning_when_the_instance_location_is_unknown() -> None:
    assert sp.egress_warning("aws", "us-east-1", "", "") is None
    assert sp.egress_warning("aws", "us-east-1", "aws", "") is None


def test_cross_region_warning_names_both_regions_and_the_egress_price() -> None:
    found = sp.egress_warning("tencent", "ap-guangzhou", "tencent", "ap-shanghai")
    assert found is not None
    template, params = found
    assert template == sp.CROSS_REGION
    text = translate(template).format(**params)
    assert "ap-guangzhou" in text and "ap-shanghai" in text
    assert "0.1 USD per GB" in text and "slowly" in text


def test_cross_region_warning_without_a_price_says_so() -> None:
    found = sp.egress_warning("aws", "ap-south-7", "aws", "us-east-1")
    assert found is not None
    template, params = found
    assert template == sp.CROSS_REGION_UNPRICED
    assert "no price for ap-south-7" in translate(template).format(**params)


def test_cross_cloud_warning_is_internet_egress_of_the_bucket_cloud() -> None:
    found = sp.egress_warning("aws", "us-east-1", "tencent", "ap-guangzhou")
    assert found is not None
    template, params = found
    assert template == sp.CROSS_CLOUD
    text = translate(template).format(**params)
    assert "internet" in text and "0.09 USD per GB" in text
    assert params["bucket_cloud"] != params["instance_cloud"]
    # same region name on two clouds is still two clouds
    found = sp.egress_warning("huawei", "ap-southeast-1", "aws", "ap-southeast-1")
    assert found is not None and found[0] == sp.CROSS_CLOUD_UNPRICED


def _write(tmp_path: Path, *lines: str, header: str = HEADER) -> Path:
    path = tmp_path / "storage_prices.csv"
    path.write_text("\n".join([header, *lines]) + "\n", encoding="utf-8")
    return path


def test_bad_rows_are_named_by_file_and_line_and_the_rest_loads(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        GOOD,
        "",
        "aws,us-west-2,0.023,USD,0.09,,2026-12-05,no source",
        "aws,ap-east-1,abc,USD,0.09,https://x.example/,2026-12-05,",
        "nocloud,us-east-1,0.02,USD,,https://x.example/,2026-12-05,",
        "aws,eu-west-1,0.02,EUR,,https://x.example/,2026-12-05,",
        "aws,eu-west-2,0.02,USD,,https://x.example/,05/12/2026,",
        "aws,us-east-1,0.5,USD,,https://x.example/,2026-12-05,duplicate",
        "tencent,ap-tokyo,0.02,USD,,https://x.example/,2026-12-05,no egress is fine",
    )
    load = sp.load_storage_prices(path)
    assert set(load.prices) == {("aws", "us-east-1"), ("tencent", "ap-tokyo")}
    assert load.prices[("aws", "us-east-1")].per_gb_month == 0.023
    assert load.prices[("tencent", "ap-tokyo")].egress_per_gb is None
    lines = {p.split(":")[0] for p in load.problems}
    assert lines == {f"storage_prices.csv line {n}" for n in (4, 5, 6, 7, 8, 9)}
    assert any("source URL" in p for p in load.problems)
    assert any("duplicate aws/us-east-1" in p for p in load.problems)


def test_a_file_without_the_columns_is_skipped_and_said(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD, header="provider,region,price")
    load = sp.load_storage_prices(path)
    assert load.prices == {}
    assert load.problems and load.problems[0].startswith("storage_prices.csv line 1: header lacks")


def test_a_missing_file_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    load = sp.load_storage_prices(tmp_path / "storage_prices.csv")
    assert load.prices == {} and "cannot read" in load.problems[0]


def test_a_price_says_where_it_comes_from() -> None:
    price = sp.storage_price("aws", "us-east-1")
    assert price is not None
    text = str(price)
    assert "0.023 USD/GB-month" in text and price.source in text and "read 2026-12-05" in text
