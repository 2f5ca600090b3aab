package lang

import (
	"fmt"
	"strings"
	"testing"
)

// errorCases are snippets and the exact clox output for them. The
// multi-error ones pin down clox's panic-mode recovery, including its
// quirks (see the comments).
var errorCases = []struct {
	name string
	src  string
	want []string
}{
	// ---- syntax ----
	{"print no semicolon", "print 1", []string{"[line 1] Error at end: Expect ';' after value."}},
	{"print no value", "print ;", []string{"[line 1] Error at ';': Expect expression."}},
	{"expr no semicolon", "1 + 2", []string{"[line 1] Error at end: Expect ';' after expression."}},
	{"missing operand", "1 + ;", []string{"[line 1] Error at ';': Expect expression."}},
	{"unary no operand", "print -;", []string{"[line 1] Error at ';': Expect expression."}},
	{"var name", "var 1 = 2;", []string{"[line 1] Error at '1': Expect variable name."}},
	{"var semicolon", "var a = 1 print a;", []string{"[line 1] Error at 'print': Expect ';' after variable declaration."}},
	{"var keyword name", "var nil;", []string{"[line 1] Error at 'nil': Expect variable name."}},
	{"if paren", "if true) print 1;", []string{"[line 1] Error at 'true': Expect '(' after 'if'."}},
	{"if close", "if (true print 1;", []string{"[line 1] Error at 'print': Expect ')' after condition."}},
	{"if at end", "if", []string{"[line 1] Error at end: Expect '(' after 'if'."}},
	{"while paren", "while true", []string{"[line 1] Error at 'true': Expect '(' after 'while'."}},
	{"while close", "while (true", []string{"[line 1] Error at end: Expect ')' after condition."}},
	{"for paren", "for x", []string{"[line 1] Error at 'x': Expect '(' after 'for'."}},
	{"for init semicolon", "for (i = 0 i < 1;) {}", []string{"[line 1] Error at 'i': Expect ';' after expression."}},
	{"for cond semicolon", "for (; i < 1 ) {}", []string{"[line 1] Error at ')': Expect ';' after loop condition."}},
	{"for clauses", "for (var i = 0; i < 1; i = i + 1", []string{"[line 1] Error at end: Expect ')' after for clauses."}},
	{"for empty incr at end", "for (;;", []string{"[line 1] Error at end: Expect expression."}},
	{"var in for body", "for (;;) var x;", []string{"[line 1] Error at 'var': Expect expression."}},
	{"fun name", "fun (a) {}", []string{"[line 1] Error at '(': Expect function name."}},
	{"fun at end", "fun", []string{"[line 1] Error at end: Expect function name."}},
	{"fun paren", "fun f {}", []string{"[line 1] Error at '{': Expect '(' after function name."}},
	{"param name", "fun f(1) {}", []string{
		"[line 1] Error at '1': Expect parameter name.",
		// clox goes on into block() with panic mode set; the statement
		// "1" ends it, recovery eats ") {}", and block() meets the end.
		"[line 1] Error at end: Expect '}' after block.",
	}},
	{"param close", "fun f(a b) {}", []string{
		"[line 1] Error at 'b': Expect ')' after parameters.",
		// The body's "{}" is skipped by recovery inside the body's block;
		// the block then runs into the end of the file.
		"[line 1] Error at end: Expect '}' after block.",
	}},
	{"fun body", "fun f() print 1;", []string{
		"[line 1] Error at 'print': Expect '{' before function body.",
		"[line 1] Error at end: Expect '}' after block.",
	}},
	{"block close", "{ print 1;", []string{"[line 1] Error at end: Expect '}' after block."}},
	{"class name", "class {}", []string{"[line 1] Error at '{': Expect class name."}},
	{"class at end", "class", []string{"[line 1] Error at end: Expect class name."}},
	{"superclass name", "class A < {}", []string{"[line 1] Error at '{': Expect superclass name."}},
	{"class body open", "class A print 1;", []string{
		"[line 1] Error at 'print': Expect '{' before class body.",
		// the method loop runs method() on 'print': its body block takes
		// "print 1;", recovers, and reaches the end.
		"[line 1] Error at end: Expect '}' after block.",
	}},
	{"class body close", "class A {", []string{"[line 1] Error at end: Expect '}' after class body."}},
	{"method name", "class A { 1 }", []string{
		"[line 1] Error at '1': Expect method name.",
		// clox carries on into function(): the "}" closes the method body,
		// not the class, and the class's own '}' error is swallowed by
		// panic mode set by the block's.
		"[line 1] Error at end: Expect '}' after block.",
	}},
	{"var in class body", "class A { var x; }", []string{
		"[line 1] Error at 'var': Expect method name.",
		"[line 1] Error at end: Expect '}' after class body.",
	}},
	{"property name", "a.1;", []string{"[line 1] Error at '1': Expect property name after '.'."}},
	{"call close", "f(1;", []string{"[line 1] Error at ';': Expect ')' after arguments."}},
	{"group close", "print (1;", []string{"[line 1] Error at ';': Expect ')' after expression."}},
	{"super dot", "class A < B { m() { super; } }", []string{"[line 1] Error at ';': Expect '.' after 'super'."}},
	{"super method name", "class A < B { m() { super.1; } }", []string{"[line 1] Error at '1': Expect superclass method name."}},
	{"return semicolon", "fun f() { return 1 }", []string{
		"[line 1] Error at '}': Expect ';' after return value.",
		"[line 1] Error at end: Expect '}' after block.",
	}},

	// ---- assignment targets ----
	{"assign to sum", "a + b = 1;", []string{"[line 1] Error at '=': Invalid assignment target."}},
	{"assign to group", "(a) = 1;", []string{"[line 1] Error at '=': Invalid assignment target."}},
	{"assign to unary", "-a = 1;", []string{"[line 1] Error at '=': Invalid assignment target."}},
	{"assign to call", "f() = 1;", []string{"[line 1] Error at '=': Invalid assignment target."}},
	{"assign to method call", "a.b() = 1;", []string{"[line 1] Error at '=': Invalid assignment target."}},
	{"assign to literal", "var a = 1 = 2;", []string{"[line 1] Error at '=': Invalid assignment target."}},
	{"assign chain to literal", "a = 1 = 2;", []string{"[line 1] Error at '=': Invalid assignment target."}},
	{"assign to this", "class A { m() { this = 1; } }", []string{"[line 1] Error at '=': Invalid assignment target."}},
	{"assign to array", "[1] = 2;", []string{"[line 1] Error at '=': Invalid assignment target."}},
	{"assign to element in sum", "a + b[0] = 1;", []string{"[line 1] Error at '=': Invalid assignment target."}},
	{"assign to element in unary", "!a[0] = 1;", []string{"[line 1] Error at '=': Invalid assignment target."}},

	// ---- arrays ----
	{"array close", "print [1, 2;", []string{"[line 1] Error at ';': Expect ']' after array elements."}},
	{"array trailing comma", "print [1,];", []string{"[line 1] Error at ']': Expect expression."}},
	{"array leading comma", "print [,1];", []string{"[line 1] Error at ',': Expect expression."}},
	{"index close", "print a[1;", []string{"[line 1] Error at ';': Expect ']' after index."}},
	{"index empty", "print a[];", []string{"[line 1] Error at ']': Expect expression."}},
	{"index at end", "a[", []string{"[line 1] Error at end: Expect expression."}},

	// ---- lexical ----
	{"unexpected character", "print 1 @;", []string{"[line 1] Error: Unexpected character."}},
	{"unterminated string", "print \"abc", []string{"[line 1] Error: Unterminated string."}},
	{"unterminated string line", "print \"a\nb\nc", []string{"[line 3] Error: Unterminated string."}},
	{"multibyte is one error per byte, silenced", "é", []string{"[line 1] Error: Unexpected character."}},
	{"bad char in string is fine", "print \"é@#\";", nil},
	{"bad byte before statement", "# print 1;", []string{"[line 1] Error: Unexpected character."}},
	{"lexical error during recovery", "print 1 2 @ ;", []string{
		"[line 1] Error at '2': Expect ';' after value.",
		// synchronize clears panic mode, then scans '@': reported.
		"[line 1] Error: Unexpected character.",
	}},
	{"panic left set by recovery", "print 1 2 @ ; print ;", []string{
		"[line 1] Error at '2': Expect ';' after value.",
		"[line 1] Error: Unexpected character.",
		// "Expect expression." at the second ';' is silenced: the
		// lexical error during recovery left panic mode on.
	}},
	{"form feed is not whitespace", "print 1;\f", []string{"[line 1] Error: Unexpected character."}},

	// ---- lines ----
	{"multi-line string line", "print \"a\nb\" \"c\";", []string{"[line 2] Error at '\"c\"': Expect ';' after value."}},
	{"error at multi-line string", "print 1 \"x\ny\";", []string{"[line 2] Error at '\"x\ny\"': Expect ';' after value."}},
	{"comment then error", "// hi\n// there\nprint;", []string{"[line 3] Error at ';': Expect expression."}},
	{"eof line counts trailing newlines", "print 1\n\n", []string{"[line 3] Error at end: Expect ';' after value."}},
	{"number then dot at end", "123.", []string{"[line 1] Error at end: Expect property name after '.'."}},
	{"leading dot", ".5;", []string{"[line 1] Error at '.': Expect expression."}},

	// ---- recovery ----
	{"two statements", "print 1\nprint 2;\nvar x = ;", []string{
		"[line 2] Error at 'print': Expect ';' after value.",
		"[line 3] Error at ';': Expect expression.",
	}},
	{"recovery inside nested function", "fun a() { return 1 }\nfun b() { var x = ; }", []string{
		"[line 1] Error at '}': Expect ';' after return value.",
		// recovery stops before 'fun', so b is declared inside a ...
		"[line 2] Error at ';': Expect expression.",
		// ... and a's body never gets its '}'.
		"[line 2] Error at end: Expect '}' after block.",
	}},
	{"one error per declaration", "print ; print ;\nprint ;", []string{
		"[line 1] Error at ';': Expect expression.",
		"[line 1] Error at ';': Expect expression.",
		"[line 2] Error at ';': Expect expression.",
	}},
	{"cascade silenced", "print (1 + ) * ;", []string{"[line 1] Error at ')': Expect expression."}},

	// ---- scope rules ----
	{"duplicate local", "{ var a = 1; var a = 2; }", []string{"[line 1] Error at 'a': Already a variable with this name in this scope."}},
	{"shadowing is fine", "{ var a = 1; { var a = 2; } }", nil},
	{"global redeclaration is fine", "var a = 1; var a = 2;", nil},
	{"param and body share a scope", "fun f(a) { var a; }", []string{"[line 1] Error at 'a': Already a variable with this name in this scope."}},
	{"duplicate params, first only", "fun f(a, a, a) {}", []string{"[line 1] Error at 'a': Already a variable with this name in this scope."}},
	{"own initializer", "fun f() { var a = a; }", []string{"[line 1] Error at 'a': Can't read local variable in its own initializer."}},
	{"own initializer, assigned", "{ var a = a = 1; }", []string{"[line 1] Error at 'a': Can't read local variable in its own initializer."}},
	{"own initializer global ok", "var a = a;", nil},
	{"local recursion ok", "{ fun f() { f(); } }", nil},
	{"top-level return", "return;", []string{"[line 1] Error at 'return': Can't return from top-level code."}},
	{"top-level return value", "return 1;", []string{"[line 1] Error at 'return': Can't return from top-level code."}},
	{"initializer return value", "class A { init() { return 1; } }", []string{"[line 1] Error at 'return': Can't return a value from an initializer."}},
	{"initializer bare return", "class A { init() { return; } }", nil},
	{"nested function in init may return", "class A { init() { fun f() { return 1; } } }", nil},
	{"this at top level", "print this;", []string{"[line 1] Error at 'this': Can't use 'this' outside of a class."}},
	{"this in function", "fun f() { this; }", []string{"[line 1] Error at 'this': Can't use 'this' outside of a class."}},
	{"this in nested function of method", "class A { m() { fun f() { return this; } } }", nil},
	{"super at top level", "super.m();", []string{"[line 1] Error at 'super': Can't use 'super' outside of a class."}},
	{"super without superclass", "class A { m() { super.m(); } }", []string{"[line 1] Error at 'super': Can't use 'super' in a class with no superclass."}},
	{"inherit self", "class A < A {}", []string{"[line 1] Error at 'A': A class can't inherit from itself."}},
	{"scope error then more code", "fun f(a, a) {} print 1; { var b; var b; }", []string{
		"[line 1] Error at 'a': Already a variable with this name in this scope.",
		"[line 1] Error at 'b': Already a variable with this name in this scope.",
	}},
	{"scope error recovery skips a brace", "fun f(a, a) {} { var b; var b; }", []string{
		"[line 1] Error at 'a': Already a variable with this name in this scope.",
		// recovery after f's '}' skips the '{', so both b's are globals
		// and the block's '}' starts a statement.
		"[line 1] Error at '}': Expect expression.",
	}},
	{"scope error swallows enclosing brace", "fun outer() {\n  fun inner(a, a) {}\n}\nprint 1;", []string{
		"[line 2] Error at 'a': Already a variable with this name in this scope.",
		"[line 4] Error at end: Expect '}' after block.",
	}},
	{"syntax and scope errors interleave", "{ var a; var a; }\nprint ;\nreturn;", []string{
		"[line 1] Error at 'a': Already a variable with this name in this scope.",
		"[line 2] Error at ';': Expect expression.",
		"[line 3] Error at 'return': Can't return from top-level code.",
	}},

	// ---- valid programs ----
	{"empty", "", nil},
	{"only comment", "// nothing", nil},
	{"arrays", "var a = [1, [2, 3], []]; a[0] = a[1][0]; print a[a[0]];", nil},
	{"index chains", "print f()[0].x[1](2)[3];", nil},
	{"element assignment chains", "a.b[0].c = d[1] = e;", nil},
	{"closures", "fun f() { var x; fun g() { return x; } return g; }", nil},
	{"class", "class A < B { init(x) { this.x = x; } m() { return super.m() + this.x; } }", nil},
}

