"""The strict S3 peer (tests/fixtures/s3_peer.py): a correct boto3 client passes on all four services'
endpoint shapes, and each rule the peer adds to moto fires. The SigV4 verifier is checked against the
worked examples of AWS's own documents (not against botocore, which is what it must catch)."""

from __future__ import annotations

import base64
import hashlib
import http.client
import threading
import urllib.error
import urllib.request
import zlib
from datetime import datetime, timedelta, timezone
from typing import Any

import boto3
import pytest
from botocore.auth import S3SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.config import Config
from botocore.credentials import Credentials as BotoCredentials
from botocore.exceptions import ClientError, ConnectionClosedError, EndpointConnectionError

from app.cloud.storage.client import s3_client, target_for
from app.core.accounts import Credentials
from app.core.buckets import parse_bucket_url
from tests.fixtures import s3_sigv4 as sig
from tests.fixtures.s3_peer import S3Peer

# The example credentials and requests of "Signature Calculations for the Authorization Header: Transferring
# Payload in a Single Chunk" (sig-v4-header-based-auth.html), "... Query Parameters" (sigv4-query-string-auth.html)
# and "... Multiple Chunks" (sigv4-streaming.html), Amazon S3 API Reference.
DOC_KEY, DOC_SECRET = "AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
DOC_DAY = datetime(2013, 5, 24, tzinfo=timezone.utc)


def client(peer: S3Peer, creds: Credentials, region: str, *, endpoint: str = "", proxy: str = "",
           addressing: str = "path", attempts: int = 1, **cfg: Any) -> Any:
    """A plain boto3 client (not LabGPU's) so a test chooses what it sends."""
    config = Config(signature_version="s3v4", s3={"addressing_style": addressing},
                    retries={"mode": "standard", "total_max_attempts": attempts},
                    proxies={"http": proxy} if proxy else None,
                    request_checksum_calculation="when_required", response_checksum_validation="when_required",
                    **cfg)
    return boto3.client("s3", endpoint_url=endpoint or peer.url, region_name=region, aws_access_key_id=creds.key_id,
                        aws_secret_access_key=creds.secret, aws_session_token=creds.session_token or None,
                        config=config)


def code(exc: pytest.ExceptionInfo[ClientError]) -> str:
    return str(exc.value.response["Error"]["Code"])


def fetch(url: str, *, method: str = "GET", data: bytes | None = None, proxy: str = "",
          headers: dict[str, str] | None = None) -> tuple[int, bytes, dict[str, str]]:
    handlers = [urllib.request.ProxyHandler({"http": proxy} if proxy else {})]
    opener = urllib.request.build_opener(*handlers)
    req = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    try:
        with opener.open(req, timeout=30) as resp:
            return resp.status, resp.read(), dict(resp.headers.items())
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(), dict(exc.headers.items())


# -- the verifier against the documents' examples ------------------------------------------------

def _doc_signature(method: str, path: str, query: str, headers: dict[str, str], payload: str,
                   presigned: bool = False) -> str:
    hdrs = {k.lower(): [v] for k, v in headers.items()}
    if presigned:
        s = sig.parse_presigned(dict(sig.query_pairs(query)))
    else:
        s = sig.Signed(DOC_KEY, "20130524", "us-east-1", "s3", sorted(hdrs), "", "20130524T000000Z")
    return sig.expected_signature(DOC_SECRET, s, method, path, sig.query_pairs(query), hdrs, payload, presigned)[0]


