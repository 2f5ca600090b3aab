package cli

// minivm gcplot: plots of -Xgc:statsFile output, and worker timelines
// from -Xgc:traceFile output (gcplot_timeline.go).
//
//	minivm gcplot STATS.jsonl... -o OUT.png|OUT.svg
//	minivm gcplot TRACE.json -gc N -o OUT.png|OUT.svg
//
// One figure, one colour per input file (legend at the top, labelled by
// file name), panels stacked with a shared x axis, the collection number:
//
//   - pause per collection (global collections marked with triangles);
//   - KB copied to survivor (solid) and to tenure (dashed) per nursery
//     collection;
//   - cache-line containment at 64, 128 and 256 B (solid, dashed, dotted)
//     per nursery collection: the percentage of copied objects that share
//     an aligned block with the slot that referred to them;
//   - for files written by the evacuator (collector "recursive"), a bar
//     chart of stack activations per frame, summed over the run.

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"minivm/runtime/gc"
)

const gcplotUsage = `usage: minivm gcplot STATS.jsonl... -o OUT.png|OUT.svg
       minivm gcplot TRACE.json -gc N -o OUT.png|OUT.svg

Plots -Xgc:statsFile output: pause, KB copied to survivor and tenure, and
cache-line containment (64/128/256 B) per collection, one series per file,
plus the evacuator's stack activations per frame.

Given -Xgc:traceFile output (told apart by content) and -gc N, draws the
worker timeline of nursery collection N: one row per GC worker, its spans
coloured by kind (remembered set and roots, copy/scan, steal, stall,
termination), so the plot shows where workers stalled.

The output format follows the extension of -o: .png or .svg.
`

// Figure geometry.
const (
	plotWidth   = 10 * vg.Inch
	panelHeight = 2.8 * vg.Inch
	legendRow   = 0.3 * vg.Inch // one row of the file legend
	titleHeight = 0.45 * vg.Inch
	pngDPI      = 110
)

// A plotInput is one stats file and its label.
type plotInput struct {
	label string
	stats *statsFile
}

func runGCPlot(args []string, stdout, stderr io.Writer) int {
	out := ""
	gcN := -1
	usage := func(err error) int {
		fmt.Fprintf(stderr, "minivm gcplot: %v\n", err)
		return ExitUsage
	}
	files, err := parseSubArgs(args, map[string]func(string) error{
		"o": func(v string) error { out = v; return nil },
		"gc": func(v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return fmt.Errorf("-gc needs a collection number (0, 1, ...), not '%s'", v)
			}
			gcN = n
			return nil
		},
	})
	if errors.Is(err, errHelp) {
		fmt.Fprint(stdout, gcplotUsage)
		return 0
	}
	if err != nil {
		return usage(err)
	}
	if out == "" {
		return usage(errors.New("no output file: give -o OUT.png or -o OUT.svg"))
	}
	ext := strings.ToLower(filepath.Ext(out))
	if ext != ".png" && ext != ".svg" {
		return usage(fmt.Errorf("cannot write '%s': unknown format '%s' (use .png or .svg)", out, ext))
	}
	if len(files) == 0 {
		return usage(errors.New("no stats files (usage: minivm gcplot STATS.jsonl... -o OUT.png|OUT.svg)"))
	}
	if gcN >= 0 && len(files) != 1 {
		return usage(errors.New("-gc N draws one collection of one trace file: give exactly one (usage: minivm gcplot TRACE.json -gc N -o OUT.png)"))
	}
	var inputs []plotInput
	var fig figure
	for i, path := range files {
		sf, tf, err := readInput(path)
		if err != nil {
			return usage(err)
		}
		if tf != nil {
			if gcN < 0 {
				return usage(fmt.Errorf("%s is a trace file: give -gc N to draw collection N's worker timeline", path))
			}
			c, err := tf.collection(path, gcN)
			if err != nil {
				return usage(err)
			}
			if len(c.workers) == 0 {
				return usage(fmt.Errorf("%s: %s has no GC worker spans (a global collection runs on the collecting thread)", path, c.name))
			}
			if fig, err = newTimelineFigure(c); err != nil {
				fmt.Fprintf(stderr, "minivm gcplot: %v\n", err)
				return ExitSoftware
			}
			break
		}
		if gcN >= 0 {
			return usage(fmt.Errorf("%s is not a trace file: -gc N needs -Xgc:traceFile output", path))
		}
		if len(sf.records) == 0 {
			return usage(fmt.Errorf("%s: no collections recorded", path))
		}
		inputs = append(inputs, plotInput{label: plotLabel(files, i), stats: sf})
	}
	if fig == nil {
		if fig, err = newGCFigure(inputs); err != nil {
			fmt.Fprintf(stderr, "minivm gcplot: %v\n", err)
			return ExitSoftware
		}
	}
	f, err := os.Create(out)
	if err != nil {
		return usage(fmt.Errorf("cannot create '%s': %v", out, reason(err)))
	}
	var canvas interface {
		vg.CanvasSizer
		io.WriterTo
	}
	w, h := fig.size()
	if ext == ".svg" {
		canvas = vgsvg.New(w, h)
	} else {
		canvas = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(pngDPI))}
	}
	fig.draw(draw.New(canvas))
	_, err = canvas.WriteTo(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintf(stderr, "minivm gcplot: cannot write '%s': %v\n", out, reason(err))
		return ExitIOErr
	}
	return 0
}

