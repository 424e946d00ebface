"""Per-feature settings in ``Settings.extra``: typed, surviving a restart, damaged values back to defaults,
and the files older versions wrote still read (the same JSON keys)."""

from __future__ import annotations

import json

from app.core.paths import default_paths


def _ctx():
    from app.ui.context import AppContext

    ctx = AppContext(default_paths(), "en")
    ctx.errors.interactive = False
    return ctx


def _write_settings(doc: dict) -> None:
    paths = default_paths().ensure()
    paths.settings_file.write_text(json.dumps(doc), encoding="utf-8")


def test_feature_settings_survive_a_restart(qtbot):
    from app.ui.cloud import cloud_settings, remember
    from app.ui.monitor.page_settings import MonitorUiSettings, monitor_settings, save_monitor_settings
    from app.ui.remote.hosts_page import hosts_settings, remember_selected

    ctx = _ctx()
    assert cloud_settings(ctx).disk_gb == 100  # defaults on a fresh install
    remember(ctx, account="lab", disk_gb=250, spot=True, tests={"lab": (True, "2026-01-01 ok")})
    save_monitor_settings(ctx, MonitorUiSettings(hosts=["gpu1", "gpu2"], span_s=86_400))
    remember_selected(ctx, "gpu2")
    ctx.save_settings()
    ctx.shutdown(3000)

    again = _ctx()
    cloud = cloud_settings(again)
    assert (cloud.account, cloud.disk_gb, cloud.spot) == ("lab", 250, True)
    assert cloud.tests == {"lab": (True, "2026-01-01 ok")}
    assert monitor_settings(again) == MonitorUiSettings(hosts=["gpu1", "gpu2"], span_s=86_400)
    assert hosts_settings(again).selected == "gpu2"
    saved = json.loads(default_paths().settings_file.read_text(encoding="utf-8"))["extra"]
    assert saved["cloudui"]["tests"] == {"lab": [True, "2026-01-01 ok"]}  # the keys older versions wrote
    assert saved["monitorui"] == {"hosts": ["gpu1", "gpu2"], "span_s": 86_400}
    again.shutdown(3000)


def test_damaged_feature_values_fall_back_to_their_defaults(qtbot):
    from app.ui.cloud import cloud_settings, remember
    from app.ui.monitor.page_settings import monitor_settings
    from app.ui.remote.hosts_page import hosts_settings
    from app.ui.remote.vpn_watcher import vpn_settings

    _write_settings({
        "extra": {
            "cloudui": {"account": "lab", "disk_gb": "big", "tests": {"lab": "yes"}, "kept": 1},
            "monitorui": {"hosts": ["gpu1"], "span_s": 12345},  # not one of the ranges
            "hosts": ["not", "an", "object"],
            "vpn": {"disconnect_on_exit": "sometimes"},
        },
    })
    ctx = _ctx()
    cloud = cloud_settings(ctx)
    assert (cloud.account, cloud.disk_gb, cloud.tests) == ("lab", 100, {})  # only the damaged fields reset
    mon = monitor_settings(ctx)
    assert (mon.hosts, mon.span_s) == (["gpu1"], 3_600)
    assert hosts_settings(ctx).selected == ""
    assert vpn_settings(ctx).disconnect_on_exit is True
    remember(ctx, disk_gb=80)
    saved = json.loads(default_paths().settings_file.read_text(encoding="utf-8"))["extra"]["cloudui"]
    assert saved["disk_gb"] == 80 and saved["kept"] == 1  # a key this version does not know is kept
    ctx.shutdown(3000)


def test_settings_an_older_version_wrote_still_load(qtbot):
    from app.core.settings import read_section
    from app.ui.advisor.page import saved_answers
    from app.ui.cloud import cloud_settings
    from app.ui.remote.vpn_watcher import vpn_settings
    from app.ui.shared.estimator import INPUTS_PATH, EstimatorInputs

    _write_settings({
        "schema_version": 1,
        "extra": {
            "cloudui": {"account": "a", "disk_gb": 120, "spot": True, "ssh_key_path": "/k",
                        "tests": {"a": [False, "2025-12-01 denied"]}},
            "advisor": {"answers": {"task": "cv", "gpus": 4, "scale": "multi_gpu", "params_millions": 7000},
                        "estimator": {"hours": "12", "mode": "epochs", "count_unit": "gpus"}},
            "vpn": {"disconnect_on_exit": False},
        },
    })
    ctx = _ctx()
    cloud = cloud_settings(ctx)
    assert (cloud.account, cloud.disk_gb, cloud.spot, cloud.ssh_key_path) == ("a", 120, True, "/k")
    assert cloud.tests == {"a": (False, "2025-12-01 denied")}
    answers = saved_answers(ctx)
    assert (answers.task, answers.gpus, answers.scale, answers.params_millions) == ("cv", 4, "multi_gpu", 7000.0)
    inputs = read_section(ctx.settings, INPUTS_PATH, EstimatorInputs)
    assert (inputs.hours, inputs.mode, inputs.count_unit, inputs.epochs) == ("12", "epochs", "gpus", None)
    assert vpn_settings(ctx).disconnect_on_exit is False
    ctx.shutdown(3000)
