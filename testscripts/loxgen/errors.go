package loxgen

import "fmt"

// Deliberate errors, at the end of a program: runtime errors (clox's
// messages) raised at the top level, a few calls deep, in a method or in
// a thread; compile errors; and the non-finite numbers.

// A fault is a statement that raises a runtime error, and its message.
type fault struct {
	stmt, msg string
}

func (g *gen) faults() []fault {
	u := g.fresh("undefined")
	fs := []fault{
		{"var nf = 3; nf();", "Can only call functions and classes."},
		{`"text"();`, "Can only call functions and classes."},
		{"print " + u + ";", fmt.Sprintf("Undefined variable '%s'.", u)},
		{u + " = 1;", fmt.Sprintf("Undefined variable '%s'.", u)},
		{"class E {} print E().nope;", "Undefined property 'nope'."},
		{"class E {} E().nope();", "Undefined property 'nope'."},
		{`print 1 + "a";`, "Operands must be two numbers or two strings."},
		{`print "a" + nil;`, "Operands must be two numbers or two strings."},
		{`print -"a";`, "Operand must be a number."},
		{`print 1 < "x";`, "Operands must be numbers."},
		{`print "a" * 2;`, "Operands must be numbers."},
		{"var x = 1; print x.y;", "Only instances have properties."},
		{`var x = "s"; x.y = 1;`, "Only instances have fields."},
		{"var x = true; x.m();", "Only instances have methods."},
		{`var NC = "x"; class K < NC {}`, "Superclass must be a class."},
		{"fun two(a, b) { return a; } two(1);", "Expected 2 arguments but got 1."},
		{"class P {} P(1, 2);", "Expected 0 arguments but got 2."},
		{"class Q { init(a) {} } Q();", "Expected 1 arguments but got 0."},
	}
	if !g.clox {
		fs = append(fs,
			fault{"var arr = [1, 2]; print arr[2];", "Array index out of bounds."},
			fault{"var arr = Array(3); arr[-1] = 0;", "Array index out of bounds."},
			fault{"var arr = [1]; print arr[0.5];", "Array index must be an integer."},
			fault{"var n = 4; print n[0];", "Only arrays can be indexed."},
			fault{"print len(3);", ""},
			fault{"print Array(-1);", ""},
		)
	}
	return fs
}

// runtimeError emits code that fails and returns the message stderr's
// first line holds ("" for messages minivm words itself).
func (g *gen) runtimeError() string {
	f := pick(g, g.faults())
	switch n := g.r.IntN(5); {
	case n == 0:
		g.emit("%s", f.stmt)
	case n < 3:
		// A few calls deep: the trace names every frame.
		inner, outer := g.fresh("fails"), g.fresh("calls")
		g.emit("fun %s(a) {", inner)
		g.emit("  if (a > 0) return a;")
		g.emit("  %s", f.stmt)
		g.emit("}")
		g.emit("fun %s(n) {", outer)
		g.emit("  %s(n);", inner)
		g.emit("  return %s(n - 1);", inner)
		g.emit("}")
		g.emit("print %s(1);", outer)
	case n == 3:
		cls := g.fresh("Faulty")
		g.emit("class %s {", cls)
		g.emit("  run() {")
		g.emit("    %s", f.stmt)
		g.emit("  }")
		g.emit("}")
		g.emit("%s().run();", cls)
	default:
		if !g.threads {
			g.emit("%s", f.stmt)
			break
		}
		// The thread's error is reported when it dies, then raised again
		// by join.
		w := g.fresh("doomed")
		g.emit("fun %s() {", w)
		g.emit("  %s", f.stmt)
		g.emit("}")
		g.emit("join(spawn(%s));", w)
	}
	return f.msg
}

// compileError emits a declaration clox rejects while compiling; nothing
// of the program runs then.
func (g *gen) compileError() string {
	errs := []fault{
		{"return 1;", "Error at 'return': Can't return from top-level code."},
		{"{ var dup = 1; var dup = 2; }", "Error at 'dup': Already a variable with this name in this scope."},
		{"{ var self = self; }", "Error at 'self': Can't read local variable in its own initializer."},
		{"print this;", "Error at 'this': Can't use 'this' outside of a class."},
		{"fun f() { return super.x; }", "Error at 'super': Can't use 'super' outside of a class."},
		{"class A { m() { return super.m(); } }", "Error at 'super': Can't use 'super' in a class with no superclass."},
		{"class Self < Self {}", "Error at 'Self': A class can't inherit from itself."},
		{"class I { init() { return 1; } }", "Error at 'return': Can't return a value from an initializer."},
		{"var a = 1; var b = 2; a + b = 3;", "Error at '=': Invalid assignment target."},
		{"print 1 +;", "Error at ';': Expect expression."},
		{"var 1 = 2;", "Error at '1': Expect variable name."},
		{"if (true print 1;", "Error at 'print': Expect ')' after condition."},
		{"fun (a) {}", "Error at '(': Expect function name."},
	}
	e := pick(g, errs)
	g.emit("%s", e.stmt)
	return e.msg
}

// nonFinite prints infinities and a NaN.
func (g *gen) nonFinite() {
	g.emit("print 1 / 0;")
	g.emit("print -1 / 0;")
	g.emit("print 0 / 0;")
	g.emit("print (1 / 0) - (1 / 0) == (0 / 0);")
}
