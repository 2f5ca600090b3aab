package gc

// Shorthands for single-threaded tests: allocate as the heap's main
// mutator.

func (h *Heap) allocFixed(m Meta, fill Value) Ref        { return h.main.AllocFixed(m, fill) }
func (h *Heap) allocSlots(m Meta, n int, fill Value) Ref { return h.main.AllocSlots(m, n, fill) }
func (h *Heap) allocBytes(m Meta, n int) Ref             { return h.main.AllocBytes(m, n) }

// mutatorCount returns the number of registered mutator threads.
func (h *Heap) mutatorCount() int {
	h.sp.mu.Lock()
	defer h.sp.mu.Unlock()
	return len(h.sp.mutators)
}
