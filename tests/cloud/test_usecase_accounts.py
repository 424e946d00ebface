"""Adding an account through the one use case the CLI and the dialog share (real keyring, toy cloud)."""

from __future__ import annotations

import pytest

from app.cloud.base import AuthError
from app.cloud.launch import CloudService
from app.core import secrets
from app.core.accounts import Credentials
from app.core.errors import InputError
from app.usecases.accounts import account_extra, add_account, edit_account, new_account
from tests.cloud.toy_provider import TOY_ID, TOY_KEY_ID, TOY_REGION, TOY_SECRET, register_toy, unregister_toy


@pytest.fixture
def toy():
    cloud = register_toy()
    try:
        yield cloud
    finally:
        unregister_toy()


def test_add_saves_then_tests_and_says_who_the_keys_belong_to(toy, secret_service, labgpu_home):
    svc = CloudService()
    told = []
    added = add_account(svc, new_account("lab-toy", TOY_ID, TOY_REGION), Credentials(TOY_KEY_ID, TOY_SECRET),
                        test=True, on_saved=lambda a: told.append((a.account.name, toy.calls.count("validate"))))
    assert told == [("lab-toy", 0)]  # saved (and said so) before the cloud was asked
    assert added.connection == f"toy-user@{TOY_REGION}"
    assert added.info.key_id_masked != TOY_KEY_ID and secrets.get_secret("account:lab-toy:secret") == TOY_SECRET
    edit_account(svc, "lab-toy", region="toy-south-1", endpoint="")
    assert svc.accounts.get("lab-toy").region == "toy-south-1"


def test_a_failing_test_keeps_the_account_and_raises(toy, secret_service, labgpu_home):
    svc = CloudService()
    with pytest.raises(AuthError):
        add_account(svc, new_account("wrong", TOY_ID, TOY_REGION), Credentials("TOYWRONG0000", "nope"), test=True)
    assert svc.accounts.exists("wrong")


def test_bad_fields_write_nothing(toy, secret_service, labgpu_home):
    svc = CloudService()
    with pytest.raises(InputError) as err:
        add_account(svc, new_account("bad name", TOY_ID, TOY_REGION), Credentials(TOY_KEY_ID, TOY_SECRET))
    assert err.value.code == "BadAccountName"
    with pytest.raises(InputError) as err:
        add_account(svc, new_account("nokeys", TOY_ID, TOY_REGION), Credentials(TOY_KEY_ID, ""))
    assert err.value.code == "MissingSecret"
    assert secrets.get_secret("account:nokeys:key_id") is None and not svc.accounts.exists("nokeys")
    with pytest.raises(InputError):  # new keys are checked before anything is written
        edit_account(svc, "nokeys", region=TOY_REGION, endpoint="", credentials=Credentials("x y", "z"))


def test_the_protocol_is_kept_for_providers_that_take_one(toy):
    assert account_extra("tencent", "http://127.0.0.1:9000") == {"protocol": "http"}
    assert account_extra("tencent", "cvm.example.com") == {"protocol": "https"}
    assert account_extra("tencent", "http://127.0.0.1:9000", "https") == {"protocol": "https"}
    assert account_extra("aws", "http://127.0.0.1:5000") == {}
    assert account_extra(TOY_ID, "") == {}
    assert new_account("t", "tencent", "ap-guangzhou", "http://h:1").extra == {"protocol": "http"}
