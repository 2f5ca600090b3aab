// Package mem is minivm's interface to operating-system memory: reserving
// address space, committing and decommitting it, and placing memory below
// 4 GB for class metadata (compressed class pointers).
//
// Invariants: memory returned here is never seen by Go's garbage collector
// and never holds Go pointers. Addresses are handed out as uintptr; the only
// conversion back to unsafe.Pointer is At, in ptr.go.
//
// Callers: runtime/gc (the heap reservation and the ClassMeta arena).
package mem
