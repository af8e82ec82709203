#!/usr/bin/env python3
"""check-layout: the include graph of src/ keeps the library's layout.

Builds the graph of `#include "..."` edges between the files of src/ (every
include line counts, conditional ones too) and fails when:

  - the files of src/tracer include each other in a cycle, file by file or
    folder by folder (names/ including intercept/ while intercept/ includes
    names/ is a cycle even when no single file closes it);
  - a file of src/tracer/core includes a header of a feature
    (src/tracer/{evidence,guard,names,pyframes}) or of the wrappers
    (src/tracer/intercept): the core reaches its features only through
    their table (struct hv_feature, core/tracer.h);
  - a feature's file includes a header of the core other than its
    contract, core/tracer.h;
  - a private header (`*_int.h`) is included from outside its own folder;
  - src/format or src/common includes anything from src/analyze,
    src/tracer, src/sidecar, src/experiment, src/cli or src/codeobj;
  - src/ring includes anything from src/tracer;
  - a file under src/tracer shares its name with another file of src/.

`--selftest` first builds small trees that break each rule and checks that
each is reported (and that a clean tree is not).

Usage: check_layout.py [--selftest] [SRC_DIR]   (default: src)
"""
import os
import re
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
FEATURES = ("evidence", "guard", "names", "pyframes")
CONTRACT = "tracer/core/tracer.h"
# What src/format and src/common (the shared base, built into
# libhvformat.a) must never reach.
BASE_FORBIDDEN = ("analyze", "tracer", "sidecar", "experiment", "cli", "codeobj")


def sources(src):
    """Paths (relative to src, '/'-separated) of every .c and .h file."""
    out = []
    for root, _dirs, files in os.walk(src):
        for f in files:
            if f.endswith((".c", ".h")):
                out.append(os.path.relpath(os.path.join(root, f), src).replace(os.sep, "/"))
    return sorted(out)


