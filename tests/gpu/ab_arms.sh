#!/usr/bin/env bash
# In-process A/B of tests/gpu/cost.py's decode loop (issue 12) for several
# configurations of hipvis side by side: which setting moves the cost. Each arm
# is one `cost.py ab` process (BLOCKS block pairs, recording on/off alternating
# in the process); every arm runs once a round, for ROUNDS rounds, each round starting one
# arm later, so that the host's per-process step modes fall on all of them. About 11 s per
# process.
#
#   ARMS="plain defaults ring256:HIPVIS_RING_KB=256 nopy:HIPVIS_PYFRAMES=0" bash tests/gpu/ab_arms.sh
#   (carry build/libhipvis.so, .devlibs; ROUNDS=2 BLOCKS=60 by default)
# An arm is "plain" (no hipvis), "defaults", or LABEL:VAR=x,VAR=y (the preload with
# those variables; LIB=path, relative to the repository, preloads that build instead
# of build/libhipvis.so: a build made for an experiment, carried beside it). When an
# arm sets HIPVIS_SIDECAR=1 the script runs its own build/hipvis-sidecar (carry it)
# on a private tmpfs directory, which such arms get as HIPVIS_SIDECAR_DIR. Prints
# each arm's median block ratio: the median of its processes' medians with their
# range, then pooled over the arm's processes with its 95% interval, the records made
# and dropped in its processes, and per process; then each arm against the reference arm
# (REF, "defaults" when there is one) round by round, the comparison a figure of another
# call cannot give (the same library reads 0.5 points apart from call to call).
#   REPORT=ab_arms.jsonl bash tests/gpu/ab_arms.sh   (only the report, of a returned file; no GPU)
# THREADS=N (N >= 2): each process then also runs THREAD_BLOCKS (20) block pairs with N - 1 helper
# threads calling the runtime next to the loop (cost.py ab --threads), reported per arm and paired
# by round as "ARM, N threads".
# An arm with COST_AB_FEATURES=1+2 runs groups of blocks (off, on, on with Python frames off, on
# with the rewrite check off: cost.py ab --feature-arms) and reports each feature against the
# defaults in the same process, e.g. ARMS="feat:COST_AB_FEATURES=1+2+3".
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ -z "${REPORT:-}" ]; then
OUT=${OUT:-$root/gpu-out}
mkdir -p "$OUT"
work=$(mktemp -d /tmp/hvab.XXXXXX)
trap 'rm -rf "$work"' EXIT
. "$root/tests/gpu/devlibs.sh"   # libpath
lib=$root/build/libhipvis.so
res=$OUT/ab_arms.jsonl
: > "$res"
ARMS=${ARMS:-plain defaults}
# Sidecar arms: one hipvis-sidecar for the whole run, its segments on a tmpfs
# (docs/sidecar.md), its traces in the work directory, stopped at the end.
sidecar_dir= sidecar_pid=
case " $ARMS " in *HIPVIS_SIDECAR=1*)
    sidecar_dir=$(mktemp -d "${SEGDIR:-/dev/shm}/hvab-seg.XXXXXX") || exit 1
    mkdir -p "$work/sidecar-traces"
    env ${libpath:+LD_LIBRARY_PATH=$libpath} "$root/build/hipvis-sidecar" --dir "$sidecar_dir" \
        -o "$work/sidecar-traces" --no-analysis --nice 0 -q > "$OUT/ab_sidecar.log" 2>&1 &
    sidecar_pid=$!
    trap 'kill "$sidecar_pid" 2>/dev/null; wait "$sidecar_pid" 2>/dev/null; rm -rf "$work" "$sidecar_dir"' EXIT
    sleep 0.5 ;;
