package xlog

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"minivm/runtime/mem"
)

// Config is a logging configuration under construction: the outputs the
// -Xlog options named, each with its level per tag set, its decorators
// and options. outputs[0] is stdout and outputs[1] stderr, always
// present (as in HotSpot); file outputs follow in the order named.
type Config struct {
	outputs []*output
}

// output is one configured output.
type output struct {
	name       string // "stdout", "stderr" or "file=PATH"
	path       string // file outputs
	decorators Decorators
	levels     [numTagSets]Level
	// optioned: output options can no longer be given. A file output
	// takes them when first named; stdout and stderr, which always
	// exist, the first time an option gives them (as in HotSpot). The
	// options are checked, but none changes what minivm writes:
	// filecount and filesize configure rotation, which minivm does not
	// do, and every line is a single line (foldmultilines).
	optioned bool
}

func (o *output) isFile() bool { return o.path != "" }

func (o *output) enabled() bool {
	for _, l := range o.levels {
		if l != Off {
			return true
		}
	}
	return false
}

// maxFileCount is HotSpot's limit on filecount (logFileOutput.hpp).
const maxFileCount = 1000

// NewConfig returns HotSpot's initial configuration: every tag set at
// warning on stdout, stderr off.
func NewConfig() *Config {
	out := &output{name: "stdout", decorators: DefaultDecorators}
	for i := range out.levels {
		out.levels[i] = Warning
	}
	return &Config{outputs: []*output{out, {name: "stderr", decorators: DefaultDecorators}}}
}

// Disable turns every output off (-Xlog:disable), the default warning
// output included, and forgets the file outputs; later options configure
// outputs afresh.
func (c *Config) Disable() {
	c.outputs = c.outputs[:2]
	for _, o := range c.outputs {
		o.levels = [numTagSets]Level{}
		o.decorators = DefaultDecorators
	}
}

// VerboseGC is -verbose:gc, which HotSpot defines as gc=info on stdout
// keeping stdout's decorators.
func (c *Config) VerboseGC() {
	sel := []selection{{tags: []string{"gc"}, level: Info}}
	c.configure(c.outputs[0], sel, c.outputs[0].decorators)
}

// Parse applies one -Xlog option; spec is what follows "-Xlog:" (empty
// for a bare -Xlog, which is all=info on stdout). It returns warnings
// (one line each) for what HotSpot warns about, or an error naming the
// bad part; on an error c is unchanged.
func (c *Config) Parse(spec string) (warnings []string, err error) {
	parts, rest, err := splitSpec(spec)
	if err != nil {
		return nil, err
	}
	if rest != "" {
		warnings = append(warnings, fmt.Sprintf("text after the fourth colon is ignored: '%s'", rest))
	}
	what, outName, decoStr, optStr := parts[0], parts[1], parts[2], parts[3]

	sels, err := parseSelections(what)
	if err != nil {
		return nil, err
	}
	deco, err := parseDecorators(decoStr)
	if err != nil {
		return nil, err
	}
	name, path, err := parseOutputName(outName)
	if err != nil {
		return nil, err
	}
	if err := checkOutputOptions(optStr, path != ""); err != nil {
		return nil, err
	}

	out := c.find(name)
	switch {
	case out == nil:
		out = &output{name: name, path: path, decorators: deco, optioned: true}
		c.outputs = append(c.outputs, out)
	case optStr == "":
	case !out.optioned:
		out.optioned = true
	default:
		warnings = append(warnings, fmt.Sprintf("output '%s' exists: its output options are ignored", name))
	}
	c.configure(out, sels, deco)
	for i := range sels {
		if !sels[i].matchesAny() {
			warnings = append(warnings, noMatchWarning(&sels[i]))
		}
	}
	return warnings, nil
}

func noMatchWarning(s *selection) string {
	w := fmt.Sprintf("selector '%s' matches no tag set", s.describe())
	if !s.wildcard {
		wild := selection{tags: s.tags, wildcard: true}
		if wild.matchesAny() {
			w += fmt.Sprintf(" (did you mean '%s'?)", wild.describe())
		}
	}
	return w
}

// configure sets out's level for each tag set a selection matches (the
// last match wins; tag sets none matches keep their level) and replaces
// its decorators. A file output that logs nothing is dropped, as HotSpot
// drops unused outputs.
func (c *Config) configure(out *output, sels []selection, deco Decorators) {
	for i := range tagSets {
		for j := range sels {
			if sels[j].selects(&tagSets[i]) {
				out.levels[i] = sels[j].level
			}
		}
	}
	out.decorators = deco
	if out.isFile() && !out.enabled() {
		c.outputs = slices.DeleteFunc(c.outputs, func(o *output) bool { return o == out })
	}
}

func (c *Config) find(name string) *output {
	for _, o := range c.outputs {
		if o.name == name {
			return o
		}
	}
	return nil
}

