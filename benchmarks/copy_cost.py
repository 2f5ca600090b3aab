#!/usr/bin/env python3
"""Instructions per copied object of each nursery collector, exactly.

Runs minivm once per collector under callgrind (valgrind) with one GC
thread and takes the inclusive instructions of Heap.runWorkers, the part
of every nursery collection that scans the remembered set and the roots
and copies (callgrind_annotate --inclusive), over the objects the stats
file says were copied. Counts are exact: one run each is enough, and
builds can be compared on a noisy machine. (callgrind's --toggle-collect
is not used: Go's stack switches can leave it collecting after the
function returned.)

usage: copy_cost.py [--minivm PATH] [--flags "..."] [--breakdown] [PROGRAM.lox ...]
e.g.   copy_cost.py benchmarks/dom_tree.lox
       copy_cost.py --minivm /tmp/minivm-old --flags "-Xmn8m" benchmarks/wide_dom.lox

--breakdown also sorts the self instructions of each collector's
traversal functions (TRAVERSAL below) by kind, per copied object: the
operations themselves, branches, and what the compiler adds around them
(register-to-register moves, stack spills and reloads, calls and frames,
NOPs that mark inlined code). It needs callgrind's --dump-instr=yes and
`go tool objdump` of the same binary.

Go needs GODEBUG=asyncpreemptoff=1 under valgrind (set here). A run of
dom_tree takes about two minutes per collector.
"""
import argparse, json, os, re, shlex, shutil, subprocess, sys, tempfile

COLLECTORS = ["breadthFirst", "hierarchical", "recursive"]

# The functions in which each traversal spends its time (self cost):
# together they account for nearly all of Heap.runWorkers' inclusive
# count, which --breakdown prints beside their sum.
TRAVERSAL = {
    "breadthFirst": [r"\(\*worker\)\.forwardTo$", r"\(\*scavenger\)\.scanCache$", r"\(\*slots\)\.start$"],
    "hierarchical": [r"\(\*worker\)\.forwardTo$", r"\(\*scavenger\)\.scanCache$", r"\(\*slots\)\.start$",
                     r"\(\*scavenger\)\.shouldAlias$"],
    "recursive": [r"\(\*worker\)\.forwardTo$", r"\(\*evacuator\)\.scan$", r"\(\*slots\)\.start$",
                  r"\(\*evacuator\)\.push$"],
}


def ready(minivm):
    """Reports whether valgrind is there (else says the run is skipped);
    exits when the minivm binary is missing."""
    if shutil.which("valgrind") is None:
        print("skipped: valgrind not found (apt-get install valgrind)")
        return False
    if not os.path.exists(minivm):
        sys.exit("no minivm binary at %s (go build -o minivm ./cmd/minivm)" % minivm)
    return True


def callgrind(cmd, function, extra=()):
    """Runs cmd (a minivm command line) under callgrind with a stats file
    and returns the inclusive instructions of function (a regexp matched
    against callgrind_annotate's names), the stats file's rows and the
    callgrind output file, which is removed with tmp when done()."""
    tmp = tempfile.mkdtemp()
    stats, out = os.path.join(tmp, "stats.jsonl"), os.path.join(tmp, "cg.out")
    full = ["valgrind", "--tool=callgrind", *extra, "--callgrind-out-file=" + out,
            cmd[0], "-Xgc:statsFile=" + stats, *cmd[1:]]
    env = dict(os.environ, GODEBUG="asyncpreemptoff=1")
    p = subprocess.run(full, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    if p.returncode != 0:
        sys.exit("%s: exit %d\n%s" % (" ".join(full), p.returncode, p.stderr[-2000:]))
    ann = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", out],
                         capture_output=True, text=True).stdout
    m = re.search(r"^\s*([\d,]+) .*" + function + r" \[", ann, re.M)
    if not m:
        sys.exit("callgrind_annotate shows no %s" % function)
    rows = [json.loads(l) for l in open(stats)]
    return int(m.group(1).replace(",", "")), rows, out, lambda: shutil.rmtree(tmp)


def cost(minivm, flags, collector, program, breakdown):
    ins, rows, out, done = callgrind(
        [minivm, "-Xgcthreads1", "-Xgc:%sScanOrdering" % collector, *flags, program],
        r"gc\.\(\*Heap\)\.runWorkers", ["--dump-instr=yes"] if breakdown else [])
    nursery = [r for r in rows if r.get("type") == "nursery"]
    objects = sum(r["copied_objects"] for r in nursery)
    kinds = kinds_of(out, minivm, TRAVERSAL[collector]) if breakdown else None
    done()
    return ins, objects, len(nursery), kinds


