package loxgen

import "strings"

// minivm's extensions: arrays and the natives clox lacks.

// arrays fills an array in a loop and sums it, prints literals of mixed
// elements, nested arrays and an array of closures, and leaves an array
// whose elements later code reads and assigns.
func (g *gen) arrays() {
	a, i, sum := g.fresh("a"), g.fresh("i"), g.fresh("sum")
	n := 1 + g.r.IntN(12)
	g.emit("var %s = Array(%d);", a, n)
	g.slot()
	g.push()
	g.emit("for (var %s = 0; %s < %d; %s = %s + 1) {", i, i, n, i, i)
	g.declare(i, tNum, true)
	g.noVars = true
	g.emit("  %s[%s] = %s;", a, i, g.num(2))
	g.noVars = false
	g.emit("}")
	g.emit("var %s = 0;", sum)
	g.emit("for (var %s = 0; %s < len(%s); %s = %s + 1) %s = %s + %s[%s];", i, i, a, i, i, sum, sum, a, i)
	g.pop()
	g.show(sum)
	g.show(a)
	g.charge(12)
	g.top().cost += 3 * n
	for k := 0; k < n; k += 1 + g.r.IntN(3) {
		g.field(a+"["+itoa(k)+"]", tNum)
	}

	lit := g.fresh("l")
	elems := []string{g.num(1), g.str(1), "nil", "true", "[" + g.num(1) + ", [" + g.str(1) + "]]", a + "[0]", "[]"}
	g.r.Shuffle(len(elems), func(i, j int) { elems[i], elems[j] = elems[j], elems[i] })
	g.emit("var %s = [%s];", lit, strings.Join(elems, ", "))
	g.slot()
	g.show(lit)
	g.show("len(" + lit + ")")
	k := g.r.IntN(len(elems))
	g.emit("%s[%d] = %s;", lit, k, g.any(1))
	g.show(lit + "[" + itoa(k) + "]")
	g.emit("var %sAlias = %s;", lit, lit)
	g.slot()
	g.emit("%sAlias[0] = %s;", lit, g.str(1))
	g.show(lit + "[0]")
	g.show(lit + " == " + lit + "Alias")
	g.charge(20)

	rows, cols := 1+g.r.IntN(5), 1+g.r.IntN(5)
	m := g.fresh("m")
	g.emit("{")
	g.indent++
	g.emit("var %s = Array(%d);", m, rows)
	g.emit("for (var r = 0; r < %d; r = r + 1) {", rows)
	g.emit("  %s[r] = Array(%d);", m, cols)
	g.emit("  for (var c = 0; c < %d; c = c + 1) %s[r][c] = r * %d + c;", cols, m, cols)
	g.emit("}")
	g.show(m)
	g.show(m + "[" + itoa(g.r.IntN(rows)) + "][" + itoa(g.r.IntN(cols)) + "]")
	// Closures in an array, each capturing its iteration's local and the
	// loop counter (one variable for the whole loop).
	g.emit("var fs = Array(%d);", n)
	g.emit("for (var j = 0; j < %d; j = j + 1) {", n)
	g.emit("  var captured = j * %s;", g.numLit())
	g.emit("  fun get() { return captured + j; }")
	g.emit("  fs[j] = get;")
	g.emit("}")
	g.emit("var total = 0;")
	g.emit("for (var j = 0; j < len(fs); j = j + 1) total = total + fs[j]();")
	g.show("total")
	if g.r.IntN(3) == 0 {
		// More than 512 references: parallel collections split the array.
		big := 513 + g.r.IntN(700)
		g.emit("var big = Array(%d);", big)
		g.emit("for (var j = 0; j < %d; j = j + 1) big[j] = [j, \"e\"];", big)
		g.emit("for (var j = 0; j < %d; j = j + 1) { var junk = \"x\" + str(j); }", 100+g.r.IntN(400))
		g.emit("var check = 0;")
		g.emit("for (var j = 0; j < %d; j = j + 1) check = check + big[j][0] + len(big[j][1]);", big)
		g.show("check")
		g.top().cost += 3 * big
	}
	g.indent--
	g.emit("}")
	g.charge(25)
	g.top().cost += 5 * n
}

// natives calls the natives clox lacks: str, number, len and gc.
func (g *gen) natives() {
	g.show("str(" + g.num(2) + ") + " + g.str(1))
	g.show("number(" + pick(g, []string{`"abc"`, `""`, `"1.5"`, `"-0"`, `"7e2"`, `"12x"`}) + ")")
	g.show("number(" + g.num(1) + ")")
	g.show("len(" + g.str(2) + ")")
	g.show("str(nil) + str(true) + str(" + g.str(1) + ")")
	if g.quiet == "" {
		g.emit("gc();")
	}
	g.charge(12)
}
