package cli

// minivm bench: interleaved A/B runs of scripts under collector
// configurations, reported in Go's benchmark format (for benchstat) and as
// a table of medians.
//
//	minivm bench [-count N] [-config NAME=FLAGS]... [-o FILE] [-minivm PATH] script.lox...
//
// Every script runs under every configuration as a separate process of the
// minivm binary, once as a warm-up and then -count times, the
// configurations interleaved (A B A B ...) so that drift in the machine's
// state (other load, thermal, page cache) spreads over all of them. Each
// run gets its own -Xgc:statsFile; from the process come wall time, user
// and system time and peak RSS (rusage), from the stats file's summary the
// collector's figures. One benchmark line per run goes to stdout (or -o
// FILE) as it completes:
//
//	BenchmarkLinkedList/config=evac 1 1203451000 ns/op ... 104.5 gc-KB/ms 49.9 contain64-% ...
//
// `benchstat -col /config FILE` compares the configurations; the Unit lines
// at the top tell it which metrics are better higher. At the end a table
// of medians per script, with each configuration's difference from the
// first, goes to stdout.
//
// With -sim the runs are exact counts under callgrind's cache simulation
// instead (bench_sim.go).

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"
	"unicode"

	"github.com/klauspost/cpuid/v2"
	"github.com/schollz/progressbar/v3"

	"minivm/runtime/gc"
)

const benchUsage = `usage: minivm bench [-count N] [-config NAME=FLAGS]... [-o FILE] [-minivm PATH] script.lox...
       minivm bench -sim [-D1 S,A,L] [-LL S,A,L] [-config NAME=FLAGS]... [-o FILE] [-minivm PATH] script.lox...

Runs every script under every configuration as separate minivm processes:
one warm-up run each, then N runs interleaved across the configurations.
Prints one Go benchmark-format line per run (for benchstat -col /config)
and a table of medians with differences against the first configuration.

  -count N           measured runs per script and configuration (default 6)
  -config NAME=FLAGS a configuration: a name (letters, digits, '.', '_', '-')
                     and minivm options separated by spaces, e.g.
                     -config 'evac=-Xgc:recursiveScanOrdering -Xmn8m';
                     repeatable; without any, one configuration 'default'
  -o FILE            write the benchmark lines to FILE instead of stdout
  -minivm PATH       the minivm binary to run (default: this one)

With -sim, each script runs once per configuration under valgrind's
callgrind with cache simulation (exact counts, no warm-up), with
-Xgcthreads1 before the configuration's options (a configuration that sets
its own -Xgcthreads must keep it fixed) and GODEBUG=asyncpreemptoff=1
GOGC=off GOMAXPROCS=1, then once natively for the collector's statistics.
The counts start when the interpreter starts (Go's start-up and the heap's
reservation are not counted). The collector's share is everything from an
entry of Heap.collectNursery, Heap.collectGlobal or Heap.retireTLABs to
the entry of the collection's last call, gc.writeJSON; the mutator's is
all the rest. Go's monitor thread and the Go scheduler's functions are
not counted. Reported: instructions, D1 and LL read misses of each,
collections, nursery bytes copied, contain 64 B and hot contain 64 B.
For repeatable counts, build the binary with its Go heap at a fixed
address: GOEXPERIMENT=norandomizedheapbase64 go build ./cmd/minivm.

  -sim               measure under callgrind (needs valgrind)
  -D1 SIZE,ASSOC,LINE  the simulated L1 data cache in bytes, e.g. 32768,8,64
  -LL SIZE,ASSOC,LINE  the simulated last-level cache, e.g. 1048576,16,64
                     default for both: the machine's (size and line from
                     cpuid, associativity from /sys); where unknown,
                     valgrind's own detection; the header shows what ran
`

// A benchConfig is one -config: a name and the options it runs with.
type benchConfig struct {
	name  string
	flags []string
}

// A benchScript is a script and its benchmark name (BinaryTrees for
// binary_trees.lox).
type benchScript struct {
	path, name string
}

// A benchRun is what one run measured.
type benchRun struct {
	wall, user, sys time.Duration
	maxRSS          int64 // bytes
	stats           gc.Summary
	sim             simCounts // -sim only
}

// A benchMetric is one value of a benchmark line and one row of the table.
type benchMetric struct {
	unit   string // benchmark-format unit
	better int    // +1 higher is better, -1 lower, 0 no Unit line
	prec   int    // decimals in the benchmark line
	label  string // table row
	get    func(r *benchRun) float64
	show   func(v float64) string // table cell
}

