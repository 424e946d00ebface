"""Each channel against a stand-in that checks its service's documented request and signature."""

from __future__ import annotations

import json
import time

import pytest

from app.core.errors import InputError
from app.core.paths import default_paths
from app.core.settings import Settings
from app.notify import channels as ch
from app.notify.config import ChannelConfig, check_url
from app.notify.dispatch import Notifier
from tests.notify import peers as P


def _notifier() -> Notifier:
    return Notifier(default_paths(), settings=Settings)


def _test(cfg: ChannelConfig, values: dict[str, str], lang: str = "en"):
    s = Settings(language=lang)
    return _notifier().send_test(cfg.name, settings=s, channel_cfg=cfg, secret_values=values)


def test_feishu_signed_message_is_accepted_and_a_wrong_secret_refused(peer):
    cfg = ChannelConfig(name="fs", kind="feishu")
    url = peer.base + P.FEISHU_HOOK
    r = _test(cfg, {"url": url, "secret": peer.services.feishu_secret})
    assert r.ok, r.text()
    got = peer.received("feishu")[0]
    assert got.title == "LabGPU test notice" and "fs works" in got.text
    assert set(got.doc) == {"timestamp", "sign", "msg_type", "content"}
    bad = _test(cfg, {"url": url, "secret": "not-the-secret"})
    assert not bad.ok and "19021" in bad.text()
    assert peer.services.refused[-1] == ("feishu", "sign")


