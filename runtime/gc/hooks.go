package gc

// Hooks are the client's callbacks into collections, embedded in Heap.
type Hooks struct {
	// BeforeCollection, when set, runs at the start of every collection
	// (nursery or global), before anything is copied or moved. The
	// hot-field profiler uses it to fold its counts into ClassMeta scan
	// orders (Meta.SetScanOrder, Meta.SetHotSlot), which may only change
	// while no collection runs. It must not allocate in the heap.
	BeforeCollection func()
}

// beforeCollection runs the BeforeCollection hook.
func (h *Heap) beforeCollection() {
	if h.BeforeCollection != nil {
		h.BeforeCollection()
	}
}
