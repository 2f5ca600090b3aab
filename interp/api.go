package interp

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/cpu"

	"minivm/lang"
	"minivm/runtime/gc"
)

// Options configure a VM.
type Options struct {
	Heap   gc.Config // heap sizes and collector settings (from -X options)
	Args   []string  // script arguments, returned by argv()
	Stdout io.Writer // program output (buffered by the VM, flushed by Close and before errors; a failed write stops the program, FlushOutput reports it)
	Stderr io.Writer // compile and runtime errors
	// StepLimit stops a run after this many instructions with a runtime
	// error (0 = no limit); used by fuzzing.
	StepLimit int64

	// Hot-field profiler (hotfields.go, runtime/jit_hints). Field reads
	// are always profiled; HotFieldScanOrdering (-Xgc:hotFieldScanOrdering)
	// makes the collectors scan each class's hottest fields first instead
	// of in declaration order. LoadHints (-Xjit:loadHints) seeds the
	// profile from a hints file; SaveHints (-Xjit:saveHints) writes the
	// profile there at exit.
	HotFieldScanOrdering bool
	LoadHints, SaveHints string
}

// Exit codes, as clox uses them.
const (
	ExitOK           = 0
	ExitCompileError = 65
	ExitRuntimeError = 70
	ExitIOError      = 74 // program output or REPL input failed (FlushOutput)
)

// VM is one thread of a Lox virtual machine: the state every thread
// shares (machine, embedded) and this thread's execution state. New
// returns the main thread's VM; spawn() creates one per new thread
// (threads.go), sharing the machine.
type VM struct {
	// Threads write their VM on every slow path: the pads keep two VMs
	// from sharing a cache line.
	_ cpu.CacheLinePad
	*machine

	// Copies of immutable or, while threads run, unchanging shared state,
	// one load closer for the dispatch loop: the heap, the built-in
	// metas, and views of machine.globals and machine.protos (whose
	// headers change only while compiling, when no other thread runs;
	// refreshViews renews them).
	heap   *gc.Heap
	m      metas
	glob   []gc.Value
	protoT []*proto

	mut  *gc.Mutator  // this thread's TLAB and safepoint state
	poll *atomic.Bool // mut's safepoint poll flag, read by the dispatch loop
	th   *thread      // this thread's record (threads.go)
	tid  uint64       // th.id, as open upvalues of this thread name it
	// threaded is set once this thread has run beside another (it spawned
	// one, or was spawned): inline-cache hits are then counted atomically.
	threaded bool

	// Execution state (roots: stack[:sp], frames[:fp].closure). stackMu
	// guards replacing stack, which other threads read through open
	// upvalues (threads.go).
	stack   []gc.Value
	stackMu sync.Mutex
	sp      int
	frames  []frame
	fp      int
	steps   int64 // instructions budget left (counted at loops and calls)
	// A call that grows the frames keeps its callee and argc here across
	// the growth, so that the dispatch loop keeps neither across a call;
	// not a root (growing the frames does not collect).
	pendingCallee gc.Value
	pendingArgc   int
	result        gc.Value // what the outermost frame returned (rooted)

	// Open upvalues sorted by stack index (openUp rooted).
	openUp  []gc.Value
	openIdx []int

	handles []gc.Value // temporaries of natives (rooted)
	buf     []byte     // formatting scratch

	_ cpu.CacheLinePad
}

// machine is the state the threads of a VM share. Fields written while
// threads run are guarded: tablesMu guards the class records and the
// inline caches' slow paths, outMu the output, threads.mu the thread table.
// Everything else is written only while one thread runs (compiling) or
// with the world stopped (collection hooks).
type machine struct {
	opts  Options
	out   *bufio.Writer
	outMu sync.Mutex
	errw  io.Writer
	start time.Time

	// Globals, by index; Undefined marks an unset global (rooted).
	globals     []gc.Value
	globalNames []string
	globalIdx   map[string]int

	// Names of properties and methods, by id.
	names    []string
	nameIdx  map[string]int32
	initName int32

	protos     []*proto // every loaded function; constants rooted
	entryIdx   int      // the threads' entry prototype (threads.go)
	classDescs []*classDesc
	classes    classTable // by class table index (ClassMeta tag)
	tablesMu   sync.Mutex

	hot hotFields // hot-field profiler (hotfields.go)

	threads threadTable // spawned threads (threads.go)

	closed bool
}

