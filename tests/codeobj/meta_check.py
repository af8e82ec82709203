#!/usr/bin/env python3
"""meta_check.py - compare co_dump's kernel table with llvm-readelf's.

    meta_check.py READELF DUMP_FILE ELF...

For every ELF, llvm-readelf --notes --elf-output-style=JSON gives the
NT_AMDGPU_METADATA note as YAML text; we render it into the same canonical
lines co_dump prints (one block per code object, keyed by amdhsa.target)
and require the two sets of blocks to be identical: every kernel, every
argument, every field. Exit 1 with a diff on any mismatch.

The YAML is LLVM's own fixed layout (2-space steps: kernels at "  - ",
kernel keys at 4, args at "      - ", arg keys at 8), so a small line parser
suffices and no PyYAML is needed on CI."""
import difflib
import json
import re
import subprocess
import sys

KEY = re.compile(r"^(\s*)(- )?(\.?[A-Za-z0-9_.]+):\s*(.*)$")


def scalar(v):
    v = v.strip()
    if len(v) >= 2 and v[0] == v[-1] == "'":
        return v[1:-1].replace("''", "'")
    if len(v) >= 2 and v[0] == v[-1] == '"':
        return json.loads(v)
    return v


def parse_yaml(text):
    """-> (target, [kernel dict with 'args': [arg dict]])"""
    target, kernels, kernel, arg, in_args = None, [], None, None, False
    for line in text.splitlines():
        m = KEY.match(line)
        if not m:
            continue
        indent, dash, key, val = len(m.group(1)), m.group(2), m.group(3), m.group(4)
        if indent == 0 and not dash:
            if key == "amdhsa.target":
                target = scalar(val)
            kernel = None
            continue
        if indent == 2 and dash:  # new kernel
            kernel = {"args": []}
            kernels.append(kernel)
            indent = 4
        if kernel is None:
            continue
        if indent == 4:
            in_args = key == ".args"
            kernel[key] = scalar(val)
        elif indent == 6 and dash and in_args:  # new argument
            arg = {}
            kernel["args"].append(arg)
            arg[key] = scalar(val)
        elif indent == 8 and in_args and arg is not None:
            arg[key] = scalar(val)
    return target, kernels


def render(target, kernels):
    out = ["object %s" % target]
    for k in kernels:
        out.append("kernel %s symbol=%s kernarg_size=%s kernarg_align=%s sgpr=%s vgpr=%s nargs=%d" % (
            k[".name"], k.get(".symbol", ""), k[".kernarg_segment_size"],
            k.get(".kernarg_segment_align", "0"), k.get(".sgpr_count", "-"),
            k.get(".vgpr_count", "-"), len(k["args"])))
        for i, a in enumerate(k["args"]):
            out.append("arg %d name=%s offset=%s size=%s kind=%s as=%s access=%s actual=%s const=%d" % (
                i, a.get(".name", "-") or "-", a[".offset"], a[".size"], a[".value_kind"],
                a.get(".address_space", "-"), a.get(".access", "-"),
                a.get(".actual_access", "-"), 1 if a.get(".is_const") == "true" else 0))
    return out


def blocks(lines):
    """canonical lines -> {target: [lines]}"""
    res, cur = {}, None
    for line in lines:
        if not line or line.startswith("#"):
            continue
        if line.startswith("object "):
            cur = res.setdefault(line[7:], [])
        if cur is None:
            raise SystemExit("dump line before any object: " + line)
        cur.append(line)
    return res


def main():
    readelf, dump, elves = sys.argv[1], sys.argv[2], sys.argv[3:]
    want = {}
    nk = na = 0
    for elf in elves:
        js = json.loads(subprocess.check_output([readelf, "--notes", "--elf-output-style=JSON", elf]))
        texts = [n["AMDGPU Metadata"] for f in js for s in f["NoteSections"]
                 for n in s["NoteSection"]["Notes"] if "AMDGPU Metadata" in n]
        if len(texts) != 1:
            raise SystemExit("%s: expected one AMDGPU metadata note, found %d" % (elf, len(texts)))
        target, kernels = parse_yaml(texts[0])
        if not kernels:
            raise SystemExit("%s: readelf metadata has no kernels (parser out of date?)" % elf)
        want[target] = render(target, kernels)
        nk += len(kernels)
        na += sum(len(k["args"]) for k in kernels)
    with open(dump) as f:
        got = blocks(f.read().splitlines())
    bad = False
    for target in sorted(set(want) | set(got)):
        w, g = want.get(target, []), got.get(target, [])
        if w != g:
            bad = True
            sys.stdout.writelines(difflib.unified_diff(
                [l + "\n" for l in w], [l + "\n" for l in g],
                "llvm-readelf " + target, "codeobj " + target))
    if bad:
        print("meta_check: MISMATCH in %s" % dump)
        return 1
    print("meta_check: %s: %d objects, %d kernels, %d args identical to llvm-readelf" % (
        dump, len(want), nk, na))
    return 0


if __name__ == "__main__":
    sys.exit(main())
