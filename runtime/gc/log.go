package gc

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/klauspost/cpuid/v2"

	"minivm/runtime/gc/xlog"
)

// Logging in the formats GC engineers already read: HotSpot unified
// logging lines (GCViewer parses the [gc] line) and JSON Lines stats.

// CacheLineSize is the CPU's cache-line size (64 when cpuid cannot tell).
var CacheLineSize = func() int {
	if n := cpuid.CPU.CacheLine; n > 0 {
		return n
	}
	return 64
}()

// logging reports whether a line at level with the tag set tags (a
// label registered in package xlog, "gc,heap") would be written; it is a
// nil check when logging is off.
func (h *Heap) logging(level xlog.Level, tags string) bool {
	return h.cfg.Log.Enabled(level, tags)
}

// logAt writes one log line at level.
func (h *Heap) logAt(level xlog.Level, tags, format string, args ...any) {
	if h.logging(level, tags) {
		h.cfg.Log.Log(level, tags, fmt.Sprintf(format, args...))
	}
}

// logf writes one log line at info, the level of every line GCViewer reads.
func (h *Heap) logf(tags, format string, args ...any) {
	h.logAt(xlog.Info, tags, format, args...)
}

// LogInit writes the start-up lines: HotSpot's [gc] "Using" line and the
// [gc,init] configuration; the VM calls it once.
func (h *Heap) LogInit() {
	h.logf("gc", "Using %s", h.cfg.Collector)
	if !h.logging(xlog.Info, "gc,init") {
		return
	}
	semi := h.nurseryMid - h.nurseryLo
	h.logf("gc,init", "Version: minivm 0.1.0")
	h.logf("gc,init", "Collector: %s", h.cfg.Collector)
	h.logf("gc,init", "Heap Initial Capacity: %s", sizeM(uint64(h.cfg.InitialHeap)))
	h.logf("gc,init", "Heap Max Capacity: %s", sizeM(uint64(h.cfg.MaxHeap)))
	h.logf("gc,init", "Nursery: %s (two %s semispaces), tenure age %d", sizeM(uint64(2*semi)), sizeM(uint64(semi)), h.cfg.TenureAge)
	h.logf("gc,init", "Large Object Threshold: %dK", h.cfg.LargeObjectSize>>10)
	if h.cfg.AdaptiveGCThreads {
		h.logf("gc,init", "GC Workers: %d (adaptive: one per MB the previous nursery collection copied)", h.cfg.GCThreads)
	} else {
		h.logf("gc,init", "GC Workers: %d", h.cfg.GCThreads)
	}
	if h.cfg.GCThreadWarmupPercent > 0 {
		h.logf("gc,init", "GC Thread Warm-up: when the allocate space is %d%% from full", h.cfg.GCThreadWarmupPercent)
	}
	h.logf("gc,init", "Copy Whitespace: chunks %s..%s (scanCacheMinimumSize..scanCacheMaximumSize), refresh threshold %dB, reusable above %dB, overflow refresh after %dB",
		sizeM(uint64(h.cfg.ScanCacheMinimumSize)), sizeM(uint64(h.cfg.ScanCacheMaximumSize)), h.cfg.WhitespaceRefreshThreshold, h.cfg.MinReusableWhitespace, overflowRefresh)
	if h.cfg.Collector == Recursive {
		chains := "off"
		if h.cfg.ChainDetection {
			chains = "on"
		}
		h.logf("gc,init", "Evacuator: stack depth %d, inside copies up to %dB, frame width %dB, work quantum %dB, stack remainders up to %dB dropped, chain detection %s",
			h.cfg.MaxStackDepth, h.cfg.MaxInsideCopySize, h.cfg.InsideCopyDistance, h.cfg.WorkVolumeQuantum, h.cfg.StackRemainderDrop, chains)
	}
	h.logf("gc,init", "Cache Line Size: %dB", CacheLineSize)
}

// sizeM formats bytes as HotSpot does in heap transitions: whole K below
// 10 MB, whole M above.
func sizeM(b uint64) string {
	if b < 10<<20 {
		return fmt.Sprintf("%dK", b>>10)
	}
	return fmt.Sprintf("%dM", b>>20)
}

func (h *Heap) beginCollection(typ string, cause Cause) *CollectionStats {
	h.stats.gcCount++
	h.epoch.Add(1)
	h.endWarmup()
	collector := string(h.cfg.Collector)
	if typ == "global" {
		h.stats.globalCount++
	} else {
		h.stats.nurseryCount++
	}
	var before spaceUsage
	if h.logging(xlog.Info, "gc,heap") {
		before = h.spaceUsage()
	}
	if h.trace != nil {
		h.traceOccupancy(h.clock())
	}
	return &CollectionStats{
		before:     before,
		GC:         h.stats.gcCount - 1,
		Type:       typ,
		Collector:  collector,
		Cause:      string(cause),
		StartMs:    float64(time.Since(h.start).Microseconds()) / 1000,
		Threads:    h.cfg.GCThreads,
		HeapBefore: uint64(h.used()),
		CacheLine:  CacheLineSize,

		WorkerCopiedBytes: []uint64{},
	}
}

