package gc

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

// Multi-mutator tests: several goroutines, each with its own
// Mutator, allocate concurrently while collections stop the world. Run
// them with -race: the safepoint protocol is what orders the mutators'
// heap and root writes before the collector's reads and back.

// mutatorRoots gives each mutator goroutine a fixed slice of root slots.
// A goroutine writes only its own slice, and only while it is running;
// VisitRoots runs only inside collections, with every other mutator
// parked, so the two never overlap.
type mutatorRoots struct{ slots [][]Value }

func (r *mutatorRoots) VisitRoots(visit func(*Value)) {
	for _, s := range r.slots {
		for i := range s {
			visit(&s[i])
		}
	}
}

// Root slots of one worker.
const (
	rootList  = iota // head of its private list of nodes
	rootArray        // an array on its way into the next node
	rootCount
)

type mutatorHeap struct {
	h           *Heap
	roots       *mutatorRoots
	node, array Meta
}

func newMutatorHeap(t testing.TB, cfg Config, workers int) *mutatorHeap {
	t.Helper()
	roots := &mutatorRoots{slots: make([][]Value, workers)}
	for i := range roots.slots {
		roots.slots[i] = make([]Value, rootCount)
		for j := range roots.slots[i] {
			roots.slots[i][j] = Nil
		}
	}
	h, err := New(cfg, roots)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Release)
	mh := &mutatorHeap{h: h, roots: roots}
	// Nodes: slot 1 an id, slot 2 the next node, slot 3 an array, slot 4
	// unused.
	mh.node, _ = h.NewMeta(MetaSpec{Layout: LayoutFixed, NumSlots: 4, Kind: 1})
	mh.array, _ = h.NewMeta(MetaSpec{Layout: LayoutSlots, Kind: 2})
	return mh
}

// work is one worker's life: allocate iters 48-byte garbage arrays and,
// every keepEvery iterations, a node holding a 3-element array, pushed on
// the worker's list; poll for safepoints on every iteration. It returns
// a description of the first damage it finds in its list, or "".
func (mh *mutatorHeap) work(m *Mutator, id, iters, keepEvery int) string {
	h, root := mh.h, mh.roots.slots[id]
	kept := 0
	for k := 0; k < iters; k++ {
		if m.pollNeeded() {
			m.Park()
		}
		m.AllocSlots(mh.array, 4, Number(float64(k))) // garbage
		if k%keepEvery != 0 {
			continue
		}
		// Every reference lives in a root slot across allocations: any
		// allocation may move objects.
		root[rootArray] = FromRef(m.AllocSlots(mh.array, 3, Number(float64(k))))
		n := m.AllocFixed(mh.node, Nil)
		h.Store(n, 1, Number(float64(id*1_000_000+k)))
		h.Store(n, 2, root[rootList])
		h.Store(n, 3, root[rootArray])
		root[rootList], root[rootArray] = FromRef(n), Nil
		kept++
	}
	// The list holds the kept iterations, newest first.
	v := root[rootList]
	for k := (kept - 1) * keepEvery; k >= 0; k -= keepEvery {
		if !v.IsRef() {
			return fmt.Sprintf("worker %d: list ends before iteration %d", id, k)
		}
		n := v.AsRef()
		if got := h.Load(n, 1); h.Kind(n) != 1 || got != Number(float64(id*1_000_000+k)) {
			return fmt.Sprintf("worker %d: node for iteration %d has kind %d, id %v", id, k, h.Kind(n), got.AsNumber())
		}
		a := h.Load(n, 3)
		if !a.IsRef() || h.Kind(a.AsRef()) != 2 || h.Length(a.AsRef()) != 3 {
			return fmt.Sprintf("worker %d: node for iteration %d lost its array", id, k)
		}
		for i := 0; i < 3; i++ {
			if got := h.Load(a.AsRef(), 2+i); got != Number(float64(k)) {
				return fmt.Sprintf("worker %d: array of iteration %d holds %v at %d", id, k, got.AsNumber(), i)
			}
		}
		v = h.Load(n, 2)
	}
	if v != Nil {
		return fmt.Sprintf("worker %d: list longer than %d nodes", id, kept)
	}
	return ""
}

