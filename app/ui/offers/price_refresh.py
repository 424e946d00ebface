"""The offers page's background jobs that fetch prices: live prices with every cloud account, and
Azure's public price list (no account). Both run on the pool; the page reloads the catalog after.
Texts keep the page's translation context ("OffersPage")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication

if TYPE_CHECKING:
    from app.cloud.launch import CloudService
    from app.cloud.public_prices import PublicRefresh
    from app.core.errors import LabGpuError
    from app.core.paths import Paths
    from app.ui.offers.page import OffersPage
    from app.ui.tasks import Task


def refresh_live_prices(service: CloudService) -> tuple[int, dict[str, LabGpuError]]:
    """(number of live prices fetched, {account: error}) through the app's CloudService."""
    errors: dict[str, LabGpuError] = {}
    offers = service.refresh_prices(errors=errors)
    return len(offers), errors


def refresh_public_prices(endpoint: str, paths: Paths, task: Task | None = None) -> PublicRefresh:
    """Azure's public prices, reporting (done, total, what) to `task` as each part arrives."""
    from app.cloud.public_prices import refresh_public_prices as fetch

    def report(done: int, total: int, what: str) -> None:
        if task is not None:
            task.report((done, total, what))

    return fetch(azure_endpoint_setting=endpoint, paths=paths, progress=report if task is not None else None)


class PriceRefresh:
    """What the "Refresh live prices" and "Refresh public prices" buttons start, and how the page
    shows the outcome (button states, progress, the status line, errors with their next step).
    Jobs run under the page as owner: a page rebuilt meanwhile (language switch) drops them."""

    def __init__(self, page: OffersPage) -> None:
        self.page = page

    # -- live prices (every account) -------------------------------------------------------------
    def fetch_live(self) -> None:
        """Fetch live prices with every account (off the GUI thread), then reload the table."""
        from app.ui.shared.services import cloud_service

        page = self.page
        page.live_button.setEnabled(False)
        page.status_label.setText(
            QCoreApplication.translate("OffersPage", "Fetching live prices from your cloud accounts…"))
        page.ctx.runner.run(page, refresh_live_prices, cloud_service(page.ctx), name="offers.live_prices",
                            on_done=self._live_done, on_error=self._live_failed)

    def _live_done(self, result: tuple[int, dict[str, LabGpuError]]) -> None:
        page = self.page
        count, errors = result
        page.live_button.setEnabled(True)
        for exc in errors.values():
            page.ctx.errors.report(exc)
        failed = ", ".join(sorted(errors))
        if failed:
            text = QCoreApplication.translate(
                "OffersPage", "{n} live prices fetched; these accounts failed: {names}.").format(n=count, names=failed)
        else:
            text = QCoreApplication.translate("OffersPage", "{n} live prices fetched.").format(n=count)
        page.last_live_message = text
        page.start_loading()

    def _live_failed(self, exc: BaseException) -> None:
        page = self.page
        page.live_button.setEnabled(True)
        if getattr(exc, "code", "") == "NoAccount":
            page.last_live_message = QCoreApplication.translate(
                "OffersPage", "No cloud account yet: add one on the Accounts page to fetch live prices.")
            page.status_label.setText(page.last_live_message)
            page.ctx.navigate("accounts")
            return
        page.last_live_message = ""
        page.status_label.setText(QCoreApplication.translate("OffersPage", "Live prices could not be fetched."))
        page.ctx.errors.report(exc)

    # -- public prices (no account) --------------------------------------------------------------
    def fetch_public(self) -> None:
        """Fetch Azure's public price list off the GUI thread, with progress, then reload the table."""
        page = self.page
        page.public_button.setEnabled(False)
        page.public_progress.setRange(0, 0)
        page.public_progress.show()
        page.status_label.setText(QCoreApplication.translate("OffersPage", "Fetching Azure's public price list…"))
        endpoint = str(getattr(page.ctx.settings, "azure_prices_endpoint", "") or "")
        page.ctx.runner.run(page, refresh_public_prices, endpoint, page.ctx.paths, name="offers.public_prices",
                            on_done=self._public_done, on_error=self._public_failed,
                            on_progress=self._public_progress)

    def _public_progress(self, payload: tuple[int, int, str]) -> None:
        page = self.page
        done, total, what = payload
        page.public_progress.setRange(0, max(1, int(total)))
        page.public_progress.setValue(int(done))
        if what:
            page.status_label.setText(
                QCoreApplication.translate(
                    "OffersPage", "Fetching Azure's public prices: {what} ({number} of {total})…").format(
                    what=str(what), number=str(int(done) + 1), total=str(total)))

    def _public_done(self, result: PublicRefresh) -> None:
        page = self.page
        page.public_button.setEnabled(True)
        page.public_progress.hide()
        offers, missing, fetched = result.offers, result.missing, result.fetched_at
        when = fetched.strftime("%Y-%m-%d %H:%M UTC") if fetched else ""
        text = QCoreApplication.translate(
            "OffersPage", "{count} Azure prices fetched from the public price list at {when}.").format(
                count=str(len(offers)), when=when)
        if missing:
            text += " " + QCoreApplication.translate(
                "OffersPage", "No public price for {items}: the bundled price is kept.").format(
                    items=", ".join(key[2] for key, _reason in missing))
        refused = result.refused
        if refused:  # ≤ 0, not finite, or far from the bundled price: not believed
            text += " " + QCoreApplication.translate(
                "OffersPage", "Prices not believable, so not used (the bundled price is kept): {prices}.").format(
                    prices="; ".join(f"{key[2]}: {why}" for key, why in refused[:10]))
        page.last_live_message = text
        page.start_loading()

    def _public_failed(self, exc: BaseException) -> None:
        page = self.page
        page.public_button.setEnabled(True)
        page.public_progress.hide()
        text = exc.text() if hasattr(exc, "text") else str(exc)
        hint = exc.hint() if hasattr(exc, "hint") else ""
        page.last_live_message = text + (f" {hint}" if hint else "")
        page.status_label.setText(page.last_live_message)
        page.ctx.errors.report(exc)