// plotLabel is the label of files[i]: its base name without .jsonl, or
// the path as given when two files share a base name.
func plotLabel(files []string, i int) string {
	base := func(p string) string {
		b := filepath.Base(p)
		return strings.TrimSuffix(strings.TrimSuffix(b, ".jsonl"), ".json")
	}
	for j, p := range files {
		if j != i && base(p) == base(files[i]) {
			return files[i]
		}
	}
	return base(files[i])
}

// figure is what gcplot draws: the statistics figure or a timeline.
type figure interface {
	size() (w, h vg.Length)
	draw(c draw.Canvas)
}

// gcFigure is the figure: a title, the file legend and the panels.
type gcFigure struct {
	inputs []plotInput
	panels []*plot.Plot
}

func (f *gcFigure) size() (w, h vg.Length) {
	return plotWidth, titleHeight + f.legendHeight() + vg.Length(len(f.panels))*panelHeight
}

// legendPerRow is how many file labels share a legend row.
const legendPerRow = 3

func (f *gcFigure) legendHeight() vg.Length {
	return vg.Length((len(f.inputs)+legendPerRow-1)/legendPerRow) * legendRow
}

func newGCFigure(inputs []plotInput) (*gcFigure, error) {
	f := &gcFigure{inputs: inputs}
	pause := newPanel("Pause per collection", "collection", "pause (ms)")
	copied := newPanel("Copied per nursery collection", "collection", "KB copied")
	contain := newPanel("Cache-line containment per nursery collection", "collection", "% of copied objects")
	contain.Y.Min, contain.Y.Max = 0, 100

	for i, in := range inputs {
		col := plotutil.Color(i)
		var pauses, globals, survivor, tenure, c64, c128, c256 plotter.XYs
		for _, r := range in.stats.records {
			x := float64(r.GC)
			pauses = append(pauses, plotter.XY{X: x, Y: r.PauseMs})
			if r.Type == "global" {
				globals = append(globals, plotter.XY{X: x, Y: r.PauseMs})
				continue
			}
			survivor = append(survivor, plotter.XY{X: x, Y: float64(r.SurvivorBytes) / 1024})
			tenure = append(tenure, plotter.XY{X: x, Y: float64(r.TenuredBytes) / 1024})
			c64 = append(c64, plotter.XY{X: x, Y: r.Contain64})
			c128 = append(c128, plotter.XY{X: x, Y: r.Contain128})
			c256 = append(c256, plotter.XY{X: x, Y: r.Contain256})
		}
		if err := addLine(pause, pauses, col, 0, len(pauses) <= 60); err != nil {
			return nil, err
		}
		if len(globals) > 0 {
			s, err := plotter.NewScatter(globals)
			if err != nil {
				return nil, err
			}
			s.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(4), Shape: draw.TriangleGlyph{}}
			pause.Add(s)
		}
		for j, series := range []plotter.XYs{survivor, tenure} {
			if err := addLine(copied, series, col, j, false); err != nil {
				return nil, err
			}
		}
		for j, series := range []plotter.XYs{c64, c128, c256} {
			if err := addLine(contain, series, col, j, false); err != nil {
				return nil, err
			}
		}
	}
	styleLegend(pause, []string{"nursery", "global"}, true)
	styleLegend(copied, []string{"to survivor", "to tenure"}, false)
	styleLegend(contain, []string{"64 B", "128 B", "256 B"}, false)
	f.panels = []*plot.Plot{pause, copied, contain}

	stack, err := activationsPanel(inputs)
	if err != nil {
		return nil, err
	}
	if stack != nil {
		f.panels = append(f.panels, stack)
	}
	return f, nil
}

