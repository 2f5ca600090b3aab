package gc

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// testRoots is a mutator's root set for tests.
type testRoots struct{ vals []Value }

func (t *testRoots) VisitRoots(visit func(*Value)) {
	for i := range t.vals {
		visit(&t.vals[i])
	}
}

// graphHeap builds random object graphs: "nodes" are fixed objects with an
// id (a number slot) and three reference slots; "arrays" hold references.
type graphHeap struct {
	h           *Heap
	roots       *testRoots
	node, array Meta
	str         Meta
	nextID      int
	model       *graphModel // when set, newNode and mutate keep it in step
}

func newGraphHeap(t testing.TB, cfg Config) *graphHeap {
	t.Helper()
	g := &graphHeap{roots: &testRoots{}}
	if cfg.GCThreads == 0 {
		cfg.GCThreads = 1 // deterministic layouts; parallel_test.go sets more
	}
	h, err := New(cfg, g.roots)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Release)
	g.h = h
	g.node, _ = h.NewMeta(MetaSpec{Layout: LayoutFixed, NumSlots: 4, Kind: 1})
	g.array, _ = h.NewMeta(MetaSpec{Layout: LayoutSlots, Kind: 2})
	g.str, _ = h.NewMeta(MetaSpec{Layout: LayoutBytes, Kind: 3})
	return g
}

// newNode allocates a node and pushes it as a root (so it survives later
// allocations), returning its root index.
func (g *graphHeap) newNode() int {
	r := g.h.allocFixed(g.node, Nil)
	g.nextID++
	g.h.Store(r, 1, Number(float64(g.nextID)))
	g.roots.vals = append(g.roots.vals, FromRef(r))
	if g.model != nil {
		g.model.push(&modelObj{kind: 1, id: float64(g.nextID), slots: make([]*modelObj, 3)})
	}
	return len(g.roots.vals) - 1
}

// shape renders the graph reachable from the roots canonically.
func (g *graphHeap) shape() string {
	var b strings.Builder
	seen := map[Ref]int{}
	var walk func(v Value, depth int)
	walk = func(v Value, depth int) {
		if !v.IsRef() {
			fmt.Fprintf(&b, "%v ", v.AsNumber())
			return
		}
		r := v.AsRef()
		if id, ok := seen[r]; ok {
			fmt.Fprintf(&b, "@%d ", id)
			return
		}
		seen[r] = len(seen)
		h := g.h
		switch h.Kind(r) {
		case 1:
			fmt.Fprintf(&b, "(n%v ", h.Load(r, 1).AsNumber())
			for w := 2; w <= 4; w++ {
				if x := h.Load(r, w); x != Nil {
					walk(x, depth+1)
				} else {
					b.WriteString("_ ")
				}
			}
			b.WriteString(") ")
		case 2:
			b.WriteString("[")
			for i := 0; i < h.Length(r); i++ {
				walk(h.Load(r, 2+i), depth+1)
			}
			b.WriteString("] ")
		case 3:
			fmt.Fprintf(&b, "%q ", h.Bytes(r))
		}
	}
	for _, v := range g.roots.vals {
		if v.IsRef() {
			walk(v, 0)
		}
	}
	return b.String()
}

// mutate performs n random operations: allocate nodes, arrays and strings,
// link them, and drop roots.
func (g *graphHeap) mutate(rng *rand.Rand, n int) {
	h, m := g.h, g.model
	for i := 0; i < n; i++ {
		vals := g.roots.vals
		switch op := rng.Intn(10); {
		case op < 4:
			g.newNode()
		case op < 5:
			length := rng.Intn(20)
			r := h.allocSlots(g.array, length, Nil)
			g.roots.vals = append(g.roots.vals, FromRef(r))
			if m != nil {
				m.push(&modelObj{kind: 2, slots: make([]*modelObj, length)})
			}
		case op < 6:
			size := rng.Intn(40)
			r := h.allocBytes(g.str, size)
			copy(h.Bytes(r), fmt.Sprint(i))
			g.roots.vals = append(g.roots.vals, FromRef(r))
			if m != nil {
				b := make([]byte, size)
				copy(b, fmt.Sprint(i))
				m.push(&modelObj{kind: 3, bytes: b})
			}
		case op < 9 && len(vals) > 1:
			fi, ti := rng.Intn(len(vals)), rng.Intn(len(vals))
			from, to := vals[fi], vals[ti]
			slot := -1
			switch h.Kind(from.AsRef()) {
			case 1:
				slot = rng.Intn(3)
			case 2:
				if n := h.Length(from.AsRef()); n > 0 {
					slot = rng.Intn(n)
				}
			}
			if slot >= 0 {
				h.Store(from.AsRef(), 2+slot, to)
				if m != nil {
					m.roots[fi].slots[slot] = m.roots[ti]
				}
			}
		case len(vals) > 8:
			j := rng.Intn(len(vals))
			g.roots.vals = append(vals[:j], vals[j+1:]...)
			if m != nil {
				m.roots = append(m.roots[:j], m.roots[j+1:]...)
			}
		}
	}
}

