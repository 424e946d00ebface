"""Rebuild resources/catalog/offers.csv from the pinned source extracts (maintainers' one command).

    python3 packaging/catalog.py            # rewrite offers.csv
    python3 packaging/catalog.py --check    # exit 1 (and say which rows) when offers.csv is not what
                                            # the sources give

Inputs (resources/catalog/sources/, see the README there and resources/catalog/README.md):
  instances.csv  one row per offer: what the instance is (GPU, vCPU, RAM, network, interconnect, notes)
  prices.csv     one row per price figure a source states, with the source, its origin and its date
  sources.csv    one row per source: its origin (URL / repository path @ commit) and how it was read

Rules applied here (and only here), so a price can change only through its source:
  * a figure given as a range "low-high" is stored as the low end; the note gives the range;
  * several zone rows of one kind and source (spot by zone): the lowest zone's price is stored;
  * unit "gpu": the figure is per GPU-hour and is multiplied by the offer's gpu_count;
  * unit "part": the rows of one source are summed (GCP: machine type + attached GPU);
  * several sources for one price: the newest dated one wins, a dated source beats an undated
    snapshot, and among undated ones the first listed wins; the losing figures go into the notes.
Only the standard library is used, so it runs with any python3.
"""

from __future__ import annotations

import argparse
import csv
import io
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CATALOG = ROOT / "resources" / "catalog"
SOURCES = CATALOG / "sources"

OFFER_COLUMNS = (
    "provider", "region", "instance_type", "gpu_model", "gpu_count", "vram_gb", "vcpu", "ram_gb",
    "network_gbps", "price_on_demand", "price_spot", "price_prepaid_month", "currency", "price_source",
    "price_date", "spot_available", "interconnect", "dedicated", "notes",
)
INSTANCE_COLUMNS = (
    "provider", "region", "instance_type", "gpu_model", "gpu_count", "vram_gb", "vcpu", "ram_gb",
    "network_gbps", "currency", "spot_available", "interconnect", "dedicated", "spec_source", "notes",
)
PRICE_COLUMNS = ("provider", "region", "instance_type", "kind", "amount", "unit", "currency", "source",
                 "retrieved", "zone", "notes")
SOURCE_COLUMNS = ("source", "origin", "retrieved", "how")
KINDS = {"on_demand": "on-demand", "spot": "spot", "prepaid_month": "prepaid"}
UNITS = ("instance", "gpu", "part")


class SourceError(ValueError):
    """A source row the rules cannot use; the message names file and line."""


@dataclass(frozen=True)
class Figure:
    line: int
    amount: str
    unit: str
    currency: str
    source: str
    retrieved: str
    zone: str
    notes: str


@dataclass(frozen=True)
class Price:
    value: float
    source: str
    retrieved: str
    notes: tuple[str, ...]


def _read(path: Path, columns: tuple[str, ...]) -> list[tuple[int, dict[str, str]]]:
    text = path.read_text(encoding="utf-8")
    reader = csv.DictReader(io.StringIO(text, newline=""))
    header = tuple(reader.fieldnames or ())
    if header != columns:
        raise SourceError(f"{path.name} line 1: header must be {','.join(columns)}")
    out = []
    for row in reader:
        if None in row:
            raise SourceError(f"{path.name} line {reader.line_num}: more cells than the header")
        out.append((reader.line_num, {k: (v or "").strip() for k, v in row.items()}))
    return out


def _fmt(value: float) -> str:
    text = f"{value:.6f}".rstrip("0").rstrip(".")
    return text or "0"


