package loxgen

// Templates: fixed shapes with generated parts, for what random
// statements rarely build: class chains, closures escaping loops,
// recursion, allocation-heavy structures, arrays and threads. Each runs in
// its own block so that its data dies when it ends, unless it registers
// an instance or a closure that later code uses.

func (g *gen) template() {
	if len(g.chunks) > 3 {
		g.print()
		return
	}
	opts := []func(){g.classes, g.closures, g.linkedList, g.tree, g.strings, g.recursion, g.churn, g.bag}
	if !g.clox {
		opts = append(opts, g.arrays, g.natives)
	}
	if g.threads && g.visible == 0 {
		opts = append(opts, g.threadTemplate)
	}
	pick(g, opts)()
}

// show prints e, or in a thread (which must not print, since the order of
// prints between threads is not deterministic) appends it to the string
// the thread returns.
func (g *gen) show(e string) {
	if g.quiet == "" {
		g.emit("print %s;", e)
		return
	}
	g.charge(1)
	g.emit("%s = %s + str(%s) + \",\";", g.quiet, g.quiet, e)
}

// closures: counters that keep state in a captured variable, and a chain
// of closures made in a loop, each capturing the loop counter (one
// variable for the whole loop, as in clox), a per-iteration local and the
// previous closure.
func (g *gen) closures() {
	mk, c, step, start := g.fresh("mk"), g.fresh("c"), g.fresh("step"), g.fresh("p")
	g.emit("fun %s(%s) {", mk, start)
	g.indent++
	g.emit("var %s = %s;", c, start)
	g.emit("fun %s(d) {", step)
	g.emit("  %s = %s + d;", c, c)
	g.emit("  return %s;", c)
	g.emit("}")
	g.emit("return %s;", step)
	g.indent--
	g.emit("}")
	g.slot()
	counter, other := g.fresh("k"), g.fresh("k")
	g.charge(6)
	g.emit("var %s = %s(%s);", counter, mk, g.num(1))
	g.slot()
	g.emit("var %s = %s(%s);", other, mk, g.num(1))
	g.slot()
	g.show(counter + "(1)")
	g.show(other + "(2)")
	g.show(counter + "(3)")
	g.addFn(function{name: counter, arity: 1, cost: 2, depth: 1})

	first, last, i := g.fresh("first"), g.fresh("last"), g.fresh("i")
	n := 1 + g.r.IntN(8)
	g.charge(8)
	g.emit("{")
	g.indent++
	g.emit("fun %s() { return %s; }", first, g.numLit())
	g.emit("var %s = %s;", last, first)
	g.emit("for (var %s = 0; %s < %d; %s = %s + 1) {", i, i, n, i, i)
	g.emit("  var prev = %s;", last)
	g.emit("  var j = %s * %s;", i, g.numLit())
	g.emit("  fun link() { return prev() + j * 10 + %s; }", i)
	g.emit("  %s = link;", last)
	g.emit("}")
	g.show(last + "()")
	g.show(last)
	g.indent--
	g.emit("}")
	g.top().cost += 4 * n
	g.top().depth = max(g.top().depth, n+1)
}

// recursion: fib, and at the top level mutual recursion through globals.
func (g *gen) recursion() {
	fib := g.fresh("fib")
	n := 3 + g.r.IntN(10)
	g.emit("fun %s(n) {", fib)
	g.emit("  if (n < 2) return n;")
	g.emit("  return %s(n - 2) + %s(n - 1);", fib, fib)
	g.emit("}")
	g.slot()
	g.charge(2)
	g.show(fib + "(" + itoa(n) + ")")
	g.top().cost += 3 << (n * 7 / 10)
	g.top().depth = max(g.top().depth, n)
	if g.global() && g.r.IntN(2) == 0 {
		even, odd := g.fresh("even"), g.fresh("odd")
		g.emit("fun %s(n) { if (n == 0) return true; return %s(n - 1); }", even, odd)
		g.emit("fun %s(n) { if (n == 0) return false; return %s(n - 1); }", odd, even)
		g.charge(4)
		g.show(even + "(" + itoa(g.r.IntN(20)) + ")")
		g.top().cost += 40
		g.top().depth = max(g.top().depth, 20)
	}
}

func (g *gen) numLit() string {
	g.charge(1)
	return pick(g, numLits)
}
