package interp

import (
	"strings"
	"testing"

	"minivm/lang"
)

// disassembleFunc compiles src and returns the disassembly of its first
// function (protos[1]) or, with none, of the script.
func disassembleFunc(t *testing.T, src string) string {
	t.Helper()
	prog, errs := lang.Parse(src)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	vm, err := New(Options{Heap: testHeap})
	if err != nil {
		t.Fatal(err)
	}
	defer vm.Close()
	u, cerrs := vm.compile(prog)
	if len(cerrs) > 0 {
		t.Fatal(cerrs)
	}
	vm.load(u)
	return vm.disassemble(u.protos[min(1, len(u.protos)-1)])
}

// TestPureStatements checks that an expression statement without effects
// compiles to nothing but the checks of the globals it reads.
func TestPureStatements(t *testing.T) {
	got := disassembleFunc(t, `fun f(a) { 1; nil == "s"; !(a != true); this_is_global == a; }`)
	if n := strings.Count(got, "\n"); n != 4 || strings.Count(got, "CHECK_GLOBAL") != 1 {
		t.Errorf("want the header, one CHECK_GLOBAL and the return, got:\n%s", got)
	}
	got = disassembleFunc(t, `fun f(a) { a + 1; -a; a < 2; a.x; }`)
	if strings.Count(got, "POP ") != 4 {
		t.Errorf("statements with effects lost their code:\n%s", got)
	}
}

// TestPureStatementErrors checks that a pure statement still fails on an
// undefined global, at its line, after the globals to its left.
func TestPureStatementErrors(t *testing.T) {
	stdout, stderr, code := runLox(t, "var a = 1;\nprint \"x\";\na == b;\nprint \"y\";\n", Options{Heap: testHeap})
	want := "Undefined variable 'b'.\n[line 3] in script\n"
	if code != ExitRuntimeError || stdout != "x\n" || stderr != want {
		t.Errorf("code %d stdout %q stderr %q, want %q", code, stdout, stderr, want)
	}
}
