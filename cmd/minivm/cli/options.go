package cli

// The option table.
//
// Every command-line option is one row of options below: its spelling, the
// syntax of its value, the range a number must lie in, the default shown by
// -X, a one-line help text and the setter that writes the parsed value into
// the heap configuration (gc.Config) or the run settings. The parser, the
// -help and -X listings and the README's option table all follow this one
// table, so an option added here is parsed, range-checked and documented at
// once.
//
// Spelling follows OpenJ9 and HotSpot: sizes are glued to the option
// (-Xmx512m), numbers follow '=' or are glued (-Xgc:scvTenureAge=4,
// -Xgcthreads2), -Xlog takes HotSpot's unified-logging grammar
// (runtime/gc/xlog).

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"minivm/runtime/gc"
	"minivm/runtime/gc/xlog"
	"minivm/runtime/mem"
)

// kind is the value syntax of an option.
type kind int

const (
	kindFlag kind = iota // the name alone: -Xcheck:gc
	kindSize             // name<size>: Java size syntax, -Xmx512m
	kindInt              // name<n>: a decimal integer in [lo, hi]
	kindText             // name<text>: non-empty text checked by the setter
	kindTail             // name<text>: any text, empty included, checked by the setter
)

// An option is one row of the option table.
type option struct {
	name    string   // a flag matches it exactly, a valued option as a prefix
	aliases []string // other exact spellings (flags only)
	kind    kind
	meta    string // placeholder shown after name in listings ("<size>", "<path>")
	lo, hi  int    // kindInt: accepted range; hi == 0 means no upper bound
	xopt    bool   // listed by -X (the non-standard options); else by -help
	help    string
	// def renders the default shown by -X; nil when there is none worth
	// showing. It reads gc.DefaultConfig so the listing cannot drift from
	// the heap's own defaults.
	def func(d gc.Config) string

	// Exactly one setter matches kind.
	flag func(s *settings)
	size func(s *settings, n uintptr)
	num  func(s *settings, n int)
	text func(s *settings, v string) error
}

// action is what an invocation does once its options are parsed.
type action int

const (
	actRun      action = iota // run a script, or the REPL
	actVersion                // -version
	actHelp                   // -help
	actListX                  // -X
	actXlogHelp               // -Xlog:help
)

// settings collects what the options set.
type settings struct {
	cfg    gc.Config
	action action

	// Whether -Xms / -Xmn were given: when they were not, their defaults
	// shrink with a small -Xmx instead of contradicting it.
	msSet, mnSet bool

	log       *xlog.Config // the -Xlog options, applied in order
	warnings  []string     // printed on stderr before the run
	statsPath string
	tracePath string

	// The most bytes a script (or one REPL line) may have.
	maxScriptSize uintptr

	// Hot-field profiler (runtime/jit_hints).
	hotFieldOrdering     bool
	loadHints, saveHints string
}

