package loxgen

import "strings"

// Statements: declarations, prints, assignments, control flow with
// bounded loops, functions and closures.

func (g *gen) stmts(n int) {
	for i := 0; i < n && !g.full(); i++ {
		g.stmt(2)
	}
}

// stmt emits one statement; d bounds how deeply statements nest.
func (g *gen) stmt(d int) {
	c := g.top()
	switch n := g.r.IntN(22); {
	case n < 4:
		g.varDecl()
	case n < 7:
		g.print()
	case n < 10:
		if !g.assign() {
			g.print()
		}
	case n < 12 && d > 0:
		g.ifStmt(d)
	case n < 14 && d > 0 && c.mult < maxMult/2:
		g.loop(d)
	case n < 16 && d > 0 && len(g.chunks) < 5:
		g.funDecl(d)
	case n < 17 && d > 0:
		g.emit("{")
		g.block(d - 1)
		g.emit("}")
	case n < 18 && len(g.chunks) > 1 && !c.noReturn:
		g.emit("if (%s) return %s;", g.boolean(2), g.num(2))
	case n < 21 && c.mult == 1 && d > 0:
		g.template()
	default:
		g.print()
	}
}

// block emits the statements of a block in a new scope; the caller writes
// the braces.
func (g *gen) block(d int) {
	g.indent++
	g.push()
	for i, n := 0, 1+g.r.IntN(4); i < n && !g.full(); i++ {
		g.stmt(d)
	}
	g.pop()
	g.indent--
}

func (g *gen) varDecl() {
	name := g.fresh("v")
	t := typ(g.r.IntN(3))
	if g.r.IntN(8) == 0 {
		// A variable without initializer is nil until assigned.
		g.emit("var %s;", name)
		g.show(name)
		rhs := g.expr(t, 1)
		g.declare(name, t, false)
		g.emit("%s = %s;", name, rhs)
		return
	}
	g.emit("var %s = %s;", name, g.expr(t, 3))
	g.declare(name, t, false)
}

func (g *gen) print() {
	switch g.r.IntN(10) {
	case 0:
		if fs := g.callable(); len(fs) > 0 {
			// A function value prints as <fn name>.
			f := pick(g, fs)
			if !strings.Contains(f.name, ".") {
				g.show(g.use(variable{expr: f.name, global: f.global}))
				return
			}
		}
	case 1:
		g.show(g.boolean(3))
		return
	case 2:
		g.show(g.str(3))
		return
	case 3:
		if g.r.IntN(4) == 0 {
			// clock's value differs from run to run; only its sign is printed.
			g.charge(2)
			g.show("clock() >= 0")
			return
		}
	}
	g.show(g.num(3))
}

// assign emits an assignment to a visible variable, as a statement or as
// the expression of a print; false if none is assignable.
func (g *gen) assign() bool {
	t := typ(g.r.IntN(3))
	vs := g.vars(t, true)
	if len(vs) == 0 {
		return false
	}
	v := pick(g, vs)
	target := g.use(v)
	if strings.Contains(v.expr, ".") {
		g.charge(1)
	}
	g.noVars = true
	var rhs string
	switch {
	case t == tNum && g.r.IntN(3) > 0:
		rhs = g.use(v) + " " + pick(g, []string{"+", "-"}) + " " + g.num(2)
	case t == tStr && g.r.IntN(2) == 0:
		rhs = g.use(v) + " + " + g.str(1)
	default:
		rhs = g.expr(t, 2)
	}
	g.noVars = false
	if g.r.IntN(6) == 0 && g.quiet == "" {
		g.emit("print %s = %s;", target, rhs)
	} else {
		g.emit("%s = %s;", target, rhs)
	}
	return true
}

func (g *gen) ifStmt(d int) {
	g.emit("if (%s) {", g.boolean(2))
	g.block(d - 1)
	if g.r.IntN(2) == 0 {
		g.emit("} else {")
		g.block(d - 1)
	}
	g.emit("}")
}

// loop emits a for or while loop whose counter the body cannot assign.
func (g *gen) loop(d int) {
	c := g.top()
	n := 1 + g.r.IntN(min(8, maxMult/c.mult))
	name := g.fresh("i")
	saved := c.mult
	g.push()
	if g.r.IntN(2) == 0 {
		g.emit("for (var %s = 0; %s < %d; %s = %s + 1) {", name, name, n, name, name)
		g.declare(name, tNum, true)
		c.mult *= n
		g.block(d - 1)
		g.emit("}")
	} else {
		g.emit("var %s = %d;", name, n)
		g.declare(name, tNum, true)
		g.emit("while (%s > 0) {", name)
		c.mult *= n
		g.block(d - 1)
		g.indent++
		g.emit("%s = %s - 1;", name, name)
		g.indent--
		g.emit("}")
	}
	c.mult = saved
	g.pop()
}

// funDecl declares a function of numbers returning a number; its body may
// read and assign the variables it closes over.
func (g *gen) funDecl(d int) {
	name := g.fresh("f")
	params := make([]string, g.r.IntN(4))
	for i := range params {
		params[i] = g.fresh("p")
	}
	g.emit("fun %s(%s) {", name, strings.Join(params, ", "))
	c := g.body(params, func() {
		for i, n := 0, 1+g.r.IntN(4); i < n && !g.full(); i++ {
			g.stmt(d - 1)
		}
		g.emit("return %s;", g.num(2))
	})
	g.emit("}")
	if g.global() {
		g.charge(1)
	}
	g.addFn(function{name: name, arity: len(params), cost: c.cost, depth: c.depth + 1})
}

// body emits a function body: a new chunk and scope holding the
// parameters (numbers); it returns the chunk.
func (g *gen) body(params []string, fill func()) chunk {
	g.enterFn()
	g.indent++
	g.push()
	for _, p := range params {
		g.declare(p, tNum, false)
	}
	fill()
	g.pop()
	g.indent--
	return g.leaveFn()
}
