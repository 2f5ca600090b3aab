// Package cli is the minivm command line:
//
//	minivm [options] script.lox [args...]
//	minivm [options]                        (REPL on standard input)
//	minivm bench [flags] script.lox...      (interleaved A/B benchmark runs)
//	minivm gcplot [flags] STATS.jsonl...    (plots of stats files)
//	minivm gcplot -gc N TRACE.json          (a collection's worker timeline)
//
// It parses the -X options (options.go) into a gc.Config, opens the GC log
// and statistics files, runs the script or the REPL on an interp.VM and
// turns the outcome into an exit code:
//
//	0   success
//	64  bad usage: unknown option, bad value, contradictory sizes, or a log
//	    or statistics file that cannot be created (one line on stderr)
//	65  compile error (clox format on stderr)
//	70  runtime error (message and stack trace on stderr), a VM that cannot
//	    be created (e.g. the heap cannot be reserved), or an internal error
//	74  the script cannot be read or exceeds -XX:MaxScriptSize, or
//	    standard output or a GC output file cannot be written
//
// No Go panic reaches the user: Run recovers, prints "internal error: ..."
// and returns 70.
//
// The package is separate from package main so that tests can run the
// command in-process (testscripts registers Run as the minivm command).
package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"runtime/debug"
	"time"

	"minivm/interp"
	"minivm/runtime/gc/xlog"
)

// Version is minivm's version.
const Version = "0.1.0"

// Exit codes besides interp's (0, 65, 70); the values are clox's, from
// BSD sysexits.h.
const (
	ExitUsage    = 64 // EX_USAGE: bad command line
	ExitSoftware = 70 // EX_SOFTWARE: internal error (same as a runtime error)
	ExitIOErr    = 74 // EX_IOERR: the script cannot be read
)

// Run runs minivm with the command-line arguments args (without the
// program name) and returns the exit code.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "internal error: %v\n", r)
			code = ExitSoftware
		}
	}()
	// The heap is memory minivm maps itself: a stray access to it must
	// become a panic recovered above, not a fatal fault with a stack dump.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))

	// The research subcommands (bench.go, gcplot.go).
	if len(args) > 0 {
		if sub := subcommands[args[0]]; sub != nil {
			return sub(args[1:], stdout, stderr)
		}
	}

	inv, err := parse(args)
	if err != nil {
		fmt.Fprintf(stderr, "minivm: %v\n", err)
		return ExitUsage
	}
	for _, w := range inv.warnings {
		fmt.Fprintf(stderr, "minivm: warning: %s\n", w)
	}
	switch inv.action {
	case actVersion:
		return writeInfo(stdout, stderr, func(w io.Writer) {
			fmt.Fprintf(w, "minivm version %s\n", Version)
			fmt.Fprintf(w, "built with %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
		})
	case actHelp:
		return writeInfo(stdout, stderr, writeHelp)
	case actListX:
		return writeInfo(stdout, stderr, writeXHelp)
	case actXlogHelp:
		return writeInfo(stdout, stderr, xlog.WriteHelp)
	}

	// Read the script before creating any output file, so a mistyped
	// script name does not truncate last run's log.
	var src string
	if inv.hasScript {
		var err error
		if src, err = readScript(inv.script, inv.maxScriptSize); err != nil {
			fmt.Fprintf(stderr, "minivm: %v\n", err)
			return ExitIOErr
		}
	}

	var out outputs
	defer func() {
		// Runs after the VM is closed (defers are LIFO), also when a
		// runtime error or a panic ends the run.
		if err := out.close(); err != nil && code == interp.ExitOK {
			fmt.Fprintf(stderr, "minivm: %v\n", err)
			code = ExitIOErr
		}
	}()
	if err := out.open(&inv.settings, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "minivm: %v\n", err)
		return ExitUsage
	}

	vm, err := interp.New(interp.Options{
		Heap:   inv.cfg,
		Args:   inv.args,
		Stdout: stdout,
		Stderr: stderr,

		HotFieldScanOrdering: inv.hotFieldOrdering,
		LoadHints:            inv.loadHints,
		SaveHints:            inv.saveHints,
	})
	if err != nil {
		fmt.Fprintf(stderr, "minivm: %v\n", err)
		return ExitSoftware
	}
	defer vm.Close()
	if inv.hasScript {
		code = vm.RunScript(src)
	} else {
		code = vm.RunREPL(&lineLimiter{r: stdin, max: inv.maxScriptSize})
	}
	// Close writes the GC log's last lines. A failed write to stdout, then
	// or earlier, makes the exit status 74 even after a runtime error
	// (which may be its consequence, as when join() raises a thread's
	// failed print): the output is lost either way. A compile error
	// writes nothing to stdout.
	vm.Close()
	if err := vm.FlushOutput(); err != nil {
		fmt.Fprintf(stderr, "minivm: %v\n", err)
		if code == interp.ExitOK || code == interp.ExitRuntimeError {
			code = ExitIOErr
		}
	}
	return code
}

