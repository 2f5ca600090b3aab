package cli

// minivm bench -sim: exact locality counts of the mutator and the
// collector under callgrind's cache simulation (valgrind).
//
// Wall-clock time on a shared machine is noisy and hardware counters are
// often unavailable; a simulated cache is neither. Each script runs once
// per configuration under
//
//	valgrind --tool=callgrind --cache-sim=yes --D1=... --LL=...
//	    --toggle-collect=runtime.sysmon --collect-atstart=yes
//	    --dump-before=<collection start> --dump-before=<collection end>
//	    minivm -Xgcthreads1 FLAGS -- script.lox
//
// and callgrind writes a part of the profile every time a collection
// starts and every time one ends. A start is the entry of
// Heap.collectNursery, Heap.collectGlobal or Heap.retireTLABs, whichever
// callgrind reports first; an end is the entry of gc.writeJSON, the last
// call of every collection, which writes its stats record. The parts from
// a start to the next end are the collector's; every other part from the
// interpreter's start on (compiling, interpreting, allocating, exit) is
// the mutator's. Dumps are triggered on function entry, which callgrind
// sees only when its shadow call stack says the function is not already
// active; Go's stack switches (morestack, systemstack, a stack copied to
// grow it) confuse that stack: when the first collection grows the
// goroutine's stack, the collect function stays "active" and its later
// entries are not seen, while retireTLABs and writeJSON, which return
// before any deep call, are seen every time. The parts must add up to as many collections as the
// native run made, or the run is an error. For the same reason
// callgrind's inclusive costs are not used.
//
// The counts repeat from run to run only if nothing the wall clock drives
// is counted (BENCHMARKS.md, "Mutator locality under callgrind", has the
// measurements):
//   - one GC thread: -Xgcthreads1 comes first (a configuration may
//     override it, and then must fix its own count), and GOMAXPROCS=1;
//   - no Go garbage collector (GOGC=off: its workers run when the wall
//     clock says) and no asynchronous preemption (GODEBUG=asyncpreemptoff=1,
//     which valgrind needs anyway);
//   - Go's system monitor thread (runtime.sysmon) is not counted
//     (--toggle-collect: collection is off in its thread from its entry);
//   - neither is the Go scheduler on the counted threads (simScheduler): the
//     monitor preempts the goroutine every 10 ms of wall-clock time, and
//     the preemption's scheduling, and the Ms it parks and wakes, would
//     be counted at random points;
//   - Go 1.26 places its heap at a random address; the Go-allocated
//     objects move with it, and its page allocator's work moves between the
//     mutator's and the collector's parts. A binary built with
//     GOEXPERIMENT=norandomizedheapbase64 places it at a fixed one, and
//     -sim says so when the binary was not.
// What remains is what the monitor and the scheduler do to the simulated
// caches, which see every thread's accesses, and the prologues the
// preempted functions execute again (a few instructions each).
//
// The collector's own statistics (collections, containment) come from a
// second, native run with the same options and -Xgc:statsFile; they are
// not taken under callgrind because writing them formats pause times,
// whose digits vary from run to run.

import (
	"context"
	"debug/buildinfo"
	"errors"
	"fmt"
	"go/version"
	"io"
	"math/bits"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/klauspost/cpuid/v2"
)

// The functions whose entry starts the counting (the interpreter's entry:
// what comes before, Go's start-up and the heap's reservation, is not
// counted), and starts and ends a collection's part.
var (
	simStart   = "minivm/interp.(*VM).interpret"
	simGCStart = []string{"minivm/runtime/gc.(*Heap).collectNursery", "minivm/runtime/gc.(*Heap).collectGlobal",
		"minivm/runtime/gc.(*Heap).retireTLABs"}
	simGCEnd = "minivm/runtime/gc.writeJSON"
)

// simScheduler are the Go scheduler's functions, not counted: what runs
// when the system monitor preempts the goroutine (morestack, newstack,
// gopreempt_m, schedule, ...), when a goroutine locked to its thread
// hands its P over and gets it back, and when Ms sleep and wake; the
// runtime's locks and clock reads, which the monitor's timing decides how
// often they run; and the random generator's refill, which the
// scheduler's draws move from one part to another.
var simScheduler = map[string]bool{}