var benchMetrics = []benchMetric{
	{unit: "ns/op", label: "wall", get: func(r *benchRun) float64 { return float64(r.wall) }, show: showNs},
	{unit: "user-ns/op", better: -1, label: "user", get: func(r *benchRun) float64 { return float64(r.user) }, show: showNs},
	{unit: "sys-ns/op", better: -1, label: "sys", get: func(r *benchRun) float64 { return float64(r.sys) }, show: showNs},
	{unit: "peak-RSS-bytes", better: -1, label: "peak RSS", get: func(r *benchRun) float64 { return float64(r.maxRSS) }, show: showBytes},
	{unit: "gcs/op", label: "collections", get: func(r *benchRun) float64 { return float64(r.stats.GCCount) }, show: showCount},
	{unit: "gc-ms/op", better: -1, prec: 3, label: "gc pauses", get: func(r *benchRun) float64 { return r.stats.GCMs }, show: showMs},
	{unit: "copied-B/op", label: "copied (nursery)", get: func(r *benchRun) float64 { return float64(r.stats.CopiedBytes) }, show: showBytes},
	{unit: "gc-KB/ms", better: +1, prec: 1, label: "copy rate KB/ms", get: func(r *benchRun) float64 { return r.stats.KBPerMs }, show: sig3},
	{unit: "contain64-%", better: +1, prec: 2, label: "contain 64 B", get: func(r *benchRun) float64 { return r.stats.Contain64 }, show: showPct},
	{unit: "contain128-%", better: +1, prec: 2, label: "contain 128 B", get: func(r *benchRun) float64 { return r.stats.Contain128 }, show: showPct},
	{unit: "contain256-%", better: +1, prec: 2, label: "contain 256 B", get: func(r *benchRun) float64 { return r.stats.Contain256 }, show: showPct},
	{unit: "inside-%", prec: 2, label: "inside", get: func(r *benchRun) float64 { return r.stats.InsidePct }, show: showPct},
}

// bench is one `minivm bench` invocation.
type bench struct {
	count   int
	sim     *simSetup // nil unless -sim
	metrics []benchMetric

	headerDone bool
	configs    []benchConfig
	scripts    []benchScript
	minivm     string
	tmp        string // holds the runs' stats file

	lines  io.Writer // benchmark-format lines
	stdout io.Writer
	stderr io.Writer
	bar    *progressbar.ProgressBar

	results  map[[2]int][]benchRun // [script, config] -> runs
	failed   map[[2]int]bool
	exitCode int // of the first failed run
}

var configNameRE = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)

