#!/usr/bin/env python3
"""docs.py - the documentation says what the code does.

usage: docs.py BUILD_DIR   (from the repository root)

- the HIPVIS_* settings of the one table (src/common/envtab.c, as
  `hipvis run --help-env` prints it) are exactly the variables of README.md's
  configuration table and of hipvis(1)'s ENVIRONMENT section, with the same
  defaults, and every "HIPVIS_..." string literal under src/ is in the table;
- the OPTIONS section of each tool's man page (hipvis-analyze, hipvis-dump,
  hipvis-sidecar, hipvis run, hipvis experiment) is the tool's option table as
  its --help prints it (src/cli): each option exactly once, with its short
  name, its argument and its default, and no option the tool does not take;
- every analyzer rule (src/analyze/rules/*.c) has its section in
  docs/triage.md, which the reports' "next:" lines point at, and every
  runtime erratum of src/analyze/errata/errata.c its subsection;
- every docs/*.md file the documents and the tests name exists;
- the documents speak of the product, not of when it was built: no work
  periods ("the ninth session"), no tracker numbers ("issue 12", "#12"), no
  links to the retired measurement log (wording_problems below). With
  DOCS_WORDING_SRC=1 in the environment the same check covers the comments
  and strings of src/, include/ and tools/ as well.

  python3 tests/docs/docs.py --wording [--src]   lists every offending line
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


def env_table(build):
    """({setting: default}, {name only the build and the tests read}) from hipvis run --help-env."""
    out = subprocess.run([os.path.join(build, "hipvis"), "run", "--help-env"], capture_output=True, text=True,
                         timeout=30).stdout
    settings = dict(re.findall(r"^  (HIPVIS_\w+)  \(default (.*)\)$", out, re.M))
    harness = set(re.findall(r"^  (HIPVIS_\w+) +\S", out, re.M)) - set(settings)
    return settings, harness


# ---- wording: what the documents may not say ------------------------------

ORDINALS = ("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
            "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth").split()
_ORD = "|".join(ORDINALS + [f"twenty-{o}" for o in ORDINALS[:9]] + ["thirtieth", r"\d+(?:st|nd|rd|th)"])
WORDING = [
    (re.compile(rf"\b(?:{_ORD})(?:\s+(?:and|to)\s+(?:{_ORD}))?\s+sessions?\b", re.I), "a numbered work period"),
    (re.compile(r"\bsessions?\b", re.I), "\"session\" as a work period"),
    (re.compile(r"\bwork(?:ing)? periods?\b", re.I), "a work period"),
    (re.compile(r"\bissues?\s+#?\d+", re.I), "a tracker number"),
    (re.compile(r"(?<![\w./-])#\d+\b"), "a tracker number"),
    (re.compile(r"docs/validation\.md"), "the retired measurement log (docs/performance.md)"),
]
# Technical uses of the same words, allowed where they stand: a session of
# another tool (LTTng's, tmux's, a login's), a POSIX session; an upstream
# pull request (rocm-systems PR #9363 / #9904: "owner/repo#N" never matches,
# since the # follows a word); an ordinal in hipvis's own output (after
# mark "step" #6, stack #0).
SESSION_OK = re.compile(r"(?:\b(?:lttng|tmux|screen|ssh|login|terminal|tracing)\s+sessions?\b"
                        r"|\bsessions?\s+(?:leader|id|daemon|keyring)\b|\blttng-sessiond\b)", re.I)
HASH_OK = re.compile(r'(?:\bPRs?\s+(?:#\d+\s*/\s*)*|\bpull\s+|"\s|\b(?:stack|frame)\s|#\d+\s*/\s*)$')


def wording_problems(text):
    """(line number, what, the line) for each use in text the documents may not make."""
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        allowed = [m.span() for m in SESSION_OK.finditer(line)]
        reported = []   # spans already reported: "the ninth session" once, not also as "session"
        for rx, what in WORDING:
            for m in rx.finditer(line):
                if any(a <= m.start() < b for a, b in allowed + reported):
                    continue
                if what == "a tracker number" and m.group(0).startswith("#") and HASH_OK.search(line[:m.start()]):
                    continue
                reported.append(m.span())
                out.append((n, what, line.strip()))
    return out


def doc_files():
    return ["README.md"] + sorted(glob.glob("docs/**/*.md", recursive=True)) + sorted(glob.glob("docs/man/*.1"))


SRC_SUFFIXES = (".c", ".h", ".S", ".mk", ".py", ".sh", ".md", ".txt", ".map")


def src_files():
    """src/, include/ and tools/, the files whose comments and strings are read by people (not the
    HTML report's stylesheet and script, whose #rrggbb colours are not tracker numbers)."""
    found = []
    for top in ("src", "include", "tools"):
        for path in sorted(glob.glob(f"{top}/**/*", recursive=True)):
            if os.path.isfile(path) and path.endswith(SRC_SUFFIXES):
                found.append(path)
    return found


def wording_src():
    """DOCS_WORDING_SRC=1 (make check-docs DOCS_WORDING_SRC=1): src/, include/ and tools/ are held to
    the same wording and links as the documents."""
    return os.environ.get("DOCS_WORDING_SRC", "0") not in ("", "0")


def wording_report(paths):
    problems = []
    for path in paths:
        for n, what, line in wording_problems(read(path)):
            problems.append(f"{path}:{n}: {what}: {line[:160]}")
    return problems


def man_text(name):
    # roff escapes the dashes of options: \-\-fail\-on
    return read(f"docs/man/{name}.1").replace("\\-", "-")


def help_options(out):
    """{long name: (short, metavar, default)} from a tool's --help (src/cli/cli.c's layout: the option
    at column 2, its help from column 26, continuation lines indented to 26)."""
    opts, last = {}, None
    for line in out.splitlines():
        m = re.match(r"^  (?:-(\w), )?--([a-z][a-z0-9-]*)(?: ([^ ]+))?(?: {2,}(.*))?$", line)
        if m:
            last = m.group(2)
            opts[last] = [m.group(1), m.group(3), m.group(4) or ""]
        elif last and line.startswith(" " * 26):
            opts[last][2] += " " + line.strip()
        else:
            last = None
    table = {}
    for name, (short, metavar, text) in opts.items():
        d = re.search(r"\(default:? ([^;)]*)", text)
        table[name] = (short, metavar, d.group(1).strip() if d else None)
    return table


def option_problems(table, entries):
    """What differs between a tool's option table (help_options) and its man page's entries (man_options)."""
    problems = []
    for name, (short, metavar, default) in sorted(table.items()):
        mine = [e for e in entries if name in e["long"]]
        if name in ("help", "version") and not mine:
            continue   # said once for every command, in the text
        if len(mine) != 1:
            problems.append(f"--{name}: {len(mine)} entries")
            continue
        e = mine[0]
        if e["long"][name] != metavar:
            problems.append(f"--{name}: argument {e['long'][name] or 'none'}, the tool says {metavar or 'none'}")
        if e["short"] != short:
            problems.append(f"--{name}: short option {e['short'] or 'none'}, the tool says {short or 'none'}")
        if default and f"default {default}" not in e["body"] and f"default: {default}" not in e["body"]:
            problems.append(f"--{name}: the tool's default is {default}: {e['body'][:200]}")
    for e in entries:
        for name in e["long"]:
            if name not in table:
                problems.append(f"--{name}: not an option the tool takes")
    return problems


def roff_text(line):
    """The words a roff line shows: font macros (.B .BI .BR ...) joined as roff joins their arguments,
    escapes (\\- \\fB) resolved."""
    import shlex
    m = re.match(r"^\.(B|I|BI|IB|BR|RB|IR|RI)\s+(.*)$", line)
    if m:
        try:
            args = shlex.split(m.group(2).replace("\\", "\\\\"), posix=True)
        except ValueError:
            args = [m.group(2)]
        line = (" " if m.group(1) in ("B", "I") else "").join(args)
    elif line.startswith("."):
        line = ""
    line = re.sub(r"\\f[BIRP]", "", line.replace("\\\\", "\\"))
    return line.replace("\\-", "-").replace("\\(em", "-").replace("\\ ", " ")


def man_options(man, section):
    """The .TP entries of a man page's section: [{"long": {name: metavar}, "short": letter, "body": text}]."""
    m = re.search(r"^\.SH " + re.escape(section) + r"\n(.*?)(?=^\.SH |\Z)", man, re.M | re.S)
    if not m:
        return []
    entries = []
    for part in re.split(r"^\.TP\n", m.group(1), flags=re.M)[1:]:
        lines = part.split("\n")
        head = roff_text(lines[0])
        body_lines = []
        for ln in lines[1:]:
            if ln.startswith((".PP", ".SH", ".SS")):
                break
            body_lines.append(roff_text(ln))
        body = re.sub(r"\s+", " ", " ".join(body_lines)).strip()
        longs = {n: v for n, v in re.findall(r"--([a-z][a-z0-9-]*)(?: ([^ ,-][^ ,]*))?", head)}
        short = re.match(r"^-(\w)\b", head)
        entries.append({"long": {n: (v or None) for n, v in longs.items()}, "short": short.group(1) if short else None,
                        "head": head, "body": body})
    return entries


class Docs(Suite):
    def case_variables(self):
        settings, harness = env_table(self.build)
        self.check(len(settings) >= 10, f"{len(settings)} HIPVIS_* settings in hipvis run --help-env",
                   " ".join(settings))
        for v in code_variables():
            self.check(v in settings or v in harness, f"{v} (a string under src/) is in the HIPVIS_* table")
        # README.md: | `NAME` | accepted | `default` (or: unset) |
        readme = {}
        for line in read("README.md").splitlines():
            m = re.match(r"\| `(HIPVIS_\w+)` \|.*\| (?:`([^`]*)`|(unset)) \|$", line)
            if m:
                readme[m.group(1)] = m.group(2) if m.group(2) is not None else "unset"
        # hipvis(1): .TP / .B NAME / text ending "default \fBX\fR" (or "default unset").
        man = man_text("hipvis")
        env = man[man.index(".SH ENVIRONMENT"):]
        env = env[:env.index("\n.SH ", 1)]
        entries = {}
        for m in re.finditer(r"^\.TP\n\.B (HIPVIS_\w+)\n(.*?)(?=^\.TP|^\.PP|\Z)", env, re.M | re.S):
            d = re.search(r"default (?:\\fB(.*?)\\fR|(unset))", m.group(2))
            entries[m.group(1)] = (d.group(1) or d.group(2)) if d else None
        for where, doc in (("README.md's configuration table", readme), ("hipvis(1) ENVIRONMENT", entries)):
            for v, d in sorted(settings.items()):
                self.check(v in doc, f"{v} in {where}")
                if v in doc:
                    self.check(doc[v] == d, f"{v}: {where} says default {doc[v]}", f"the table says {d}")
            for v in sorted(set(doc) - set(settings)):
                self.check(False, f"{v} in {where} is a setting of the table (src/common/envtab.c)")

    def case_options(self):
        """Each tool's OPTIONS section in its man page is its option table (src/cli's hv_cli_opt, as its
        --help prints it): every option once, with its short name, its argument and its default, and
        nothing the tool does not take."""
        tools = [("hipvis-analyze", "OPTIONS", [os.path.join(self.build, "hipvis-analyze")]),
                 ("hipvis-dump", "OPTIONS", [os.path.join(self.build, "hipvis-dump")]),
                 ("hipvis-sidecar", "OPTIONS", [os.path.join(self.build, "hipvis-sidecar")]),
                 ("hipvis", "OPTIONS (run)", [os.path.join(self.build, "hipvis"), "run"]),
                 ("hipvis", "OPTIONS (experiment)", [os.path.join(self.build, "hipvis"), "experiment"])]
        for man, section, argv in tools:
            label = " ".join(os.path.basename(a) for a in argv)
            out = subprocess.run(argv + ["--help"], capture_output=True, text=True, timeout=30).stdout
            table = help_options(out)
            self.check(len(table) > 2, f"{label} --help lists options", out[:200])
            entries = man_options(man_text(man), section)
            if man == "hipvis-sidecar":   # -h/--help and --version under COMMON OPTIONS
                entries += man_options(man_text(man), "COMMON OPTIONS")
            self.check(entries, f"{man}(1) has a {section} section with .TP entries")
            problems = option_problems(table, entries)
            self.check(not problems, f"{man}(1) {section} is {label}'s option table: each option once, with its "
                       "short name, argument and default, nothing else", "\n    " + "\n    ".join(problems))

    def case_options_rules(self):
        """The check itself: a duplicate, a wrong default, a wrong argument, a missing or an extra option."""
        help_out = ("usage: t [options]\n"
                    "  --html-max-ops N        ops kept (default 150000; the rest as density)\n"
                    "  -o, --output-dir DIR    traces\n"
                    "  --metrics-interval-ms N\n"
                    "                          (default 1000)\n"
                    "  -h, --help              this text\n")
        table = help_options(help_out)
        self.check(table == {"html-max-ops": (None, "N", "150000"), "output-dir": ("o", "DIR", None),
                             "metrics-interval-ms": (None, "N", "1000"), "help": ("h", None, None)},
                   "help_options reads names, short names, arguments and defaults", str(table))
        good = (".SH OPTIONS\n.TP\n.BI \\-\\-html\\-max\\-ops \" N\"\nOps kept (default 150000).\n"
                ".TP\n.BI \\-o \" DIR\\fR, \" \\-\\-output\\-dir \" DIR\"\nTraces.\n"
                ".TP\n.BI \\-\\-metrics\\-interval\\-ms \" N\"\nPeriod (default 1000).\n.SH EXIT STATUS\n")
        self.check(not option_problems(table, man_options(good, "OPTIONS")), "a matching section passes",
                   str(option_problems(table, man_options(good, "OPTIONS"))))
        for what, man in (
                ("a duplicate with another default", good.replace(".SH EXIT", ".TP\n.BI \\-\\-html\\-max\\-ops \" N\"\n"
                                                                  "Ops kept (default 250000).\n.SH EXIT")),
                ("a wrong default", good.replace("default 150000", "default 250000")),
                ("a wrong argument", good.replace('\\-\\-metrics\\-interval\\-ms " N"', '\\-\\-metrics\\-interval\\-ms " MS"')),
                ("a missing short option", good.replace('.BI \\-o " DIR\\fR, " \\-\\-output', '.BI \\-\\-output')),
                ("a missing option", good.replace(".TP\n.BI \\-\\-metrics", ".PP\n.BI \\-\\-metrics")),
                ("an option the tool does not take", good.replace(".SH EXIT", ".TP\n.B \\-\\-bogus\nNo.\n.SH EXIT"))):
            self.check(option_problems(table, man_options(man, "OPTIONS")), f"the options check catches {what}")

    def case_triage(self):
        rules = []
        for path in sorted(glob.glob("src/analyze/rules/*.c")):
            text = read(path)
            rules += re.findall(r'\.name\s*=\s*"([a-z0-9-]+)"', text)
            rules += re.findall(r'HV_RULE\(\s*\w+,\s*\w+,\s*"([a-z0-9-]+)"', text)
        self.check(len(rules) >= 10, f"{len(rules)} rules in src/analyze/rules", " ".join(rules))
        triage = read("docs/triage.md")
        heads = set(re.findall(r"^## `?([a-z0-9-]+)`?\s*$", triage, re.M))
        for r in rules:
            self.check(r in heads, f"docs/triage.md has a section for {r} (the report's docs/triage.md#{r})")
        for part in ("what it means", "example", "name the buffer", "what to try"):
            n = len(re.findall(rf"^\*\*{part}", triage, re.M | re.I))
            self.check(n >= len(rules), f"docs/triage.md: every rule says '{part}'", f"{n} of {len(rules)}")
        # runtime-erratum: one section per entry of the errata table
        errata = re.findall(r'\.id = "([a-z0-9-]+#[0-9]+)"', read("src/analyze/errata/errata.c"))
        self.check(errata, "the runtime errata table has entries", "src/analyze/errata/errata.c")
        for e in errata:
            self.check(re.search(rf"^### {re.escape(e)}:", triage, re.M) is not None,
                       f"docs/triage.md has a section for runtime erratum {e}")

    def case_links(self):
        paths = doc_files() + sorted(glob.glob("tests/**/*", recursive=True))
        if wording_src():
            paths += src_files()
        named = {}
        for path in paths:
            if not os.path.isfile(path) or path.endswith((".zst", ".png", ".gz")):
                continue
            try:
                text = read(path)
            except UnicodeDecodeError:
                continue
            for doc in re.findall(r"\bdocs/[A-Za-z0-9_.-]+\.md\b", text):
                named.setdefault(doc, path)
        self.check(len(named) >= 10, f"{len(named)} docs/*.md named by the documents, sources and tests")
        for doc, where in sorted(named.items()):
            self.check(os.path.isfile(doc), f"{doc} exists (named in {where})")

    def case_wording(self):
        problems = wording_report(doc_files())
        self.check(not problems, "README.md, docs/ and docs/man speak of the product, not of work periods "
                   "or tracker numbers", "\n    " + "\n    ".join(problems))
        if wording_src():
            problems = wording_report(src_files())
            self.check(not problems, "src/, include/ and tools/ likewise (DOCS_WORDING_SRC=1)",
                       "\n    " + "\n    ".join(problems))
        self.check(len(read("docs/performance.md").splitlines()) <= 300,
                   "docs/performance.md stays a summary (at most 300 lines; the history is in git)")

    def case_wording_rules(self):
        """The check itself: what it must catch and what it must let through."""
        bad = ["the ninth session measured it", "(docs/" "validation.md, twelfth and thirteenth sessions)",
               "issue 12's target", "(issue 6)", "see #12", "In the twenty-seventh session", "this session",
               "after the work period"]
        good = ["an LTTng session records it", "in a tmux session", "rocm-systems#11499 / PR #11501",
                "rocm-systems PR #9363 / #9904", "ROCm/hip#3902", "after mark \"step\" #6",
                "the helper period (HELPER_US)", "issued from two Python lines", "a session leader",
                "`stack #0 run+0x5ce`"]
        for text in bad:
            self.check(wording_problems(text), f"wording check catches {text!r}")
        for text in good:
            self.check(not wording_problems(text), f"wording check lets {text!r} through",
                       str(wording_problems(text)))

    def main(self):
        return self.run_cases([self.case_variables, self.case_options, self.case_options_rules, self.case_triage,
                               self.case_links,
                               self.case_wording_rules, self.case_wording])


if __name__ == "__main__":
    if "--wording" in sys.argv:
        found = wording_report(doc_files() + (src_files() if "--src" in sys.argv else []))
        print("\n".join(found) if found else "docs: no work-period or tracker wording")
        sys.exit(1 if found else 0)
    sys.exit(Docs(sys.argv[1] if len(sys.argv) > 1 else "build", "docs").main())
