"""Sending one notice on one channel: the request each service documents, and its answer checked.

Each sender gets the channel's settings, its secrets (read from the keyring by the caller) and a
:class:`~app.notify.events.Message`; it returns a short plain-text note of what the service answered, or
raises :class:`NotifyError` saying what failed — never with a secret or a whole address in it (an address
may carry a token: only its host is named). Addresses are checked again before each send
(:func:`app.notify.config.check_url`); redirects are not followed (a redirect could take a token to
another host, or to plain http); certificates are always verified (``ca_file`` adds a CA).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import smtplib
import ssl
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping
from email.header import Header
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Any

from app.core.errors import LabGpuError
from app.core.i18n import QT_TRANSLATE_NOOP

from .config import (
    DINGTALK,
    EMAIL,
    FEISHU,
    NTFY,
    PUSHPLUS,
    SERVERCHAN,
    WEBHOOK,
    ChannelConfig,
    check_url,
    url_hint,
)
from .events import Message, plain

TIMEOUT_S = 20.0
MAX_ANSWER = 64 * 1024

# The services' own addresses (a channel's ``endpoint`` replaces them: a mirror, or a test stand-in).
SERVERCHAN_URL = "https://sctapi.ftqq.com"
PUSHPLUS_URL = "https://www.pushplus.plus/send"
WEBHOOK_SIGNATURE = "X-LabGPU-Signature"
WEBHOOK_TIMESTAMP = "X-LabGPU-Timestamp"


class NotifyError(LabGpuError):
    pass


Sender = Callable[[ChannelConfig, Mapping[str, str], Message, float], str]


def _scrub(text: str, secrets: Mapping[str, str]) -> str:
    for value in sorted(secrets.values(), key=len, reverse=True):
        if value and len(value) >= 4:
            text = text.replace(value, "***")
    return text


def ssl_context(ca_file: str) -> ssl.SSLContext:
    """The system's trusted CAs, plus ``ca_file`` when the channel names one; verification always on."""
    ctx = ssl.create_default_context()
    if ca_file:
        try:
            ctx.load_verify_locations(cafile=ca_file)
        except (OSError, ssl.SSLError) as exc:
            raise NotifyError(QT_TRANSLATE_NOOP("LabGPU", "The CA file {path} could not be read: {why}"),
                              QT_TRANSLATE_NOOP("LabGPU", "Name a PEM file of certificates."), code="BadCaFile",
                              path=ca_file[:200], why=plain(exc, 200)) from None
    return ctx


# The service's clock, from its answer's Date header (RFC 9110 §6.6.1), as an offset from this computer's:
# Feishu and DingTalk refuse a signature whose timestamp is more than an hour from theirs, so a laptop
# whose clock is off is told the service's time by its refusal and signs once more with it.
CLOCK_RETRY_S = 60.0
_offsets: dict[str, float] = {}


def _note_offset(url: str, date: str | None) -> None:
    if not date:
        return
    try:
        from email.utils import parsedate_to_datetime

        _offsets[url_hint(url)] = parsedate_to_datetime(date).timestamp() - time.time()
    except (TypeError, ValueError, IndexError, OverflowError):
        pass


def service_offset(url: str) -> float:
    """How far the service's clock was ahead of this computer's at its last answer (0 when unknown)."""
    return _offsets.get(url_hint(url), 0.0)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req: Any, fp: Any, code: int, msg: str, headers: Any,
                         _newurl: str) -> None:
        return None  # the 3xx answer is returned as an error, never followed