func runBench(args []string, stdout, stderr io.Writer) int {
	b := &bench{count: 6, metrics: benchMetrics, stdout: stdout, stderr: stderr,
		results: map[[2]int][]benchRun{}, failed: map[[2]int]bool{}}
	outPath := ""
	usage := func(err error) int {
		fmt.Fprintf(stderr, "minivm bench: %v\n", err)
		return ExitUsage
	}
	args, sim := cutBoolFlag(args, "sim")
	var d1, ll, count string
	geometry := func(flag string, dst *string) func(string) error {
		return func(v string) (err error) { *dst, err = parseCacheGeometry(flag, v); return err }
	}
	pos, err := parseSubArgs(args, map[string]func(string) error{
		"count": func(v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return fmt.Errorf("bad -count '%s': want a whole number >= 1", v)
			}
			b.count, count = n, v
			return nil
		},
		"D1": geometry("D1", &d1),
		"LL": geometry("LL", &ll),
		"config": func(v string) error {
			c, err := parseBenchConfig(v)
			if err != nil {
				return err
			}
			for _, o := range b.configs {
				if o.name == c.name {
					return fmt.Errorf("config '%s' given twice", c.name)
				}
			}
			b.configs = append(b.configs, c)
			return nil
		},
		"o":      func(v string) error { outPath = v; return nil },
		"minivm": func(v string) error { b.minivm = v; return nil },
	})
	if errors.Is(err, errHelp) {
		fmt.Fprint(stdout, benchUsage)
		return 0
	}
	if err != nil {
		return usage(err)
	}
	if len(pos) == 0 {
		return usage(errors.New("no scripts (usage: minivm bench [-sim] [-count N] [-config NAME=FLAGS]... [-o FILE] script.lox...)"))
	}
	switch {
	case !sim && (d1 != "" || ll != ""):
		return usage(errors.New("-D1 and -LL set the simulated caches: they need -sim"))
	case sim && count != "":
		return usage(errors.New("-count does not go with -sim: the counts are exact, one run per configuration"))
	case sim:
		b.count, b.metrics = 1, simMetrics
		b.sim = &simSetup{d1: d1, ll: ll}
		if d1 == "" {
			b.sim.d1 = hostCacheGeometry(false)
		}
		if ll == "" {
			b.sim.ll = hostCacheGeometry(true)
		}
		if b.sim.valgrind, err = simValgrind(); err != nil {
			return usage(err)
		}
	}
	if len(b.configs) == 0 {
		b.configs = []benchConfig{{name: "default"}}
	}
	names := map[string]int{}
	for _, p := range pos {
		if st, err := os.Stat(p); err != nil {
			return usage(fmt.Errorf("cannot open script '%s': %v", p, reason(err)))
		} else if st.IsDir() {
			return usage(fmt.Errorf("cannot open script '%s': is a directory", p))
		}
		name := benchName(p)
		if names[name]++; names[name] > 1 {
			name += "_" + strconv.Itoa(names[name])
		}
		b.scripts = append(b.scripts, benchScript{path: p, name: name})
	}
	if b.minivm == "" {
		// Under testscript this is the test binary's copy named minivm,
		// which runs the command line when started under that name.
		if b.minivm, err = os.Executable(); err != nil {
			fmt.Fprintf(stderr, "minivm bench: cannot find the minivm binary (use -minivm PATH): %v\n", err)
			return ExitSoftware
		}
	} else if _, err := os.Stat(b.minivm); err != nil {
		return usage(fmt.Errorf("cannot find minivm binary '%s': %v", b.minivm, reason(err)))
	}
	if b.sim != nil {
		if note := simBuildNote(b.minivm); note != "" {
			fmt.Fprintf(stderr, "minivm bench: %s\n", note)
		}
	}

	b.lines = stdout
	if outPath != "" {
		f, err := os.Create(outPath)
		if err != nil {
			return usage(fmt.Errorf("cannot create '%s': %v", outPath, reason(err)))
		}
		defer f.Close()
		b.lines = f
	}
	if b.tmp, err = os.MkdirTemp("", "minivm-bench-"); err != nil {
		fmt.Fprintf(stderr, "minivm bench: %v\n", err)
		return ExitSoftware
	}
	defer os.RemoveAll(b.tmp)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	code := b.run(ctx)
	b.writeTable()
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "minivm bench: interrupted")
		return 130
	}
	if code == 0 {
		code = b.exitCode
	}
	return code
}

// parseBenchConfig parses NAME=FLAGS and checks the flags with minivm's own
// option parser, so a typo fails before anything runs.
func parseBenchConfig(v string) (benchConfig, error) {
	name, flags, ok := strings.Cut(v, "=")
	if !ok {
		return benchConfig{}, fmt.Errorf("bad -config '%s': want NAME=FLAGS, e.g. evac=-Xgc:recursiveScanOrdering", v)
	}
	if !configNameRE.MatchString(name) {
		return benchConfig{}, fmt.Errorf("bad -config '%s': the name must be letters, digits, '.', '_' or '-'", v)
	}
	c := benchConfig{name: name, flags: strings.Fields(flags)}
	for _, f := range c.flags {
		if !strings.HasPrefix(f, "-") || f == "--" {
			return benchConfig{}, fmt.Errorf("config %s: '%s' is not an option", name, f)
		}
	}
	inv, err := parse(append(slices.Clone(c.flags), "script.lox"))
	if err != nil {
		return benchConfig{}, fmt.Errorf("config %s: %v", name, err)
	}
	if inv.action != actRun {
		return benchConfig{}, fmt.Errorf("config %s: options that do not run a script (-help, -version, -X)", name)
	}
	return c, nil
}

// benchName turns a script's file name into a benchmark name:
// binary_trees.lox -> BinaryTrees.
func benchName(path string) string {
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	var sb strings.Builder
	for _, part := range strings.FieldsFunc(base, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		rs := []rune(part)
		rs[0] = unicode.ToUpper(rs[0])
		sb.WriteString(string(rs))
	}
	if sb.Len() == 0 {
		return "Script"
	}
	return sb.String()
}

