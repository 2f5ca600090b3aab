// Package loxgen generates random Lox programs for differential testing:
// the same seed always gives the same program, and every program is
// deterministic (no clock values or racing threads reach the output) and
// terminates (loop counters have generated bounds the body cannot
// assign, recursion is bounded).
//
// A program mixes globals, blocks, if/while/for, and/or, functions and
// closures (upvalues captured in loops, closures escaping their loop),
// classes with inheritance, init, this and super, bound methods,
// allocation-heavy parts (linked lists, trees, string building, garbage,
// instances with many fields), and, unless it is meant for clox too,
// arrays (some of more than 512 references), threads (spawn/join of
// threads that only compute, or write disjoint array slots) and minivm's
// natives. Most programs end normally; some end with a deliberate runtime
// error (at the top or a few calls deep, in a method or in a thread) or
// hold a deliberate compile error. Programs stay inside clox's limits (256
// constants per chunk, 64 call frames) so clox can run the ones without
// minivm's extensions, and their live data stays far below a 1 MB heap.
package loxgen

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// A Program is one generated script and what it must do.
type Program struct {
	Seed   uint64
	Source string
	// Clox is true when the program uses nothing clox lacks: no arrays,
	// threads or minivm-only natives.
	Clox bool
	// Exit is the status the program must end with: 0, 65 (a deliberate
	// compile error) or 70 (a deliberate runtime error).
	Exit int
	// Error is the message the first line of stderr must contain when
	// Exit is not 0.
	Error string
}

// Limits that keep programs small, fast under stress collections, and
// inside clox's one-byte operands.
const (
	programCost = 6000 // statements a whole run executes, about
	callCost    = 800  // statements one call site may run
	maxDepth    = 24   // call frames below the script
	chunkFull   = 140  // constants in a chunk before it takes no more statements
	maxMult     = 60   // iterations of the innermost loop body, nested loops multiplied
)

type typ int

const (
	tNum typ = iota
	tStr
	tBool
)

// A variable is anything readable as a value of a known type: a name, a
// field (this.x, o.x) or an element (a[2]).
type variable struct {
	expr   string
	t      typ
	global bool // reading it costs a constant in the current chunk
	fixed  bool // never assigned: loop counters, captured thread inputs
}

// A function returns a number and takes arity numbers.
type function struct {
	name   string // how a call spells it: f, o.m, this.m, super.m
	arity  int
	cost   int // statements one call runs, at most
	depth  int // call frames one call uses, at most
	global bool
}

type scope struct {
	vars []variable
	fns  []function
}

// A chunk is the function being generated: its constants (clox's limit is
// 256), the statements it runs per call, and the frames below it.
type chunk struct {
	consts   int
	cost     int
	depth    int
	mult     int  // iterations of the current statement per call
	vars     int  // locals declared
	noReturn bool // no early return: an initializer (no value) or a thread body (its slot write is last)
}

type gen struct {
	r      *rand.Rand
	out    strings.Builder
	indent int
	scopes []scope
	// visible is the first scope the current code may use: a thread's
	// function sees only its own scopes, so that threads share nothing
	// mutable.
	visible int
	chunks  []chunk
	ids     int
	clox    bool   // no arrays, threads or minivm-only natives
	threads bool   // spawn may be used
	noVars  bool   // leaves read only fixed variables (see readable)
	quiet   string // in a thread: the string variable that show appends to
	members int    // the first scope where this.x and this.m are the current class's
}

// Generate returns the program of seed.
func Generate(seed uint64) *Program {
	g := &gen{r: rand.New(rand.NewPCG(seed, 0x6c6f7867656e))}
	g.clox = g.r.IntN(5) < 2
	g.threads = !g.clox && g.r.IntN(2) == 0
	g.scopes = []scope{{}}
	g.chunks = []chunk{{mult: 1}}
	p := &Program{Seed: seed}

	g.emit("// loxgen seed %d", seed)
	items := 3 + g.r.IntN(8)
	for i := 0; i < items && g.top().cost < programCost; i++ {
		g.topItem()
	}
	if g.r.IntN(15) == 0 {
		g.nonFinite()
	}
	switch n := g.r.IntN(20); {
	case n < 5:
		p.Exit, p.Error = 70, g.runtimeError()
	case n < 6:
		p.Exit, p.Error = 65, g.compileError()
	}
	p.Source = g.out.String()
	p.Clox = g.clox
	return p
}

