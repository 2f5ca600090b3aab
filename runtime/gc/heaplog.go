package gc

import (
	"fmt"
	"strconv"
	"time"

	"minivm/runtime/gc/xlog"
)

// The log lines of one collection, in HotSpot's order: [gc,age] and
// [gc,heap] first, then the [gc] pause line GCViewer reads, then
// minivm's [gc,stats] metrics and the [safepoint] line:
//
//	[gc,age] GC(3) Desired survivor size 1048576 bytes, new threshold 9 (max threshold 9)
//	[gc,heap] GC(3) Nursery: 2048K->512K(4096K) Allocate: 2048K->0K(2048K) Survivor: 0K->512K(2048K)
//	[gc,heap] GC(3) Tenure: 1024K->1536K(8192K)
//	[gc,heap] GC(3) Metadata: 120K->118K(51200K)
//	[gc] GC(3) Pause Young (Allocation Failure) 3M->2M(12M) 1.234ms
//	[gc,stats] GC(3) collector=hierarchical copied=...
//	[safepoint] Safepoint "CollectForAllocation", Time since last: 1000 ns, Reaching safepoint: 20 ns, At safepoint: 1234000 ns, Total: 1234020 ns
//
// The heap lines follow HotSpot's ParallelGC (PSYoungGen, ParOldGen,
// Metaspace: used before->after(capacity)) with minivm's spaces; large
// objects live in tenure, so tenure's figure includes them.

// spaceUsage is what the [gc,heap] lines report about each space. The
// survivor semispace is empty between collections.
type spaceUsage struct {
	allocLo                 uintptr // which semispace allocates
	alloc                   uintptr // bytes used in it
	tenure, tenureCommitted uintptr
	metaUsed, metaCommitted uintptr
	metaReserved            uintptr
	valid                   bool
}

// spaceUsage measures the spaces; the world is stopped (or the VM ends).
func (h *Heap) spaceUsage() spaceUsage {
	u := spaceUsage{
		allocLo:         h.allocLo,
		alloc:           h.allocTop - h.allocLo,
		tenure:          h.tenureTop - h.tenureLo,
		tenureCommitted: h.tenureCommitted - h.tenureLo,
		valid:           true,
	}
	for _, m := range h.sp.mutators {
		u.alloc -= m.tlab.free()
	}
	if h.metaArena != nil {
		st := h.metaArena.Stats()
		u.metaUsed, u.metaCommitted, u.metaReserved = st.Used, st.Committed, st.Reserved
	}
	return u
}

// inRoles returns the allocate and survivor figures of u seen from the
// semispace roles before the collection: after a nursery collection has
// flipped them, the survivors sit in what is now the allocate space.
func (u spaceUsage) inRoles(allocLo uintptr) (alloc, surv uintptr) {
	if u.allocLo == allocLo {
		return u.alloc, 0
	}
	return 0, u.alloc
}

func (h *Heap) logCollection(st *CollectionStats, pause, ttsp time.Duration, ws *workerStats) {
	if b := st.before; b.valid && h.logging(xlog.Info, "gc,heap") {
		a := h.spaceUsage()
		semi := uint64(h.nurseryMid - h.nurseryLo)
		alloc, surv := a.inRoles(b.allocLo)
		h.logf("gc,heap", "GC(%d) Nursery: %s->%s(%s) Allocate: %s->%s(%s) Survivor: 0K->%s(%s)", st.GC,
			sizeK(b.alloc), sizeK(a.alloc), sizeK(2*semi),
			sizeK(b.alloc), sizeK(alloc), sizeK(semi), sizeK(surv), sizeK(semi))
		h.logf("gc,heap", "GC(%d) Tenure: %s->%s(%s)", st.GC, sizeK(b.tenure), sizeK(a.tenure), sizeK(a.tenureCommitted))
		if h.metaArena != nil {
			h.logf("gc,heap", "GC(%d) Metadata: %s->%s(%s)", st.GC, sizeK(b.metaUsed), sizeK(a.metaUsed), sizeK(a.metaCommitted))
		}
	}
	if h.logging(xlog.Info, "gc") {
		kind := "Pause Young"
		if st.Type == "global" {
			kind = "Pause Full"
		}
		h.logf("gc", "GC(%d) %s (%s) %s->%s(%s) %.3fms", st.GC, kind, st.Cause,
			sizeM(st.HeapBefore), sizeM(st.HeapAfter), sizeM(st.HeapCommitted), st.PauseMs)
	}
	if h.logging(xlog.Info, "gc,stats") {
		global := ""
		if gs := st.GlobalStats; gs != nil {
			global = fmt.Sprintf(" mark=%.3fms compact=%.3fms marked=%dB marked_objects=%d",
				gs.MarkMs, gs.CompactMs, gs.MarkedBytes, gs.MarkedObjects)
		}
		h.logf("gc,stats", "GC(%d) collector=%s copied=%dB objects=%d survivor=%dB tenured=%dB kb/ms=%.1f inside=%.1f%% small=%.1f%% contained64/128/256/line=%.1f/%.1f/%.1f/%.1f%% hot_contain_64=%.1f%% remembered=%d stack_overflows=%d chains=%d chain_copied_pct=%.1f%% worker_copied_bytes=%v%s",
			st.GC, st.Collector, st.CopiedBytes, st.CopiedObjects, st.SurvivorBytes, st.TenuredBytes,
			st.KBPerMs, st.InsidePct, st.SmallPct, st.Contain64, st.Contain128, st.Contain256, st.ContainLine, st.HotContain64, st.Remembered,
			st.StackOverflows, st.Chains, st.ChainCopiedPct, st.WorkerCopiedBytes, global)
		if ev := st.EvacuatorStats; ev != nil {
			h.logf("gc,stats", "GC(%d) evacuator flush_overflow=%d flush_stall=%d chain_tails=%d chain_walked=%d discarded=%dB recycled=%dB activations=%v",
				st.GC, ev.FlushOverflow, ev.FlushStall, ev.ChainTails, ev.ChainWalked, st.DiscardedBytes, st.RecycledBytes, ev.StackActivations)
		}
	}
	if h.logging(xlog.Debug, "gc,stats") {
		h.logAt(xlog.Debug, "gc,stats", "GC(%d) scanned=%dB cpu=%.0f%% threads=%d stall=%.0fus stalls=%d ttsp=%.0fus unloaded=%d classes=%d tlab_refills=%d tlab_waste=%.1f%% tlab_slow_allocs=%d hot_arcs=%d",
			st.GC, st.ScannedBytes, st.CPUPct, st.Threads, st.StallUs, st.Stalls, st.TTSPUs, st.unloaded, len(h.classMetas), st.TLABRefills, st.TLABWastePct, st.TLABSlowAllocs, ws.hotCopies)
		if st.workers != "" {
			h.logAt(xlog.Debug, "gc,stats", "GC(%d) copied by worker: %s", st.GC, st.workers)
		}
	}
	h.logSafepoint(st, pause, ttsp)
}

