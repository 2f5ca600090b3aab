package loxgen

import (
	"strconv"
	"strings"
)

// Typed expressions: each generator returns source text whose value has
// the asked type whatever the program's state, so that only the
// deliberate errors fail. Every compound expression is parenthesized.

var (
	numLits = []string{"0", "1", "2", "3", "4", "5", "7", "10", "12", "0.5", "1.5", "2.25", "0.1", "3.75", "100", "1000", "123456", "1000000", "10000000000", "0.001"}
	strLits = []string{`""`, `"a"`, `"b"`, `"lox"`, `"ab"`, `"xyz"`, `"hello"`, `" "`, `"Node"`, `"-"`, `"42"`, `"1e3"`}
)

func (g *gen) expr(t typ, d int) string {
	switch t {
	case tNum:
		return g.num(d)
	case tStr:
		return g.str(d)
	}
	return g.boolean(d)
}

func (g *gen) num(d int) string {
	if d <= 0 || g.r.IntN(4) == 0 {
		return g.numLeaf()
	}
	switch g.r.IntN(12) {
	case 0, 1, 2:
		return "(" + g.num(d-1) + " " + pick(g, []string{"+", "-", "*", "+"}) + " " + g.num(d-1) + ")"
	case 3:
		// Division by a literal that is never zero: inf and nan come
		// only from nonFinite, so that they stay rare.
		g.charge(1)
		return "(" + g.num(d-1) + " / " + pick(g, []string{"2", "4", "3", "0.5", "10"}) + ")"
	case 4:
		return "-(" + g.num(d-1) + ")"
	case 5, 6:
		if fs := g.callable(); len(fs) > 0 && !g.noVars {
			return g.call(pick(g, fs), d)
		}
	case 7:
		return "(" + g.boolean(d-1) + " and " + g.num(d-1) + " or " + g.num(d-1) + ")"
	case 8:
		if !g.clox {
			return "len(" + g.str(d-1) + ")"
		}
	case 9:
		if !g.clox {
			g.charge(1)
			return "number(" + pick(g, []string{`"12"`, `"-2.5"`, `"1e3"`, `"0"`}) + ")"
		}
	}
	return g.numLeaf()
}

func (g *gen) numLeaf() string {
	if vs := g.readable(tNum); len(vs) > 0 && g.r.IntN(3) > 0 {
		return g.use(pick(g, vs))
	}
	g.charge(1)
	return pick(g, numLits)
}

// call spells a call of f with generated arguments and charges its cost.
func (g *gen) call(f function, d int) string {
	c := g.top()
	c.cost += f.cost * c.mult
	c.depth = max(c.depth, f.depth)
	if f.global {
		g.charge(1)
	}
	if strings.Contains(f.name, ".") {
		g.charge(1) // the property name
	}
	args := make([]string, f.arity)
	for i := range args {
		args[i] = g.num(d - 1)
	}
	return f.name + "(" + strings.Join(args, ", ") + ")"
}

func (g *gen) str(d int) string {
	if d <= 0 || g.r.IntN(3) == 0 {
		return g.strLeaf()
	}
	switch g.r.IntN(6) {
	case 0, 1:
		return "(" + g.str(d-1) + " + " + g.str(d-1) + ")"
	case 2:
		if !g.clox {
			return "str(" + g.num(d-1) + ")"
		}
	case 3:
		return "(" + g.boolean(d-1) + " and " + g.str(d-1) + " or " + g.str(d-1) + ")"
	}
	return g.strLeaf()
}

func (g *gen) strLeaf() string {
	if vs := g.readable(tStr); len(vs) > 0 && g.r.IntN(2) == 0 {
		return g.use(pick(g, vs))
	}
	g.charge(1)
	return pick(g, strLits)
}

func (g *gen) boolean(d int) string {
	if d <= 0 || g.r.IntN(4) == 0 {
		if vs := g.readable(tBool); len(vs) > 0 && g.r.IntN(2) == 0 {
			return g.use(pick(g, vs))
		}
		return pick(g, []string{"true", "false", "nil == nil", "!nil"})
	}
	switch g.r.IntN(7) {
	case 0, 1:
		return "(" + g.num(d-1) + " " + pick(g, []string{"<", "<=", ">", ">=", "==", "!="}) + " " + g.num(d-1) + ")"
	case 2:
		return "!(" + g.boolean(d-1) + ")"
	case 3:
		return "(" + g.boolean(d-1) + " " + pick(g, []string{"and", "or"}) + " " + g.boolean(d-1) + ")"
	case 4:
		return "(" + g.str(d-1) + " " + pick(g, []string{"==", "!="}) + " " + g.str(d-1) + ")"
	case 5:
		// Values of different types are never equal.
		return "(" + g.num(d-1) + " == " + g.str(d-1) + ")"
	}
	return "(" + g.boolean(d-1) + " == " + g.boolean(d-1) + ")"
}

// readable returns the variables of type t a leaf may read: while the
// right side of an assignment is generated (noVars) only fixed ones, so
// that repeated assignments grow values at most linearly (x = x * x in a
// loop would overflow to inf, s = s + s would double a string).
func (g *gen) readable(t typ) []variable {
	vs := g.vars(t, false)
	if !g.noVars {
		return vs
	}
	var fixed []variable
	for _, v := range vs {
		if v.fixed {
			fixed = append(fixed, v)
		}
	}
	return fixed
}

// any returns an expression of a random type.
func (g *gen) any(d int) string {
	return g.expr(typ(g.r.IntN(3)), d)
}

func itoa(n int) string { return strconv.Itoa(n) }
