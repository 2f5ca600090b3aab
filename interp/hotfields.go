package interp

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"sync/atomic"

	"minivm/runtime/gc"
	jithints "minivm/runtime/jit_hints"
)

// The hot-field profiler's wiring (runtime/jit_hints).
//
// Counting. Every field-load inline cache (GET_PROPERTY,
// GET_LOCAL_PROPERTY, INVOKE of a field) counts the loads it serves
// through its inline slot in inlineCache.hits: one increment on the fast
// path, on the cache entry the lookup has just read (about 1% more
// instructions on field-heavy code; see BENCHMARKS.md). The slow paths
// (a cache miss, which refills the cache) also note fields seen holding a
// reference: the hottest slot reported to the collectors must be one that
// can lead to a copy, while the scan order may put number fields first
// (scanners skip them). Nothing else runs while the mutator runs.
//
// Folding. A site's hits belong to the class its cache names. They are
// credited to that class declaration's profile (field by name) before the
// cache is refilled for another class (fillIC), when the class is unloaded,
// before every collection (the heap's BeforeCollection hook) and at exit.
//
// Applying. After folding, every live class whose profile moved gets a new
// instance scan order: inline fields by decreasing reads, ties in
// declaration order, then value slot 0, the overflow table (read only on
// the slow path, and a reference only for instances with overflow fields).
// Without -Xgc:hotFieldScanOrdering (the default) the order stays the
// declaration order; either way the hottest reference field is recorded in
// the ClassMeta (SetHotSlot) so that collections measure hot_contain_64. A class created after the
// profile knows its declaration (from earlier instances of the declaration
// or from -Xjit:loadHints) gets the order at once, with its layout.

// hotFields is the VM's profiler state.
type hotFields struct {
	prof     *jithints.Profile
	order    bool   // write orders into the ClassMetas' scan order
	loadPath string // -Xjit:loadHints: the file the profile was seeded from
	savePath string // -Xjit:saveHints: write the profile here at exit

	checkStale bool // warn about hints the script being compiled does not use
}

// hotOrder caches the last order computed for a declaration, since every
// class object of the declaration usually has the same layout.
type hotOrder struct {
	version uint64
	layout  []int // profile field indexes of the layout
	slots   []int // value-slot scan order
	hot     int   // hottest value slot, or -1
}

// initHotFields sets up the profile, seeded from the hints file if one
// was given; a bad file is a warning.
func (vm *VM) initHotFields() {
	o := &vm.opts
	vm.hot = hotFields{prof: jithints.New(), order: o.HotFieldScanOrdering, loadPath: o.LoadHints, savePath: o.SaveHints}
	vm.heap.BeforeCollection = vm.foldHotFields
	if o.LoadHints == "" {
		return
	}
	data, err := os.ReadFile(o.LoadHints)
	if err != nil {
		vm.hintsWarning("%v", reason(err))
		return
	}
	prof, warnings := jithints.Parse(bytes.NewReader(data))
	for _, w := range warnings {
		vm.hintsWarning("%v", w)
	}
	vm.hot.prof = prof
}