// options is the option table. Rows are in the order the listings print
// them.
var options = []option{
	// Standard options (-help).
	{name: "-help", aliases: []string{"-h", "--help", "-?"}, kind: kindFlag,
		help: "print this help and exit",
		flag: func(s *settings) { s.setAction(actHelp) }},
	{name: "-version", kind: kindFlag,
		help: "print the version and exit",
		flag: func(s *settings) { s.setAction(actVersion) }},
	{name: "-X", kind: kindFlag,
		help: "list the -X options with their defaults and exit",
		flag: func(s *settings) { s.setAction(actListX) }},
	{name: "-verbose:gc", kind: kindFlag,
		help: "log each collection on stdout (HotSpot's -Xlog:gc)",
		flag: func(s *settings) { s.log.VerboseGC() }},

	// Heap sizes.
	{name: "-Xmx", kind: kindSize, meta: "<size>", xopt: true,
		help: "maximum heap size: the reservation (1m..32g)",
		def:  func(d gc.Config) string { return formatSize(d.MaxHeap) },
		size: func(s *settings, n uintptr) { s.cfg.MaxHeap = n }},
	{name: "-Xms", kind: kindSize, meta: "<size>", xopt: true,
		help: "initial heap size: committed at start (at most -Xmx)",
		def: func(d gc.Config) string {
			return formatSize(d.InitialHeap) + " or -Xmx if smaller"
		},
		size: func(s *settings, n uintptr) { s.cfg.InitialHeap, s.msSet = n, true }},
	{name: "-Xmn", kind: kindSize, meta: "<size>", xopt: true,
		help: "nursery size, both semispaces (256k..-Xmx/2)",
		def: func(d gc.Config) string {
			return formatSize(d.NurserySize) + " or -Xmx/4 if smaller"
		},
		size: func(s *settings, n uintptr) { s.cfg.NurserySize, s.mnSet = n, true }},

	// Nursery collector.
	{name: "-Xgc:breadthFirstScanOrdering", kind: kindFlag, xopt: true,
		help: "scavenger, Cheney order: copy, then scan copies in order",
		def:  collectorDefault(gc.BreadthFirst),
		flag: func(s *settings) { s.cfg.Collector = gc.BreadthFirst }},
	{name: "-Xgc:hierarchicalScanOrdering", kind: kindFlag, xopt: true,
		help: "scavenger with copy caches and aliasing",
		def:  collectorDefault(gc.Hierarchical),
		flag: func(s *settings) { s.cfg.Collector = gc.Hierarchical }},
	{name: "-Xgc:recursiveScanOrdering", kind: kindFlag, xopt: true,
		help: "evacuator: depth-first copying on a stack of scan frames",
		def:  collectorDefault(gc.Recursive),
		flag: func(s *settings) { s.cfg.Collector = gc.Recursive }},
	{name: "-Xgc:markScanOrdering=", kind: kindText, meta: "<order>", xopt: true,
		help: "global collector's marking order: depthFirst, breadthFirst or prefetch",
		def:  func(d gc.Config) string { return string(d.MarkOrder) },
		text: func(s *settings, v string) error {
			switch o := gc.MarkOrder(v); o {
			case gc.MarkDepthFirst, gc.MarkBreadthFirst, gc.MarkPrefetch:
				s.cfg.MarkOrder = o
				return nil
			}
			return fmt.Errorf("unknown mark order '%s' (depthFirst, breadthFirst or prefetch)", v)
		}},
	{name: "-Xgc:scvTenureAge=", kind: kindInt, meta: "<n>", lo: 1, hi: gc.MaxAge, xopt: true,
		help: "tenure objects that survived n nursery collections; fixes the age (unless -Xgc:scvAdaptiveTenureAge follows, which starts from n)",
		def:  func(d gc.Config) string { return strconv.Itoa(d.TenureAge) + " (initial, adaptive)" },
		num:  func(s *settings, n int) { s.cfg.TenureAge, s.cfg.FixedTenureAge = n, true }},
	{name: "-Xgc:scvAdaptiveTenureAge", kind: kindFlag, xopt: true,
		help: "adaptive tenuring: each nursery collection sets the next one's tenure age from its age table, as HotSpot does",
		def:  func(d gc.Config) string { return onOff(!d.FixedTenureAge) },
		flag: func(s *settings) { s.cfg.FixedTenureAge = false }},
	{name: "-Xgc:scvNoAdaptiveTenureAge", kind: kindFlag, xopt: true,
		help: "keep the tenure age fixed at -Xgc:scvTenureAge",
		flag: func(s *settings) { s.cfg.FixedTenureAge = true }},
	{name: "-XX:TargetSurvivorRatio=", kind: kindInt, meta: "<n>", lo: 1, hi: 100, xopt: true,
		help: "adaptive tenuring keeps survivors below n% of a semispace",
		def:  func(d gc.Config) string { return strconv.Itoa(d.TargetSurvivorRatio) },
		num:  func(s *settings, n int) { s.cfg.TargetSurvivorRatio = n }},
	{name: "-XX:MinHeapFreeRatio=", kind: kindInt, meta: "<n>", lo: 0, hi: 100, xopt: true,
		help: "after a global collection, commit more tenure if less than n% of it is free (at most -XX:MaxHeapFreeRatio)",
		def:  func(d gc.Config) string { return strconv.Itoa(d.MinHeapFreeRatio) },
		num:  func(s *settings, n int) { s.cfg.MinHeapFreeRatio = n }},
	{name: "-XX:MaxHeapFreeRatio=", kind: kindInt, meta: "<n>", lo: 0, hi: 100, xopt: true,
		help: "after a global collection, decommit tenure if more than n% of it is free, down to the initial tenure at least (100: never)",
		def:  func(d gc.Config) string { return strconv.Itoa(d.MaxHeapFreeRatio) },
		num:  func(s *settings, n int) { s.cfg.MaxHeapFreeRatio = n }},
	{name: "-Xgcthreads", kind: kindInt, meta: "<n>", lo: 1, hi: 64, xopt: true,
		help: "number of GC threads",
		def: func(d gc.Config) string {
			return fmt.Sprintf("number of CPUs, at most 64: %d", d.GCThreads)
		},
		num: func(s *settings, n int) { s.cfg.GCThreads, s.cfg.AdaptiveGCThreads = n, false }},
	{name: "-XX:+AdaptiveGCThreading", kind: kindFlag, xopt: true,
		help: "each nursery collection uses one GC thread per MB the previous one copied, up to the GC thread count",
		def:  func(d gc.Config) string { return "on, unless -Xgcthreads is given" },
		flag: func(s *settings) { s.cfg.AdaptiveGCThreads = true }},
	{name: "-XX:-AdaptiveGCThreading", kind: kindFlag, xopt: true,
		help: "every nursery collection uses all GC threads",
		flag: func(s *settings) { s.cfg.AdaptiveGCThreads = false }},
	{name: "-XX:GCThreadWarmupPercent=", kind: kindInt, meta: "<n>", lo: 0, hi: 50, xopt: true,
		help: "when the allocate space is n% from full, wake the GC threads to spin until the nursery collection (0 = off; costs CPU, shortens parallel pauses)",
		def:  func(d gc.Config) string { return strconv.Itoa(d.GCThreadWarmupPercent) },
		num:  func(s *settings, n int) { s.cfg.GCThreadWarmupPercent = n }},

	// Evacuator parameters (EVACUATOR.md §5).
	{name: "-XXgc:recursiveMaximumStackDepth=", kind: kindInt, meta: "<n>", lo: 1, xopt: true,
		help: "evacuator scan frames; 1 = breadth-first",
		def:  func(d gc.Config) string { return strconv.Itoa(d.MaxStackDepth) },
		num:  func(s *settings, n int) { s.cfg.MaxStackDepth = n }},
	{name: "-XXgc:recursiveMaximumInsideCopySize=", kind: kindInt, meta: "<bytes>", lo: 16, xopt: true,
		help: "largest object the evacuator copies inside the stack",
		def:  func(d gc.Config) string { return strconv.Itoa(d.MaxInsideCopySize) },
		num:  func(s *settings, n int) { s.cfg.MaxInsideCopySize = n }},
	{name: "-XXgc:recursiveMaximumInsideCopyDistance=", kind: kindInt, meta: "<bytes>", lo: 0, xopt: true,
		help: "frame width before an inside copy opens a new frame; 0 = depth-first",
		def:  func(d gc.Config) string { return strconv.Itoa(d.InsideCopyDistance) },
		num:  func(s *settings, n int) { s.cfg.InsideCopyDistance = n }},
	{name: "-XXgc:recursiveWorkVolumeQuantum=", kind: kindInt, meta: "<bytes>", lo: 2048, xopt: true,
		help: "smallest workspace released to the worklist",
		def:  func(d gc.Config) string { return strconv.Itoa(d.WorkVolumeQuantum) },
		num:  func(s *settings, n int) { s.cfg.WorkVolumeQuantum = n }},
	{name: "-XXgc:recursiveStackRemainderDrop=", kind: kindInt, meta: "<bytes>", lo: 8, hi: 4096, xopt: true,
		help: "an object that does not fit the evacuator's stack whitespace goes outside unless at most this much is left (then dropped)",
		def:  func(d gc.Config) string { return strconv.Itoa(int(d.StackRemainderDrop)) },
		num:  func(s *settings, n int) { s.cfg.StackRemainderDrop = uintptr(n) }},
	{name: "-XXgc:recursiveWorkVolumeQuanta=", kind: kindInt, meta: "<n>", lo: 0, xopt: true,
		help: "work (in quanta) a worker must hold before it wakes a stalled peer",
		def:  func(d gc.Config) string { return strconv.Itoa(d.WorkVolumeQuanta) },
		num:  func(s *settings, n int) { s.cfg.WorkVolumeQuanta = n }},
	{name: "-XXgc:recursiveChainDetection", kind: kindFlag, xopt: true,
		help: "tell lists from trees by their recursive arcs (same class, the hot field): a tree is pushed depth-first, a list moves its frame's window or, depth-first or past a stack overflow, is copied as a chain in one frame, payload outside; with several GC threads the chain's worker walks its links and leaves the payload to its peers",
		def:  func(gc.Config) string { return "default" },
		flag: func(s *settings) { s.cfg.ChainDetection = true }},
	{name: "-XXgc:noRecursiveChainDetection", kind: kindFlag, xopt: true,
		help: "every inside copy beyond the frame width pushes a frame; a stack overflow flushes copies outside until the stack unwinds (OMR)",
		flag: func(s *settings) { s.cfg.ChainDetection = false }},

	// Copy whitespace: one chunk and remainder policy for every nursery
	// collector (runtime/gc/whitespace.go), with OMR's names and defaults.
	{name: "-Xgc:scanCacheMinimumSize=", kind: kindText, meta: "<size>", xopt: true,
		help: "smallest whitespace chunk a GC worker carves to copy into, and the chunk granularity (1k..4g, a multiple of 8)",
		def:  func(d gc.Config) string { return formatSize(d.ScanCacheMinimumSize) },
		text: sizeIn(gc.MinScanCacheSize, 4<<30, func(s *settings, n uintptr) { s.cfg.ScanCacheMinimumSize = n })},
	{name: "-Xgc:scanCacheMaximumSize=", kind: kindText, meta: "<size>", xopt: true,
		help: "largest whitespace chunk (1k..4g, a multiple of -Xgc:scanCacheMinimumSize)",
		def:  func(d gc.Config) string { return formatSize(d.ScanCacheMaximumSize) },
		text: sizeIn(gc.MinScanCacheSize, 4<<30, func(s *settings, n uintptr) { s.cfg.ScanCacheMaximumSize = n })},
	{name: "-XXgc:whitespaceRefreshThreshold=", kind: kindText, meta: "<size>", xopt: true,
		help: "smallest kept remainder a worker reuses for a new copyspace (8..4g, a multiple of 8, at most -Xgc:scanCacheMinimumSize)",
		def:  func(d gc.Config) string { return strconv.Itoa(int(d.WhitespaceRefreshThreshold)) },
		text: sizeIn(8, 4<<30, func(s *settings, n uintptr) { s.cfg.WhitespaceRefreshThreshold = n })},
	{name: "-XXgc:minimumReusableWhitespace=", kind: kindText, meta: "<size>", xopt: true,
		help: "remainders up to this size become holes, larger ones are kept for reuse (8..4g, below the refresh threshold)",
		def:  func(d gc.Config) string { return strconv.Itoa(int(d.MinReusableWhitespace)) },
		text: sizeIn(8, 4<<30, func(s *settings, n uintptr) { s.cfg.MinReusableWhitespace = n })},

	// Hot-field profiler (runtime/jit_hints). The interpreter
	// always counts field reads (hot_contain_64, -Xjit:saveHints). Feeding
	// the counts to the scan order is off by default: with the default
	// collector it changes nothing measurable, with the evacuator at its
	// default distance it costs collection time, and it pays off only with
	// depth-first copying (BENCHMARKS.md, "Hot-field scan ordering").
	{name: "-Xgc:hotFieldScanOrdering", kind: kindFlag, xopt: true,
		help: "scan each class's most-read fields first (profiled field reads; pays off with depth-first copying)",
		flag: func(s *settings) { s.hotFieldOrdering = true }},
	{name: "-Xgc:noHotFieldScanOrdering", kind: kindFlag, xopt: true,
		help: "scan fields in declaration order (reads are still profiled, for hot_contain_64 and -Xjit:saveHints)",
		def:  func(gc.Config) string { return "default" },
		flag: func(s *settings) { s.hotFieldOrdering = false }},
	{name: "-Xjit:loadHints=", kind: kindText, meta: "<path>", xopt: true,
		help: "seed the field-read profile from a hints file (a bad or stale file is a warning)",
		text: func(s *settings, v string) error { s.loadHints = v; return nil }},
	{name: "-Xjit:saveHints=", kind: kindText, meta: "<path>", xopt: true,
		help: "write the field-read profile (class, declaration line, field reads) to path at exit",
		text: func(s *settings, v string) error {
			if fi, err := os.Stat(filepath.Dir(v)); err != nil || !fi.IsDir() {
				return fmt.Errorf("directory '%s' does not exist", filepath.Dir(v))
			}
			s.saveHints = v
			return nil
		}},

	// Class metadata below 4 GB and pretouch (runtime/mem).
	{name: "-Xgc:suballocatorInitialSize=", kind: kindText, meta: "<size>", xopt: true,
		help: "class-metadata region reserved below 4 GB at start (4k..4g)",
		def:  func(d gc.Config) string { return formatSize(d.SuballocatorInitialSize) },
		text: sizeIn(4<<10, 4<<30, func(s *settings, n uintptr) { s.cfg.SuballocatorInitialSize = n })},
	{name: "-Xgc:suballocatorCommitSize=", kind: kindText, meta: "<size>", xopt: true,
		help: "commit step inside the initial class-metadata region (4k..4g)",
		def:  func(d gc.Config) string { return formatSize(d.SuballocatorCommitSize) },
		text: sizeIn(4<<10, 4<<30, func(s *settings, n uintptr) { s.cfg.SuballocatorCommitSize = n })},
	{name: "-Xgc:suballocatorIncrementSize=", kind: kindText, meta: "<size>", xopt: true,
		help: "size of each further class-metadata region (4k..4g)",
		def:  func(d gc.Config) string { return formatSize(d.SuballocatorIncrementSize) },
		text: sizeIn(4<<10, 4<<30, func(s *settings, n uintptr) { s.cfg.SuballocatorIncrementSize = n })},
	{name: "-Xgc:suballocatorQuickAllocEnable", kind: kindFlag, xopt: true,
		help: "find class-metadata regions by a /proc/self/maps gap search",
		def: func(d gc.Config) string {
			if !d.SuballocatorBruteForce {
				return "default"
			}
			return ""
		},
		flag: func(s *settings) { s.cfg.SuballocatorBruteForce = false }},
	{name: "-Xgc:suballocatorQuickAllocDisable", kind: kindFlag, xopt: true,
		help: "find class-metadata regions by stepping mmap hints (brute force)",
		flag: func(s *settings) { s.cfg.SuballocatorBruteForce = true }},
	{name: "-XX:+AlwaysPreTouch", kind: kindFlag, xopt: true,
		help: "pretouch committed heap (parallel MADV_POPULATE_WRITE unless -Xgc:pretouch= says otherwise)",
		def:  func(d gc.Config) string { return onOff(d.AlwaysPreTouch) },
		flag: func(s *settings) { s.cfg.AlwaysPreTouch = true }},
	{name: "-XX:-AlwaysPreTouch", kind: kindFlag, xopt: true,
		help: "do not pretouch committed heap",
		flag: func(s *settings) { s.cfg.AlwaysPreTouch = false }},
	{name: "-Xgc:pretouch=", kind: kindText, meta: "<mode>", xopt: true,
		help: "pretouch committed tenure: none, store, atomic, populate or background",
		def:  func(d gc.Config) string { return d.Pretouch.String() },
		text: func(s *settings, v string) (err error) {
			s.cfg.Pretouch, err = mem.ParsePretouchMode(v)
			return err
		}},

	// TLABs: HotSpot's adaptive policy (runtime/gc/tlab.go), with
	// OpenJ9's spelling for the sizes and HotSpot's for the rest.
	{name: "-Xgc:tlhInitialSize=", kind: kindText, meta: "<size>", xopt: true,
		help: "initial desired TLAB size (2k..4g)",
		def:  func(gc.Config) string { return "free semispace / (allocating threads x 50)" },
		text: sizeIn(gc.MinTLABSize, 4<<30, func(s *settings, n uintptr) { s.cfg.TLABInitialSize = n })},
	{name: "-Xgc:tlhMaximumSize=", kind: kindText, meta: "<size>", xopt: true,
		help: "largest desired TLAB size (2k..4g, at least -Xgc:tlhInitialSize)",
		def:  func(gc.Config) string { return "semispace / 8" },
		text: sizeIn(gc.MinTLABSize, 4<<30, func(s *settings, n uintptr) { s.cfg.TLABMaximumSize = n })},
	{name: "-XX:+UseTLAB", kind: kindFlag, xopt: true,
		help: "allocate in thread-local allocation buffers",
		def:  func(d gc.Config) string { return onOff(!d.NoTLAB) },
		flag: func(s *settings) { s.cfg.NoTLAB = false }},
	{name: "-XX:-UseTLAB", kind: kindFlag, xopt: true,
		help: "no TLABs: every allocation bumps the shared nursery top by CAS",
		flag: func(s *settings) { s.cfg.NoTLAB = true }},
	{name: "-XX:+ResizeTLAB", kind: kindFlag, xopt: true,
		help: "resize each thread's TLAB at every collection from its share of the allocation",
		def:  func(d gc.Config) string { return onOff(!d.NoResizeTLAB) },
		flag: func(s *settings) { s.cfg.NoResizeTLAB = false }},
	{name: "-XX:-ResizeTLAB", kind: kindFlag, xopt: true,
		help: "keep each thread's initial TLAB size",
		flag: func(s *settings) { s.cfg.NoResizeTLAB = true }},
	{name: "-XX:TLABWasteTargetPercent=", kind: kindInt, meta: "<n>", lo: 1, hi: 100, xopt: true,
		help: "share of the nursery that TLAB tails may waste; sizes TLABs",
		def:  func(d gc.Config) string { return strconv.Itoa(d.TLABWasteTargetPercent) },
		num:  func(s *settings, n int) { s.cfg.TLABWasteTargetPercent = n }},
	{name: "-XX:TLABRefillWasteFraction=", kind: kindInt, meta: "<n>", lo: 1, xopt: true,
		help: "refill a TLAB only when at most 1/n of it is left free; else allocate outside it",
		def:  func(d gc.Config) string { return strconv.Itoa(d.TLABRefillWasteFraction) },
		num:  func(s *settings, n int) { s.cfg.TLABRefillWasteFraction = n }},

	// Threads (interp/threads.go).
	{name: "-XX:MaxLiveThreads=", kind: kindInt, meta: "<n>", lo: 1, hi: 1 << 20, xopt: true,
		help: "threads alive at once, the main script included; spawn() beyond it is an OutOfMemoryError that ends the program",
		def:  func(d gc.Config) string { return strconv.Itoa(d.MaxLiveThreads) },
		num:  func(s *settings, n int) { s.cfg.MaxLiveThreads = n }},

	// Verification and stress.
	{name: "-Xcheck:gc", kind: kindFlag, xopt: true,
		help: "verify the heap before and after every collection",
		def:  func(gc.Config) string { return "off" },
		flag: func(s *settings) { s.cfg.Verify = true }},
	{name: "-Xgc:stress", kind: kindFlag, xopt: true,
		help: "stress: a nursery collection at every allocation (-Xgc:stress=1)",
		def:  func(gc.Config) string { return "off" },
		flag: func(s *settings) { s.cfg.StressInterval = 1 }},
	{name: "-Xgc:stress=", kind: kindInt, meta: "<n>", lo: 1, xopt: true,
		help: "stress: a nursery collection every n allocations, a global one every 64n",
		num:  func(s *settings, n int) { s.cfg.StressInterval = n }},

	// Logs and statistics.
	{name: "-Xlog", kind: kindTail, meta: "[:<spec>]", xopt: true,
		help: "HotSpot unified logging, spec = [what][:[output][:[decorators][:output-options]]]: what = tag[+tag...][*][=level],... or all; output = stdout, stderr, file=<path>; decorators = uptime,level,tags,... or none; each -Xlog configures one output (-Xlog:help lists tags, levels, decorators, options and examples)",
		def:  func(gc.Config) string { return "all=warning on stdout; bare -Xlog: all=info" },
		text: func(s *settings, v string) error {
			if v != "" && v[0] != ':' {
				return errors.New("want -Xlog or -Xlog:<what>[:<output>[:<decorators>[:<output-options>]]]")
			}
			warnings, err := s.log.Parse(strings.TrimPrefix(v, ":"))
			for _, w := range warnings {
				s.warnings = append(s.warnings, fmt.Sprintf("-Xlog%s: %s", v, w))
			}
			return err
		}},
	{name: "-Xlog:disable", kind: kindFlag, xopt: true,
		help: "turn off all logging, the default warning output and earlier -Xlog options included",
		flag: func(s *settings) { s.log.Disable() }},
	{name: "-Xlog:help", kind: kindFlag, xopt: true,
		help: "print the -Xlog grammar, tags, levels, decorators, outputs and examples, and exit",
		flag: func(s *settings) { s.setAction(actXlogHelp) }},
	{name: "-Xgc:statsFile=", kind: kindText, meta: "<path>", xopt: true,
		help: "write per-collection statistics as JSON Lines to path",
		def:  func(gc.Config) string { return "off" },
		text: func(s *settings, v string) error { s.statsPath = v; return nil }},
	{name: "-Xgc:traceFile=", kind: kindText, meta: "<path>", xopt: true,
		help: "write a Chrome Trace Event JSON trace of the collections (GC workers, phases, safepoints) to path at exit, for ui.perfetto.dev",
		def:  func(gc.Config) string { return "off" },
		text: func(s *settings, v string) error { s.tracePath = v; return nil }},

	// Input.
	{name: "-XX:MaxScriptSize=", kind: kindText, meta: "<size>", xopt: true,
		help: "largest script, or REPL line, minivm reads (1..2g, 2g excluded); a larger one is an error (exit 74)",
		def:  func(gc.Config) string { return formatSize(defaultMaxScriptSize) },
		text: sizeIn(1, 2<<30, func(s *settings, n uintptr) { s.maxScriptSize = n })},
}

