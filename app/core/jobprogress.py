"""Steps/s, ETA and the last line of a training job, read from its log (and TensorBoard steps).

Pure: no SSH, no Qt. The jobs use case feeds the new bytes of a job's log (``feed``) and the
steps of new TensorBoard events (``feed_step``), then asks for a :class:`Progress` (``snapshot``);
``to_json``/``from_json`` carry the tracker between refreshes.

What is read, from real outputs:
- tqdm bars, also Hugging Face Trainer's and PyTorch Lightning's (both are tqdm):
  ``Epoch 3:  45%|████▌     | 450/1000 [01:23<01:42,  5.38it/s, v_num=0]``, ``4.00s/it``, a bar with
  no total (``1.00kit [00:00, 1.00Mit/s]``), units other than ``it``, SI prefixes (``unit_scale``);
  each update starts with a carriage return, so every ``\\r`` or ``\\n`` ends a line here;
- Lightning's rich bar: ``Epoch 3/9  ━━━━━━ 450/1000 0:01:23 • 0:01:42 5.38it/s v_num: 0``;
- ``step N``, ``Step N/M``, ``global_step=N``, ``iter N/M`` (``steps`` in the plural is not taken:
  "Total optimization steps = 3,750" is a total, not a step);
- Hugging Face Trainer's dict lines (``{'loss': 0.69, 'learning_rate': 4.5e-05, 'epoch': 0.45}``):
  the epoch, a ``step`` key where one is logged, and the closing ``train_steps_per_second``;
- a user pattern (a regular expression with a named group ``step`` and optionally ``total``):
  when given, only it gives steps.

The lines that arrive together (one ``feed``) are read newest first and reading stops at the first
step taken: the older ones of the same moment would only be replaced, and a megabyte of bar updates
costs one parse (a Trainer epoch is still looked for in the older dict lines).

Steps/s is the rate the bar prints where there is one (what the user sees in the log), else the
step increase over a window of the injected clock. Bars of validation/evaluation/test loops are not
the training's steps; a bar with a smaller total than the one being followed (an evaluation bar
inside training) is ignored until the followed one completes or falls silent.

Bounds (the log comes from a rented host: it is data, and data is bounded): a line is cut at
``MAX_LINE_CHARS`` and the rest of it, up to its end, dropped; bytes are decoded incrementally as
UTF-8 with replacement (binary junk costs nothing more than text); the state kept is a few KiB
whatever the log's size; ``last_line`` is plain text: escape sequences removed, control and
direction-changing characters replaced, ``MAX_LAST_LINE_CHARS`` at most.
"""

from __future__ import annotations

import codecs
import math
import re
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import InputError
from .i18n import QT_TRANSLATE_NOOP

MAX_LINE_CHARS = 4096  # a progress line is < 300 chars; a longer line is cut here
MAX_LAST_LINE_CHARS = 300
MAX_PATTERN_CHARS = 500
FEED_SLICE = 256 * 1024  # bytes decoded at a time: a huge chunk never doubles in memory
WINDOW_S = 120.0  # steps/s from step deltas over this much of the clock
MAX_SAMPLES = 64
PRIMARY_IDLE_S = 60.0  # a followed bar silent this long gives way to another

# where a step came from, the most trusted first: a user's pattern, TensorBoard, a bar, a step line, a dict line
_RANK = {"pattern": 5, "tensorboard": 4, "tqdm": 3, "lightning": 3, "step": 2, "hf": 1}

