"""Progress from training logs: real tqdm output (tqdm itself writing to a StringIO on a fake clock,
so the rates it prints are known), Hugging Face Trainer's and PyTorch Lightning's lines, step lines,
a user pattern, and what a hostile or broken log does (a huge line, binary junk, escape sequences)."""

from __future__ import annotations

import io
import json
import os
import random
import tracemalloc

import pytest
import tqdm as tqdm_pkg
from tqdm import std as tqdm_std

from app.core import jobprogress
from app.core.errors import InputError
from app.core.jobprogress import ProgressTracker, plain_line, validate_pattern


class Clock:
    """tqdm's clock and the tracker's, one fake: tqdm prints the rates this clock makes."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


class Log(io.StringIO):
    """What the job's log file would hold; ``new()`` is what a refresh reads since the last one."""

    def __init__(self) -> None:
        super().__init__()
        self._read = 0

    def new(self) -> str:
        text = self.getvalue()
        out, self._read = text[self._read:], len(text)
        return out


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    c = Clock()
    monkeypatch.setattr(tqdm_std, "time", c)
    monkeypatch.setattr(tqdm_std.tqdm, "monitor_interval", 0)  # no monitor thread
    return c


def _bar(log: Log, **kw) -> tqdm_pkg.tqdm:
    return tqdm_pkg.tqdm(file=log, **kw)


def test_tqdm_it_per_s_rate_step_total_and_eta(clock):
    log, t = Log(), ProgressTracker()
    bar = _bar(log, total=200)
    for _ in range(40):
        clock.t += 0.25  # 4 it/s
        bar.update(1)
        t.feed(log.new().encode(), clock.t)
    p = t.snapshot(clock.t)
    assert "4.00it/s" in log.getvalue()
    assert p.source == "tqdm" and p.step == 40 and p.total == 200
    assert p.steps_per_s == pytest.approx(4.0, rel=0.01)
    assert p.eta_s == pytest.approx(160 / 4.0, rel=0.01)
    assert p.last_line.endswith("40/200 [00:10<00:40,  4.00it/s]")
    assert p.last_progress_at == clock.t and p.last_output_at == clock.t
    bar.close()


def test_tqdm_seconds_per_iteration(clock):
    log, t = Log(), ProgressTracker()
    bar = _bar(log, total=10)
    for _ in range(3):
        clock.t += 8.0
        bar.update(1)
    t.feed(log.new(), clock.t)
    assert "8.00s/it" in log.getvalue()
    p = t.snapshot(clock.t)
    assert p.step == 3 and p.steps_per_s == pytest.approx(0.125) and p.eta_s == pytest.approx(56.0)
    bar.close()


def test_tqdm_without_total_with_si_units_and_a_custom_unit(clock):
    log, t = Log(), ProgressTracker()
    bar = _bar(log, unit_scale=True)
    for _ in range(3):
        clock.t += 0.5
        bar.update(1500)
    t.feed(log.new(), clock.t)
    p = t.snapshot(clock.t)
    assert "3.00kit/s" in log.getvalue()
    assert p.step == 4500 and p.total is None and p.eta_s is None
    assert p.steps_per_s == pytest.approx(3000.0)
    bar.close()
    log2, t2 = Log(), ProgressTracker()
    bar = _bar(log2, total=64, unit="img")
    clock.t += 1
    bar.update(16)
    t2.feed(log2.new(), clock.t)
    assert t2.snapshot(clock.t).steps_per_s == pytest.approx(16.0) and "img/s" in log2.getvalue()
    bar.close()


def test_carriage_return_updates_in_any_slicing_give_the_same_answer(clock):
    log = Log()
    bar = _bar(log, total=50)
    for _ in range(20):
        clock.t += 0.5
        bar.update(1)
    raw = log.getvalue().encode()
    whole = ProgressTracker()
    whole.feed(raw, clock.t)
    byte = ProgressTracker()
    for i in range(len(raw)):
        byte.feed(raw[i:i + 1], clock.t)
    assert whole.snapshot(clock.t) == byte.snapshot(clock.t)
    assert whole.snapshot(clock.t).step == 20 and whole.snapshot(clock.t).steps_per_s == pytest.approx(2.0)
    bar.close()


