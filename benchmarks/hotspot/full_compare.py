#!/usr/bin/env python3
"""Compare minivm's global collections with HotSpot ParallelGC's full
collections on benchmarks/full_gc.lox and its translation FullGC.java, with
1 and 2 GC threads, and print Markdown tables of medians.

usage: python3 benchmarks/hotspot/full_compare.py [-n ROUNDS] [--minivm PATH]
           [--minivm-flags FLAGS] [--java PATH] [--javac PATH] [--java-flags FLAGS] [--seed N]

Both heaps are fixed and pretouched, with the same nursery size:
  minivm -Xms2g -Xmx2g -Xmn64m -XX:+AlwaysPreTouch -Xgcthreads<N> -Xgc:statsFile=...
  java -XX:+UseParallelGC -Xms2g -Xmx2g -Xmn64m -XX:+AlwaysPreTouch
       -XX:-UseAdaptiveSizePolicy -XX:-UseDynamicNumberOfGCThreads
       -XX:ParallelGCThreads=<N> -Xlog:gc,gc+heap:file=...
Each round runs every VM x thread count once, shuffled. The program calls
gc() five times on an unchanging live graph. A gc() is minivm's "global"
stats record with cause "System.gc()", and HotSpot's "Pause Full
(System.gc())" plus the "Pause Young (System.gc())" ParallelGC runs just
before it. The first gc() of a run also collects the build's garbage and
is shown apart; the main figure is the median of the later ones, also per
live object: minivm's marked_objects, HotSpot's counted from the program's
census line (each record, array, and String with its byte[]).
"""
import argparse, difflib, json, os, random, re, shlex, shutil, statistics, subprocess, sys, tempfile

from compare import add_vm_arguments, execute, ratio

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(ROOT, "benchmarks", "full_gc.lox")
HEAP = ["-Xms2g", "-Xmx2g", "-Xmn64m", "-XX:+AlwaysPreTouch"]

PAUSE = re.compile(r"GC\((\d+)\) Pause (Young|Full) \(System\.gc\(\)\) .* (\d+(?:\.\d+)?)ms$")
OLD = re.compile(r"GC\((\d+)\) ParOldGen: \d+K\(\d+K\)->(\d+)K\(\d+K\)")
CENSUS = re.compile(r"^census: (\d+) records in (\d+) chunks, each record with 2 strings and 2 arrays$")


def java_objects(out):
    """The Java program's live objects, from its census line: the records;
    the graph array, one array per chunk and two per record; two Strings
    per record, each with its byte[]."""
    for line in out:
        if m := CENSUS.match(line):
            records, chunks = int(m[1]), int(m[2])
            return records + (1 + chunks + 2 * records) + 2 * 2 * records
    sys.exit("FullGC printed no census line")


def run_minivm(a, threads, tmp):
    stats = os.path.join(tmp, "minivm.jsonl")
    out = execute([a.minivm, *HEAP, f"-Xgcthreads{threads}", *shlex.split(a.minivm_flags),
                   "-Xgc:statsFile=" + stats, SCRIPT])
    rows = [json.loads(l) for l in open(stats)]
    gcs = [r for r in rows if r.get("type") == "global" and r.get("cause") == "System.gc()"]
    if len(gcs) < 2:
        sys.exit(f"minivm stats: {len(gcs)} System.gc() global collections, expected at least 2")
    later = gcs[1:]
    return out, summarize([r["pause_ms"] for r in gcs], gcs[-1]["marked_objects"], gcs[-1]["marked_bytes"] / 2**20,
                          statistics.median(r["mark_ms"] for r in later),
                          statistics.median(r["compact_ms"] for r in later))


def run_hotspot(a, threads, classes, tmp):
    log = os.path.join(tmp, "hotspot.log")
    out = execute([a.java, "-XX:+UseParallelGC", *HEAP, "-XX:-UseAdaptiveSizePolicy",
                   "-XX:-UseDynamicNumberOfGCThreads", f"-XX:ParallelGCThreads={threads}",
                   f"-Xlog:gc,gc+heap:file={log}", *shlex.split(a.java_flags), "-cp", classes, "FullGC"])
    pauses, live_kb = parse_hotspot_log(open(log).read().splitlines())
    return out, summarize(pauses, java_objects(out), live_kb / 1024, None, None)


