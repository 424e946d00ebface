"""The Paperspace plugin against the local peer (tests/fixtures/paperspace_server.py): the bearer key, paging,
launch with the run-once key script and the ML-in-a-Box template, region failover after a no-capacity answer,
start/stop/delete polled to their states, a dynamic IP read again after a start (and the host LabGPU keeps for
the instance following it), each documented error code, the importer from ~/.paperspace."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.cloud.base import AuthError, CapacityError, CloudError, LaunchRequest, NotSupportedError, ThrottledError
from app.cloud.launch import CloudService
from app.cloud.launch_plan import LaunchOptions
from app.cloud.paperspace.errors import DOCUMENTED_ERROR_CODES, STATUS_CODES, TABLE
from app.cloud.paperspace.importer import import_candidates
from app.cloud.paperspace.provider import PaperspaceProvider
from app.core.accounts import Account, Credentials
from app.core.hosts import instance_hosts
from tests.fixtures.paperspace_server import CREATE_FIELDS, TEST_API_KEY, TEST_TEAM, PaperspaceServer

CREDS = Credentials("", TEST_API_KEY)
ED25519 = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl labgpu@test"
SSH_FROM = "198.51.100.7/32"


@pytest.fixture(scope="module")
def peer_session() -> Iterator[PaperspaceServer]:
    server = PaperspaceServer().start()
    yield server
    server.stop()


@pytest.fixture
def peer(peer_session: PaperspaceServer) -> Iterator[PaperspaceServer]:
    peer_session.reset()
    yield peer_session
    peer_session.reset()


@pytest.fixture
def provider() -> PaperspaceProvider:
    p = PaperspaceProvider(sleep=lambda s: None)  # the peer moves a machine on each read, not on time
    p.retry_base_delay = 0.0
    p.operation_timeout = 10
    return p


@pytest.fixture
def acc(peer) -> Account:
    return Account("ps", "paperspace", "ny2", peer.endpoint)


def _req(**kw) -> LaunchRequest:
    values = {"instance_type": "A100-80G", "region": "ny2", "zone": "ny2", "public_key": ED25519,
              "ssh_key_name": "labgpu-0123456789abcdef", "ssh_cidr": SSH_FROM, "client_token": "lg-abc",
              "name": "labgpu-abc", "disk_gb": 100}
    values.update(kw)
    return LaunchRequest(**values)


def test_validate_names_the_team_and_a_wrong_key_is_refused(peer, provider, acc):
    assert TEST_TEAM in provider.validate(acc, CREDS)
    assert peer.calls[-1].path == "/v1/auth/session" and peer.calls[-1].authorized
    with pytest.raises(AuthError) as err:
        provider.validate(acc, Credentials("", "not-the-key"))
    assert err.value.code == "UNAUTHORIZED"
    assert "API key" in err.value.hint() and "API Keys" in err.value.hint()


def test_launch_sends_the_documented_body_with_the_key_script_and_the_ml_template(peer, provider, acc):
    steps: list[tuple[str, str]] = []
    inst = provider.launch(acc, CREDS, _req(), lambda s, m="": steps.append((s, m)))
    [body] = peer.requests("POST", "/v1/machines")
    assert set(body) <= CREATE_FIELDS
    assert (body["machineType"], body["region"], body["templateId"], body["diskSize"], body["publicIpType"]) == (
        "A100-80G", "ny2", "tml2204a", 100, "dynamic")  # the newest ML-in-a-Box template that takes the type
    [script] = peer.scripts.values()
    assert body["startupScriptId"] == script["id"] and script["isRunOnce"]
    assert " ".join(ED25519.split()[:2]) in script["script"] and "/home/paperspace/.ssh" in script["script"]
    assert "token=lg-abc" in body["name"]
    assert (inst.state, inst.region, inst.tags["labgpu:ssh-user"]) == ("pending", "ny2", "paperspace")
    assert any(s == "image" and "ML-in-a-Box" in m for s, m in steps)
    # the same key again: the startup script is reused, not made twice
    provider.launch(acc, CREDS, _req(client_token="lg-def"))
    assert len(peer.scripts) == 1
    assert provider.find_by_client_token(acc, CREDS, "lg-def").id != inst.id
    assert provider.find_by_client_token(acc, CREDS, "lg-abc").id == inst.id
    assert provider.find_by_client_token(acc, CREDS, "lg-zzz") is None


def test_no_capacity_in_a_region_is_a_capacity_error_naming_it(peer, provider, acc):
    peer.no_capacity("ny2", "A100-80G")
    with pytest.raises(CapacityError) as err:
        provider.launch(acc, CREDS, _req())
    assert "ny2" in err.value.text() and peer.requests("POST", "/v1/machines") == []
    # the create's own refusal (availability changed between the two calls) is read the same way
    peer.unavailable.clear()
    peer.fail_next("POST", "/v1/machines", 400, "BAD_REQUEST", "A100-80G is not available in ny2 right now")
    with pytest.raises(CapacityError):
        provider.launch(acc, CREDS, _req())


def test_the_launcher_fails_over_to_the_next_region_and_start_reads_the_new_dynamic_ip(
        peer, provider, secret_service, labgpu_home):
    peer.no_capacity("ny2", "A100-80G")
    svc = CloudService(provider_factory=lambda pid: provider)
    try:
        svc.accounts.add(Account("ps", "paperspace", "ny2", peer.endpoint), CREDS)
        said: list[tuple[str, str]] = []
        res = svc.launch(LaunchOptions(account="ps", instance_type="A100-80G", ssh_from=SSH_FROM),
                         lambda s, m="": said.append((s, m)))
        entry = res.entry
        assert (entry.region, entry.state) == ("ca1", "running") and entry.public_ip
        assert any(s == "zone" and "ny2" in m and "ca1" in m for s, m in said)
        assert [b["region"] for b in peer.requests("POST", "/v1/machines")] == ["ca1"]
        [host] = [h for h in instance_hosts() if h.instance_id == entry.id]
        first_ip = host.hostname
        assert (host.user, first_ip) == ("paperspace", entry.public_ip)

        stopped, note = svc.stop(entry.id)
        assert stopped.state == "stopped" and "disk still bills" in note and "new address" in note
        assert peer.machines[entry.id].state == "off" and not peer.machines[entry.id].public_ip
        started = svc.start(entry.id)
        assert started.state == "running" and started.public_ip and started.public_ip != first_ip
        [host] = [h for h in instance_hosts() if h.instance_id == entry.id]
        assert host.hostname == started.public_ip == peer.machines[entry.id].public_ip

        gone = svc.terminate(entry.id)
        assert gone.state == "terminated" and peer.machines[entry.id].deleted
    finally:
        svc.close()


def test_a_static_ip_is_kept_and_said_to_bill_while_stopped(peer, provider):
    acc = Account("ps", "paperspace", "ny2", peer.endpoint, {"public_ip_type": "static"})
    inst = provider.launch(acc, CREDS, _req())
    machine = peer.machines[inst.id]
    ip = machine.public_ip
    while machine.state != "ready":
        provider.machine(acc, CREDS, inst.id)
    note = provider.stop(acc, CREDS, inst.id)
    assert "static public IP" in note and machine.public_ip == ip
    provider.start(acc, CREDS, inst.id)
    assert machine.public_ip == ip and machine.ips == [ip]


def test_lists_are_read_page_by_page(peer, provider, acc):
    for i in range(130):
        provider.launch(acc, CREDS, _req(client_token=f"lg-{i:03d}"))
    listed = provider.list_instances(acc, CREDS)
    assert len({i.id for i in listed}) == 130
    gets = [c for c in peer.calls if c.method == "GET" and c.path == "/v1/machines"]
    assert len(gets) == 2 and gets[0].query["limit"] == "120" and gets[1].query.get("after")


@pytest.mark.parametrize("code", DOCUMENTED_ERROR_CODES)
def test_each_documented_code_is_a_sentence_and_a_next_step(peer, provider, acc, code):
    status = next((s for s, c in STATUS_CODES.items() if c == code), 400)
    peer.fail_next("GET", "/v1/auth/session", status, code, "the cloud's own words", times=10)
    with pytest.raises(Exception) as err:
        provider.validate(acc, CREDS)
    exc = err.value
    assert exc.code == code and code in TABLE
    assert exc.text() and exc.hint() and "{" not in exc.text() + exc.hint()
    if code == "TOO_MANY_REQUESTS":
        assert isinstance(exc, ThrottledError)
        assert len([c for c in peer.calls if c.path == "/v1/auth/session"]) == provider.max_attempts


def test_throttling_is_retried_and_not_shown(peer, provider, acc):
    peer.fail_next("GET", "/v1/auth/session", 429, "TOO_MANY_REQUESTS", "slow down", times=2)
    assert TEST_TEAM in provider.validate(acc, CREDS)


def test_an_answer_without_a_json_body_is_named_by_its_status(peer, provider, acc):
    peer.fail_next("GET", "/v1/auth/session", 403, "FORBIDDEN", "")
    with pytest.raises(Exception) as err:
        provider.validate(acc, CREDS)
    assert err.value.code == "FORBIDDEN"


def test_no_price_list_is_said_plainly(provider, acc):
    with pytest.raises(NotSupportedError) as err:
        provider.refresh_prices(acc, CREDS, ["A100-80G"])
    assert err.value.code == "NoPriceApi" and "bundled catalog" in err.value.text()


def test_refreshing_every_account_leaves_paperspace_out_and_says_why_when_it_is_the_only_one(
        peer, provider, secret_service, labgpu_home):
    """The Offers page's Refresh asks every account: a cloud without a price API is not asked (it would fail
    the same way on every click); with only such accounts, one sentence says the catalog's prices stay."""
    from app.core.errors import InputError

    svc = CloudService(provider_factory=lambda pid: provider)
    try:
        svc.accounts.add(Account("ps", "paperspace", "ny2", peer.endpoint), CREDS)
        errors: dict = {}
        with pytest.raises(InputError) as err:
            svc.refresh_prices(errors=errors)
        assert err.value.code == "NoPriceApi" and "Paperspace" in err.value.text() and errors == {}
        with pytest.raises(NotSupportedError):  # named, the account still says why
            svc.refresh_prices("ps")
    finally:
        svc.close()


