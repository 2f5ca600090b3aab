package interp

import (
	"io"

	"minivm/runtime/gc"
)

// Options configure a VM.
type Options struct {
	Heap   gc.Config // heap sizes and collector settings (from -X options)
	Args   []string  // script arguments, returned by argv()
	Stdout io.Writer // program output (buffered by the VM, flushed by Close and before errors)
	Stderr io.Writer // compile and runtime errors
	// StepLimit stops a run after this many instructions with a runtime
	// error (0 = no limit); used by fuzzing.
	StepLimit int64
}

// Exit codes, as clox uses them.
const (
	ExitOK           = 0
	ExitCompileError = 65
	ExitRuntimeError = 70
)

// VM is one Lox virtual machine with its own heap.
type VM struct {
	opts Options
}

// New creates a VM and its heap. It fails only when the heap cannot be
// reserved or the configuration is invalid.
func New(opts Options) (*VM, error) {
	return &VM{opts: opts}, nil
}

// RunScript compiles and runs a whole script and returns the exit code:
// ExitOK, ExitCompileError (errors printed to Stderr as clox prints them) or
// ExitRuntimeError (message and stack trace printed to Stderr).
func (vm *VM) RunScript(src string) int {
	return ExitOK
}

// RunREPL reads declarations line by line from in, printing a "> " prompt
// to Stdout, and runs each one; globals persist between lines. Errors are
// reported and the REPL continues. It returns ExitOK at end of input.
func (vm *VM) RunREPL(in io.Reader) int {
	return ExitOK
}

// Close flushes output and releases the heap.
func (vm *VM) Close() {}