func TestErrors(t *testing.T) {
	for _, tc := range errorCases {
		t.Run(tc.name, func(t *testing.T) {
			prog, errs := Parse(tc.src)
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("Parse(%q):\n got:\n  %s\n want:\n  %s", tc.src, strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
			if (prog == nil) != (len(errs) > 0) {
				t.Errorf("Parse(%q): prog %v with %d errors", tc.src, prog != nil, len(errs))
			}
		})
	}
}

func params(n int) string {
	var p []string
	for i := range n {
		p = append(p, fmt.Sprintf("p%d", i))
	}
	return strings.Join(p, ", ")
}

func TestLimits(t *testing.T) {
	check := func(src string, want ...string) {
		t.Helper()
		_, errs := Parse(src)
		var got []string
		for _, e := range errs {
			got = append(got, e.Error())
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("got %q, want %q", got, want)
		}
	}
	check("fun f(" + params(255) + ") {}")
	check("fun f("+params(256)+") {}", "[line 1] Error at 'p255': Can't have more than 255 parameters.")
	check("class A { m("+params(300)+") {} }", "[line 1] Error at 'p255': Can't have more than 255 parameters.")
	check("f(" + params(255) + ");")
	check("f("+params(256)+");", "[line 1] Error at 'p255': Can't have more than 255 arguments.")
	// The error is at the last token of the 256th argument.
	check("f("+params(255)+", 1 + 2);", "[line 1] Error at '2': Can't have more than 255 arguments.")
	check("a.m("+params(256)+");", "[line 1] Error at 'p255': Can't have more than 255 arguments.")

	// No limit on locals, constants, upvalues or array elements.
	var b strings.Builder
	b.WriteString("fun f() {\n")
	for i := range 1000 {
		fmt.Fprintf(&b, "  var v%d = %d;\n", i, i)
	}
	b.WriteString("  fun g() { return v0 + v999; }\n  print [")
	for i := range 1000 {
		fmt.Fprintf(&b, "%d, ", i)
	}
	b.WriteString("0];\n}\n")
	prog, errs := Parse(b.String())
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	f := prog.Stmts[0].(*FunStmt).Func
	if f.MaxSlots != 1002 {
		t.Errorf("MaxSlots = %d, want 1002", f.MaxSlots)
	}
	g := f.Body[1000].(*FunStmt).Func
	if fmt.Sprint(g.Upvalues) != "[{true 1} {true 1000}]" {
		t.Errorf("upvalues %v", g.Upvalues)
	}
}

// TestManyLocals checks scoping in a block of 60,000 locals (the parser
// and resolver find locals by name, not by scanning): shadowing, the
// duplicate check, which looks at the innermost scope only, and upvalues.
func TestManyLocals(t *testing.T) {
	const n = 60000
	var b strings.Builder
	b.WriteString("fun f() {\n")
	for i := range n {
		fmt.Fprintf(&b, "var v%d = %d;\n", i, i)
	}
	b.WriteString("{ var v0 = v1; print v0; }\nprint v0;\nfun g() { return v7 + v59999 + v7; }\n}\n")
	prog, errs := Parse(b.String())
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	body := prog.Stmts[0].(*FunStmt).Func.Body
	inner := body[n].(*BlockStmt)
	if got := dumpStmt(inner); got != "(block (var v0:L60001 v1:L2) (print v0:L60001))" {
		t.Errorf("inner block %s", got)
	}
	if got := dumpStmt(body[n+1]); got != "(print v0:L1)" {
		t.Errorf("after the block %s", got)
	}
	if g := body[n+2].(*FunStmt).Func; fmt.Sprint(g.Upvalues) != "[{true 8} {true 60000}]" {
		t.Errorf("upvalues %v", g.Upvalues)
	}
	dup := strings.Replace(b.String(), "{ var v0 = v1;", "var v1 = 0; {", 1)
	_, errs = Parse(dup)
	if len(errs) != 1 || errs[0].Error() != fmt.Sprintf("[line %d] Error at 'v1': Already a variable with this name in this scope.", n+2) {
		t.Errorf("duplicate: %v", errs)
	}
}

func TestNesting(t *testing.T) {
	deep := func(open, middle, close string, n int) string {
		return strings.Repeat(open, n) + middle + strings.Repeat(close, n)
	}
	cases := []struct {
		name string
		src  string
		ok   bool
	}{
		{"parens ok", "print " + deep("(", "1", ")", 300) + ";", true},
		{"blocks ok", deep("{", "", "}", 300), true},
		{"unary ok", "print " + strings.Repeat("-", 500) + "1;", true},
		{"parens", "print " + deep("(", "1", ")", 5000) + ";", false},
		{"brackets", "print " + deep("[", "1", "]", 5000) + ";", false},
		{"blocks", deep("{", "", "}", 5000), false},
		{"unary", "print " + strings.Repeat("!", 5000) + "1;", false},
		{"assignments", strings.Repeat("a = ", 5000) + "1;", false},
		{"ifs", strings.Repeat("if (x) ", 5000) + "print 1;", false},
		{"functions", deep("fun f() {", "", "}", 5000), false},
		{"unclosed", strings.Repeat("(", 200000), false},
		{"long and chain is flat", "print a" + strings.Repeat(" and a", 5000) + ";", true},
		// Chains the Pratt loop builds are as long as the input allows.
		{"plus chain", "print 1" + strings.Repeat("+1", 200000) + ";", true},
		{"or chain", "print a" + strings.Repeat(" or a", 200000) + ";", true},
		{"property chain", "print a" + strings.Repeat(".x", 200000) + ";", true},
		{"property chain assigned", "a" + strings.Repeat(".x", 200000) + " = 1;", true},
		{"call chain", "print f" + strings.Repeat("()", 200000) + ";", true},
		{"index chain", "print a" + strings.Repeat("[0]", 200000) + ";", true},
		{"mixed chain", "print a" + strings.Repeat(".m(1)[2] * 3 - b", 50000) + ";", true},
		{"statements", strings.Repeat("print 1;\n", 200000), true},
		{"long else-if chain", strings.Repeat("if (x) print 1; else ", 400) + "print 2;", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			prog, errs := Parse(tc.src)
			if tc.ok {
				if len(errs) > 0 || prog == nil {
					t.Fatalf("unexpected errors: %v", errs)
				}
				return
			}
			if len(errs) == 0 {
				t.Fatal("no error")
			}
			last := errs[len(errs)-1]
			if last.Msg != "Too much nesting." || last.Line != 1 {
				t.Fatalf("got %v", errs)
			}
		})
	}
}

