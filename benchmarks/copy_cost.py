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

usage: copy_cost.py [--minivm PATH] [--flags "..."] [PROGRAM.lox ...]
e.g.   copy_cost.py benchmarks/dom_tree.lox
       copy_cost.py --minivm /tmp/minivm-old --flags "-Xmn8m" benchmarks/wide_dom.lox

Go needs GODEBUG=asyncpreemptoff=1 under valgrind (set here). A run of
dom_tree takes about two minutes per collector.
"""
import argparse, json, os, re, shlex, shutil, subprocess, sys, tempfile

COLLECTORS = ["breadthFirst", "hierarchical", "recursive"]


def cost(minivm, flags, collector, program):
    with tempfile.TemporaryDirectory() as tmp:
        stats, out = os.path.join(tmp, "stats.jsonl"), os.path.join(tmp, "cg.out")
        cmd = ["valgrind", "--tool=callgrind",
               "--callgrind-out-file=" + out, minivm, "-Xgcthreads1",
               "-Xgc:%sScanOrdering" % collector, "-Xgc:statsFile=" + stats, *flags, program]
        env = dict(os.environ, GODEBUG="asyncpreemptoff=1")
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
        if p.returncode != 0:
            sys.exit("%s: exit %d\n%s" % (" ".join(cmd), p.returncode, p.stderr[-2000:]))
        ann = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", out],
                             capture_output=True, text=True).stdout
        m = re.search(r"^\s*([\d,]+) .*gc\.\(\*Heap\)\.runWorkers \[", ann, re.M)
        if not m:
            sys.exit("callgrind_annotate shows no Heap.runWorkers (no nursery collection?)")
        rows = [json.loads(l) for l in open(stats)]
        nursery = [r for r in rows if r.get("type") == "nursery"]
        objects = sum(r["copied_objects"] for r in nursery)
        return int(m.group(1).replace(",", "")), objects, len(nursery)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minivm", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "minivm"))
    ap.add_argument("--flags", default="", help="extra minivm flags")
    ap.add_argument("programs", nargs="*", default=[os.path.join(os.path.dirname(os.path.abspath(__file__)), "dom_tree.lox")])
    a = ap.parse_args()
    if shutil.which("valgrind") is None:
        print("skipped: valgrind not found (apt-get install valgrind)")
        return
    if not os.path.exists(a.minivm):
        sys.exit("no minivm binary at %s (go build -o minivm ./cmd/minivm)" % a.minivm)
    print("| program | collector | nursery GCs | copied objects | instructions | per copied object |")
    print("|---|---|---|---|---|---|")
    for prog in a.programs:
        for c in COLLECTORS:
            ins, objects, gcs = cost(a.minivm, shlex.split(a.flags), c, prog)
            per = ins / objects if objects else 0
            print("| %s | %s | %d | %d | %d | %.1f |" % (os.path.basename(prog), c, gcs, objects, ins, per), flush=True)


if __name__ == "__main__":
    main()