// reason strips the operation and path from a file error: the messages
// name the file themselves.
func reason(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// hintsWarning reports a problem with the -Xjit:loadHints file.
func (vm *VM) hintsWarning(format string, args ...any) {
	vm.out.Flush()
	fmt.Fprintf(vm.errw, "minivm: warning: hints file '%s': %s\n", vm.hot.loadPath, fmt.Sprintf(format, args...))
}

// checkStaleHints warns about hints for class declarations the script does
// not have (called once the whole script is compiled).
func (vm *VM) checkStaleHints() {
	for _, k := range vm.hot.prof.Unmatched() {
		vm.hintsWarning("no class %s declared at line %d; its hints are ignored", k.Name, k.Line)
	}
}

// countSlowRead counts a field load f made by a slow path through ic,
// just refilled for class rec, and notes a field seen holding a
// reference. (The fast paths only count; the hottest slot reported to the
// collectors is the hottest one seen holding a reference.)
func (vm *VM) countSlowRead(ic *inlineCache, rec *classRec, f gc.Value) {
	e := ic.load()
	slot := e.slot()
	if slot < instFirstSlot || rec.profField == nil || e.meta() != uint32(rec.meta) {
		return
	}
	atomic.AddUint64(&ic.hits, 1)
	if f.IsRef() {
		rec.desc.prof.MarkRef(rec.profField[slot-instFirstSlot])
	}
}

// creditIC credits ic's hits to the class its cache names.
func (vm *VM) creditIC(ic *inlineCache) {
	if ic.load().meta() == 0 {
		atomic.StoreUint64(&ic.hits, 0)
		return
	}
	vm.creditICTo(ic, vm.classes.get(gc.Meta(ic.load().meta()).Tag()))
}

// creditICTo credits ic's hits to rec, the class whose ClassMeta ic names.
func (vm *VM) creditICTo(ic *inlineCache, rec *classRec) {
	n := atomic.SwapUint64(&ic.hits, 0)
	e := ic.load()
	slot := e.slot()
	if n == 0 || rec == nil || uint32(rec.meta) != e.meta() || slot < instFirstSlot {
		return
	}
	rec.desc.prof.Add(rec.profField[slot-instFirstSlot], n)
}

// foldHotFields credits every cache's hits and applies the profiles that
// moved: the heap's BeforeCollection hook, also run at exit.
func (vm *VM) foldHotFields() {
	for _, p := range vm.protos {
		for i := range p.ics {
			if atomic.LoadUint64(&p.ics[i].hits) != 0 {
				vm.creditIC(&p.ics[i])
			}
		}
	}
	vm.classes.each(func(rec *classRec) {
		if rec.meta != 0 && rec.profVersion != rec.desc.prof.Version() {
			vm.applyHotFields(rec)
		}
	})
}

// layoutHotFields connects a class whose instance layout was just fixed to
// its declaration's profile and applies the profile's order.
func (vm *VM) layoutHotFields(rec *classRec) {
	prof := rec.desc.prof
	rec.profField = make([]int, len(rec.fields))
	for i, f := range rec.fields {
		rec.profField[i] = prof.Field(vm.names[f])
	}
	if prof.Loaded() && rec.desc.hot.layout == nil {
		if stale := prof.StaleFields(rec.profField); len(stale) > 0 {
			vm.hintsWarning("class %s (line %d) has no field %v; those hints are ignored", prof.Name, prof.Line, stale)
		}
	}
	vm.applyHotFields(rec)
}

// applyHotFields writes rec's profiled scan order and hottest slot into its
// ClassMeta. Inline field i is value slot 1+i; slot 0, the overflow table,
// goes last.
func (vm *VM) applyHotFields(rec *classRec) {
	d := rec.desc
	prof := d.prof
	c := &d.hot
	if c.layout == nil || c.version != prof.Version() || !slices.Equal(c.layout, rec.profField) {
		order, hot := prof.Order(rec.profField)
		c.version, c.layout = prof.Version(), rec.profField
		c.slots = make([]int, 0, len(order)+1)
		for _, f := range order {
			c.slots = append(c.slots, 1+f)
		}
		c.slots = append(c.slots, 0)
		c.hot = -1
		if hot >= 0 {
			c.hot = 1 + hot
		}
	}
	rec.profVersion = prof.Version()
	if vm.hot.order {
		rec.meta.SetScanOrder(c.slots)
	}
	rec.meta.SetHotSlot(c.hot)
}

// saveHotFields writes the profile to the -Xjit:saveHints file; a failure
// is a warning.
func (vm *VM) saveHotFields() {
	if vm.hot.savePath == "" {
		return
	}
	vm.foldHotFields()
	vm.hot.prof.DropUnmatched()
	var buf bytes.Buffer
	vm.hot.prof.Save(&buf)
	if err := os.WriteFile(vm.hot.savePath, buf.Bytes(), 0o666); err != nil {
		vm.out.Flush()
		fmt.Fprintf(vm.errw, "minivm: warning: cannot write hints file '%s': %v\n", vm.hot.savePath, reason(err))
	}
}

// ScanOrder returns the instance scan order (value slots) of the global
// class named name and its hottest slot (-1 if none), for tests and tools.
func (vm *VM) ScanOrder(name string) (order []int, hot int, ok bool) {
	id, found := vm.globalIdx[name]
	if !found {
		return nil, -1, false
	}
	v := vm.globals[id]
	if !vm.isKind(v, kClass) {
		return nil, -1, false
	}
	rec := vm.classOf(v.AsRef())
	if rec.meta == 0 {
		return nil, -1, false
	}
	for i := 0; i < rec.meta.NumSlots(); i++ {
		order = append(order, rec.meta.ScanOrder(i))
	}
	hot = -1
	if s, known := rec.meta.HotSlot(); known {
		hot = s
	}
	return order, hot, true
}
