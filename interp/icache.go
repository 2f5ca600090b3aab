package interp

import (
	"sync/atomic"

	"minivm/runtime/gc"
)

// Inline caches.
//
// Every GET_PROPERTY, GET_LOCAL_PROPERTY, SET_PROPERTY, INVOKE, GET_SUPER
// and SUPER_INVOKE site owns one inlineCache in its prototype. The cache is
// monomorphic: it remembers the instance ClassMeta of the last receiver
// (for the super forms, the superclass's instance ClassMeta) and what the
// name resolved to in that class:
//
//   - slot: the word index of the name's inline field slot, or 0 when the
//     class gives the name no inline slot (then the field, if any, is in the
//     instance's overflow table);
//   - method: the index of the method of that name in the class's Methods
//     object, or -1.
//
// The fast path in the dispatch loop compares the low half of the
// receiver's header (its ClassMeta address) with meta: a hit proves the
// receiver is an instance of that class, so the slot or method index is
// valid for it. An inline slot holding Undefined means the field is unset
// (fields with an inline slot never live in the overflow table), so the
// lookup falls back to the method. Misses go to the slow paths below,
// which do the full lookup through the Go-side class record and refill
// the cache.
//
// A ClassMeta address may be reused after its class is unloaded, so
// unloadClass clears every cache that names it.
//
// The cached triple is one 64-bit word (icEntry), read and written whole
// and atomically (load, store): threads share the caches, the fast paths
// read them without the lock, and a torn meta/slot pair could send a store
// outside its object. A class whose method index does not fit is not
// cached (its sites always take the slow path).
//
// hits counts the field loads through slot for meta since the hot-field
// profiler last credited them (hotfields.go): the fast paths increment it
// on every hit, the slow paths when they load an inline field. Before a
// cache changes meta or slot the hits are credited to the old class
// (fillIC). Once the program has more than one thread, the increments are
// atomic (countHit): until then a plain increment is enough and cheaper.
type inlineCache struct {
	name  int32   // name id
	entry icEntry // the cached class and what name resolves to in it (load, store)
	hits  uint64  // field loads through the slot (hot-field profile; countHit)
}

func (ic *inlineCache) load() icEntry { return icEntry(atomic.LoadUint64((*uint64)(&ic.entry))) }
func (ic *inlineCache) store(e icEntry) {
	atomic.StoreUint64((*uint64)(&ic.entry), uint64(e))
}

// countHit counts one field load through ic's slot.
func (vm *VM) countHit(ic *inlineCache) {
	if vm.threaded {
		atomic.AddUint64(&ic.hits, 1)
	} else {
		ic.hits++
	}
}

// The fast paths of the dispatch loop share two helpers, small enough to
// be inlined there. icMatch is the cache check: ic's entry, and whether v
// is an instance of the class it names. icField loads the inline field
// the entry names from such an instance, counting the hit; Undefined
// means unset.
func icMatch(h *gc.Heap, ic *inlineCache, v gc.Value) (icEntry, bool) {
	e := ic.load()
	return e, v.IsRef() && uint32(h.Header(v.AsRef())) == e.meta()
}

func (vm *VM) icField(h *gc.Heap, ic *inlineCache, e icEntry, v gc.Value) gc.Value {
	vm.countHit(ic)
	return h.Load(v.AsRef(), e.slot())
}

// icEntry packs meta (bits 0-31: ClassMeta of the cached receiver class,
// 0 = empty), slot (bits 32-47: word index of the inline field slot, or
// 0) and method + 1 (bits 48-63: 0 = no method).
type icEntry uint64

func makeICEntry(meta uint32, slot, method int32) icEntry {
	return icEntry(meta) | icEntry(uint16(slot))<<32 | icEntry(uint16(method+1))<<48
}

func (e icEntry) meta() uint32  { return uint32(e) }
func (e icEntry) slot() int     { return int(uint16(e >> 32)) }
func (e icEntry) method() int32 { return int32(uint16(e>>48)) - 1 }

// maxICMethod is the largest method index an entry holds.
const maxICMethod = 1<<16 - 2

// fillIC refills ic for the receiver class rec, crediting the hits counted
// for the class it named before, and returns the method the name resolves
// to (-1 for none).
func (vm *VM) fillIC(ic *inlineCache, rec *classRec) (method int32) {
	if atomic.LoadUint64(&ic.hits) != 0 {
		vm.creditIC(ic)
	}
	method = -1
	if m, ok := rec.methods[ic.name]; ok {
		method = m
	}
	e := icEntry(0)
	if method <= maxICMethod {
		e = makeICEntry(uint32(rec.meta), rec.slotOf[ic.name], method) // slot 0 when absent
	}
	ic.store(e)
	return method
}

