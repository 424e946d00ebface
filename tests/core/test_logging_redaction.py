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


def test_the_log_rotates_past_its_size_and_keeps_the_newest_backups(tmp_path):
    """The log a student sends with a bug report never grows without bound: past the limit the file moves
    to NAME.1 (NAME.1 to NAME.2 …), at most ``backups`` old files, and the newest line is in NAME."""
    from app.core.logsetup import RotatingLog

    path = tmp_path / "labgpu.log"
    handler = RotatingLog(path, max_bytes=200, backups=2)
    handler.setFormatter(logging.Formatter("%(message)s"))
    log = logging.getLogger("labgpu.test.rotation")
    log.propagate = False
    log.addHandler(handler)
    try:
        for i in range(40):
            log.warning("line %02d %s", i, "x" * 30)
    finally:
        log.removeHandler(handler)
        handler.close()
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["labgpu.log", "labgpu.log.1", "labgpu.log.2"]
    assert all(p.stat().st_size <= 200 for p in tmp_path.iterdir())
    current = path.read_text(encoding="utf-8").splitlines()
    assert current[-1].startswith("line 39 ")
    older = (tmp_path / "labgpu.log.1").read_text(encoding="utf-8").splitlines()
    assert int(older[-1].split()[1]) + 1 == int(current[0].split()[1])  # nothing lost between the two