_SI = {"": 1.0, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18, "Z": 1e21, "Y": 1e24}
_NUM = r"\d+(?:\.\d+)?"
_SPLIT = re.compile(r"[\r\n]")
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]")
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")
# tqdm's meter: "{n}/{total} [{elapsed}<{remaining}, {rate}{postfix}]" or "{n}{unit} [{elapsed}, {rate}]"
_TQDM = re.compile(
    rf"(?P<n>{_NUM})(?P<nsi>[kMGTPEZY]?)"
    rf"(?:/(?P<total>{_NUM}|\?)(?P<tsi>[kMGTPEZY]?)|(?P<unit>[A-Za-z_][\w-]*))?"
    r"\s*\[(?P<elapsed>[\d:]+)(?:<(?P<remaining>[\d:?]+))?,\s*"
    rf"(?P<rate>\?|{_NUM})(?P<rsi>[kMGTPEZY]?)(?:(?P<fwd>[^\s/\],\d][^\s/\],]*)/s\b|s/(?P<inv>[^\s\],]+))"
)
# a rate anywhere in a line (Lightning's rich bar prints it after the times)
_RATE = re.compile(rf"(?<![\w.])(?P<rate>{_NUM})(?P<rsi>[kMGTPEZY]?)(?P<kind>it/s|s/it)\b")
_COUNTER = re.compile(r"(?<![\w./])(?P<n>\d+)/(?P<total>\d+)(?![\w./])")
_EPOCH = re.compile(r"\bEpoch\s+(?P<e>\d+)(?:\s*/\s*(?P<emax>\d+))?", re.IGNORECASE)
_NOT_TRAINING = re.compile(r"\b(?:val|valid|validation|validating|eval|evaluating|evaluation|test|testing|"
                           r"predict|predicting|prediction|sanity)\b", re.IGNORECASE)
_STEP = re.compile(
    r"(?<![\w.])(?:global[_ ]?)?(?:step|iter|iteration)\b\s*[:=#]?\s*\[?\s*"
    r"(?P<n>\d{1,3}(?:,\d{3})+|\d+)(?:\s*(?:/|of)\s*(?P<total>\d{1,3}(?:,\d{3})+|\d+))?",
    re.IGNORECASE,
)
_STEP_HINT = re.compile(r"[sSiI][tT][eE][pPrR]")  # step/iter in any case, faster than (?i) on long text
_DICT_PAIR = re.compile(r"""['"](?P<k>\w{1,40})['"]\s*:\s*(?P<v>-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)""")
# a nested repetition such as (a+)+ or (\d*)* can take exponential time on a long line
_NESTED_REPEAT = re.compile(r"\((?:[^()\\]|\\.)*(?:[+*]|\{\d*,\d*\})\)(?:[+*]|\{\d*,\d*\})")


@dataclass(frozen=True)
class Progress:
    """What the tracker knows at one moment; times are the injected clock's."""

    step: float | None
    total: float | None
    steps_per_s: float | None
    eta_s: float | None
    last_line: str
    last_progress_at: float | None  # when the step last changed
    last_output_at: float | None  # when the log last grew (any byte)
    source: str  # pattern | tensorboard | tqdm | lightning | step | hf; "" before any step
    epoch: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step, "total": self.total, "steps_per_s": self.steps_per_s, "eta_s": self.eta_s,
            "last_line": self.last_line, "last_progress_at": self.last_progress_at,
            "last_output_at": self.last_output_at, "source": self.source, "epoch": self.epoch,
        }


@dataclass(frozen=True)
class _Hit:
    source: str
    step: float
    total: float | None = None
    rate: float | None = None  # printed steps/s
    epoch: float | None = None
    epoch_max: float | None = None