def test_verifier_reproduces_the_documents_examples() -> None:
    host = "examplebucket.s3.amazonaws.com"
    # GET Object (sig-v4-header-based-auth.html, "Example: GET Object")
    assert _doc_signature("GET", "/test.txt", "", {"Host": host, "Range": "bytes=0-9", "x-amz-date": "20130524T000000Z",
                          "x-amz-content-sha256": sig.EMPTY_SHA256}, sig.EMPTY_SHA256) == \
        "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"
    # PUT Object: "/test$file.text" is encoded as "/test%24file.text" in the canonical request
    body = hashlib.sha256(b"Welcome to Amazon S3.").hexdigest()
    assert _doc_signature("PUT", "/test$file.text", "", {
        "Host": host, "Date": "Fri, 24 May 2013 00:00:00 GMT", "x-amz-date": "20130524T000000Z",
        "x-amz-storage-class": "REDUCED_REDUNDANCY", "x-amz-content-sha256": body}, body) == \
        "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd"
    # GET Bucket lifecycle ("?lifecycle" is "lifecycle=" in the canonical query)
    assert _doc_signature("GET", "/", "lifecycle", {"Host": host, "x-amz-date": "20130524T000000Z",
                          "x-amz-content-sha256": sig.EMPTY_SHA256}, sig.EMPTY_SHA256) == \
        "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543"
    # Get Bucket (List Objects)
    assert _doc_signature("GET", "/", "max-keys=2&prefix=J", {"Host": host, "x-amz-date": "20130524T000000Z",
                          "x-amz-content-sha256": sig.EMPTY_SHA256}, sig.EMPTY_SHA256) == \
        "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7"
    # A presigned GET (sigv4-query-string-auth.html, "An Example")
    q = ("X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2F"
         "aws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host&X-Amz-Signature=x")
    assert _doc_signature("GET", "/test.txt", q, {"Host": host}, sig.UNSIGNED, presigned=True) == \
        "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404"


def test_chunk_signatures_follow_the_streaming_example() -> None:
    s = sig.Signed(DOC_KEY, "20130524", "us-east-1", "s3", [], "", "20130524T000000Z")
    key = sig.signing_key(DOC_SECRET, "20130524", "us-east-1")
    seed = "4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9"
    first = sig.chunk_signature(key, s, seed, hashlib.sha256(b"a" * 65536).hexdigest())
    assert first == "ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648"
    second = sig.chunk_signature(key, s, first, hashlib.sha256(b"a" * 1024).hexdigest())
    assert second == "0055627c9e194cb4542bae2aa5492e3c1575bbb81b612b7d234b86a503ef5497"
    assert sig.chunk_signature(key, s, second, sig.EMPTY_SHA256) == \
        "b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9"


# -- a correct client passes --------------------------------------------------------------------

@pytest.mark.parametrize(("scheme", "bucket", "region", "virtual"), [
    ("s3", "labgpu-data", "us-west-2", True),
    ("s3", "labgpu-east", "us-east-1", False),
    ("cos", "data-1250000000", "ap-guangzhou", True),
    ("oss", "lab-oss-data", "cn-hangzhou", True),
    ("obs", "lab-obs-data", "cn-north-4", True),
    ("cos", "path-1250000000", "ap-beijing", False),
])
def test_labgpu_client_passes_on_every_service(s3_peer: S3Peer, scheme: str, bucket: str, region: str,
                                              virtual: bool) -> None:
    s3_peer.make_bucket(scheme, bucket, region)
    account, creds = s3_peer.account("lab", scheme, region, virtual=virtual)
    c = s3_client(target_for(account, parse_bucket_url(f"{scheme}://{bucket}/run")), creds)
    key = "run/a b+ü(1).txt"
    c.put_object(Bucket=bucket, Key=key, Body=b"hello", Metadata={"labgpu-mtime": "1"})
    assert c.get_object(Bucket=bucket, Key=key, Range="bytes=1-3")["Body"].read() == b"ell"
    assert c.head_object(Bucket=bucket, Key=key)["Metadata"] == {"labgpu-mtime": "1"}
    assert [o["Key"] for o in c.list_objects_v2(Bucket=bucket, Prefix="run/")["Contents"]] == [key]
    head = c.head_bucket(Bucket=bucket)
    assert head["ResponseMetadata"]["HTTPHeaders"]["x-amz-bucket-region"] == region
    up = c.create_multipart_upload(Bucket=bucket, Key="run/big")["UploadId"]
    part = b"x" * (5 << 20)
    e1 = c.upload_part(Bucket=bucket, Key="run/big", UploadId=up, PartNumber=1, Body=part)["ETag"]
    e2 = c.upload_part(Bucket=bucket, Key="run/big", UploadId=up, PartNumber=2, Body=b"tail",
                       ContentMD5="euolUt/n64S5RDtvybpuAQ==")["ETag"]
    assert [p["PartNumber"] for p in c.list_parts(Bucket=bucket, Key="run/big", UploadId=up)["Parts"]] == [1, 2]
    c.complete_multipart_upload(Bucket=bucket, Key="run/big", UploadId=up, MultipartUpload={
        "Parts": [{"PartNumber": 1, "ETag": e1}, {"PartNumber": 2, "ETag": e2}]})
    assert s3_peer.get(scheme, bucket, "run/big") == part + b"tail"
    url = c.generate_presigned_url("get_object", Params={"Bucket": bucket, "Key": key}, ExpiresIn=600)
    status, body, _ = fetch(url, proxy=s3_peer.url if virtual else "")
    assert (status, body) == (200, b"hello")
    put = c.generate_presigned_url("put_object", Params={"Bucket": bucket, "Key": "run/up"}, ExpiresIn=600)
    assert fetch(put, method="PUT", data=b"from the instance", proxy=s3_peer.url if virtual else "")[0] == 200
    assert s3_peer.get(scheme, bucket, "run/up") == b"from the instance"
    c.delete_objects(Bucket=bucket, Delete={"Objects": [{"Key": key}, {"Key": "run/up"}]})
    assert s3_peer.keys(scheme, bucket) == ["run/big"]
    ops = s3_peer.ops()
    assert ops[:4] == ["PutObject", "GetObject", "HeadObject", "ListObjectsV2"]
    assert "UploadPart" in ops and "DeleteObjects" in ops and all(r.status in (200, 206) for r in s3_peer.requests)
    assert [r.op for r in s3_peer.writes()] == ["PutObject", "CreateMultipartUpload", "UploadPart", "UploadPart",
                                                "CompleteMultipartUpload", "PutObject", "DeleteObjects"]


