// Package gc is minivm's heap: object layout, allocation, the write barrier
// and remembered set, the nursery collectors, the global collector,
// verification and GC statistics. Nothing here knows the Lox language; the
// interpreter describes its objects with ClassMeta records and reaches the
// heap only through the accessors in access.go and the allocators of its
// mutator threads (mutator.go).
//
// # Heap layout
//
// One reservation of -Xmx bytes, addressed by 32-bit compressed references
// ((address - base) >> 3, so up to 32 GB):
//
//	[ guard | tenure ->            ...           | semispace A | semispace B ]
//
// Tenure grows upward from the bottom; its committed part grows on demand
// and is resized after each global collection (sizing.go).
// The nursery (-Xmn) is two equal semispaces at the top: the allocate space,
// where mutators bump-allocate from TLABs, and the survivor space, empty
// between collections. Objects of at least Config.LargeObjectSize bytes are
// allocated directly in tenure. ClassMeta records live below 4 GB (see
// runtime/mem) so that a header can hold one in 32 bits.
//
// # Mutator threads
//
// Each mutator thread allocates through its own Mutator: a TLAB bump
// (inlined into the allocators), HotSpot's adaptive TLAB sizing and slow
// path (tlab.go, tlabstats.go), and CAS on the shared allocate-space top
// for refills and allocations outside TLABs (alloc.go). Collections stop
// the world (safepoint.go): the collecting thread holds allocMu, the lock
// that serialises collections and tenure allocation, and waits until every
// other mutator has parked at a poll or is in a safe region.
//
// # Barrier and remembered set
//
// Every store of a value into a heap object goes through Heap.Store. When a
// tenured object comes to hold a nursery reference, the barrier sets its
// remembered bit (by CAS, so that racing barriers append it once) and
// appends it to the remembered set, whose objects are
// roots of the next nursery collection. A collection prunes the set to the
// objects that still refer into the nursery. An object's ClassMeta may name
// a class object (ClassMeta.ClassObject); that reference is treated like a
// slot of every object of the class.
//
// # Nursery collection
//
// Stop the world, then copy everything reachable in the
// allocate space to the survivor space, or to tenure once an object has
// survived the tenure age's collections (adaptive, from the last
// collection's age table, or fixed: tenure.go); survivor overflow goes to
// tenure and vice versa. The steps are in nursery.go. The collectors share
// roots, the remembered set, forwarding and tenuring, copy destinations
// and their whitespace policy, the slot iterator, the worker scheduler,
// clearable tables and statistics; they differ only in traversal: the
// scavenger (breadth-first or hierarchical) and the evacuator (depth-first
// on a stack of frames). A traversal is one file and one case in
// newTraversal; it copies only through worker.forwardTo, handing it a
// destination (a copyspace per region) whose whitespace comes from the
// worker's whitespace supply, so two collectors given one configuration
// carve the same chunk sizes.
//
// # Global collection
//
// Mark everything, in parallel on the GC workers (mark.go), then slide live
// tenure objects down, followed by the live nursery objects when they fit,
// so promotion stays a pointer bump (global.go). It runs when tenure cannot absorb the worst-case promotion of
// the next nursery collection (the whole allocate space) within -Xmx, when
// allocation fails after nursery collections (one that tenures every
// survivor follows one whose survivors fill the allocate space, while
// tenure can take them), and on gc(). Afterwards committed tenure moves
// toward -XX:MinHeapFreeRatio / -XX:MaxHeapFreeRatio (sizing.go). When live data does not fit,
// allocation panics with *OutOfMemoryError, which the interpreter reports as
// a Lox runtime error.
//
// # Invariants (checked by -Xcheck:gc, verify.go)
//
//   - Tenure [tenureLo, tenureTop) and the allocate space [allocLo, allocTop)
//     are walkable: objects back to back, holes are filler objects.
//   - Every header names a live ClassMeta below 4 GB; no header is forwarded
//     or marked outside a collection.
//   - Every reference (roots, slots, class objects) points at an object
//     start in tenure or the allocate space; none points into the survivor
//     space between collections.
//   - Every tenured object holding a nursery reference is remembered.
//
// # Files
//
// Each file owns one mechanism and the state it keeps:
//
//	heap.go, config.go      the reservation, its layout, options and defaults
//	object.go, meta.go      object layout and sizes; ClassMeta records
//	access.go, value.go     the mutator's accessors and write barrier; values
//	mutator.go, alloc.go    mutator threads and allocation, the slow path
//	tlab.go, tlabstats.go   TLAB sizing (HotSpot's policy) and its figures
//	safepoint.go            stopping the world
//	collect.go, hooks.go    collection causes; client callbacks
//	slots.go                the slot iterator and array segments
//	nursery.go              the steps of a nursery collection, the traversal interface
//	tenure.go               the age table and adaptive tenuring
//	worker.go               a GC worker's shared state (supply, stats, remembered)
//	forward.go              forwarding, tenuring, the copy routine (forwardTo)
//	copyspace.go            regions, copyspaces and whitelists, with their verify
//	whitespace.go           the whitespace supply: carving, chunk policy, remainders
//	scheduler.go, warmup.go the GC threads: running, stalling, waking, warm-up
//	scavenger.go, scanlist.go   the scavenger and its shared scan list
//	evacuator.go, evacuator_steal.go, worklist.go   the evacuator, its work sharing
//	global.go, livemap.go   the global collector (compact) and its bitmaps
//	mark.go                 its marking: orders, parallel markers, shared work
//	sizing.go               tenure's expansion and its resizing after a global collection
//	verify.go               -Xcheck:gc
//	stats.go, log.go, heaplog.go, metadata_log.go   statistics and their
//	                        output: JSON Lines and unified-logging lines, by tag
//	                        set and level (package xlog: -Xlog's grammar)
//	phases.go               phase times: [gc,phases] lines, the stats' phases
//	trace.go                -Xgc:traceFile: per-thread trace buffers, Trace Event JSON
//	stats_on.go, stats_off.go   the gcnostats build tag (measuring what stats cost)
//
// The collectors stay in one package: they share unexported object and
// header helpers and the Heap's layout fields on every copy, and a package
// boundary would either export those or cost a call per object.
//
// # Callers
//
// interp creates one Heap per VM with New, passing itself as the
// RootSource, and uses the heap's main Mutator for its first thread and a
// NewMutator for each further one. A Ref must not be held across an
// allocation, a poll or a safe region outside a root: each may collect and
// move objects.
package gc
