"""One vocabulary: app/ compares instance states, guard event kinds and launch steps with the enums of
app/core/vocab.py, never with their strings (a typo in a literal — "stoped", "idle_stop" — compares
unequal forever and no type checker sees it), and the provider plugins map their clouds' state names
onto InstanceState."""

from __future__ import annotations

import ast
from pathlib import Path

from app.core.vocab import (
    BILLING_STATES,
    RUNNING_STATES,
    STOPPED_STATES,
    GuardEventKind,
    InstanceState,
    LaunchStep,
)

ROOT = Path(__file__).resolve().parents[2]
STATES = {s.value for s in InstanceState}
KINDS = {k.value for k in GuardEventKind}
STEPS = {s.value for s in LaunchStep}  # common words ("key", "image"): only next to a step
# (file, the other side of the comparison) → why that literal is not ours
ALLOWED: dict[tuple[str, str], str] = {
    ("app/cli/guardcmd.py", "state"): "the on-instance watchdog's state (remote/watchdog.STATES), not an instance's",
}


def _literals(node: ast.expr) -> list[ast.Constant]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node]
    if isinstance(node, (ast.Tuple, ast.Set, ast.List)):
        return [e for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("frozenset", "set") \
            and node.args:
        return _literals(node.args[0])
    return []


def vocabulary_literals(path: Path) -> list[str]:
    """``file:line: 'literal'`` for each state/kind/step string compared (==, !=, in, not in) in ``path``,
    and each state string a mapping table (a dict assigned to a ``…STATE…`` name) maps to."""
    rel = path.relative_to(ROOT).as_posix()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and all(
                isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn)) for op in node.ops):
            operands = [node.left, *node.comparators]
            for i, operand in enumerate(operands):
                others = " ".join(ast.unparse(o) for j, o in enumerate(operands) if j != i)
                if (rel, others) in ALLOWED:
                    continue
                for lit in _literals(operand):
                    v = lit.value
                    if v in STATES or v in KINDS or (v in STEPS and "step" in others.lower()):
                        found.append(f"{rel}:{lit.lineno}: {v!r}")
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Dict):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and "STATE" in t.id.upper() for t in targets):
                for value in node.value.values:
                    if isinstance(value, ast.Constant) and value.value in STATES:
                        found.append(f"{rel}:{value.lineno}: {value.value!r} (map to InstanceState)")
    return found


def test_app_compares_states_kinds_and_steps_through_the_enums():
    found = [hit for path in sorted((ROOT / "app").rglob("*.py")) if path.name != "vocab.py"
             for hit in vocabulary_literals(path)]
    assert found == [], "use app.core.vocab (InstanceState, GuardEventKind, LaunchStep):\n" + "\n".join(found)


def test_the_scan_sees_each_kind_of_literal(tmp_path):
    """Not vacuous: each form the check is for is found, and the enum forms pass."""
    src = ROOT / "app" / "_vocab_probe.py"
    src.write_text(
        'STATE_MAP = {"RUNNING": "running", "STOPPED": S.STOPPED}\n'
        'a = e.state == "running"\n'
        'b = kind in ("idle-stop", "budget-stop")\n'
        'c = step != "image"\n'
        'd = auth == "key"\n'  # not a step: no step next to it
        'f = e.state in (S.RUNNING, S.STOPPED)\n',
        encoding="utf-8")
    try:
        hits = [h.split(": ", 1)[1] for h in vocabulary_literals(src)]
    finally:
        src.unlink()
    assert sorted(hits) == sorted(["'running' (map to InstanceState)", "'running'", "'idle-stop'",
                                   "'budget-stop'", "'image'"])


def test_enum_members_are_their_old_strings():
    """The ledger, the audit log and --json keep their words: a member equals, hashes and prints as its string."""
    assert InstanceState.STOPPED_BILLING == "stopped_billing"
    assert {"running": 1}[InstanceState.RUNNING] == 1
    assert f"{GuardEventKind.IDLE_STOP}" == "idle-stop" and str(LaunchStep.SECURITY_GROUP) == "security_group"
    assert InstanceState.STOPPED_BILLING in RUNNING_STATES and InstanceState.STOPPED_BILLING in BILLING_STATES
    assert InstanceState.STOPPED not in BILLING_STATES and "stopped" in STOPPED_STATES
