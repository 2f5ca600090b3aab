package lang

import (
	"strings"
	"testing"
)

// BenchmarkParse measures Parse on every error-free suite program
// concatenated (about 1,600 lines of ordinary Lox), on
// limit/loop_too_large.lox (2,351 lines holding 37,000 one-token
// statements) and on a 200,000-term `+` chain; /scan is the scanner alone.
func BenchmarkParse(b *testing.B) {
	files := loadSuite(b)
	var sb strings.Builder
	for _, f := range files {
		if len(f.expected) > 0 || f.nontest || skippedDir(f.rel) || strings.HasPrefix(f.rel, "limit/") {
			continue
		}
		sb.WriteString(f.src)
		sb.WriteString("\n")
	}
	suite := sb.String()
	var big string
	for _, f := range files {
		if f.rel == "limit/loop_too_large.lox" {
			big = f.src
		}
	}
	if big == "" {
		b.Fatal("the suite has no limit/loop_too_large.lox")
	}
	chain := "print 1" + strings.Repeat(" + 1", 200000) + ";"
	for _, in := range []struct{ name, src string }{{"suite", suite}, {"loop_too_large", big}, {"chain", chain}} {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.src)))
			for b.Loop() {
				if _, errs := Parse(in.src); errs != nil {
					b.Fatal(errs)
				}
			}
		})
		b.Run(in.name+"/scan", func(b *testing.B) {
			b.SetBytes(int64(len(in.src)))
			for b.Loop() {
				sc := newScanner(in.src)
				for sc.next().kind != tEOF {
				}
			}
		})
	}
}
