// Package chart draws a simulation as a picture: the dependencies that were
// down first, then the few others that received the most attempts, each on
// an axis of its own with ticks in attempts per second and in time, the
// executions in flight and waiting on theirs, the totals above; with two
// runs (--compare), two columns on shared axes and sentences that say what
// the fixes changed.
//
// The drawing is one scene of rectangles, polygons, lines and text, written
// as SVG by hand or rasterised to PNG with golang.org/x/image: the Go fonts
// give the text its width, so that titles wrap and names shorten to fit.
package chart

import (
	"io"
	"math"

	"github.com/stormcheck/stormcheck/simulate"
)

// pngScale draws the PNG at twice the SVG's size, sharp on a laptop
// screen, unless that passes maxPNGPixels (a chart of many outages).
const (
	pngScale     = 2
	maxPNGPixels = 16_000_000
)

// SVG writes the runs as an SVG picture.
func SVG(w io.Writer, runs []simulate.Labelled, o Options) error {
	return writeSVG(w, build(runs, o, fallbackRoom))
}

// PNG writes the runs as a PNG picture.
func PNG(w io.Writer, runs []simulate.Labelled, o Options) error {
	s := build(runs, o, 1)
	return writePNG(w, s, min(pngScale, math.Sqrt(maxPNGPixels/((s.w+1)*(s.h+1)))))
}
