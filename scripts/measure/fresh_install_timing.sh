#!/usr/bin/env bash
# The first ten minutes, measured as a newcomer meets them: a fresh clone, a new venv, an
# empty kernel cache. Each figure is the median of RUNS runs (default 3), with the load
# average before each run; the README quotes these medians.
#
#   scripts/measure/fresh_install_timing.sh                 # every measure, 3 runs each
#   RUNS=1 scripts/measure/fresh_install_timing.sh report   # only README command 1, once
#
# Measures (pick any as arguments): install (pip install .), report (README command 1:
# install, then `xianniu report`, everything cold), warmup (`xianniu warmup`, cold),
# first (the first cold `xianniu should-xian`, then the same query warm), suite (README
# command 2 cold, then the suite again warm). Needs git and python3.11; takes long (the
# suite alone is minutes).
set -euo pipefail
REPO="$(cd "$(dirname "$0")/.." && pwd)"
RUNS="${RUNS:-3}"
MEASURES=("$@")
[ ${#MEASURES[@]} -eq 0 ] && MEASURES=(install report warmup first suite)
HAND="9s 9h 9c 9d Ks Qh Qc Js 10h 8c 7h 6s 3c 3h 2s Ad"
WORK="$(mktemp -d /tmp/xianniu-fresh-XXXXXX)"
RESULTS="$WORK/results.tsv"
trap 'rm -rf "$WORK"' EXIT

load() { cut -d' ' -f1-3 /proc/loadavg; }

fresh() {  # a clean clone of HEAD with its own venv and package installed: prints its path
    local dir="$WORK/clone-$1"
    git clone -q "$REPO" "$dir"
    python3 -m venv "$dir/.venv"
    echo "$dir"
}

timed() {  # name run command...: run it, record seconds and the load before
    local name="$1" run="$2"; shift 2
    local before t0 t1
    before="$(load)"
    t0=$(date +%s.%N)
    "$@" >"$WORK/$name-$run.log" 2>&1 || { echo "$name run $run failed:"; tail -5 "$WORK/$name-$run.log"; exit 1; }
    t1=$(date +%s.%N)
    printf '%s\t%s\t%s\t%s\n' "$name" "$run" "$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b - a}')" "$before" | tee -a "$RESULTS"
}

for run in $(seq 1 "$RUNS"); do
    for m in "${MEASURES[@]}"; do
        case "$m" in
            install)
                d="$(fresh "install-$run")"
                timed install "$run" bash -c "cd '$d' && .venv/bin/pip install -q ." ;;
            report)
                d="$(fresh "report-$run")"
                timed report "$run" bash -c "cd '$d' && .venv/bin/pip install -q . && .venv/bin/xianniu report --out '$WORK/report-$run'" ;;
            warmup)
                d="$(fresh "warmup-$run")"
                (cd "$d" && .venv/bin/pip install -q .)
                timed warmup "$run" bash -c "cd '$d' && .venv/bin/xianniu warmup" ;;
            first)
                d="$(fresh "first-$run")"
                (cd "$d" && .venv/bin/pip install -q .)
                query="cd '$d' && .venv/bin/xianniu should-xian $HAND --seed 4"
                timed first_should_xian "$run" bash -c "$query"
                # the same query again, warm: what of the first run was the query, not compiling
                timed again_should_xian "$run" bash -c "$query" ;;
            suite)
                d="$(fresh "suite-$run")"
                timed suite_cold "$run" bash -c "cd '$d' && .venv/bin/pip install -q '.[test]' && .venv/bin/python -m pytest -q"
                timed suite_warm "$run" bash -c "cd '$d' && .venv/bin/python -m pytest -q" ;;
            *) echo "unknown measure $m (install report warmup first suite)"; exit 2 ;;
        esac
    done
done

python3 - "$RESULTS" <<'EOF'
import statistics, sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
names = list(dict.fromkeys(r[0] for r in rows))
print(f"\n{'measure':<20} {'runs':>4} {'median s':>9} {'min s':>7} {'max s':>7}  load before each run")
for n in names:
    t = [float(r[2]) for r in rows if r[0] == n]
    loads = "; ".join(r[3] for r in rows if r[0] == n)
    print(f"{n:<20} {len(t):>4} {statistics.median(t):>9.1f} {min(t):>7.1f} {max(t):>7.1f}  {loads}")
EOF
