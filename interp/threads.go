package interp

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"minivm/runtime/gc"
)

// Threads.
//
// spawn(fn) runs fn() on a new mutator thread and returns a Thread handle;
// join(t) waits for the thread and returns fn's result, or re-raises the
// runtime error that ended it (the thread reported it, with its trace,
// when it died). A thread is a goroutine with its own VM (value stack,
// frames, open upvalues, TLAB: gc.Mutator) sharing the machine: globals,
// classes, prototypes and the heap. It is not locked to an OS thread:
// parking and waking a locked goroutine at every collection costs a
// thread handoff each time, and measurably cost two-thread throughput.
//
// Memory model: every read and write of a variable, field or element is
// one 64-bit access, so a racing reader sees some value that was written,
// never a torn one; nothing else is ordered, and join is the only
// synchronisation (everything the thread did happens before join
// returns). The VM's own tables (class records, inline caches, output)
// are guarded, so races in a program never corrupt the heap.
//
// Safepoints (runtime/gc/safepoint.go): threads poll at backward jumps,
// at calls and in allocation slow paths; a collection runs with every
// other thread parked and reads every thread's stack as roots. A thread
// blocked in join waits in a safe region, so it never delays a collection.
//
// Open upvalues name the stack of the thread that created them (state word
// = thread id << 32 | stack index + 1). A closure handed to another thread
// reads and writes such a variable through the owner's stack until the
// owner closes it; a thread closes all its upvalues when it ends.
//
// Lifetime: the program ends when the main script and every thread have
// finished, threads spawned by threads included, even after their parent
// ended: a spawn counts the new thread live before it starts, and the main
// thread waits (in a safe region) until the count is zero; only then may
// the heap be released. When the main script fails, or a thread cannot be
// created, the other threads are stopped at their next poll: a program
// spawning without bound would otherwise keep the live-thread limit
// (-XX:MaxLiveThreads) full forever. The exit status is 70 if any thread
// failed.

// thread is the record of one thread, kept for join.
type thread struct {
	id         int
	vm         *VM           // its execution state; nil once it has ended
	done       chan struct{} // closed when it has ended
	result     gc.Value      // fn's result once ended (rooted)
	err        *RuntimeError // the error that ended it, if any
	waitingFor *thread       // the thread it is joining (deadlock detection)
}

// threadTable holds every thread's record, by id; mu guards it.
type threadTable struct {
	mu       sync.Mutex
	all      []*thread
	live     int         // spawned threads that have not ended
	ended    sync.Cond   // on mu: signalled when live drops to zero
	failed   bool        // some spawned thread ended with a runtime error
	stopping atomic.Bool // the program is failing: threads stop at their next poll
}

// register adds a thread record for vm (its roots become visible); a
// spawned thread counts as live from here until threadMain ends.
func (t *threadTable) register(vm *VM, spawned bool) *thread {
	t.mu.Lock()
	defer t.mu.Unlock()
	th := &thread{id: len(t.all), vm: vm, done: make(chan struct{}), result: gc.Nil}
	t.all = append(t.all, th)
	if spawned {
		t.live++
	}
	return th
}

// exit marks a spawned thread ended; it no longer touches the heap.
func (t *threadTable) exit() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.live--; t.live == 0 {
		t.ended.Broadcast()
	}
}

// stopThreads makes every thread stop at its next poll; it reports
// whether they were running on until this call.
func (vm *VM) stopThreads() (first bool) {
	first = vm.threads.stopping.CompareAndSwap(false, true)
	vm.heap.InterruptMutators()
	return first
}

// errStopped unwinds a thread stopped because the program is failing.
var errStopped = errors.New("thread stopped")

// safepoint parks the thread for a pending collection, or stops it.
func (vm *VM) safepoint() error {
	if vm.threads.stopping.Load() {
		return errStopped
	}
	vm.mut.Park()
	return nil
}

// lock takes mu, waiting in a safe region if it is held: the holder may
// be allocating and so stopping the world.
func (vm *VM) lock(mu *sync.Mutex) {
	if mu.TryLock() {
		return
	}
	vm.mut.EnterSafeRegion()
	mu.Lock()
	vm.mut.LeaveSafeRegion()
}

// lockTables takes tablesMu (class records, inline-cache refills). The
// slow paths that take it are entered from the dispatch loop only and do
// not nest.
func (vm *VM) lockTables() { vm.lock(&vm.tablesMu) }

// entryProto is the code a thread starts in: a function of one argument,
// fn, that calls fn with no arguments and returns its result. Its frame
// is left out of traces.
func entryProto() *proto {
	code := []byte{byte(opGetLocal), 1, 0, byte(opCall), 0, byte(opReturn)}
	return &proto{name: "spawn", arity: 1, entry: true, code: code, lines: make([]int32, len(code)), maxStack: 3 + stackHeadroom}
}

