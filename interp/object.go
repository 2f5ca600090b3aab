package interp

import (
	"bytes"
	"fmt"

	"minivm/runtime/gc"
)

// Object layouts. Every Lox object is a gc heap object; its header carries
// a kind byte (below) so that dispatch is one load. Word 0 is the header;
// "slot" means a value slot the collector scans, "raw" a word it ignores.
//
//	kind        layout          words after the header
//	String      LayoutBytes     w1 raw: length (bits 0-31) | FNV-1a hash (bits 32-63); bytes
//	Array       LayoutSlots     w1 raw: length; w2.. slots: elements
//	Instance    LayoutFixed     w1 slot: overflow fields (Undefined or a Fields object);
//	            (one ClassMeta  w2.. slots: inline fields in the class's layout order,
//	            per Lox class)  Undefined while unset
//	Class       LayoutFixed     w1 raw: class table index; w2 slot: name (String);
//	                            w3 slot: methods (Methods object)
//	Closure     LayoutSlots     w1 raw: upvalue count (bits 0-31) | prototype index
//	                            (bits 32-63); w2.. slots: Upvalue objects
//	Upvalue     LayoutFixed     w1 raw: while open, owner thread id (bits 32-63) |
//	                            stack index + 1 (bits 0-31); 0 once closed;
//	                            w2 slot: the closed-over value once closed
//	BoundMethod LayoutFixed     w1 slot: receiver; w2 slot: method closure
//	Native      LayoutFixed     w1 raw: native function index
//	Fields      LayoutSlots     w1 raw: 2*capacity | used count (bits 32-63);
//	                            slots: (key, value) pairs of an open-addressing
//	                            table; key = Number(name id), Undefined = empty
//	Methods     LayoutSlots     w1 raw: capacity; slots: method closures, indexed
//	                            by the class record's method table
//	Thread      LayoutFixed     w1 raw: thread id (threads.go)
//
// An instance's ClassMeta is created per Lox class with NewClassMeta, owned
// by the class object: the class stays alive while any instance does, and
// when the class object dies the heap unloads the ClassMeta and calls
// unloadClass with its tag, the class table index.
const (
	kString uint8 = iota + 1
	kArray
	kInstance
	kClass
	kClosure
	kUpvalue
	kBound
	kNative
	kFields
	kMethods
	kThread
)

// Word indexes of the fixed layouts.
const (
	instOverflow  = 1
	instFirstSlot = 2

	classIndexWord   = 1
	classNameWord    = 2
	classMethodsWord = 3

	upvalueStateWord = 1
	upvalueValueWord = 2

	boundReceiverWord = 1
	boundMethodWord   = 2

	nativeIndexWord = 1

	threadIDWord = 1

	slotsFirst = 2 // first element of a LayoutSlots object
)

// maxInlineFields bounds the inline slots of an instance; further fields
// named in the class body go to the overflow table.
const maxInlineFields = 1024

// metas are the ClassMetas of the built-in kinds (not owned by any class).
type metas struct {
	str, array, class, closure, upvalue, bound, native, fields, methods, thread gc.Meta
}

func (vm *VM) initMetas() error {
	specs := []struct {
		m    *gc.Meta
		spec gc.MetaSpec
	}{
		{&vm.m.str, gc.MetaSpec{Layout: gc.LayoutBytes, Kind: kString}},
		{&vm.m.array, gc.MetaSpec{Layout: gc.LayoutSlots, Kind: kArray}},
		{&vm.m.class, gc.MetaSpec{Layout: gc.LayoutFixed, Kind: kClass, PrefixWords: 1, NumSlots: 2}},
		{&vm.m.closure, gc.MetaSpec{Layout: gc.LayoutSlots, Kind: kClosure}},
		{&vm.m.upvalue, gc.MetaSpec{Layout: gc.LayoutFixed, Kind: kUpvalue, PrefixWords: 1, NumSlots: 1}},
		{&vm.m.bound, gc.MetaSpec{Layout: gc.LayoutFixed, Kind: kBound, NumSlots: 2}},
		{&vm.m.native, gc.MetaSpec{Layout: gc.LayoutFixed, Kind: kNative, PrefixWords: 1}},
		{&vm.m.fields, gc.MetaSpec{Layout: gc.LayoutSlots, Kind: kFields}},
		{&vm.m.methods, gc.MetaSpec{Layout: gc.LayoutSlots, Kind: kMethods}},
		{&vm.m.thread, gc.MetaSpec{Layout: gc.LayoutFixed, Kind: kThread, PrefixWords: 1}},
	}
	for _, s := range specs {
		m, err := vm.heap.NewMeta(s.spec)
		if err != nil {
			return err
		}
		*s.m = m
	}
	return nil
}

