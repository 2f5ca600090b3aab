package gc

import "testing"

// TestHotContainment builds a linked list of nodes whose hot slot, next,
// is the last of three (overflow-style slot 0, payload, next: 32-byte
// nodes, each with a 48-byte payload array declared first) and copies it
// with the evacuator at distance 0. Scanned in declaration order, the
// payload is copied behind each node and the next node 80 bytes on, never
// in the slot's 64-byte block; with next scanned first, the next node is
// copied right behind its parent. Every copy but the head's goes through
// a hot slot. Chain detection is off (a zero Config's): it would copy the
// nodes back to back in either order (chain_test.go).
func TestHotContainment(t *testing.T) {
	const n = 5000
	run := func(t *testing.T, collector Collector, order bool) *workerStats {
		cfg := Config{MaxHeap: 64 << 20, NurserySize: 16 << 20, Collector: collector}
		if collector == Recursive {
			cfg.MaxStackDepth, cfg.MaxInsideCopySize, cfg.WorkVolumeQuantum = 32, 256, 4096
		}
		g := newGraphHeap(t, cfg)
		node, _ := g.h.NewMeta(MetaSpec{Layout: LayoutFixed, NumSlots: 3})
		if _, ok := node.HotSlot(); ok {
			t.Fatal("a new ClassMeta names a hot slot")
		}
		node.SetHotSlot(2)
		if s, ok := node.HotSlot(); !ok || s != 2 {
			t.Fatalf("HotSlot = %d, %v", s, ok)
		}
		if order {
			node.SetScanOrder([]int{2, 1, 0})
		}
		buildPayloadList(g, node, n)
		g.h.collectNursery(CauseStress)
		return &g.h.stats.total
	}
	for _, collector := range []Collector{Recursive, Hierarchical, BreadthFirst} {
		for _, order := range []bool{false, true} {
			s := run(t, collector, order)
			if s.hotCopies != n-1 {
				t.Errorf("%s order=%v: %d hot copies, want %d", collector, order, s.hotCopies, n-1)
			}
			hot := pct(s.hotContained, s.hotCopies)
			t.Logf("%s order=%v: hot_contain_64 %.1f%%", collector, order, hot)
			if collector != Recursive {
				continue
			}
			if !order && hot > 1 {
				t.Errorf("declaration order: hot_contain_64 %.1f%%, want 0", hot)
			}
			if order && hot < 60 {
				t.Errorf("hot field first: hot_contain_64 %.1f%%, want most", hot)
			}
		}
	}
}

func TestArcSlot(t *testing.T) {
	hot, cold := slots{hot: 128}, slots{}
	if hot.arc(64) != 64 || cold.arc(64) != 64 || hot.arc(128) != 128|hotArc {
		t.Fatal("slots.arc")
	}
	var s workerStats
	s.recordCopy(hot.arc(128), 136, 32, survivorRegion, 0, false)  // contained
	s.recordCopy(hot.arc(128), 192, 32, survivorRegion, 0, false)  // next block
	s.recordCopy(cold.arc(128), 136, 32, survivorRegion, 0, false) // not hot
	s.recordCopy(noSlot, 136, 32, survivorRegion, 0, true)         // root: never inside
	if s.hotCopies != 2 || s.hotContained != 1 || s.copiedObjects() != 4 || s.distance[4] != 2 || s.insideBytes != 0 {
		t.Fatalf("stats %+v", s)
	}
}

// buildPayloadList builds a list of n nodes of class node (three slots:
// unused, payload, next), each with a 4-element payload array allocated
// before it, and leaves its head in root 0.
func buildPayloadList(g *graphHeap, node Meta, n int) {
	g.roots.vals = []Value{Nil, Nil}
	for i := 0; i < n; i++ {
		g.roots.vals[1] = FromRef(g.h.allocSlots(g.array, 4, Number(1)))
		r := g.h.allocFixed(node, Nil)
		g.h.Store(r, 2, g.roots.vals[1])
		g.h.Store(r, 3, g.roots.vals[0])
		g.roots.vals[0] = FromRef(r)
	}
	g.roots.vals[1] = Nil
}
