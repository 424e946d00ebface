"""Advisor step 1: how much GPU memory a job needs (``estimate_vram``), with the lines that explain it.

Split out of app/core/advisor.py, which re-exports these names. Mixed-precision Adam keeps ~16 bytes
per parameter (fp16 weights and gradients, fp32 master weights and two fp32 Adam moments); fp16
inference keeps 2 bytes per parameter.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .i18n import QT_TRANSLATE_NOOP, translate

TRAIN_STATE_BYTES = 16.0  # fp16 weights 2 + fp16 grads 2 + fp32 master 4 + Adam m, v 8
TRAIN_STATE_BYTES_HIGH = 20.0  # with fp32 gradient buckets / optimizer temporaries
INFER_BYTES = 2.0  # fp16/bf16 weights
FRAMEWORK_OVERHEAD_GB = 1.0  # CUDA context, cuDNN/cuBLAS workspaces, allocator slack
# Activations at a moderate batch, anchored on one known model per task and scaled with the square
# root of the parameter count (activation memory grows with width × depth × tokens, far slower than
# the parameters). Anchors: BERT-large (340M) fine-tuning ≈ 7.3 GB of activations, so the whole job
# lands between 12 and 16 GB, i.e. needs a 16 GB card; ResNet-50 (25.6M) at batch 64 ≈ 2.8 GB;
# a 70B model at batch 1 × 4k tokens without recomputation ≈ 100 GB.
ACTIVATION_ANCHOR = {"nlp": (340.0, 7.3), "vision": (25.6, 2.8), "other": (100.0, 2.6)}
INFER_ACTIVATION_FACTOR = 0.2  # KV cache / activations at modest batch and context
SHARDED_ACTIVATION_SHARE = 0.25
VRAM_TIERS = (4, 8, 12, 16, 24, 32, 40, 48, 80, 94, 141, 192)


@dataclass(frozen=True)
class VramEstimate:
    """GPU memory one copy of the job needs, and the smallest common card size that holds it."""

    gb: float  # point estimate
    low_gb: float
    high_gb: float
    tier_gb: int | None  # smallest of VRAM_TIERS ≥ gb; None: more than any single GPU
    breakdown: tuple[str, ...]  # translated lines explaining the figure
    states_gb: float = 0.0  # weights (+ gradients and optimizer states when training)
    activations_gb: float = 0.0
    overhead_gb: float = FRAMEWORK_OVERHEAD_GB
    workload: str = "train"

    def sharded_gb(self, gpus: float) -> float:
        """Per-GPU memory when `gpus` GPUs shard the states (FSDP / ZeRO-3; tensor parallel for
        inference). Training activations stay per GPU but are assumed recomputed (activation
        checkpointing, standard with sharding), keeping about a quarter; inference KV cache shards
        with the attention heads."""
        n = max(float(gpus), 1.0)
        if self.workload == "inference":
            return (self.states_gb + self.activations_gb) / n + self.overhead_gb
        return self.states_gb / n + self.activations_gb * SHARDED_ACTIVATION_SHARE + self.overhead_gb


def suggested_scale(vram: VramEstimate, per_gpu_gb: float = 80.0) -> tuple[str, int]:
    """The step-5 answer that follows the memory advice: ("single", 1) when one GPU holds the job,
    else the fewest GPUs (2, 4, 8 in one machine; then 16, 32... machines) whose shard fits `per_gpu_gb`."""
    if vram.tier_gb is not None and vram.tier_gb <= per_gpu_gb:
        return "single", 1
    n = 2
    while n < 1024 and vram.sharded_gb(n) > per_gpu_gb:
        n *= 2
    return ("multi_gpu" if n <= 8 else "multi_node"), n


def estimate_vram(task: str, params_millions: float, workload: str = "train") -> VramEstimate:
    params = max(float(params_millions), 0.0) * 1e6
    gb = 1e9
    if workload == "inference":
        weights = params * INFER_BYTES / gb
        acts = weights * INFER_ACTIVATION_FACTOR
        total = weights + acts + FRAMEWORK_OVERHEAD_GB
        low, high = weights + FRAMEWORK_OVERHEAD_GB, weights * 1.5 + FRAMEWORK_OVERHEAD_GB
        lines: tuple[str, ...] = (
            translate(QT_TRANSLATE_NOOP("LabGPU", "Inference in fp16: 2 bytes per parameter = {gb} GB"))
            .format(gb=gb_text(weights)),
            translate(QT_TRANSLATE_NOOP("LabGPU", "Activations and KV cache ≈ 20 % = {gb} GB"))
            .format(gb=gb_text(acts)),
        )
    else:
        states = params * TRAIN_STATE_BYTES / gb
        states_high = params * TRAIN_STATE_BYTES_HIGH / gb
        anchor_m, anchor_gb = ACTIVATION_ANCHOR.get(task, ACTIVATION_ANCHOR["other"])
        acts = anchor_gb * math.sqrt(params / (anchor_m * 1e6))
        total = states + acts + FRAMEWORK_OVERHEAD_GB
        low = states + acts * 0.5 + FRAMEWORK_OVERHEAD_GB
        high = states_high + acts * 1.5 + FRAMEWORK_OVERHEAD_GB
        lines = (
            translate(QT_TRANSLATE_NOOP(
                "LabGPU", "Training with Adam in mixed precision: 16–20 bytes per parameter = "
                          "{gb}–{high} GB"))
            .format(gb=gb_text(states), high=gb_text(states_high)),
            translate(QT_TRANSLATE_NOOP("LabGPU", "Activations at a moderate batch size ≈ {gb} GB "
                                                  "(larger batches or longer sequences need more)"))
            .format(gb=gb_text(acts)),
        )
    lines = (*lines, translate(QT_TRANSLATE_NOOP("LabGPU", "CUDA context and framework ≈ {gb} GB"))
             .format(gb=gb_text(FRAMEWORK_OVERHEAD_GB)))
    tier = next((t for t in VRAM_TIERS if t >= total - 1e-9), None)
    weights_or_states = weights if workload == "inference" else states
    return VramEstimate(round(total, 2), round(low, 2), round(high, 2), tier, lines,
                        weights_or_states, acts, FRAMEWORK_OVERHEAD_GB,
                        "inference" if workload == "inference" else "train")


def gb_text(value: float) -> str:
    return f"{value:.1f}" if value < 100 else f"{value:.0f}"