// ---- Go-side tables ----

// classRec is the Go-side record of a Lox class, indexed by the class
// object's class table index (also its instance ClassMeta's tag). It holds
// names and indexes only; the method closures live in the class's Methods
// object.
type classRec struct {
	desc      *classDesc
	meta      gc.Meta         // instance ClassMeta; 0 until the layout is final
	inherited []int32         // inline fields of the superclass, in its order
	fields    []int32         // inline fields: field i lives in word instFirstSlot+i
	slotOf    map[int32]int32 // name id -> word index of its inline slot
	methods   map[int32]int32 // name id -> index in the Methods object
	nMethods  int
	init      int32 // method index of "init", or -1

	// Hot-field profile (hotfields.go): profField maps inline field i to
	// its index in desc.prof; profVersion is the profile version last
	// applied to meta.
	profField   []int
	profVersion uint64
}

func (vm *VM) nameID(s string) int32 {
	if id, ok := vm.nameIdx[s]; ok {
		return id
	}
	id := int32(len(vm.names))
	vm.names = append(vm.names, s)
	vm.nameIdx[s] = id
	return id
}

func (vm *VM) globalID(s string) int {
	if id, ok := vm.globalIdx[s]; ok {
		return id
	}
	id := len(vm.globals)
	vm.globals = append(vm.globals, gc.Undefined)
	vm.globalNames = append(vm.globalNames, s)
	vm.globalIdx[s] = id
	return id
}

func (vm *VM) newClassRec(d *classDesc) uint32 {
	return vm.classes.add(&classRec{desc: d, methods: map[int32]int32{}, init: -1})
}

// classOf returns the record of a class object.
func (vm *VM) classOf(cls gc.Ref) *classRec {
	return vm.classes.get(uint32(vm.heap.RawWord(cls, classIndexWord)))
}

// ensureLayout finalizes the instance layout of a class: the superclass's
// inline fields first (so a subclass instance is a prefix-extension of its
// superclass's layout), then the fields this class's methods assign.
func (vm *VM) ensureLayout(rec *classRec, cls gc.Ref) gc.Meta {
	if rec.meta != 0 {
		return rec.meta
	}
	// Other threads read slotOf without the lock once meta is set: build
	// it completely before publishing it.
	slotOf := make(map[int32]int32, len(rec.inherited)+len(rec.desc.fields))
	add := func(name int32) {
		if _, ok := slotOf[name]; ok || len(rec.fields) >= maxInlineFields {
			return
		}
		slotOf[name] = int32(instFirstSlot + len(rec.fields))
		rec.fields = append(rec.fields, name)
	}
	for _, f := range rec.inherited {
		add(f)
	}
	for _, f := range rec.desc.fields {
		add(f)
	}
	idx := uint32(vm.heap.RawWord(cls, classIndexWord))
	m, err := vm.heap.NewClassMeta(gc.MetaSpec{
		Layout:   gc.LayoutFixed,
		Kind:     kInstance,
		NumSlots: 1 + len(rec.fields),
		Tag:      idx,
	}, cls)
	if err != nil {
		panic(&gc.OutOfMemoryError{Msg: err.Error()})
	}
	rec.slotOf = slotOf
	rec.meta = m
	vm.layoutHotFields(rec)
	return m
}

// endClass finishes the class at stack[slot], the top, and pops it: its
// instance layout is final.
func (vm *VM) endClass(slot int) {
	vm.lockTables()
	defer vm.tablesMu.Unlock()
	cls := vm.stack[slot].AsRef() // after the lock: waiting may have moved it
	vm.ensureLayout(vm.classOf(cls), cls)
	vm.sp = slot
}

// unloadClass is the heap's OnClassUnload hook: the class object with
// table index tag died and its ClassMeta was freed. The record is freed
// and every inline cache naming the meta is cleared, since the address
// may be reused by the next class's ClassMeta.
func (vm *VM) unloadClass(tag uint32) {
	rec := vm.classes.remove(tag)
	if rec == nil || rec.meta == 0 {
		return
	}
	m := uint32(rec.meta)
	for _, p := range vm.protos {
		for i := range p.ics {
			if p.ics[i].load().meta() == m {
				vm.creditICTo(&p.ics[i], rec)
				p.ics[i].store(0)
			}
		}
	}
}