// New creates a VM and its heap. It fails only when the heap cannot be
// reserved or the configuration is invalid.
func New(opts Options) (*VM, error) {
	if opts.Stdout == nil {
		opts.Stdout = os.Stdout
	}
	if opts.Stderr == nil {
		opts.Stderr = os.Stderr
	}
	vm := &VM{
		machine: &machine{
			opts:      opts,
			out:       bufio.NewWriterSize(opts.Stdout, 64<<10),
			errw:      opts.Stderr,
			start:     time.Now(),
			globalIdx: map[string]int{},
			nameIdx:   map[string]int32{},
		},
		stack:  make([]gc.Value, initialStack),
		frames: make([]frame, initialFrames),
	}
	vm.initName = vm.nameID("init")
	// -Xlog to stdout: interleave with program output in order.
	opts.Heap.Log.Redirect(opts.Stdout, vm.out)
	h, err := gc.New(opts.Heap, vm.machine)
	if err != nil {
		return nil, err
	}
	vm.heap = h
	vm.mut = h.Main()
	vm.poll = vm.mut.PollFlag()
	vm.threads.ended.L = &vm.threads.mu
	vm.th = vm.threads.register(vm, false)
	vm.entryIdx = len(vm.protos)
	vm.protos = append(vm.protos, entryProto())
	h.LogInit()
	h.OnClassUnload = vm.unloadClass
	vm.initHotFields()
	if err := vm.initMetas(); err != nil {
		h.Release()
		return nil, err
	}
	if err := vm.guard(vm.defineNatives); err != nil {
		h.Release()
		return nil, err
	}
	return vm, nil
}

// guard runs f, turning an OutOfMemoryError raised by any allocation into
// a Lox runtime error (with the stack trace of the frames then active).
func (vm *VM) guard(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			switch e := r.(type) {
			case *gc.OutOfMemoryError:
				err = vm.runtimeError("%s", e.Error())
			case *outputError:
				err = e
			default:
				panic(r)
			}
		}
	}()
	return f()
}

// RunScript compiles and runs a whole script and returns the exit code:
// ExitOK, ExitCompileError (errors printed to Stderr as clox prints them),
// ExitRuntimeError (message and stack trace printed to Stderr) or
// ExitIOError (a write to Stdout failed, which stops the script; nothing
// is printed: FlushOutput returns the error).
func (vm *VM) RunScript(src string) (code int) {
	if vm.closed {
		fmt.Fprintln(vm.errw, "internal error: the VM is closed")
		return ExitRuntimeError
	}
	defer vm.flushAtEnd(&code)
	defer vm.catchInternal(&code)
	prog, errs := lang.Parse(src)
	if len(errs) > 0 {
		vm.reportCompileErrors(errs)
		return ExitCompileError
	}
	vm.hot.checkStale = vm.hot.loadPath != ""
	return vm.runProgram(prog)
}

// flushAtEnd flushes the output when a run ends: a failed write makes a
// successful run's code ExitIOError.
func (vm *VM) flushAtEnd(code *int) {
	if vm.out.Flush() != nil && *code == ExitOK {
		*code = ExitIOError
	}
}

// catchInternal turns any Go panic into a one-line internal error: no Go
// stack trace ever reaches a user. The other threads are stopped and
// waited for, since Close releases the heap they use.
func (vm *VM) catchInternal(code *int) {
	if r := recover(); r != nil {
		vm.out.Flush()
		fmt.Fprintf(vm.errw, "internal error: %v\n", r)
		vm.resetStack()
		vm.finishThreads(true)
		*code = ExitRuntimeError
	}
}

func (vm *VM) reportCompileErrors(errs lang.ErrorList) {
	vm.out.Flush()
	for _, e := range errs {
		fmt.Fprintln(vm.errw, e.Error())
	}
}

// runProgram compiles, loads and runs a parsed program.
func (vm *VM) runProgram(prog *lang.Program) int {
	u, errs := vm.compile(prog)
	if len(errs) > 0 {
		vm.reportCompileErrors(errs)
		return ExitCompileError
	}
	if vm.hot.checkStale {
		// The whole script is compiled: every class declaration is known.
		vm.hot.checkStale = false
		vm.checkStaleHints()
	}
	vm.steps = vm.stepBudget()
	err := vm.guard(func() error {
		idx := vm.load(u)
		return vm.interpret(idx)
	})
	var outErr *outputError
	if err != nil {
		// An output error has nowhere to be reported but the final
		// message; a stopped main script was reported by the thread that
		// stopped it.
		if !errors.As(err, &outErr) && !errors.Is(err, errStopped) {
			vm.reportRuntimeError("", err)
		}
		vm.resetStack()
	}
	// The program ends when every thread has; they stop early if the
	// main script failed.
	failed := vm.finishThreads(err != nil)
	switch {
	case outErr != nil:
		return ExitIOError
	case err != nil || failed:
		return ExitRuntimeError
	}
	return ExitOK
}