// TestMutatorsAllocateConcurrently runs 2 and 4 allocating mutator
// goroutines over a small verified nursery, with TLABs, without, and
// under stress, with one and two GC threads, while the main mutator
// requests System.gc() collections now and then. Each worker checks its
// list at the end; every collection verifies the whole heap.
func TestMutatorsAllocateConcurrently(t *testing.T) {
	cases := []struct {
		name             string
		cfg              Config
		iters, keepEvery int
		minGCs           int
	}{
		// Two mutators allocate about 4 MB in 30,000 iterations: 8 or 9
		// collections of the 1 MB nursery, by how the allocations of
		// the goroutines interleave; more than 4 shows they collect.
		{"tlab", Config{}, 30_000, 8, 4},
		{"noTLAB", Config{NoTLAB: true}, 30_000, 8, 4},
		{"smallTLAB", Config{TLABInitialSize: MinTLABSize, TLABMaximumSize: 4 << 10}, 30_000, 8, 4},
		{"stress", Config{StressInterval: 97}, 3_000, 4, 50},
		{"warmup", Config{GCThreadWarmupPercent: 50}, 30_000, 8, 4},
	}
	for _, c := range cases {
		for _, threads := range []int{1, 2} {
			for _, workers := range []int{2, 4} {
				// Two workers get mutators made by the test goroutine
				// before they start; four make their own while the
				// others already run (and collect).
				selfRegister := workers == 4
				t.Run(fmt.Sprintf("%s/gcthreads%d/mutators%d", c.name, threads, workers), func(t *testing.T) {
					cfg := c.cfg
					cfg.MaxHeap, cfg.NurserySize, cfg.GCThreads, cfg.Verify, cfg.TenureAge = 16<<20, 1<<20, threads, true, 3
					iters, minGCs := c.iters, c.minGCs
					if testing.Short() {
						iters, minGCs = iters/4, minGCs/4
					}
					st := runMutators(t, newMutatorHeap(t, cfg, workers), workers, iters, c.keepEvery, selfRegister)
					if st.gcCount <= minGCs {
						t.Fatalf("only %d collections, want more than %d", st.gcCount, minGCs)
					}
				})
			}
		}
	}
}

