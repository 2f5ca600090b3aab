package interp

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"minivm/runtime/gc"
)

// TestStackTrace checks the whole runtime error report: message, then one
// line per frame, innermost first.
func TestStackTrace(t *testing.T) {
	src := `fun inner() {
  return nil + 1;
}
class K {
  method() {
    inner();
  }
}
fun outer() { K().method(); }
print "before";
outer();
print "after";
`
	stdout, stderr, code := runLox(t, src, Options{Heap: testHeap})
	want := "Operands must be two numbers or two strings.\n" +
		"[line 2] in inner()\n" +
		"[line 6] in method()\n" +
		"[line 9] in outer()\n" +
		"[line 11] in script\n"
	if code != ExitRuntimeError || stderr != want || stdout != "before\n" {
		t.Errorf("code %d\nstdout %q\nstderr:\n%s\nwant:\n%s", code, stdout, stderr, want)
	}
}

func TestCompileErrorExitCode(t *testing.T) {
	stdout, stderr, code := runLox(t, "print 1;\nvar = 2;\nprint (;\n", Options{Heap: testHeap})
	if code != ExitCompileError || stdout != "" {
		t.Fatalf("code %d stdout %q", code, stdout)
	}
	want := "[line 2] Error at '=': Expect variable name.\n[line 3] Error at ';': Expect expression.\n"
	if stderr != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
}

// TestOutOfMemory fills a small heap with a growing list: the script ends
// with an OutOfMemoryError runtime error, never a crash.
func TestOutOfMemory(t *testing.T) {
	src := `class Node { init(next) { this.next = next; this.pad = [1, 2, 3, 4, 5, 6, 7, 8]; } }
var list = nil;
while (true) {
  list = Node(list);
}
`
	for _, cfg := range []gc.Config{
		{MaxHeap: 2 << 20, NurserySize: 256 << 10},
		{MaxHeap: 4 << 20, NurserySize: 512 << 10, Collector: gc.BreadthFirst},
	} {
		stdout, stderr, code := runLox(t, src, Options{Heap: cfg})
		lines := splitLines(stderr)
		if code != ExitRuntimeError || stdout != "" || len(lines) < 2 ||
			!strings.HasPrefix(lines[0], "OutOfMemoryError") || !strings.HasPrefix(lines[len(lines)-1], "[line ") {
			t.Errorf("%+v: code %d stdout %q stderr %q", cfg, code, stdout, stderr)
		}
	}
}

// TestOutOfMemoryHuge asks for objects larger than any heap.
func TestOutOfMemoryHuge(t *testing.T) {
	for _, src := range []string{
		"var a = Array(1000000 * 1000000);",
		"var a = Array(100000000);",
		`var s = "ab"; while (true) s = s + s;`,
	} {
		_, stderr, code := runLox(t, src, Options{Heap: gc.Config{MaxHeap: 8 << 20, NurserySize: 1 << 20}})
		if code != ExitRuntimeError || !strings.HasPrefix(stderr, "OutOfMemoryError") || !strings.Contains(stderr, "[line 1] in script") {
			t.Errorf("%s: code %d stderr %q", src, code, stderr)
		}
	}
}

func TestStepLimit(t *testing.T) {
	for _, src := range []string{
		"while (true) {}",
		"fun f() { f(); } f();",
		"for (;;) { var a = 1; }",
	} {
		_, stderr, code := runLox(t, src, Options{Heap: testHeap, StepLimit: 1000})
		if code != ExitRuntimeError || !strings.HasPrefix(stderr, "Step limit exceeded.\n[line 1]") && !strings.HasPrefix(stderr, "Stack overflow.") {
			t.Errorf("%s: code %d stderr %q", src, code, stderr)
		}
	}
	stdout, _, code := runLox(t, "var i = 0; while (i < 10) i = i + 1; print i;", Options{Heap: testHeap, StepLimit: 1000})
	if code != ExitOK || stdout != "10\n" {
		t.Errorf("short loop under a step limit: code %d stdout %q", code, stdout)
	}
}