// defaultMaxScriptSize is -XX:MaxScriptSize's default: far above any
// hand-written script, room for generated ones (a 100 MB file that is
// mostly comment runs), and a bounded read of an endless input such as
// /dev/zero.
const defaultMaxScriptSize = 128 << 20

// setAction records an action option; the first one given wins.
func (s *settings) setAction(a action) {
	if s.action == actRun {
		s.action = a
	}
}

func collectorDefault(c gc.Collector) func(gc.Config) string {
	return func(d gc.Config) string {
		if d.Collector == c {
			return "default"
		}
		return ""
	}
}

// sizeIn returns a text setter for a size option with the accepted range
// [lo, hi): a bad size or one out of range is a usage error.
func sizeIn(lo, hi uintptr, set func(s *settings, n uintptr)) func(s *settings, v string) error {
	return func(s *settings, v string) error {
		n, ok := mem.ParseSize(v)
		if !ok {
			return fmt.Errorf("invalid size '%s'", v)
		}
		if n < lo || n >= hi {
			return fmt.Errorf("size %s out of range [%s, %s)", v, formatSize(lo), formatSize(hi))
		}
		set(s, n)
		return nil
	}
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// usageError is a bad command line: printed as one line, exit code 64.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// lookup finds the table row an argument spells: a flag by exact name (or
// alias), a valued option by the longest name that prefixes the argument.
// val is the text after the name.
func lookup(arg string) (opt *option, val string) {
	for i := range options {
		o := &options[i]
		if o.kind == kindFlag {
			if arg == o.name || containsString(o.aliases, arg) {
				return o, ""
			}
			continue
		}
		if strings.HasPrefix(arg, o.name) && (opt == nil || len(o.name) > len(opt.name)) {
			opt, val = o, arg[len(o.name):]
		}
	}
	return opt, val
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// apply parses one option argument into s.
func (o *option) apply(s *settings, arg, val string) error {
	switch o.kind {
	case kindFlag:
		o.flag(s)
	case kindSize:
		n, ok := mem.ParseSize(val)
		if !ok {
			return usagef("invalid heap size '%s'", arg)
		}
		o.size(s, n)
	case kindInt:
		n, err := strconv.Atoi(val)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return usagef("invalid number '%s' (want an integer in %s)", arg, o.rangeString())
		}
		if err != nil || n < o.lo || (o.hi != 0 && n > o.hi) {
			return usagef("%s out of range %s", arg, o.rangeString())
		}
		o.num(s, n)
	case kindText, kindTail:
		if val == "" && o.kind == kindText {
			return usagef("missing value in '%s' (want %s%s)", arg, o.name, o.meta)
		}
		if err := o.text(s, val); err != nil {
			return usagef("invalid option '%s': %v", arg, err)
		}
	}
	return nil
}

func (o *option) rangeString() string {
	if o.hi == 0 {
		return fmt.Sprintf("[%d, ...]", o.lo)
	}
	return fmt.Sprintf("[%d, %d]", o.lo, o.hi)
}

// formatSize renders a byte count in the largest unit that divides it:
// 1g, 64m, 256k, 1000.
func formatSize(n uintptr) string {
	for _, u := range []struct {
		shift  uint
		suffix string
	}{{40, "t"}, {30, "g"}, {20, "m"}, {10, "k"}} {
		if n != 0 && n%(1<<u.shift) == 0 {
			return strconv.FormatUint(uint64(n>>u.shift), 10) + u.suffix
		}
	}
	return strconv.FormatUint(uint64(n), 10)
}

// invocation is a parsed command line.
type invocation struct {
	settings
	hasScript bool     // false: the REPL
	script    string   // the script's path (may be "", which cannot be opened)
	args      []string // script arguments, for argv()
}

// parse parses the command line: options up to the first argument that
// does not start with '-' (or up to "--"), which is the script; the rest
// are the script's arguments. Every option is checked, and the sizes
// against each other, whatever the action: -version after a bad option
// is a usage error, as in Java.
func parse(args []string) (*invocation, error) {
	inv := &invocation{settings: settings{cfg: gc.DefaultConfig(), log: xlog.NewConfig(), maxScriptSize: defaultMaxScriptSize}}
	i := 0
	for ; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			i++
			break
		}
		if !strings.HasPrefix(arg, "-") {
			break
		}
		opt, val := lookup(arg)
		if opt == nil {
			return nil, usagef("unrecognized option '%s'", arg)
		}
		if err := opt.apply(&inv.settings, arg, val); err != nil {
			return nil, err
		}
	}
	if i < len(args) {
		inv.hasScript, inv.script, inv.args = true, args[i], args[i+1:]
	}
	return inv, inv.finish()
}

