package interp

import (
	"strings"
	"testing"
)

// TestLongChains compiles and runs chains the parser builds in a loop, long
// enough that a recursive compiler would need a deep Go stack, and checks
// the code they make (including the line of a runtime error at the end of
// a long chain).
func TestLongChains(t *testing.T) {
	const n = 100000
	cases := []struct{ name, src, out string }{
		{"plus", "print 0" + strings.Repeat("+1", n) + ";", "100000\n"},
		{"minus vars", "var a = 1;\nprint 0" + strings.Repeat("-a", n) + ";", "-100000\n"},
		{"or", "print nil" + strings.Repeat(" or nil", n) + " or 7;", "7\n"},
		{"and", "print true" + strings.Repeat(" and true", n) + " and 7;", "7\n"},
		{"properties", "class C {}\nvar a = C();\na.x = a;\nprint a" + strings.Repeat(".x", n) + " == a;", "true\n"},
		{"set at the end", "class C {}\nvar a = C();\na.x = a;\na" + strings.Repeat(".x", n) + ".y = 3;\nprint a.y;", "3\n"},
		{"method calls", "class C { m() { return this; } }\nvar a = C();\nprint a" + strings.Repeat(".m()", n) + " == a;", "true\n"},
		{"calls", "fun f() { return f; }\nprint f" + strings.Repeat("()", n) + ";", "<fn f>\n"},
		{"indexes", "var a = [0];\na[0] = a;\nprint a" + strings.Repeat("[0]", n) + " == a;", "true\n"},
		{"in a method", "class C { init() { this.x = 0" + strings.Repeat(" + 1", n) + "; } }\nprint C().x;", "100000\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runLox(t, tc.src, Options{Heap: testHeap})
			if code != ExitOK || stdout != tc.out || stderr != "" {
				t.Errorf("code %d stdout %q stderr %q, want %q", code, stdout, stderr, tc.out)
			}
		})
	}
	// A runtime error reports the line where the failing operator's
	// operand ends, however far down a chain that is.
	for _, tc := range []struct{ src, err string }{
		{"print 1" + strings.Repeat(" +\n1", n) + " + nil;", "Operands must be two numbers or two strings.\n[line 100001] in script\n"},
		{"print " + strings.Repeat("-\n", 900) + "nil;", "Operand must be a number.\n[line 901] in script\n"},
		{"var a;\n" + strings.Repeat("a =\n", 900) + "-\n(\"s\");", "Operand must be a number.\n[line 903] in script\n"},
	} {
		_, stderr, code := runLox(t, tc.src, Options{Heap: testHeap})
		if code != ExitRuntimeError || stderr != tc.err {
			t.Errorf("%.30q...: code %d stderr %q, want %q", tc.src, code, stderr, tc.err)
		}
	}
}

// TestJumpLimit lowers the largest jump target to check that code past it
// is a compile error, never a jump that wraps.
func TestJumpLimit(t *testing.T) {
	defer func(old int) { maxJumpTarget = old }(maxJumpTarget)
	maxJumpTarget = 1000
	cases := []struct{ src, err string }{
		{"print true" + strings.Repeat(" or true", 200) + ";", "[line 1] Error: Too much code to jump over.\n"},
		{"if (true) {\n" + strings.Repeat("print 1;\n", 200) + "}", "[line 1] Error: Too much code to jump over.\n"},
		{strings.Repeat("print 1;\n", 200) + "while (false) {}", "[line 201] Error: Loop body too large.\n"},
		{"print true" + strings.Repeat(" or true", 10) + ";", ""},
	}
	for _, tc := range cases {
		_, stderr, code := runLox(t, tc.src, Options{Heap: testHeap})
		wantCode := ExitCompileError
		if tc.err == "" {
			wantCode = ExitOK
		}
		if code != wantCode || stderr != tc.err {
			t.Errorf("%.40q...: code %d stderr %q, want %d %q", tc.src, code, stderr, wantCode, tc.err)
		}
	}
}
