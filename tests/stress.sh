#!/usr/bin/env bash
# Prove the suite does not flake: run the README's test command N times from a fresh clone of
# this repository's HEAD, optionally with K busy CPU processes beside it.
#
#   tests/stress.sh -n 5 --hogs 2          # five runs beside two CPU hogs
#   tests/stress.sh -n 3 -- tests/remote   # extra arguments go to the test command (as in CI's)
#
# Each run is `python3 packaging/bootstrap.py test [ARGS]` in the clone: exactly what CI runs
# (.ci/run). For each run it prints every failing test id and pytest's summary line, e.g.
#   run 3/5: 612 passed in 301.20s (0:05:01) — exit 0, 305 s
# and at the end one line per run again. Full logs stay in a folder it names.
#
# The virtual environment: the first run of the test command builds .venv/ (downloads for
# minutes). To save that, the clone gets a copy of an existing one (--venv PATH, default: this
# checkout's .venv/) made with hard links (`cp -al`; nothing is shared that either side writes),
# and its editable-install pointer is re-aimed at the clone, so every process imports the
# clone's code. bootstrap.py still checks it against the clone's pyproject.toml and installs
# what differs, as it does in CI. --fresh-venv skips the copy: the clone builds its own.
# Committed work only: the clone is of HEAD.
set -uo pipefail

usage() {
    sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'
    echo "options: -n N (runs, default 1)  --hogs K (busy processes, default 0)"
    echo "         --venv PATH  --fresh-venv  --keep (leave the clone)  -- ARGS (to the test command)"
}

runs=1 hogs=0 venv="" fresh=0 keep=0
extra=()
while [ $# -gt 0 ]; do
    case "$1" in
        -n) runs="$2"; shift 2 ;;
        --hogs) hogs="$2"; shift 2 ;;
        --venv) venv="$2"; shift 2 ;;
        --fresh-venv) fresh=1; shift ;;
        --keep) keep=1; shift ;;
        -h|--help) usage; exit 0 ;;
        --) shift; extra=("$@"); break ;;
        *) echo "stress.sh: unknown argument $1" >&2; usage >&2; exit 2 ;;
    esac
done
case "$runs$hogs" in *[!0-9]*) echo "stress.sh: -n and --hogs take whole numbers" >&2; exit 2 ;; esac

repo="$(git -C "$(dirname "$0")" rev-parse --show-toplevel)" || exit 2
[ -n "$venv" ] || venv="$repo/.venv"

work="$(mktemp -d /tmp/labgpu-stress.XXXXXX)"
logs="$(mktemp -d /tmp/labgpu-stress-logs.XXXXXX)"
chmod 755 "$work" "$logs"  # like any checkout: the suite's unprivileged test user must reach it
hog_pids=()

cleanup() {
    for pid in "${hog_pids[@]}"; do
        kill "$pid" 2>/dev/null
    done
    for pid in "${hog_pids[@]}"; do
        wait "$pid" 2>/dev/null
    done
    hog_pids=()
    if [ "$keep" = 1 ]; then
        echo "stress: clone kept in $work/labgpu"
    else
        rm -rf "$work"
    fi
}
trap cleanup EXIT
trap 'echo "stress: interrupted"; exit 130' INT TERM

clone="$work/labgpu"
git clone -q --no-hardlinks "$repo" "$clone" || exit 2
head="$(git -C "$clone" rev-parse --short HEAD)"
echo "stress: clone of $repo at $head in $clone"

if [ "$fresh" = 0 ] && [ -x "$venv/bin/python" ]; then
    cp -al "$venv" "$clone/.venv" 2>/dev/null || cp -a "$venv" "$clone/.venv" || exit 2
    # files bootstrap.py rewrites in place get their own copy (its install stamp)
    if [ -e "$clone/.venv/.labgpu-installed" ]; then
        rm -f "$clone/.venv/.labgpu-installed"
        cp "$venv/.labgpu-installed" "$clone/.venv/.labgpu-installed"
    fi
    src_app="$(cd "$venv/.." && pwd)/app"
    for f in "$clone"/.venv/lib/python*/site-packages/__editable__*finder*.py; do
        [ -e "$f" ] || continue
        # sed -i writes a new file: the original venv's copy (a hard link) is left as it was
        sed -i "s#'[^']*/app'#'$clone/app'#" "$f"
    done
    echo "stress: reusing the virtual environment $venv (hard-linked copy; editable install now points at $clone/app, was $src_app)"
else
    echo "stress: no virtual environment reused: the first run builds $clone/.venv"
fi

if [ "$hogs" -gt 0 ]; then
    for _ in $(seq "$hogs"); do
        ( while :; do :; done ) &
        hog_pids+=("$!")
    done
    echo "stress: $hogs CPU hog(s) running beside the suite: pids ${hog_pids[*]}"
fi

summaries=()
failed_runs=0
for i in $(seq "$runs"); do
    log="$logs/run-$i.log"
    echo "stress: run $i/$runs: python3 packaging/bootstrap.py test ${extra[*]} (log: $log)"
    start=$(date +%s)
    (cd "$clone" && python3 packaging/bootstrap.py test "${extra[@]}") >"$log" 2>&1
    rc=$?
    took=$(( $(date +%s) - start ))
    # every failing id pytest names (the FAILED / ERROR lines of its short test summary)
    awk '/short test summary info/ { on = 1; next } on && /^(FAILED|ERROR) / { print }' "$log" | sed "s/^/  run $i: /"
    summary="$(grep -E '^=* *([0-9]+ (passed|failed|errors?|skipped|deselected|xfailed|xpassed|warnings?)|no tests ran)' "$log" | tail -n 1 | sed 's/^=* *//; s/ *=*$//')"
    [ -n "$summary" ] || summary="no pytest summary (see the log)"
    line="run $i/$runs: $summary — exit $rc, ${took} s"
    echo "$line"
    summaries+=("$line")
    [ "$rc" = 0 ] || failed_runs=$((failed_runs + 1))
done

echo "stress: $runs run(s) of $head, $hogs hog(s), $failed_runs failed; logs in $logs"
for line in "${summaries[@]}"; do
    echo "  $line"
done
[ "$failed_runs" = 0 ]
