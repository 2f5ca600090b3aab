package cli

// minivm gcplot TRACE.json -gc N: the worker timeline of one nursery
// collection, drawn from -Xgc:traceFile output. One row per GC worker
// (worker 0 at the top), time in ms from the collection's start on the x
// axis; each span of the worker's track is a bar coloured by its kind, so
// stalls and the termination wait stand out against copying.

import (
	"image/color"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// timelineKind is a kind of worker span and its colour.
type timelineKind struct {
	label string
	names []string // span names of this kind (runtime/gc/trace.go)
	color color.Color
}

var timelineKinds = []timelineKind{
	{"remembered set, roots", []string{"Scan Remembered Set", "Ext Root Scanning"}, color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff}},
	{"copy/scan", []string{"Object Copy"}, color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}},
	{"steal", []string{"Steal"}, color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff}},
	{"stall", []string{"Stall"}, color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}},
	{"termination", []string{"Termination"}, color.RGBA{R: 0x7f, G: 0x7f, B: 0x7f, A: 0xff}},
}

// timelineRow is the height of one worker's row.
const timelineRow = 0.45 * vg.Inch

// timelineFigure is the timeline: a title, the legend of span kinds in
// one row, and the panel.
type timelineFigure struct {
	title string
	panel *plot.Plot
	rows  int
}

func (f *timelineFigure) size() (w, h vg.Length) {
	return plotWidth, titleHeight + legendRow + 0.9*vg.Inch + vg.Length(f.rows)*timelineRow
}

func (f *timelineFigure) draw(c draw.Canvas) {
	w, h := f.size()
	top := drawHeader(c, w, h, 13, f.title)
	label := textStyle(10)
	label.YAlign = text.YCenter
	colW := (w - vg.Inch) / vg.Length(len(timelineKinds))
	y := top - legendRow/2
	for i, k := range timelineKinds {
		x := 0.6*vg.Inch + vg.Length(i)*colW
		legendBox{k.color}.Thumbnail(&draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{Min: vg.Point{X: x, Y: y - 5}, Max: vg.Point{X: x + 10, Y: y + 5}}})
		c.FillText(label, vg.Point{X: x + 16, Y: y}, k.label)
	}
	f.panel.Draw(draw.Crop(c, vg.Points(6), -vg.Points(14), vg.Points(4), -(titleHeight + legendRow)))
}

func newTimelineFigure(col *traceCollection) (*timelineFigure, error) {
	p := newPanel("", "ms from the collection's start", "")
	bars := &timelineBars{start: col.start, end: col.end, rows: len(col.workers)}
	names := make([]string, len(col.workers))
	for row, tid := range col.workers {
		names[row] = strings.TrimPrefix(col.names[row], "GC ")
		for _, e := range col.spans[tid] {
			for k, kind := range timelineKinds {
				for _, n := range kind.names {
					if e.Name == n {
						bars.spans = append(bars.spans, timelineSpan{row: row, kind: k, from: e.Ts, to: e.Ts + e.Dur})
					}
				}
			}
		}
	}
	p.Add(bars)
	// Rows top-down: worker 0 first.
	labels := make([]string, len(names))
	for i, n := range names {
		labels[len(names)-1-i] = n
	}
	p.NominalY(labels...)
	p.Y.Min, p.Y.Max = -0.6, float64(len(names))-0.4
	p.X.Min, p.X.Max = 0, (col.end-col.start)/1000
	return &timelineFigure{title: col.name + ": GC worker timeline", panel: p, rows: len(names)}, nil
}

// timelineSpan is one bar: a worker row, a kind, its extent in µs.
type timelineSpan struct {
	row, kind int
	from, to  float64
}

// timelineBars is the plotter of the spans.
type timelineBars struct {
	start, end float64 // the collection's span, µs
	rows       int
	spans      []timelineSpan
}

// minBarWidth keeps spans of a few µs (a steal, a short stall) visible.
const minBarWidth = 0.6 // points

func (b *timelineBars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, s := range b.spans {
		y := float64(b.rows - 1 - s.row)
		x0, x1 := trX((s.from-b.start)/1000), trX((s.to-b.start)/1000)
		if x1-x0 < vg.Points(minBarWidth) {
			x1 = x0 + vg.Points(minBarWidth)
		}
		y0, y1 := trY(y-0.35), trY(y+0.35)
		c.FillPolygon(timelineKinds[s.kind].color, []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
	}
}

func (b *timelineBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	return 0, (b.end - b.start) / 1000, -0.6, float64(b.rows) - 0.4
}

// legendBox is a legend entry's filled square.
type legendBox struct{ color color.Color }

func (l legendBox) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	c.FillPolygon(l.color, []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}})
}