// endCollection fills in the results, accumulates the run's totals and
// writes the log line and the stats object.
func (h *Heap) endCollection(st *CollectionStats, pause time.Duration, ws *workerStats) {
	st.PauseMs = float64(pause.Nanoseconds()) / 1e6
	st.HeapAfter = uint64(h.used())
	st.HeapCommitted = uint64(h.committed())
	st.CopiedBytes = ws.copiedBytes()
	st.CopiedObjects = ws.copiedObjects()
	st.SurvivorBytes = ws.regionBytes(survivorRegion)
	st.TenuredBytes = ws.regionBytes(tenureRegion)
	st.ScannedBytes = ws.scannedBytes
	if st.PauseMs > 0 {
		st.KBPerMs = float64(st.CopiedBytes) / 1024 / st.PauseMs
	}
	st.InsidePct = pct(ws.insideBytes, st.CopiedBytes)
	st.SmallPct = pct(ws.smallObjects, st.CopiedObjects)
	st.Contain64 = ws.containedPct(64)
	st.Contain128 = ws.containedPct(128)
	st.Contain256 = ws.containedPct(256)
	st.ContainLine = ws.containedPct(CacheLineSize)
	st.HotContain64 = pct(ws.hotContained, ws.hotCopies)
	st.StackOverflows = ws.stackOverflows
	st.Chains = ws.chain.chains
	st.ChainCopiedPct = ws.chainCopiedPct()
	st.Remembered = len(h.remembered)
	ttsp := h.takeTTSP()
	st.TTSPUs = float64(ttsp.Nanoseconds()) / 1e3
	if h.trace != nil {
		h.traceOccupancy(h.clock())
	}
	h.reportTLABs(st)
	h.resizeTLABs()

	h.stats.gcMs += st.PauseMs
	if st.Type == "nursery" {
		h.stats.nurseryMs += st.PauseMs
		h.stats.total.add(ws)
		h.stats.addWorkerCopied(st.WorkerCopiedBytes)
	}

	h.logCollection(st, pause, ttsp, ws)
	writeJSON(h.cfg.StatsFile, st)
}

// Finish writes the summary object to the stats file (and a summary log
// line) and the trace file; the VM calls it once at exit, also after a
// runtime error.
func (h *Heap) Finish() {
	t := &h.stats.total
	s := Summary{
		Summary:      true,
		GCCount:      h.stats.gcCount,
		NurseryCount: h.stats.nurseryCount,
		GlobalCount:  h.stats.globalCount,
		GCMs:         h.stats.gcMs,
		NurseryMs:    h.stats.nurseryMs,
		CopiedBytes:  t.copiedBytes(),
		Contain64:    t.containedPct(64),
		Contain128:   t.containedPct(128),
		Contain256:   t.containedPct(256),
		HotContain64: pct(t.hotContained, t.hotCopies),
		InsidePct:    pct(t.insideBytes, t.copiedBytes()),
		DurationMs:   float64(time.Since(h.start).Microseconds()) / 1000,
		CacheLine:    CacheLineSize,

		StackOverflows:    t.stackOverflows,
		Chains:            t.chain.chains,
		ChainCopiedPct:    t.chainCopiedPct(),
		WorkerCopiedBytes: append([]uint64{}, h.stats.workerCopied...),
	}
	if h.stats.nurseryMs > 0 {
		s.KBPerMs = float64(t.copiedBytes()) / 1024 / h.stats.nurseryMs
	}
	h.logf("gc,stats", "Summary: %d collections (%d nursery, %d global) %.3fms, %d classes unloaded, stack_overflows=%d chains=%d chain_copied_pct=%.1f%% worker_copied_bytes=%v",
		s.GCCount, s.NurseryCount, s.GlobalCount, s.GCMs, h.stats.classesUnloaded, s.StackOverflows, s.Chains, s.ChainCopiedPct, s.WorkerCopiedBytes)
	h.logHeapAtExit()
	h.logMetadata()
	writeJSON(h.cfg.StatsFile, s)
	if h.trace != nil {
		h.trace.write()
	}
}

func writeJSON(w io.Writer, v any) {
	if w == nil {
		return
	}
	b, _ := json.Marshal(v)
	w.Write(append(b, '\n'))
}

// ClassesUnloaded returns how many classes have been unloaded so far.
func (h *Heap) ClassesUnloaded() int { return h.stats.classesUnloaded }

// MetadataInUse returns the bytes of class metadata currently allocated.
func (h *Heap) MetadataInUse() uintptr {
	b, _ := h.metaArena.InUse()
	return b
}
