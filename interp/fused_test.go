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

// TestPureRunChecksOnce checks that a run of pure statements checks each
// global once, at its first read, and that a failing one still fails
// there.
func TestPureRunChecksOnce(t *testing.T) {
	got := disassembleFunc(t, "var a = 1;\nvar b = 2;\na; a == b; b == a; !a;\n")
	if n := strings.Count(got, "CHECK_GLOBAL"); n != 2 {
		t.Errorf("%d CHECK_GLOBALs, want 2:\n%s", n, got)
	}
	_, stderr, code := runLox(t, "var a = 1;\na;\na == a;\na == c;\nc;\n", Options{Heap: testHeap})
	if want := "Undefined variable 'c'.\n[line 4] in script\n"; code != ExitRuntimeError || stderr != want {
		t.Errorf("code %d stderr %q, want %q", code, stderr, want)
	}
}

// TestFusedErrors checks the errors of the fused instructions: message
// and line as the unfused pair gave them.
func TestFusedErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"var s = \"a\";\nwhile (s <\n 2) {}\n", "Operands must be numbers.\n[line 3] in script\n"},
		{"fun f(a) {\n  return a -\n 1;\n}\nf(nil);\n", "Operands must be numbers.\n[line 3] in f()\n[line 5] in script\n"},
		{"fun f(a) { return a + 1; }\nf(\"x\");\n", "Operands must be two numbers or two strings.\n[line 1] in f()\n[line 2] in script\n"},
		{"print 1;\nundefinedGlobal =\n 2;\n", "Undefined variable 'undefinedGlobal'.\n[line 3] in script\n"},
		{"while (g <\n 2) {}\n", "Undefined variable 'g'.\n[line 1] in script\n"},
		{"var g = nil;\nwhile (g <\n 2) {}\n", "Operands must be numbers.\n[line 3] in script\n"},
		{"print u\n - 1;\n", "Undefined variable 'u'.\n[line 1] in script\n"},
		{"var g = true;\nprint g\n - 1;\n", "Operands must be numbers.\n[line 3] in script\n"},
		{"var g = \"s\";\nprint g + 1;\n", "Operands must be two numbers or two strings.\n[line 2] in script\n"},
	} {
		_, stderr, code := runLox(t, tc.src, Options{Heap: testHeap})
		if code != ExitRuntimeError || stderr != tc.want {
			t.Errorf("%q: code %d stderr %q, want %q", tc.src, code, stderr, tc.want)
		}
	}
	stdout, _, code := runLox(t, "var k = 0;\nwhile (k < 3) k = k + 1;\nprint k - 1;\nvar i = 0;\nfor (var j = 0; j < 3; j = j + 1) { i = i + j; }\nif (i < 4) print i; else print -i;\nfun f(n) { var m = n - 1; m = m + 10; return m; }\nprint f(5);\n", Options{Heap: testHeap})
	if code != 0 || stdout != "2\n3\n14\n" {
		t.Errorf("code %d stdout %q", code, stdout)
	}
}

// TestCallGlobalLocalConst checks that `g(x - k)` is one instruction and
// that it behaves, errors and traces included, as the unfused sequence
// does: in each program the callee at $ is once g and once (g), which is
// not fused.
func TestCallGlobalLocalConst(t *testing.T) {
	if got := disassembleFunc(t, "fun f(n) { return f(n - 2) + f(n + 1); }"); strings.Count(got, "CALL_GLOBAL_LOCAL_") != 2 || strings.Contains(got, " CALL ") {
		t.Errorf("want two fused calls:\n%s", got)
	}
	for _, tc := range []struct{ src, g string }{
		{"fun f(n) {\n  if (n < 2) return n;\n  return $(n - 2) + $(n - 1);\n}\nprint f(15);\n", "f"},
		{"fun f(n) {\n  return $\n(n\n - 1\n);\n}\nf(3);\n", "u"},
		{"fun f(n) {\n  return $\n(n\n - 1\n);\n}\nf(nil);\n", "u"},
		{"fun f(n) {\n  return $\n(n\n - 1\n);\n}\nf(nil);\n", "f"},
		{"fun f(n) {\n  return $(n\n + 1);\n}\nf(\"s\");\n", "f"},
		{"fun g(a, b) {}\nfun f(n) {\n  return $\n(n\n + 1\n);\n}\nf(1);\n", "g"},
		{"var g = 1;\nfun f(n) {\n  return $(n\n - 1\n);\n}\nf(1);\n", "g"},
		{"fun g(a) { return a.x; }\nfun f(n) {\n  return $\n(n\n + 1\n);\n}\nf(1);\n", "g"},
		{"fun f(n) {\n  return $(n\n + 1);\n}\nf(0);\n", "f"},
		{"fun f(n) {\n  return $\n(n - 1);\n}\nf(0);\n", "clock"},
		{"class A { init(x) { print x; } }\nfun f(n) {\n  $(n + 1);\n  return A\n(n - 1);\n}\nf(0);\n", "A"},
		{"class A { m(x) { return x; } }\nvar m = A().m;\nfun f(n) { return $(n - 1); }\nprint f(3);\n", "m"},
	} {
		src := strings.ReplaceAll(tc.src, "$", tc.g)
		unfused := strings.ReplaceAll(tc.src, "$", "("+tc.g+")")
		stdout, stderr, code := runLox(t, src, Options{Heap: testHeap})
		wantOut, wantErr, wantCode := runLox(t, unfused, Options{Heap: testHeap})
		if stdout != wantOut || stderr != wantErr || code != wantCode {
			t.Errorf("%q: got %d %q %q, unfused %d %q %q", src, code, stdout, stderr, wantCode, wantOut, wantErr)
		}
	}
}

// TestAddReturn checks that `return a + b;` is one ADD_RETURN after the
// operands and behaves as ADD and RETURN do: in each program the sum at $
// is once bare and once parenthesized, which is not fused.
func TestAddReturn(t *testing.T) {
	if got := disassembleFunc(t, "fun f(a, b) { return a + b; }"); !strings.Contains(got, "ADD_RETURN") || strings.Contains(got, " ADD ") {
		t.Errorf("want ADD_RETURN:\n%s", got)
	}
	for _, src := range []string{
		"fun f(a, b) { return $a + b$; }\nprint f(1, 2);\nprint f(\"x\", \"y\");\nprint f(f(\"a\", \"b\"), \"c\") + \"!\";\n",
		"fun f(a, b) {\n  return $a\n +\n b$;\n}\nf(1, nil);\n",
		"fun f(a, b) {\n  return $a + (b or\n a)$;\n}\nprint f(1, false);\nprint f(2, 3);\n",
		"class A { init(x) { this.x = x; } s() { return $this.x + this.x$; } }\nprint A(\"ab\").s();\nA(true).s();\n",
		"fun f(a) { var g = 1; fun h() { return g; } return $a + h()$; }\nprint f(2);\n",
	} {
		fused := strings.ReplaceAll(src, "$", "")
		unfused := strings.ReplaceAll(strings.Replace(src, "$", "(", 1), "$", ")")
		stdout, stderr, code := runLox(t, fused, Options{Heap: testHeap})
		wantOut, wantErr, wantCode := runLox(t, unfused, Options{Heap: testHeap})
		if stdout != wantOut || stderr != wantErr || code != wantCode {
			t.Errorf("%q: got %d %q %q, unfused %d %q %q", fused, code, stdout, stderr, wantCode, wantOut, wantErr)
		}
	}
}