func init() {
	for _, fn := range strings.Fields(`
		runtime.morestack.abi0 runtime.newstack runtime.gopreempt_m runtime.goschedImpl
		runtime.schedule runtime.findRunnable runtime.execute gogo runtime.gogo.abi0
		runtime.globrunqget runtime.globrunqgetbatch runtime.runqget runtime.runqput
		runtime.runqgrab runtime.runqsteal runtime.stealWork runtime.(*timers).check
		runtime.pidleget runtime.pidlegetSpinning runtime.pidleput runtime.wakep
		runtime.startm runtime.stopm runtime.mput runtime.mget runtime.handoffp
		runtime.acquirep runtime.acquirepNoTrace runtime.releasep runtime.releasepNoTrace
		runtime.wirep runtime.stoplockedm runtime.startlockedm runtime.resetspinning
		runtime.checkdead runtime.incidlelocked runtime.netpoll
		internal/runtime/syscall/linux.EpollWait
		runtime.(*m).clearAllpSnapshot runtime.(*m).snapshotAllp
		runtime.(*gcControllerState).findRunnableGCWorker
		runtime.(*gcControllerState).releaseNextGCMarkWorker
		runtime.casgstatus runtime.notesleep runtime.notewakeup
		runtime.futexsleep runtime.futexwakeup runtime.futex.abi0
		runtime.lock2 runtime.unlock2 runtime.unlock2Wake runtime.procyieldAsm.abi0
		runtime.osyield.abi0 runtime.usleep.abi0
		runtime.(*listHeadManual).push runtime.(*listHeadManual).pop
		runtime.(*timeHistogram).record runtime.(*mcache).prepareForSweep
		runtime.runqputbatch runtime.morestack_noctxt.abi0 runtime.newstack.abi0
		runtime.systemstack.abi0 gosave_systemstack_switch
		runtime.entersyscall runtime.reentersyscall runtime.exitsyscall
		runtime.exitsyscall.func3 runtime.exitsyscallTryGetP runtime.setBlockOnExitSyscall
		runtime.(*limiterEvent).stop runtime.checkRunqsNoP runtime.checkTimersNoP
		runtime.checkIdleGCNoP
		runtime.nanotime1.abi0 runtime.walltime.abi0
		runtime.rand internal/chacha8rand.block internal/chacha8rand.(*State).Refill`) {
		simScheduler[fn] = true
	}
}

// simSetup is what -sim adds to a bench.
type simSetup struct {
	valgrind string
	d1, ll   string // valgrind --D1= / --LL= values; "" = valgrind's own detection
	caches   map[string]string
}

// simCounts are one run's callgrind events, split at the collections.
type simCounts struct {
	mutator, gc map[string]uint64 // event name -> count
	collections int               // parts ended by a collection's end
}

// The sim mode's metrics: read misses, the walks' cost. Write misses are
// mostly the allocator's and the copy's stores streaming through fresh
// memory, the same in every configuration.
var simMetrics = []benchMetric{
	{unit: "mutator-instructions", better: -1, label: "mutator instructions", get: simGet(false, "Ir"), show: showCount},
	{unit: "mutator-D1-misses", better: -1, label: "mutator D1 read misses", get: simGet(false, "D1mr"), show: showCount},
	{unit: "mutator-LL-misses", better: -1, label: "mutator LL read misses", get: simGet(false, "DLmr"), show: showCount},
	{unit: "gc-instructions", better: -1, label: "gc instructions", get: simGet(true, "Ir"), show: showCount},
	{unit: "gc-D1-misses", better: -1, label: "gc D1 read misses", get: simGet(true, "D1mr"), show: showCount},
	{unit: "gc-LL-misses", better: -1, label: "gc LL read misses", get: simGet(true, "DLmr"), show: showCount},
	{unit: "gcs/op", label: "collections", get: func(r *benchRun) float64 { return float64(r.stats.GCCount) }, show: showCount},
	{unit: "copied-B/op", label: "copied (nursery)", get: func(r *benchRun) float64 { return float64(r.stats.CopiedBytes) }, show: showBytes},
	{unit: "contain64-%", better: +1, prec: 2, label: "contain 64 B", get: func(r *benchRun) float64 { return r.stats.Contain64 }, show: showPct},
	{unit: "hot-contain64-%", better: +1, prec: 2, label: "hot contain 64 B", get: func(r *benchRun) float64 { return r.stats.HotContain64 }, show: showPct},
}

func simGet(gc bool, event string) func(r *benchRun) float64 {
	return func(r *benchRun) float64 {
		if gc {
			return float64(r.sim.gc[event])
		}
		return float64(r.sim.mutator[event])
	}
}