def parse_hotspot_log(lines):
    """The System.gc() pauses (each full pause plus the young one just
    before it) and the old generation's occupancy after the last, in KB."""
    kind, pause, old = {}, {}, {}
    for line in lines:
        if m := PAUSE.search(line):
            kind[int(m[1])], pause[int(m[1])] = m[2], float(m[3])
        elif m := OLD.search(line):
            old[int(m[1])] = int(m[2])
    full = sorted(gc for gc, k in kind.items() if k == "Full")
    if len(full) < 2:
        sys.exit(f"HotSpot log: {len(full)} Pause Full (System.gc()) lines, expected at least 2; is this ParallelGC?")
    if full[-1] not in old:
        sys.exit(f"HotSpot log: no ParOldGen line for GC({full[-1]})")
    return [pause[gc] + (pause[gc - 1] if kind.get(gc - 1) == "Young" else 0) for gc in full], old[full[-1]]


def summarize(pauses, objects, live_mb, mark_ms, compact_ms):
    steady = statistics.median(pauses[1:])
    return {"first": pauses[0], "ms": steady, "ns": steady * 1e6 / objects, "objects": objects,
            "mb": live_mb, "mark": mark_ms, "compact": compact_ms}


def main():
    ap = argparse.ArgumentParser(description="minivm vs HotSpot ParallelGC full collections; see the docstring.")
    add_vm_arguments(ap, "-Xgc:markScanOrdering=breadthFirst")
    ap.add_argument("--seed", type=int, default=1, help="seed of the per-round shuffle [1]")
    a = ap.parse_args()
    for tool in (a.java, a.javac):
        if shutil.which(tool) is None:
            print(f"skipped: {tool} not found (install a JDK, or pass --java/--javac)")
            return
    if not os.access(a.minivm, os.X_OK):
        sys.exit(f"minivm binary {a.minivm} not found: go build -o minivm ./cmd/minivm, or pass --minivm")

    with tempfile.TemporaryDirectory(prefix="minivm-hotspot-") as tmp:
        classes = os.path.join(tmp, "classes")
        subprocess.run([a.javac, "-d", classes, os.path.join(HERE, "FullGC.java"), os.path.join(HERE, "Lox.java")],
                       check=True)
        combos = [(vm, t) for vm in ("minivm", "HotSpot") for t in (1, 2)]
        results = {c: [] for c in combos}
        expected = None
        rng = random.Random(a.seed)
        for rnd in range(a.n):
            order = combos[:]
            rng.shuffle(order)
            for vm, t in order:
                out, figures = run_minivm(a, t, tmp) if vm == "minivm" else run_hotspot(a, t, classes, tmp)
                if expected is None:
                    expected = (vm, out)
                elif out != expected[1]:
                    diff = "\n".join(difflib.unified_diff(expected[1], out, expected[0], vm, lineterm=""))
                    sys.exit(f"full_gc: {vm} printed other output than {expected[0]}:\n{diff}")
                results[(vm, t)].append(figures)
                print(f"round {rnd + 1}/{a.n}: full_gc {vm} {t}T {figures['ms']:.1f} ms "
                      f"{figures['ns']:.1f} ns/object", file=sys.stderr)

    med = {k: {c: (statistics.median(r[c] for r in rs) if rs[0][c] is not None else None) for c in rs[0]}
           for k, rs in results.items()}
    print(f"full_gc: gc() pause, medians of {a.n} round{'s' * (a.n != 1)} (minivm {' '.join(HEAP)} "
          f"{a.minivm_flags}".rstrip() + "; HotSpot ParallelGC, same heap); a run's figure is the median "
          "of its gc()s after the first:\n")
    print("| VM | GC threads | live objects | live MB | first gc() ms | gc() ms | ns/object | mark ms | compact ms |")
    print("|---|---|---|---|---|---|---|---|---|")
    for vm, t in combos:
        m = med[(vm, t)]
        mc = f"{m['mark']:.1f} | {m['compact']:.1f}" if m["mark"] is not None else "— | —"
        print(f"| {vm} | {t} | {m['objects']:.0f} | {m['mb']:.1f} | {m['first']:.1f} | {m['ms']:.1f} "
              f"| {m['ns']:.1f} | {mc} |")
    m1, m2 = med[("minivm", 1)]["ns"], med[("minivm", 2)]["ns"]
    h1, h2 = med[("HotSpot", 1)]["ns"], med[("HotSpot", 2)]["ns"]
    print("\n| minivm 1T/2T | HotSpot 1T/2T | minivm/HotSpot ns/object 1T | minivm/HotSpot ns/object 2T |")
    print("|---|---|---|---|")
    print(f"| {ratio(m1, m2)} | {ratio(h1, h2)} | {ratio(m1, h1)} | {ratio(m2, h2)} |")


if __name__ == "__main__":
    main()