def test_import_reads_the_pspace_files_as_the_cli_does(tmp_path):
    folder = tmp_path / ".paperspace"
    folder.mkdir()
    (folder / "credentials.toml").write_text('version = 1\n[keys]\nother = "ps-other-key"\nlab = "ps-lab-key"\n')
    (folder / "config.toml").write_text('version = 1\nteam = "lab"\n')
    found = import_candidates({"HOME": str(tmp_path), "PAPERSPACE_API_KEY": "ps-env-key"})
    assert [(c.account.name, c.credentials.key_id, c.credentials.secret, c.source) for c in found] == [
        ("paperspace-lab", "", "ps-lab-key", "pspace-team:lab"),
        ("paperspace-other", "", "ps-other-key", "pspace-team:other"),
        ("paperspace-env", "", "ps-env-key", "env:PAPERSPACE_API_KEY"),
    ]
    assert all(c.account.region == "ny2" for c in found)
    assert import_candidates({"HOME": str(tmp_path / "nobody")}) == []
    (folder / "credentials.toml").write_text("keys = [not toml")
    with pytest.raises(Exception) as err:
        import_candidates({"HOME": str(tmp_path)})
    assert err.value.code == "BadPspaceConfig"


def test_a_chosen_region_is_kept_when_it_has_no_capacity(peer, provider, secret_service, labgpu_home):
    peer.no_capacity("ams1", "A100-80G")
    svc = CloudService(provider_factory=lambda pid: provider)
    try:
        svc.accounts.add(Account("ps", "paperspace", "ny2", peer.endpoint), CREDS)
        with pytest.raises(CapacityError) as err:
            svc.launch(LaunchOptions(account="ps", instance_type="A100-80G", zone="ams1", ssh_from=SSH_FROM))
        assert "ams1" in err.value.text() and "because you chose it" in err.value.hint()
        assert [c.query["region"] for c in peer.calls if c.path == "/v1/machine-availability"] == ["ams1"]
        assert peer.requests("POST", "/v1/machines") == []
    finally:
        svc.close()