def _post(url: str, body: bytes, headers: Mapping[str, str], cfg: ChannelConfig,
          secrets: Mapping[str, str]) -> tuple[int, bytes]:
    url = check_url(url)
    host = url_hint(url)
    handlers: list[Any] = [_NoRedirect()]
    if url.startswith("https:"):
        handlers.append(urllib.request.HTTPSHandler(context=ssl_context(cfg.ca_file)))
    opener = urllib.request.build_opener(*handlers)
    # check_url above: https, or http to a loopback literal; never file: or another scheme
    req = urllib.request.Request(url, data=body, method="POST",  # noqa: S310
                                 headers={"User-Agent": "LabGPU", **headers})
    try:
        with opener.open(req, timeout=TIMEOUT_S) as resp:
            _note_offset(url, resp.headers.get("Date"))
            return int(resp.status), resp.read(MAX_ANSWER)
    except urllib.error.HTTPError as exc:
        detail = _scrub(plain(exc.read(2000).decode("utf-8", "replace"), 300), secrets)
        raise NotifyError(QT_TRANSLATE_NOOP("LabGPU", "{host} answered HTTP {status}: {detail}"),
                          QT_TRANSLATE_NOOP("LabGPU", "Check the channel's address and token."),
                          code="NotifyHttpError", host=host, status=exc.code, detail=detail) from None
    except urllib.error.URLError as exc:
        raise _network_error(host, exc.reason, secrets) from None
    except (OSError, ssl.SSLError) as exc:
        raise _network_error(host, exc, secrets) from None


def _network_error(host: str, why: object, secrets: Mapping[str, str]) -> NotifyError:
    text = _scrub(plain(why, 300), secrets)
    if isinstance(why, ssl.SSLCertVerificationError):
        return NotifyError(QT_TRANSLATE_NOOP("LabGPU", "The certificate of {host} could not be verified: {why}"),
                           QT_TRANSLATE_NOOP("LabGPU", "If the server uses a private CA, name its PEM file as "
                                                       "the channel's CA file; LabGPU never skips the check."),
                           code="NotifyCertificate", host=host, why=text)
    return NotifyError(QT_TRANSLATE_NOOP("LabGPU", "Could not reach {host}: {why}"),
                       QT_TRANSLATE_NOOP("LabGPU", "Check the network (Wi-Fi, VPN, proxy) and the address."),
                       code="NotifyUnreachable", host=host, why=text)


def _json_answer(raw: bytes, host: str) -> dict[str, Any]:
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        doc = None
    if not isinstance(doc, dict):
        raise NotifyError(QT_TRANSLATE_NOOP("LabGPU", "{host} gave an answer that is not JSON."),
                          QT_TRANSLATE_NOOP("LabGPU", "Check the channel's address."), code="NotifyBadAnswer",
                          host=host)
    return doc


def _refused(host: str, detail: object, secrets: Mapping[str, str]) -> NotifyError:
    return NotifyError(QT_TRANSLATE_NOOP("LabGPU", "{host} refused the notice: {detail}"),
                       QT_TRANSLATE_NOOP("LabGPU", "Check the channel's token, signing secret and the computer's "
                                                   "clock."),
                       code="NotifyRefused", host=host, detail=_scrub(plain(detail, 300), secrets))


def _text(msg: Message) -> str:
    return f"{msg.title}\n{msg.body}"


def _post_json(url: str, doc: Mapping[str, Any], cfg: ChannelConfig, secrets: Mapping[str, str],
               headers: Mapping[str, str] | None = None) -> dict[str, Any]:
    body = json.dumps(doc, ensure_ascii=False).encode("utf-8")
    _status, raw = _post(url, body, {"Content-Type": "application/json; charset=utf-8", **(headers or {})},
                         cfg, secrets)
    return _json_answer(raw, url_hint(url))


# -- Feishu / Lark ---------------------------------------------------------------------------------
# "Custom bot usage guide", https://open.feishu.cn/document/client-docs/bot-v3/add-custom-bot (signature
# verification: string to sign = timestamp + "\n" + secret, used as the HmacSHA256 KEY over an empty
# message, then Base64; timestamp in seconds, at most one hour from the server's time; body
# {"timestamp", "sign", "msg_type": "text", "content": {"text"}}; answer {"code": 0, "msg": "success"},
# code 19021 "sign match fail or timestamp is not within one hour from current time").

def feishu_sign(timestamp: int, secret: str) -> str:
    key = f"{timestamp}\n{secret}".encode()
    return base64.b64encode(hmac.new(key, b"", hashlib.sha256).digest()).decode()