// runMutators runs the workers and returns the heap's statistics after
// them.
func runMutators(t *testing.T, mh *mutatorHeap, workers, iters, keepEvery int, selfRegister bool) heapStats {
	t.Helper()
	h := mh.h
	var ms []*Mutator
	if !selfRegister {
		for range workers {
			ms = append(ms, mustNewMutator(h))
		}
	}
	// The main mutator stays out of the way (in a safe region) except
	// for a System.gc() now and then, so it never holds up a stop.
	main := h.Main()
	main.EnterSafeRegion()
	var wg sync.WaitGroup
	failures := make(chan string, workers)
	for id := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var m *Mutator
			if selfRegister {
				m = mustNewMutator(h)
			} else {
				m = ms[id]
			}
			m.LeaveSafeRegion()
			defer m.Release()
			if msg := mh.work(m, id, iters, keepEvery); msg != "" {
				failures <- msg
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for stop := false; !stop; {
		select {
		case <-done:
			stop = true
		case <-time.After(2 * time.Millisecond):
			main.LeaveSafeRegion()
			main.Collect()
			main.EnterSafeRegion()
		}
	}
	main.LeaveSafeRegion()
	close(failures)
	for msg := range failures {
		t.Error(msg)
	}
	if got := h.mutatorCount(); got != 1 {
		t.Errorf("%d mutators registered after the workers released theirs, want 1", got)
	}
	// The heap is still sound with the workers gone.
	h.Main().Collect()
	return h.stats
}

// tlabHeap is a single-mutator heap with a 512 KB allocate space.
func tlabHeap(t *testing.T, cfg Config) *graphHeap {
	cfg.MaxHeap, cfg.NurserySize, cfg.Verify = 16<<20, 1<<20, true
	return newGraphHeap(t, cfg)
}

// The initial desired size is capacity / (allocating threads x target
// refills), target refills being 100 / (2 x TLABWasteTargetPercent) (at
// least 2); TLABInitialSize overrides it, and it is clamped to
// [MinTLABSize, TLABMaximumSize (default capacity / 8)]. The initial
// allocation fraction is the share of the capacity that desired size x
// target refills covers: 1 unless the size was clamped or given.
func TestTLABInitialSize(t *testing.T) {
	const capacity = 512 << 10 // one semispace
	for _, tc := range []struct {
		cfg     Config
		want    uintptr
		refills int
	}{
		{Config{}, (capacity / 50) &^ 7, 50}, // 10480
		{Config{TLABWasteTargetPercent: 25}, capacity / 8, 2},
		{Config{TLABWasteTargetPercent: 25, TLABMaximumSize: 128 << 10}, 128 << 10, 2},
		{Config{TLABWasteTargetPercent: 100, TLABMaximumSize: 256 << 10}, capacity / 2, 2}, // target refills at least 2
		{Config{TLABWasteTargetPercent: 100, TLABMaximumSize: 8 << 10}, 8 << 10, 2},
		{Config{TLABWasteTargetPercent: 20, TLABMaximumSize: 256 << 10}, (capacity / 2) &^ 7, 2},
		{Config{TLABWasteTargetPercent: 10, TLABMaximumSize: 256 << 10}, (capacity / 5) &^ 7, 5},
		{Config{TLABInitialSize: 3000}, 3000 &^ 7, 50},
		{Config{TLABInitialSize: 100 << 10}, capacity / 8, 50}, // the default maximum
		{Config{TLABMaximumSize: 4 << 10}, 4 << 10, 50},
	} {
		g := tlabHeap(t, tc.cfg)
		p, tl := &g.h.tlabPolicy, &g.h.Main().tlab
		if tl.desired != tc.want || tl.refillWasteLimit != tc.want/64 || p.targetRefills != tc.refills {
			t.Errorf("%+v: desired %d, refill waste limit %d, target refills %d; want %d, %d, %d",
				tc.cfg, tl.desired, tl.refillWasteLimit, p.targetRefills, tc.want, tc.want/64, tc.refills)
		}
		want := min(1, float64(tc.want)*float64(tc.refills)/capacity)
		if f := tl.allocFraction.avg; f < want-1e-9 || f > want+1e-9 || tl.allocFraction.count != 1 {
			t.Errorf("%+v: initial allocation fraction %f (%d samples), want %f (1 sample)", tc.cfg, f, tl.allocFraction.count, want)
		}
	}
}

// An allocation that does not fit is made outside the TLAB while the
// TLAB's free space exceeds the refill waste limit (desired / 64), each
// such slow allocation raising the limit by four words; then the TLAB is
// refilled and its tail becomes a filler object.
func TestTLABRefillWasteLimit(t *testing.T) {
	g := tlabHeap(t, Config{})
	h, m := g.h, g.h.Main()
	tl := &m.tlab
	g.roots.vals = []Value{Nil}
	h.allocSlots(g.array, 4, Nil)
	if tl.refills != 1 || tl.end-tl.start != tl.desired+slotsSize(4) {
		t.Fatalf("first allocation: %d refills, chunk of %d bytes; want 1, %d", tl.refills, tl.end-tl.start, tl.desired+slotsSize(4))
	}
	// Leave between 600 and 648 bytes free.
	for tl.free() >= 600+slotsSize(4) {
		h.allocSlots(g.array, 4, Nil)
	}
	free, top, limit := tl.free(), tl.top, tl.refillWasteLimit
	if limit != tl.desired/64 || free <= limit {
		t.Fatalf("limit %d, free %d", limit, free)
	}
	// Objects one word larger than the free space: slow allocations until
	// the limit reaches the free space.
	n := int(free / WordSize) // slotsSize(n) = free + 16
	wantSlow := int((free - limit + tlabWasteIncrement - 1) / tlabWasteIncrement)
	for i := 0; i < wantSlow; i++ {
		r := h.allocSlots(g.array, n, Nil)
		off := uintptr(r) << 3
		if tl.top != top || (off >= tl.start && off < tl.end) || tl.slowAllocs != i+1 {
			t.Fatalf("slow allocation %d: TLAB top moved or object inside the TLAB (slow allocs %d)", i, tl.slowAllocs)
		}
		if tl.refillWasteLimit != limit+uintptr(i+1)*tlabWasteIncrement {
			t.Fatalf("slow allocation %d: limit %d, want %d", i, tl.refillWasteLimit, limit+uintptr(i+1)*tlabWasteIncrement)
		}
		g.roots.vals[0] = FromRef(r) // keep one, so the collection below copies something
	}
	if tl.refillWasteLimit < free {
		t.Fatalf("limit %d still below free %d", tl.refillWasteLimit, free)
	}
	// Now the TLAB is given up: refilled, the old tail a filler.
	r := h.allocSlots(g.array, n, Nil)
	if off := uintptr(r) << 3; tl.refills != 2 || off != tl.start || tl.refillWaste != free || tl.refillWasteLimit != tl.desired/64 {
		t.Fatalf("refill: %d refills, object at %#x (chunk %#x), refill waste %d (want %d), limit %d",
			tl.refills, off, tl.start, tl.refillWaste, free, tl.refillWasteLimit)
	}
	if got := h.MetaOf(Ref(top >> 3)); got != h.fillerN || h.sizeOf(Ref(top>>3), got) != free {
		t.Fatalf("retired tail at %#x: meta %#x, want the filler of %d bytes", top, uint32(got), free)
	}
	// The heap walks: verify it, with the current TLAB's tail filled
	// too (a collection would retire it first).
	m.retireTLAB()
	h.verify(0, "after a refill")
	// A collection retires the current TLAB too and starts a new epoch.
	h.Main().Collect()
	if tl.end != 0 || tl.refills != 0 || tl.slowAllocs != 0 {
		t.Fatalf("after a collection the TLAB is %#x..%#x with %d refills, %d slow allocs", tl.top, tl.end, tl.refills, tl.slowAllocs)
	}
}

// With one thread doing all the allocation, its allocation fraction stays
// about 1 and its desired size follows capacity / target refills; with
// -XX:-ResizeTLAB it keeps the initial size.
func TestTLABResize(t *testing.T) {
	for _, resize := range []bool{true, false} {
		g := tlabHeap(t, Config{NoResizeTLAB: !resize})
		h, tl := g.h, &g.h.Main().tlab
		initial := tl.desired
		g.roots.vals = make([]Value, 64)
		for i := 0; h.stats.gcCount < 12; i++ {
			// Some survivors, so the capacity after a collection varies.
			r := h.allocSlots(g.array, 4+i%7, Nil)
			if i%50 == 0 {
				g.roots.vals[i/50%64] = FromRef(r)
			}
		}
		p := &h.tlabPolicy
		if f := tl.allocFraction.avg; f < 0.95 || f > 1 {
			t.Errorf("resize=%v: allocation fraction %f, want about 1", resize, f)
		}
		if a := p.allocatingThreads.avg; a < 0.99 || a > 1.01 {
			t.Errorf("resize=%v: allocating threads %f, want 1", resize, a)
		}
		want := initial
		if resize {
			want = p.clamp(uintptr(tl.allocFraction.avg * float64(p.capacity) / float64(p.targetRefills)))
		}
		if tl.desired != want || tl.desired == 0 {
			t.Errorf("resize=%v: desired %d, want %d (initial %d, capacity %d)", resize, tl.desired, want, initial, p.capacity)
		}
		// A thread that starts now gets capacity / (1 x 50).
		m := mustNewMutator(h)
		if want := p.clamp(p.capacity / 50); m.tlab.desired != want {
			t.Errorf("resize=%v: new thread's desired size %d, want %d", resize, m.tlab.desired, want)
		}
		m.LeaveSafeRegion()
		m.Release()
	}
}

// Without TLABs (and under stress, which turns them off) every allocation
// CAS-bumps the shared top and no TLAB is ever carved.
func TestNoTLAB(t *testing.T) {
	for _, cfg := range []Config{{NoTLAB: true}, {StressInterval: 1000}} {
		g := tlabHeap(t, cfg)
		h, tl := g.h, &g.h.Main().tlab
		before := h.allocTop
		r := h.allocSlots(g.array, 4, Nil)
		if uintptr(r)<<3 != before || h.allocTop != before+slotsSize(4) || tl.end != 0 || tl.refills != 0 {
			t.Errorf("%+v: object at %#x (top was %#x), TLAB end %#x, %d refills", cfg, uintptr(r)<<3, before, tl.end, tl.refills)
		}
	}
}

// BenchmarkTLABAllocate measures the allocation fast path: a 4-element
// array (48 bytes) through the public allocator, and the bare bump plus a
// two-word filler header (so the space stays walkable), in a nursery that
// fits in L2 (4m) and one that does not (64m, where writing 48 fresh bytes
// per allocation costs as much as the path itself). Collections (nothing
// survives) and refills are amortised in. bumpOnly keeps reusing one TLAB
// without writing to it: the path's own cost.
func BenchmarkTLABAllocate(b *testing.B) {
	benchmarkAllocate(b, Config{})
}

// BenchmarkSharedTopAllocate is the same without TLABs: every allocation
// takes the slow path and a CAS on the shared allocate-space top
// (uncontended, except in the parallel case).
func BenchmarkSharedTopAllocate(b *testing.B) {
	benchmarkAllocate(b, Config{NoTLAB: true})
}

// allocate is the allocators' path without their initialisation: the
// TLAB bump, else the slow path.
func (m *Mutator) allocate(size uintptr) Ref {
	if r, ok := m.tlab.bump(size); ok {
		return r
	}
	return m.allocateSlow(size)
}

func benchmarkAllocate(b *testing.B, cfg Config) {
	cfg.MaxHeap, cfg.GCThreads = 256<<20, 1
	for _, nursery := range []uintptr{4 << 20, 64 << 20} {
		cfg.NurserySize = nursery
		b.Run(fmt.Sprintf("AllocSlots4/nursery=%dm", nursery>>20), func(b *testing.B) {
			g := newGraphHeap(b, cfg)
			m := g.h.Main()
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				m.AllocSlots(g.array, 4, Nil)
			}
		})
		b.Run(fmt.Sprintf("bump48/nursery=%dm", nursery>>20), func(b *testing.B) {
			g := newGraphHeap(b, cfg)
			h, m := g.h, g.h.Main()
			b.ResetTimer()
			for range b.N {
				r := m.allocate(48)
				*h.word(r, 0) = uint64(h.fillerN)
				*h.word(r, 1) = 48
			}
		})
	}
	cfg.NurserySize = 4 << 20
	if !cfg.NoTLAB {
		b.Run("bumpOnly", func(b *testing.B) {
			g := newGraphHeap(b, cfg)
			m := g.h.Main()
			m.allocate(48) // the first TLAB
			t := &m.tlab
			var sink Ref
			b.ResetTimer()
			for range b.N {
				sink += m.allocate(48)
				if t.end-t.top < 4096 {
					t.top = t.start // never refill: the same chunk again
				}
			}
			b.StopTimer()
			t.top = t.end - 4096
			m.retireTLAB() // leave the heap walkable
			_ = sink
		})
	}
	for _, nursery := range []uintptr{4 << 20, 64 << 20} {
		cfg.NurserySize = nursery
		b.Run(fmt.Sprintf("parallel/AllocSlots4/nursery=%dm", nursery>>20), func(b *testing.B) {
			g := newGraphHeap(b, cfg)
			h := g.h
			// Each benchmark goroutine registers a mutator of its own; the
			// main mutator waits in a safe region.
			h.Main().EnterSafeRegion()
			defer h.Main().LeaveSafeRegion()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				m := mustNewMutator(h)
				m.LeaveSafeRegion()
				defer m.Release()
				for pb.Next() {
					if m.pollNeeded() {
						m.Park()
					}
					m.AllocSlots(g.array, 4, Nil)
				}
			})
		})
	}
}

// The world restarts before allocMu is released (stopped is true only
// under it): a thread that takes allocMu right after a collection must
// never find the world still stopped, or the stop it starts is cancelled
// by the previous holder's restart.
func TestWorldRestartsBeforeAllocUnlock(t *testing.T) {
	g := tlabHeap(t, Config{Verify: false})
	h := g.h
	var stillStopped, acquired int
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for {
			select {
			case <-done:
				return
			default:
			}
			h.allocMu.Lock()
			h.sp.mu.Lock()
			if h.sp.stopped {
				stillStopped++
			}
			acquired++
			h.sp.mu.Unlock()
			h.allocMu.Unlock()
		}
	}()
	for h.stats.gcCount < 200 {
		h.allocSlots(g.array, 30, Nil) // garbage: a collection every 2000 or so
	}
	close(done)
	<-finished
	if stillStopped > 0 {
		t.Fatalf("allocMu was taken %d times (of %d) with the world still stopped", stillStopped, acquired)
	}
}
