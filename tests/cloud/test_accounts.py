"""Accounts against a real Secret Service (gnome-keyring in a private dbus): secrets only there."""

from __future__ import annotations

import keyring
import pytest
from keyring.backends import fail

from app.cloud.aws.importer import aws_import_candidates
from app.cloud.launch import CloudService
from app.cloud.tencent.importer import tencent_import_candidates
from app.core import secrets
from app.core.accounts import (
    Account,
    AccountBook,
    AccountError,
    Credentials,
    mask_key_id,
)
from app.core.errors import InputError
from app.core.paths import default_paths
from app.core.secrets import SecretsUnavailableError
from app.core.store import Store
from tests.fixtures.moto_server import AWS_KEY_ID, AWS_SECRET

SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzzSECRET1"
KEY_ID = "AKIAIOSFODNN7EXAMPLE"


def _all_bytes(root) -> bytes:
    return b"".join(p.read_bytes() for p in root.rglob("*") if p.is_file())


@pytest.fixture
def book(labgpu_home):
    store = Store(paths=default_paths())
    yield AccountBook(store)
    store.close()


def test_add_keeps_secrets_in_keyring_only(secret_service, book, labgpu_home):
    acc = book.add(
        Account("lab", "aws", "us-east-1", "http://127.0.0.1:9"), Credentials(KEY_ID, SECRET, "tok-123456")
    )
    assert acc.endpoint == "http://127.0.0.1:9"
    info = book.info("lab")
    assert info.key_id_masked == "AKIA…MPLE"
    assert info.to_json()["key_id"] == "AKIA…MPLE"
    creds = book.credentials("lab")
    assert (creds.key_id, creds.secret, creds.session_token) == (KEY_ID, SECRET, "tok-123456")
    assert keyring.get_password("labgpu", "account:lab:secret") == SECRET
    book.store.close()
    blob = _all_bytes(labgpu_home)
    for value in (KEY_ID, SECRET, "tok-123456"):
        assert value.encode() not in blob
    assert b"account:lab:secret" in blob  # files keep the entry's name


def test_edit_and_remove(secret_service, book):
    book.add(
        Account("t1", "tencent", "ap-guangzhou", "127.0.0.1:9000", {"protocol": "http"}),
        Credentials("AKIDtencentid0001", "tencentsecret0001"),
    )
    acc = book.edit(
        "t1", region="ap-shanghai", credentials=Credentials("AKIDtencentid0002", "tencentsecret0002")
    )
    assert acc.region == "ap-shanghai"
    assert acc.protocol == "http"
    assert book.credentials("t1").secret == "tencentsecret0002"
    assert book.info("t1").key_id_masked == "AKID…0002"
    book.remove("t1")
    assert not book.exists("t1")
    assert keyring.get_password("labgpu", "account:t1:secret") is None
    with pytest.raises(AccountError) as err:
        book.get("t1")
    assert err.value.code == "NoSuchAccount"


def test_duplicate_and_bad_input_refused(secret_service, book):
    book.add(Account("dup", "aws", "us-east-1"), Credentials(KEY_ID, SECRET))
    with pytest.raises(AccountError):
        book.add(Account("dup", "aws", "us-east-1"), Credentials(KEY_ID, SECRET))
    for acc, creds in (
        (Account("bad name", "aws", "us-east-1"), Credentials(KEY_ID, SECRET)),
        (Account("x", "azure", "us-east-1"), Credentials(KEY_ID, SECRET)),
        (Account("x", "aws", "nowhere"), Credentials(KEY_ID, SECRET)),
        (Account("x", "aws", "us-east-1"), Credentials("", SECRET)),
        (Account("x", "aws", "us-east-1"), Credentials(KEY_ID, "with space")),
    ):
        with pytest.raises(InputError):
            book.add(acc, creds)
    assert [a.name for a in book.list()] == ["dup"]


def test_no_keyring_stores_nothing(book, labgpu_home, monkeypatch):
    """A bare Linux without Secret Service: keyring has only its fail backend."""
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    try:
        with pytest.raises(SecretsUnavailableError) as err:
            book.add(Account("lab", "aws", "us-east-1"), Credentials(KEY_ID, SECRET))
    finally:
        keyring.set_keyring(previous)
    assert "gnome-keyring" in err.value.hint()
    assert book.list() == []
    book.store.close()
    assert SECRET.encode() not in _all_bytes(labgpu_home)
    assert KEY_ID.encode() not in _all_bytes(labgpu_home)


def test_mask_key_id():
    assert mask_key_id("AKIAIOSFODNN7EXAMPLE") == "AKIA…MPLE"
    assert mask_key_id("short") == "…rt"
    assert mask_key_id("") == ""


