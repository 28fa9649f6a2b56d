package chart

import (
	"image"
	"image/color"
	"image/png"
	"io"
	"math"

	"github.com/stormcheck/stormcheck/simulate"
	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// writePNG rasterises the scene at scale pixels per unit: the shapes with
// golang.org/x/image/vector, the text with the Go fonts.
func writePNG(w io.Writer, s *scene, scale float64) error {
	img := image.NewRGBA(image.Rect(0, 0, int(math.Ceil(s.w*scale)), int(math.Ceil(s.h*scale))))
	var z vector.Rasterizer
	fill := func(polys [][]pt, c rgb) {
		// The rasteriser covers the shape's bounds only.
		x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for _, poly := range polys {
			for _, p := range poly {
				x0, y0 = min(x0, p.x*scale), min(y0, p.y*scale)
				x1, y1 = max(x1, p.x*scale), max(y1, p.y*scale)
			}
		}
		ox, oy := int(math.Floor(x0)), int(math.Floor(y0))
		r := image.Rect(ox, oy, int(math.Ceil(x1))+1, int(math.Ceil(y1))+1).Intersect(img.Bounds())
		if r.Empty() {
			return
		}
		z.Reset(r.Dx(), r.Dy())
		for _, poly := range polys {
			for i, p := range poly {
				px, py := float32(p.x*scale-float64(r.Min.X)), float32(p.y*scale-float64(r.Min.Y))
				if i == 0 {
					z.MoveTo(px, py)
				} else {
					z.LineTo(px, py)
				}
			}
			z.ClosePath()
		}
		z.Draw(img, r, image.NewUniform(color.RGBA{c.r, c.g, c.b, 0xff}), image.Point{})
	}
	for _, sh := range s.shapes {
		switch sh.kind {
		case rectShape:
			a, b := sh.pts[0], sh.pts[1]
			fill([][]pt{{a, {b.x, a.y}, b, {a.x, b.y}}}, sh.color)
		case areaShape:
			fill([][]pt{sh.pts}, sh.color)
		case lineShape:
			fill(stroke(sh.pts, sh.width, sh.dash), sh.color)
		case textShape:
			f := face(sh.size*scale, sh.bold)
			x := sh.pts[0].x * scale
			switch sh.anchor {
			case middle:
				x -= fix(font.MeasureString(f, sh.text)) / 2
			case end:
				x -= fix(font.MeasureString(f, sh.text))
			}
			d := font.Drawer{Dst: img, Src: image.NewUniform(color.RGBA{sh.color.r, sh.color.g, sh.color.b, 0xff}), Face: f,
				Dot: fixed.Point26_6{X: fixed.Int26_6(x * 64), Y: fixed.Int26_6(sh.pts[0].y * scale * 64)}}
			d.DrawString(simulate.Printable(sh.text))
		}
	}
	e := png.Encoder{CompressionLevel: png.DefaultCompression}
	return e.Encode(w, img)
}

// stroke turns a polyline into a quadrilateral per segment (per dash).
func stroke(pts []pt, width float64, dash bool) [][]pt {
	var out [][]pt
	h := width / 2
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		dx, dy := b.x-a.x, b.y-a.y
		l := math.Hypot(dx, dy)
		if l == 0 {
			continue
		}
		ux, uy := dx/l, dy/l
		seg := func(t0, t1 float64) {
			p, q := pt{a.x + ux*t0, a.y + uy*t0}, pt{a.x + ux*t1, a.y + uy*t1}
			nx, ny := -uy*h, ux*h
			out = append(out, []pt{{p.x + nx, p.y + ny}, {q.x + nx, q.y + ny}, {q.x - nx, q.y - ny}, {p.x - nx, p.y - ny}})
		}
		if !dash {
			seg(0, l)
			continue
		}
		for t := 0.0; t < l; t += 7 {
			seg(t, min(t+4, l))
		}
	}
	return out
}
