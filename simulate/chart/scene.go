package chart

import "fmt"

// A scene is the chart as shapes in pixels, which the SVG and PNG writers
// draw the same way; it keeps what the layout decided for the tests.
type scene struct {
	w, h   float64
	shapes []shape
	// fit is the room the layout gives a text, times its width in Go.
	fit float64

	title   []string
	notes   []string // what the fixes change (--compare)
	columns []column
	// colTop and colBottom bound the texts that keep to their column.
	colTop, colBottom float64
}

// column is one run.
type column struct {
	label  []string
	x, w   float64
	cards  []card
	panels []panel
}

// card is a total: a figure and what it counts; with two runs, the
// second's change (delta, coloured better or worse).
type card struct {
	value, label string
	n            float64 // the figure compared, when ok
	ok           bool
	higherWorse  bool
	format       func(float64) string // writes a change of n; nil when n is always 0
	delta        string
	deltaColor   rgb
}

// panel is one chart: x, y, w, h are its plotting area.
type panel struct {
	name           string // the dependency, or "in flight", "waiting"
	x, y, w, h     float64
	top            float64 // the value at the top of the y axis
	yTicks, xTicks []tick
}

type kind int

const (
	rectShape kind = iota
	areaShape      // a filled polygon
	lineShape      // a stroked polyline
	textShape
)

type anchor int

const (
	start anchor = iota
	middle
	end
)

type pt struct{ x, y float64 }

type shape struct {
	kind   kind
	pts    []pt // area, line; a rect is pts[0] to pts[1]
	color  rgb
	width  float64 // a line's
	dash   bool
	text   string
	size   float64
	bold   bool
	anchor anchor
}

type rgb struct{ r, g, b uint8 }

func (c rgb) hex() string { return fmt.Sprintf("#%02x%02x%02x", c.r, c.g, c.b) }

var (
	ink      = rgb{0x22, 0x22, 0x22}
	dim      = rgb{0x66, 0x66, 0x66}
	axis     = rgb{0x88, 0x88, 0x88}
	grid     = rgb{0xe6, 0xe6, 0xe6}
	outage   = rgb{0xfd, 0xe0, 0xdc}
	sent     = rgb{0x5b, 0x7f, 0xb5}
	failed   = rgb{0xd7, 0x30, 0x1f}
	inFlight = rgb{0x8c, 0x6b, 0xb1}
	waiting  = rgb{0xf1, 0x8c, 0x2f}
	noteBg   = rgb{0xff, 0xf6, 0xdd}
	noteBar  = rgb{0xe0, 0xa4, 0x00}
	white    = rgb{0xff, 0xff, 0xff}
	better   = rgb{0x1a, 0x7f, 0x37}
	worse    = rgb{0xc6, 0x28, 0x28}
)

func (s *scene) rect(x, y, w, h float64, c rgb) {
	s.shapes = append(s.shapes, shape{kind: rectShape, pts: []pt{{x, y}, {x + w, y + h}}, color: c})
}

func (s *scene) area(pts []pt, c rgb) {
	s.shapes = append(s.shapes, shape{kind: areaShape, pts: pts, color: c})
}

func (s *scene) line(pts []pt, c rgb, width float64, dash bool) {
	s.shapes = append(s.shapes, shape{kind: lineShape, pts: pts, color: c, width: width, dash: dash})
}

// text draws t with its baseline at y; t must already fit.
func (s *scene) text(x, y float64, t string, size float64, bold bool, c rgb, a anchor) {
	s.shapes = append(s.shapes, shape{kind: textShape, pts: []pt{{x, y}}, text: t, size: size, bold: bold, color: c, anchor: a})
}
