package gc

import (
	"testing"

	"minivm/runtime/mem"
)

func TestTenureBounds(t *testing.T) {
	const K, M, G = 1 << 10, 1 << 20, 1 << 30
	for _, c := range []struct {
		name                 string
		used, initial, limit uintptr
		minFree, maxFree     int
		capacity             uintptr
		lo, hi, target       uintptr
	}{
		// After the live set dropped to 12 MB of 150 MB committed: down to
		// used / 0.3.
		{"shrink", 12 * M, 32 * M, 2 * G, 40, 70, 150 * M, 32 * M, 40 * M, 40 * M},
		// Inside the window: unchanged.
		{"inside", 12 * M, 32 * M, 2 * G, 40, 70, 36 * M, 32 * M, 40 * M, 36 * M},
		// Too little free: up to used / 0.6.
		{"expand", 60 * M, 32 * M, 2 * G, 40, 70, 64 * M, 100 * M, 200 * M, 100 * M},
		// Never below the initial tenure.
		{"floor", 1 * M, 32 * M, 2 * G, 40, 70, 64 * M, 32 * M, 32 * M, 32 * M},
		// Never above the reservation.
		{"limit", 1900 * M, 32 * M, 2 * G, 40, 70, 1950 * M, 2 * G, 2 * G, 2 * G},
		// A change below minHeapDelta is skipped.
		{"small shrink", 12 * M, 32 * M, 2 * G, 40, 70, 40*M + 512*K, 32 * M, 40 * M, 40*M + 512*K},
		{"small expand", 60 * M, 32 * M, 2 * G, 40, 70, 100*M - 512*K, 100 * M, 200 * M, 100*M - 512*K},
		// MaxHeapFreeRatio 100 never shrinks, MinHeapFreeRatio 100 commits
		// the whole reservation, 0/0 keeps exactly what is used.
		{"max 100", 12 * M, 32 * M, 2 * G, 40, 100, 1 * G, 32 * M, 2 * G, 1 * G},
		{"min 100", 12 * M, 32 * M, 2 * G, 100, 100, 64 * M, 2 * G, 2 * G, 2 * G},
		{"zero", 48 * M, 32 * M, 2 * G, 0, 0, 64 * M, 48 * M, 48 * M, 48 * M},
	} {
		b := newTenureBounds(c.used, c.initial, c.limit, c.minFree, c.maxFree)
		if b.lo != c.lo || b.hi != c.hi {
			t.Errorf("%s: bounds [%d, %d], want [%d, %d]", c.name, b.lo, b.hi, c.lo, c.hi)
		}
		if got := b.target(c.capacity); got != c.target {
			t.Errorf("%s: target %d, want %d", c.name, got, c.target)
		}
	}
}

// A live set that grows through nursery collections expands tenure
// without a global collection; after it drops, a global collection
// decommits tenure down to the MaxHeapFreeRatio bound, and tenure grows
// again (recommitted) as the program builds anew. Background pretouching
// runs over the decommitted range too.
func TestTenureGrowsAndShrinks(t *testing.T) {
	for _, pretouch := range []mem.PretouchMode{mem.PretouchNone, mem.PretouchBackground} {
		cfg := Config{MaxHeap: 64 << 20, InitialHeap: 3 << 20, NurserySize: 1 << 20, Verify: true, Pretouch: pretouch}
		cfg.MinHeapFreeRatio, cfg.MaxHeapFreeRatio = defaultMinHeapFreeRatio, defaultMaxHeapFreeRatio
		g := newGraphHeap(t, cfg)
		h := g.h
		initial := h.tenureCommitted - h.tenureLo
		for range 200_000 { // 40-byte nodes: 8 MB
			g.newNode()
		}
		if h.stats.globalCount != 0 || h.stats.nurseryCount == 0 {
			t.Fatalf("%v: growth ran %d global and %d nursery collections, want none global", pretouch, h.stats.globalCount, h.stats.nurseryCount)
		}
		grown := h.tenureCommitted - h.tenureLo
		if grown < 7<<20 || grown <= initial {
			t.Fatalf("%v: tenure committed %d bytes after growing from %d", pretouch, grown, initial)
		}
		g.roots.vals = g.roots.vals[:20_000]
		h.main.Collect()
		used, committed := h.tenureTop-h.tenureLo, h.tenureCommitted-h.tenureLo
		if committed > max(used*100/30, initial) || committed < used {
			t.Fatalf("%v: after the drop %d bytes used, %d committed; want at most %d", pretouch, used, committed, used*100/30)
		}
		if h.committed() != committed+(h.nurseryHi-h.nurseryLo) {
			t.Fatalf("%v: heap committed %d, tenure %d", pretouch, h.committed(), committed)
		}
		for range 100_000 {
			g.newNode()
		}
		h.main.Collect()
		for i, v := range g.roots.vals {
			if got := h.Load(v.AsRef(), 1).AsNumber(); i < 20_000 && got != float64(i+1) {
				t.Fatalf("%v: node %d holds %v", pretouch, i, got)
			}
		}
		if h.tenureCommitted-h.tenureLo <= committed {
			t.Fatalf("%v: tenure did not grow again: %d committed", pretouch, h.tenureCommitted-h.tenureLo)
		}
	}
}
