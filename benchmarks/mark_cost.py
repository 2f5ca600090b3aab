#!/usr/bin/env python3
"""Instructions per marked object of each mark order, exactly.

Runs minivm once per mark order (-Xgc:markScanOrdering=) under callgrind
with one GC thread and takes the inclusive instructions of marker.drain,
the marking loop of every global collection (callgrind_annotate
--inclusive), over the objects the stats file says were marked. The
roots' own marking is left out (a few hundred objects). Counts are exact:
one run each is enough, and builds can be compared on a noisy machine.

usage: mark_cost.py [--minivm PATH] [--flags "..."] [PROGRAM.lox ...]
e.g.   mark_cost.py benchmarks/full_gc.lox

Go needs GODEBUG=asyncpreemptoff=1 under valgrind (set here). A run of
full_gc.lox takes several minutes per order.
"""
import argparse, os, shlex

from copy_cost import callgrind, ready

ORDERS = ["depthFirst", "breadthFirst", "prefetch"]
HERE = os.path.dirname(os.path.abspath(__file__))


def cost(minivm, flags, order, program):
    ins, rows, _, done = callgrind([minivm, "-Xgcthreads1", "-Xgc:markScanOrdering=" + order, *flags, program],
                                   r"gc\.\(\*marker\)\.drain")
    done()
    glob = [r for r in rows if r.get("type") == "global"]
    return ins, sum(r["marked_objects"] for r in glob), len(glob)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minivm", default=os.path.join(HERE, "..", "minivm"))
    ap.add_argument("--flags", default="", help="extra minivm flags")
    ap.add_argument("programs", nargs="*", default=[os.path.join(HERE, "full_gc.lox")])
    a = ap.parse_args()
    if not ready(a.minivm):
        return
    print("| program | mark order | global GCs | marked objects | instructions | per marked object |")
    print("|---|---|---|---|---|---|")
    for prog in a.programs:
        for o in ORDERS:
            ins, objects, gcs = cost(a.minivm, shlex.split(a.flags), o, prog)
            per = ins / objects if objects else 0
            print("| %s | %s | %d | %d | %d | %.1f |" % (os.path.basename(prog), o, gcs, objects, ins, per), flush=True)


if __name__ == "__main__":
    main()