def validate_pattern(text: str) -> re.Pattern[str]:
    """A user's progress pattern, compiled; InputError (with what to do) when it cannot work."""
    if len(text) > MAX_PATTERN_CHARS:
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "The progress pattern is longer than {limit} characters."),
            QT_TRANSLATE_NOOP("LabGPU", "Match only the part of the line that holds the step, e.g. "
                                        "step (?P<step>\\d+)/(?P<total>\\d+)"),
            code="BadProgressPattern", limit=MAX_PATTERN_CHARS,
        )
    try:
        compiled = re.compile(text)
    except (re.error, RecursionError, OverflowError) as exc:
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "The progress pattern is not a valid regular expression: {why}."),
            QT_TRANSLATE_NOOP("LabGPU", "Fix the expression (Python syntax), e.g. "
                                        "step (?P<step>\\d+)/(?P<total>\\d+)"),
            code="BadProgressPattern", why=str(exc)[:200],
        ) from None
    if "step" not in compiled.groupindex:
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "The progress pattern has no group named step."),
            QT_TRANSLATE_NOOP("LabGPU", "Name the number to read (?P<step>\\d+), and the total, if the line "
                                        "has one, (?P<total>\\d+)."),
            code="BadProgressPattern",
        )
    if _NESTED_REPEAT.search(text):
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "The progress pattern repeats a repetition, which can take "
                                        "forever on a long line."),
            QT_TRANSLATE_NOOP("LabGPU", "Write it without the outer repeat, e.g. (\\d+) instead of (\\d+)+."),
            code="BadProgressPattern",
        )
    return compiled


def plain_line(text: str, limit: int = MAX_LAST_LINE_CHARS) -> str:
    """A line from a host as plain text: escape sequences removed, control characters replaced, capped."""
    text = _UNSAFE.sub(" ", _ANSI.sub("", text[: limit * 4])).strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _num(text: str | None, si: str | None = "") -> float | None:
    if text is None or text == "?":
        return None
    try:
        value = float(text.replace(",", "")) * _SI.get(si or "", 1.0)
    except ValueError:
        return None
    return value if math.isfinite(value) and value >= 0 else None


