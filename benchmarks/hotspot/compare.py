#!/usr/bin/env python3
"""Compare minivm's nursery collections with HotSpot ParallelGC's young
collections on the same programs (Java translations in this directory),
with 1 and 2 GC threads, and print Markdown tables of medians.

usage: python3 benchmarks/hotspot/compare.py [-n ROUNDS] [--minivm PATH]
           [--minivm-flags FLAGS] [--java PATH] [--javac PATH] [--suite DIR] [--seed N]

Both heaps are fixed and pretouched, with the same nursery size:
  minivm -Xms1g -Xmx1g -Xmn64m -XX:+AlwaysPreTouch -Xgcthreads<N> -Xgc:statsFile=...
  java -XX:+UseParallelGC -Xms1g -Xmx1g -Xmn64m -XX:+AlwaysPreTouch
       -XX:-UseAdaptiveSizePolicy -XX:-UseDynamicNumberOfGCThreads
       -XX:ParallelGCThreads=<N> -Xlog:gc,gc+heap,gc+promotion:file=...
Each round runs every program x VM x thread count once, shuffled. The
figure is young-collection KB copied per ms of young pause, summed over a
run's young collections: minivm's from its stats file (nursery records),
HotSpot's from its GC log, where each "Pause Young" copied the survivor
space's occupancy after it plus the old generation's growth during it
(promotion), as ParallelGC's own size policy counts them. Full
collections, and young ones whose promotion failed, are left out.
"""
import argparse, difflib, json, os, random, re, shlex, shutil, statistics, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
HEAP = ["-Xms1g", "-Xmx1g", "-Xmn64m", "-XX:+AlwaysPreTouch"]

PAUSE = re.compile(r"GC\((\d+)\) Pause (Young|Full) \(.*\) .* (\d+(?:\.\d+)?)ms$")
YOUNG = re.compile(r"GC\((\d+)\) PSYoungGen: .* From: (\d+)K\(\d+K\)->(\d+)K\(\d+K\)")
OLD = re.compile(r"GC\((\d+)\) ParOldGen: (\d+)K\(\d+K\)->(\d+)K\(\d+K\)")
FAILED = re.compile(r"GC\((\d+)\) Promotion failed")


def programs(suite):
    """(name, Lox script, Java class) for each benchmark that is present."""
    found = []
    for name, script, cls in [
        ("binary_trees", os.path.join(suite, "benchmark", "binary_trees.lox"), "BinaryTrees"),
        ("dom_tree", os.path.join(ROOT, "benchmarks", "dom_tree.lox"), "DomTree"),
        ("wide_dom", os.path.join(ROOT, "benchmarks", "wide_dom.lox"), "WideDom"),
    ]:
        if os.path.exists(script):
            found.append((name, script, cls))
        else:
            print(f"skipping {name}: {script} not found", file=sys.stderr)
    return found


def execute(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(map(shlex.quote, cmd))}: exit {p.returncode}\n{p.stderr}")
    return p.stdout.splitlines()[:-1]  # the last line is the elapsed time


def run_minivm(a, threads, script, tmp):
    stats = os.path.join(tmp, "minivm.jsonl")
    out = execute([a.minivm, *HEAP, f"-Xgcthreads{threads}", *shlex.split(a.minivm_flags),
                   "-Xgc:statsFile=" + stats, script])
    rows = [json.loads(l) for l in open(stats)]
    young = [r for r in rows if r.get("type") == "nursery"]
    full = [r for r in rows if not r.get("summary") and r.get("type") != "nursery"]
    return out, summarize(sum(r["copied_bytes"] for r in young) / 1024,
                          sum(r["pause_ms"] for r in young), len(young), len(full))


def run_hotspot(a, threads, cls, classes, tmp):
    log = os.path.join(tmp, "hotspot.log")
    out = execute([a.java, "-XX:+UseParallelGC", *HEAP, "-XX:-UseAdaptiveSizePolicy",
                   "-XX:-UseDynamicNumberOfGCThreads", f"-XX:ParallelGCThreads={threads}",
                   f"-Xlog:gc,gc+heap,gc+promotion:file={log}", *shlex.split(a.java_flags), "-cp", classes, cls])
    return out, parse_hotspot_log(open(log).read().splitlines())


def parse_hotspot_log(lines):
    """Sums ParallelGC's young pauses in a -Xlog:gc,gc+heap,gc+promotion log."""
    kind, pause, survivor, old, failed = {}, {}, {}, {}, set()
    for line in lines:
        if m := PAUSE.search(line):
            kind[m[1]], pause[m[1]] = m[2], float(m[3])
        elif m := YOUNG.search(line):
            survivor[m[1]] = int(m[3])
        elif m := OLD.search(line):
            old[m[1]] = int(m[3]) - int(m[2])
        elif m := FAILED.search(line):
            failed.add(m[1])
    young = [gc for gc, k in kind.items() if k == "Young" and gc not in failed]
    missing = [gc for gc in young if gc not in survivor or gc not in old]
    if missing:
        sys.exit(f"HotSpot log: no PSYoungGen/ParOldGen line for GC({missing[0]}); is this ParallelGC?")
    return summarize(sum(survivor[gc] + old[gc] for gc in young), sum(pause[gc] for gc in young),
                     len(young), len(kind) - len(young))