# -- each rule fires ------------------------------------------------------------------------------

BUCKET, REGION = "strict-data", "us-west-2"


@pytest.fixture
def bucket(s3_peer: S3Peer) -> str:
    s3_peer.make_bucket("s3", BUCKET, REGION)
    s3_peer.put("s3", BUCKET, "k.txt", b"hello")
    return BUCKET


def _after_signing(c: Any, change: Any) -> None:
    """Change a request after botocore signed it (what a broken client or a meddling proxy would send)."""
    c.meta.events.register("before-send.s3.*", lambda request, **kw: change(request))


def test_wrong_secret_and_unknown_key_are_refused(s3_peer: S3Peer, bucket: str) -> None:
    good = s3_peer.new_key()
    with pytest.raises(ClientError) as exc:
        client(s3_peer, Credentials(good.key_id, "not-the-secret"), REGION).get_object(Bucket=bucket, Key="k.txt")
    assert code(exc) == "SignatureDoesNotMatch"
    with pytest.raises(ClientError) as exc:
        client(s3_peer, Credentials("AKIANOBODY0000000000", "x"), REGION).get_object(Bucket=bucket, Key="k.txt")
    assert code(exc) == "InvalidAccessKeyId"
    assert fetch(f"{s3_peer.url}/{bucket}/k.txt")[0] == 403  # anonymous: AccessDenied
    assert [r.status for r in s3_peer.requests] == [403, 403, 403]


def test_a_request_changed_after_signing_is_refused(s3_peer: S3Peer, bucket: str) -> None:
    c = client(s3_peer, s3_peer.new_key(), REGION)

    def other_key(request: Any) -> None:
        request.url = request.url.replace("/k.txt", "/other.txt")
    _after_signing(c, other_key)
    with pytest.raises(ClientError) as exc:
        c.get_object(Bucket=bucket, Key="k.txt")
    assert code(exc) == "SignatureDoesNotMatch"


