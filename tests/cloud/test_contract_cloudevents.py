"""Contract of the three event readers (app/cloud/<aws|tencent|alibaba>/events.py) with their SDKs' own models,
offline: every request lookup_events builds is valid for the SDK's request model, and every error code mapped
to "grant this permission" is one the SDK's error list or the documents name."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from app.cloud.alibaba import errors as alibaba_errors
from app.cloud.alibaba import events as alibaba_events
from app.cloud.aws import events as aws_events
from app.cloud.base import CloudEventReader, get_provider
from app.cloud.tencent import events as tencent_events
from app.core import providers
from tests.cloud.test_contract_aws import JSON_DOCUMENTED, STS_DOCUMENTED
from tests.cloud.test_contract_aws import problems as botocore_problems
from tests.cloud.test_contract_tencent import COMMON_ERROR_CODES
from tests.fixtures.tencent_cvm_server import model_problems

END = datetime(2026, 5, 1, 12, 0, tzinfo=timezone.utc)
START = END - timedelta(days=3)
# CloudTrail's common errors (https://docs.aws.amazon.com/awscloudtrail/latest/APIReference/CommonErrors.html)
CLOUDTRAIL_COMMON = {"AccessDeniedException", "IncompleteSignature", "InternalFailure", "InvalidAction",
                     "InvalidClientTokenId", "NotAuthorized", "OptInRequired", "RequestExpired",
                     "ServiceUnavailable", "ThrottlingException", "ValidationError"}


def _tencent_audit_codes() -> set[str]:
    from tencentcloud.cloudaudit.v20190319 import errorcodes

    return {v for k, v in vars(errorcodes).items() if k.isupper() and isinstance(v, str)}


# -- every launchable cloud declares its event source and reads it ----------------------------------
@pytest.mark.parametrize("provider_id", ["aws", "tencent", "alibaba"])
def test_each_cloud_declares_its_event_source_and_reads_it(provider_id):
    source = providers.spec(provider_id).event_source
    assert source is not None and source.max_days == 90 and source.doc.startswith("https://")
    assert source.api in ("LookupEvents", "LookUpEvents")
    assert isinstance(get_provider(provider_id), CloudEventReader)


# -- requests ---------------------------------------------------------------------------------------
def _cloudtrail_problems(params: dict) -> list[str]:
    """botocore's ParamValidator (names, types, required, min) and enums, plus each integer's documented max
    (the validator checks only the min)."""
    import botocore.session

    shape = botocore.session.get_session().get_service_model("cloudtrail").operation_model("LookupEvents").input_shape
    out = botocore_problems("cloudtrail", "LookupEvents", params)
    for name, value in params.items():
        top = shape.members[name].metadata.get("max") if name in shape.members else None
        if isinstance(value, int) and top is not None and value > top:
            out.append(f"{name}: {value} > {top}")
    return out


@pytest.mark.parametrize("token", ["", "next-page-token"])
def test_cloudtrail_requests_are_valid_for_botocore(token):
    params = aws_events.lookup_request(START, END, token)
    assert _cloudtrail_problems(params) == []
    assert len(params["LookupAttributes"]) == 1  # "Currently the list can contain only one item."


def test_the_botocore_check_catches_a_wrong_request():
    bad = dict(aws_events.lookup_request(START, END), MaxResults=51)
    assert _cloudtrail_problems(bad)
    bad = dict(aws_events.lookup_request(START, END), LookupAttributes=[{"AttributeKey": "Region",
                                                                          "AttributeValue": "x"}])
    assert _cloudtrail_problems(bad)


@pytest.mark.parametrize("query", tencent_events.QUERIES)
def test_cloudaudit_requests_are_valid_for_the_sdk_model(query):
    from tencentcloud.cloudaudit.v20190319 import models

    for token in ("", "tok"):
        params = tencent_events.lookup_request(START, END, token, query)
        assert model_problems("cloudaudit", "LookUpEvents", params) == []
        req = models.LookUpEventsRequest()
        req._deserialize(params)
        assert (req.StartTime, req.EndTime, req.MaxResults) == (int(START.timestamp()), int(END.timestamp()), 50)
        assert req.LookupAttributes[0].AttributeKey == query["AttributeKey"]
    # AttributeKey values the model's docstring lists
    assert query["AttributeKey"] in models.LookupAttribute.__init__.__doc__


def test_the_tencent_model_check_catches_a_wrong_request():
    bad = dict(tencent_events.lookup_request(START, END), StartTime="yesterday", Region="x")
    assert model_problems("cloudaudit", "LookUpEvents", bad)


@pytest.mark.parametrize("query", alibaba_events.QUERIES)
def test_actiontrail_requests_round_trip_through_the_sdk_model(query):
    from alibabacloud_actiontrail20200706 import models

    for token in ("", "tok"):
        params = alibaba_events.lookup_request(START, END, token, query)
        req = models.LookupEventsRequest().from_map(params)
        req.validate()
        assert req.to_map() == params
        assert req.start_time == "2026-04-28T12:00:00Z" and req.end_time == "2026-05-01T12:00:00Z"
        assert 0 <= int(req.max_results) <= 50
    # the keys the model documents for LookupAttribute.N.Key
    doc = _alibaba_attribute_doc()
    assert f"{query['Key']}:" in doc


def _alibaba_attribute_doc() -> str:
    import inspect

    from alibabacloud_actiontrail20200706 import models

    return inspect.getsource(models.LookupEventsRequestLookupAttribute)


# -- error codes ------------------------------------------------------------------------------------
def test_aws_permission_codes_are_documented():
    assert set(aws_events.PERMISSION_CODES) <= CLOUDTRAIL_COMMON | STS_DOCUMENTED | JSON_DOCUMENTED


def test_tencent_permission_codes_are_in_the_sdk_or_the_common_codes():
    assert set(tencent_events.PERMISSION_CODES) - _tencent_audit_codes() - COMMON_ERROR_CODES == set()


def test_alibaba_permission_codes_are_the_plugins_documented_ram_codes():
    assert set(alibaba_events.PERMISSION_CODES) == set(alibaba_errors._GROUPS[alibaba_errors.RAM])


def test_the_code_checks_catch_an_invented_code():
    assert "AccessDeniedForever" not in CLOUDTRAIL_COMMON | STS_DOCUMENTED | JSON_DOCUMENTED
    assert {"CloudAudit.NoWay"} - _tencent_audit_codes() - COMMON_ERROR_CODES