// collectRounds mutates the graph and collects, rounds times, failing if
// a collection changes the reachable graph. Every seventh collection is a
// global one; before runs before each round's mutation.
func collectRounds(t *testing.T, g *graphHeap, rng *rand.Rand, rounds, ops int, before func(round int)) {
	t.Helper()
	for round := 0; round < rounds; round++ {
		if before != nil {
			before(round)
		}
		g.mutate(rng, ops)
		want := g.shape()
		if round%7 == 6 {
			g.h.collectGlobal(CauseSystemGC)
		} else {
			g.h.collectNursery(CauseStress)
		}
		if got := g.shape(); got != want {
			t.Fatalf("round %d: graph changed by collection\nbefore %.300s\nafter  %.300s", round, want, got)
		}
		if len(g.roots.vals) > 2*ops {
			g.roots.vals = g.roots.vals[len(g.roots.vals)-ops:]
		}
	}
}

func TestCollectorsPreserveRandomGraphs(t *testing.T) {
	for _, collector := range []Collector{BreadthFirst, Hierarchical} {
		for _, tenureAge := range []int{1, 3, 10} {
			t.Run(fmt.Sprintf("%s/age%d", collector, tenureAge), func(t *testing.T) {
				g := newGraphHeap(t, Config{MaxHeap: 8 << 20, NurserySize: 512 << 10, Collector: collector, TenureAge: tenureAge, Verify: true})
				collectRounds(t, g, rand.New(rand.NewSource(int64(tenureAge))), 30, 300, nil)
				if g.h.stats.nurseryCount == 0 || g.h.stats.globalCount == 0 {
					t.Fatalf("expected both kinds of collection, got %+v", g.h.stats)
				}
			})
		}
	}
}

// TestStressCollectsEveryAllocation mutates under -Xgc:stress=1, so every
// allocation collects, and compares the heap's graph with a Go model of
// what the mutator built after every few operations: a collection that
// loses, duplicates or misplaces an object or a reference shows up as a
// difference.
func TestStressCollectsEveryAllocation(t *testing.T) {
	g := newGraphHeap(t, Config{MaxHeap: 8 << 20, NurserySize: 512 << 10, StressInterval: 1, Verify: true})
	g.model = &graphModel{}
	rng := rand.New(rand.NewSource(1))
	for step := 0; step < 60; step++ {
		g.mutate(rng, 10)
		if got, want := g.shape(), g.model.shape(); got != want {
			got, want = fromDiff(got, want)
			t.Fatalf("step %d: heap graph differs from the model\nheap  ...%.200s\nmodel ...%.200s", step, got, want)
		}
	}
	st := g.h.stats
	if st.gcCount < g.model.allocs {
		t.Fatalf("%d allocations ran only %d collections", g.model.allocs, st.gcCount)
	}
	if st.globalCount == 0 {
		t.Fatalf("no global collection in %d stress collections", st.gcCount)
	}
}

func TestOutOfMemory(t *testing.T) {
	g := newGraphHeap(t, Config{MaxHeap: 2 << 20, NurserySize: 256 << 10})
	defer func() {
		e, ok := recover().(*OutOfMemoryError)
		if !ok {
			t.Fatalf("expected OutOfMemoryError, got %v", e)
		}
		if !strings.HasPrefix(e.Error(), "OutOfMemoryError") {
			t.Fatalf("message %q", e.Error())
		}
	}()
	for {
		g.newNode() // every node stays rooted
	}
}

func TestContainmentOfAChain(t *testing.T) {
	// A linked list of 32-byte nodes (header + next + two numbers) whose
	// next field is word 1. Both scan orders copy a chain sequentially from
	// a 32-byte aligned start, so the referring slot (node+8) and the copy
	// (node+32) share a 64-byte block for every other node, a 128-byte
	// block for 3 nodes in 4 and a 256-byte block for 7 in 8. The root's
	// copy is never contained.
	for _, collector := range []Collector{BreadthFirst, Hierarchical} {
		g := newGraphHeap(t, Config{MaxHeap: 8 << 20, NurserySize: 1 << 20, Collector: collector})
		link, _ := g.h.NewMeta(MetaSpec{Layout: LayoutFixed, NumSlots: 3})
		g.roots.vals = []Value{Nil}
		const n = 4096
		for i := 0; i < n; i++ {
			r := g.h.allocFixed(link, Number(1))
			g.h.Store(r, 1, g.roots.vals[0])
			g.roots.vals[0] = FromRef(r)
		}
		g.h.collectNursery(CauseStress)
		s := g.h.stats.total
		if s.copiedObjects() != n || s.copiedBytes() != 32*n {
			t.Fatalf("%s: copied %d objects / %d bytes", collector, s.copiedObjects(), s.copiedBytes())
		}
		for _, c := range []struct {
			line int
			want float64
		}{{64, 50}, {128, 75}, {256, 87.5}} {
			if got := s.containedPct(c.line); got < c.want-0.1 || got > c.want+0.1 {
				t.Errorf("%s: contain_%d = %.2f, want %.1f", collector, c.line, got, c.want)
			}
		}
	}
}