def test_unsigned_amz_header_and_missing_payload_hash(s3_peer: S3Peer, bucket: str) -> None:
    c = client(s3_peer, s3_peer.new_key(), REGION)
    _after_signing(c, lambda request: request.headers.__setitem__("x-amz-meta-added", "later"))
    with pytest.raises(ClientError) as exc:
        c.put_object(Bucket=bucket, Key="n.txt", Body=b"x")
    assert code(exc) == "AccessDenied"
    assert "x-amz-meta-added" in str(exc.value.response["Error"].get("HeadersNotSigned"))
    c2 = client(s3_peer, s3_peer.new_key(), REGION)
    _after_signing(c2, lambda request: request.headers.__delitem__("x-amz-content-sha256"))
    with pytest.raises(ClientError) as exc:
        c2.get_object(Bucket=bucket, Key="k.txt")
    assert code(exc) == "InvalidRequest"
    assert s3_peer.keys("s3", bucket) == ["k.txt"]


def test_body_that_does_not_match_its_hash_or_md5_is_not_stored(s3_peer: S3Peer, bucket: str) -> None:
    c = client(s3_peer, s3_peer.new_key(), REGION)
    body = bytes(range(256)) * (12 << 10)  # 3 MiB: moto gets the first pieces before the hash is known

    def swap(request: Any) -> None:
        request.body = b"\xff" + body[1:]
    _after_signing(c, swap)
    with pytest.raises(ClientError) as exc:
        c.put_object(Bucket=bucket, Key="big.bin", Body=body)
    assert code(exc) == "XAmzContentSHA256Mismatch"
    c2 = client(s3_peer, s3_peer.new_key(), REGION)
    with pytest.raises(ClientError) as exc:
        c2.put_object(Bucket=bucket, Key="md5.bin", Body=body, ContentMD5="euolUt/n64S5RDtvybpuAQ==")
    assert code(exc) == "BadDigest"
    with pytest.raises(ClientError) as exc:
        c2.put_object(Bucket=bucket, Key="md5.bin", Body=b"x", ContentMD5="not-md5")
    assert code(exc) == "InvalidDigest"
    assert s3_peer.keys("s3", bucket) == ["k.txt"]
    c2.put_object(Bucket=bucket, Key="md5.bin", Body=b"tail", ContentMD5="euolUt/n64S5RDtvybpuAQ==")
    assert s3_peer.get("s3", bucket, "md5.bin") == b"tail"


def test_clock_skew_and_presigned_expiry_follow_the_peer_clock(s3_peer: S3Peer, bucket: str) -> None:
    creds = s3_peer.new_key()
    c = client(s3_peer, creds, REGION)
    url = c.generate_presigned_url("get_object", Params={"Bucket": bucket, "Key": "k.txt"}, ExpiresIn=3600)
    assert fetch(url)[:2] == (200, b"hello")
    s3_peer.clock.advance(3601)
    status, body, _ = fetch(url)
    assert status == 403 and b"<Code>AccessDenied</Code>" in body and b"Request has expired" in body
    # moto itself would still serve it (it checks no expiry): the rule is the peer's
    raw = url.replace(s3_peer.url, s3_peer.raw_url)
    assert fetch(raw)[0] == 200
    with pytest.raises(ClientError) as exc:  # an hour off: more than the 15 minutes S3 allows
        c.get_object(Bucket=bucket, Key="k.txt")
    assert code(exc) == "RequestTimeTooSkewed"
    s3_peer.clock.set(datetime.now(timezone.utc) - timedelta(hours=1))
    status, body, _ = fetch(url)
    assert status == 403 and b"Request is not valid yet" in body
    s3_peer.clock.reset()
    week = c.generate_presigned_url("get_object", Params={"Bucket": bucket, "Key": "k.txt"}, ExpiresIn=604801)
    status, body, _ = fetch(week)
    assert status == 400 and b"AuthorizationQueryParametersError" in body and b"604800" in body
    tampered = url.replace("k.txt", "other.txt")
    assert b"SignatureDoesNotMatch" in fetch(tampered)[1]