def test_hugging_face_trainer_log(clock):
    """Trainer: the header, its bar (ProgressCallback), dict lines written through the bar
    (``training_bar.write(str(logs))``) and an evaluation bar nested under it."""
    log, t = Log(), ProgressTracker()
    log.write("***** Running training *****\n  Num examples = 60,000\n  Num Epochs = 3\n"
              "  Total optimization steps = 3,750\n")
    train = _bar(log, total=3750, dynamic_ncols=True)
    for step in range(1, 501):
        clock.t += 0.2  # 5 it/s
        train.update(1)
        if step % 100 == 0:
            train.write(str({"loss": 0.69 - step / 1e4, "grad_norm": 1.2, "learning_rate": 4.5e-05,
                             "epoch": round(step / 1250, 2)}), file=log)
        if step == 250:
            ev = _bar(log, total=40, leave=False, dynamic_ncols=True)
            for _ in range(40):
                clock.t += 0.05
                ev.update(1)
                t.feed(log.new(), clock.t)
                p = t.snapshot(clock.t)
                assert p.total == 3750 and p.step == 250  # the evaluation bar is not the training's
            ev.close()
            train.write(str({"eval_loss": 0.5, "eval_runtime": 2.0, "eval_steps_per_second": 20.0,
                             "epoch": 0.2}), file=log)
        if step % 25 == 0:
            t.feed(log.new(), clock.t)
    p = t.snapshot(clock.t)
    assert p.step == 500 and p.total == 3750 and p.source == "tqdm"
    assert p.steps_per_s == pytest.approx(5.0, rel=0.05)
    assert p.epoch == pytest.approx(0.4)
    assert p.eta_s == pytest.approx(3250 / p.steps_per_s)
    train.close()


def test_trainer_dict_lines_alone():
    t = ProgressTracker()
    t.feed("  Total optimization steps = 3,750\n{'loss': 0.6931, 'learning_rate': 4.5e-05, 'epoch': 0.45}\n", 10.0)
    p = t.snapshot(10.0)
    assert p.step is None and p.epoch == pytest.approx(0.45)  # "steps = 3,750" is a total, not a step
    t.feed("{'train_runtime': 120.5, 'train_samples_per_second': 99.6, 'train_steps_per_second': 3.11, "
           "'train_loss': 0.4, 'epoch': 3.0}\n", 20.0)
    assert t.snapshot(20.0).steps_per_s == pytest.approx(3.11)


def test_lightning_bar_ignores_validation_and_counts_epochs(clock):
    """TQDMProgressBar: 'Epoch N' with v_num and metrics as postfix; the validation bar nested below."""
    log, t = Log(), ProgressTracker()
    main = _bar(log, total=100, desc="Epoch 0")
    for i in range(1, 61):
        clock.t += 0.125  # 8 it/s
        main.update(1)
        main.set_postfix(v_num=0, train_loss=f"{1 / i:.3f}")
        if i == 50:
            val = _bar(log, total=10, desc="Validation DataLoader 0", leave=False, position=1)
            for _ in range(10):
                clock.t += 0.01
                val.update(1)
            val.close()
    t.feed(log.new(), clock.t)
    p = t.snapshot(clock.t)
    assert p.source == "lightning" and p.step == 60 and p.total == 100 and p.epoch == 0
    assert "v_num=0" in p.last_line
    assert p.steps_per_s == pytest.approx(8.0, rel=0.1)
    main.close()


def test_lightning_rich_bar_with_max_epochs():
    t = ProgressTracker()
    t.feed("Epoch 3/9  ━━━━━━━━━━━━━━━━━━╸━━━━━━━━━━━━━━━━━━━ 450/1000 0:01:23 • 0:01:42 5.38it/s v_num: 0 "
           "train_loss: 0.123\n", 5.0)
    p = t.snapshot(5.0)
    assert p.source == "lightning" and p.step == 450 and p.total == 1000 and p.steps_per_s == pytest.approx(5.38)
    assert p.eta_s == pytest.approx((550 + 6 * 1000) / 5.38)  # this epoch, then epochs 4..9