def test_a_launch_cut_short_is_found_by_its_token_on_reconcile(peer, provider, secret_service, labgpu_home):
    """The machine was created but LabGPU died before recording it: reconcile finds it by the token its name
    carries, and a retry with the same token creates nothing."""
    svc = CloudService(provider_factory=lambda pid: provider)
    try:
        acc = Account("ps", "paperspace", "ny2", peer.endpoint)
        svc.accounts.add(acc, CREDS)
        svc.pending.begin(client_token="lg-cut", account="ps", provider="paperspace", region="ny2", zone="",
                          instance_type="A100-80G", spot=False, max_price=None)
        made = provider.launch(acc, CREDS, _req(client_token="lg-cut~1", zone="ca1"))  # the second region's try
        svc.reconcile()
        entry = svc.ledger.get(made.id)
        assert entry is not None and entry.client_token == "lg-cut" and entry.region == "ca1"
        again = svc.launch(LaunchOptions(account="ps", instance_type="A100-80G", ssh_from=SSH_FROM,
                                         client_token="lg-cut", wait=False))
        assert again.entry.id == made.id and len(peer.requests("POST", "/v1/machines")) == 1
    finally:
        svc.close()


def test_the_environments_key_is_not_imported_twice(tmp_path):
    folder = tmp_path / ".paperspace"
    folder.mkdir()
    (folder / "credentials.toml").write_text('version = 1\n[keys]\nlab = "ps-lab-key"\n')
    found = import_candidates({"HOME": str(tmp_path), "PAPERSPACE_API_KEY": "ps-lab-key"})
    assert [c.source for c in found] == ["pspace-team:lab"]


def test_the_api_key_goes_only_to_the_accounts_https_endpoint_and_never_follows_a_redirect(provider):
    """A plain-http endpoint that is not this computer is refused before anything is sent, and an endpoint that
    answers with a redirect gets no second request: the Authorization header never reaches the other address."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from app.cloud.errors import NetworkError

    with pytest.raises(CloudError) as err:
        provider.validate(Account("ps", "paperspace", "ny2", "http://api.example.com/v1"), CREDS)
    assert err.value.code == "BadEndpoint"

    seen: list[str] = []

    class Elsewhere(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            seen.append(self.headers.get("Authorization", ""))
            self.send_response(200)
            self.end_headers()

        def log_message(self, *a):
            pass

    other = ThreadingHTTPServer(("127.0.0.1", 0), Elsewhere)

    class Redirect(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            self.send_response(302)
            self.send_header("Location", f"http://127.0.0.1:{other.server_address[1]}/v1/auth/session")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *a):
            pass

    first = ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
    for srv in (first, other):
        threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        with pytest.raises(NetworkError, match="redirect"):
            provider.validate(Account("ps", "paperspace", "ny2", f"http://127.0.0.1:{first.server_address[1]}/v1"),
                              CREDS)
        assert seen == []
    finally:
        for srv in (first, other):
            srv.shutdown()
            srv.server_close()
