package interp

import (
	"sync/atomic"

	"minivm/runtime/gc"
)

// classTable maps class table indexes (ClassMeta tags) to class records.
// Threads read it without a lock, so it never moves: a fixed directory of
// chunks, each allocated once and never freed. Writers hold tablesMu, or
// run with the world stopped (class unloading).
type classTable struct {
	chunks [classChunks]atomic.Pointer[[classChunk]*classRec]
	n      uint32   // indexes handed out so far
	free   []uint32 // indexes of unloaded classes, reused first
}

const (
	classChunk  = 1 << 10
	classChunks = 1 << 14 // 16M classes alive at once
)

// get returns the record at index i, or nil.
func (t *classTable) get(i uint32) *classRec {
	c := t.chunks[i/classChunk].Load()
	if c == nil {
		return nil
	}
	return c[i%classChunk]
}

// add stores rec at a free index and returns the index.
func (t *classTable) add(rec *classRec) uint32 {
	var i uint32
	if n := len(t.free); n > 0 {
		i = t.free[n-1]
		t.free = t.free[:n-1]
	} else {
		if t.n == classChunk*classChunks {
			panic(&gc.OutOfMemoryError{Msg: "too many classes"})
		}
		i = t.n
		t.n++
	}
	c := t.chunks[i/classChunk].Load()
	if c == nil {
		c = new([classChunk]*classRec)
		t.chunks[i/classChunk].Store(c)
	}
	c[i%classChunk] = rec
	return i
}

// remove frees index i and returns the record it held.
func (t *classTable) remove(i uint32) *classRec {
	rec := t.get(i)
	if rec != nil {
		t.chunks[i/classChunk].Load()[i%classChunk] = nil
		t.free = append(t.free, i)
	}
	return rec
}

// each calls f for every record.
func (t *classTable) each(f func(*classRec)) {
	for i := uint32(0); i < t.n; i++ {
		if rec := t.get(i); rec != nil {
			f(rec)
		}
	}
}
