#!/usr/bin/env python3
"""Run Lox programs under several GC configurations, interleaved, and print
a Markdown table of medians from the stats files (the figures in
BENCHMARKS.md come from this script), for one minivm binary or, with
--build options, for several (before/after a change):

    go build -o /tmp/minivm-after ./cmd/minivm
    python3 benchmarks/gc_table.py -n 5 --build before=/work/bin/minivm-before \\
        --build after=/tmp/minivm-after \\
        ../shared/lox/benchmark/binary_trees.lox benchmarks/dom_tree.lox benchmarks/wide_dom.lox -- \\
        bf1="-Xgc:breadthFirstScanOrdering -Xgcthreads1" bf2="-Xgc:breadthFirstScanOrdering -Xgcthreads2" \\
        hier1="-Xgc:hierarchicalScanOrdering -Xgcthreads1" hier2="-Xgc:hierarchicalScanOrdering -Xgcthreads2" \\
        evac1="-Xgc:recursiveScanOrdering -Xgcthreads1" evac2="-Xgc:recursiveScanOrdering -Xgcthreads2"

usage: gc_table.py [-n RUNS] [--minivm PATH | --build NAME=PATH...] [--seed N]
                   [--chains] PROGRAM.lox... -- NAME=FLAGS...
e.g.   gc_table.py -n 5 benchmarks/dom_tree.lox -- bf="-Xgc:breadthFirstScanOrdering" \\
           evac0="-Xgc:recursiveScanOrdering -XXgc:recursiveMaximumInsideCopyDistance=0"

Runs are interleaved round-robin: each of the -n rounds runs every
program x config x build once, in an order shuffled afresh each round
(seeded by --seed, so a session can be repeated), so that drift in the
machine's speed spreads over all rows instead of favouring one. Every
figure is the median over the rounds. With one build the table has the
detailed columns; with several it has, per program x config x build, the
median average nursery pause, the median kb/ms (nursery KB copied per ms of
nursery pause) and each one's ratio to the first build's median. With
--chains (one build) the table has the evacuator's chain columns instead:
stack overflows and chains per nursery collection, chain_copied_pct,
inside_pct, hot_contain_64 (the summary's), kb/ms, and the busiest
worker's share of the bytes copied (the summary's worker_copied_bytes).
"""
import argparse, json, os, random, shlex, statistics, subprocess, sys, tempfile, time