// topItem emits one piece of the script: a global statement, a section
// (a function holding statements, called at once, so its constants are
// its own chunk's) or a template.
func (g *gen) topItem() {
	if g.top().consts > chunkFull {
		g.section()
		return
	}
	switch n := g.r.IntN(10); {
	case n < 3:
		g.section()
	case n < 5:
		g.stmt(2)
	default:
		g.template()
	}
}

func (g *gen) section() {
	name := g.fresh("section")
	g.emit("fun %s() {", name)
	c := g.body(nil, func() { g.stmts(3 + g.r.IntN(6)) })
	g.emit("}")
	g.charge(1)
	g.emit("%s();", name)
	g.charge(2)
	g.top().cost += c.cost
}

// emit writes one line at the current indentation.
func (g *gen) emit(format string, args ...any) {
	g.out.WriteString(strings.Repeat("  ", g.indent))
	fmt.Fprintf(&g.out, format, args...)
	g.out.WriteByte('\n')
	g.top().cost += g.top().mult
}

func (g *gen) fresh(prefix string) string {
	g.ids++
	return fmt.Sprintf("%s%d", prefix, g.ids)
}

func (g *gen) top() *chunk { return &g.chunks[len(g.chunks)-1] }

// charge counts n constants in the current chunk.
func (g *gen) charge(n int) { g.top().consts += n }

func (g *gen) full() bool {
	c := g.top()
	return c.consts > chunkFull || c.vars > 150
}

func (g *gen) push() { g.scopes = append(g.scopes, scope{}) }
func (g *gen) pop()  { g.scopes = g.scopes[:len(g.scopes)-1] }

func (g *gen) global() bool { return len(g.scopes) == 1 }

// declare adds a variable named name to the innermost scope.
func (g *gen) declare(name string, t typ, fixed bool) {
	s := &g.scopes[len(g.scopes)-1]
	s.vars = append(s.vars, variable{expr: name, t: t, global: g.global(), fixed: fixed})
	g.slot()
}

// slot counts a declaration: a global's name constant or a local's slot.
func (g *gen) slot() {
	if g.global() {
		g.charge(1)
	} else {
		g.top().vars++
	}
}

// field adds a readable and assignable place that is not a plain name.
func (g *gen) field(expr string, t typ) {
	s := &g.scopes[len(g.scopes)-1]
	s.vars = append(s.vars, variable{expr: expr, t: t, global: true})
}

func (g *gen) addFn(f function) {
	s := &g.scopes[len(g.scopes)-1]
	f.global = g.global()
	s.fns = append(s.fns, f)
}

// addMember adds a method reached through this or an instance: each call
// costs the property name's constant.
func (g *gen) addMember(f function) {
	s := &g.scopes[len(g.scopes)-1]
	f.global = true
	s.fns = append(s.fns, f)
}

// enterFn starts a function body: a new chunk, one frame deeper.
func (g *gen) enterFn() {
	g.chunks = append(g.chunks, chunk{mult: 1})
}

// leaveFn ends a function body and returns its chunk; the frame depth of
// the body's calls becomes the function's.
func (g *gen) leaveFn() chunk {
	c := g.chunks[len(g.chunks)-1]
	g.chunks = g.chunks[:len(g.chunks)-1]
	g.charge(1) // the function constant
	return c
}

// vars returns the visible variables of type t (assignable only, if asked).
func (g *gen) vars(t typ, assignable bool) []variable {
	var vs []variable
	for i, s := range g.scopes[g.visible:] {
		for _, v := range s.vars {
			if v.t == t && (!assignable || !v.fixed) && g.inClass(g.visible+i, v.expr) {
				vs = append(vs, v)
			}
		}
	}
	return vs
}

// callable returns the visible functions a call here may run within the
// cost and frame limits.
func (g *gen) callable() []function {
	c := g.top()
	var fs []function
	for i, s := range g.scopes[g.visible:] {
		for _, f := range s.fns {
			if g.inClass(g.visible+i, f.name) && f.cost*c.mult <= callCost && f.depth < maxDepth && g.totalCost()+f.cost*c.mult < 2*programCost {
				fs = append(fs, f)
			}
		}
	}
	return fs
}

// inClass reports whether a name from scope i is usable here: this.x
// and this.m only inside the class that declared them, not in a class
// nested in one of its methods.
func (g *gen) inClass(i int, name string) bool {
	return i >= g.members || !strings.HasPrefix(name, "this.")
}

func (g *gen) totalCost() int {
	n := 0
	for _, c := range g.chunks {
		n += c.cost
	}
	return n
}

func (g *gen) use(v variable) string {
	if v.global {
		g.charge(1)
	}
	return v.expr
}

func pick[T any](g *gen, xs []T) T { return xs[g.r.IntN(len(xs))] }
