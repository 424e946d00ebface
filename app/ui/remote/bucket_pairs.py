"""What the Sync page's pair list says about a bucket pair: where it is, how big, what it costs a
month, and whether a running instance would pay egress to read it.

``BucketFacts`` is worked out on a worker (``bucket_facts``: the keyring, a full listing of the
pair's location, the storage price, the running instances of the ledger); ``BucketPairsPart`` keeps
one result per pair, starts what is missing through ``ctx.runner`` and tells the page when a row can
be drawn again. A location too big to count in full says "at least".
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Qt
from PySide6.QtWidgets import QTableWidgetItem

from app.core.buckets import SERVICE_NAMES, is_bucket_url, parse_bucket_url
from app.core.currency import money_text
from app.core.errors import LabGpuError
from app.core.i18n import translate
from app.core.store import Store
from app.core.syncpairs import SyncPair
from app.core.units import human_bytes
from app.ui import theme
from app.ui.context import AppContext
from app.ui.shared.plain import plain_tooltip


def is_bucket_pair(pair: SyncPair) -> bool:
    return not pair.host and is_bucket_url(pair.remote_path)


def where_text(pair: SyncPair) -> tuple[str, str]:
    """The pair list's first column and its tooltip: the host, or a bucket pair's service (short: S3,
    COS, OSS, OBS) and account."""
    if not is_bucket_pair(pair):
        return pair.host, pair.host
    try:
        scheme = parse_bucket_url(pair.remote_path).scheme
    except LabGpuError:
        return pair.account, pair.account
    short = scheme.upper()
    text = f"{short} · {pair.account}" if pair.account else short
    tip = QCoreApplication.translate("BucketPairs", "{service}, account {account}")
    return text, tip.format(service=SERVICE_NAMES[scheme], account=pair.account)


@dataclass
class BucketFacts:
    """A bucket pair's size, monthly storage cost and egress warnings (or why they are not known)."""

    location: str
    region: str = ""
    size: int | None = None
    objects: int = 0
    complete: bool = True
    amount: float | None = None
    currency: str = ""
    per_gb_month: float | None = None
    source: str = ""
    date: str = ""
    egress: list[str] = field(default_factory=list)
    error: str = ""

    def cell(self) -> str:
        """What the Storage column shows."""
        qt = QCoreApplication
        if self.size is None:
            return qt.translate("BucketPairs", "unknown")
        size = human_bytes(self.size)
        if not self.complete:
            size = qt.translate("BucketPairs", "≥ {size}").format(size=size)
        text = size
        if self.amount is not None:
            cost = money_text(self.amount, self.currency, 2)
            if self.amount < 0.01:
                cost = qt.translate("BucketPairs", "< {cost}").format(cost=money_text(0.01, self.currency, 2))
            text = qt.translate("BucketPairs", "{size} · {cost}/month").format(size=size, cost=cost)
        return ("⚠ " + text) if self.egress else text

    def tooltip(self) -> str:
        qt = QCoreApplication
        lines = []
        if self.size is None:
            lines.append(qt.translate("BucketPairs", "The size of {location} is not known: {why}").format(
                location=self.location, why=self.error))
        else:
            lines.append(qt.translate("BucketPairs", "{location}: {size}, objects: {objects}.").format(
                location=self.location, size=human_bytes(self.size), objects=str(self.objects)))
            if not self.complete:
                lines.append(qt.translate("BucketPairs", "At least that much: there are too many objects to count "
                                                         "them all."))
        if self.per_gb_month is not None:
            lines.append(qt.translate("BucketPairs", "Storage price in {region}: {price} per GB-month (standard "
                                                     "class), as of {date}, from:").format(
                region=self.region or "?", price=money_text(self.per_gb_month, self.currency), date=self.date))
            lines.append(self.source)
        elif self.size is not None:
            lines.append(qt.translate("BucketPairs", "No storage price is known for {region}; the monthly cost is "
                                                     "not shown.").format(region=self.region or "?"))
        lines += self.egress
        return "\n".join(lines)


def bucket_facts(store: Store, pair: SyncPair, cancel: threading.Event | None = None) -> BucketFacts:
    """Size and cost of a bucket pair's location; runs on a worker (keyring, network)."""
    from app.cloud.storage.browse import usage
    from app.core.storageprices import egress_warning, monthly_cost
    from app.usecases.buckets import resolve_bucket

    facts = BucketFacts(pair.remote_path)
    try:
        target, creds = resolve_bucket(pair.remote_path, pair.account, store=store)
    except LabGpuError as exc:
        facts.error = exc.text()
        return facts
    facts.region = target.region
    provider = target.url.provider
    try:
        u = usage(target, creds, cancel=cancel)
    except LabGpuError as exc:
        facts.error = exc.text()
        return facts
    facts.size, facts.objects, facts.complete = int(u.bytes), int(u.objects), bool(u.complete)
    cost = monthly_cost(provider, target.region, facts.size)
    if cost is not None:
        amount, price = cost
        facts.amount, facts.currency = amount, price.currency
        facts.per_gb_month, facts.source, facts.date = price.per_gb_month, price.source, price.date.isoformat()
    for inst_provider, inst_region, inst_id in running_instances(store):
        warning = egress_warning(provider, target.region, inst_provider, inst_region)
        if warning is not None:
            template, params = warning
            facts.egress.append(QCoreApplication.translate("BucketPairs", "{instance}: {warning}").format(
                instance=inst_id, warning=translate(template).format(**params)))
    return facts


