from __future__ import annotations

import logging

from app.core.logsetup import redact, register_secret, setup_logging
from app.core.paths import default_paths


def test_registered_secrets_and_key_value_pairs_never_reach_the_log_file():
    paths = default_paths()
    setup_logging(paths)
    register_secret("AKIDexampleSECRETvalue123")
    log = logging.getLogger("labgpu.test")
    log.warning("calling with %s", "AKIDexampleSECRETvalue123")
    log.warning("password=hunter22 and SecretKey: abcdEFGH1234")
    try:
        raise RuntimeError("failed for AKIDexampleSECRETvalue123")
    except RuntimeError:
        log.exception("boom")
    for h in logging.getLogger().handlers:
        h.flush()
    text = paths.log_file.read_text(encoding="utf-8")
    assert "calling with ***" in text
    assert "AKIDexampleSECRETvalue123" not in text
    assert "hunter22" not in text and "abcdEFGH1234" not in text


def test_redact_keeps_ordinary_text():
    assert redact("instance i-0abc started in ap-guangzhou-3") == "instance i-0abc started in ap-guangzhou-3"