def _finite(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    v = float(value)
    return v if math.isfinite(v) else None


class ProgressTracker:
    """Reads one job's log incrementally (see the module docstring)."""

    def __init__(self, pattern: str | None = None, total: float | None = None) -> None:
        self.pattern = pattern or None
        self._user = validate_pattern(pattern) if pattern else None
        given = _finite(total) if total is not None else None
        self.total = given if given is not None and given > 0 else None  # the job's total, when known
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._pending = ""  # the line not ended yet (capped)
        self._overflow = False  # the pending line was cut: drop the rest up to its end
        self._pending_parsed = ""  # the pending text already read tentatively
        self._last_line = ""
        self._last_output_at: float | None = None
        self._last_progress_at: float | None = None
        self._source = ""
        self._step: float | None = None
        self._step_total: float | None = None
        self._rate: float | None = None  # the printed rate of the last accepted line
        self._final_rate: float | None = None  # Trainer's train_steps_per_second
        self._epoch: float | None = None
        self._epoch_max: float | None = None
        self._accepted_at: float | None = None
        self._samples: deque[tuple[float, float]] = deque(maxlen=MAX_SAMPLES)
        self._seen_epoch = False  # this moment's lines (read newest first) already gave an epoch
        self._seen_final = False

    # input ----------------------------------------------------------------------------------------
    def feed(self, chunk: bytes | str, now: float) -> None:
        """New log output (any size, any bytes) that arrived at ``now``."""
        if not chunk:
            return
        self._last_output_at = now
        if isinstance(chunk, str):
            for i in range(0, len(chunk), FEED_SLICE):
                self._feed_text(chunk[i:i + FEED_SLICE], now)
        else:
            view = memoryview(chunk)
            for i in range(0, len(view), FEED_SLICE):
                self._feed_text(self._decoder.decode(view[i:i + FEED_SLICE]), now)
        pending = self._pending
        if pending and pending != self._pending_parsed and self._line(pending, now, unended=True):
            # a bar's latest update has no end until the next one: read it now, once
            self._pending_parsed = pending

    def _feed_text(self, text: str, now: float) -> None:
        parts = _SPLIT.split(text)
        self._append_pending(parts[0])
        if len(parts) == 1:
            return
        first, parsed = self._pending, self._pending_parsed
        self._pending, self._pending_parsed, self._overflow = "", "", False
        self._lines(first, first == parsed, parts[1:-1], now)
        self._append_pending(parts[-1])

    def _lines(self, first: str, first_read: bool, rest: list[str], now: float) -> None:
        """Lines that ended, all arrived at ``now``: read from the last back, so only the newest
        step counts (the older ones of the same moment would be replaced anyway) and a slice of
        bar updates costs one parse; older lines are then only looked at for a Trainer epoch."""
        self._seen_epoch = self._seen_final = False
        have_line = have_step = False
        for i in range(len(rest), -1, -1):
            raw = rest[i - 1] if i else first
            if not raw or raw.isspace():
                continue
            raw = raw[:MAX_LINE_CHARS]
            if not have_line:
                self._last_line, have_line = raw, True
            if have_step:
                if self._seen_epoch:
                    return
                if "epoch" in raw and "{" in raw:
                    self._dict_hit(raw)
                continue
            if i == 0 and first_read:
                continue  # read when it was still the unended last line
            if "\x1b" in raw:
                raw = _ANSI.sub("", raw)
            hit = self._parse(raw)
            if hit is not None and self._offer(hit, now):
                have_step = True
                if hit.epoch is not None:
                    self._seen_epoch = True

    def _append_pending(self, text: str) -> None:
        if not text or self._overflow:
            return
        room = MAX_LINE_CHARS - len(self._pending)
        if len(text) > room:
            text = text[:room]
            self._overflow = True
        self._pending += text

    def _line(self, raw: str, now: float, *, unended: bool = False) -> bool:
        """One line; ``unended``: the last one, which may still grow. Only a bar is read from it
        (its regex needs the whole "[elapsed<left, rate]", so a read cut inside it matches nothing),
        never a step line cut in its number ("Step 5" of "Step 50/100"). True when it was read."""
        if raw.isspace():
            return True
        self._last_line = raw
        self._seen_epoch = self._seen_final = False
        if "\x1b" in raw:
            raw = _ANSI.sub("", raw)
        hit = self._parse(raw)
        if hit is None or (unended and hit.source not in ("tqdm", "lightning")):
            return not unended  # read again when it ends
        self._offer(hit, now)
        return True

    def feed_step(self, step: float, now: float, wall_time: float | None = None) -> None:
        """A step from TensorBoard; ``wall_time`` (the event's, the host's clock) times the rate
        when given: pass it always or never for one job."""
        s = _finite(step)
        if s is None or s < 0:
            return
        w = _finite(wall_time) if wall_time is not None else None
        self._offer(_Hit("tensorboard", s), now, at=w)

    # parsing ----------------------------------------------------------------------------------------
    def _parse(self, text: str) -> _Hit | None:
        if self._user is not None:
            m = self._user.search(text)
            if m is None:
                return None
            step = _num(m.group("step"))
            if step is None:
                return None
            total = _num(m.group("total")) if "total" in self._user.groupindex else None
            return _Hit("pattern", step, total or None)
        # cheap substring tests first: most lines of a long log are none of these
        if "[" in text and ("/s" in text or "s/" in text):
            m = _TQDM.search(text)
            if m is not None:
                return self._tqdm_hit(text, m)
        if "/" in text and ("it/s" in text or "s/it" in text):
            hit = self._rich_hit(text)
            if hit is not None:
                return hit
        if _STEP_HINT.search(text):
            m = _STEP.search(text)
            if m is not None:
                step = _num(m.group("n"))
                if step is not None:
                    return _Hit("step", step, _num(m.group("total")) or None)
        if "{" in text:
            return self._dict_hit(text)
        return None

    def _tqdm_hit(self, text: str, m: re.Match[str]) -> _Hit | None:
        desc = text[: m.start()]
        if _NOT_TRAINING.search(desc):
            return None
        n = _num(m.group("n"), m.group("nsi"))
        if n is None:
            return None
        total = _num(m.group("total"), m.group("tsi")) or None
        rate = _num(m.group("rate"), m.group("rsi"))
        if rate is not None and m.group("inv") is not None:
            rate = 1.0 / rate if rate > 0 else None
        e = _EPOCH.search(desc)
        if e is not None:
            return _Hit("lightning", n, total, rate, _num(e.group("e")), _num(e.group("emax")))
        return _Hit("tqdm", n, total, rate)

    def _rich_hit(self, text: str) -> _Hit | None:
        e = _EPOCH.search(text)
        rest = text[e.end():] if e is not None else text
        if _NOT_TRAINING.search(text[: e.start()] if e is not None else text.split("/", 1)[0]):
            return None
        c = _COUNTER.search(rest)
        r = _RATE.search(rest)
        if c is None or r is None or r.start() < c.end():
            return None
        n = _num(c.group("n"))
        if n is None:
            return None
        rate = _num(r.group("rate"), r.group("rsi"))
        if rate is not None and r.group("kind") == "s/it":
            rate = 1.0 / rate if rate > 0 else None
        if e is None:
            return _Hit("tqdm", n, _num(c.group("total")) or None, rate)
        return _Hit("lightning", n, _num(c.group("total")) or None, rate, _num(e.group("e")), _num(e.group("emax")))

    def _dict_hit(self, text: str) -> _Hit | None:
        values: dict[str, float] = {}
        for m in _DICT_PAIR.finditer(text):
            v = _num(m.group("v"))  # negatives (a loss can be) are not steps, epochs or rates
            if v is not None:
                values[m.group("k")] = v
        if not values:
            return None
        # lines are read newest first: an older line of the same moment does not overwrite a newer one
        if "epoch" in values and not self._seen_epoch:
            self._epoch, self._seen_epoch = values["epoch"], True
        if "train_steps_per_second" in values and not self._seen_final:
            self._final_rate, self._seen_final = values["train_steps_per_second"], True
        step = values.get("step", values.get("global_step"))
        return _Hit("hf", step) if step is not None else None

    # state ------------------------------------------------------------------------------------------
    def _offer(self, hit: _Hit, now: float, *, at: float | None = None) -> bool:
        """Take the hit as the job's step unless a better source or bar is being followed."""
        if self._source and self._accepted_at is not None and now - self._accepted_at <= PRIMARY_IDLE_S:
            cur = _RANK.get(self._source, 0)
            new = _RANK[hit.source]
            if new < cur:
                return False
            if (new == cur and hit.total is not None and self._step_total is not None
                    and hit.total < self._step_total
                    and (self._step is None or self._step < self._step_total)):
                return False  # an evaluation bar inside an unfinished training bar
        t = now if at is None else at
        if (hit.source != self._source or self._step is None or hit.step < self._step
                or hit.total != self._step_total):
            self._samples.clear()  # a new bar, epoch or source: deltas start again
        if hit.step != self._step or hit.source != self._source:
            self._last_progress_at = now
        if self._samples and self._samples[-1][0] >= t:
            if self._samples[-1][1] != hit.step and self._samples[-1][0] == t:
                self._samples[-1] = (t, hit.step)
        else:
            self._samples.append((t, hit.step))
            while len(self._samples) > 2 and self._samples[1][0] <= t - WINDOW_S:
                self._samples.popleft()
        self._source, self._step, self._step_total = hit.source, hit.step, hit.total
        self._rate = hit.rate
        self._accepted_at = now
        if hit.epoch is not None:
            self._epoch, self._epoch_max = hit.epoch, hit.epoch_max
        return True

    def _window_rate(self) -> float | None:
        if len(self._samples) < 2:
            return None
        (t0, s0), (t1, s1) = self._samples[0], self._samples[-1]
        if t1 <= t0 or s1 < s0:
            return None
        return (s1 - s0) / (t1 - t0)

    def snapshot(self, now: float) -> Progress:
        """What to show at ``now`` (the same clock as ``feed``)."""
        del now  # the rate is what was printed or measured; staleness is last_progress_at's to tell
        rate = self._rate if self._rate is not None else self._window_rate()
        if rate is None and self._source in ("", "hf"):
            rate = self._final_rate
        total = self._step_total if self._step_total is not None else self.total
        eta: float | None = None
        if rate is not None and rate > 0 and total is not None and self._step is not None:
            eta = max(0.0, total - self._step) / rate
            if (self._source == "lightning" and self._epoch is not None and self._epoch_max is not None
                    and self._epoch_max > self._epoch):
                eta += (self._epoch_max - self._epoch) * total / rate  # Epoch 3/9: epochs 4..9 to go
        return Progress(
            step=_whole(self._step), total=_whole(total), steps_per_s=rate, eta_s=eta,
            last_line=plain_line(self._last_line), last_progress_at=self._last_progress_at,
            last_output_at=self._last_output_at, source=self._source, epoch=self._epoch,
        )

    # persistence ------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Everything needed to go on reading the same log later (a few KiB at most)."""
        pending_bytes, _flag = self._decoder.getstate()
        return {
            "v": 1, "pattern": self.pattern, "total": self.total,
            "pending": _json_text(self._pending), "pending_parsed": self._pending == self._pending_parsed,
            "overflow": self._overflow, "pending_bytes": pending_bytes.hex(),
            "last_line": _json_text(self._last_line[: MAX_LAST_LINE_CHARS * 4]),  # all plain_line reads
            "last_output_at": self._last_output_at, "last_progress_at": self._last_progress_at,
            "source": self._source, "step": self._step, "step_total": self._step_total, "rate": self._rate,
            "final_rate": self._final_rate, "epoch": self._epoch, "epoch_max": self._epoch_max,
            "accepted_at": self._accepted_at, "samples": [list(s) for s in self._samples],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ProgressTracker:
        """The tracker ``to_json`` saved; a damaged record gives a fresh tracker (same pattern), never
        an exception other than InputError for a pattern that no longer compiles."""
        pattern = data.get("pattern") if isinstance(data, Mapping) else None
        pattern = pattern if isinstance(pattern, str) else None
        total = _finite(data.get("total")) if isinstance(data, Mapping) else None
        t = cls(pattern, total)
        try:
            t._restore(data)
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError):
            t = cls(pattern, total)
        return t

    def _restore(self, d: Mapping[str, Any]) -> None:
        if d.get("v") != 1:
            raise ValueError("unknown version")
        pending = str(d.get("pending") or "")[:MAX_LINE_CHARS]
        self._pending = pending
        self._pending_parsed = pending if d.get("pending_parsed") else ""
        self._overflow = bool(d.get("overflow"))
        raw = bytes.fromhex(str(d.get("pending_bytes") or ""))[:8]
        self._decoder.setstate((raw, 0))
        self._last_line = str(d.get("last_line") or "")[:MAX_LINE_CHARS]
        self._last_output_at = _finite(d.get("last_output_at"))
        self._last_progress_at = _finite(d.get("last_progress_at"))
        source = d.get("source") or ""
        self._source = source if source in _RANK else ""
        self._step = _finite(d.get("step"))
        self._step_total = _finite(d.get("step_total"))
        self._rate = _finite(d.get("rate"))
        self._final_rate = _finite(d.get("final_rate"))
        self._epoch = _finite(d.get("epoch"))
        self._epoch_max = _finite(d.get("epoch_max"))
        self._accepted_at = _finite(d.get("accepted_at"))
        samples = d.get("samples") or []
        if not isinstance(samples, list):
            raise ValueError("samples")
        for item in samples[-MAX_SAMPLES:]:
            if isinstance(item, list) and len(item) == 2:
                a, b = _finite(item[0]), _finite(item[1])
                if a is not None and b is not None:
                    self._samples.append((a, b))


def _whole(value: float | None) -> float | None:
    """450.0 → 450 (what a person and JSON expect); 1.5 stays."""
    return int(value) if value is not None and value.is_integer() and abs(value) < 2**53 else value


def _json_text(text: str) -> str:
    """Text that survives a UTF-8 JSON round trip (a str chunk may carry lone surrogates)."""
    return text.encode("utf-8", "replace").decode("utf-8")