def test_region_of_the_signature_must_be_the_buckets(s3_peer: S3Peer, bucket: str) -> None:
    creds = s3_peer.new_key()
    url = f"{s3_peer.url}/{bucket}/k.txt"
    req = AWSRequest("GET", url, headers={"X-Amz-Content-SHA256": sig.EMPTY_SHA256})
    S3SigV4Auth(BotoCredentials(creds.key_id, creds.secret), "s3", "us-east-1").add_auth(req)
    status, body, headers = fetch(url, headers=dict(req.headers.items()))
    assert status == 400 and b"<Code>AuthorizationHeaderMalformed</Code>" in body
    assert b"<Region>us-west-2</Region>" in body and b"expecting 'us-west-2'" in body
    assert headers["x-amz-bucket-region"] == REGION
    # botocore reads the region from that answer and signs again (its S3 region redirector)
    s3_peer.clear_requests()
    c = client(s3_peer, creds, "us-east-1")
    assert c.get_object(Bucket=bucket, Key="k.txt")["Body"].read() == b"hello"
    assert [r.status for r in s3_peer.requests] == [400, 200]
    s3_peer.clear_requests()
    # HeadBucket: a 400 without a body, the region in x-amz-bucket-region
    client(s3_peer, creds, "us-east-1").head_bucket(Bucket=bucket)
    assert [r.status for r in s3_peer.requests] == [400, 200]
    presigned = c.generate_presigned_url("get_object", Params={"Bucket": bucket, "Key": "k.txt"}, ExpiresIn=60)
    status, body, _ = fetch(presigned)
    assert status == 400 and b"AuthorizationQueryParametersError" in body and b"<Region>us-west-2</Region>" in body


def test_the_right_signature_through_another_regions_endpoint_is_redirected(s3_peer: S3Peer, bucket: str) -> None:
    c = client(s3_peer, s3_peer.new_key(), REGION, endpoint="http://s3.us-east-1.amazonaws.com", proxy=s3_peer.url,
               addressing="virtual")
    with pytest.raises(ClientError) as exc:
        c.get_object(Bucket=bucket, Key="k.txt")
    assert code(exc) == "PermanentRedirect"
    assert exc.value.response["Error"]["Endpoint"] == f"{bucket}.s3.us-west-2.amazonaws.com"


@pytest.mark.parametrize(("scheme", "bucket_name", "region", "host", "error"), [
    ("cos", "data-1250000000", "ap-guangzhou", "cos.ap-guangzhou.myqcloud.com", "PathStyleDomainForbidden"),
    ("oss", "lab-oss-data", "cn-beijing", "oss-cn-beijing.aliyuncs.com", "SecondLevelDomainForbidden"),
    ("obs", "lab-obs-data", "ap-southeast-1", "obs.ap-southeast-1.myhuaweicloud.com", "VirtualHostDomainRequired"),
])
def test_path_style_is_refused_on_cos_oss_obs_hosts(s3_peer: S3Peer, scheme: str, bucket_name: str, region: str,
                                                   host: str, error: str) -> None:
    s3_peer.make_bucket(scheme, bucket_name, region)
    creds = s3_peer.new_key()
    path = client(s3_peer, creds, region, endpoint=f"http://{host}", proxy=s3_peer.url, addressing="path")
    with pytest.raises(ClientError) as exc:
        path.put_object(Bucket=bucket_name, Key="a.txt", Body=b"a")
    assert code(exc) == error
    virtual = client(s3_peer, creds, region, endpoint=f"http://{host}", proxy=s3_peer.url, addressing="virtual")
    virtual.put_object(Bucket=bucket_name, Key="a.txt", Body=b"a")
    assert s3_peer.keys(scheme, bucket_name) == ["a.txt"]
    # a bucket of one service is not found through another's endpoint (moto has one namespace for all)
    other = client(s3_peer, creds, "us-east-1", endpoint="http://s3.us-east-1.amazonaws.com", proxy=s3_peer.url,
                   addressing="virtual")
    with pytest.raises(ClientError) as exc:
        other.get_object(Bucket=bucket_name, Key="a.txt")
    assert code(exc) == "NoSuchBucket"