// finish derives the defaults that depend on -Xmx and checks the sizes
// against each other.
func (s *settings) finish() error {
	c := &s.cfg
	def := gc.DefaultConfig()
	if !s.msSet {
		c.InitialHeap = min(def.InitialHeap, c.MaxHeap)
	}
	if !s.mnSet {
		c.NurserySize = min(def.NurserySize, c.MaxHeap/4)
	}
	switch {
	case c.MaxHeap > gc.MaxHeapLimit:
		return usagef("maximum heap size %s (-Xmx) exceeds %s, the limit of compressed references",
			formatSize(c.MaxHeap), formatSize(gc.MaxHeapLimit))
	case c.MaxHeap < gc.MinHeap:
		return usagef("maximum heap size %s (-Xmx) is below the minimum %s",
			formatSize(c.MaxHeap), formatSize(gc.MinHeap))
	case c.InitialHeap > c.MaxHeap:
		return usagef("initial heap size %s (-Xms) exceeds the maximum heap size %s (-Xmx)",
			formatSize(c.InitialHeap), formatSize(c.MaxHeap))
	case c.NurserySize < gc.MinNursery:
		return usagef("nursery size %s (-Xmn) is below the minimum %s",
			formatSize(c.NurserySize), formatSize(gc.MinNursery))
	case c.NurserySize > c.MaxHeap/2:
		return usagef("nursery size %s (-Xmn) exceeds half the maximum heap size %s (-Xmx)",
			formatSize(c.NurserySize), formatSize(c.MaxHeap))
	case c.ScanCacheMinimumSize%gc.WordSize != 0:
		return usagef("scan cache minimum size %s (-Xgc:scanCacheMinimumSize) is not a multiple of 8", formatSize(c.ScanCacheMinimumSize))
	case c.ScanCacheMaximumSize < c.ScanCacheMinimumSize || c.ScanCacheMaximumSize%c.ScanCacheMinimumSize != 0:
		return usagef("scan cache maximum size %s (-Xgc:scanCacheMaximumSize) is not a multiple of the minimum %s (-Xgc:scanCacheMinimumSize)",
			formatSize(c.ScanCacheMaximumSize), formatSize(c.ScanCacheMinimumSize))
	case c.WhitespaceRefreshThreshold%gc.WordSize != 0 || c.WhitespaceRefreshThreshold > c.ScanCacheMinimumSize:
		return usagef("whitespace refresh threshold %d (-XXgc:whitespaceRefreshThreshold) must be a multiple of 8 of at most the scan cache minimum size %s (-Xgc:scanCacheMinimumSize)",
			c.WhitespaceRefreshThreshold, formatSize(c.ScanCacheMinimumSize))
	case c.MinReusableWhitespace >= c.WhitespaceRefreshThreshold:
		return usagef("minimum reusable whitespace %d (-XXgc:minimumReusableWhitespace) must be below the refresh threshold %d (-XXgc:whitespaceRefreshThreshold)",
			c.MinReusableWhitespace, c.WhitespaceRefreshThreshold)
	case c.MinHeapFreeRatio > c.MaxHeapFreeRatio:
		return usagef("-XX:MinHeapFreeRatio=%d exceeds -XX:MaxHeapFreeRatio=%d", c.MinHeapFreeRatio, c.MaxHeapFreeRatio)
	case c.TLABInitialSize != 0 && c.TLABMaximumSize != 0 && c.TLABInitialSize > c.TLABMaximumSize:
		return usagef("initial TLAB size %s (-Xgc:tlhInitialSize) exceeds the maximum TLAB size %s (-Xgc:tlhMaximumSize)",
			formatSize(c.TLABInitialSize), formatSize(c.TLABMaximumSize))
	}
	return nil
}

// spelling is how a row is written in listings: -Xmx<size>.
func (o *option) spelling() string {
	return o.name + o.meta
}

// writeOptions prints the rows of one listing: the standard options for
// -help, the -X options (with their defaults) for -X.
func writeOptions(w io.Writer, xopts bool) {
	def := gc.DefaultConfig()
	width := 0
	for i := range options {
		if o := &options[i]; o.xopt == xopts {
			width = max(width, len(o.listName()))
		}
	}
	for i := range options {
		o := &options[i]
		if o.xopt != xopts {
			continue
		}
		line := fmt.Sprintf("  %-*s  %s", width, o.listName(), o.help)
		if o.def != nil {
			if d := o.def(def); d != "" {
				line += " [" + d + "]"
			}
		}
		fmt.Fprintln(w, line)
	}
}

func (o *option) listName() string {
	if len(o.aliases) == 0 {
		return o.spelling()
	}
	return o.spelling() + ", " + strings.Join(o.aliases, ", ")
}