def run(minivm, flags, program):
    with tempfile.NamedTemporaryFile(suffix=".jsonl", delete=False) as f:
        stats = f.name
    start = time.perf_counter()
    p = subprocess.run([minivm, *flags, "-Xgc:statsFile=" + stats, program],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    if p.returncode != 0:
        sys.exit(f"{minivm} {' '.join(flags)} {program}: exit {p.returncode}\n{p.stderr}")
    rows = [json.loads(l) for l in open(stats)]
    os.unlink(stats)
    nursery = [r for r in rows if r.get("type") == "nursery"]
    copied = sum(r["copied_bytes"] for r in nursery)
    objects = sum(r["copied_objects"] for r in nursery) or 1
    pause = sum(r["pause_ms"] for r in nursery)
    # .get: an older build may not write every field.
    weighted = lambda k: sum(r.get(k, 0) * r["copied_objects"] for r in nursery) / objects
    summary = rows[-1] if rows and rows[-1].get("summary") else {}
    workers = summary.get("worker_copied_bytes") or [0]
    return {
        "overflows": sum(r.get("stack_overflows", 0) for r in nursery) / len(nursery) if nursery else 0,
        "chains": sum(r.get("chains", 0) for r in nursery) / len(nursery) if nursery else 0,
        "chained": weighted("chain_copied_pct"),
        "hot": summary.get("hot_contain_64", 0),
        "busiest": 100 * max(workers) / sum(workers) if sum(workers) else 0,
        "gcs": len([r for r in rows if not r.get("summary")]),
        "pause": pause / len(nursery) if nursery else 0,
        "kbms": copied / 1024 / pause if pause else 0,
        "tenured": 100 * sum(r["tenured_bytes"] for r in nursery) / copied if copied else 0,
        "inside": sum(r.get("inside_pct", 0) * r["copied_bytes"] for r in nursery) / copied if copied else 0,
        "small": weighted("small_pct"),
        "c64": weighted("contain_64"),
        "c128": weighted("contain_128"),
        "c256": weighted("contain_256"),
        "seconds": wall,
        "output": p.stdout.splitlines()[:-1],  # the last line is the elapsed time
    }


def ratio(v, base):
    return f"{v / base:.2f}x" if base else "—"


def main():
    ap = argparse.ArgumentParser(description="Compare GC configurations (and builds) of minivm; see the docstring.")
    ap.add_argument("-n", type=int, default=5, help="rounds [5]")
    ap.add_argument("--minivm", default="minivm", help="the binary, when no --build is given [minivm]")
    ap.add_argument("--build", action="append", default=[], metavar="NAME=PATH",
                    help="a binary to compare (repeatable; ratios are to the first)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the per-round shuffle [1]")
    ap.add_argument("--chains", action="store_true", help="the evacuator's chain columns (one build)")
    ap.add_argument("rest", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    if "--" not in a.rest:
        ap.error("expected PROGRAM.lox... -- NAME=FLAGS...")
    sep = a.rest.index("--")
    programs, configs = a.rest[:sep], [c.split("=", 1) for c in a.rest[sep + 1:]]
    if not programs or not configs or any(len(c) != 2 for c in configs):
        ap.error("expected PROGRAM.lox... -- NAME=FLAGS...")
    builds = [b.split("=", 1) for b in a.build] or [["", a.minivm]]
    if a.build and any(len(b) != 2 or not b[0] for b in builds):
        ap.error("--build wants NAME=PATH")
    if len({b[0] for b in builds}) != len(builds):
        ap.error("two --build options have the same NAME")

    combos = [(prog, name, flags, build, path)
              for prog in programs for name, flags in configs for build, path in builds]
    results = {c[:2] + c[3:4]: [] for c in combos}
    rng = random.Random(a.seed)
    progress = sys.stderr.isatty()
    for rnd in range(a.n):
        order = combos[:]
        rng.shuffle(order)
        for i, (prog, name, flags, build, path) in enumerate(order):
            if progress:
                print(f"\rround {rnd + 1}/{a.n}: run {i + 1}/{len(order)}", end="", file=sys.stderr, flush=True)
            results[(prog, name, build)].append(run(path, shlex.split(flags), prog))
    if progress:
        print(file=sys.stderr)

    for prog in programs:
        outputs = {tuple(r["output"]) for k, rs in results.items() if k[0] == prog for r in rs}
        if len(outputs) != 1:
            print(f"WARNING: {prog} printed different output under different configurations or builds",
                  file=sys.stderr)
    med = {k: {c: statistics.median(r[c] for r in rs) for c in rs[0] if c != "output"}
           for k, rs in results.items()}

    if a.chains and len(builds) == 1:
        print("| program | config | gc-count | overflows/gc | chains/gc | %chain-copied | %inside | hot_contain_64 | kb/ms | busiest worker % | total s |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        for prog in programs:
            for name, _ in configs:
                m = med[(prog, name, "")]
                print(f"| {os.path.basename(prog)} | {name} | {m['gcs']:.0f} | {m['overflows']:.1f} | {m['chains']:.1f} | "
                      f"{m['chained']:.1f} | {m['inside']:.1f} | {m['hot']:.1f} | {m['kbms']:.0f} | {m['busiest']:.1f} | "
                      f"{m['seconds']:.2f} |")
        return
    if len(builds) == 1:
        print("| program | config | gc-count | avg pause ms | kb/ms | %tenured | %inside | %small | %<64b | %<128b | %<256b | total s |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|")
        for prog in programs:
            for name, _ in configs:
                m = med[(prog, name, "")]
                print(f"| {os.path.basename(prog)} | {name} | {m['gcs']:.0f} | {m['pause']:.2f} | {m['kbms']:.0f} | "
                      f"{m['tenured']:.1f} | {m['inside']:.1f} | {m['small']:.1f} | {m['c64']:.1f} | "
                      f"{m['c128']:.1f} | {m['c256']:.1f} | {m['seconds']:.2f} |")
        return

    first = builds[0][0]
    print(f"| program | config | build | gc-count | avg pause ms | pause / {first} | kb/ms | kb/ms / {first} | total s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for prog in programs:
        for name, _ in configs:
            base = med[(prog, name, first)]
            for build, _ in builds:
                m = med[(prog, name, build)]
                print(f"| {os.path.basename(prog)} | {name} | {build} | {m['gcs']:.0f} | {m['pause']:.2f} | "
                      f"{ratio(m['pause'], base['pause'])} | {m['kbms']:.0f} | {ratio(m['kbms'], base['kbms'])} | "
                      f"{m['seconds']:.2f} |")


if __name__ == "__main__":
    main()
