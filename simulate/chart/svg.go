package chart

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/simulate"
)

// writeSVG writes the scene as SVG. Every text is escaped: the names come
// from workflows that anyone may have written.
func writeSVG(w io.Writer, s *scene) error {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" role="img" width="%s" height="%s" viewBox="0 0 %s %s" font-family="Go, 'DejaVu Sans', Verdana, sans-serif">`+"\n",
		num(s.w), num(s.h), num(s.w), num(s.h))
	// The title, for screen readers and a browser's tab.
	fmt.Fprintf(&b, "<title>%s</title>\n", esc(strings.Join(s.title, " ")))
	for _, sh := range s.shapes {
		switch sh.kind {
		case rectShape:
			a, z := sh.pts[0], sh.pts[1]
			fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>`+"\n", num(a.x), num(a.y), num(z.x-a.x), num(z.y-a.y), sh.color.hex())
		case areaShape:
			fmt.Fprintf(&b, `<path d="%s" fill="%s"/>`+"\n", path(sh.pts, true), sh.color.hex())
		case lineShape:
			dash := ""
			if sh.dash {
				dash = ` stroke-dasharray="4 3"`
			}
			fmt.Fprintf(&b, `<path d="%s" fill="none" stroke="%s" stroke-width="%s"%s/>`+"\n", path(sh.pts, false), sh.color.hex(), num(sh.width), dash)
		case textShape:
			attrs := ""
			if sh.bold {
				attrs += ` font-weight="bold"`
			}
			switch sh.anchor {
			case middle:
				attrs += ` text-anchor="middle"`
			case end:
				attrs += ` text-anchor="end"`
			}
			fmt.Fprintf(&b, `<text x="%s" y="%s" font-size="%s" fill="%s"%s>%s</text>`+"\n",
				num(sh.pts[0].x), num(sh.pts[0].y), num(sh.size), sh.color.hex(), attrs, esc(sh.text))
		}
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// path is an SVG path through pts; closed ones are filled.
func path(pts []pt, closed bool) string {
	var b strings.Builder
	for i, p := range pts {
		if i == 0 {
			b.WriteString("M")
		} else {
			b.WriteString(" L")
		}
		b.WriteString(num(p.x) + " " + num(p.y))
	}
	if closed {
		b.WriteString(" Z")
	}
	return b.String()
}

// num writes a coordinate to a tenth of a pixel.
func num(v float64) string {
	s := strconv.FormatFloat(v, 'f', 1, 64)
	s = strings.TrimSuffix(s, ".0")
	if s == "-0" {
		return "0"
	}
	return s
}

// esc makes text printable, then escapes it for XML.
func esc(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(simulate.Printable(s)))
	return b.String()
}
