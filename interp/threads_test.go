package interp

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"minivm/runtime/gc"
)

// Thread lifetime, in-process: a VM is created, runs the script and is
// closed (its heap unmapped) by the test goroutine while the script's
// threads, grandchildren included, may still be running; Close must come
// only after every one of them has ended. Each scenario failed only in
// some runs (a fault when the heap was unmapped under a grandchild, or its
// output lost), so each runs many times; run them under -race as well
// (testscripts/testdata/threads_lifetime.txtar and threads_limit.txtar
// run the same programs through the command).
func TestThreadLifetime(t *testing.T) {
	stress := gc.Config{MaxHeap: 64 << 20, NurserySize: 1 << 20, StressInterval: 1, Verify: true}
	for _, c := range []struct {
		name   string
		src    string
		heap   gc.Config
		runs   int
		code   int
		stdout string
		stderr string // a regular expression for the whole of stderr
	}{
		{"allocating grandchild", `
fun w2() { var a = nil; for (var i = 0; i < 20000; i = i + 1) a = [a]; }
fun w() { spawn(w2); }
spawn(w);`, testHeap, 30, ExitOK, "", ""},
		{"allocating grandchild, stress", `
fun w2() { var a = nil; for (var i = 0; i < 300; i = i + 1) a = [a]; }
fun w() { spawn(w2); }
spawn(w);`, stress, 5, ExitOK, "", ""},
		{"printing great-grandchild", `
fun c() { var a = nil; for (var i = 0; i < 20000; i = i + 1) a = [i, a]; print a[0]; }
fun b() { print "child"; spawn(c); }
fun a() { print "parent"; spawn(b); }
spawn(a);`, testHeap, 30, ExitOK, "parent\nchild\n19999\n", ""},
		{"main fails, grandchild stopped", `
fun forever() { var a = nil; while (true) a = [a, a]; }
fun w() { spawn(forever); }
spawn(w);
nil + 1;`, testHeap, 30, ExitRuntimeError, "",
			`^Operands must be two numbers or two strings.\n\[line 5\] in script\n$`},
		{"spawn bomb", `fun w() { spawn(w); spawn(w); } spawn(w);`,
			gc.Config{MaxHeap: 64 << 20, NurserySize: 1 << 20, MaxLiveThreads: 32}, 30, ExitRuntimeError, "",
			`^Thread \d+: OutOfMemoryError: unable to create native thread: 32 live threads \(-XX:MaxLiveThreads=32\)\n\[line 1\] in w\(\)\n$`},
	} {
		t.Run(c.name, func(t *testing.T) {
			re := regexp.MustCompile(c.stderr)
			if c.stderr == "" {
				re = regexp.MustCompile(`^$`)
			}
			for run := range c.runs {
				stdout, stderr, code := runLox(t, c.src, Options{Heap: c.heap})
				if code != c.code || stdout != c.stdout || !re.MatchString(stderr) {
					t.Fatalf("run %d: exit %d, want %d\nstdout:\n%s\nwant:\n%s\nstderr:\n%s", run, code, c.code, stdout, c.stdout, stderr)
				}
			}
		})
	}
}

// The REPL waits for a line's threads before the next prompt, and a line
// that fails stops them.
func TestREPLWaitsForThreads(t *testing.T) {
	src := "fun c() { var a = nil; for (var i = 0; i < 20000; i = i + 1) a = [a]; print \"grandchild\"; }\n" +
		"fun w() { spawn(c); }\n" +
		"spawn(w);\n" +
		"print \"next\";\n" +
		"fun f() { while (true) {} } spawn(f); nil + 1;\n" +
		"print \"after\";\n"
	for range 10 {
		stdout, stderr := runREPL(t, src)
		if want := "> > > grandchild\n> next\n> > after\n> \n"; stdout != want {
			t.Fatalf("stdout %q, want %q", stdout, want)
		}
		if want := "Operands must be two numbers or two strings.\n[line 1] in script\n"; stderr != want {
			t.Fatalf("stderr %q, want %q", stderr, want)
		}
	}
}

// runREPL runs src through a fresh VM's REPL and closes it.
func runREPL(t *testing.T, src string) (stdout, stderr string) {
	t.Helper()
	var out, errw bytes.Buffer
	vm, err := New(Options{Heap: testHeap, Stdout: &out, Stderr: &errw})
	if err != nil {
		t.Fatal(err)
	}
	if code := vm.RunREPL(strings.NewReader(src)); code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	vm.Close()
	return out.String(), errw.String()
}
