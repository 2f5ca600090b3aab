package loxgen

import "strings"

// Classes: a chain of one to three classes, each inheriting from the one
// before, with init chaining through super.init, fields, new and
// overriding methods (overrides reach their parent through super), bound
// methods, and an instance whose fields and methods later code uses.

// A method of a class chain: its name, arity, cost and frames.
type method struct {
	function
	override bool
}

func (g *gen) classes() {
	levels := 1 + g.r.IntN(3)
	var fields []string
	var methods []method // the chain's methods as the latest class sees them
	var parent string
	initArity := 0
	savedMembers := g.members
	g.members = len(g.scopes)
	for level := 0; level < levels; level++ {
		name := g.fresh("C")
		if parent == "" {
			g.emit("class %s {", name)
		} else {
			g.emit("class %s < %s {", name, parent)
			g.charge(1)
		}
		g.charge(1)
		g.indent++
		fields, initArity = g.initMethod(parent, fields, initArity)
		methods = g.methods(parent != "", fields, methods)
		g.indent--
		g.emit("}")
		parent = name
	}
	g.members = savedMembers

	// An instance of the last class, its methods called directly and as
	// bound methods, its fields read and assigned.
	obj := g.fresh("o")
	args := make([]string, initArity)
	for i := range args {
		args[i] = g.num(1)
	}
	g.emit("var %s = %s(%s);", obj, parent, strings.Join(args, ", "))
	g.slot()
	g.show(obj)
	g.show(parent)
	g.show(obj + ".tag")
	for _, f := range fields {
		g.field(obj+"."+f, tNum)
	}
	for _, m := range methods {
		f := m.function
		f.name = obj + "." + f.name
		g.addFn(f)
	}
	m := pick(g, methods)
	g.show(g.call(function{name: obj + "." + m.name, arity: m.arity, cost: m.cost, depth: m.depth, global: g.global()}, 2))
	bound := g.fresh("b")
	g.emit("var %s = %s.%s;", bound, obj, m.name)
	g.slot()
	g.addFn(function{name: bound, arity: m.arity, cost: m.cost, depth: m.depth})
	g.show(bound)
	if len(fields) > 0 {
		g.noVars = true
		g.emit("%s.%s = %s;", obj, pick(g, fields), g.num(2))
		g.noVars = false
	}
	g.show(g.call(function{name: bound, arity: m.arity, cost: m.cost, depth: m.depth, global: g.global()}, 2))
	if g.r.IntN(3) == 0 {
		// Calling init again reinitializes and returns the instance.
		g.show(obj + ".init(" + strings.Join(args, ", ") + ")")
	}
}

// initMethod emits init: super.init first, then the class's own fields,
// computed from the parameters and the fields set before them. It
// returns all fields and init's arity.
func (g *gen) initMethod(parent string, inherited []string, parentArity int) ([]string, int) {
	params := make([]string, g.r.IntN(3))
	for i := range params {
		params[i] = g.fresh("p")
	}
	fields := append([]string(nil), inherited...)
	g.emit("init(%s) {", strings.Join(params, ", "))
	g.charge(1)
	g.body(params, func() {
		g.top().noReturn = true
		if parent != "" {
			args := make([]string, parentArity)
			for i := range args {
				args[i] = g.num(1)
			}
			g.charge(1)
			g.emit("super.init(%s);", strings.Join(args, ", "))
		} else {
			g.charge(2)
			g.emit("this.tag = %s;", g.str(1))
		}
		for _, f := range inherited {
			g.field("this."+f, tNum)
		}
		for i, n := 0, 1+g.r.IntN(3); i < n; i++ {
			f := g.fresh("x")
			g.charge(1)
			g.emit("this.%s = %s;", f, g.num(2))
			g.field("this."+f, tNum)
			fields = append(fields, f)
		}
		if g.r.IntN(4) == 0 {
			g.emit("if (%s) return;", g.boolean(1))
		}
	})
	g.emit("}")
	return fields, len(params)
}

// methods emits one to three methods: new ones, which may call the
// methods before them through this, and overrides, which call only their
// parent's version through super (so no chain of this-calls can loop).
func (g *gen) methods(sub bool, fields []string, inherited []method) []method {
	all := append([]method(nil), inherited...)
	for i, n := 0, 1+g.r.IntN(3); i < n; i++ {
		override := sub && len(inherited) > 0 && g.r.IntN(2) == 0
		var m method
		if override {
			m = pick(g, inherited)
			m.override = true
		} else {
			m = method{function: function{name: g.fresh("m"), arity: g.r.IntN(3)}}
		}
		params := make([]string, m.arity)
		for i := range params {
			params[i] = g.fresh("p")
		}
		g.emit("%s(%s) {", m.name, strings.Join(params, ", "))
		g.charge(1)
		g.push()
		for _, f := range fields {
			g.field("this."+f, tNum)
		}
		if !override {
			for _, o := range all {
				f := o.function
				f.name = "this." + f.name
				g.addMember(f)
			}
		}
		base := m
		c := g.body(params, func() {
			for i, n := 0, g.r.IntN(3); i < n && !g.full(); i++ {
				g.stmt(1)
			}
			result := g.num(2)
			if override {
				args := make([]string, base.arity)
				for i := range args {
					args[i] = g.num(1)
				}
				g.charge(1)
				result = "(super." + base.name + "(" + strings.Join(args, ", ") + ") + " + result + ")"
				g.top().cost += base.cost
				g.top().depth = max(g.top().depth, base.depth)
			}
			g.emit("return %s;", result)
		})
		g.pop()
		g.emit("}")
		m.cost, m.depth = c.cost, c.depth+1
		replaced := false
		for j := range all {
			if all[j].name == m.name {
				all[j], replaced = m, true
			}
		}
		if !replaced {
			all = append(all, m)
		}
	}
	return all
}