def running_instances(store: Store) -> list[tuple[str, str, str]]:
    """(provider, region, id) of each running instance in the ledger: the machines a student syncs
    a bucket with (a job's data pulled from it, a checkpoint pushed to it)."""
    from app.core.instances import Ledger
    from app.core.vocab import InstanceState

    ledger = Ledger(store)
    return [(e.provider, e.region, e.id) for e in ledger.list(include_terminated=False)
            if e.state == InstanceState.RUNNING]


class BucketPairsPart(QObject):
    """One BucketFacts per bucket pair, worked out in the background; ``on_ready(pair_id)`` redraws."""

    def __init__(self, ctx: AppContext, on_ready: Callable[[int], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.on_ready = on_ready
        self.facts: dict[int, BucketFacts] = {}
        self.keys: dict[int, tuple[str, str]] = {}  # what each result was computed for
        self.tasks: dict[int, Any] = {}

    def update(self, pairs: list[SyncPair]) -> None:
        """Start a count for each bucket pair that has none (or whose location or account changed)."""
        for pair in pairs:
            if pair.id is None or not is_bucket_pair(pair):
                continue
            key = (pair.remote_path, pair.account)
            if self.keys.get(pair.id) == key and (pair.id in self.facts or pair.id in self.tasks):
                continue
            self.recount(pair)

    def recount(self, pair: SyncPair) -> None:
        """Count ``pair`` again (after a sync changed it)."""
        if pair.id is None or not is_bucket_pair(pair):
            return
        pid = pair.id
        old = self.tasks.pop(pid, None)
        if old is not None:
            old.cancel()
        self.keys[pid] = (pair.remote_path, pair.account)
        self.facts.pop(pid, None)

        store = self.ctx.store  # one connection per thread: the worker gets its own

        def work(task: Any = None) -> BucketFacts:
            return bucket_facts(store, pair, task.cancel_event if task is not None else None)

        def done(facts: BucketFacts) -> None:
            self.tasks.pop(pid, None)
            self.facts[pid] = facts
            self.on_ready(pid)

        def failed(exc: BaseException) -> None:
            self.tasks.pop(pid, None)
            self.facts[pid] = BucketFacts(pair.remote_path, error=str(exc)[:300])
            self.ctx.errors.report(exc)  # not a LabGpuError: a bug, logged with its traceback
            self.on_ready(pid)

        self.tasks[pid] = self.ctx.runner.run(self, work, name="bucket-facts", on_done=done, on_error=failed)

    def cell(self, pair: SyncPair) -> tuple[str, str]:
        """(text, tooltip) of the Storage column for ``pair``."""
        if not is_bucket_pair(pair):
            return "—", QCoreApplication.translate("BucketPairs", "Size and storage cost are shown for bucket "
                                                                  "pairs.")
        facts = self.facts.get(pair.id or -1)
        if facts is None:
            tip = QCoreApplication.translate("BucketPairs", "Listing the objects of {location} to add up their size…")
            return QCoreApplication.translate("BucketPairs", "counting…"), tip.format(location=pair.remote_path)
        return facts.cell(), facts.tooltip()

    def item(self, pair: SyncPair) -> QTableWidgetItem:
        """The Storage cell of ``pair`` (warning colour when a running instance pays egress)."""
        text, tip = self.cell(pair)
        item = QTableWidgetItem(text)
        item.setToolTip(plain_tooltip(tip))
        item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if self.egress(pair):
            item.setForeground(theme.color("warning"))
        return item

    def create_key(self, name: str, then: Callable[[], None], say: Callable[[str], None]) -> None:
        """Make the LabGPU key ``name`` in the keyring (a worker: the keyring may block), then ``then()``;
        ``say`` shows where it stands (the page's state line)."""
        from app.core.cryptkeys import CryptKeys

        keys = CryptKeys(store=self.ctx.store)
        say(QCoreApplication.translate("BucketPairs", "Making the key {name} in your keyring…").format(name=name))

        def made(_crypt: object) -> None:
            say(QCoreApplication.translate("BucketPairs", "Key {name} made. Save its recovery phrase: labgpu keys "
                                                          "export {name}").format(name=name))
            then()

        def failed(exc: BaseException) -> None:
            say("")
            self.ctx.errors.report(exc)

        self.ctx.runner.run(self, keys.create, name, name="crypt-key", on_done=made, on_error=failed)

    def egress(self, pair: SyncPair) -> list[str]:
        facts = self.facts.get(pair.id or -1)
        return list(facts.egress) if facts is not None else []

    def busy(self) -> bool:
        return bool(self.tasks)

    def shutdown(self) -> None:
        for t in self.tasks.values():
            t.cancel()
        self.tasks.clear()