// lookup refills ic for instance r and looks its name up: the field's
// value if r has it set, and the method of that name (-1 for none).
func (vm *VM) lookup(ic *inlineCache, r gc.Ref) (f gc.Value, found bool, method int32) {
	rec := vm.classes.get(vm.heap.MetaOf(r).Tag())
	method = vm.fillIC(ic, rec)
	if f, found = vm.getField(rec, r, ic.name); found {
		vm.countSlowRead(ic, rec, f)
	}
	return f, found, method
}

// getProperty replaces the object at stack[slot] with its property
// ic.name: a field, else a method bound to the object.
func (vm *VM) getProperty(ic *inlineCache, slot int) error {
	vm.lockTables()
	defer vm.tablesMu.Unlock()
	v := vm.stack[slot]
	if !vm.isKind(v, kInstance) {
		return vm.runtimeError("Only instances have properties.")
	}
	f, found, method := vm.lookup(ic, v.AsRef())
	if found {
		vm.stack[slot] = f
		return nil
	}
	if method >= 0 {
		vm.bindMethod(method, slot, -1)
		return nil
	}
	return vm.runtimeError("Undefined property '%s'.", vm.names[ic.name])
}

// setProperty stores the value at stack[obj+1], the top, into field
// ic.name of the object at stack[obj], leaving the value at stack[obj],
// and sets the stack height to sp (obj+1, or obj to pop the value too).
func (vm *VM) setProperty(ic *inlineCache, obj, sp int) error {
	vm.lockTables()
	defer vm.tablesMu.Unlock()
	h := vm.heap
	v := vm.stack[obj]
	if !vm.isKind(v, kInstance) {
		return vm.runtimeError("Only instances have fields.")
	}
	rec := vm.classes.get(h.MetaOf(v.AsRef()).Tag())
	vm.fillIC(ic, rec)
	vm.setField(rec, ic.name, obj)
	vm.stack[obj] = vm.stack[obj+1]
	vm.sp = sp
	return nil
}

// invoke resolves recv.name(...) for the receiver at stack[slot], below
// its arguments: a field holding a callable replaces the receiver (as
// clox does); otherwise the method closure is returned for a call with
// the receiver as slot 0.
func (vm *VM) invoke(ic *inlineCache, slot, argc int) (gc.Value, int, error) {
	vm.lockTables()
	defer vm.tablesMu.Unlock()
	v := vm.stack[slot]
	if !vm.isKind(v, kInstance) {
		return 0, 0, vm.runtimeError("Only instances have methods.")
	}
	r := v.AsRef()
	f, found, method := vm.lookup(ic, r)
	if found {
		vm.stack[slot] = f
		return f, argc, nil
	}
	if method >= 0 {
		return vm.method(vm.instanceClass(r), method), argc, nil
	}
	return 0, 0, vm.runtimeError("Undefined property '%s'.", vm.names[ic.name])
}

// superMethod finds method ic.name in the superclass sup, through the
// cache keyed by the superclass's instance ClassMeta.
func (vm *VM) superMethod(ic *inlineCache, sup gc.Ref) (int32, error) {
	rec := vm.classOf(sup)
	if e := ic.load(); rec.meta != 0 && uint32(rec.meta) == e.meta() {
		return e.method(), nil
	}
	m, ok := rec.methods[ic.name]
	if !ok {
		return 0, vm.runtimeError("Undefined property '%s'.", vm.names[ic.name])
	}
	if rec.meta != 0 && m <= maxICMethod {
		ic.store(makeICEntry(uint32(rec.meta), 0, m))
	}
	return m, nil
}

// superInvoke resolves super.name(...) with `this args... super` on the
// stack, the superclass at stack[slot], the top: it pops the superclass
// and returns its method and argc.
func (vm *VM) superInvoke(ic *inlineCache, slot, argc int) (gc.Value, int, error) {
	vm.lockTables()
	defer vm.tablesMu.Unlock()
	sup := vm.stack[slot].AsRef()
	m, err := vm.superMethod(ic, sup)
	if err != nil {
		return 0, 0, err
	}
	vm.sp = slot
	return vm.method(sup, m), argc, nil
}