def include_graph(src, files):
    """{file: [included file under src, ...]}: each quoted include resolved
    as the compiler does (the including file's folder, then -Isrc); those
    that resolve outside src (include/hipvis, system headers) are left out."""
    known = set(files)
    graph = {}
    for f in files:
        with open(os.path.join(src, f), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        edges = []
        for name in INCLUDE.findall(text):
            here = os.path.normpath(os.path.join(os.path.dirname(f), name)).replace(os.sep, "/")
            if here in known:
                edges.append(here)
            elif name in known:
                edges.append(name)
        graph[f] = edges
    return graph


def find_cycles(nodes, edges_of):
    """Every elementary cycle's node list, one per strongly connected
    component (Tarjan), for a readable report rather than all cycles."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]

    def strong(v):
        # Iterative Tarjan: the graphs are small, but deep chains need no recursion limit.
        work = [(v, iter(edges_of(v)))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(edges_of(nxt))))
                elif nxt in on:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                if len(comp) > 1 or node in edges_of(node):
                    out.append(sorted(comp))

    for v in nodes:
        if v not in index:
            strong(v)
    return out


def folder(path):
    return path.rsplit("/", 1)[0]


def top(path):
    return path.split("/", 1)[0]


def check(src):
    """The layout's violations in tree `src`, as lines of text."""
    files = sources(src)
    graph = include_graph(src, files)
    bad = []

    tracer = [f for f in files if f.startswith("tracer/")]
    tracer_set = set(tracer)
    for comp in find_cycles(tracer, lambda f: [g for g in graph.get(f, []) if g in tracer_set]):
        bad.append("include cycle among src/tracer files: " + " <-> ".join(comp))
    folders = sorted({folder(f) for f in tracer})
    fedges = {d: set() for d in folders}
    why = {}
    for f in tracer:
        for g in graph[f]:
            if g in tracer_set and folder(g) != folder(f):
                fedges[folder(f)].add(folder(g))
                why.setdefault((folder(f), folder(g)), f + " includes " + g)
    for comp in find_cycles(folders, lambda d: sorted(fedges[d])):
        members = set(comp)
        because = [why[(a, b)] for a in comp for b in sorted(fedges[a]) if b in members]
        bad.append("include cycle among src/tracer folders: " + " <-> ".join(comp) + " (" + "; ".join(because) + ")")

    for f in files:
        for g in graph[f]:
            if f.startswith("tracer/core/") and any(g.startswith("tracer/%s/" % x) for x in FEATURES + ("intercept",)):
                bad.append("src/%s (the core) includes src/%s: features reach the core through struct hv_feature" % (f, g))
            if any(f.startswith("tracer/%s/" % x) for x in FEATURES) and g.startswith("tracer/core/") \
                    and g != CONTRACT:
                bad.append("src/%s (a feature) includes src/%s: features include only the core's contract, src/%s"
                           % (f, g, CONTRACT))
            if g.endswith("_int.h") and folder(g) != folder(f):
                bad.append("src/%s includes src/%s, a header private to src/%s" % (f, g, folder(g)))
            if top(f) in ("format", "common") and top(g) in BASE_FORBIDDEN:
                bad.append("src/%s includes src/%s: src/%s builds on nothing above it" % (f, g, top(f)))
            if top(f) == "ring" and top(g) == "tracer":
                bad.append("src/%s includes src/%s: the rings are shared with the sidecar, below the tracer" % (f, g))

    by_name = {}
    for f in files:
        by_name.setdefault(f.rsplit("/", 1)[-1], []).append(f)
    for name, paths in sorted(by_name.items()):
        if len(paths) > 1 and any(p.startswith("tracer/") for p in paths):
            bad.append("file name %s is not unique: %s" % (name, ", ".join("src/" + p for p in paths)))
    return bad


def selftest():
    """Each rule fires on a tree made to break it, and a clean tree passes."""
    clean = {
        "tracer/core/tracer.h": "",
        "tracer/core/tracer_int.h": '#include "tracer/core/tracer.h"\n',
        "tracer/core/lifecycle.c": '#include "tracer/core/tracer_int.h"\n',
        "tracer/evidence/evidence.h": '#include "tracer/core/tracer.h"\n',
        "tracer/intercept/common/intercept.h": '#include "tracer/evidence/evidence.h"\n',
        "ring/ring.h": "",
        "format/reader.c": '#include "ring/ring.h"\n#include "common/grow.h"\n',
        "common/grow.h": "",
    }
    broken = {
        "among src/tracer files": {"tracer/core/a.h": '#include "tracer/core/b.h"\n', "tracer/core/b.h": '#include "a.h"\n'},
        "among src/tracer folders": {"tracer/names/marks.c": '#include "tracer/intercept/common/intercept.h"\n',
                         "tracer/intercept/common/intercept.h": '#include "tracer/names/marks.h"\n',
                         "tracer/names/marks.h": ""},
        "the core": {"tracer/core/lifecycle.c": '#include "tracer/evidence/evidence.h"\n'},
        "private to": {"tracer/intercept/common/fill.c": '#include "tracer/core/tracer_int.h"\n'},
        "only the core's contract": {"tracer/evidence/payload.c": '#include "tracer/core/hot.h"\n',
                                     "tracer/core/hot.h": ""},
        "builds on nothing above": {"format/reader.c": '#include "analyze/engine.h"\n', "analyze/engine.h": ""},
        "below the tracer": {"ring/ring.h": '#include "tracer/record/collector.h"\n',
                             "tracer/record/collector.h": ""},
        "not unique": {"tracer/pyframes/reader.c": "", "format/reader.c": ""},
    }
    failed = 0

    def run(tree):
        with tempfile.TemporaryDirectory() as d:
            for path, text in tree.items():
                os.makedirs(os.path.join(d, os.path.dirname(path)), exist_ok=True)
                with open(os.path.join(d, path), "w") as fh:
                    fh.write(text)
            return check(d)

    got = run(clean)
    if got:
        print("selftest: a clean tree reported: %s" % got)
        failed += 1
    for what, change in broken.items():
        got = run(dict(clean, **change))
        if not any(what in line for line in got):
            print("selftest: no report mentioning %r for the tree that breaks it (got %s)" % (what, got))
            failed += 1
    print("check-layout selftest: %d rules, %s" % (len(broken), "ok" if not failed else "%d FAILED" % failed))
    return failed == 0


def main(argv):
    args = [a for a in argv[1:] if a != "--selftest"]
    ok = selftest() if "--selftest" in argv else True
    src = args[0] if args else "src"
    bad = check(src)
    for line in bad:
        print("check-layout: " + line)
    print("check-layout: %d files under %s, %s" % (len(sources(src)), src,
                                                  "layout kept" if not bad else "%d violations" % len(bad)))
    return 0 if ok and not bad else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