// run does the warm-up and measured runs, script by script; it returns
// non-zero only when minivm cannot be started at all.
func (b *bench) run(ctx context.Context) int {
	runs := b.count + 1
	if b.sim != nil {
		runs = 1
	}
	b.bar = progressbar.NewOptions(len(b.scripts)*len(b.configs)*runs,
		progressbar.OptionSetWriter(b.stderr),
		progressbar.OptionSetVisibility(isTerminal(b.stderr)),
		progressbar.OptionShowCount(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionClearOnFinish(),
	)
	defer b.bar.Exit()

	if b.sim == nil {
		b.writeHeader() // -sim: with the first result, which knows the caches
	}
	for si := range b.scripts {
		first := -1 // round -1: warm-up
		if b.sim != nil {
			first = 0 // exact counts need none
		}
		for round := first; round < b.count; round++ {
			for ci := range b.configs {
				key := [2]int{si, ci}
				if b.failed[key] {
					b.bar.Add(1)
					continue
				}
				what := "measure"
				if round < 0 {
					what = "warm-up"
				}
				b.bar.Describe(fmt.Sprintf("%s/config=%s %s", b.scripts[si].name, b.configs[ci].name, what))
				measure := b.runOnce
				if b.sim != nil {
					measure = b.simRunOnce
				}
				r, err := measure(ctx, &b.scripts[si], &b.configs[ci])
				if ctx.Err() != nil {
					return 0
				}
				var fail *runFailure
				switch {
				case errors.As(err, &fail):
					b.bar.Clear()
					fmt.Fprintf(b.stderr, "minivm bench: %s with config %s %v\n", b.scripts[si].path, b.configs[ci].name, fail)
					b.failed[key] = true
					if b.exitCode == 0 {
						b.exitCode = fail.code
					}
				case err != nil:
					b.bar.Clear()
					fmt.Fprintf(b.stderr, "minivm bench: %v\n", err)
					return ExitSoftware
				case round >= 0:
					b.results[key] = append(b.results[key], r)
					b.writeResult(&b.scripts[si], &b.configs[ci], &r)
				}
				b.bar.Add(1)
			}
		}
	}
	return 0
}

// A runFailure is a run that exited non-zero (or was killed).
type runFailure struct {
	code   int    // exit code to report: the run's, 70 if killed
	status string // "exited with status 70", "was killed by signal: killed"
	stderr string // the end of its stderr
}

func (f *runFailure) Error() string {
	msg := f.status
	if s := strings.TrimRight(f.stderr, "\n"); s != "" {
		msg += "; its stderr ends:\n    " + strings.ReplaceAll(s, "\n", "\n    ")
	}
	return msg
}

// runOnce runs one script under one configuration.
func (b *bench) runOnce(ctx context.Context, s *benchScript, c *benchConfig) (benchRun, error) {
	stats := filepath.Join(b.tmp, "stats.jsonl")
	os.Remove(stats)
	args := append(slices.Clone(c.flags), "-Xgc:statsFile="+stats, "--", s.path)
	cmd := exec.CommandContext(ctx, b.minivm, args...)
	start := time.Now()
	err := b.runChild(cmd)
	wall := time.Since(start)
	if err != nil {
		return benchRun{}, err
	}
	ps := cmd.ProcessState
	r := benchRun{wall: wall, user: ps.UserTime(), sys: ps.SystemTime()}
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		r.maxRSS = int64(ru.Maxrss) // bytes on macOS, KB elsewhere
		if runtime.GOOS != "darwin" {
			r.maxRSS *= 1024
		}
	}
	sf, err := readStatsFile(stats)
	if err != nil {
		return benchRun{}, &runFailure{code: ExitSoftware, status: "left a bad stats file: " + err.Error()}
	}
	r.stats = sf.summary
	return r, nil
}

// runChild runs cmd, its stdin and stdout the null device; a non-zero exit
// is a *runFailure with the end of its stderr.
func (b *bench) runChild(cmd *exec.Cmd) error {
	errTail := &tailBuffer{max: 2048}
	cmd.Stderr = errTail
	err := cmd.Run()
	if err == nil {
		return nil
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return fmt.Errorf("cannot run %s: %v", cmd.Path, err)
	}
	f := &runFailure{code: ee.ExitCode(), stderr: errTail.String()}
	if f.code < 0 {
		f.code, f.status = ExitSoftware, "was killed ("+ee.String()+")"
	} else {
		f.status = fmt.Sprintf("exited with status %d", f.code)
	}
	return f
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	buf []byte
	max int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string { return string(t.buf) }

// writeHeader writes the benchmark file's configuration and Unit lines.
func (b *bench) writeHeader() {
	b.headerDone = true
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "goos: %s\ngoarch: %s\npkg: minivm\n", runtime.GOOS, runtime.GOARCH)
	if cpu := strings.TrimSpace(cpuid.CPU.BrandName); cpu != "" {
		fmt.Fprintf(&buf, "cpu: %s\n", cpu)
	}
	if b.sim != nil {
		b.writeSimHeader(&buf)
	}
	for _, m := range b.metrics {
		var attrs []string
		switch m.better {
		case +1:
			attrs = append(attrs, "better=higher")
		case -1:
			attrs = append(attrs, "better=lower")
		}
		if b.sim != nil {
			// One run each, and the counts repeat: benchstat compares
			// them without asking for a sample.
			attrs = append(attrs, "assume=exact")
		}
		if attrs != nil {
			fmt.Fprintf(&buf, "Unit %s %s\n", m.unit, strings.Join(attrs, " "))
		}
	}
	b.emit(buf.Bytes())
}