// nativeSpawn starts args[0] on a new thread and returns its handle.
func nativeSpawn(vm *VM, args []gc.Value) (gc.Value, error) {
	h := vm.heap
	fn := args[0]
	if vm.threads.stopping.Load() {
		return 0, errStopped
	}
	if n, ok := vm.arity(fn); !ok {
		return 0, vm.runtimeError("Argument to spawn() must be a function.")
	} else if n != 0 {
		return 0, vm.runtimeError("spawn() needs a function of no arguments; this one takes %d.", n)
	}
	// Allocate first: once the thread is registered it must start, or
	// the program would wait for it forever.
	r := vm.mut.AllocSlots(vm.m.closure, 0, gc.Nil)
	h.SetRawWord(r, 1, uint64(vm.entryIdx)<<32)
	vm.handles = append(vm.handles, gc.FromRef(r))
	hv := vm.mut.AllocFixed(vm.m.thread, gc.Nil) // may move fn and r: reload them
	r, fn = vm.handles[len(vm.handles)-1].AsRef(), vm.stack[vm.sp-1]
	vm.handles = vm.handles[:len(vm.handles)-1]
	// No allocation from here on, so r and hv stay valid.
	mut, err := h.NewMutator() // parked until the goroutine starts
	if err != nil {
		// The limit is reached: a program that spawns without bound would
		// keep it full forever, so the program ends. Only the first thread
		// to fail reports it: many may be waiting to spawn.
		if !vm.stopThreads() {
			return 0, errStopped
		}
		return 0, vm.runtimeError("%s", err.Error())
	}

	t := &VM{
		machine: vm.machine,
		heap:    vm.heap,
		m:       vm.m,
		glob:    vm.glob,
		protoT:  vm.protoT,
		stack:   make([]gc.Value, initialStack),
		frames:  make([]frame, initialFrames),
		steps:   vm.stepBudget(),
		result:  gc.Nil,

		threaded: true,
	}
	vm.threaded = true
	t.stack[0], t.stack[1], t.sp = gc.FromRef(r), fn, 2
	t.frames[0] = frame{closure: gc.FromRef(r), proto: vm.protos[vm.entryIdx]}
	t.fp = 1
	t.mut = mut
	t.poll = t.mut.PollFlag()
	t.th = vm.threads.register(t, true)
	t.tid = uint64(t.th.id)
	h.SetRawWord(hv, threadIDWord, uint64(t.th.id))
	go t.threadMain()
	return gc.FromRef(hv), nil
}

// refreshViews renews the thread's views of the shared globals and
// prototypes after compiling (only the main thread compiles, while no
// other thread runs).
func (vm *VM) refreshViews() {
	vm.glob, vm.protoT = vm.globals, vm.protos
}

// arity returns the number of arguments callable v takes.
func (vm *VM) arity(v gc.Value) (int, bool) {
	h := vm.heap
	if !v.IsRef() {
		return 0, false
	}
	r := v.AsRef()
	switch h.Kind(r) {
	case kClosure:
		return vm.protos[h.RawWord(r, 1)>>32].arity, true
	case kBound:
		return vm.arity(h.Load(r, boundMethodWord))
	case kClass:
		if rec := vm.classOf(r); rec.init >= 0 {
			return vm.arity(vm.method(r, rec.init))
		}
		return 0, true
	case kNative:
		return natives[h.RawWord(r, nativeIndexWord)].arity, true
	}
	return 0, false
}

// threadMain is a spawned thread's goroutine.
func (vm *VM) threadMain() {
	vm.mut.LeaveSafeRegion()
	err := vm.runThread()
	var rt *RuntimeError
	if err != nil {
		vm.closeUpvalues(0) // other threads' closures may still use them
	}
	if err != nil && !errors.Is(err, errStopped) {
		if !errors.As(err, &rt) {
			rt = &RuntimeError{Msg: err.Error()}
		}
		vm.reportRuntimeError(fmt.Sprintf("Thread %d: ", vm.th.id), rt)
	}
	vm.threads.mu.Lock()
	th := vm.th
	th.result, th.err, th.vm = vm.result, rt, nil
	if rt != nil {
		vm.threads.failed = true
	}
	vm.threads.mu.Unlock()
	vm.mut.Release()
	close(th.done)
	vm.threads.exit()
}

// runThread runs the thread's code, turning an OutOfMemoryError into a
// runtime error and any Go panic into an internal error.
func (vm *VM) runThread() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: %v", r)
		}
	}()
	return vm.guard(vm.run)
}