func newPanel(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(12)
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Add(plotter.NewGrid())
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	p.Legend.ThumbnailWidth = vg.Points(24)
	return p
}

// addLine adds series to p in colour col with the dash pattern of style
// (0 solid, 1 dashed, 2 dotted), with point markers if points.
func addLine(p *plot.Plot, xys plotter.XYs, col color.Color, style int, points bool) error {
	if len(xys) == 0 {
		return nil
	}
	l, err := plotter.NewLine(xys)
	if err != nil {
		return err
	}
	l.LineStyle = lineStyle(col, style)
	p.Add(l)
	if points {
		s, err := plotter.NewScatter(xys)
		if err != nil {
			return err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(2), Shape: draw.CircleGlyph{}}
		p.Add(s)
	}
	return nil
}

func lineStyle(col color.Color, style int) draw.LineStyle {
	ls := draw.LineStyle{Color: col, Width: vg.Points(1.2)}
	switch style {
	case 1:
		ls.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
	case 2:
		ls.Dashes = []vg.Length{vg.Points(1.5), vg.Points(2.5)}
	}
	return ls
}

// styleLegend explains a panel's line styles (the colours are explained
// by the file legend at the top): a line per dash pattern; with markers,
// the second entry is the triangle that marks global collections.
func styleLegend(p *plot.Plot, names []string, markers bool) {
	gray := color.Gray{Y: 60}
	for i, n := range names {
		if markers && i == 1 {
			p.Legend.Add(n, legendGlyph{draw.GlyphStyle{Color: gray, Radius: vg.Points(3), Shape: draw.TriangleGlyph{}}})
			continue
		}
		p.Legend.Add(n, legendLine{lineStyle(gray, i)})
	}
	// The legend sits at the top right, above the data area: the title's
	// padding makes room for it.
	h := vg.Length(len(names)) * p.Legend.TextStyle.Rectangle("Xg").Size().Y
	p.Title.Padding = h - p.Title.TextStyle.Rectangle("Xg").Size().Y/2
	p.Legend.Top, p.Legend.Left = true, false
	p.Legend.YOffs = h + vg.Points(2)
	p.Legend.XOffs = 0
}

type legendLine struct{ draw.LineStyle }

func (l legendLine) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(l.LineStyle, c.Min.X, y, c.Max.X, y)
}

type legendGlyph struct{ draw.GlyphStyle }

func (g legendGlyph) Thumbnail(c *draw.Canvas) { c.DrawGlyph(g.GlyphStyle, c.Center()) }