func TestREPL(t *testing.T) {
	var out, errw bytes.Buffer
	vm, err := New(Options{Heap: testHeap, Stdout: &out, Stderr: &errw})
	if err != nil {
		t.Fatal(err)
	}
	defer vm.Close()
	in := strings.NewReader(`var a = 1;
fun f(x) { return x + a; }
print f(2);
print nope;
class C { m() { return "m"; } }
print C().m();
var = ;
a = a + 1;
print f(2);
fun g() { return h(); }
fun h() { return 1 + "x"; }
g();
print "end";`)
	if code := vm.RunREPL(in); code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	wantOut := "> > > 3\n> > > m\n> > > 4\n> > > > end\n\n"
	if out.String() != wantOut {
		t.Errorf("stdout %q, want %q", out.String(), wantOut)
	}
	wantErr := "Undefined variable 'nope'.\n[line 1] in script\n" +
		"[line 1] Error at '=': Expect variable name.\n" +
		"Operands must be two numbers or two strings.\n[line 1] in h()\n[line 1] in g()\n[line 1] in script\n"
	if errw.String() != wantErr {
		t.Errorf("stderr %q, want %q", errw.String(), wantErr)
	}
}

// TestRunTwice runs two scripts in one VM: globals persist, errors reset
// the machine.
func TestRunTwice(t *testing.T) {
	var out, errw bytes.Buffer
	vm, err := New(Options{Heap: testHeap, Stdout: &out, Stderr: &errw})
	if err != nil {
		t.Fatal(err)
	}
	defer vm.Close()
	if code := vm.RunScript("var x = 1; fun f() { return x; } nil();"); code != ExitRuntimeError {
		t.Fatalf("first run: %d", code)
	}
	if code := vm.RunScript("print f();"); code != ExitOK || out.String() != "1\n" {
		t.Fatalf("second run: %d %q %q", code, out.String(), errw.String())
	}
}

// TestClassUnloading creates many short-lived classes: their ClassMetas
// are unloaded, their table entries recycled, and inline caches that named
// them cleared.
func TestClassUnloading(t *testing.T) {
	src := `fun make(i) {
  class K { init(v) { this.v = v; } get() { return this.v; } }
  return K(i);
}
var total = 0;
for (var i = 0; i < 3000; i = i + 1) {
  var k = make(i);
  total = total + k.get() + k.v;
}
print total == 8997000;
gc();
print "ok";
`
	var out, errw bytes.Buffer
	vm, err := New(Options{Heap: gc.Config{MaxHeap: 16 << 20, NurserySize: 512 << 10}, Stdout: &out, Stderr: &errw})
	if err != nil {
		t.Fatal(err)
	}
	defer vm.Close()
	if code := vm.RunScript(src); code != ExitOK || out.String() != "true\nok\n" {
		t.Fatalf("code %d out %q err %q", code, out.String(), errw.String())
	}
	live := 0
	vm.classes.each(func(*classRec) { live++ })
	if vm.classes.n >= 3000 || live > 10 {
		t.Errorf("classes not unloaded: table %d, live %d", vm.classes.n, live)
	}
	// Class metadata stays bounded: the freed ClassMeta records are reused.
	if n := vm.heap.ClassesUnloaded(); n < 2990 {
		t.Errorf("only %d classes unloaded", n)
	}
	if b := vm.heap.MetadataInUse(); b > 16<<10 {
		t.Errorf("%d bytes of class metadata in use after unloading", b)
	}
}

// TestNoInternalErrors runs inputs that once were (or could be) internal
// errors.
func TestNoInternalErrors(t *testing.T) {
	for _, src := range []string{
		"",
		"print;",
		"class A < A {}",
		"return 1;",
		"var a = [[[[[[[[[[]]]]]]]]]]; print a;",
		"var a = []; for (var i = 0; i < 2000; i = i + 1) a = [a]; print len(str(a)) > 0;",
		"fun f() {} print f == f; print f() == nil;",
		"print this;",
		"print super.x;",
	} {
		_, stderr, _ := runLox(t, src, Options{Heap: testHeap})
		if strings.Contains(stderr, "internal error") {
			t.Errorf("%q: %s", src, stderr)
		}
	}
}

