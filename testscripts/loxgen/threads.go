package loxgen

// Threads whose results are deterministic: each thread sees only its own
// locals (and inputs nobody assigns), returns what it would have printed
// as a string, and the main thread joins and prints in a fixed order;
// threads that write to shared arrays write disjoint slots.

func (g *gen) threadTemplate() {
	switch g.r.IntN(3) {
	case 0:
		g.computeThreads()
	case 1:
		g.slotThreads()
	default:
		g.buildThreads()
	}
}

// isolated emits a thread function's body: generated statements that see
// only the function's scope and the fixed inputs in scopes from first
// on, and append to a local string the function returns.
func (g *gen) isolated(first int, tail func()) chunk {
	acc := g.fresh("out")
	savedVisible, savedQuiet := g.visible, g.quiet
	g.visible = first
	c := g.body(nil, func() {
		g.top().noReturn = true
		g.emit("var %s = \"\";", acc)
		g.declare(acc, tStr, true)
		g.quiet = acc
		g.stmts(2 + g.r.IntN(5))
		tail()
		g.emit("return %s;", acc)
	})
	g.visible, g.quiet = savedVisible, savedQuiet
	return c
}

// computeThreads runs one generated function on two or three threads at
// once.
func (g *gen) computeThreads() {
	work := g.fresh("work")
	g.emit("fun %s() {", work)
	c := g.isolated(len(g.scopes), func() {})
	g.emit("}")
	g.slot()
	n := 2 + g.r.IntN(2)
	ts := make([]string, n)
	for i := range ts {
		ts[i] = g.fresh("t")
		g.emit("var %s = spawn(%s);", ts[i], work)
		g.slot()
	}
	for _, t := range ts {
		g.show("join(" + t + ")")
	}
	g.charge(3 * n)
	g.top().cost += n * c.cost
}

// slotThreads starts threads made by a maker function, each writing its
// own slot of a shared array, then prints the array.
func (g *gen) slotThreads() {
	out, mk, ts, w, k := g.fresh("slots"), g.fresh("mk"), g.fresh("ts"), g.fresh("w"), g.fresh("k")
	n := 2 + g.r.IntN(3)
	g.emit("var %s = Array(%d);", out, n)
	g.slot()
	g.emit("fun %s(%s) {", mk, k)
	var c chunk
	g.body(nil, func() {
		g.declare(k, tNum, true)
		first := len(g.scopes) - 1
		g.emit("fun %s() {", w)
		c = g.isolated(first, func() {
			g.charge(1)
			g.emit("%s[%s] = %s;", out, k, g.num(2))
		})
		g.emit("}")
		g.emit("return %s;", w)
	})
	g.emit("}")
	g.slot()
	g.emit("var %s = Array(%d);", ts, n)
	g.slot()
	g.emit("for (var i = 0; i < %d; i = i + 1) %s[i] = spawn(%s(i));", n, ts, mk)
	g.emit("for (var i = 0; i < %d; i = i + 1) print join(%s[i]);", n, ts)
	g.show(out)
	g.charge(12)
	g.top().cost += n * c.cost
}

// buildThreads: threads build linked lists of a class the main thread
// declared and hand them back through join; then a thread runs a closure
// that shares a captured variable with its owner, joined at once.
func (g *gen) buildThreads() {
	node, build, walk := g.fresh("Cell"), g.fresh("build"), g.fresh("walk")
	n := 20 + g.r.IntN(200)
	g.emit("class %s { init(v, next) { this.v = v; this.next = next; } }", node)
	g.emit("fun %s() {", build)
	g.emit("  var h = nil;")
	g.emit("  for (var i = 0; i < %d; i = i + 1) h = %s(i * %s, h);", n, node, g.numLit())
	g.emit("  return h;")
	g.emit("}")
	g.emit("fun %s(l) {", walk)
	g.emit("  var n = 0;")
	g.emit("  var s = 0;")
	g.emit("  while (l != nil) { n = n + 1; s = s + l.v; l = l.next; }")
	g.emit("  return str(n) + \" \" + str(s);")
	g.emit("}")
	g.slot()
	g.slot()
	g.slot()
	ts := []string{g.fresh("t"), g.fresh("t")}
	for _, t := range ts {
		g.emit("var %s = spawn(%s);", t, build)
		g.slot()
	}
	for _, t := range ts {
		g.show(walk + "(join(" + t + "))")
	}
	g.emit("{")
	g.emit("  var shared = %s;", g.numLit())
	g.emit("  fun bump() { shared = shared + 1; return shared; }")
	g.emit("  print join(spawn(bump));")
	g.emit("  print shared;")
	g.emit("}")
	g.charge(20)
	g.top().cost += 8 * n
}