// ---- strings ----

const (
	fnvOffset = 2166136261
	fnvPrime  = 16777619
)

func fnvAppend(h uint32, b []byte) uint32 {
	for _, c := range b {
		h ^= uint32(c)
		h *= fnvPrime
	}
	return h
}

// newString allocates a string holding a copy of b (b must not alias the
// heap).
func (vm *VM) newString(b []byte) gc.Value {
	h := vm.heap
	if len(b) >= gc.MaxObjectSize {
		panic(&gc.OutOfMemoryError{Msg: "requested string length exceeds the maximum object size"})
	}
	r := vm.mut.AllocBytes(vm.m.str, len(b))
	copy(h.Bytes(r), b)
	h.SetRawWord(r, 1, uint64(len(b))|uint64(fnvAppend(fnvOffset, b))<<32)
	return gc.FromRef(r)
}

// concat replaces the two strings at stack[a] and stack[a+1], the top,
// with their concatenation at stack[a].
func (vm *VM) concat(a int) {
	h := vm.heap
	la, lb := h.Length(vm.stack[a].AsRef()), h.Length(vm.stack[a+1].AsRef())
	if la+lb >= gc.MaxObjectSize {
		panic(&gc.OutOfMemoryError{Msg: "requested string length exceeds the maximum object size"})
	}
	r := vm.mut.AllocBytes(vm.m.str, la+lb)
	x, y := vm.stack[a].AsRef(), vm.stack[a+1].AsRef() // reload: the allocation may have moved them
	dst := h.Bytes(r)
	copy(dst, h.Bytes(x))
	copy(dst[la:], h.Bytes(y))
	hash := fnvAppend(uint32(h.RawWord(x, 1)>>32), h.Bytes(y))
	h.SetRawWord(r, 1, uint64(la+lb)|uint64(hash)<<32)
	vm.stack[a] = gc.FromRef(r)
	vm.sp = a + 1
}

func (vm *VM) isString(v gc.Value) bool {
	return v.IsRef() && vm.heap.Kind(v.AsRef()) == kString
}

func (vm *VM) isKind(v gc.Value, k uint8) bool {
	return v.IsRef() && vm.heap.Kind(v.AsRef()) == k
}

// stringsEqual compares two strings: equal lengths and hashes (one word)
// first, then the bytes.
func (vm *VM) stringsEqual(a, b gc.Ref) bool {
	h := vm.heap
	return a == b || h.RawWord(a, 1) == h.RawWord(b, 1) && bytes.Equal(h.Bytes(a), h.Bytes(b))
}

// compareStrings replaces the strings at stack[a] and stack[a+1], the top,
// with whether they are equal (eq) or unequal (!eq), at stack[a].
func (vm *VM) compareStrings(a int, eq bool) {
	vm.stack[a] = gc.Bool(vm.stringsEqual(vm.stack[a].AsRef(), vm.stack[a+1].AsRef()) == eq)
	vm.sp = a + 1
}

// ---- arrays ----

// maxArrayLength keeps array sizes within the heap's object size limit.
const maxArrayLength = (gc.MaxObjectSize - 2*gc.WordSize) / gc.WordSize

func (vm *VM) newArray(n int, fill gc.Value) gc.Ref {
	if n > maxArrayLength-1 {
		panic(&gc.OutOfMemoryError{Msg: fmt.Sprintf("requested array length %d exceeds the maximum object size", n)})
	}
	return vm.mut.AllocSlots(vm.m.array, n, fill)
}

// ---- instances: fields ----

// getField looks a field up in an instance: its inline slot when the
// class has one for the name, else the overflow table.
func (vm *VM) getField(rec *classRec, inst gc.Ref, name int32) (gc.Value, bool) {
	h := vm.heap
	if w, ok := rec.slotOf[name]; ok {
		v := h.Load(inst, int(w))
		return v, v != gc.Undefined
	}
	ov := h.Load(inst, instOverflow)
	if ov == gc.Undefined {
		return gc.Undefined, false
	}
	t := ov.AsRef()
	capacity := h.Length(t) / 2
	key := gc.Number(float64(name))
	for i := fieldHash(name) & (capacity - 1); ; i = (i + 1) & (capacity - 1) {
		k := h.Load(t, slotsFirst+2*i)
		if k == key {
			return h.Load(t, slotsFirst+2*i+1), true
		}
		if k == gc.Undefined {
			return gc.Undefined, false
		}
	}
}

