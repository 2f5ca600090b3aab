package lang

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// FuzzParse checks that Parse never panics and that its two halves agree:
// the checker (clox's error behaviour) finds an error exactly when the
// participle grammar, the builder or the resolver does. Seeds are the
// suite's files (when ../shared is there) and the unit tests' snippets.
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
	files, _ := readSuite() // no suite: fuzz from the snippets alone
	for _, sf := range files {
		// The stress files (limit/loop_too_large.lox is 168KB) take a
		// second a run and only slow the mutator down.
		if len(sf.src) <= maxFuzzSeed {
			f.Add(sf.src)
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
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
		toks, ptoks, bad := scan(src)
		cerrs := check(toks)
		if bad || (len(cerrs) > 0 && cerrs[len(cerrs)-1].Msg == "Too much nesting.") {
			return // the grammar never sees these
		}
		_, perrs := parseTree(ptoks)
		if (len(cerrs) == 0) != (len(perrs) == 0) {
			t.Fatalf("checker and grammar disagree on %q:\nchecker: %v\ngrammar: %v", src, cerrs, perrs)
		}
	})
}

// TestCheckerAgreesWithGrammar is a token-level complement to FuzzParse:
// byte mutations rarely produce near-valid programs, so this test mutates
// valid programs one token at a time (drop, duplicate, swap, insert) and
// also tries short random token sequences, asserting each time that the
// checker and the grammar path agree on whether there is an error.
func TestCheckerAgreesWithGrammar(t *testing.T) {
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
	if files, err := readSuite(); err == nil {
		for _, f := range files {
			if len(f.expected) == 0 && len(f.src) <= 4<<10 {
				bases = append(bases, f.src)
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	agree := func(src string) {
		toks, ptoks, bad := scan(src)
		cerrs := check(toks)
		if bad || (len(cerrs) > 0 && cerrs[len(cerrs)-1].Msg == "Too much nesting.") {
			return
		}
		_, perrs := parseTree(ptoks)
		if (len(cerrs) == 0) != (len(perrs) == 0) {
			t.Fatalf("checker and grammar disagree on %q:\nchecker: %v\ngrammar: %v", src, cerrs, perrs)
		}
	}
	lexemes := func(src string) []string {
		toks, _, _ := scan(src)
		var out []string
		for _, tk := range toks[:len(toks)-1] {
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
			agree(strings.Join(w, " "))
			n++
		}
	}
	for range 20000 {
		w := make([]string, 1+rng.IntN(12))
		for i := range w {
			w[i] = vocab[rng.IntN(len(vocab))]
		}
		agree(strings.Join(w, " "))
		n++
	}
	t.Logf("%d programs", n)
}
