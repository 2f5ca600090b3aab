#!/usr/bin/env python3
"""Run Lox programs under several GC configurations, interleaved, and print
a Markdown table of medians from the stats files (the figures in
BENCHMARKS.md come from this script).

usage: gc_table.py [-n RUNS] [--minivm PATH] PROGRAM.lox... -- NAME=FLAGS...
e.g.   gc_table.py -n 5 benchmarks/dom_tree.lox -- bf="-Xgc:breadthFirstScanOrdering" \\
           evac0="-Xgc:recursiveScanOrdering -XXgc:recursiveMaximumInsideCopyDistance=0"
"""
import argparse, json, os, shlex, statistics, subprocess, sys, tempfile, time


def run(minivm, flags, program):
    with tempfile.NamedTemporaryFile(suffix=".jsonl", delete=False) as f:
        stats = f.name
    start = time.perf_counter()
    p = subprocess.run([minivm, *flags, "-Xgc:statsFile=" + stats, program],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    if p.returncode != 0:
        sys.exit(f"{program} {' '.join(flags)}: exit {p.returncode}\n{p.stderr}")
    rows = [json.loads(l) for l in open(stats)]
    os.unlink(stats)
    nursery = [r for r in rows if r.get("type") == "nursery"]
    copied = sum(r["copied_bytes"] for r in nursery)
    objects = sum(r["copied_objects"] for r in nursery) or 1
    pause = sum(r["pause_ms"] for r in nursery)
    weighted = lambda k: sum(r[k] * r["copied_objects"] for r in nursery) / objects
    hot = [r for r in nursery if "hot_contain_64" in r]
    return {
        "gcs": len([r for r in rows if not r.get("summary")]),
        "pause": pause / len(nursery) if nursery else 0,
        "kbms": copied / 1024 / pause if pause else 0,
        "tenured": 100 * sum(r["tenured_bytes"] for r in nursery) / copied if copied else 0,
        "inside": sum(r["inside_pct"] * r["copied_bytes"] for r in nursery) / copied if copied else 0,
        "small": weighted("small_pct"),
        "c64": weighted("contain_64"),
        "c128": weighted("contain_128"),
        "c256": weighted("contain_256"),
        "seconds": wall,
        "output": p.stdout.splitlines()[:-1],
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=5)
    ap.add_argument("--minivm", default="minivm")
    ap.add_argument("rest", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    sep = a.rest.index("--")
    programs, configs = a.rest[:sep], [c.split("=", 1) for c in a.rest[sep + 1:]]
    cols = ["gcs", "pause", "kbms", "tenured", "inside", "small", "c64", "c128", "c256", "seconds"]
    print("| program | config | gc-count | avg pause ms | kb/ms | %tenured | %inside | %small | %<64b | %<128b | %<256b | total s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for prog in programs:
        results = {name: [] for name, _ in configs}
        for _ in range(a.n):  # interleaved: A B C A B C ...
            for name, flags in configs:
                results[name].append(run(a.minivm, shlex.split(flags), prog))
        outputs = {tuple(r["output"]) for rs in results.values() for r in rs}
        if len(outputs) != 1:
            print(f"WARNING: {prog} printed different output under different configurations", file=sys.stderr)
        for name, _ in configs:
            med = {c: statistics.median(r[c] for r in results[name]) for c in cols}
            print(f"| {os.path.basename(prog)} | {name} | {med['gcs']:.0f} | {med['pause']:.2f} | {med['kbms']:.0f} | "
                  f"{med['tenured']:.1f} | {med['inside']:.1f} | {med['small']:.1f} | {med['c64']:.1f} | "
                  f"{med['c128']:.1f} | {med['c256']:.1f} | {med['seconds']:.2f} |")


if __name__ == "__main__":
    main()
