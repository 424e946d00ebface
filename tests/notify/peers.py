"""Stand-ins for the notification services, each checking the request its service documents.

One HTTP server on 127.0.0.1 answers as Feishu, DingTalk, ServerChan, PushPlus, ntfy and a LabGPU
webhook receiver, each at its own path, and refuses what its service refuses (a wrong signature, a
timestamp too old, a wrong token) with that service's documented answer; ``received`` keeps every request
it accepted. ``clock`` is the services' clock (a test moves it to make a timestamp stale). The SMTP peer is
aiosmtpd, a real SMTP server, with implicit TLS or STARTTLS, checking the login.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import socket
import ssl
import threading
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from email import message_from_bytes
from email.header import decode_header, make_header
from email.message import Message
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

FEISHU_HOOK = "/open-apis/bot/v2/hook/0c1a7e55-feed-4b0b-9d55-5a1e5e1f0001"
DINGTALK_PATH = "/robot/send"
DINGTALK_TOKEN = "d1ng-access-token-0123456789abcdef"
SERVERCHAN_KEY = "SCT123456TtestKey0123456789"
PUSHPLUS_TOKEN = "be8652e98bd04139a13e1bffcd6d0f71"
NTFY_TOPIC = "/labgpu-alerts-9f3c2a"
NTFY_TOKEN = "tk_ntfytesttoken0123456789abc"
WEBHOOK_PATH = "/labgpu-hook"


@dataclass
class Received:
    service: str
    path: str
    headers: Any  # the request's headers (looked up case-insensitively)
    body: bytes
    doc: Any = None
    title: str = ""
    text: str = ""


@dataclass
class Services:
    feishu_secret: str = "feishu-sign-secret-abc"
    dingtalk_secret: str = "SECdingtalk0123456789abcdef"
    webhook_secret: str = "webhook-hmac-secret-xyz"
    clock: Callable[[], float] = time.time
    received: list[Received] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)  # (service, why)
    # a slow service: with ``hold`` set, ntfy takes each request (``holding`` is set) and answers only
    # once the test sets ``hold`` free (``release()``)
    hold: threading.Event | None = None
    holding: threading.Event = field(default_factory=threading.Event)


def _answer(handler: BaseHTTPRequestHandler, status: int, doc: Any) -> None:
    raw = json.dumps(doc, ensure_ascii=False).encode()
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json; charset=utf-8")
    handler.send_header("Content-Length", str(len(raw)))
    handler.end_headers()
    handler.wfile.write(raw)


def _json(body: bytes) -> Any:
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None


def _feishu(s: Services, h: BaseHTTPRequestHandler, path: str, body: bytes) -> None:
    # Feishu "Custom bot usage guide" (open.feishu.cn/document/client-docs/bot-v3/add-custom-bot):
    # JSON {"timestamp", "sign", "msg_type", "content"}; sign = Base64(HmacSHA256(key = timestamp + "\n" +
    # secret, message = empty)); timestamp in seconds, at most one hour from the server's clock; a bad
    # one: {"code": 19021, "msg": "sign match fail or timestamp is not within one hour from current time"}.
    doc = _json(body)
    if not isinstance(doc, dict) or doc.get("msg_type") != "text" or not isinstance(doc.get("content"), dict) \
            or not isinstance(doc["content"].get("text"), str):
        s.refused.append(("feishu", "shape"))
        _answer(h, 200, {"code": 9499, "msg": "Bad Request", "data": {}})
        return
    ts = str(doc.get("timestamp", ""))
    key = f"{ts}\n{s.feishu_secret}".encode()
    want = base64.b64encode(hmac.new(key, b"", hashlib.sha256).digest()).decode()
    if not ts.isdigit() or abs(s.clock() - int(ts)) > 3600 or not hmac.compare_digest(want, str(doc.get("sign"))):
        s.refused.append(("feishu", "sign"))
        _answer(h, 200, {"code": 19021, "data": {},
                         "msg": "sign match fail or timestamp is not within one hour from current time"})
        return
    text = doc["content"]["text"]
    s.received.append(Received("feishu", path, h.headers, body, doc, text.split("\n")[0], text))
    _answer(h, 200, {"StatusCode": 0, "StatusMessage": "success", "code": 0, "data": {}, "msg": "success"})


def _dingtalk(s: Services, h: BaseHTTPRequestHandler, path: str, query: dict[str, list[str]], body: bytes) -> None:
    # DingTalk 自定义机器人安全设置 (open.dingtalk.com/document/robots/customize-robot-security-settings):
    # ?access_token=…&timestamp=<ms>&sign=<urlEncode(Base64(HmacSHA256(key = secret, message = timestamp +
    # "\n" + secret)))>, timestamp within one hour; body {"msgtype": "text", "text": {"content"}};
    # a bad token / sign: errcode 300001 / 310000.
    if query.get("access_token") != [DINGTALK_TOKEN]:
        s.refused.append(("dingtalk", "token"))
        _answer(h, 200, {"errcode": 300001, "errmsg": "token is not exist"})
        return
    ts = (query.get("timestamp") or [""])[0]
    sign = (query.get("sign") or [""])[0]  # parse_qs has URL-decoded it once, as the service does
    digest = hmac.new(s.dingtalk_secret.encode(), f"{ts}\n{s.dingtalk_secret}".encode(), hashlib.sha256).digest()
    want = base64.b64encode(digest).decode()
    if not ts.isdigit() or abs(s.clock() * 1000 - int(ts)) > 3600_000 or not hmac.compare_digest(want, sign):
        s.refused.append(("dingtalk", "sign"))
        _answer(h, 200, {"errcode": 310000, "errmsg": "sign not match"})
        return
    doc = _json(body)
    if not isinstance(doc, dict) or doc.get("msgtype") != "text" or not isinstance(doc.get("text"), dict) \
            or not isinstance(doc["text"].get("content"), str):
        s.refused.append(("dingtalk", "shape"))
        _answer(h, 200, {"errcode": 40035, "errmsg": "缺少参数 json"})
        return
    text = doc["text"]["content"]
    s.received.append(Received("dingtalk", path, h.headers, body, doc, text.split("\n")[0], text))
    _answer(h, 200, {"errcode": 0, "errmsg": "ok"})


def _serverchan(s: Services, h: BaseHTTPRequestHandler, path: str, body: bytes) -> None:
    # ServerChan SDK README (github.com/easychen/serverchan-sdk) and sct.ftqq.com's API page: POST
    # /<SendKey>.send with title (required, at most 32 characters) and desp (Markdown, at most 32 KB);
    # answer {"code": 0, "message": "", "data": {"pushid", "readkey", "error": "SUCCESS", "errno": 0}}.
    if path != f"/{SERVERCHAN_KEY}.send":
        s.refused.append(("serverchan", "key"))
        _answer(h, 200, {"code": 40001, "message": "bad pushkey", "data": None})
        return
    doc = _json(body)
    if not isinstance(doc, dict) or not isinstance(doc.get("title"), str) or not doc["title"] \
            or len(doc["title"]) > 32 or len(str(doc.get("desp", "")).encode()) > 32 * 1024:
        s.refused.append(("serverchan", "shape"))
        _answer(h, 200, {"code": 40003, "message": "title required, at most 32 characters", "data": None})
        return
    s.received.append(Received("serverchan", path, h.headers, body, doc, doc["title"], str(doc.get("desp"))))
    _answer(h, 200, {"code": 0, "message": "", "data": {"pushid": "1", "readkey": "r", "error": "SUCCESS",
                                                        "errno": 0}})


def _pushplus(s: Services, h: BaseHTTPRequestHandler, path: str, body: bytes) -> None:
    # PushPlus "发送消息接口" POST (www.pushplus.plus/doc, api.pushplus.plus/api-107787114): Content-Type
    # application/json, body {"token" (required), "title", "content" (required), "template"}; answer
    # {"code": 200, "msg": "请求成功", "data": <id>}; any other code is a refusal (接口返回码说明).
    if not h.headers.get("Content-Type", "").startswith("application/json"):
        s.refused.append(("pushplus", "content-type"))
        _answer(h, 200, {"code": 999, "msg": "Content-Type must be application/json", "data": None})
        return
    doc = _json(body)
    if not isinstance(doc, dict) or doc.get("token") != PUSHPLUS_TOKEN:
        s.refused.append(("pushplus", "token"))
        _answer(h, 200, {"code": 903, "msg": "无效的用户令牌", "data": None})
        return
    if not isinstance(doc.get("content"), str) or not doc["content"] or \
            doc.get("template", "html") not in ("html", "txt", "json", "markdown"):
        s.refused.append(("pushplus", "shape"))
        _answer(h, 200, {"code": 999, "msg": "content required", "data": None})
        return
    s.received.append(Received("pushplus", path, h.headers, body, doc, str(doc.get("title")), doc["content"]))
    _answer(h, 200, {"code": 200, "msg": "请求成功", "data": "075074e3c17e449e9a0cb79cc6f3fc83"})


def _ntfy(s: Services, h: BaseHTTPRequestHandler, path: str, body: bytes) -> None:
    # ntfy "Publishing" (docs.ntfy.sh/publish/): POST the message to /<topic>; Title, Priority (1-5)
    # headers, RFC 2047 encoded words decoded; access tokens as "Authorization: Bearer tk_…" (else 403
    # {"code": 40301, "http": 403, "error": "forbidden"}); answer the message as JSON with its id.
    if s.hold is not None:
        s.holding.set()
        s.hold.wait(30)
    if h.headers.get("Authorization") != f"Bearer {NTFY_TOKEN}":
        s.refused.append(("ntfy", "auth"))
        _answer(h, 403, {"code": 40301, "http": 403, "error": "forbidden"})
        return
    prio = h.headers.get("Priority", "3")
    if prio not in ("1", "2", "3", "4", "5"):
        s.refused.append(("ntfy", "priority"))
        _answer(h, 400, {"code": 40007, "http": 400, "error": "invalid priority"})
        return
    title = str(make_header(decode_header(h.headers.get("Title", ""))))
    text = body.decode("utf-8")
    s.received.append(Received("ntfy", path, h.headers, body, None, title, text))
    _answer(h, 200, {"id": "sPs71M8A2T", "time": int(s.clock()), "event": "message", "topic": path.strip("/"),
                     "title": title, "message": text, "priority": int(prio)})


def _webhook(s: Services, h: BaseHTTPRequestHandler, path: str, body: bytes) -> None:
    # LabGPU's own webhook format (docs/cli.md, "Notifications"): X-LabGPU-Signature: sha256=<hex of
    # HMAC-SHA256(secret, timestamp + "." + raw body)>, X-LabGPU-Timestamp within 5 minutes.
    ts = h.headers.get("X-LabGPU-Timestamp", "")
    sig = h.headers.get("X-LabGPU-Signature", "")
    want = "sha256=" + hmac.new(s.webhook_secret.encode(), f"{ts}.".encode() + body, hashlib.sha256).hexdigest()
    if not ts.isdigit() or abs(s.clock() - int(ts)) > 300 or not hmac.compare_digest(want, sig):
        s.refused.append(("webhook", "sign"))
        _answer(h, 401, {"error": "bad signature"})
        return
    doc = _json(body)
    s.received.append(Received("webhook", path, h.headers, body, doc, doc.get("title", ""), doc.get("body", "")))
    _answer(h, 200, {"ok": True})


class NotifyPeer:
    """The HTTP services on 127.0.0.1 (``base`` is http://127.0.0.1:PORT); ``close()`` stops it."""

    def __init__(self) -> None:
        self.services = Services()
        services = self.services

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, fmt: str, *args: Any) -> None:
                pass

            def date_time_string(self, timestamp: float | None = None) -> str:
                return formatdate(services.clock(), usegmt=True)  # the Date header tells the service's clock

            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                parts = urllib.parse.urlsplit(self.path)
                query = urllib.parse.parse_qs(parts.query)
                path = parts.path
                if path == FEISHU_HOOK:
                    _feishu(services, self, path, body)
                elif path == DINGTALK_PATH:
                    _dingtalk(services, self, path, query, body)
                elif path.endswith(".send"):
                    _serverchan(services, self, path, body)
                elif path == "/send":
                    _pushplus(services, self, path, body)
                elif path == NTFY_TOPIC:
                    _ntfy(services, self, path, body)
                elif path == WEBHOOK_PATH:
                    _webhook(services, self, path, body)
                else:
                    _answer(self, 404, {"error": "not found"})

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, name="notify-peer", daemon=True)
        self._thread.start()

    def received(self, service: str) -> list[Received]:
        return [r for r in self.services.received if r.service == service]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self._thread.join(10)