// nativeJoin waits for the thread args[0] and returns its result.
func nativeJoin(vm *VM, args []gc.Value) (gc.Value, error) {
	if !vm.isKind(args[0], kThread) {
		return 0, vm.runtimeError("Argument to join() must be a thread.")
	}
	id := int(vm.heap.RawWord(args[0].AsRef(), threadIDWord))
	t := &vm.threads
	t.mu.Lock()
	th := t.all[id]
	for w := th; w != nil; w = w.waitingFor {
		if w == vm.th {
			t.mu.Unlock()
			if th == vm.th {
				return 0, vm.runtimeError("A thread cannot join itself.")
			}
			return 0, vm.runtimeError("Deadlock: thread %d is waiting for this thread.", th.id)
		}
	}
	vm.th.waitingFor = th
	t.mu.Unlock()
	vm.awaitEnd(th)
	t.mu.Lock()
	vm.th.waitingFor = nil
	t.mu.Unlock()
	if t.stopping.Load() {
		return 0, errStopped
	}
	if th.err != nil {
		return 0, vm.runtimeError("%s", th.err.Msg)
	}
	return th.result, nil
}

// awaitEnd waits for thread th to end, in a safe region if it has not:
// collections must not wait for a blocked thread.
func (vm *VM) awaitEnd(th *thread) {
	select {
	case <-th.done:
	default:
		vm.mut.EnterSafeRegion()
		<-th.done
		vm.mut.LeaveSafeRegion()
	}
}

// finishThreads waits for every spawned thread to end (stopping them first
// when the main script failed) and reports whether one failed.
func (vm *VM) finishThreads(mainFailed bool) (failed bool) {
	t := &vm.threads
	if mainFailed {
		vm.stopThreads()
	}
	t.mu.Lock()
	live := t.live
	t.mu.Unlock()
	if live > 0 {
		vm.mut.EnterSafeRegion() // the threads may collect meanwhile
		t.mu.Lock()
		for t.live > 0 {
			t.ended.Wait()
		}
		t.mu.Unlock()
		vm.mut.LeaveSafeRegion()
	}
	// Every thread has ended: the next program (a REPL line) starts clean.
	t.stopping.Store(false)
	vm.heap.ResumeMutators()
	t.mu.Lock()
	defer t.mu.Unlock()
	failed, t.failed = t.failed, false
	return failed
}

// VisitRoots implements gc.RootSource: the shared roots and every
// thread's. It runs with the world stopped.
func (m *machine) VisitRoots(visit func(*gc.Value)) {
	each := func(vs []gc.Value) {
		for i := range vs {
			if vs[i].IsRef() {
				visit(&vs[i])
			}
		}
	}
	each(m.globals)
	for _, p := range m.protos {
		each(p.consts)
	}
	for _, th := range m.threads.all {
		if th.result.IsRef() {
			visit(&th.result)
		}
		vm := th.vm
		if vm == nil {
			continue
		}
		each(vm.stack[:vm.sp])
		for i := 0; i < vm.fp; i++ {
			visit(&vm.frames[i].closure)
		}
		each(vm.openUp)
		each(vm.handles)
		if vm.result.IsRef() {
			visit(&vm.result)
		}
	}
}

// Open upvalues of other threads (see the package comment above).

// upvalueState encodes an open upvalue's state word for stack index idx
// of this thread.
func (vm *VM) upvalueState(idx int) uint64 {
	return uint64(vm.th.id)<<32 | uint64(idx+1)
}

// foreignSlot runs f on the owner's stack slot of open upvalue up (state
// word w, not this thread's) and reports whether the upvalue was still
// open; if it was closed meanwhile the caller uses the closed value.
func (vm *VM) foreignSlot(up gc.Ref, f func(slot *gc.Value)) bool {
	t := &vm.threads
	t.mu.Lock()
	defer t.mu.Unlock()
	w := vm.heap.RawWord(up, upvalueStateWord)
	if w == 0 {
		return false
	}
	owner := t.all[w>>32].vm
	if owner == nil {
		return false // cannot happen: an ending thread closes its upvalues first
	}
	owner.stackMu.Lock()
	f(&owner.stack[uint32(w)-1])
	owner.stackMu.Unlock()
	return true
}

// pushForeignUpvalue pushes the value of open upvalue up of another
// thread into stack[dst], the top.
func (vm *VM) pushForeignUpvalue(up gc.Ref, dst int) {
	var v gc.Value
	if !vm.foreignSlot(up, func(s *gc.Value) { v = *s }) {
		v = vm.heap.Load(up, upvalueValueWord)
	}
	vm.stack[dst] = v
	vm.sp = dst + 1
}

// setForeignUpvalue writes open upvalue up of another thread.
func (vm *VM) setForeignUpvalue(up gc.Ref, v gc.Value) {
	if !vm.foreignSlot(up, func(s *gc.Value) { *s = v }) {
		vm.heap.Store(up, upvalueValueWord, v)
	}
}