def test_feishu_refuses_a_timestamp_over_an_hour_old(peer):
    """A replayed request (signed more than an hour ago) is refused, as Feishu refuses it."""
    import urllib.request

    ts = int(time.time()) - 3700
    body = json.dumps({"timestamp": str(ts), "sign": ch.feishu_sign(ts, peer.services.feishu_secret),
                       "msg_type": "text", "content": {"text": "old"}}).encode()
    req = urllib.request.Request(peer.base + P.FEISHU_HOOK, data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        assert json.loads(resp.read())["code"] == 19021
    assert peer.services.refused == [("feishu", "sign")] and peer.received("feishu") == []


def test_a_laptop_clock_an_hour_off_signs_again_on_the_services_clock(peer):
    """The service's clock is 62 minutes ahead (this computer's is behind): the first signature is refused
    as stale; the refusal's Date header tells the service's time, and the second one is accepted."""
    peer.services.clock = lambda: time.time() + 3720
    r = _test(ChannelConfig(name="fs", kind="feishu"),
              {"url": peer.base + P.FEISHU_HOOK, "secret": peer.services.feishu_secret})
    assert r.ok, r.text()
    assert peer.services.refused == [("feishu", "sign")] and len(peer.received("feishu")) == 1
    ts = int(peer.received("feishu")[0].doc["timestamp"])
    assert abs(ts - (time.time() + 3720)) < 60


def test_dingtalk_signed_webhook(peer):
    cfg = ChannelConfig(name="dd", kind="dingtalk")
    url = f"{peer.base}{P.DINGTALK_PATH}?access_token={P.DINGTALK_TOKEN}"
    r = _test(cfg, {"url": url, "secret": peer.services.dingtalk_secret}, lang="zh_CN")
    assert r.ok, r.text()
    got = peer.received("dingtalk")[0]
    assert got.doc["msgtype"] == "text" and "LabGPU" in got.text
    wrong = _test(cfg, {"url": url, "secret": "SECwrong"})
    assert not wrong.ok and "310000" in wrong.text()
    peer.services.clock = lambda: time.time() - 3700  # this computer's clock is an hour ahead
    assert _test(cfg, {"url": url, "secret": peer.services.dingtalk_secret}).ok
    assert peer.services.refused == [("dingtalk", "sign")] * 2 and len(peer.received("dingtalk")) == 2


def test_serverchan_and_pushplus(peer):
    sc = ChannelConfig(name="sc", kind="serverchan", endpoint=peer.base)
    r = _test(sc, {"sendkey": P.SERVERCHAN_KEY}, lang="zh_CN")
    assert r.ok, r.text()
    got = peer.received("serverchan")[0]
    assert len(got.title) <= 32 and got.title == "LabGPU 测试通知"
    assert not _test(sc, {"sendkey": "SCTwrongkey000"}).ok
    pp = ChannelConfig(name="pp", kind="pushplus", endpoint=peer.base + "/send")
    assert _test(pp, {"token": P.PUSHPLUS_TOKEN}).ok
    got = peer.received("pushplus")[0]
    assert got.doc["template"] == "txt" and got.doc["title"] == "LabGPU test notice"
    bad = _test(pp, {"token": "0" * 32})
    assert not bad.ok and "903" in bad.text()


def test_serverchan_default_addresses():
    assert ch.serverchan_url("SCT1abc") == "https://sctapi.ftqq.com/SCT1abc.send"
    assert ch.serverchan_url("sctp42tABCDEF") == "https://42.push.ft07.com/send/sctp42tABCDEF.send"
    with pytest.raises(ch.NotifyError):
        ch.serverchan_url("../../etc")


def test_ntfy_title_priority_and_token(peer):
    cfg = ChannelConfig(name="nt", kind="ntfy", priority=4)
    url = peer.base + P.NTFY_TOPIC
    r = _test(cfg, {"url": url, "token": P.NTFY_TOKEN}, lang="zh_CN")
    assert r.ok, r.text()
    got = peer.received("ntfy")[0]
    assert got.title == "LabGPU 测试通知"  # an RFC 2047 encoded word, decoded by the service
    assert got.headers["Priority"] == "4" and "LabGPU" in got.text
    refused = _test(cfg, {"url": url})
    assert not refused.ok and "403" in refused.text()


def test_webhook_signature_is_documented_and_checked(peer):
    cfg = ChannelConfig(name="wh", kind="webhook")
    url = peer.base + P.WEBHOOK_PATH
    assert _test(cfg, {"url": url, "secret": peer.services.webhook_secret}).ok
    got = peer.received("webhook")[0]
    ts = got.headers["X-LabGPU-Timestamp"]
    assert got.headers["X-LabGPU-Signature"] == ch.webhook_signature(peer.services.webhook_secret, int(ts), got.body)
    assert json.loads(got.body)["kind"] == "test"
    bad = _test(cfg, {"url": url, "secret": "wrong"})
    assert not bad.ok and "401" in bad.text()


def test_plain_http_is_refused_except_to_loopback():
    assert check_url("https://open.feishu.cn/open-apis/bot/v2/hook/x")
    assert check_url("http://127.0.0.1:8080/x") and check_url("http://[::1]:9/x")
    for url in ("http://open.feishu.cn/hook/x", "http://localhost/x", "http://10.0.0.1/x", "ftp://x/y",
                "file:///etc/passwd", "https://", "https://a b/"):
        with pytest.raises(InputError):
            check_url(url)


def test_a_secret_never_appears_in_an_error(peer):
    key = "SCTsecretkeythatmustnotleak"
    r = _test(ChannelConfig(name="sc", kind="serverchan", endpoint=peer.base), {"sendkey": key})
    assert not r.ok
    assert key not in r.text() and key not in json.dumps(r.to_json())


def test_https_with_a_private_ca_named_by_the_channel(certs, tmp_path):
    """A service over https whose certificate a channel's CA file vouches for; without it, refused."""
    import ssl
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    got: list[bytes] = []

    class H(BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_POST(self):  # noqa: N802
            got.append(self.rfile.read(int(self.headers["Content-Length"])))
            raw = b'{"id": "x1"}'
            self.send_response(200)
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

    server = ThreadingHTTPServer(("127.0.0.1", 0), H)
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ctx.load_cert_chain(certs[1], certs[2])
    server.socket = ctx.wrap_socket(server.socket, server_side=True)
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    try:
        url = f"https://127.0.0.1:{server.server_address[1]}/topic"
        untrusted = _test(ChannelConfig(name="nt", kind="ntfy"), {"url": url})
        assert not untrusted.ok and "certificate" in untrusted.text()
        assert _test(ChannelConfig(name="nt", kind="ntfy", ca_file=certs[0]), {"url": url}).ok
        assert len(got) == 1
    finally:
        server.shutdown()
        server.server_close()
        t.join(10)
