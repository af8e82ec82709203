"""Shared plumbing of the end-to-end Python suites (tests/e2e, tests/diagnose,
tests/evidence): where the build's tools are, pass/fail accounting, and the
loop that runs a suite's cases and prints its closing line."""
import os
import subprocess
import tempfile

# What a failing case may raise; anything else is a bug in the suite itself.
CASE_ERRORS = (RuntimeError, KeyError, IndexError, StopIteration, OSError, ValueError,
               subprocess.TimeoutExpired)


class Suite:
    def __init__(self, build, name):
        self.name = name
        self.build = os.path.abspath(build)
        self.double = os.path.join(self.build, "tests", "double")
        self.lib = os.path.join(self.build, "libhipvis.so")
        self.dump = os.path.join(self.build, "hipvis-dump")
        self.analyze = os.path.join(self.build, "hipvis-analyze")
        self.apps = os.path.join(self.build, "tests", "apps")
        self.tmp = tempfile.mkdtemp(prefix=f"hipvis-{name}.")
        self.passed = 0
        self.failed = 0

    def check(self, cond, what, detail=""):
        if cond:
            self.passed += 1
            print(f"  ok   {what}")
        else:
            self.failed += 1
            print(f"  FAIL {what}" + (f": {detail}" if detail else ""))
        return cond

    def run_cases(self, cases):
        """Runs each case, counts an exception as a failure of that case, and
        keeps the traces only when something failed."""
        print(f"{self.name}: traces in {self.tmp}")
        for case in cases:
            try:
                case()
            except CASE_ERRORS as e:
                self.check(False, case.__name__, f"{type(e).__name__}: {e}")
        print(f"{self.name}: {self.passed} passed, {self.failed} failed")
        if self.failed == 0:
            subprocess.run(["rm", "-rf", self.tmp])
        return 1 if self.failed else 0