def test_actions_the_key_is_not_allowed_are_refused(s3_peer: S3Peer, bucket: str) -> None:
    reader = s3_peer.new_key(allow=("s3:GetObject", "s3:ListBucket"))
    c = client(s3_peer, reader, REGION)
    assert c.get_object(Bucket=bucket, Key="k.txt")["Body"].read() == b"hello"
    assert c.list_objects_v2(Bucket=bucket)["KeyCount"] == 1
    calls: list[tuple[str, dict[str, Any]]] = [("put_object", {"Key": "n.txt", "Body": b"x"}),
                                               ("delete_object", {"Key": "k.txt"}),
                                               ("create_multipart_upload", {"Key": "m"})]
    for name, kwargs in calls:
        with pytest.raises(ClientError) as exc:
            getattr(c, name)(Bucket=bucket, **kwargs)
        assert code(exc) == "AccessDenied"
    with pytest.raises(ClientError) as exc:  # refused on its headers (botocore sends 100-continue)
        c.put_object(Bucket=bucket, Key="big.bin", Body=b"b" * (3 << 20))
    assert code(exc) == "AccessDenied"
    url = client(s3_peer, reader, REGION).generate_presigned_url(
        "put_object", Params={"Bucket": bucket, "Key": "big.bin"}, ExpiresIn=60)
    assert fetch(url, method="PUT", data=b"b" * (3 << 20))[0] == 403  # a client without 100-continue
    prefix_only = client(s3_peer, s3_peer.new_key(allow=(f"s3:*Object@{bucket}/run/*",)), REGION)
    prefix_only.put_object(Bucket=bucket, Key="run/a.txt", Body=b"a")
    with pytest.raises(ClientError) as exc:
        prefix_only.put_object(Bucket=bucket, Key="other/a.txt", Body=b"a")
    assert code(exc) == "AccessDenied"
    assert s3_peer.keys("s3", bucket) == ["k.txt", "run/a.txt"]


def test_session_tokens(s3_peer: S3Peer, bucket: str) -> None:
    creds = s3_peer.new_key(token=True)
    c = client(s3_peer, creds, REGION)
    assert c.get_object(Bucket=bucket, Key="k.txt")["Body"].read() == b"hello"
    with pytest.raises(ClientError) as exc:
        client(s3_peer, Credentials(creds.key_id, creds.secret), REGION).get_object(Bucket=bucket, Key="k.txt")
    assert code(exc) == "InvalidToken"
    s3_peer.expire_token(creds)
    with pytest.raises(ClientError) as exc:
        c.get_object(Bucket=bucket, Key="k.txt")
    assert code(exc) == "ExpiredToken"


# -- knobs ----------------------------------------------------------------------------------------

def test_slow_down_answers_503_then_recovers(s3_peer: S3Peer, bucket: str) -> None:
    creds = s3_peer.new_key()
    s3_peer.slow_down(2)
    retried = client(s3_peer, creds, REGION, attempts=3)
    assert retried.get_object(Bucket=bucket, Key="k.txt")["Body"].read() == b"hello"
    assert [r.status for r in s3_peer.requests] == [503, 503, 200]
    s3_peer.slow_down(1, op="PutObject")
    once = client(s3_peer, creds, REGION)
    once.get_object(Bucket=bucket, Key="k.txt")
    with pytest.raises(ClientError) as exc:
        once.put_object(Bucket=bucket, Key="n.txt", Body=b"x")
    assert code(exc) == "SlowDown"


def test_cut_upload_part_drops_the_connection_mid_body(s3_peer: S3Peer, bucket: str) -> None:
    c = client(s3_peer, s3_peer.new_key(), REGION)
    up = c.create_multipart_upload(Bucket=bucket, Key="big")["UploadId"]
    cut = s3_peer.cut_upload_part(after_parts=1)
    part = b"p" * (5 << 20)
    c.upload_part(Bucket=bucket, Key="big", UploadId=up, PartNumber=1, Body=part)
    with pytest.raises((ConnectionClosedError, EndpointConnectionError)):
        c.upload_part(Bucket=bucket, Key="big", UploadId=up, PartNumber=2, Body=part)
    assert cut.fired.is_set() and cut.count == 1
    retrying = client(s3_peer, s3_peer.new_key(), REGION, attempts=3)
    with pytest.raises((ConnectionClosedError, EndpointConnectionError)):  # every later part, until healed
        retrying.upload_part(Bucket=bucket, Key="big", UploadId=up, PartNumber=2, Body=part)
    assert cut.count == 4
    assert [p["PartNumber"] for p in c.list_parts(Bucket=bucket, Key="big", UploadId=up)["Parts"]] == [1]
    s3_peer.heal()
    c.upload_part(Bucket=bucket, Key="big", UploadId=up, PartNumber=2, Body=part)
    assert s3_peer.uploads("s3", bucket) == [("big", up)]
    assert [r.status for r in s3_peer.requests if r.op == "UploadPart"] == [200, 0, 0, 0, 0, 200]