def send_feishu(cfg: ChannelConfig, secrets: Mapping[str, str], msg: Message, now: float) -> str:
    url = secrets.get("url", "")

    def attempt(at: float) -> dict[str, Any]:
        doc: dict[str, Any] = {"msg_type": "text", "content": {"text": _text(msg)}}
        if secrets.get("secret"):
            ts = int(at)
            doc = {"timestamp": str(ts), "sign": feishu_sign(ts, secrets["secret"]), **doc}
        return _post_json(url, doc, cfg, secrets)

    answer = attempt(now)
    code = answer.get("code", answer.get("StatusCode"))
    if code != 0 and secrets.get("secret") and abs(service_offset(url)) > CLOCK_RETRY_S:
        answer = attempt(now + service_offset(url))  # signed again on the service's clock
        code = answer.get("code", answer.get("StatusCode"))
    if code != 0:
        raise _refused(url_hint(url), f"{code} {answer.get('msg', answer.get('StatusMessage', ''))}", secrets)
    return "ok"


# -- DingTalk --------------------------------------------------------------------------------------
# "Custom robot access" / 自定义机器人安全设置, https://open.dingtalk.com/document/robots/customize-robot-security-settings
# (加签: string to sign = timestamp + "\n" + secret, HmacSHA256 with the secret as key, Base64, then
# urlEncode; timestamp in milliseconds, within one hour; sent as &timestamp=…&sign=… on the webhook;
# body {"msgtype": "text", "text": {"content"}}; answer {"errcode": 0, "errmsg": "ok"}, 310000 on a bad sign).

def dingtalk_sign(timestamp_ms: int, secret: str) -> str:
    digest = hmac.new(secret.encode(), f"{timestamp_ms}\n{secret}".encode(), hashlib.sha256).digest()
    return urllib.parse.quote_plus(base64.b64encode(digest).decode())


def send_dingtalk(cfg: ChannelConfig, secrets: Mapping[str, str], msg: Message, now: float) -> str:
    base = secrets.get("url", "")

    def attempt(at: float) -> dict[str, Any]:
        url = base
        if secrets.get("secret"):
            ts = int(at * 1000)
            url += ("&" if urllib.parse.urlsplit(url).query else "?") + \
                f"timestamp={ts}&sign={dingtalk_sign(ts, secrets['secret'])}"
        return _post_json(url, {"msgtype": "text", "text": {"content": _text(msg)}}, cfg, secrets)

    answer = attempt(now)
    if answer.get("errcode") != 0 and secrets.get("secret") and abs(service_offset(base)) > CLOCK_RETRY_S:
        answer = attempt(now + service_offset(base))  # signed again on the service's clock
    url = base
    if answer.get("errcode") != 0:
        raise _refused(url_hint(url), f"{answer.get('errcode')} {answer.get('errmsg', '')}", secrets)
    return "ok"


# -- ServerChan (WeChat) ---------------------------------------------------------------------------
# Server酱 SDK README, https://github.com/easychen/serverchan-sdk (one call: POST JSON {"title", "desp"} to
# https://sctapi.ftqq.com/<SendKey>.send, or for an SC3 key "sctp<N>t…" to
# https://<N>.push.ft07.com/send/<SendKey>.send; answer {"code": 0, "message": …, "data": …}).
# desp is Markdown: the text goes in as escaped Markdown, so outside text cannot make a link.

_SENDKEY_RE = re.compile(r"^[A-Za-z0-9_-]{4,128}$")
_SC3_RE = re.compile(r"^sctp(\d+)t")
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#+!|~-])")