// shapeCases check precedence, associativity and the tree of arrays,
// properties and calls (bindings are shown too: globals are bare names).
var shapeCases = []struct{ src, want string }{
	{"print 1 + 2 * 3 - 4 / 5;", "(print (- (+ 1 (* 2 3)) (/ 4 5)))"},
	{"print 1 - 2 - 3;", "(print (- (- 1 2) 3))"},
	{"print a or b and c or d;", "(print (or (or a (and b c)) d))"},
	{"print a and b or c and d;", "(print (or (and a b) (and c d)))"},
	{"print !-a == b < c;", "(print (== (! (- a)) (< b c)))"},
	{"print a == b != c;", "(print (!= (== a b) c))"},
	{"print a < b <= c > d >= e;", "(print (>= (> (<= (< a b) c) d) e))"},
	{"print 1 - -1;", "(print (- 1 (- 1)))"},
	{"print !!a;", "(print (! (! a)))"},
	{"print -(1 + 2) * 3;", "(print (* (- (group (+ 1 2))) 3))"},
	{"print -a.b;", "(print (- (. a b)))"},
	{"a = b = c;", "(expr (= a (= b c)))"},
	{"a = b or c;", "(expr (= a (or b c)))"},
	{"a.b.c = d[1] = e;", "(expr (.= (. a b) c (index= d 1 e)))"},
	{"x[i][j] = v;", "(expr (index= (index x i) j v))"},
	{"f()[0].x[1];", "(expr (index (. (index (call f) 0) x) 1))"},
	{"f(1)(2, 3);", "(expr (call (call f 1) 2 3))"},
	{"a.m(1).n;", "(expr (. (call (. a m) 1) n))"},
	{"print [1, [2, 3], []];", "(print (array 1 (array 2 3) (array)))"},
	{"print [a = 1][0];", "(print (index (array (= a 1)) 0))"},
	{"f(a = 1);", "(expr (call f (= a 1)))"},
	{"print \"a b\" + \"\";", "(print (+ \"a b\" \"\"))"},
	{"print 1.5 + 10 + 007;", "(print (+ (+ 1.5 10) 7))"},
	{"print nil == false != true;", "(print (!= (== nil false) true))"},
	{"if (a) if (b) print 1; else print 2;", "(if a (if b (print 1) (print 2)))"},
	{"for (;;) print 1;", "(for _ _ _ (print 1))"},
	{"for (a = 0; a < 1;) {}", "(for (expr (= a 0)) (< a 1) _ (block ))"},
	{"while (a) a = a - 1;", "(while a (expr (= a (- a 1))))"},
	{"var a; var b = a;", "(var a) (var b a)"},
}