// reportRuntimeError prints err's message, after prefix, and its trace,
// holding the output lock so that threads' reports do not interleave.
func (vm *VM) reportRuntimeError(prefix string, err error) {
	vm.lock(&vm.outMu)
	defer vm.outMu.Unlock()
	vm.out.Flush()
	var rt *RuntimeError
	if errors.As(err, &rt) {
		fmt.Fprintln(vm.errw, prefix+rt.Msg)
		for _, l := range rt.Trace {
			fmt.Fprintln(vm.errw, l)
		}
		return
	}
	fmt.Fprintln(vm.errw, prefix+err.Error())
}

// stepBudget is a thread's instruction budget (Options.StepLimit).
func (m *machine) stepBudget() int64 {
	if m.opts.StepLimit > 0 {
		return m.opts.StepLimit
	}
	return math.MaxInt64
}

// resetStack drops all execution state after an error.
func (vm *VM) resetStack() {
	vm.sp, vm.fp = 0, 0
	vm.openUp, vm.openIdx = vm.openUp[:0], vm.openIdx[:0]
	vm.handles = vm.handles[:0]
}

// load materialises the unit's string constants in the heap and makes its
// prototypes and class descriptors part of the VM.
func (vm *VM) load(u *unit) (script int) {
	script = len(vm.protos)
	vm.protos = append(vm.protos, u.protos...)
	vm.classDescs = append(vm.classDescs, u.descs...)
	for _, p := range u.protos {
		// Until filled, pending constants are Nil, which the root visitor
		// skips; each allocation may run a collection.
		for _, ps := range p.pending {
			v := vm.newString([]byte(ps.s))
			p.consts[ps.k] = v
		}
		p.pending = nil
	}
	return script
}

// interpret runs the script prototype idx in a new frame.
func (vm *VM) interpret(idx int) error {
	h := vm.heap
	vm.refreshViews()
	p := vm.protos[idx]
	r := vm.mut.AllocSlots(vm.m.closure, 0, gc.Nil)
	h.SetRawWord(r, 1, uint64(idx)<<32)
	if p.maxStack+1 > len(vm.stack) && !vm.growStack(p.maxStack+1) {
		return vm.runtimeError("Stack overflow.")
	}
	vm.sp = 0
	vm.push(gc.FromRef(r))
	vm.frames[0] = frame{closure: gc.FromRef(r), proto: p}
	vm.fp = 1
	return vm.run()
}

// RunREPL reads declarations line by line from in, printing a "> " prompt
// to Stdout, and runs each one; globals persist between lines. Errors are
// reported and the REPL continues. It returns ExitOK at end of input, and
// ExitIOError when reading in fails (reported on Stderr; the partial line
// does not run) or writing Stdout does (FlushOutput returns the error).
func (vm *VM) RunREPL(in io.Reader) int {
	if vm.closed {
		fmt.Fprintln(vm.errw, "internal error: the VM is closed")
		return ExitRuntimeError
	}
	r := bufio.NewReader(in)
	for {
		vm.out.WriteString("> ")
		if vm.out.Flush() != nil {
			return ExitIOError
		}
		line, err := r.ReadString('\n')
		if err != nil && err != io.EOF {
			vm.out.WriteString("\n")
			vm.out.Flush()
			fmt.Fprintf(vm.errw, "minivm: cannot read standard input: %v\n", err)
			return ExitIOError
		}
		if line != "" && vm.replLine(line) == ExitIOError {
			return ExitIOError
		}
		if err != nil {
			vm.out.WriteString("\n")
			if vm.out.Flush() != nil {
				return ExitIOError
			}
			return ExitOK
		}
	}
}

func (vm *VM) replLine(line string) (code int) {
	defer vm.flushAtEnd(&code)
	defer vm.catchInternal(&code)
	prog, errs := lang.Parse(line)
	if len(errs) > 0 {
		vm.reportCompileErrors(errs)
		return ExitCompileError
	}
	return vm.runProgram(prog)
}

// outputError is a failed write to Stdout. print raises it (as a panic
// that guard turns into this error) to stop the program at the first
// failure instead of computing output that cannot be written.
type outputError struct{ err error }

func (e *outputError) Error() string { return "cannot write standard output: " + reason(e.err).Error() }

// FlushOutput writes the program output still buffered and returns the
// first failed write to Stdout, if any, as "cannot write standard output:
// <reason>". Close flushes too; call FlushOutput after it to learn whether
// all output reached Stdout.
func (vm *VM) FlushOutput() error {
	if err := vm.out.Flush(); err != nil {
		return &outputError{err}
	}
	return nil
}

// Close flushes output and releases the heap.
func (vm *VM) Close() {
	if vm.closed {
		return
	}
	vm.closed = true
	if vm.heap != nil {
		vm.saveHotFields()
		vm.heap.Finish()
	}
	vm.out.Flush()
	if vm.heap != nil {
		vm.heap.Release()
	}
}
