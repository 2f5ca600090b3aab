package lang

// localStack is a function's live locals as clox keeps them (a stack, the
// innermost scope on top) plus an index from each name to its most recent
// live local, so that declaring or finding a local costs the same however
// many the function has. clox caps a function at 256 locals and scans;
// minivm allows 65,536, and a scan per declaration and per reference would
// make a big function quadratic. The parser and the resolver each keep one
// per function.
type localStack[T any] struct {
	list []stackLocal[T]
	top  map[string]int // name -> index of its most recent live local
}

type stackLocal[T any] struct {
	name  string
	depth int // scope depth; -1 while declared but not yet initialized
	prev  int // index of the previous live local of the same name, or -1
	data  T
}

func (s *localStack[T]) push(name string, depth int, data T) {
	if s.top == nil {
		s.top = map[string]int{}
	}
	prev, ok := s.top[name]
	if !ok {
		prev = -1
	}
	s.top[name] = len(s.list)
	s.list = append(s.list, stackLocal[T]{name: name, depth: depth, prev: prev, data: data})
}

// find returns the index of the most recent live local named name, or -1:
// the one clox's backward scan would meet first.
func (s *localStack[T]) find(name string) int {
	if i, ok := s.top[name]; ok {
		return i
	}
	return -1
}

func (s *localStack[T]) len() int                { return len(s.list) }
func (s *localStack[T]) at(i int) *stackLocal[T] { return &s.list[i] }
func (s *localStack[T]) last() *stackLocal[T]    { return &s.list[len(s.list)-1] }

// inScope reports whether the local at index i belongs to the scope at
// depth (clox's declareVariable stops its scan at the first local that
// does not).
func (s *localStack[T]) inScope(i, depth int) bool {
	d := s.list[i].depth
	return d == -1 || d >= depth
}

// popDeeper pops the locals of scopes deeper than depth and returns them
// in declaration order; the slice is valid until the next push.
func (s *localStack[T]) popDeeper(depth int) []stackLocal[T] {
	n := len(s.list)
	for n > 0 && s.list[n-1].depth > depth {
		n--
	}
	popped := s.list[n:]
	for i := len(popped) - 1; i >= 0; i-- {
		if l := popped[i]; l.prev < 0 {
			delete(s.top, l.name)
		} else {
			s.top[l.name] = l.prev
		}
	}
	s.list = s.list[:n]
	return popped
}