// logSafepoint writes HotSpot's [safepoint] line for a collection: the
// time from the end of the previous collection to this stop, the time
// to reach the safepoint (zero for the second collection of one stop,
// when a nursery collection turns global) and the pause.
func (h *Heap) logSafepoint(st *CollectionStats, pause, ttsp time.Duration) {
	end := time.Now()
	last := h.lastStopEnd
	h.lastStopEnd = end
	if !h.logging(xlog.Info, "safepoint") {
		return
	}
	if last.IsZero() {
		last = h.start
	}
	op := "CollectForAllocation"
	switch Cause(st.Cause) {
	case CauseSystemGC:
		op = "SystemGC"
	case CauseStress:
		op = "CollectForStress"
	}
	begin := end.Add(-pause - ttsp)
	h.logf("safepoint", "Safepoint %q, Time since last: %d ns, Reaching safepoint: %d ns, At safepoint: %d ns, Total: %d ns",
		op, max(begin.Sub(last), 0).Nanoseconds(), ttsp.Nanoseconds(), pause.Nanoseconds(), (ttsp + pause).Nanoseconds())
}

// logHeapAtExit writes the [gc,heap,exit] lines, as HotSpot prints the
// heap at exit:
//
//	[gc,heap,exit] Heap
//	[gc,heap,exit]  nursery total 32768K, used 1234K [0x..., 0x..., 0x...)
//	[gc,heap,exit]   allocate space 16384K, 7% used [0x..., 0x..., 0x...)
//	[gc,heap,exit]   survivor space 16384K, 0% used [0x..., 0x..., 0x...)
//	[gc,heap,exit]  tenure total 65536K, used 100K [0x..., 0x..., 0x...)
//	[gc,heap,exit]  Metadata used 120K, committed 51200K, reserved 204800K
//
// As in HotSpot, a generation's range is [start, committed end, reserved
// end) and a space's [bottom, top, end).
func (h *Heap) logHeapAtExit() {
	const tags = "gc,heap,exit"
	if !h.logging(xlog.Info, tags) {
		return
	}
	u := h.spaceUsage()
	base := h.res.Addr
	semi := uint64(h.nurseryMid - h.nurseryLo)
	h.logf(tags, "Heap")
	h.logf(tags, " nursery total %s, used %s [%#016x, %#016x, %#016x)", sizeK(2*semi), sizeK(u.alloc),
		base+h.nurseryLo, base+h.nurseryHi, base+h.nurseryHi)
	h.logf(tags, "  allocate space %s, %d%% used [%#016x, %#016x, %#016x)", sizeK(semi), pctInt(u.alloc, semi),
		base+h.allocLo, base+h.allocTop, base+h.allocHi)
	h.logf(tags, "  survivor space %s, 0%% used [%#016x, %#016x, %#016x)", sizeK(semi),
		base+h.survLo, base+h.survLo, base+h.survHi)
	h.logf(tags, " tenure total %s, used %s [%#016x, %#016x, %#016x)", sizeK(u.tenureCommitted), sizeK(u.tenure),
		base+h.tenureLo, base+h.tenureCommitted, base+h.tenureHi)
	if h.metaArena != nil {
		h.logf(tags, " Metadata used %s, committed %s, reserved %s", sizeK(u.metaUsed), sizeK(u.metaCommitted), sizeK(u.metaReserved))
	}
}

// sizeK formats bytes in whole K, as HotSpot's heap lines do.
func sizeK[T uint64 | uintptr](b T) string {
	return strconv.FormatUint(uint64(b)>>10, 10) + "K"
}

func pctInt(part uintptr, whole uint64) int {
	if whole == 0 {
		return 0
	}
	return int(uint64(part) * 100 / whole)
}