def test_aws_import_from_profiles_and_env(tmp_path, secret_service, book):
    creds = tmp_path / "credentials"
    creds.write_text(
        "[default]\naws_access_key_id = AKIADEFAULT000001\naws_secret_access_key = defsecret01\n"
        "[lab gpu]\naws_access_key_id = AKIALABGPU0000002\naws_secret_access_key = labsecret02\n"
        "aws_session_token = labtoken02\n[empty]\naws_access_key_id = AKIAONLYID\n"
    )
    config = tmp_path / "config"
    config.write_text(
        "[default]\nregion = eu-west-1\n[profile lab gpu]\nregion = us-west-2\n"
        "endpoint_url = http://127.0.0.1:4566\n"
    )
    env = {
        "AWS_SHARED_CREDENTIALS_FILE": str(creds),
        "AWS_CONFIG_FILE": str(config),
        "AWS_ACCESS_KEY_ID": "AKIAENVIRON000003",
        "AWS_SECRET_ACCESS_KEY": "envsecret03",
        "AWS_DEFAULT_REGION": "ap-northeast-1",
    }
    cands = aws_import_candidates(env=env)
    got = {
        c.account.name: (
            c.account.region,
            c.account.endpoint,
            c.credentials.key_id,
            c.credentials.session_token,
        )
        for c in cands
    }
    assert got == {
        "aws-default": ("eu-west-1", "", "AKIADEFAULT000001", ""),
        "aws-lab-gpu": ("us-west-2", "http://127.0.0.1:4566", "AKIALABGPU0000002", "labtoken02"),
        "aws-env": ("ap-northeast-1", "", "AKIAENVIRON000003", ""),
    }
    results = book.import_candidates(cands)
    assert [r.status for r in results] == ["added"] * 3
    assert [r.status for r in book.import_candidates(cands)] == ["skipped"] * 3
    assert book.credentials("aws-lab-gpu").session_token == "labtoken02"
    only = aws_import_candidates(profile="lab gpu", env=env)
    assert [c.account.name for c in only] == ["aws-lab-gpu"]
    with pytest.raises(AccountError) as err:
        aws_import_candidates(profile="nope", env=env)
    assert err.value.code == "NoAwsProfile"


def test_tencent_import_from_env():
    env = {"TENCENTCLOUD_SECRET_ID": "AKIDenv0001", "TENCENTCLOUD_SECRET_KEY": "envkey0001"}
    [cand] = tencent_import_candidates("ap-guangzhou", env=env)
    assert cand.account.provider == "tencent"
    assert cand.account.region == "ap-guangzhou"
    assert cand.credentials.secret == "envkey0001"
    assert tencent_import_candidates("ap-guangzhou", env={}) == []


def test_test_connection_against_moto(secret_service, moto, labgpu_home):
    svc = CloudService()
    svc.accounts.add(Account("lab", "aws", "us-east-1", moto.url), Credentials(AWS_KEY_ID, AWS_SECRET))
    assert "arn:aws" in svc.test_connection("lab")
    svc.close()


def test_test_connection_shows_auth_error(secret_service, aws_proxy, labgpu_home):
    # moto accepts any key; AWS answers a wrong key with InvalidClientTokenId: the proxy sends that body.
    aws_proxy.inject(
        "GetCallerIdentity",
        "InvalidClientTokenId",
        "The security token included in the request is invalid.",
        status=403,
    )
    svc = CloudService()
    svc.accounts.add(Account("lab", "aws", "us-east-1", aws_proxy.url), Credentials(AWS_KEY_ID, AWS_SECRET))
    with pytest.raises(Exception) as err:
        svc.test_connection("lab")
    line = err.value.one_line()
    assert "[InvalidClientTokenId]" in line
    assert "does not know the access key id" in line
    assert "IAM" in line
    assert AWS_SECRET not in line
    svc.close()


def test_secrets_module_is_the_only_keyring_user():
    import pathlib

    root = pathlib.Path(__file__).resolve().parents[2] / "app"
    users = [p for p in root.rglob("*.py") if "import keyring" in p.read_text(encoding="utf-8")]
    assert [p.name for p in users] == ["secrets.py"]
    assert secrets.SERVICE == "labgpu"


def test_tencent_import_with_an_endpoint_takes_its_protocol():
    env = {"TENCENTCLOUD_SECRET_ID": "AKIDenv0002", "TENCENTCLOUD_SECRET_KEY": "envkey0002"}
    [plain] = tencent_import_candidates("ap-guangzhou", env=env, endpoint="http://127.0.0.1:9000")
    assert (plain.account.endpoint, plain.account.extra) == ("http://127.0.0.1:9000", {"protocol": "http"})
    [tls] = tencent_import_candidates("ap-guangzhou", env=env, endpoint="cvm.example.com")
    assert tls.account.extra == {"protocol": "https"}
    [bare] = tencent_import_candidates("ap-guangzhou", env=env)
    assert (bare.account.endpoint, bare.account.extra) == ("", {})


def test_a_bad_region_is_explained_with_that_clouds_own_example():
    from app.core.accounts import Account, validate_account
    from app.core.errors import InputError

    for provider, cloud, example in (("alibaba", "Alibaba Cloud", "cn-hangzhou"), ("aws", "AWS", "us-east-1")):
        with pytest.raises(InputError) as info:
            validate_account(Account("lab", provider, "Hangzhou"))
        assert info.value.code == "BadRegion"
        assert f"Use a {cloud} region id such as {example}." in info.value.hint()