def summarize(copied_kb, pause_ms, young, full):
    return {"kbms": copied_kb / pause_ms if pause_ms else 0, "mb": copied_kb / 1024,
            "pause": pause_ms / young if young else 0, "young": young, "full": full}


def ratio(v, base):
    return f"{v / base:.2f}x" if base else "—"


def add_vm_arguments(ap, minivm_example):
    """The options both comparison scripts take: rounds and the two VMs."""
    ap.add_argument("-n", type=int, default=5, help="rounds [5]")
    ap.add_argument("--minivm", default=os.path.join(ROOT, "minivm"), help="minivm binary [minivm at the repo root]")
    ap.add_argument("--minivm-flags", default="", help="more minivm options, e.g. " + minivm_example)
    ap.add_argument("--java", default="java")
    ap.add_argument("--javac", default="javac")
    ap.add_argument("--java-flags", default="", help="more java options")


def main():
    ap = argparse.ArgumentParser(description="minivm vs HotSpot ParallelGC young collections; see the docstring.")
    add_vm_arguments(ap, "-Xgc:recursiveScanOrdering")
    ap.add_argument("--suite", default=os.path.join(os.path.dirname(ROOT), "shared", "lox"),
                    help="the Lox suite, for benchmark/binary_trees.lox [../shared/lox]")
    ap.add_argument("--seed", type=int, default=1, help="seed of the per-round shuffle [1]")
    a = ap.parse_args()
    for tool in (a.java, a.javac):
        if shutil.which(tool) is None:
            print(f"skipped: {tool} not found (install a JDK, or pass --java/--javac)")
            return
    if not os.access(a.minivm, os.X_OK):
        sys.exit(f"minivm binary {a.minivm} not found: go build -o minivm ./cmd/minivm, or pass --minivm")

    progs = programs(a.suite)
    with tempfile.TemporaryDirectory(prefix="minivm-hotspot-") as tmp:
        classes = os.path.join(tmp, "classes")
        sources = sorted(os.path.join(HERE, f) for f in os.listdir(HERE) if f.endswith(".java"))
        subprocess.run([a.javac, "-d", classes, *sources], check=True)

        combos = [(p, vm, t) for p in progs for vm in ("minivm", "HotSpot") for t in (1, 2)]
        results = {(p[0], vm, t): [] for p, vm, t in combos}
        expected = {}
        rng = random.Random(a.seed)
        for rnd in range(a.n):
            order = combos[:]
            rng.shuffle(order)
            for (name, script, cls), vm, t in order:
                if vm == "minivm":
                    out, figures = run_minivm(a, t, script, tmp)
                else:
                    out, figures = run_hotspot(a, t, cls, classes, tmp)
                if name not in expected:
                    expected[name] = (vm, out)
                elif out != expected[name][1]:
                    diff = "\n".join(difflib.unified_diff(expected[name][1], out, expected[name][0], vm, lineterm=""))
                    sys.exit(f"{name}: {vm} printed other output than {expected[name][0]}:\n{diff}")
                results[(name, vm, t)].append(figures)
                print(f"round {rnd + 1}/{a.n}: {name} {vm} {t}T {figures['kbms']:.0f} kb/ms", file=sys.stderr)

    med = {k: {c: statistics.median(r[c] for r in rs) for c in rs[0]} for k, rs in results.items()}
    print(f"Young-collection KB copied per ms of young pause, medians of {a.n} round{'s' * (a.n != 1)} "
          f"(minivm {' '.join(HEAP)} {a.minivm_flags}".rstrip() + "; HotSpot ParallelGC, same heap):\n")
    print("| program | minivm 1T | minivm 2T | minivm 2T/1T | HotSpot 1T | HotSpot 2T | HotSpot 2T/1T "
          "| minivm/HotSpot 1T | minivm/HotSpot 2T |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, _, _ in progs:
        m1, m2 = med[(name, "minivm", 1)]["kbms"], med[(name, "minivm", 2)]["kbms"]
        h1, h2 = med[(name, "HotSpot", 1)]["kbms"], med[(name, "HotSpot", 2)]["kbms"]
        print(f"| {name} | {m1:.0f} | {m2:.0f} | {ratio(m2, m1)} | {h1:.0f} | {h2:.0f} | {ratio(h2, h1)} "
              f"| {ratio(m1, h1)} | {ratio(m2, h2)} |")
    print("\n| program | VM | GC threads | young GCs | MB copied | avg young pause ms | kb/ms | left out (full, failed young) |")
    print("|---|---|---|---|---|---|---|---|")
    for name, _, _ in progs:
        for vm in ("minivm", "HotSpot"):
            for t in (1, 2):
                m = med[(name, vm, t)]
                print(f"| {name} | {vm} | {t} | {m['young']:.0f} | {m['mb']:.1f} | {m['pause']:.2f} "
                      f"| {m['kbms']:.0f} | {m['full']:.0f} |")


if __name__ == "__main__":
    main()