// TestWideOperands compiles a function with more constants, globals and
// locals than one-byte operands allow, and a long jump.
func TestWideOperands(t *testing.T) {
	var b strings.Builder
	b.WriteString("fun f() {\n")
	for i := 0; i < 300; i++ {
		b.WriteString("  var l" + itoa(i) + " = " + itoa(i) + ";\n")
	}
	b.WriteString("  var sum = 0;\n  if (true) {\n")
	for i := 0; i < 300; i++ {
		b.WriteString("    sum = sum + l" + itoa(i) + " + " + itoa(1000+i) + ";\n")
	}
	b.WriteString("  }\n  return sum;\n}\n")
	for i := 0; i < 300; i++ {
		b.WriteString("var g" + itoa(i) + " = \"s" + itoa(i) + "\";\n")
	}
	b.WriteString("print f();\nprint g299;\n")
	stdout, stderr, code := runLox(t, b.String(), Options{Heap: testHeap})
	if code != ExitOK || stdout != "389700\ns299\n" {
		t.Errorf("code %d stdout %q stderr %q", code, stdout, stderr)
	}
}

func itoa(i int) string { return formatNumber(float64(i)) }

// TestDisassemble checks the compiler's output for a small function.
func TestDisassemble(t *testing.T) {
	got := disassembleFunc(t, "fun f(a) { return a + 1; }")
	for _, want := range []string{"LOCAL_ADD_CONST", "RETURN"} {
		if !strings.Contains(got, want) {
			t.Errorf("disassembly lacks %s:\n%s", want, got)
		}
	}
}

func TestNumberFormat(t *testing.T) {
	for f, want := range map[float64]string{
		0: "0", 1: "1", -1: "-1", 0.5: "0.5", 1e21: "1e+21", 1.5e-7: "1.5e-07",
		123456: "123456", 1234567: "1.23457e+06", 0.000123456789: "0.000123457",
	} {
		if got := formatNumber(f); got != want {
			t.Errorf("formatNumber(%v) = %q, want %q", f, got, want)
		}
	}
}

// TestStackOverflowTrace checks that runaway recursion ends in "Stack
// overflow." with a trace cut in the middle, both when the frame limit is
// hit and when the value stack limit is (frames with huge operand stacks).
func TestStackOverflowTrace(t *testing.T) {
	elems := strings.Repeat("0, ", 1100) + "0"
	for _, src := range []string{
		"fun f(n) {\n  return f(n + 1);\n}\nf(0);\n",
		"fun f(n) {\n  return [" + elems + ", f(n + 1)];\n}\nf(0);\n",
	} {
		_, stderr, code := runLox(t, src, Options{Heap: testHeap})
		lines := splitLines(stderr)
		if code != ExitRuntimeError || len(lines) != 1+traceHead+1+traceTail+1 || lines[0] != "Stack overflow." ||
			lines[1] != "[line 2] in f()" || !strings.Contains(lines[1+traceHead], "frames omitted") ||
			lines[len(lines)-1] != "[line 4] in script" {
			t.Errorf("code %d, %d lines:\n%s", code, len(lines), strings.Join(lines[:min(len(lines), 40)], "\n"))
		}
	}
}

// TestIsNumber checks the dispatch loop's isNumber against
// gc.Value.IsNumber at the edges of the boxed space and on every pattern
// of the tag bits.
func TestIsNumber(t *testing.T) {
	vals := []gc.Value{gc.Number(0), gc.Number(-1.5), gc.Number(math.Inf(1)), gc.Number(math.Inf(-1)),
		gc.Number(math.NaN()), gc.Value(0xfff8000000000000), gc.Value(0x7ffbffffffffffff), gc.Value(0xfffbffffffffffff),
		gc.Nil, gc.True, gc.False, gc.Undefined, gc.FromRef(0), gc.FromRef(1<<32 - 1),
		gc.Value(0x7ffc000000000000), gc.Value(0xffffffffffffffff)}
	for bits := range uint64(1 << 14) {
		vals = append(vals, gc.Value(bits<<50|0x123456789))
	}
	for _, v := range vals {
		if isNumber(v) != v.IsNumber() {
			t.Errorf("%#x: isNumber %v, IsNumber %v", uint64(v), isNumber(v), v.IsNumber())
		}
	}
}
