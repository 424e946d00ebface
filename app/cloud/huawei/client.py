"""Huawei Cloud ECS: the SDK plumbing every call goes through.

Uses ``huaweicloudsdkecs`` (ECS v2) on ``huaweicloudsdkcore`` (imported lazily, so the app starts without
them and says what to install). Every call builds a fresh client from the account and the credentials it
is given (a rotated key takes effect at once): ``EcsClient.new_builder()`` with ``BasicCredentials(ak, sk,
project_id)`` and the endpoint (``with_endpoints``): the account's own one (a proxy, a test
server) or ``https://ecs.<region>.myhuaweicloud.com``. The SDK signs each request with SDK-HMAC-SHA256.
Requests are the SDK's own request models (``ListServerAzInfoRequest``…), answers read back with
``to_json_object()`` (the API's own JSON names). Throttling is retried with exponential backoff; every
other error code becomes a CloudError (see errors.py).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Any

from app.cloud.errors import network_error
from app.cloud.kit import PluginClient, load_sdk
from app.cloud.kit import parse_endpoint as kit_parse_endpoint
from app.core.accounts import Account, Credentials
from app.core.i18n import QT_TRANSLATE_NOOP

from .errors import NO_PROJECT_CODE, map_error
from .spec import PROVIDER_ID

log = logging.getLogger("app.cloud.huawei")

SDK_MISSING = QT_TRANSLATE_NOOP("LabGPU", "The Huawei Cloud SDK is not installed ({module}).")
SDK_HINT = QT_TRANSLATE_NOOP("LabGPU", "Install it with: pip install huaweicloudsdkecs huaweicloudsdkcore")
# Every ECS call the plugin makes (the contract test checks each is an SDK request model and client method;
# _call refuses any other name)
VALIDATE_CALL = "ListServerAzInfo"
ECS_CALLS = (VALIDATE_CALL,)
THROTTLED_CODES = ("APIGW.0308", "APIG.0308")
TIMEOUT = (10, 30)  # (connect, read) seconds

# ServiceResponseException's text, as the SDK words it when IAM's project look-up fails
_CODE_IN_TEXT = re.compile(r"error_code: ?([A-Za-z0-9_.]+)")


def _core() -> tuple[Any, ...]:
    """(BasicCredentials, Region, HttpConfig, SdkException, ServiceResponseException, ConnectionException,
    RequestTimeoutException) from huaweicloudsdkcore."""
    return load_sdk(
        PROVIDER_ID,
        (("huaweicloudsdkcore.auth.credentials", "BasicCredentials"), ("huaweicloudsdkcore.region.region", "Region"),
         ("huaweicloudsdkcore.http.http_config", "HttpConfig"),
         ("huaweicloudsdkcore.exceptions.exceptions", "SdkException"),
         ("huaweicloudsdkcore.exceptions.exceptions", "ServiceResponseException"),
         ("huaweicloudsdkcore.exceptions.exceptions", "ConnectionException"),
         ("huaweicloudsdkcore.exceptions.exceptions", "RequestTimeoutException")),
        SDK_MISSING, SDK_HINT,
    )


def ecs_sdk() -> tuple[Any, Any]:
    """(the ECS v2 models module, EcsClient)."""
    return load_sdk(PROVIDER_ID, (("huaweicloudsdkecs.v2", "model"), ("huaweicloudsdkecs.v2", "EcsClient")),
                    SDK_MISSING, SDK_HINT)


def request_model(name: str) -> Any:
    """The SDK's request model class of one ECS call (``ListServerAzInfoRequest``…)."""
    return getattr(ecs_sdk()[0], f"{name}Request")


def parse_endpoint(endpoint: str) -> tuple[str, str]:
    """Account endpoint → (host[:port], protocol); ("", "https") = Huawei's endpoint for the region."""
    return kit_parse_endpoint(endpoint, default_host="", provider=PROVIDER_ID, hint=QT_TRANSLATE_NOOP(
        "LabGPU", "Use a host such as ecs.cn-north-4.myhuaweicloud.com or a URL such as http://127.0.0.1:9000."))


def endpoint_url(account: Account, service: str = "ecs") -> str:
    """The URL a service's calls go to: the account's endpoint, else ``https://<service>.<region>.myhuaweicloud.com``
    (Huawei Cloud "Regions and Endpoints"); BSS is global: ``https://bss.myhuaweicloud.com``."""
    host, protocol = parse_endpoint(account.endpoint)
    if host:
        return f"{protocol}://{host}"
    return "https://bss.myhuaweicloud.com" if service == "bss" else f"https://{service}.{account.region}.myhuaweicloud.com"


def _loopback_http(url: str) -> bool:
    return url.startswith(("http://127.", "http://localhost", "http://[::1]"))


