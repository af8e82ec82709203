#!/usr/bin/env python3
"""docs.py - the documentation says what the code does.

usage: docs.py BUILD_DIR   (from the repository root)

- every HIPVIS_* variable the code reads (a "HIPVIS_..." string literal
  under src/) appears in README.md's configuration table and in hipvis(1);
- every long option of hipvis-analyze, hipvis-dump, hipvis-sidecar and
  hipvis run (from their own --help) appears in their man page;
- every analyzer rule (src/analyze/rules/*.c) has its section in
  docs/triage.md, which the reports' "next:" lines point at.
"""
import glob
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from hvsuite import Suite  # noqa: E402


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def code_variables():
    found = set()
    for path in glob.glob("src/**/*.c", recursive=True) + glob.glob("src/**/*.h", recursive=True):
        found.update(re.findall(r'"(HIPVIS_[A-Z0-9_]+)"', read(path)))
    return sorted(found)


def man_text(name):
    # roff escapes the dashes of options: \-\-fail\-on
    return read(f"docs/man/{name}.1").replace("\\-", "-")


class Docs(Suite):
    def case_variables(self):
        names = code_variables()
        self.check(len(names) >= 10, f"{len(names)} HIPVIS_* variables read by the code", " ".join(names))
        readme = read("README.md")
        table = "\n".join(line for line in readme.splitlines() if line.startswith("| `HIPVIS_"))
        man = man_text("hipvis")
        for v in names:
            self.check(f"`{v}`" in table, f"{v} in README.md's configuration table")
            self.check(re.search(rf"\b{v}\b", man) is not None, f"{v} in hipvis(1)")

    def case_options(self):
        tools = [("hipvis-analyze", [os.path.join(self.build, "hipvis-analyze")]),
                 ("hipvis-dump", [os.path.join(self.build, "hipvis-dump")]),
                 ("hipvis-sidecar", [os.path.join(self.build, "hipvis-sidecar")]),
                 ("hipvis", [os.path.join(self.build, "hipvis"), "run"]),
                 ("hipvis", [os.path.join(self.build, "hipvis"), "experiment"])]
        for man, argv in tools:
            out = subprocess.run(argv + ["--help"], capture_output=True, text=True, timeout=30).stdout
            opts = sorted(set(re.findall(r"^\s+(?:-\w, )?--([a-z][a-z0-9-]*)", out, re.M)))
            text = man_text(man)
            self.check(len(opts) > 1, f"{' '.join(os.path.basename(a) for a in argv)} --help lists options",
                       out[:200])
            for o in opts:
                self.check(f"--{o}" in text, f"--{o} of {' '.join(os.path.basename(a) for a in argv)} in {man}(1)")

    def case_triage(self):
        rules = []
        for path in sorted(glob.glob("src/analyze/rules/*.c")):
            rules += re.findall(r'\.name\s*=\s*"([a-z0-9-]+)"', read(path))
        self.check(len(rules) >= 10, f"{len(rules)} rules in src/analyze/rules", " ".join(rules))
        triage = read("docs/triage.md")
        heads = set(re.findall(r"^## `?([a-z0-9-]+)`?\s*$", triage, re.M))
        for r in rules:
            self.check(r in heads, f"docs/triage.md has a section for {r} (the report's docs/triage.md#{r})")
        for part in ("what it means", "example", "name the buffer", "what to try"):
            n = len(re.findall(rf"^\*\*{part}", triage, re.M | re.I))
            self.check(n >= len(rules), f"docs/triage.md: every rule says '{part}'", f"{n} of {len(rules)}")

    def main(self):
        return self.run_cases([self.case_variables, self.case_options, self.case_triage])


if __name__ == "__main__":
    sys.exit(Docs(sys.argv[1] if len(sys.argv) > 1 else "build", "docs").main())
