#!/usr/bin/env python3
"""Runs the Lox benchmarks on minivm and on other interpreters.

The programs are clox's benchmarks (../shared/lox/benchmark beside the
checkout, or --lox) and their translations under benchmarks/peers/ (lua/
for Lua 5.4 and LuaJIT, python/ for CPython), which keep each program's
structure, loops, counts and output. Every round runs each benchmark once
on each interpreter, interleaved, so that a change in the machine's load
spreads over all of them. The times are the wall seconds of the whole
process (with --cpu, its user plus system CPU seconds, which other load
on the machine disturbs less); the table shows their medians, minivm's
ratio to the fastest of the others, and the geometric mean of that ratio.

Interpreters: minivm (--minivm, default ./minivm), clox when the CLOX
environment variable names a binary (benchmarks/peers/build_clox.sh
builds one from a craftinginterpreters checkout), python3, lua5.4 and
luajit -joff;
one that is not installed is left out. More --minivm binaries add columns
(minivm#2, ...) to compare builds, and --builds leaves out all but the
minivm builds; the ratio column is always that of the first, to the
fastest of the other interpreters (with --builds, of the other builds).
The output of each run, less the lines that print elapsed time, must
match minivm's, else the script stops with exit status 1. An interpreter
other than minivm that fails on a benchmark (clox's limit of 256
constants per chunk on string_equality) is left out of it, shown as —.

    flock /tmp/bench.lock python3 benchmarks/peers.py -n 5
    python3 benchmarks/peers.py -n 1 -b fib,zoo
    python3 benchmarks/peers.py --builds --minivm a --minivm b -b fib
"""

import argparse
import math
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PEERS = os.path.join(ROOT, "benchmarks", "peers")

# The indexes of each benchmark's output lines that print elapsed time
# (negative: from the end); the other lines must agree.
TIMING = {
    "binary_trees": [-1],
    "equality": [1, 3, 5],
    "fib": [1],
    "instantiation": [0],
    "invocation": [0],
    "method_call": [2],
    "properties": [0],
    "string_equality": [1, 3, 5],
    "trees": [-1],
    "zoo": [1],
}


def interpreters(minivms, lox, builds):
    """Returns (name, command for a benchmark) for each available one."""
    found = [("minivm" if i == 0 else "minivm#%d" % (i + 1),
              lambda b, m=m: [m, os.path.join(lox, b + ".lox")])
             for i, m in enumerate(minivms)]
    if builds:
        return found
    clox = os.environ.get("CLOX")
    if clox:
        found.append(("clox", lambda b: [clox, os.path.join(lox, b + ".lox")]))
    for name, exe, args, sub, ext in [
        ("CPython", "python3", [], "python", ".py"),
        ("Lua 5.4", "lua5.4", [], "lua", ".lua"),
        ("LuaJIT -joff", "luajit", ["-joff"], "lua", ".lua"),
    ]:
        path = shutil.which(exe)
        if path is None:
            print("note: %s not found, left out" % exe, file=sys.stderr)
            continue
        found.append((name, lambda b, p=path, a=args, s=sub, e=ext:
                      [p] + a + [os.path.join(PEERS, s, b + e)]))
    return found


def checked_lines(bench, out):
    lines = out.splitlines()
    skip = {i % len(lines) for i in TIMING[bench]} if lines else set()
    return [l for i, l in enumerate(lines) if i not in skip]


def cpu_seconds():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(cmd, cpu):
    """Runs cmd; returns its wall (or CPU) seconds and its output, or
    None and a one-line reason when it fails."""
    t, c = time.perf_counter(), cpu_seconds()
    p = subprocess.run(cmd, capture_output=True, text=True)
    t, c = time.perf_counter() - t, cpu_seconds() - c
    if p.returncode != 0:
        first = (p.stderr.strip().splitlines() or [""])[0]
        return None, "%s: exit status %d: %s" % (" ".join(cmd), p.returncode, first)
    return c if cpu else t, p.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=5, help="rounds (default 5)")
    ap.add_argument("-b", default="", help="comma-separated benchmarks (default all)")
    ap.add_argument("--cpu", action="store_true", help="time user+system CPU seconds, not wall seconds")
    ap.add_argument("--minivm", action="append", help="minivm binary (default ./minivm; repeat to compare builds)")
    ap.add_argument("--builds", action="store_true", help="run only the minivm builds")
    ap.add_argument("--lox", default=os.path.join(os.path.dirname(ROOT), "shared", "lox", "benchmark"),
                    help="directory of the Lox benchmarks")
    args = ap.parse_args()
    benches = [b for b in args.b.split(",") if b] or sorted(TIMING)
    for b in benches:
        if b not in TIMING:
            sys.exit("unknown benchmark %r (known: %s)" % (b, ", ".join(sorted(TIMING))))
    if args.n < 1:
        sys.exit("-n must be at least 1")
    interps = interpreters(args.minivm or [os.path.join(ROOT, "minivm")], args.lox, args.builds)
    times = {(b, name): [] for b in benches for name, _ in interps}
    failed = set()  # (benchmark, interpreter) pairs that cannot run it
    for r in range(args.n):
        for b in benches:
            want = None
            for name, cmd in interps:
                if (b, name) in failed:
                    continue
                t, out = run(cmd(b), args.cpu)
                if t is None:
                    if name.startswith("minivm"):
                        sys.exit(out)
                    # Another interpreter's limit (clox's 256 constants
                    # per chunk on string_equality): shown as "—".
                    print("note: %s, left out of %s" % (out, b), file=sys.stderr)
                    failed.add((b, name))
                    times[b, name] = []
                    continue
                got = checked_lines(b, out)
                if want is None:
                    want = got
                elif got != want:
                    sys.exit("%s: %s's output differs from minivm's:\n%s\nminivm:\n%s" %
                             (b, name, "\n".join(got), "\n".join(want)))
                times[b, name].append(t)
        print("round %d/%d done" % (r + 1, args.n), file=sys.stderr)

    names = [name for name, _ in interps]
    print("medians of %d interleaved runs, %s seconds" % (args.n, "CPU" if args.cpu else "wall"))
    print()
    print("| benchmark | " + " | ".join(names) + " | minivm / best other |")
    print("|---" * (len(names) + 2) + "|")
    ratios = []
    for b in benches:
        med = {name: statistics.median(times[b, name]) for name in names if times[b, name]}
        # The best other interpreter; with --builds, the best other build.
        others = [name for name in med
                  if name != "minivm" and (args.builds or not name.startswith("minivm#"))]
        cells = ["%.3f" % med[name] if name in med else "—" for name in names]
        ratio = ""
        if others:
            best = min(others, key=lambda n: med[n])
            ratios.append(med["minivm"] / med[best])
            ratio = "%.2fx (%s)" % (ratios[-1], best)
        print("| %s | %s | %s |" % (b, " | ".join(cells), ratio))
    if ratios:
        g = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
        print()
        print("geomean of minivm / best other: %.2fx" % g)


if __name__ == "__main__":
    main()