func fieldHash(name int32) int { return int(uint32(name) * 2654435761 >> 7) }

// setField stores the value at stack[obj+1] into a field of the instance
// at stack[obj]. It may allocate (a new overflow table), so it works from
// the stack.
func (vm *VM) setField(rec *classRec, name int32, obj int) {
	h := vm.heap
	inst := vm.stack[obj].AsRef()
	val := obj + 1
	if w, ok := rec.slotOf[name]; ok {
		h.Store(inst, int(w), vm.stack[val])
		return
	}
	key := gc.Number(float64(name))
	ov := h.Load(inst, instOverflow)
	oldCap := 0
	if ov != gc.Undefined {
		t := ov.AsRef()
		oldCap = h.Length(t) / 2
		used := int(h.RawWord(t, 1) >> 32)
		for i := fieldHash(name) & (oldCap - 1); ; i = (i + 1) & (oldCap - 1) {
			k := h.Load(t, slotsFirst+2*i)
			if k == key {
				h.Store(t, slotsFirst+2*i+1, vm.stack[val])
				return
			}
			if k == gc.Undefined {
				if 4*(used+1) <= 3*oldCap {
					h.SetRawWord(t, 1, uint64(2*oldCap)|uint64(used+1)<<32)
					h.SetRawWord(t, slotsFirst+2*i, uint64(key)) // a number: no barrier needed
					h.Store(t, slotsFirst+2*i+1, vm.stack[val])
					return
				}
				break
			}
		}
	}
	// Grow (or create) the table. The allocation may move the instance,
	// the old table and the value; all are reachable from the stack.
	newCap := max(4, 2*oldCap)
	nt := vm.mut.AllocSlots(vm.m.fields, 2*newCap, gc.Undefined)
	inst = vm.stack[obj].AsRef()
	used := 0
	insert := func(k, v gc.Value) {
		n := int32(k.AsNumber())
		i := fieldHash(n) & (newCap - 1)
		for h.Load(nt, slotsFirst+2*i) != gc.Undefined {
			i = (i + 1) & (newCap - 1)
		}
		h.SetRawWord(nt, slotsFirst+2*i, uint64(k))
		h.Store(nt, slotsFirst+2*i+1, v)
		used++
	}
	if ov := h.Load(inst, instOverflow); ov != gc.Undefined {
		t := ov.AsRef()
		for i := 0; i < oldCap; i++ {
			if k := h.Load(t, slotsFirst+2*i); k != gc.Undefined {
				insert(k, h.Load(t, slotsFirst+2*i+1))
			}
		}
	}
	insert(key, vm.stack[val])
	h.SetRawWord(nt, 1, uint64(2*newCap)|uint64(used)<<32)
	h.Store(inst, instOverflow, gc.FromRef(nt))
}

// ---- classes ----

// newClass pushes a new class object for descriptor d, named by the
// string value consts[d.nameConst], into stack[dst], the top.
func (vm *VM) newClass(d *classDesc, consts []gc.Value, dst int) {
	vm.lockTables()
	defer vm.tablesMu.Unlock()
	h := vm.heap
	idx := vm.newClassRec(d)
	methods := vm.mut.AllocSlots(vm.m.methods, d.nMethods, gc.Nil)
	vm.stack[dst] = gc.FromRef(methods)
	vm.sp = dst + 1
	c := vm.mut.AllocFixed(vm.m.class, gc.Nil)
	h.SetRawWord(c, classIndexWord, uint64(idx))
	h.Store(c, classNameWord, consts[d.nameConst])
	h.Store(c, classMethodsWord, vm.stack[dst])
	vm.stack[dst] = gc.FromRef(c)
}

func (vm *VM) push(v gc.Value) {
	vm.stack[vm.sp] = v
	vm.sp++
}