// activationsPanel is the bar chart of the evacuator's stack activations
// per frame, summed over each evacuator file's collections; nil when no
// file comes from the evacuator.
func activationsPanel(inputs []plotInput) (*plot.Plot, error) {
	type series struct {
		idx  int
		acts []float64
	}
	var all []series
	frames := 0
	for i, in := range inputs {
		var acts []float64
		for _, r := range in.stats.records {
			if r.EvacuatorStats == nil {
				continue
			}
			for f, n := range r.StackActivations {
				for len(acts) <= f {
					acts = append(acts, 0)
				}
				acts[f] += float64(n)
			}
		}
		if acts == nil {
			continue
		}
		all = append(all, series{i, acts})
		for f := len(acts) - 1; f >= 0; f-- {
			if acts[f] != 0 {
				frames = max(frames, f+1)
				break
			}
		}
	}
	if len(all) == 0 {
		return nil, nil
	}
	frames = max(frames, 1)
	top := 0.0
	for _, s := range all {
		for _, v := range s.acts {
			top = max(top, v)
		}
	}
	p := newPanel("Evacuator stack activations per frame (all collections)", "stack frame", "activations")
	// Bars are sized in absolute units: share the data width (about the
	// figure's width less the axes) among the frames, then among files.
	p.X.Min, p.X.Max = -0.5, float64(frames)-0.5
	p.Y.Min, p.Y.Max = 0, max(top*1.05, 1)
	slot := (plotWidth - 1.3*vg.Inch) / vg.Length(frames)
	width := slot * 0.8 / vg.Length(len(all))
	for k, s := range all {
		vals := make(plotter.Values, frames)
		copy(vals, s.acts)
		b, err := plotter.NewBarChart(vals, width)
		if err != nil {
			return nil, err
		}
		b.Color = plotutil.Color(s.idx)
		b.LineStyle.Width = 0
		b.Offset = width * (vg.Length(k) - vg.Length(len(all)-1)/2)
		p.Add(b)
	}
	labels := make([]string, frames)
	for f := range labels {
		labels[f] = strconv.Itoa(f)
	}
	p.NominalX(labels...)
	return p, nil
}

// drawHeader fills figure c (w by h) white, since SVG has no background
// of its own, and centres title in the title band; it returns the band's
// bottom.
func drawHeader(c draw.Canvas, w, h vg.Length, size float64, title string) (top vg.Length) {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	top = h - titleHeight
	style := textStyle(size)
	style.XAlign = text.XCenter
	c.FillText(style, vg.Point{X: w / 2, Y: top + titleHeight/2 - 5}, title)
	return top
}

// draw lays the figure out on c: the title, the file legend, the panels
// with their data areas aligned.
func (f *gcFigure) draw(c draw.Canvas) {
	w, h := f.size()
	top := drawHeader(c, w, h, 14, "minivm GC statistics")

	label := textStyle(11)
	label.YAlign = text.YCenter
	colW := (w - vg.Inch) / legendPerRow
	for i, in := range f.inputs {
		row, col := i/legendPerRow, i%legendPerRow
		x := 0.6*vg.Inch + vg.Length(col)*colW
		y := top - vg.Length(row)*legendRow - legendRow/2
		ls := lineStyle(plotutil.Color(i), 0)
		ls.Width = vg.Points(3)
		c.StrokeLine2(ls, x, y, x+vg.Points(24), y)
		name := in.label + " (" + collectorOf(in.stats.records) + ")"
		c.FillText(label, vg.Point{X: x + vg.Points(30), Y: y}, name)
	}

	body := draw.Crop(c, 0, 0, 0, -(titleHeight + f.legendHeight()))
	rows := make([][]*plot.Plot, len(f.panels))
	for i, p := range f.panels {
		rows[i] = []*plot.Plot{p}
	}
	tiles := draw.Tiles{Rows: len(f.panels), Cols: 1, PadTop: vg.Points(6), PadBottom: vg.Points(4),
		PadLeft: vg.Points(6), PadRight: vg.Points(14), PadY: vg.Points(10)}
	canvases := plot.Align(rows, tiles, body)
	for i, p := range f.panels {
		p.Draw(canvases[i][0])
	}
}

func textStyle(size float64) text.Style {
	return text.Style{
		Color:   color.Black,
		Font:    font.From(plot.DefaultFont, vg.Points(size)),
		Handler: plot.DefaultTextHandler,
	}
}

// collectorOf names the collector of a run's nursery collections.
func collectorOf(recs []gc.CollectionStats) string {
	for _, r := range recs {
		if r.Type == "nursery" {
			return r.Collector
		}
	}
	return recs[0].Collector
}
