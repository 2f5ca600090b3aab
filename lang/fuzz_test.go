package lang

import (
	"math/rand/v2"
	"strings"
	"testing"

	"minivm/internal/loxsuite"
)

// checkParse asserts what must hold for every input: Parse never panics
// and returns a program or clox-formatted errors, never both; the resolver
// finds nothing wrong in a tree the parser accepted; and an accepted
// program prints back to source (unparse) that parses to the same tree.
func checkParse(t *testing.T, src string) {
	t.Helper()
	prog, errs := Parse(src)
	if (prog == nil) != (len(errs) > 0) {
		t.Fatalf("prog %v with errors %v", prog != nil, errs)
	}
	for _, e := range errs {
		if e.Msg == internalErrorMsg {
			t.Fatalf("Parse panicked on %q", src)
		}
		if e.Line < 1 || !strings.HasPrefix(e.Error(), "[line ") {
			t.Fatalf("bad error %q", e.Error())
		}
	}
	tree, perrs := parse(src)
	if len(perrs) == 0 {
		if rerrs := resolve(tree); len(rerrs) > 0 {
			t.Fatalf("the parser accepted %q, the resolver reports %v", src, rerrs)
		}
	}
	if prog == nil {
		return
	}
	again := unparse(prog)
	prog2, errs2 := Parse(again)
	if len(errs2) > 0 {
		t.Fatalf("%q printed as %q, which does not parse: %v", src, again, errs2)
	}
	if d1, d2 := dump(prog), dump(prog2); d1 != d2 {
		t.Fatalf("%q printed as %q parses to another tree:\n%s\n%s", src, again, d1, d2)
	}
}

// longSeeds are deep and long inputs: chains the parser builds in a loop
// (which must parse, however long) and nestings it builds by recursion
// (which must stop at maxDepth with "Too much nesting.").
func longSeeds() []string {
	deep := func(open, middle, close string, n int) string {
		return strings.Repeat(open, n) + middle + strings.Repeat(close, n)
	}
	return []string{
		"print 1" + strings.Repeat(" + 1", 100000) + ";",
		"print 1" + strings.Repeat("-1", 60000) + ";",
		"print false" + strings.Repeat(" or false", 50000) + " or true;",
		"print a" + strings.Repeat(" and a", 50000) + ";",
		"print a" + strings.Repeat(".x", 100000) + ";",
		"a" + strings.Repeat(".x", 50000) + " = 1;",
		"print f" + strings.Repeat("()", 100000) + ";",
		"print a" + strings.Repeat("[0]", 50000) + ";",
		"print a" + strings.Repeat(".m(1)[2]", 30000) + ";",
		strings.Repeat("var x = 1;\n", 100000),
		strings.Repeat("print i;\n", 100000),
		"print " + deep("(", "1", ")", 100000) + ";",
		"print " + deep("(", "1", ")", maxDepth/2) + ";",
		"print " + strings.Repeat("-", 100000) + "1;",
		"print " + strings.Repeat("!", maxDepth/2) + "true;",
		deep("{", "", "}", 100000),
		deep("{", "print 1;", "}", maxDepth/2),
		deep("fun f() {", "", "}", 100000),
		deep("fun f() {", "return 1;", "}", maxDepth/3),
		strings.Repeat("a = ", 100000) + "1;",
		"// " + strings.Repeat("x", 1<<20) + "\nprint 1;",
		"print \"" + strings.Repeat("a\n", 50000) + "\";",
		"print \"" + strings.Repeat("a\n", 50000),
	}
}

// FuzzParse checks checkParse's properties. Seeds are the suite's files
// (when ../shared is there), the unit tests' snippets and longSeeds.
//
//	go test ./lang -run '^$' -fuzz FuzzParse -fuzztime 60s
func FuzzParse(f *testing.F) {
	const maxFuzzSeed = 16 << 10
	for _, tc := range errorCases {
		f.Add(tc.src)
	}
	for _, tc := range shapeCases {
		f.Add(tc.src)
	}
	for _, tc := range bindingCases {
		f.Add(tc.src)
	}
	for _, s := range longSeeds() {
		f.Add(s)
	}
	var files []suiteFile
	if root, err := loxsuite.Find(); err == nil { // no suite: fuzz from the snippets alone
		files, _ = readSuite(root)
	}
	for _, sf := range files {
		// The stress files (limit/loop_too_large.lox is 168KB) only slow
		// the mutator down.
		if len(sf.src) <= maxFuzzSeed {
			f.Add(sf.src)
		}
	}
	f.Fuzz(checkParse)
}

// TestMutatedPrograms is a token-level complement to FuzzParse: byte
// mutations rarely produce near-valid programs, so this test mutates valid
// programs one token at a time (drop, duplicate, swap, insert) and also
// tries short random token sequences, checking checkParse's properties on
// each.
func TestMutatedPrograms(t *testing.T) {
	vocab := strings.Fields(`( ) { } [ ] , . - + ; / * ! != = == > >= < <= a b init
		"s" 1 2.5 and class else false for fun if nil or print return super this true var while`)
	var bases []string
	for _, tc := range errorCases {
		if tc.want == nil {
			bases = append(bases, tc.src)
		}
	}
	for _, tc := range shapeCases {
		bases = append(bases, tc.src)
	}
	for _, tc := range bindingCases {
		bases = append(bases, tc.src)
	}
	if root, ok := loxsuite.Optional(t); ok {
		files, err := readSuite(root)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if len(f.expected) == 0 && len(f.src) <= 4<<10 {
				bases = append(bases, f.src)
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	lexemes := func(src string) []string {
		var out []string
		sc := newScanner(src)
		for tk := sc.next(); tk.kind != tEOF; tk = sc.next() {
			out = append(out, tk.text)
		}
		return out
	}
	n := 0
	for _, base := range bases {
		words := lexemes(base)
		if len(words) == 0 {
			continue
		}
		for range 40 {
			w := append([]string(nil), words...)
			i := rng.IntN(len(w))
			switch rng.IntN(4) {
			case 0:
				w = append(w[:i], w[i+1:]...)
			case 1:
				w = append(w[:i+1], w[i:]...)
			case 2:
				j := rng.IntN(len(w))
				w[i], w[j] = w[j], w[i]
			case 3:
				w = append(w[:i], append([]string{vocab[rng.IntN(len(vocab))]}, w[i:]...)...)
			}
			checkParse(t, strings.Join(w, " "))
			n++
		}
	}
	for range 20000 {
		w := make([]string, 1+rng.IntN(12))
		for i := range w {
			w[i] = vocab[rng.IntN(len(vocab))]
		}
		checkParse(t, strings.Join(w, " "))
		n++
	}
	t.Logf("%d programs", n)
}