def test_step_lines_rate_from_deltas_on_the_clock():
    t = ProgressTracker()
    for i, now in enumerate([0.0, 15.0, 30.0, 45.0]):
        t.feed(f"[2026-12-05 07:00:{i:02d}] Step {100 * (i + 1)}/2000 | loss 0.5 | lr 1e-4\n", now)
    p = t.snapshot(45.0)
    assert p.source == "step" and p.step == 400 and p.total == 2000
    assert p.steps_per_s == pytest.approx(300 / 45.0)
    assert p.eta_s == pytest.approx(1600 / (300 / 45.0))
    for text, step in [("global_step=1200 loss=0.2", 1200), ("iter: 7", 7), ("step 3,750 done", 3750)]:
        tt = ProgressTracker()
        tt.feed(text + "\n", 1.0)
        assert tt.snapshot(1.0).step == step
    for text in ("warmup_steps=100", "Steps per second: 4.5", "stepping 5", "max_steps 10"):
        tt = ProgressTracker()
        tt.feed(text + "\n", 1.0)
        assert tt.snapshot(1.0).step is None, text


def test_a_new_epoch_restarts_the_deltas_never_a_negative_rate():
    t = ProgressTracker()
    t.feed("step 90/100\n", 0.0)
    t.feed("step 100/100\n", 10.0)
    t.feed("step 5/100\n", 20.0)
    p = t.snapshot(20.0)
    assert p.step == 5 and (p.steps_per_s is None or p.steps_per_s >= 0)
    t.feed("step 25/100\n", 30.0)
    assert t.snapshot(30.0).steps_per_s == pytest.approx(2.0)


def test_user_pattern_wins_and_bad_patterns_say_what_to_do():
    t = ProgressTracker(r"it=(?P<step>\d+) of (?P<total>\d+)")
    t.feed("step 999999\n it=10 of 400 loss=1\n", 0.0)
    t.feed("it=30 of 400\n\r  5%|5   | 5/100 [00:01<00:19,  5.00it/s]", 10.0)
    p = t.snapshot(10.0)
    assert p.source == "pattern" and p.step == 30 and p.total == 400 and p.steps_per_s == pytest.approx(2.0)
    assert ProgressTracker(r"batch (?P<step>\d+)", total=50).snapshot(0).total == 50  # the job's own total
    t2 = ProgressTracker(r"batch (?P<step>\d+)", total=50)
    t2.feed("batch 10\n", 0.0)
    t2.feed("batch 20\n", 5.0)
    assert t2.snapshot(5.0).eta_s == pytest.approx(15.0)
    for bad in ("(", "step \\d+", "(?P<step>(a+)+)", "x" * 600):
        with pytest.raises(InputError) as info:
            validate_pattern(bad)
        assert info.value.text() and info.value.hint() and info.value.code == "BadProgressPattern"
    with pytest.raises(InputError):
        ProgressTracker("(?P<step>")


def test_a_huge_single_line_keeps_memory_bounded_and_the_next_line_is_read():
    t = ProgressTracker()
    tracemalloc.start()
    try:
        chunk = b"x" * (1024 * 1024)
        for i in range(64):  # 64 MiB without a line break
            t.feed(chunk, float(i))
        _cur, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 * 1024 * 1024  # a 1 MiB chunk in slices, never the whole line
    state = json.dumps(t.to_json())
    assert len(state) < 3 * jobprogress.MAX_LINE_CHARS
    t.feed(b"\nStep 7/10\n", 70.0)
    p = t.snapshot(70.0)
    assert p.step == 7 and p.last_line == "Step 7/10"


