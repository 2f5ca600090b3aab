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
// Tenure grows upward from the bottom; its committed part grows on demand.
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
// survived Config.TenureAge collections; survivor overflow goes to tenure
// and vice versa. The steps are in nursery.go. The collectors share
// forwarding, tenuring and copy destinations (copy.go, copyspace.go), roots,
// the remembered set, clearable tables and statistics; they differ only in
// traversal: the scavenger (scavenger.go, breadth-first or hierarchical)
// and the evacuator (evacuator.go, depth-first on a stack of frames).
//
// # Global collection
//
// Mark everything, then slide live tenure objects down, followed by the live
// nursery objects when they fit, so promotion stays a pointer bump
// (global.go). It runs when tenure cannot absorb the worst-case promotion of
// the next nursery collection (the whole allocate space), when allocation
// fails after a nursery collection, and on gc(). When live data does not fit,
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
// # Callers
//
// interp creates one Heap per VM with New, passing itself as the
// RootSource, and uses the heap's main Mutator for its first thread and a
// NewMutator for each further one. A Ref must not be held across an
// allocation, a poll or a safe region outside a root: each may collect and
// move objects.
package gc
