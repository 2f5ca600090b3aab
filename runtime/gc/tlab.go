package gc

// TLAB is a thread-local allocation buffer: a chunk of the allocate space
// owned by one mutator thread, which allocates from it by bumping top
// without synchronisation. When it is exhausted the thread retires it
// (the unused tail becomes a filler object so the space stays walkable)
// and carves a new one.
type TLAB struct {
	top, end uintptr // byte offsets from the heap base

	refills int     // chunks carved since the last collection
	wasted  uintptr // bytes left unused in retired chunks
}

// tlabSize is the size of each chunk carved from the allocate space. The
// adaptive policy (HotSpot's) comes with multi-threaded mutators.
const tlabSize = 64 << 10
