#!/usr/bin/env python3
"""test_cost_modes.py - cost.py's step-mode split, Fisher's test and paired rounds, on known inputs (no GPU).

The split decides how docs/performance.md reads whole-process pairs; this checks that it finds
two modes where there are two (step times a GPU run returned), none where there is
one, and that Fisher's exact p matches hand-computed values. Prints one line per check and
"N passed, N failed"; exit 1 on a failure.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cost import ab_feature_blocks, fisher_p, modes_line, paired_rounds, step_modes  # noqa: E402

passed = failed = 0


def check(ok, what):
    global passed, failed
    print(("  ok   " if ok else "  FAIL ") + what)
    if ok:
        passed += 1
    else:
        failed += 1


# The whole-process step times (us) of the thirteenth session's cost.sh run, per arm.
RUN = {
    "plain": [39.3, 39.5, 37.1, 52.2, 37.8, 36.6, 43.3, 39.0, 55.6, 50.7, 55.2, 65.3, 40.2, 39.0, 37.2, 36.9,
              40.1, 60.6],
    "defaults": [39.4, 41.8, 53.7, 59.7, 50.9, 37.7, 48.2, 51.0, 54.4, 55.7, 41.3, 36.5, 57.1, 60.1, 39.2, 36.9,
                 55.1, 73.8],
    "sidecar": [47.9, 47.5, 39.3, 60.4, 38.1, 55.1, 67.9, 51.4, 49.7, 46.0, 41.2, 49.7, 40.0, 40.0, 39.1, 38.7,
                37.1, 41.2],
}

m = step_modes(RUN)
check(m is not None and 43.3 < m["split_us"] < 46.0, f"two modes, split between 43.3 and 46.0 us ({m and m['split_us']})")
a = m["arms"] if m else {}
check(a.get("plain", {}).get("fast") == 12 and a["plain"]["slow"] == 6 and a["defaults"]["fast"] == 7
      and a["sidecar"]["fast"] == 9, "mode counts 12/6, 7/11, 9/9")
check(abs(a.get("defaults", {}).get("fast_median_us", 0) - 39.2) < 0.05 and
      abs(a["defaults"]["fast_ratio"] - 39.2 / 39.0) < 0.002, "defaults' fast-mode median 39.2 us, 1.005 of plain's")
check(abs(a.get("defaults", {}).get("mode_counts_p", 0) - 0.181) < 0.001, "defaults' counts against plain's: p 0.181")
check(m is not None and f"split at {m['split_us']:.1f} us/step" in modes_line(m) and "defaults 7 fast / 11 slow" in modes_line(m),
      "the printed line names the split and the counts")

one = {"plain": [40.0 + 0.1 * i for i in range(18)], "defaults": [40.2 + 0.1 * i for i in range(18)]}
check(step_modes(one) is None, "one mode: no split")
check("one mode" in modes_line(None), "one mode: said so")
check(step_modes({"plain": [40.0, 60.0]}) is None, "fewer than 8 processes: no split")

# Fisher's exact test, two-sided, against hand-computed values.
check(abs(fisher_p(12, 6, 9, 9) - 0.4998) < 0.001, "fisher_p(12,6,9,9) = 0.500")
check(abs(fisher_p(3, 0, 0, 3) - 0.1) < 1e-9, "fisher_p(3,0,0,3) = 0.1")
check(fisher_p(5, 5, 5, 5) == 1.0, "fisher_p of equal rows = 1")

# paired_rounds: each round's difference, rounds one arm lacks left out, the sign test's p by hand
# (3 of 3 below: 2 * 1/8).
pr = paired_rounds({1: 1.02, 2: 1.01, 3: 1.03, 5: 1.02}, {1: 1.00, 2: 1.00, 3: 1.01, 4: 1.00})
check(pr is not None and pr["rounds"] == 3 and abs(pr["median"] + 0.02) < 1e-9 and pr["below"] == 3
      and pr["above"] == 0 and abs(pr["sign_p"] - 0.25) < 1e-9, f"paired rounds: median -0.02, 3 below, p 0.25 ({pr})")
pr = paired_rounds({1: 1.0, 2: 1.0, 3: 1.0, 4: 1.0}, {1: 1.01, 2: 0.99, 3: 1.02, 4: 0.98})
check(pr["below"] == 2 and pr["above"] == 2 and pr["sign_p"] == 1.0 and abs(pr["median"]) < 1e-9,
      f"paired rounds: two each way, p 1 ({pr})")
check(paired_rounds({1: 1.0}, {2: 1.0}) is None, "paired rounds: none in common, no figure")
# The mean's interval: differences -0.01, 0.00, +0.01 have sd 0.01, so 4.30 * 0.01 / sqrt(3).
pr = paired_rounds({1: 1.0, 2: 1.0, 3: 1.0}, {1: 0.99, 2: 1.0, 3: 1.01})
check(abs(pr["mean"]) < 1e-9 and abs(pr["half95"] - 4.30 * 0.01 / 3 ** 0.5) < 1e-9,
      f"paired rounds: the mean's t interval ({pr['mean']}, {pr['half95']})")
check(paired_rounds({1: 1.0}, {1: 1.01})["half95"] is None, "paired rounds: one round, no interval")


# ab_feature_blocks on a stand-in loop whose block time follows the switches: off 100 us, on 102,
# with Python frames off (1) 101, with the rewrite check off (2) 101.5; every fourth group the host
# runs 10% slower, on all its blocks alike (what a group cancels).
class FakeLoop:
    def __init__(self):
        self.on, self.mask, self.blocks, self.first = 1, 0, 0, []

    def block_us(self, steps):
        self.blocks += 1
        if (self.blocks - 1) % 4 == 0:
            self.first.append(self.mask if self.on else None)
        base = {0: 102.0, 1: 101.0, 2: 101.5}[self.mask] if self.on else 100.0
        return base * (1.1 if (self.blocks - 1) // 4 % 4 == 3 else 1.0) * steps / 1000


fake = FakeLoop()


def fake_switch(on):
    fake.on = on


def fake_features(mask):
    fake.mask = mask


out = ab_feature_blocks(fake, fake_switch, fake_features, 8, 1000, [1, 2])
fa = out["feature_arms"]
check(abs(out["median_block_ratio"] - 1.02) < 1e-9 and abs(fa["1"]["median_block_ratio"] - 101 / 102) < 1e-9
      and abs(fa["2"]["median_block_ratio"] - 101.5 / 102) < 1e-9,
      f"feature blocks: on/off 1.02, frames off 101/102, rewrite off 101.5/102, slow groups cancelled "
      f"({out['median_block_ratio']}, {fa['1']['median_block_ratio']}, {fa['2']['median_block_ratio']})")
check(fake.on == 1 and fake.mask == 0 and fake.blocks == 32, "feature blocks: 8 groups of 4, left on at the defaults")
check(sorted(fake.first, key=str) == sorted([None, 0, 1, 2] * 2, key=str),
      f"feature blocks: each state first in two of the eight groups ({fake.first})")


# sub_ab times a long-running loop's steady state: a stand-in loop whose recorded step costs 110 us
# for the thread's first 4096 recorded steps (hipvis's per-thread warm-ups: every eligible copy
# checked, HIPVIS_REWRITE_FIRST), 102 after them, 100 unrecorded. Timed from the first step, 40
# pairs of 1000 steps would put ~4 of the recorded blocks in the warm-up.
class WarmLoop:
    def __init__(self):
        self.on, self.recorded, self.steps, self.before_first = 1, 0, 0, None

    def step(self):
        self.steps += 1
        self.recorded += self.on

    def block_us(self, steps):
        if self.before_first is None:
            self.before_first = self.steps
        t = 0.0
        for _ in range(steps):
            t += (110.0 if self.recorded < 4096 else 102.0) if self.on else 100.0
            self.recorded += self.on
        return t / steps


import cost  # noqa: E402

warm = WarmLoop()


def warm_switch(on):
    warm.on = on


cost.hipvis, cost.Loop, cost.ring_mappings = (lambda: (warm_switch, None)), (lambda: warm), (lambda: None)


class AbArgs:
    feature_arms, blocks, block_steps, threads, thread_blocks = "", 40, 1000, 1, 0


res = cost.sub_ab(AbArgs())
check(warm.before_first >= cost.WARM_STEPS > 8192 and res["median_block_ratio"] == 1.02 and res["p90"] == 1.02,
      f"ab: {warm.before_first} steps before the first timed block (past 4096 copies and 8192 steps of "
      f"launches' warm-up), every block pair the steady 1.02 ({res['median_block_ratio']}, p90 {res['p90']})")

# Whole-process pairs: per round, an arm over its reference, only where both ran and succeeded;
# the sidecar over the defaults is paired the same way.
def proc(r, arm, us, rc=0):
    return {"kind": "process", "round": r, "arm": arm, "rc": rc, "result": {"us_per_step": us} if rc == 0 else None}


LINES = [proc(0, "plain", 40.0), proc(0, "defaults", 40.4), proc(0, "sidecar", 41.0),
         proc(1, "defaults", 36.4), proc(1, "plain", 36.0), proc(1, "sidecar", 36.0, rc=1),
         proc(2, "sidecar", 38.0), proc(2, "defaults", 37.5), {"kind": "ab", "arm": "plain", "rc": 0, "result": None}]
d, sv = cost.pair_ratios(LINES, "defaults", "plain", 3), cost.pair_ratios(LINES, "sidecar", "defaults", 3)
check([round(x, 4) for x in d] == [1.01, 1.0111] and [round(x, 4) for x in sv] == [1.0149, 1.0133],
      f"pair ratios: rounds where both arms ran, failed runs left out ({d}, sidecar over defaults {sv})")
# --parts names what runs; anything else is refused before a process starts.
import subprocess  # noqa: E402
import tempfile  # noqa: E402

with tempfile.TemporaryDirectory() as out:
    p = subprocess.run([sys.executable, cost.__file__, "drive", "--parts", "ab,pair"], capture_output=True, text=True,
                       env=dict(os.environ, OUT=out))
    check(p.returncode == 2 and "--parts 'ab,pair': a comma-separated list of ab, long, pairs" in p.stderr
          and not os.listdir(out), f"drive --parts ab,pair: refused, naming the parts, nothing run ({p.returncode}: "
          f"{p.stderr.strip()[:200]})")
print(f"gpu-scripts: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
