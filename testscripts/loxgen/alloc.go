package loxgen

// Allocation-heavy templates: enough objects, strings and garbage that a
// 256 KB nursery collects several times, with live data of a few tens of
// KB at most.

// linkedList builds a list of instances in a loop, held by a local or by
// an older object's field, with garbage nodes and strings beside it, then
// walks it.
func (g *gen) linkedList() {
	node, head, i, sum, p := g.fresh("Node"), g.fresh("head"), g.fresh("i"), g.fresh("sum"), g.fresh("p")
	n := 20 + g.r.IntN(130)
	g.emit("{")
	g.indent++
	g.push()
	g.emit("class %s { init(v, next) { this.v = v; this.next = next; } }", node)
	if g.r.IntN(2) == 0 {
		g.emit("var %s = nil;", head)
	} else {
		// The list hangs off an object older than its nodes: every
		// store goes through the write barrier.
		g.emit("var %s = %s(-1, nil);", head, node)
		head += ".next"
	}
	g.emit("for (var %s = 0; %s < %d; %s = %s + 1) {", i, i, n, i, i)
	g.declare(i, tNum, true)
	c := g.top()
	saved := c.mult
	c.mult *= n
	g.noVars = true
	g.emit("  %s = %s(%s, %s);", head, node, g.num(2), head)
	if g.r.IntN(2) == 0 {
		g.emit("  var garbage = %s(%s, nil);", node, i)
		g.emit("  var text = %s + %s;", g.str(1), g.str(1))
	}
	g.noVars = false
	c.mult = saved
	g.emit("}")
	g.emit("var %s = 0;", sum)
	g.emit("var %s = %s;", p, head)
	g.emit("while (%s != nil) {", p)
	g.emit("  %s = %s + %s.v;", sum, sum, p)
	g.emit("  %s = %s.next;", p, p)
	g.emit("}")
	g.show(sum)
	g.show(head + ".next == nil")
	g.charge(20)
	c.cost += 6 * n
	g.pop()
	g.indent--
	g.emit("}")
}

// tree builds binary trees by recursion: one kept while others are built
// and dropped, then summed.
func (g *gen) tree() {
	tree, mk, sum, kept := g.fresh("Tree"), g.fresh("make"), g.fresh("sum"), g.fresh("t")
	depth := 2 + g.r.IntN(5)
	g.emit("{")
	g.indent++
	g.emit("fun %s(t) {", sum)
	g.emit("  if (t == nil) return 0;")
	g.emit("  return t.v + %s(t.l) + %s(t.r);", sum, sum)
	g.emit("}")
	g.emit("class %s {", tree)
	g.emit("  init(l, r, v) { this.l = l; this.r = r; this.v = v; }")
	g.emit("  total() { return %s(this); }", sum)
	g.emit("}")
	g.emit("fun %s(d) {", mk)
	g.emit("  if (d <= 0) return nil;")
	g.emit("  return %s(%s(d - 1), %s(d - 1), d * %s);", tree, mk, mk, g.numLit())
	g.emit("}")
	g.emit("var %s = %s(%d);", kept, mk, depth)
	g.emit("for (var i = 0; i < %d; i = i + 1) %s(%d);", 1+g.r.IntN(4), mk, depth)
	g.show(sum + "(" + kept + ")")
	g.show(kept + ".total()")
	g.show(kept + ".l")
	g.indent--
	g.emit("}")
	g.charge(25)
	g.top().cost += 40 << depth
	g.top().depth = max(g.top().depth, depth+2)
}

// strings builds a string by concatenation in a loop, and drops others.
func (g *gen) strings() {
	s, i := g.fresh("s"), g.fresh("i")
	n := 1 + g.r.IntN(40)
	g.emit("{")
	g.indent++
	g.push()
	g.emit("var %s = %s;", s, g.str(1))
	g.emit("for (var %s = 0; %s < %d; %s = %s + 1) {", i, i, n, i, i)
	g.declare(i, tNum, true)
	g.noVars = true
	g.emit("  %s = %s + %s;", s, s, g.str(1))
	g.emit("  if (%s) %s = %s + %s;", g.boolean(1), s, s, g.str(1))
	if !g.clox {
		g.emit("  var drop = str(%s) + %s;", i, g.str(1))
	}
	g.noVars = false
	g.emit("}")
	g.show(s)
	if !g.clox {
		g.show("len(" + s + ")")
	}
	g.charge(10)
	g.top().cost += 4 * n
	g.pop()
	g.indent--
	g.emit("}")
}

// churn allocates large short-lived strings (and arrays, for minivm) in a
// loop, keeping every tenth alive in a chain of closures: volume enough for a 256 KB nursery
// to collect several times, with few allocations, so that stress
// collections stay cheap.
func (g *gen) churn() {
	s, keep, i := g.fresh("big"), g.fresh("kept"), g.fresh("i")
	n := 50 + g.r.IntN(250)
	g.emit("{")
	g.indent++
	g.emit("var %s = %s;", s, pick(g, []string{`"abcd"`, `"0123456789"`, `"xy"`}))
	g.emit("for (var d = 0; d < %d; d = d + 1) %s = %s + %s;", 5+g.r.IntN(3), s, s, s)
	g.emit("var %s = nil;", keep)
	g.emit("var tick = 0;")
	g.emit("for (var %s = 0; %s < %d; %s = %s + 1) {", i, i, n, i, i)
	if g.clox {
		g.emit("  var t = %s + \"!\";", s)
	} else {
		g.emit("  var t = %s + str(%s);", s, i)
		g.emit("  var arr = Array(%d);", 16+g.r.IntN(300))
		g.emit("  arr[0] = t;")
		g.emit("  arr[len(arr) - 1] = %s;", i)
	}
	g.emit("  tick = tick + 1;")
	g.emit("  if (tick == 10) {")
	g.emit("    tick = 0;")
	g.emit("    var prev = %s;", keep)
	g.emit("    fun link() { if (t == nil) return nil; return prev; }")
	g.emit("    %s = link;", keep)
	g.emit("  }")
	g.emit("}")
	g.emit("var count = 0;")
	g.emit("while (%s != nil) { count = count + 1; %s = %s(); }", keep, keep, keep)
	g.show("count")
	if !g.clox {
		g.show("len(" + s + ")")
	}
	g.indent--
	g.emit("}")
	g.charge(20)
	g.top().cost += 8 * n
}

// bag sets many fields on one instance from outside its class, some
// holding new objects, so that fields spill past the inline slots into
// the overflow table, then reads them back after more allocation.
func (g *gen) bag() {
	bag, o := g.fresh("Bag"), g.fresh("bag")
	n := 5 + g.r.IntN(30)
	g.emit("{")
	g.indent++
	g.emit("class %s { init() { this.first = %s; } }", bag, g.numLit())
	g.emit("var %s = %s();", o, bag)
	for i := range n {
		if i%3 == 0 {
			g.emit("%s.f%d = %s();", o, i, bag)
		} else {
			g.emit("%s.f%d = %s;", o, i, g.any(1))
		}
	}
	g.emit("for (var i = 0; i < %d; i = i + 1) { var junk = %s(); junk.f0 = \"x\" + \"y\"; }", 10+g.r.IntN(90), bag)
	for i := 0; i < n; i += 1 + g.r.IntN(3) {
		if i%3 == 0 {
			g.show(o + ".f" + itoa(i) + ".first")
		} else {
			g.show(o + ".f" + itoa(i))
		}
	}
	g.show(o + ".first")
	g.indent--
	g.emit("}")
	g.charge(3*n + 10)
	g.top().cost += 3 * n
}
