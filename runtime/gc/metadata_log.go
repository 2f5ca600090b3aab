package gc

import (
	"fmt"

	"minivm/runtime/gc/xlog"
	"minivm/runtime/mem"
)

// logMetadata writes the [gc,metadata] line describing the class-metadata
// sub-allocator below 4 GB, and, when tenure is pretouched, a
// [gc,pretouch] line. The VM calls it once at exit, from Finish.
//
//	[gc,metadata] Metadata: regions=3 (large=1, released=0) reserved=216M committed=58M peak=58M used=1234K blocks=812 free_blocks=17 free=3072B fragmentation=5 joins=40 rebuilds=0 search=quick 0.051ms
//
// Sizes are whole bytes (B) below 10K, then K below 10M, then M.
func (h *Heap) logMetadata() {
	if h.logging(xlog.Info, "gc,metadata") && h.metaArena != nil {
		h.logMetadataArena()
	}
	if h.logging(xlog.Info, "gc,pretouch") {
		h.logPretouch()
	}
}

func (h *Heap) logMetadataArena() {
	st := h.metaArena.Stats()
	search := "quick"
	if h.cfg.SuballocatorBruteForce {
		search = "bruteForce"
	}
	h.logf("gc,metadata", "Metadata: regions=%d (large=%d, released=%d) reserved=%s committed=%s peak=%s used=%s blocks=%d free_blocks=%d free=%s fragmentation=%d joins=%d rebuilds=%d search=%s %.3fms",
		st.Regions, st.LargeRegions, st.Released, sizeB(st.Reserved), sizeB(st.Committed),
		sizeB(st.PeakCommitted), sizeB(st.Used), st.Blocks, st.FreeBlocks, sizeB(st.Free),
		st.Fragmentation, st.Joins, st.Rebuilds, search, st.ReserveMs)
}

func (h *Heap) logPretouch() {
	switch {
	case h.pretoucher != nil:
		h.logf("gc,pretouch", "Pretouch: mode=background touched=%s pending=%s", sizeB(h.pretoucher.Touched()), sizeB(h.pretoucher.Pending()))
	case h.cfg.Pretouch != mem.PretouchNone:
		h.logf("gc,pretouch", "Pretouch: mode=%s always=%v", h.cfg.Pretouch, h.cfg.AlwaysPreTouch)
	case h.cfg.AlwaysPreTouch:
		mode := "populate"
		if !mem.PopulateSupported() {
			mode = "atomic"
		}
		h.logf("gc,pretouch", "Pretouch: mode=%s (AlwaysPreTouch) workers=%d", mode, h.cfg.GCThreads)
	}
}

// sizeB formats bytes like sizeM, but small sizes in bytes: metadata
// figures are often below a kilobyte.
func sizeB(b uintptr) string {
	if b < 10<<10 {
		return fmt.Sprintf("%dB", b)
	}
	return sizeM(uint64(b))
}