def markdown_escape(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", text).replace("\n", "\n\n")


def serverchan_url(sendkey: str, endpoint: str = "") -> str:
    if not _SENDKEY_RE.match(sendkey):
        raise NotifyError(QT_TRANSLATE_NOOP("LabGPU", "The ServerChan SendKey has characters a SendKey never has."),
                          QT_TRANSLATE_NOOP("LabGPU", "Copy it again from the SendKey page."), code="BadSendKey")
    if endpoint:
        return f"{endpoint.rstrip('/')}/{sendkey}.send"
    sc3 = _SC3_RE.match(sendkey)
    if sc3:
        return f"https://{sc3.group(1)}.push.ft07.com/send/{sendkey}.send"
    return f"{SERVERCHAN_URL}/{sendkey}.send"


SERVERCHAN_TITLE_MAX = 32  # "title: 必填, 最大长度为 32" (sct.ftqq.com API); the whole title goes in desp too


def send_serverchan(cfg: ChannelConfig, secrets: Mapping[str, str], msg: Message, now: float) -> str:
    url = serverchan_url(secrets.get("sendkey", ""), cfg.endpoint)
    title = plain(msg.title, SERVERCHAN_TITLE_MAX)
    answer = _post_json(url, {"title": title, "desp": markdown_escape(_text(msg))}, cfg, secrets)
    if answer.get("code") != 0:
        raise _refused(url_hint(url), f"{answer.get('code')} {answer.get('message', '')}", secrets)
    return "ok"


# -- PushPlus (WeChat) -----------------------------------------------------------------------------
# "发送消息接口" POST, https://www.pushplus.plus/doc/ (api.pushplus.plus/api-107787114): POST JSON
# {"token", "title", "content", "template"} with Content-Type application/json; template "txt" shows the
# text as it is (html is the default); answer {"code": 200, "msg": "请求成功", "data": <message id>}.

def send_pushplus(cfg: ChannelConfig, secrets: Mapping[str, str], msg: Message, now: float) -> str:
    url = cfg.endpoint or PUSHPLUS_URL
    answer = _post_json(url, {"token": secrets.get("token", ""), "title": msg.title, "content": msg.body,
                              "template": "txt"}, cfg, secrets)
    if answer.get("code") != 200:
        raise _refused(url_hint(url), f"{answer.get('code')} {answer.get('msg', '')}", secrets)
    return "ok"


# -- ntfy ------------------------------------------------------------------------------------------
# "Publishing", https://docs.ntfy.sh/publish/ : POST (or PUT) the message as the body to the topic's
# address; "Title" and "Priority" (1-5) headers; an access token as "Authorization: Bearer tk_…"; a header
# with non-ASCII text as an RFC 2047 encoded word (=?UTF-8?B?…?=), which the server decodes.

def _header_text(text: str) -> str:
    try:
        text.encode("ascii")
        return text
    except UnicodeEncodeError:
        return Header(text, "utf-8").encode(maxlinelen=10_000).replace("\n", "").replace("\r", "")


def send_ntfy(cfg: ChannelConfig, secrets: Mapping[str, str], msg: Message, now: float) -> str:
    headers = {"Title": _header_text(msg.title), "Content-Type": "text/plain; charset=utf-8"}
    if cfg.priority:
        headers["Priority"] = str(cfg.priority)
    if secrets.get("token"):
        headers["Authorization"] = f"Bearer {secrets['token']}"
    url = secrets.get("url", "")
    _status, raw = _post(url, msg.body.encode("utf-8"), headers, cfg, secrets)
    answer = _json_answer(raw, url_hint(url))
    return plain(f"ok {answer.get('id', '')}", 80).strip()


# -- a webhook of the student's own ---------------------------------------------------------------
# LabGPU's own format (docs/cli.md "Notifications"): POST JSON {"kind", "topic", "target", "title",
# "body", "lang", "time"}; X-LabGPU-Timestamp: unix seconds; X-LabGPU-Signature: "sha256=" + hex of
# HMAC-SHA256(secret, timestamp + "." + body bytes). A receiver recomputes it over the raw body and
# refuses a timestamp more than 5 minutes off (a replay).

def webhook_signature(secret: str, timestamp: int, body: bytes) -> str:
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


def send_webhook(cfg: ChannelConfig, secrets: Mapping[str, str], msg: Message, now: float) -> str:
    from .events import TOPIC_OF

    ts = int(now)
    doc = {"kind": msg.kind, "topic": TOPIC_OF.get(msg.kind, msg.kind), "target": msg.target,
           "title": msg.title, "body": msg.body, "lang": msg.lang, "time": ts}
    body = json.dumps(doc, ensure_ascii=False).encode("utf-8")
    headers = {"Content-Type": "application/json; charset=utf-8", WEBHOOK_TIMESTAMP: str(ts),
               WEBHOOK_SIGNATURE: webhook_signature(secrets.get("secret", ""), ts, body)}
    status, _raw = _post(secrets.get("url", ""), body, headers, cfg, secrets)
    return f"ok HTTP {status}"


# -- email -----------------------------------------------------------------------------------------
# RFC 8314 (implicit TLS for submission, port 465) and RFC 3207 (STARTTLS, port 587); Python's smtplib
# with a verifying SSLContext (hostname checked), AUTH only after TLS is up.

def send_email(cfg: ChannelConfig, secrets: Mapping[str, str], msg: Message, now: float) -> str:
    mail = EmailMessage()
    mail["Subject"] = msg.title
    mail["From"] = cfg.sender or cfg.username
    mail["To"] = ", ".join(cfg.recipients)
    mail["Date"] = formatdate(now, usegmt=True)
    mail["Message-ID"] = make_msgid(domain="labgpu.local")
    mail.set_content(msg.body)
    ctx = ssl_context(cfg.ca_file)
    host = f"{cfg.host}:{cfg.port}"
    try:
        smtp: smtplib.SMTP
        if cfg.security == "ssl":
            smtp = smtplib.SMTP_SSL(cfg.host, cfg.port, timeout=TIMEOUT_S, context=ctx)
        else:
            smtp = smtplib.SMTP(cfg.host, cfg.port, timeout=TIMEOUT_S)
        with smtp:
            if cfg.security == "starttls":
                smtp.ehlo()
                if not smtp.has_extn("starttls"):
                    raise NotifyError(QT_TRANSLATE_NOOP("LabGPU", "The mail server {host} does not offer STARTTLS."),
                                      QT_TRANSLATE_NOOP("LabGPU", "Choose SSL/TLS (usually port 465) instead; "
                                                                  "LabGPU never sends mail unencrypted."),
                                      code="NoStartTls", host=host)
                smtp.starttls(context=ctx)
                smtp.ehlo()
            if cfg.username:
                smtp.login(cfg.username, secrets.get("password", ""))
            refused = smtp.send_message(mail)
    except smtplib.SMTPAuthenticationError as exc:
        raise NotifyError(QT_TRANSLATE_NOOP("LabGPU", "The mail server {host} refused the login: {why}"),
                          QT_TRANSLATE_NOOP("LabGPU", "Check the user name and the password (many mail services "
                                                      "want an app password / 授权码 here, not the login one)."),
                          code="SmtpLogin", host=host, why=_scrub(plain(exc.smtp_error, 200), secrets)) from None
    except smtplib.SMTPException as exc:
        raise NotifyError(QT_TRANSLATE_NOOP("LabGPU", "The mail server {host} refused the notice: {why}"),
                          QT_TRANSLATE_NOOP("LabGPU", "Check the sender and recipient addresses."),
                          code="SmtpRefused", host=host, why=_scrub(plain(exc, 300), secrets)) from None
    except (OSError, ssl.SSLError) as exc:  # TimeoutError is an OSError
        raise _network_error(host, exc, secrets) from None
    if refused:
        return plain(f"ok, refused by the server: {', '.join(refused)}", 200)
    return "ok"


SENDERS: dict[str, Sender] = {
    EMAIL: send_email,
    SERVERCHAN: send_serverchan,
    PUSHPLUS: send_pushplus,
    FEISHU: send_feishu,
    DINGTALK: send_dingtalk,
    NTFY: send_ntfy,
    WEBHOOK: send_webhook,
}