KINDS = ["operations", "branches", "register moves", "spills and reloads", "calls and frames", "NOPs"]


def kinds_of(out, binary, functions):
    """Self instructions of the given functions by kind (KINDS)."""
    pattern = re.compile("|".join(functions))
    per_addr, names, fn, last, after_call = {}, {}, "", [0, 0], False
    for line in open(out):
        if line.startswith(("fn=", "cfn=")):
            m = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line.rstrip("\n"))
            if m.group(2):
                names[m.group(1)] = m.group(2)
            if line.startswith("fn="):
                fn = names.get(m.group(1), "")
            continue
        if line.startswith("calls="):
            after_call = True  # the next cost line is the call's inclusive cost
            continue
        if not line[:1].isdigit() and line[:1] not in "+-*":
            continue
        toks = line.split()
        pos = []
        for i, t in enumerate(toks[:2]):
            pos.append(last[i] if t == "*" else last[i] + int(t, 0) if t[0] in "+-" else int(t, 0))
        last = pos if len(pos) == 2 else [pos[0], last[1]]
        if after_call:
            after_call = False
            continue
        if pattern.search(fn) and len(toks) > 2:
            per_addr[last[0]] = per_addr.get(last[0], 0) + int(toks[-1])
    dis = subprocess.run(["go", "tool", "objdump", "-s", "|".join(functions), binary],
                         capture_output=True, text=True, check=True).stdout
    kinds = dict.fromkeys(KINDS, 0)
    for line in dis.splitlines():
        m = re.match(r"\s+\S+:\d+\s+0x([0-9a-f]+)\s+\S+\s+(.*)", line)
        if m:
            kinds[kind(m.group(2).strip())] += per_addr.get(int(m.group(1), 16), 0)
    return kinds


def kind(ins):
    op = ins.split()[0]
    if op.startswith("NOP"):
        return "NOPs"
    if op.startswith("MOV") and "(SP)" in ins:
        return "spills and reloads"
    if op in ("CALL", "RET", "PUSHQ", "POPQ") or ins.startswith("MOVQ SP, BP") or \
            re.match(r"(ADD|SUB)Q \$0x[0-9a-f]+, SP$", ins) or "R14" in ins or "X15" in ins:
        return "calls and frames"  # R14 (g) and X15 (zero) are reloaded after calls
    if op.startswith("J"):
        return "branches"
    if re.match(r"(MOV|XOR)\w*\s+[A-Z0-9]+, [A-Z0-9]+$", ins):
        return "register moves"
    return "operations"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minivm", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "minivm"))
    ap.add_argument("--flags", default="", help="extra minivm flags")
    ap.add_argument("--breakdown", action="store_true", help="also sort the traversal's instructions by kind")
    ap.add_argument("programs", nargs="*", default=[os.path.join(os.path.dirname(os.path.abspath(__file__)), "dom_tree.lox")])
    a = ap.parse_args()
    if not ready(a.minivm):
        return
    print("| program | collector | nursery GCs | copied objects | instructions | per copied object |")
    print("|---|---|---|---|---|---|")
    breakdowns = []
    for prog in a.programs:
        for c in COLLECTORS:
            ins, objects, gcs, kinds = cost(a.minivm, shlex.split(a.flags), c, prog, a.breakdown)
            per = ins / objects if objects else 0
            print("| %s | %s | %d | %d | %d | %.1f |" % (os.path.basename(prog), c, gcs, objects, ins, per), flush=True)
            if kinds:
                breakdowns.append((os.path.basename(prog), c, objects, ins, kinds))
    if breakdowns:
        print("\nPer copied object, self instructions of the traversal's functions by kind:\n")
        print("| program | collector | " + " | ".join(KINDS) + " | sum | runWorkers |")
        print("|---|---|" + "---|" * (len(KINDS) + 2))
        for prog, c, objects, ins, kinds in breakdowns:
            row = [kinds[k] / objects for k in KINDS]
            print("| %s | %s | " % (prog, c) + " | ".join("%.1f" % x for x in row) +
                  " | %.1f | %.1f |" % (sum(row), ins / objects))


if __name__ == "__main__":
    main()