// parseCacheGeometry checks a -D1 / -LL value as valgrind wants it:
// size,associativity,line in bytes, the set count a power of two.
func parseCacheGeometry(flag, v string) (string, error) {
	bad := fmt.Errorf("bad -%s '%s': want SIZE,ASSOC,LINE in bytes (e.g. 32768,8,64) with SIZE/(ASSOC*LINE) a power of two", flag, v)
	parts := strings.Split(v, ",")
	if len(parts) != 3 {
		return "", bad
	}
	var n [3]uint64
	for i, p := range parts {
		x, err := strconv.ParseUint(p, 10, 64)
		if err != nil || x == 0 {
			return "", bad
		}
		n[i] = x
	}
	if n[2] < 16 || n[2]&(n[2]-1) != 0 || n[0]%(n[1]*n[2]) != 0 || bits.OnesCount64(n[0]/(n[1]*n[2])) != 1 {
		return "", bad
	}
	return v, nil
}

// hostCacheGeometry is the default -D1, or with last -LL (the L3, or the
// L2 where there is none): size and line from cpuid,
// associativity from Linux's sysfs (cpuid's summary has none). Where
// either is unknown, or the set count is not a power of two, it returns
// "" and valgrind detects the cache itself; the geometry used is printed
// either way.
func hostCacheGeometry(last bool) string {
	size, level := cpuid.CPU.Cache.L1D, 1
	if last {
		if size, level = cpuid.CPU.Cache.L3, 3; size <= 0 {
			size, level = cpuid.CPU.Cache.L2, 2
		}
	}
	line := cpuid.CPU.CacheLine
	assoc := sysfsAssociativity(level)
	if size <= 0 || line <= 0 || assoc <= 0 {
		return ""
	}
	g := fmt.Sprintf("%d,%d,%d", size, assoc, line)
	if _, err := parseCacheGeometry("", g); err != nil {
		return ""
	}
	return g
}

// sysfsAssociativity returns the associativity of CPU 0's data or unified
// cache of the given level, or 0.
func sysfsAssociativity(level int) int {
	dirs, _ := filepath.Glob("/sys/devices/system/cpu/cpu0/cache/index*")
	for _, d := range dirs {
		read := func(name string) string {
			b, _ := os.ReadFile(filepath.Join(d, name))
			return strings.TrimSpace(string(b))
		}
		if read("level") != strconv.Itoa(level) || read("type") == "Instruction" {
			continue
		}
		ways, err := strconv.Atoi(read("ways_of_associativity"))
		if err == nil {
			return ways
		}
	}
	return 0
}

// simValgrind finds valgrind for -sim.
func simValgrind() (string, error) {
	p, err := exec.LookPath("valgrind")
	if err != nil {
		return "", fmt.Errorf("-sim needs valgrind's callgrind: %v (apt-get install valgrind)", err)
	}
	return p, nil
}

// simArgs is the valgrind command line of one run.
func (b *bench) simArgs(out string, flags []string, script string) []string {
	args := []string{"--tool=callgrind", "--cache-sim=yes", "--dump-line=no",
		"--callgrind-out-file=" + out,
		// A toggle turns collection off at the start; turn it on again.
		"--toggle-collect=runtime.sysmon", "--collect-atstart=yes"}
	// In this order: callgrind 3.19, given the interpreter's entry first,
	// dumped at none of the collections' entries.
	for _, fn := range slices.Concat(simGCStart, []string{simGCEnd, simStart}) {
		args = append(args, "--dump-before="+fn)
	}
	if b.sim.d1 != "" {
		args = append(args, "--D1="+b.sim.d1)
	}
	if b.sim.ll != "" {
		args = append(args, "--LL="+b.sim.ll)
	}
	args = append(args, b.minivm, "-Xgcthreads1")
	args = append(args, flags...)
	return append(args, "--", script)
}

