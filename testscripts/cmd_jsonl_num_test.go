package testscripts

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// jsonl-num file records|nursery|global|summary first|last|min|max key op n
//
//	compare a numeric key of a stats file (-Xgc:statsFile) with n: its
//	value in the first or last selected record, or the least or largest
//	over them; op is <, <=, ==, >= or >. "records" selects every
//	collection, "summary" the summary line.
func init() { scriptCmds["jsonl-num"] = cmdJSONLNum }

func cmdJSONLNum(ts *testscript.TestScript, neg bool, args []string) {
	ops := []string{"<", "<=", "==", ">=", ">"}
	if neg || len(args) != 6 || !slices.Contains([]string{"records", "nursery", "global", "summary"}, args[1]) ||
		!slices.Contains([]string{"first", "last", "min", "max"}, args[2]) || !slices.Contains(ops, args[4]) {
		ts.Fatalf("usage: jsonl-num file records|nursery|global|summary first|last|min|max key <|<=|==|>=|> n")
	}
	file, sel, agg, key, op := args[0], args[1], args[2], args[3], args[4]
	want, err := strconv.ParseFloat(args[5], 64)
	if err != nil {
		ts.Fatalf("jsonl-num: bad number %q", args[5])
	}
	var vals []float64
	for _, line := range strings.Split(strings.TrimSuffix(ts.ReadFile(file), "\n"), "\n") {
		var obj map[string]any
		if err := json.Unmarshal([]byte(line), &obj); err != nil {
			ts.Fatalf("%s: not a JSON object: %v\n%s", file, err, line)
		}
		if summary := obj["summary"] == true; summary != (sel == "summary") ||
			(sel == "nursery" || sel == "global") && obj["type"] != sel {
			continue
		}
		v, ok := obj[key].(float64)
		if !ok {
			ts.Fatalf("%s: %s is not a number in %s", file, key, line)
		}
		vals = append(vals, v)
	}
	if len(vals) == 0 {
		ts.Fatalf("%s: no %s line", file, sel)
	}
	got := map[string]float64{"first": vals[0], "last": vals[len(vals)-1], "min": slices.Min(vals), "max": slices.Max(vals)}[agg]
	ok := map[string]bool{"<": got < want, "<=": got <= want, "==": got == want, ">=": got >= want, ">": got > want}[op]
	if !ok {
		ts.Fatalf("%s: %s %s %s is %v, want %s %v", file, agg, sel, key, got, op, want)
	}
	ts.Logf("%s: %s %s %s is %v", file, agg, sel, key, got)
}