def _number(text: str, where: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise SourceError(f"{where}: not a number: {text!r}") from None
    if not value >= 0:
        raise SourceError(f"{where}: must be zero or more: {text!r}")
    return value


def _one_source(figures: list[Figure], gpu_count: float, kind: str, where: str) -> Price:
    """The stored figure of one source for one kind of price, with the notes its rule needs."""
    notes: list[str] = []
    units = {f.unit for f in figures}
    if len(units) != 1:
        raise SourceError(f"{where}: one source mixes units {sorted(units)}")
    unit = units.pop()
    first = figures[0]
    notes.extend(f.notes for f in figures if f.notes)
    if unit == "part":
        value = sum(_number(f.amount, f"{where} line {f.line}") for f in figures)
        parts = " + ".join(f"{f.notes or 'part'} {f.amount}" for f in figures)
        return Price(value, first.source, first.retrieved, (f"{KINDS[kind]} = {parts}",))
    if len(figures) > 1:
        values = [(_number(f.amount, f"{where} line {f.line}"), f) for f in figures]
        low, best = min(values, key=lambda t: t[0])
        high = max(v for v, _ in values)
        zone = f" ({best.zone})" if best.zone else ""
        notes = [f"{KINDS[kind]} stored = lowest zone's price{zone} of {_fmt(low)}-{_fmt(high)} "
                 f"over {len(values)} zone figures"] + [f.notes for f in figures if f.notes]
        value = low
    elif "-" in first.amount.strip("-"):
        lo_text, hi_text = first.amount.split("-", 1)
        low = _number(lo_text, f"{where} line {first.line}")
        high = _number(hi_text, f"{where} line {first.line}")
        if low > high:
            raise SourceError(f"{where} line {first.line}: range low end above high end")
        value = low
        notes.insert(0, f"{KINDS[kind]} stored = low end of the range {first.amount}")
    else:
        value = _number(first.amount, f"{where} line {first.line}")
    if unit == "gpu" and gpu_count != 1:
        notes.insert(0, f"{KINDS[kind]} = {_fmt(value)} per GPU-hour x {_fmt(gpu_count)} GPUs")
        value *= gpu_count
    return Price(round(value, 6), first.source, first.retrieved, tuple(notes))


def _pick(prices: list[Price]) -> tuple[Price, list[Price]]:
    """Newest dated source wins; dated beats undated; among undated the first listed wins."""
    dated = [p for p in prices if p.retrieved]
    winner = max(dated, key=lambda p: p.retrieved) if dated else prices[0]  # ISO dates sort as text
    return winner, [p for p in prices if p is not winner]


def build(sources_dir: Path = SOURCES) -> str:
    """The offers.csv text the sources give."""
    instances = _read(sources_dir / "instances.csv", INSTANCE_COLUMNS)
    price_rows = _read(sources_dir / "prices.csv", PRICE_COLUMNS)
    known_sources = {r["source"]: r for _, r in _read(sources_dir / "sources.csv", SOURCE_COLUMNS)}
    by_key: dict[tuple[str, str, str], dict[str, str]] = {}
    for line, row in instances:
        key = (row["provider"], row["region"], row["instance_type"])
        if key in by_key:
            raise SourceError(f"instances.csv line {line}: duplicate offer {'/'.join(key)}")
        by_key[key] = row
    figures: dict[tuple[str, str, str], dict[str, dict[str, list[Figure]]]] = {}
    for line, row in price_rows:
        key = (row["provider"], row["region"], row["instance_type"])
        where = f"prices.csv line {line}"
        if key not in by_key:
            raise SourceError(f"{where}: no such offer in instances.csv: {'/'.join(key)}")
        if row["kind"] not in KINDS:
            raise SourceError(f"{where}: kind must be one of {', '.join(KINDS)}")
        if row["unit"] not in UNITS:
            raise SourceError(f"{where}: unit must be one of {', '.join(UNITS)}")
        if row["currency"] != by_key[key]["currency"]:
            raise SourceError(f"{where}: currency {row['currency']} differs from the offer's "
                              f"{by_key[key]['currency']} (store the other currency in notes)")
        if row["source"] not in known_sources:
            raise SourceError(f"{where}: source {row['source']!r} is not described in sources.csv")
        if row["retrieved"] != known_sources[row["source"]]["retrieved"]:
            raise SourceError(f"{where}: retrieved {row['retrieved']!r} differs from sources.csv's "
                              f"{known_sources[row['source']]['retrieved']!r} for this source")
        fig = Figure(line, row["amount"], row["unit"], row["currency"], row["source"], row["retrieved"],
                     row["zone"], row["notes"])
        figures.setdefault(key, {}).setdefault(row["kind"], {}).setdefault(row["source"], []).append(fig)

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(OFFER_COLUMNS)
    for key, inst in by_key.items():
        gpu_count = _number(inst["gpu_count"], f"instances.csv {'/'.join(key)} gpu_count")
        chosen: dict[str, Price] = {}
        notes: list[str] = [inst["notes"]] if inst["notes"] else []
        for kind in KINDS:
            per_source = figures.get(key, {}).get(kind, {})
            if not per_source:
                continue
            where = f"prices.csv {'/'.join(key)} {kind}"
            prices = [_one_source(figs, gpu_count, kind, where) for figs in per_source.values()]
            winner, losers = _pick(prices)
            chosen[kind] = winner
            notes.extend(winner.notes)
            for lost in losers:
                if lost.retrieved:
                    why = "older"
                elif winner.retrieved:
                    why = "a dated source wins over an undated snapshot"
                else:
                    why = "both undated, the first listed wins"
                notes.append(f"{KINDS[kind]} {_fmt(lost.value)} per {lost.source} not used ({why})")
        used = {p.source for p in chosen.values()}
        if len(used) > 1:
            source = "; ".join(f"{KINDS[k]}: {p.source}" for k, p in chosen.items())
        else:
            source = next(iter(used), "")
        if not chosen and inst["spec_source"]:
            source = f"specs: {inst['spec_source']}; price: none public"
        elif inst["spec_source"]:
            source = f"{source}; specs: {inst['spec_source']}"
        main = chosen.get("on_demand") or chosen.get("spot") or chosen.get("prepaid_month")
        date = main.retrieved if main else ""
        spot = chosen.get("spot")
        if main is not None and spot is not None and spot.retrieved != date:
            notes.append("spot from an undated snapshot, on-demand dated" if not spot.retrieved
                         else f"spot dated {spot.retrieved}")

        def value(kind: str, chosen: dict[str, Price] = chosen) -> str:
            p = chosen.get(kind)
            return _fmt(p.value) if p else ""

        writer.writerow([
            inst["provider"], inst["region"], inst["instance_type"], inst["gpu_model"], inst["gpu_count"],
            inst["vram_gb"], inst["vcpu"], inst["ram_gb"], inst["network_gbps"], value("on_demand"),
            value("spot"), value("prepaid_month"), inst["currency"], source, date, inst["spot_available"],
            inst["interconnect"], inst["dedicated"], "; ".join(n.rstrip(". ") for n in notes if n),
        ])
    return out.getvalue()


def diff_rows(old: str, new: str) -> list[str]:
    """Human-readable differences between two offers.csv texts (by offer, then by column)."""
    def rows(text: str) -> dict[tuple[str, ...], dict[str, str]]:
        return {(r["provider"], r["region"], r["instance_type"]): r
                for r in csv.DictReader(io.StringIO(text, newline=""))}
    a, b = rows(old), rows(new)
    out = [f"only in the committed file: {'/'.join(k)}" for k in a if k not in b]
    out += [f"only in the rebuild: {'/'.join(k)}" for k in b if k not in a]
    for k in a.keys() & b.keys():
        for col in OFFER_COLUMNS:
            if a[k].get(col, "") != b[k].get(col, ""):
                out.append(f"{'/'.join(k)} {col}: committed {a[k].get(col, '')!r}, sources give "
                           f"{b[k].get(col, '')!r}")
    if not out and old != new:
        out.append("same values, different order or formatting")
    return sorted(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    parser.add_argument("--sources", type=Path, default=SOURCES, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, default=CATALOG / "offers.csv", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    try:
        text = build(args.sources)
    except (SourceError, OSError) as exc:
        print(f"catalog: {exc}", file=sys.stderr)
        return 2
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        problems = diff_rows(current, text)
        for p in problems:
            print(p)
        return 1 if problems else 0
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out} ({text.count(chr(10)) - 1} offers)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