// writeResult writes one run's benchmark line.
func (b *bench) writeResult(s *benchScript, c *benchConfig, r *benchRun) {
	if !b.headerDone {
		b.writeHeader()
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "Benchmark%s/config=%s 1", s.name, c.name)
	for _, m := range b.metrics {
		fmt.Fprintf(&buf, " %s %s", strconv.FormatFloat(m.get(r), 'f', m.prec, 64), m.unit)
	}
	buf.WriteByte('\n')
	b.emit(buf.Bytes())
}

// emit writes benchmark-format text, clearing the progress bar first in
// case both share a terminal.
func (b *bench) emit(p []byte) {
	if b.lines == b.stdout {
		b.bar.Clear()
	}
	b.lines.Write(p)
}

// writeTable prints, per script, the medians of every metric for every
// configuration and each one's difference from the first configuration.
func (b *bench) writeTable() {
	if len(b.results) == 0 {
		return
	}
	b.bar.Clear()
	w := b.stdout
	if b.sim != nil {
		fmt.Fprintf(w, "\nexact counts under callgrind, one run each (-Xgcthreads1 first); differences against %s\n", b.configs[0].name)
	} else {
		fmt.Fprintf(w, "\nmedians of %d runs; differences against %s\n", b.count, b.configs[0].name)
	}
	for _, c := range b.configs {
		flags := strings.Join(c.flags, " ")
		if flags == "" {
			flags = "(defaults)"
		}
		fmt.Fprintf(w, "  %-12s %s\n", c.name, flags)
	}
	if b.sim != nil {
		for _, c := range simCaches {
			fmt.Fprintf(w, "  %-12s %s\n", c+" cache", b.sim.caches[c])
		}
	}
	for si, s := range b.scripts {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "\n%s", s.name)
		for ci, c := range b.configs {
			fmt.Fprintf(tw, "\t%s", c.name)
			if ci > 0 {
				fmt.Fprint(tw, "\tdelta")
			}
		}
		fmt.Fprintln(tw)
		for _, m := range b.metrics {
			fmt.Fprintf(tw, "  %s", m.label)
			base, haveBase := b.median(si, 0, &m)
			for ci := range b.configs {
				v, ok := b.median(si, ci, &m)
				cell := "failed"
				if ok {
					cell = m.show(v)
				}
				fmt.Fprintf(tw, "\t%s", cell)
				if ci > 0 {
					fmt.Fprintf(tw, "\t%s", percentDiff(base, v, haveBase && ok))
				}
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
	}
}

// median returns the median of metric m over the runs of script si under
// config ci.
func (b *bench) median(si, ci int, m *benchMetric) (float64, bool) {
	runs := b.results[[2]int{si, ci}]
	if len(runs) == 0 {
		return 0, false
	}
	vs := make([]float64, len(runs))
	for i := range runs {
		vs[i] = m.get(&runs[i])
	}
	slices.Sort(vs)
	n := len(vs)
	if n%2 == 1 {
		return vs[n/2], true
	}
	return (vs[n/2-1] + vs[n/2]) / 2, true
}

func percentDiff(base, v float64, ok bool) string {
	switch {
	case !ok:
		return ""
	case base == v:
		return "+0.0%"
	case base == 0:
		return "~"
	}
	d := fmt.Sprintf("%+.1f%%", (v-base)/base*100)
	if d == "-0.0%" {
		d = "+0.0%"
	}
	return d
}

// sig3 formats v with three significant digits and no exponent.
func sig3(v float64) string {
	if v == 0 {
		return "0"
	}
	decimals := 0
	for a := abs(v); a < 100 && decimals < 6; a *= 10 {
		decimals++
	}
	return strconv.FormatFloat(v, 'f', decimals, 64)
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

func showNs(v float64) string    { return showMs(v / 1e6) }
func showMs(v float64) string    { return sig3(v) + " ms" }
func showCount(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
func showPct(v float64) string   { return strconv.FormatFloat(v, 'f', 1, 64) + "%" }

func showBytes(v float64) string {
	switch {
	case v >= 1<<20:
		return sig3(v/(1<<20)) + " MB"
	case v >= 1<<10:
		return sig3(v/(1<<10)) + " KB"
	}
	return sig3(v) + " B"
}