// simRunOnce runs one script under one configuration under callgrind,
// then natively for the collector's statistics.
func (b *bench) simRunOnce(ctx context.Context, s *benchScript, c *benchConfig) (benchRun, error) {
	dir, err := os.MkdirTemp(b.tmp, "cg-")
	if err != nil {
		return benchRun{}, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "cg.out")
	cmd := exec.CommandContext(ctx, b.sim.valgrind, b.simArgs(out, c.flags, s.path)...)
	cmd.Env = append(os.Environ(), "GODEBUG="+strings.Trim(os.Getenv("GODEBUG")+",asyncpreemptoff=1", ","),
		"GOGC=off", "GOMAXPROCS=1")
	if err := b.runChild(cmd); err != nil {
		return benchRun{}, err
	}
	counts, err := b.readSimParts(out)
	if err != nil {
		return benchRun{}, &runFailure{code: ExitSoftware, status: "left bad callgrind output: " + err.Error()}
	}
	native := benchConfig{name: c.name, flags: append([]string{"-Xgcthreads1"}, c.flags...)}
	r, err := b.runOnce(ctx, s, &native)
	if err != nil {
		return benchRun{}, err
	}
	if counts.collections != r.stats.GCCount {
		return benchRun{}, &runFailure{code: ExitSoftware, status: fmt.Sprintf(
			"left callgrind output with %d collections where the native run made %d: callgrind missed a collection's start or end",
			counts.collections, r.stats.GCCount)}
	}
	r.sim = counts
	return r, nil
}

// readSimParts adds up callgrind's parts (cg.out.1, cg.out.2, ... and the
// last, cg.out) into the mutator's and the collector's counts, without the
// Go scheduler's functions: a part ended by a collection's start is the
// mutator's, one ended by a collection's end the collector's, and a part
// ended by a start inside a collection (a global collection a nursery
// collection turned into, or the start functions after the first) the
// collector's.
func (b *bench) readSimParts(out string) (simCounts, error) {
	counts := simCounts{mutator: map[string]uint64{}, gc: map[string]uint64{}}
	started, inGC := false, false
	skip := func(fn string) bool { return simScheduler[fn] }
	for i := 1; ; i++ {
		path := out + "." + strconv.Itoa(i)
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			path = out
		}
		p, err := readCallgrind(path, skip)
		if err != nil {
			return counts, err
		}
		if b.sim.caches == nil {
			b.sim.caches = p.caches
		}
		sum := counts.mutator
		if inGC {
			sum = counts.gc
		}
		for j, e := range p.events {
			if started {
				sum[e] += p.totals[j] - p.skipped[j]
			}
		}
		fn, isDump := strings.CutPrefix(p.trigger, "--dump-before=")
		switch {
		case path == out:
			if !started {
				return counts, fmt.Errorf("callgrind never saw %s start: is %s stripped (-ldflags=-s, or a go test binary)? -sim needs its symbol table", simStart, b.minivm)
			}
			if inGC {
				return counts, fmt.Errorf("the run ended inside a collection: callgrind missed its end (%s)", simGCEnd)
			}
			return counts, nil
		case !isDump:
			return counts, fmt.Errorf("%s: unexpected trigger '%s'", path, p.trigger)
		case fn == simStart:
			started = true
		case fn == simGCEnd:
			if inGC && started {
				counts.collections++
			}
			inGC = false
		default:
			inGC = true
		}
	}
}

// simBuildNote is what -sim says of a minivm binary whose Go heap lies at
// a random address (Go 1.26's default), or "".
func simBuildNote(minivm string) string {
	info, err := buildinfo.ReadFile(minivm)
	if err != nil {
		return ""
	}
	for _, s := range info.Settings {
		if s.Key == "GOEXPERIMENT" && slices.Contains(strings.Split(s.Value, ","), "norandomizedheapbase64") {
			return ""
		}
	}
	if version.Compare(info.GoVersion, "go1.26") < 0 {
		return ""
	}
	return fmt.Sprintf("note: %s places the Go heap at a random address, so the counts vary slightly from run to run; for repeatable counts build it with GOEXPERIMENT=norandomizedheapbase64 go build ./cmd/minivm", minivm)
}

// simCaches are the caches callgrind simulates, as its output names them.
var simCaches = []string{"I1", "D1", "LL"}

// writeSimHeader adds the simulated caches to the benchmark file's
// configuration lines ("sim-ll: 33554432 B, 64 B, 16-way associative").
func (b *bench) writeSimHeader(w io.Writer) {
	for _, c := range simCaches {
		fmt.Fprintf(w, "sim-%s: %s\n", strings.ToLower(c), b.sim.caches[c])
	}
}

// cutBoolFlag removes -name and --name from the flags in args (before any
// "--") and reports whether it was there.
func cutBoolFlag(args []string, name string) ([]string, bool) {
	var out []string
	found := false
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...), found
		}
		if a == "-"+name || a == "--"+name {
			found = true
			continue
		}
		out = append(out, a)
	}
	return out, found
}