// inherit copies the superclass's methods (at stack[slot]) down into the
// subclass (at stack[slot+1], the top, then popped), as clox does, and
// records its inline fields.
func (vm *VM) inherit(slot int) {
	vm.lockTables()
	defer vm.tablesMu.Unlock()
	h := vm.heap
	sup := vm.stack[slot].AsRef()
	srec := vm.classOf(sup)
	vm.ensureLayout(srec, sup)
	rec := vm.classOf(vm.stack[slot+1].AsRef())
	methods := vm.mut.AllocSlots(vm.m.methods, srec.nMethods+rec.desc.nMethods, gc.Nil)
	sup = vm.stack[slot].AsRef()
	sm := h.Load(sup, classMethodsWord).AsRef()
	for i := 0; i < srec.nMethods; i++ {
		h.Store(methods, slotsFirst+i, h.Load(sm, slotsFirst+i))
	}
	h.Store(vm.stack[slot+1].AsRef(), classMethodsWord, gc.FromRef(methods))
	for k, v := range srec.methods {
		rec.methods[k] = v
	}
	rec.nMethods = srec.nMethods
	rec.init = srec.init
	rec.inherited = append([]int32(nil), srec.fields...)
	vm.sp = slot + 1
}

// defineMethod adds the closure at stack[slot+1], the top, to the class at
// stack[slot], and pops the closure.
func (vm *VM) defineMethod(name int32, slot int) {
	vm.lockTables()
	defer vm.tablesMu.Unlock()
	h := vm.heap
	cls := vm.stack[slot].AsRef()
	rec := vm.classOf(cls)
	i, ok := rec.methods[name]
	if !ok {
		i = int32(rec.nMethods)
		rec.nMethods++
		rec.methods[name] = i
	}
	h.Store(h.Load(cls, classMethodsWord).AsRef(), slotsFirst+int(i), vm.stack[slot+1])
	if name == vm.initName {
		rec.init = i
	}
	vm.sp = slot + 1
}

// method returns method i of the class object cls.
func (vm *VM) method(cls gc.Ref, i int32) gc.Value {
	h := vm.heap
	return h.Load(h.Load(cls, classMethodsWord).AsRef(), slotsFirst+int(i))
}

// instanceClass returns the class object of an instance, through its
// ClassMeta's owner field.
func (vm *VM) instanceClass(inst gc.Ref) gc.Ref {
	return vm.heap.MetaOf(inst).ClassObject()
}

// bindMethod replaces the receiver at stack[slot] with a bound method of
// method i of class object held at stack[clsSlot] (or of the receiver's
// class when clsSlot < 0).
func (vm *VM) bindMethod(i int32, slot, clsSlot int) {
	h := vm.heap
	b := vm.mut.AllocFixed(vm.m.bound, gc.Nil)
	recv := vm.stack[slot]
	var cls gc.Ref
	if clsSlot >= 0 {
		cls = vm.stack[clsSlot].AsRef()
	} else {
		cls = vm.instanceClass(recv.AsRef())
	}
	h.Store(b, boundReceiverWord, recv)
	h.Store(b, boundMethodWord, vm.method(cls, i))
	vm.stack[slot] = gc.FromRef(b)
}

// ---- closures and upvalues ----

// captureUpvalue returns the open upvalue for stack index idx, creating
// it if needed. Open upvalues are kept sorted by stack index.
func (vm *VM) captureUpvalue(idx int) gc.Value {
	i := len(vm.openIdx)
	for i > 0 && vm.openIdx[i-1] > idx {
		i--
	}
	if i > 0 && vm.openIdx[i-1] == idx {
		return vm.openUp[i-1]
	}
	h := vm.heap
	r := vm.mut.AllocFixed(vm.m.upvalue, gc.Nil)
	h.SetRawWord(r, upvalueStateWord, vm.upvalueState(idx))
	v := gc.FromRef(r)
	vm.openIdx = append(vm.openIdx, 0)
	vm.openUp = append(vm.openUp, 0)
	copy(vm.openIdx[i+1:], vm.openIdx[i:])
	copy(vm.openUp[i+1:], vm.openUp[i:])
	vm.openIdx[i] = idx
	vm.openUp[i] = v
	return v
}

// closeUpvalues closes every open upvalue at stack index from or above.
func (vm *VM) closeUpvalues(from int) {
	h := vm.heap
	n := len(vm.openIdx)
	for n > 0 && vm.openIdx[n-1] >= from {
		r := vm.openUp[n-1].AsRef()
		h.Store(r, upvalueValueWord, vm.stack[vm.openIdx[n-1]])
		h.SetRawWord(r, upvalueStateWord, 0)
		n--
	}
	vm.openIdx = vm.openIdx[:n]
	vm.openUp = vm.openUp[:n]
}