esac
# Round r starts at arm r (mod the arms): each arm takes each place in a round in turn, so
# that no arm always runs first, after the previous round's last process, or last.
read -ra arms <<< "$ARMS"
for r in $(seq 1 "${ROUNDS:-2}"); do
    for i in "${!arms[@]}"; do
        arm=${arms[$(( (i + r - 1) % ${#arms[@]} ))]}
        label=${arm%%:*}
        vars= alib=$lib
        [ "$arm" != "$label" ] && vars=$(echo "${arm#*:}" | tr ',' '\n' | grep -v '^LIB=' | tr '\n' ' ')
        case ",${arm#*:}," in *,LIB=*) alib=$root/$(echo ",${arm#*:}," | sed 's/.*,LIB=\([^,]*\),.*/\1/') ;; esac
        pre=
        [ "$label" != plain ] && pre="LD_PRELOAD=$alib HIPVIS_OUTPUT=$work/ab.$label.%p.zst ${libpath:+LD_LIBRARY_PATH=$libpath}"
        case ",${arm#*:}," in *,HIPVIS_SIDECAR=1,*) pre="$pre HIPVIS_SIDECAR_DIR=$sidecar_dir" ;; esac
        line=$(env PYTHONUNBUFFERED=1 HIPVIS_QUIET=1 $pre $vars timeout -k 5 120 python3 "$root/tests/gpu/cost.py" ab \
            --blocks "${BLOCKS:-60}" --threads "${THREADS:-1}" --thread-blocks "${THREAD_BLOCKS:-20}" \
            2>> "$OUT/ab_arms.err" | grep '^{"result"')
        echo "{\"arm\":\"$label\",\"round\":$r,\"out\":${line:-null}}" >> "$res"
        rm -f "$work"/ab.*
    done
done
else
    res=$REPORT
fi
python3 - "$res" "$root/tests/gpu" <<'PY'
import json, os, statistics, sys, collections
sys.path.insert(0, sys.argv[2])
from cost import median_ci95, paired_rounds
# The arm's figure is the median of its processes' medians: a process settles
# in a step mode of its own and its block pairs move together, so the pairs of
# several processes pooled are not independent, and the pooled interval
# (printed after it) is narrower than what separates two runs of one library
# (docs/performance.md "Method": 1.013 to 1.033 for the same build, while
# the arm without hipvis stayed within 0.991-1.002).
per, pooled, meds = collections.defaultdict(list), collections.defaultdict(list), collections.defaultdict(list)
# Records made and dropped in the arm's processes, as the library counted them
# (hipvis_record_counts after the last block): a loss is printed, never hidden
# behind a ratio (dropped records cost less than written ones).
made, dropped = collections.Counter(), collections.Counter()
by_round = collections.defaultdict(dict)   # arm -> round -> process median
# COST_AB_FEATURES arms (cost.py ab --feature-arms): per (arm, mask), each process's median of
# its blocks with those features off against its defaults' blocks, and the block ratios pooled.
feat_meds, feat_pooled = collections.defaultdict(list), collections.defaultdict(list)
for line in open(sys.argv[1]):
    o = json.loads(line)
    r = (o["out"] or {}).get("result")
    if not r:
        per[o["arm"]].append("FAILED")
        continue
    # The several-threads blocks of the process (THREADS), as an arm of their own.
    for arm, res in ((o["arm"], r), (f"{o['arm']}, {(r.get('threads') or {}).get('threads')} threads", r.get("threads"))):
        if not res or "median_block_ratio" not in res:
            continue
        per[arm].append(f"{res['median_block_ratio']:.3f}@{res['arm_off_us']:.0f}us")
        meds[arm].append(res["median_block_ratio"])
        by_round[arm][o.get("round")] = res["median_block_ratio"]
        pooled[arm] += res.get("ratios") or []
        # The process's counts from its start to its last single-thread block; the threads
        # blocks' own, from their first block to their last.
        after, before = res.get("records_after") or {}, (res.get("records_before") or {}) if res is not r else {}
        made[arm] += after.get("made", 0) - before.get("made", 0)
        dropped[arm] += after.get("dropped", 0) - before.get("dropped", 0)
    for m, fa in (r.get("feature_arms") or {}).items():
        feat_meds[(o["arm"], m)].append(fa["median_block_ratio"])
        feat_pooled[(o["arm"], m)] += fa.get("ratios") or []
for arm, cells in per.items():
    m = sorted(meds[arm])
    head = (f"median of {len(m)} processes' medians {statistics.median(m):.4f} (range {m[0]:.4f}-{m[-1]:.4f})"
            if m else "no process finished")
    p = sorted(pooled[arm])
    ci = median_ci95(p) if p else None
    pool = f"pooled {statistics.median(p):.4f} (95% CI {ci[0]:.4f}-{ci[1]:.4f}, {len(p)} pairs)" if p else "pooled n/a"
    loss = f"records made {made[arm]}, dropped {dropped[arm]}" if made[arm] else "no record counts"
    print(f"ab_arms: {arm:10s} {head}; {pool}; {loss}; per process {' '.join(cells)}")
FEATURES = {"1": "Python frames", "2": "the rewrite check", "3": "Python frames and the rewrite check"}
for (arm, m), fm in feat_meds.items():
    fm, p = sorted(fm), sorted(feat_pooled[(arm, m)])
    ci = median_ci95(p)
    print(f"ab_arms: {arm:10s} with {FEATURES.get(m, 'mask ' + m)} off, against its defaults' blocks in the same "
          f"process: median of {len(fm)} processes' medians {statistics.median(fm):.4f} (range {fm[0]:.4f}-{fm[-1]:.4f}); "
          f"pooled {statistics.median(p):.4f} (95% CI {ci[0]:.4f}-{ci[1]:.4f}, {len(p)} groups)")
# Each arm against the reference arm of this call, round by round (cost.py paired_rounds): the
# only comparison these figures support, since the same library reads differently from call to call.
ref = os.environ.get("REF") or ("defaults" if "defaults" in by_round else None)
for arm in per:
    # A threads arm against the reference's threads blocks.
    base = ref if not arm.endswith(" threads") else f"{ref}, {arm.rsplit(', ', 1)[1]}"
    pr = paired_rounds(by_round[base], by_round[arm]) if base in by_round and arm != base else None
    if pr:
        print(f"ab_arms: {arm:10s} minus {base}, paired by round: median {pr['median']:+.4f} "
              f"(95% CI {pr['ci95'][0]:+.4f}..{pr['ci95'][1]:+.4f}, {pr['rounds']} rounds); mean {pr['mean']:+.4f}"
              + (f" +- {pr['half95']:.4f} (t, 95%)" if pr['half95'] is not None else "")
              + f"; below in {pr['below']}, above in {pr['above']} (sign test p {pr['sign_p']:.2f})")
PY