// splitSpec splits an option at its first three colons, skipping quoted
// text (file="a:b"); rest is what follows a fourth colon.
func splitSpec(spec string) (parts [4]string, rest string, err error) {
	i, start, n := 0, 0, 0
	for i < len(spec) && n < 4 {
		switch spec[i] {
		case '"':
			end := strings.IndexByte(spec[i+1:], '"')
			if end < 0 {
				return parts, "", fmt.Errorf("unterminated quote in '%s'", spec[start:])
			}
			i += end + 2
			continue
		case ':':
			if n == 3 {
				parts[3], rest = spec[start:i], spec[i+1:]
				return parts, rest, nil
			}
			parts[n] = spec[start:i]
			n++
			start = i + 1
		}
		i++
	}
	parts[n] = spec[start:]
	return parts, "", nil
}

// parseSelections reads the what field: empty is all (at info).
func parseSelections(what string) ([]selection, error) {
	if what == "" {
		what = "all"
	}
	var sels []selection
	for _, item := range strings.Split(what, ",") {
		s, err := parseSelection(item)
		if err != nil {
			return nil, err
		}
		sels = append(sels, s)
	}
	return sels, nil
}

func parseSelection(item string) (selection, error) {
	if item == "" {
		return selection{}, errors.New("empty selector")
	}
	s := selection{level: Info}
	expr := item
	if tags, lvl, ok := strings.Cut(item, "="); ok {
		l, valid := parseLevel(lvl)
		if !valid {
			return s, fmt.Errorf("unknown level '%s' in selector '%s' (want off, error, warning, info, debug or trace)", lvl, item)
		}
		s.level, expr = l, tags
	}
	if expr == "all" {
		s.wildcard = true
		return s, nil
	}
	if t, ok := strings.CutSuffix(expr, "*"); ok {
		s.wildcard, expr = true, t
	}
	for _, t := range strings.Split(expr, "+") {
		switch {
		case t == "":
			return s, fmt.Errorf("empty tag in selector '%s'", item)
		case !knownTag(t):
			return s, fmt.Errorf("unknown tag '%s' in selector '%s'", t, item)
		case slices.Contains(s.tags, t):
			return s, fmt.Errorf("selector '%s' names tag '%s' twice", item, t)
		}
		s.tags = append(s.tags, t)
	}
	return s, nil
}

// parseOutputName reads the output field: empty is stdout; stdout,
// stderr, file=PATH or a bare PATH (a file), either quoted or not.
func parseOutputName(s string) (name, path string, err error) {
	switch s {
	case "", "stdout":
		return "stdout", "", nil
	case "stderr":
		return "stderr", "", nil
	}
	path = s
	if typ, p, ok := strings.Cut(s, "="); ok && !strings.HasPrefix(s, `"`) {
		if typ != "file" {
			return "", "", fmt.Errorf("invalid output '%s' (want stdout, stderr, file=PATH or PATH)", s)
		}
		path = p
	}
	if strings.HasPrefix(path, `"`) {
		if len(path) < 2 || !strings.HasSuffix(path, `"`) || strings.Count(path, `"`) != 2 {
			return "", "", fmt.Errorf("output '%s' is partly quoted (quote the whole file name)", s)
		}
		path = path[1 : len(path)-1]
	} else if strings.Contains(path, `"`) {
		return "", "", fmt.Errorf("output '%s' is partly quoted (quote the whole file name)", s)
	}
	if path == "" {
		return "", "", fmt.Errorf("missing file name in output '%s'", s)
	}
	return "file=" + path, path, nil
}

// checkOutputOptions checks a comma list of filecount=N, filesize=SIZE
// (files only) and foldmultilines=true|false.
func checkOutputOptions(s string, file bool) error {
	if s == "" {
		return nil
	}
	for _, item := range strings.Split(s, ",") {
		key, val, ok := strings.Cut(item, "=")
		if !ok || val == "" {
			return fmt.Errorf("invalid output option '%s' (want key=value)", item)
		}
		switch key {
		case "foldmultilines":
			if val != "true" && val != "false" {
				return fmt.Errorf("invalid output option '%s' (want true or false)", item)
			}
		case "filecount", "filesize":
			if !file {
				return fmt.Errorf("output option '%s' is for file outputs only", item)
			}
			if key == "filecount" {
				n, err := strconv.Atoi(val)
				if err != nil || n < 0 || n > maxFileCount {
					return fmt.Errorf("invalid output option '%s' (want a count in [0, %d])", item, maxFileCount)
				}
			} else if _, ok := mem.ParseSize(val); !ok {
				return fmt.Errorf("invalid output option '%s' (want a size such as 1048576, 512k, 20m, 1g)", item)
			}
		default:
			return fmt.Errorf("invalid output option '%s' (want filecount=, filesize= or foldmultilines=)", item)
		}
	}
	return nil
}
