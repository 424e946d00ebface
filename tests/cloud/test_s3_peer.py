"""The strict S3 peer (tests/fixtures/s3_peer.py): a correct boto3 client passes on all four services'
endpoint shapes, and each rule the peer adds to moto fires. The SigV4 verifier is checked against the
worked examples of AWS's own documents (not against botocore, which is what it must catch)."""

from __future__ import annotations

import hashlib
import threading
import urllib.error
import urllib.request
from datetime import datetime, timezone
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
                    retries={"mode": "standard", "max_attempts": attempts},
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
