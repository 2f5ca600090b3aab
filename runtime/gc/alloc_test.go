package gc

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// mustNewMutator registers a mutator for a test that stays far below
// Config.MaxLiveThreads.
func mustNewMutator(h *Heap) *Mutator {
	m, err := h.NewMutator()
	if err != nil {
		panic(err)
	}
	return m
}

// Several mutators share a tiny nursery while one of them keeps
// everything it allocates: its young list fills the survivor space, so a
// nursery collection frees little, and the churning threads refill the
// nursery the moment the world restarts. A thread whose allocation failed
// must not give up because others took the room its collection made: it
// allocates before the world restarts, and only a global collection that
// truly leaves no room is an OutOfMemoryError. Live data stays under a
// quarter of the heap, so any OutOfMemoryError here is spurious.
func TestNoSpuriousOutOfMemoryWithManyMutators(t *testing.T) {
	const churners = 15
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"tlab", Config{}},
		{"noTLAB", Config{NoTLAB: true}},
		{"recursive", Config{Collector: Recursive, GCThreads: 2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			for round := range 4 {
				cfg := c.cfg
				cfg.MaxHeap, cfg.NurserySize = 32<<20, MinNursery
				mh := newMutatorHeap(t, cfg, 1+churners)
				if msgs := runAllocators(mh, churners, 20_000); len(msgs) > 0 {
					t.Fatalf("round %d: %s", round, strings.Join(msgs, "; "))
				}
			}
		})
	}
}

// runAllocators runs worker 0, which keeps iters nodes on its list, and
// churners workers that allocate garbage, each on its own mutator, and
// returns their failures (OutOfMemoryErrors included).
func runAllocators(mh *mutatorHeap, churners, iters int) []string {
	h := mh.h
	h.Main().EnterSafeRegion()
	defer h.Main().LeaveSafeRegion()
	var wg sync.WaitGroup
	failures := make(chan string, 1+churners)
	for id := range 1 + churners {
		m := mustNewMutator(h)
		wg.Add(1)
		go func() {
			defer wg.Done()
			m.LeaveSafeRegion()
			defer m.Release()
			defer func() {
				if r := recover(); r != nil {
					failures <- fmt.Sprintf("worker %d: %v", id, r)
				}
			}()
			keepEvery := 1
			if id > 0 {
				keepEvery = iters // garbage only
			}
			if msg := mh.work(m, id, iters, keepEvery); msg != "" {
				failures <- msg
			}
		}()
	}
	wg.Wait()
	close(failures)
	var msgs []string
	for msg := range failures {
		msgs = append(msgs, msg)
	}
	return msgs
}

// NewMutator refuses a mutator beyond Config.MaxLiveThreads (the main
// one included) with HotSpot's "unable to create native thread",
// naming the option; a released mutator makes room again.
func TestMaxLiveThreads(t *testing.T) {
	g := newGraphHeap(t, Config{MaxLiveThreads: 3})
	h := g.h
	a, b := mustNewMutator(h), mustNewMutator(h)
	m, err := h.NewMutator()
	const want = "OutOfMemoryError: unable to create native thread: 3 live threads (-XX:MaxLiveThreads=3)"
	if _, ok := err.(*OutOfMemoryError); m != nil || !ok || err.Error() != want {
		t.Fatalf("fourth mutator: %v, %v; want nil, %q", m, err, want)
	}
	a.LeaveSafeRegion()
	a.Release()
	c, err := h.NewMutator()
	if err != nil {
		t.Fatalf("after a release: %v", err)
	}
	for _, m := range []*Mutator{b, c} {
		m.LeaveSafeRegion()
		m.Release()
	}
	if _, err := New(Config{MaxLiveThreads: -1}, g.roots); err == nil {
		t.Fatal("MaxLiveThreads -1 accepted")
	}
}