func TestShapes(t *testing.T) {
	for _, tc := range shapeCases {
		prog, errs := Parse(tc.src)
		if len(errs) > 0 {
			t.Errorf("Parse(%q): %v", tc.src, errs)
			continue
		}
		if got := dump(prog); got != tc.want {
			t.Errorf("Parse(%q):\n got  %s\n want %s", tc.src, got, tc.want)
		}
	}
}

// bindingCases check slots, slot reuse, upvalues (with dedup), Captured and
// MaxSlots. In dumps a function is (name (params) [upvalues] slots=N body).
var bindingCases = []struct{ src, want string }{
	{
		// a=1; b=2; c=3 in the block; d reuses 3; inner=4.
		`fun outer(a) {
		   var b = 1;
		   { var c = 2; print c; }
		   var d = 3;
		   fun inner() { return a + d + a; }
		   return inner;
		 }`,
		"(fun outer (outer (a:L1*) [] slots=5 (var b:L2 1) (block (var c:L3 2) (print c:L3)) (var d:L3* 3) " +
			"(fun inner:L4 (inner () [L1 L3] slots=1 (return (+ (+ a:U0 d:U1) a:U0)))) (return inner:L4)))",
	},
	{
		// Upvalues of upvalues.
		`fun a() { var x; fun b() { fun c() { return x; } } }`,
		"(fun a (a () [] slots=3 (var x:L1*) (fun b:L2 (b () [L1] slots=2 (fun c:L1 (c () [U0] slots=1 (return x:U0)))))))",
	},
	{
		// Top-level blocks and for loops make locals in the script.
		`for (var i = 0; i < 2; i = i + 1) { var j = i; print j; } { var k; }`,
		"(for (var i:L1 0) (< i:L1 2) (= i:L1 (+ i:L1 1)) (block (var j:L2 i:L1) (print j:L2))) (block (var k:L1))",
	},
	{
		// Classes: super is a local of the enclosing function (here the
		// script), captured by methods; this is slot 0 or an upvalue.
		`class A { m() { return 1; } }
		 class B < A {
		   m() { return super.m(); }
		   n() { fun f() { return this; } return f; }
		   init() { this.x = super.m; }
		 }`,
		"(class A (m () [] slots=1 (return 1))) " +
			"(class B < A super:L1* (m () [L1] slots=1 (return (call (super m this:L0 super:U0)))) " +
			"(n () [] slots=2 (fun f:L1 (f () [L0] slots=1 (return this:U0))) (return f:L1)) " +
			"(init () [L1] slots=1 (expr (.= this:L0 x (super m this:L0 super:U0)))))",
	},
	{
		// A local class with a superclass: name slot 1, super slot 2.
		`{ class D {} class C < D { m() { super.m(1); } } }`,
		"(block (class D:L1) (class C:L2 < D:L1 super:L3* (m () [L3] slots=1 (expr (call (super m this:L0 super:U0) 1)))))",
	},
	{
		// Arguments are resolved between this and super, as clox does.
		`class B < A { m() { fun f(y) { super.m(x, y); } } }`,
		"(class B < A super:L1* (m () [L1] slots=2 (fun f:L1 (f (y:L1) [L0 U0] slots=2 (expr (call (super m this:U0 super:U1) x y:L1))))))",
	},
	{
		// Parameters and locals of methods start after `this`.
		`class P { init(x, y) { var z = x; this.s = [x, y, z]; } }`,
		"(class P (init (x:L1 y:L2) [] slots=4 (var z:L3 x:L1) (expr (.= this:L0 s (array x:L1 y:L2 z:L3)))))",
	},
}