def test_hold_keeps_a_request_until_released(s3_peer: S3Peer, bucket: str) -> None:
    c = client(s3_peer, s3_peer.new_key(), REGION)
    hold = s3_peer.hold("PutObject")
    done = threading.Event()

    def put() -> None:
        c.put_object(Bucket=bucket, Key="held.txt", Body=b"h")
        done.set()
    t = threading.Thread(target=put, name="held-put")
    t.start()
    try:
        assert hold.reached.wait(30)
        assert s3_peer.keys("s3", bucket) == ["k.txt"]  # checked, not yet stored
    finally:
        hold.release()
        t.join(30)
    assert done.is_set() and s3_peer.get("s3", bucket, "held.txt") == b"h"


# -- aws-chunked bodies -----------------------------------------------------------------------------

def _doc_chunked(s3_peer: S3Peer, tamper: bool = False) -> int:
    """The PUT of sigv4-streaming.html, byte for byte (66,560 bytes of 'a' in chunks of 64 KiB, 1 KiB, 0)."""
    s3_peer.new_key(key_id=DOC_KEY, secret=DOC_SECRET)
    s3_peer.clock.set(DOC_DAY)
    sigs = ("ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648",
            "0055627c9e194cb4542bae2aa5492e3c1575bbb81b612b7d234b86a503ef5497",
            "b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9")
    body = (f"10000;chunk-signature={sigs[0]}\r\n".encode() + b"a" * 65536 + b"\r\n"
            + f"400;chunk-signature={sigs[1]}\r\n".encode() + (b"b" if tamper else b"a") + b"a" * 1023 + b"\r\n"
            + f"0;chunk-signature={sigs[2]}\r\n\r\n".encode())
    assert len(body) == 66824
    headers = {
        "Host": "s3.amazonaws.com", "x-amz-date": "20130524T000000Z", "x-amz-storage-class": "REDUCED_REDUNDANCY",
        "Authorization": "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
        "SignedHeaders=content-encoding;content-length;host;x-amz-content-sha256;x-amz-date;"
        "x-amz-decoded-content-length;x-amz-storage-class,"
        "Signature=4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9",
        "x-amz-content-sha256": "STREAMING-AWS4-HMAC-SHA256-PAYLOAD", "Content-Encoding": "aws-chunked",
        "x-amz-decoded-content-length": "66560", "Content-Length": "66824"}
    conn = http.client.HTTPConnection("127.0.0.1", int(s3_peer.url.rsplit(":", 1)[1]), timeout=30)
    try:
        conn.putrequest("PUT", "http://s3.amazonaws.com/examplebucket/chunkObject.txt", skip_host=True,
                        skip_accept_encoding=True)
        for k, v in headers.items():
            conn.putheader(k, v)
        conn.endheaders(body)
        resp = conn.getresponse()
        resp.read()
        return resp.status
    finally:
        conn.close()


def test_signed_aws_chunked_body_of_the_document_is_decoded(s3_peer: S3Peer) -> None:
    s3_peer.make_bucket("s3", "examplebucket", "us-east-1")
    assert _doc_chunked(s3_peer, tamper=True) == 403  # a changed chunk breaks its signature
    assert s3_peer.keys("s3", "examplebucket") == []
    assert _doc_chunked(s3_peer) == 200
    assert s3_peer.get("s3", "examplebucket", "chunkObject.txt") == b"a" * 66560