# -- certificates: a throwaway CA and a server certificate for 127.0.0.1 ----------------------------

def make_certs(folder: Any) -> tuple[str, str, str]:
    """(ca.pem, server.pem, server.key) in ``folder``: a CA and a certificate for IP 127.0.0.1 it signed."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "LabGPU test CA")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
          .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(hours=1))
          .not_valid_after(now + datetime.timedelta(days=2))
          .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
          .add_extension(x509.KeyUsage(digital_signature=False, content_commitment=False, key_encipherment=False,
                                       data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                       crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
          .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
            .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(hours=1)).not_valid_after(now + datetime.timedelta(days=2))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256()))
    paths = (str(folder / "ca.pem"), str(folder / "server.pem"), str(folder / "server.key"))
    with open(paths[0], "wb") as f:
        f.write(ca.public_bytes(serialization.Encoding.PEM))
    with open(paths[1], "wb") as f:
        f.write(cert.public_bytes(serialization.Encoding.PEM))
    with open(paths[2], "wb") as f:
        f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                  serialization.NoEncryption()))
    return paths


# -- SMTP ------------------------------------------------------------------------------------------

SMTP_USER = "student@example.edu"
SMTP_PASSWORD = "smtp-app-password-123"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class SmtpPeer:
    """aiosmtpd on 127.0.0.1: ``mode`` "ssl" (implicit TLS) or "starttls" (STARTTLS required before
    anything else); AUTH only over TLS, with SMTP_USER / SMTP_PASSWORD; ``messages`` what it accepted."""

    def __init__(self, mode: str, cert: str, key: str) -> None:
        from aiosmtpd.controller import Controller
        from aiosmtpd.smtp import AuthResult, LoginPassword

        self.messages: list[Message] = []
        self.envelopes: list[tuple[str, list[str]]] = []
        self.logins: list[tuple[str, bool]] = []
        peer = self

        class Handler:
            async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
                peer.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
                peer.messages.append(message_from_bytes(envelope.original_content or envelope.content))
                return "250 OK"

        def authenticator(server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> AuthResult:
            ok = isinstance(data, LoginPassword) and data.login.decode() == SMTP_USER \
                and data.password.decode() == SMTP_PASSWORD
            peer.logins.append((data.login.decode() if isinstance(data, LoginPassword) else "", ok))
            return AuthResult(success=ok, handled=False)  # not handled: the server answers 535 itself

        ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ctx.load_cert_chain(cert, key)
        self.port = _free_port()
        kwargs: dict[str, Any] = {"authenticator": authenticator, "auth_require_tls": True, "auth_required": True}
        if mode == "ssl":
            # the whole connection is TLS (implicit TLS); aiosmtpd's own "is it TLS" check only knows
            # STARTTLS, so its TLS-only AUTH rule is left off here: nothing on this socket is plain
            kwargs.update(ssl_context=ctx, auth_require_tls=False)
        else:
            kwargs.update(tls_context=ctx, require_starttls=True)
        self.controller = Controller(Handler(), hostname="127.0.0.1", port=self.port, **kwargs)
        self.controller.start()

    def close(self) -> None:
        self.controller.stop()
