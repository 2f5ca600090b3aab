package gc

// Cause says why a collection ran; it appears in the GC log.
type Cause string

const (
	CauseAllocationFailure Cause = "Allocation Failure"
	CauseSystemGC          Cause = "System.gc()"
	CauseStress            Cause = "Stress"
)

// remember adds a tenured object to the remembered set.
func (h *Heap) remember(r Ref) {
	p := h.word(r, 0)
	if *p&hdrRemembered != 0 {
		return
	}
	*p |= hdrRemembered
	h.remembered = append(h.remembered, r)
}

// Collect runs a full collection (the gc() native).
func (h *Heap) Collect() { h.collectGlobal(CauseSystemGC) }
