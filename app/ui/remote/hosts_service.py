"""Live SSH connections and tunnels of the desktop app, kept outside the page (pages are rebuilt on
a language change; connections must not drop because of that).

Lives in ``ctx.services.hosts``. Every blocking step (dial, auth, keyring, close) runs through
``ctx.runner``; results come back as signals on the GUI thread. A connection that drops while the
user wanted it is re-established with backoff; one the user disconnected stays down.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from PySide6.QtCore import QObject, QTimer, Signal

from app.core.errors import LabGpuError
from app.core.hosts import HostRecord, HostStore
from app.remote.hostkeys import HostKeyChangedError, HostKeyPrompt, HostKeyUnknownError, KnownHosts
from app.remote.ssh import Connection, HostAuthError, resolve_target
from app.remote.tunnels import LocalForward
from app.ui.context import AppContext
from app.usecases import hosts as host_cases

log = logging.getLogger(__name__)

DISCONNECTED, CONNECTING, CONNECTED, ERROR, RECONNECTING = (
    "disconnected",
    "connecting",
    "connected",
    "error",
    "reconnecting",
)


@dataclass(frozen=True)
class PendingAdd:
    """A host being added: saved only once it answered with a key the user accepted."""

    record: HostRecord
    password: str = field(default="", repr=False)
    passphrase: str = field(default="", repr=False)
    connect: bool = True


@dataclass
class HostState:
    state: str = DISCONNECTED
    message: str = ""
    fingerprint: str = ""


class HostConnectionService(QObject):
    """Owns the app's Connection objects (one per host) and their port forwards."""

    state_changed = Signal(str)  # host name
    host_key_prompted = Signal(str, object)  # host name, HostKeyPrompt
    host_key_changed = Signal(str, object)  # host name, HostKeyChangedError
    add_key_prompted = Signal(object, object)  # PendingAdd (not saved yet), HostKeyPrompt
    add_failed = Signal(str, str, str)  # host name, why it was not added, what to do
    add_done = Signal(str)  # host name: it answered and was saved
    forward_opened = Signal(str, int, str)  # host name, remote port, local URL
    forward_failed = Signal(str, int, str)  # host name, remote port, why
    hosts_changed = Signal()

    WATCH_MS = 5000

    def __init__(self, ctx: AppContext) -> None:
        super().__init__()
        self.ctx = ctx
        self.connections: dict[str, Connection] = {}
        self.states: dict[str, HostState] = {}
        self.forwards: dict[tuple[str, int], LocalForward] = {}
        self._wanted: set[str] = set()
        self._busy: set[str] = set()
        self._closed = False
        self._timer = QTimer(self)
        self._timer.setInterval(self.WATCH_MS)
        self._timer.timeout.connect(self._on_timer_timeout)
        self._timer.start()

    @classmethod
    def of(cls, ctx: AppContext) -> HostConnectionService:
        svc = ctx.services.hosts
        if not isinstance(svc, cls):
            svc = cls(ctx)
            ctx.services.hosts = svc
        return svc

    # -- host records ------------------------------------------------------------------------------
    def store(self) -> HostStore:
        return HostStore(self.ctx.store)

    def hosts(self) -> list[tuple[HostRecord, str]]:
        """(record, source) for saved hosts and launched instances (usecases.hosts.all_hosts)."""
        return [(e.record, str(e.source)) for e in host_cases.all_hosts(self.ctx.paths, self.ctx.store)]

    def record(self, name: str) -> HostRecord | None:
        for rec, _src in self.hosts():
            if rec.name == name:
                return rec
        return None

    def state(self, name: str) -> HostState:
        return self.states.setdefault(name, HostState())

    def known_fingerprint(self, rec: HostRecord) -> str:
        try:
            t = resolve_target(rec, self.ctx.paths)
        except LabGpuError:
            return ""
        fps = KnownHosts(self.ctx.paths).fingerprints(t.hostname, t.port)
        return fps[0] if fps else ""

    def _set(self, name: str, state: str, message: str = "", fingerprint: str | None = None) -> None:
        st = self.state(name)
        st.state, st.message = state, message
        if fingerprint is not None:
            st.fingerprint = fingerprint
        self.state_changed.emit(name)

    # -- add / remove ---------------------------------------------------------------------------
    def add_host(
        self,
        rec: HostRecord,
        password: str = "",
        passphrase: str = "",
        connect: bool = True,
        accepted: HostKeyPrompt | None = None,
    ) -> None:
        """Connect to the new host and check its key, then save it with its secrets (off the GUI
        thread) — the same use case as `labgpu hosts add`: a host that cannot be reached, refuses the
        login or whose key is refused is not saved. An unknown key comes back as `add_key_prompted`;
        after the user compared it, call again with `accepted` = that prompt."""
        from app.usecases.hosts import AddedHost, accept_only
        from app.usecases.hosts import add_host as add_host_usecase

        paths = self.ctx.paths
        accept = accept_only([accepted.fingerprint]) if accepted is not None else None
        pending = PendingAdd(rec, password, passphrase, connect)

        def job() -> AddedHost:
            added = add_host_usecase(
                rec,
                paths,
                accept=accept,
                password=password or None,
                passphrase=passphrase or None,
                keep_connection=connect,
                hosts=self.store(),
                changes=self.ctx.changes,
            )
            if self._closed and added.connection is not None:  # the app is shutting down
                added.connection.close()
            return added

        def done(added: AddedHost) -> None:
            self.hosts_changed.emit()
            self.add_done.emit(rec.name)
            conn = added.connection
            if conn is None:
                return
            if self._closed:
                self.ctx.runner.run(None, conn.close, name=f"close:{rec.name}")
                return
            self.connections[rec.name] = conn
            self._wanted.add(rec.name)
            self._set(rec.name, CONNECTED, "", added.fingerprint)

        def failed(exc: BaseException) -> None:
            if isinstance(exc, HostKeyUnknownError):
                self.add_key_prompted.emit(pending, exc.prompt)
                return
            if isinstance(exc, LabGpuError):  # said where the host is being added (the dialog), once
                log.info("host %s not added: %s", rec.name, exc.one_line())
                self.add_failed.emit(rec.name, exc.text(), exc.hint())
                return
            self.add_failed.emit(rec.name, f"{type(exc).__name__}: {exc}", "")
            self._report(exc)  # a bug: logged with its traceback and shown once

        self.ctx.runner.run(self, job, name=f"add-host:{rec.name}", on_done=done, on_error=failed)

    def remove_host(self, name: str) -> None:
        self.disconnect_host(name)

        def job() -> None:
            host_cases.remove_host(name, self.store(), changes=self.ctx.changes)

        def done(_r: object) -> None:
            self.states.pop(name, None)
            self.hosts_changed.emit()

        self.ctx.runner.run(self, job, name=f"remove-host:{name}", on_done=done, on_error=self._report)

    # -- connect / disconnect -------------------------------------------------------------------
    def connect_host(self, name: str) -> None:
        if name in self._busy or self._closed:
            return
        rec = self.record(name)
        if rec is None:
            return
        self._wanted.add(name)
        self._busy.add(name)
        self._set(name, CONNECTING)
        paths = self.ctx.paths

        def job() -> Connection:
            conn = Connection(rec, paths, accept=None).connect()
            if self._closed:  # the app is shutting down: the GUI may never see `done`
                conn.close()
            return conn

        def done(conn: Connection) -> None:
            self._busy.discard(name)
            if self._closed or name not in self._wanted:
                self.ctx.runner.run(self, conn.close, name=f"close:{name}")
                return
            self.connections[name] = conn
            self._set(name, CONNECTED, "", conn.fingerprint)

        def failed(exc: BaseException) -> None:
            self._busy.discard(name)
            if isinstance(exc, HostKeyUnknownError):
                self._wanted.discard(name)
                self._set(name, DISCONNECTED, exc.text(), "")
                self.host_key_prompted.emit(name, exc.prompt)
                return
            if isinstance(exc, HostKeyChangedError):
                self._wanted.discard(name)
                self._set(name, ERROR, exc.text(), exc.fingerprint)
                self.host_key_changed.emit(name, exc)
                return
            if isinstance(exc, HostAuthError):
                self._wanted.discard(name)
            self._set(name, ERROR, exc.text() if isinstance(exc, LabGpuError) else str(exc))
            self._report(exc)

        self.ctx.runner.run(self, job, name=f"connect:{name}", on_done=done, on_error=failed)

    def accept_host_key(self, name: str, prompt: HostKeyPrompt) -> None:
        """The user compared and accepted exactly this key: remember it and connect."""

        def job() -> None:
            host_cases.accept_host_key(name, prompt, self.ctx.paths, hosts=self.store(), changes=self.ctx.changes)

        self.ctx.runner.run(
            self, job, name=f"accept-key:{name}", on_done=lambda _r: self.connect_host(name), on_error=self._report
        )

    def forget_host_key(self, name: str, reconnect: bool = True) -> None:
        rec = self.record(name)
        if rec is None:
            return

        def job() -> None:
            host_cases.forget_host_key(rec, self.ctx.paths, changes=self.ctx.changes)

        def done(_r: object) -> None:
            self._set(name, DISCONNECTED, "", "")
            if reconnect:
                self.connect_host(name)

        self.ctx.runner.run(self, job, name=f"forget-key:{name}", on_done=done, on_error=self._report)

    def disconnect_host(self, name: str) -> None:
        self._wanted.discard(name)
        for key in [k for k in self.forwards if k[0] == name]:
            fwd = self.forwards.pop(key)
            self.ctx.runner.run(self, fwd.stop, name=f"forward-stop:{name}")
        conn = self.connections.pop(name, None)
        if conn is not None:
            self.ctx.runner.run(self, conn.close, name=f"disconnect:{name}")
        if name in self.states:
            self._set(name, DISCONNECTED)

    # -- forwards -------------------------------------------------------------------------------
    def open_forward(self, name: str, remote_port: int) -> None:
        existing = self.forwards.get((name, remote_port))
        if existing is not None:
            self.forward_opened.emit(name, remote_port, existing.url)
            return
        conn = self.connections.get(name)
        if conn is None:
            return

        def job() -> LocalForward:
            fwd = LocalForward(conn, remote_port).start()
            if not fwd.check_remote():
                fwd.stop()
                from app.core.i18n import QT_TRANSLATE_NOOP
                from app.remote.tunnels import TunnelError

                raise TunnelError(
                    QT_TRANSLATE_NOOP("LabGPU", "Nothing listens on port {port} of {host}."),
                    QT_TRANSLATE_NOOP(
                        "LabGPU",
                        "Start it on the server first, e.g. 'tensorboard --logdir "
                        "runs' "
                        "or 'jupyter lab --no-browser'; it must listen on 127.0.0.1.",
                    ),
                    code="NothingListens",
                    port=remote_port,
                    host=name,
                )
            return fwd

        def done(fwd: LocalForward) -> None:
            if self._closed:
                fwd.stop()
                return
            self.forwards[(name, remote_port)] = fwd
            self.forward_opened.emit(name, remote_port, fwd.url)

        def failed(exc: BaseException) -> None:
            self.forward_failed.emit(name, remote_port, exc.text() if isinstance(exc, LabGpuError) else str(exc))
            self._report(exc)

        self.ctx.runner.run(self, job, name=f"forward:{name}:{remote_port}", on_done=done, on_error=failed)

    # -- watchdog -------------------------------------------------------------------------------
    def _on_timer_timeout(self) -> None:
        for name, conn in list(self.connections.items()):
            if name in self._busy or conn.is_active:
                continue
            self._busy.add(name)
            self._set(name, RECONNECTING)

            def job(conn: Connection = conn, task: object = None) -> Connection:
                return conn.ensure(cancelled=lambda: self._closed or bool(getattr(task, "cancelled", False)))

            def done(c: Connection, name: str = name) -> None:
                self._busy.discard(name)
                self._set(name, CONNECTED if c.is_active else ERROR, "", c.fingerprint)

            def failed(exc: BaseException, name: str = name) -> None:
                self._busy.discard(name)
                self.connections.pop(name, None)
                self._set(name, ERROR, exc.text() if isinstance(exc, LabGpuError) else str(exc))

            self.ctx.runner.run(self, job, name=f"reconnect:{name}", on_done=done, on_error=failed)

    def _report(self, exc: BaseException) -> None:
        self.ctx.errors.report(exc, "hosts")

    def close(self) -> None:
        """Stop every forward and connection (blocking briefly; called at app shutdown)."""
        self._closed = True
        self._timer.stop()
        for fwd in list(self.forwards.values()):
            fwd.stop()
        self.forwards.clear()
        for conn in list(self.connections.values()):
            conn.close()
        self.connections.clear()
