package interp

import "minivm/runtime/gc"

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
// hits counts the field loads through slot for meta since the hot-field
// profiler last credited them (hotfields.go): the fast paths increment it
// on every hit, the slow paths when they load an inline field. Before a
// cache changes meta or slot the hits are credited to the old class
// (fillIC).
type inlineCache struct {
	name   int32  // name id
	meta   uint32 // ClassMeta of the cached receiver class; 0 = empty
	slot   int32  // word index of the inline field slot, or 0
	method int32  // method index, or -1
	hits   uint64 // field loads through slot (hot-field profile)
}

// fillIC refills ic for the receiver class rec, crediting the hits counted
// for the class it named before.
func (vm *VM) fillIC(ic *inlineCache, rec *classRec) {
	if ic.hits != 0 {
		vm.creditIC(ic)
	}
	ic.fill(rec)
}

func (ic *inlineCache) fill(rec *classRec) {
	ic.meta = uint32(rec.meta)
	ic.slot = rec.slotOf[ic.name] // 0 when absent
	ic.method = -1
	if m, ok := rec.methods[ic.name]; ok {
		ic.method = m
	}
}

// getProperty replaces the object on top of the stack with its property
// ic.name: a field, else a method bound to the object.
func (vm *VM) getProperty(ic *inlineCache) error {
	h := vm.heap
	v := vm.stack[vm.sp-1]
	if !vm.isKind(v, kInstance) {
		return vm.runtimeError("Only instances have properties.")
	}
	r := v.AsRef()
	rec := vm.classes[h.MetaOf(r).Tag()]
	vm.fillIC(ic, rec)
	if f, ok := vm.getField(rec, r, ic.name); ok {
		vm.countSlowRead(ic, rec, f)
		vm.stack[vm.sp-1] = f
		return nil
	}
	if ic.method >= 0 {
		vm.bindMethod(ic.method, -1)
		return nil
	}
	return vm.runtimeError("Undefined property '%s'.", vm.names[ic.name])
}

// setProperty stores the value on top of the stack into field ic.name of
// the object below it, leaving the value.
func (vm *VM) setProperty(ic *inlineCache) error {
	h := vm.heap
	v := vm.stack[vm.sp-2]
	if !vm.isKind(v, kInstance) {
		return vm.runtimeError("Only instances have fields.")
	}
	rec := vm.classes[h.MetaOf(v.AsRef()).Tag()]
	vm.fillIC(ic, rec)
	vm.setField(rec, ic.name)
	vm.stack[vm.sp-2] = vm.stack[vm.sp-1]
	vm.sp--
	return nil
}

// invoke resolves recv.name(...) for the receiver at stack[sp-1-argc]: a
// field holding a callable replaces the receiver slot (as clox does);
// otherwise the method closure is returned for a call with the receiver
// as slot 0.
func (vm *VM) invoke(ic *inlineCache, argc int) (gc.Value, int, error) {
	h := vm.heap
	slot := vm.sp - 1 - argc
	v := vm.stack[slot]
	if !vm.isKind(v, kInstance) {
		return 0, 0, vm.runtimeError("Only instances have methods.")
	}
	r := v.AsRef()
	rec := vm.classes[h.MetaOf(r).Tag()]
	vm.fillIC(ic, rec)
	if f, ok := vm.getField(rec, r, ic.name); ok {
		vm.countSlowRead(ic, rec, f)
		vm.stack[slot] = f
		return f, argc, nil
	}
	if ic.method >= 0 {
		return vm.method(vm.instanceClass(r), ic.method), argc, nil
	}
	return 0, 0, vm.runtimeError("Undefined property '%s'.", vm.names[ic.name])
}

// superMethod finds method ic.name in the superclass sup, through the
// cache keyed by the superclass's instance ClassMeta.
func (vm *VM) superMethod(ic *inlineCache, sup gc.Ref) (int32, error) {
	rec := vm.classOf(sup)
	if rec.meta != 0 && uint32(rec.meta) == ic.meta {
		return ic.method, nil
	}
	m, ok := rec.methods[ic.name]
	if !ok {
		return 0, vm.runtimeError("Undefined property '%s'.", vm.names[ic.name])
	}
	if rec.meta != 0 {
		ic.meta, ic.slot, ic.method = uint32(rec.meta), 0, m
	}
	return m, nil
}

// superInvoke resolves super.name(...) with `this args... super` on the
// stack: it pops the superclass and returns its method and argc.
func (vm *VM) superInvoke(ic *inlineCache, argc int) (gc.Value, int, error) {
	sup := vm.stack[vm.sp-1].AsRef()
	m, err := vm.superMethod(ic, sup)
	if err != nil {
		return 0, 0, err
	}
	vm.sp--
	return vm.method(sup, m), argc, nil
}