def test_unsigned_chunked_body_with_trailing_checksum(s3_peer: S3Peer, bucket: str) -> None:
    creds = s3_peer.new_key()
    data = b"chunked payload " * 5000
    crc = base64.b64encode(zlib.crc32(data).to_bytes(4, "big")).decode()

    def put(checksum: str) -> int:
        body = (f"{len(data):x}\r\n".encode() + data + b"\r\n0\r\n"
                + f"x-amz-checksum-crc32:{checksum}\r\n\r\n".encode())
        url = f"{s3_peer.url}/{bucket}/chunked.bin"
        req = AWSRequest("PUT", url, data=body, headers={
            "Content-Encoding": "aws-chunked", "x-amz-decoded-content-length": str(len(data)),
            "x-amz-trailer": "x-amz-checksum-crc32", "X-Amz-Content-SHA256": "STREAMING-UNSIGNED-PAYLOAD-TRAILER",
            "Content-Length": str(len(body))})
        S3SigV4Auth(BotoCredentials(creds.key_id, creds.secret), "s3", REGION).add_auth(req)
        status, _, _ = fetch(url, method="PUT", data=body, headers=dict(req.headers.items()))
        return status

    assert put("AAAAAA==") == 400
    assert s3_peer.keys("s3", bucket) == ["k.txt"]
    assert put(crc) == 200
    assert s3_peer.get("s3", bucket, "chunked.bin") == data


# -- limits moto does not enforce -------------------------------------------------------------------

def test_limits_refused_before_the_body(s3_peer: S3Peer, bucket: str) -> None:
    creds = s3_peer.new_key()
    c = client(s3_peer, creds, REGION)
    with pytest.raises(ClientError) as exc:
        c.put_object(Bucket=bucket, Key="k" * 1025, Body=b"x")
    assert code(exc) == "KeyTooLongError"
    with pytest.raises(ClientError) as exc:
        c.put_object(Bucket=bucket, Key="m", Body=b"x", Metadata={"labgpu-note": "n" * 2100})
    assert code(exc) == "MetadataTooLarge"
    up = c.create_multipart_upload(Bucket=bucket, Key="big")["UploadId"]
    for number in (0, 10001):
        with pytest.raises(ClientError) as exc:
            c.upload_part(Bucket=bucket, Key="big", UploadId=up, PartNumber=number, Body=b"x")
        assert code(exc) == "InvalidArgument"
    # a 6 GiB PutObject is refused on its headers (100-continue): the body is never sent
    url = f"{s3_peer.url}/{bucket}/huge.bin"
    req = AWSRequest("PUT", url, headers={"X-Amz-Content-SHA256": sig.UNSIGNED, "Content-Length": str(6 << 30),
                                          "Expect": "100-continue"})
    S3SigV4Auth(BotoCredentials(creds.key_id, creds.secret), "s3", REGION).add_auth(req)
    conn = http.client.HTTPConnection("127.0.0.1", int(s3_peer.url.rsplit(":", 1)[1]), timeout=30)
    try:
        conn.putrequest("PUT", f"/{bucket}/huge.bin", skip_host=True, skip_accept_encoding=True)
        conn.putheader("Host", s3_peer.url.split("//", 1)[1])
        for k, v in req.headers.items():
            conn.putheader(k, v)
        conn.endheaders()
        resp = conn.getresponse()
        assert resp.status == 400 and b"<Code>EntityTooLarge</Code>" in resp.read()
    finally:
        conn.close()
    assert s3_peer.keys("s3", bucket) == ["k.txt"]


def test_listing_pages_and_delete_batches_are_at_most_1000(s3_peer: S3Peer, bucket: str) -> None:
    from moto.s3.models import s3_backends

    backend = s3_backends["123456789012"]["global"]  # 1,200 objects without 1,200 requests
    for i in range(1200):
        backend.put_object(bucket, f"many/{i:05d}", b"")
    c = client(s3_peer, s3_peer.new_key(), REGION)
    page = c.list_objects_v2(Bucket=bucket, Prefix="many/", MaxKeys=5000)
    assert page["KeyCount"] == 1000 and page["IsTruncated"]  # moto alone answers all 1,200
    keys = [{"Key": f"many/{i:05d}"} for i in range(1001)]
    with pytest.raises(ClientError) as exc:
        c.delete_objects(Bucket=bucket, Delete={"Objects": keys})
    assert code(exc) == "MalformedXML"
    assert len(s3_peer.keys("s3", bucket, "many/")) == 1200
    c.delete_objects(Bucket=bucket, Delete={"Objects": keys[:1000]})
    assert len(s3_peer.keys("s3", bucket, "many/")) == 200