class HuaweiClient(PluginClient):
    """The plumbing every ECS call goes through (see HuaweiProvider)."""

    def _client(self, account: Account, creds: Credentials, client_cls: Any, service: str = "ecs") -> Any:
        """A client for one call, its endpoint given directly (``with_endpoints``: the project id is looked up
        by ``_with_client``, where its threads are cleaned up, not inside ``build()``)."""
        basic, _region, http_config, *_ = _core()
        url = endpoint_url(account, service)
        if service == "bss":  # a global service: GlobalCredentials (the domain id is looked up)
            credentials = load_sdk(PROVIDER_ID, (("huaweicloudsdkcore.auth.credentials", "GlobalCredentials"),),
                                   SDK_MISSING, SDK_HINT)[0](creds.key_id, creds.secret)
        else:
            credentials = basic(creds.key_id, creds.secret, account.extra.get("project_id") or None)
        if account.endpoint:
            # IAM's project look-up (when no project id is set) goes to the same custom endpoint
            credentials = credentials.with_iam_endpoint(url)
        config = http_config.get_default_config()
        config.timeout = TIMEOUT
        # Certificates are checked everywhere but on an http loopback test endpoint (nothing to check there)
        config.ignore_ssl_verification = _loopback_http(url)
        return (client_cls.new_builder().with_http_config(config).with_credentials(credentials)
                .with_endpoints([url]).build())

    def _with_client(self, account: Account, client: Any, call: Callable[[Any], Any]) -> Any:
        """``call(client)`` after the project id of the account's region is known (the SDK's own IAM
        look-up, KeystoneListProjects, when the account sets none); the client's threads and session are
        closed afterwards."""
        http = client.get_http_client()
        try:
            # the builder's credentials (the SDK keeps no public getter): BasicCredentials need the region's
            # project id, GlobalCredentials (BSS) the account's domain id (IAM KeystoneListAuthDomains)
            credentials = client._credentials
            known = getattr(credentials, "project_id", None) or getattr(credentials, "domain_id", None)
            if not known:
                credentials.process_auth_params(http, account.region)
            return call(client)
        finally:
            http.executor.shutdown(wait=True)
            http.close()

    def project_id(self, account: Account, creds: Credentials) -> str:
        """The project id of the account's region: its ``project_id`` extra, else the SDK's IAM look-up."""
        def look_up() -> _Raw:  # a fresh client per attempt (a throttled attempt's client is closed)
            client = self._client(account, creds, ecs_sdk()[1])
            return _Raw(self._with_client(account, client, lambda c: c._credentials.project_id))

        found: str = self._invoke(account, creds, look_up, "KeystoneListProjects")["id"]
        return found

    def _call(self, account: Account, creds: Credentials, name: str, params: dict[str, Any] | None = None, *,
              context: dict[str, Any] | None = None) -> dict[str, Any]:
        """One ECS call (``name``: the SDK's request name without ``Request``), throttling retried, errors
        mapped."""
        if name not in ECS_CALLS:
            raise ValueError(f"{name} is not a declared ECS call (client.ECS_CALLS)")
        models, client_cls = ecs_sdk()
        request = getattr(models, f"{name}Request")(**(params or {}))
        method = _snake(name)
        return self._invoke(
            account, creds,
            lambda: self._with_client(account, self._client(account, creds, client_cls),
                                      lambda c: getattr(c, method)(request)),
            name, context=context)

    def _invoke(self, account: Account, creds: Credentials, run: Callable[[], Any], action: str, *,
                service: str = "ecs", context: dict[str, Any] | None = None) -> dict[str, Any]:
        _b, _r, _h, sdk_exc, response_exc, connection_exc, timeout_exc = _core()
        url = endpoint_url(account, service)
        ctx: dict[str, Any] = {"region": account.region, "endpoint": url, **(context or {})}
        attempt = 0
        while True:
            attempt += 1
            try:
                answer = run()
                # the answer as the API reference spells it (to_dict() is deprecated in the SDK)
                body: dict[str, Any] = answer.to_json_object() or {}
                return body
            except response_exc as exc:
                code = str(exc.error_code or "Unknown")
                if code == "429":  # the SDK's retry layer gave up on HTTP 429: the gateway's throttling code
                    code = "APIGW.0308"
                delay = self._backoff(attempt) if code in THROTTLED_CODES else None
                if delay is not None:
                    log.info("Huawei %s throttled (%s); retry %d in %.1fs", action, code, attempt, delay)
                    self._sleep(delay)
                    continue
                log.info("Huawei %s failed: %s (request %s)", action, code, exc.request_id)
                raise map_error(code, str(exc.error_msg or code), str(exc.request_id or ""), action=action,
                                **ctx) from None
            except (connection_exc, timeout_exc) as exc:
                log.info("Huawei %s: no answer from %s (%s)", action, url, type(exc).__name__)
                raise network_error(PROVIDER_ID, url, f"{type(exc).__name__}: {exc.error_msg}") from None
            except sdk_exc as exc:
                # IAM's project look-up failed inside the SDK: its text names the code IAM answered
                text = str(getattr(exc, "error_msg", "") or exc)
                found = _CODE_IN_TEXT.search(text)
                code = found.group(1) if found and found.group(1) != "None" else NO_PROJECT_CODE
                log.info("Huawei %s: project look-up failed (%s)", action, code)
                raise map_error(code, text, "", action="KeystoneListProjects", **ctx) from None


def _snake(name: str) -> str:
    """``ListServerAzInfo`` → ``list_server_az_info`` (the SDK client's method)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


class _Raw:
    """A plain value in the shape of an SDK answer (``to_json_object``), for ``_invoke``."""

    def __init__(self, value: str) -> None:
        self.value = value

    def to_json_object(self) -> dict[str, str]:
        return {"id": self.value}