// writeInfo writes what an information option prints (-version, -help,
// -X) and reports a failed write as the exit status 74.
func writeInfo(stdout, stderr io.Writer, write func(w io.Writer)) int {
	w := bufio.NewWriter(stdout)
	write(w)
	if err := w.Flush(); err != nil {
		fmt.Fprintf(stderr, "minivm: cannot write standard output: %v\n", reason(err))
		return ExitIOErr
	}
	return interp.ExitOK
}

// outputs are the files the collector writes (GC log, statistics), kept
// buffered while the script runs and flushed and closed when it ends.
type outputs struct {
	files []*outputFile
}

type outputFile struct {
	what, path string
	f          *os.File
	w          *bufio.Writer
}

// open sets s.cfg.Log, s.cfg.StatsFile and s.cfg.TraceFile. GC log lines for stdout go to
// the very writer the VM prints to (stdout), so an interpreter that buffers
// its output can recognize it and keep log lines and program output in
// order.
func (o *outputs) open(s *settings, stdout, stderr io.Writer) error {
	log, err := s.log.Open(stdout, stderr, func(path string) (io.Writer, error) {
		return o.create("log file", path)
	}, time.Now())
	if err != nil {
		return err
	}
	s.cfg.Log = log
	if s.statsPath != "" {
		w, err := o.create("stats file", s.statsPath)
		if err != nil {
			return err
		}
		s.cfg.StatsFile = w
	}
	if s.tracePath != "" {
		w, err := o.create("trace file", s.tracePath)
		if err != nil {
			return err
		}
		s.cfg.TraceFile = w
	}
	return nil
}

func (o *outputs) create(what, path string) (io.Writer, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("cannot open %s '%s': %v", what, path, reason(err))
	}
	of := &outputFile{what: what, path: path, f: f, w: bufio.NewWriterSize(f, 64<<10)}
	o.files = append(o.files, of)
	return of.w, nil
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

// close flushes and closes every file and returns the first failure.
func (o *outputs) close() error {
	var first error
	for _, of := range o.files {
		err := of.w.Flush()
		if cerr := of.f.Close(); err == nil {
			err = cerr
		}
		if err != nil && first == nil {
			first = fmt.Errorf("cannot write %s '%s': %v", of.what, of.path, err)
		}
	}
	o.files = nil
	return first
}

func writeHelp(w io.Writer) {
	fmt.Fprint(w, `Usage: minivm [options] script.lox [args...]
       minivm [options]              (REPL: reads declarations from stdin)

Runs a Lox script (Crafting Interpreters' Lox plus arrays) on the minivm
bytecode VM and its generational heap. Options come before the script;
everything after the script is passed to it (argv()).

Options:
`)
	writeOptions(w, false)
	fmt.Fprint(w, `
Run 'minivm -X' for the heap, collector, stress and GC log options.

Research subcommands ('minivm bench -h', 'minivm gcplot -h'):
  minivm bench [-count N] [-config NAME=FLAGS]... [-o FILE] script.lox...
      interleaved runs under each configuration, in Go benchmark format
  minivm gcplot STATS.jsonl... -o OUT.png|OUT.svg
      plots of -Xgc:statsFile output
  minivm gcplot TRACE.json -gc N -o OUT.png|OUT.svg
      collection N's GC worker timeline from -Xgc:traceFile output

Exit codes: 0 ok, 64 bad usage or option, 65 compile error,
70 runtime or internal error, 74 script cannot be read or output
cannot be written.
`)
}

func writeXHelp(w io.Writer) {
	fmt.Fprint(w, `The -X options (defaults in brackets); sizes use Java syntax: 4096, 512k, 64m, 1g.

`)
	writeOptions(w, true)
	fmt.Fprint(w, `
These options are non-standard and subject to change.
`)
}