func TestBindings(t *testing.T) {
	for _, tc := range bindingCases {
		prog, errs := Parse(tc.src)
		if len(errs) > 0 {
			t.Errorf("Parse(%q): %v", tc.src, errs)
			continue
		}
		if got := dump(prog); got != tc.want {
			t.Errorf("Parse(%q):\n got  %s\n want %s", tc.src, got, tc.want)
		}
	}
}

func TestAnnotations(t *testing.T) {
	prog, errs := Parse(`
for (var i = 0; i < 3; i = i + 1) {
  var j = i;
  fun f() { return j; }
}
class B < A {}
fun g(a, b) {
  print "x
y";
  return a(
    b);
}
`)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if prog.MaxSlots != 4 { // 0, i, j, f
		t.Errorf("script MaxSlots = %d, want 4", prog.MaxSlots)
	}
	loop := prog.Stmts[0].(*ForStmt)
	if len(loop.Locals) != 1 || loop.Locals[0].Name.Lexeme != "i" || loop.Locals[0].Slot != 1 || loop.Locals[0].Captured {
		t.Errorf("for locals %+v", loop.Locals)
	}
	if loop.Line != 2 {
		t.Errorf("for line %d", loop.Line)
	}
	body := loop.Body.(*BlockStmt)
	if len(body.Locals) != 2 || body.Locals[0].Slot != 2 || !body.Locals[0].Captured || body.Locals[1].Slot != 3 || body.EndLine != 5 {
		t.Errorf("body locals %+v end %d", body.Locals, body.EndLine)
	}
	class := prog.Stmts[1].(*ClassStmt)
	if class.Local != nil || class.SuperLocal == nil || class.SuperLocal.Slot != 1 || class.SuperLocal.Captured || class.SuperLocal.Name.Lexeme != "super" {
		t.Errorf("class %+v super %+v", class, class.SuperLocal)
	}
	g := prog.Stmts[2].(*FunStmt).Func
	if g.Kind != KindFunction || g.EndLine != 12 || g.MaxSlots != 3 || g.Name.Line != 7 {
		t.Errorf("g %+v", g)
	}
	pr := g.Body[0].(*PrintStmt)
	if lit := pr.X.(*LiteralExpr); lit.Value != "x\ny" || lit.Line != 9 || pr.Line != 9 {
		t.Errorf("print %+v %+v", pr, lit)
	}
	ret := g.Body[1].(*ReturnStmt)
	call := ret.Value.(*CallExpr)
	if ret.Keyword.Line != 10 || call.Paren.Line != 11 || call.Paren.Lexeme != ")" {
		t.Errorf("return %+v call paren %+v", ret.Keyword, call.Paren)
	}
}

func TestErrorFormat(t *testing.T) {
	l := ErrorList{
		{Line: 3, Where: " at 'x'", Msg: "Boom."},
		{Line: 4, Where: " at end", Msg: "Bang."},
		{Line: 5, Msg: "Unexpected character."},
	}
	want := "[line 3] Error at 'x': Boom.\n[line 4] Error at end: Bang.\n[line 5] Error: Unexpected character."
	if l.Error() != want {
		t.Errorf("got %q", l.Error())
	}
}