def test_binary_junk_and_escape_sequences_become_plain_text():
    rnd = random.Random(5)
    t = ProgressTracker()
    junk = bytes(rnd.getrandbits(8) for _ in range(300_000))
    t.feed(junk, 1.0)
    t.feed(b"\n\x1b[32mStep 3/9\x1b[0m \x00\x07 loss\xe2\x80\xae 1.0\n", 2.0)
    p = t.snapshot(2.0)
    assert p.step == 3
    assert p.last_line == "Step 3/9    loss  1.0"
    assert plain_line("a" * 1000).endswith("…") and len(plain_line("a" * 1000)) == jobprogress.MAX_LAST_LINE_CHARS
    t.feed(os.urandom(100_000), 3.0)
    last = t.snapshot(3.0).last_line
    assert len(last) <= jobprogress.MAX_LAST_LINE_CHARS and not any(ord(c) < 32 or 0x7f <= ord(c) <= 0x9f
                                                                      for c in last)
    json.dumps(t.to_json())


def test_saved_state_goes_on_mid_line_and_mid_character(clock):
    log = Log()
    bar = _bar(log, total=100, desc="训练")
    for _ in range(30):
        clock.t += 0.5
        bar.update(1)
    raw = log.getvalue().encode()
    bar.close()
    straight = ProgressTracker()
    straight.feed(raw, clock.t)
    cut = raw.index("训".encode()) + 1  # inside a UTF-8 character, inside a bar
    for where in (cut, len(raw) // 2, len(raw) - 3):
        first = ProgressTracker()
        first.feed(raw[:where], clock.t)
        again = ProgressTracker.from_json(json.loads(json.dumps(first.to_json())))
        again.feed(raw[where:], clock.t)
        assert again.snapshot(clock.t) == straight.snapshot(clock.t)
    assert straight.snapshot(clock.t).last_line.startswith("训练:")
    assert ProgressTracker.from_json({"v": 1, "samples": "junk", "step": "x"}).snapshot(0).step is None
    assert ProgressTracker.from_json({"pattern": r"s=(?P<step>\d+)", "v": 99}).pattern == r"s=(?P<step>\d+)"


def test_tensorboard_steps_outrank_the_log_and_time_by_wall_clock():
    t = ProgressTracker(total=1000)
    t.feed("\r 10%|#   | 10/100 [00:01<00:09, 10.00it/s]", 100.0)
    for step, wall in [(100, 5000.0), (200, 5020.0), (300, 5040.0)]:
        t.feed_step(step, 130.0, wall)  # arrived together at one refresh; written 20 s apart
    p = t.snapshot(130.0)
    assert p.source == "tensorboard" and p.step == 300 and p.total == 1000
    assert p.steps_per_s == pytest.approx(5.0) and p.eta_s == pytest.approx(140.0)
    assert p.last_progress_at == 130.0


def test_one_read_with_much_after_the_step_still_finds_it_and_the_epoch():
    t = ProgressTracker()
    chatter = "".join(f"INFO loader worker {i % 8} prefetched batch of shape [64, 3, 224, 224]\n" for i in range(20000))
    t.feed(("Step 5/100\n" + chatter).encode(), 1.0)
    assert t.snapshot(1.0).step == 5 and t.snapshot(1.0).total == 100
    bars = "".join(f"\r 1%|1  | {n}/1000 [00:{n // 10:02d}<01:40, 10.00it/s]" for n in range(11, 400))
    t2 = ProgressTracker()
    t2.feed("{'loss': 0.5, 'epoch': 0.01}\n" + bars + "\n{'loss': 0.4, 'epoch': 0.02}\n" + bars + "\n", 2.0)
    p = t2.snapshot(2.0)
    assert p.step == 399 and p.epoch == pytest.approx(0.02) and p.steps_per_s == pytest.approx(10.0)


def test_a_read_cut_inside_a_step_line_waits_for_its_end():
    t = ProgressTracker()
    t.feed(b"Step 49/100\nStep 5", 1.0)  # the host's log ends mid-number
    assert t.snapshot(1.0).step == 49
    t.feed(b"0/100\n", 2.0)
    assert t.snapshot(2.0).step == 50
    t.feed(b"\r 50%|#####     | 50/100 [00:10<00:10,  5.00it/s]", 3.0)  # a bar is read before its end
    assert t.snapshot(3.0).steps_per_s == pytest.approx(5.0)
