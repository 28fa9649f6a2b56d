package chart

import (
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// The Go fonts give the text its width, so that a title is wrapped and a
// name shortened before it overflows. The PNG draws with them; the SVG
// asks for them first, but a viewer without them picks another sans-serif,
// up to a fifth wider (DejaVu Sans Bold), so the layout leaves that room.
var (
	fontsOnce     sync.Once
	regular, bold *opentype.Font
	faceMu        sync.Mutex
	faces         = map[faceKey]font.Face{}
)

type faceKey struct {
	size float64
	bold bool
}

func face(size float64, isBold bool) font.Face {
	fontsOnce.Do(func() {
		// The fonts are embedded: a parse error is a broken build.
		regular = must(opentype.Parse(goregular.TTF))
		bold = must(opentype.Parse(gobold.TTF))
	})
	faceMu.Lock()
	defer faceMu.Unlock()
	k := faceKey{size, isBold}
	if f, ok := faces[k]; ok {
		return f
	}
	fnt := regular
	if isBold {
		fnt = bold
	}
	f := must(opentype.NewFace(fnt, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone}))
	faces[k] = f
	return f
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// textWidth is the width in pixels of s drawn at size.
func textWidth(s string, size float64, isBold bool) float64 {
	return fix(font.MeasureString(face(size, isBold), s))
}

// fallbackRoom is how much wider than Go's the widest usual sans-serif
// (DejaVu Sans) draws a text: 1.11 to 1.15, 1.16 to 1.21 in bold. The
// SVG's layout leaves that room; the PNG's, drawn with the Go fonts, none.
const fallbackRoom = 1.22

// room is the width the layout gives t at size.
func (s *scene) room(t string, size float64, isBold bool) float64 {
	return textWidth(t, size, isBold) * s.fit
}

func fix(v fixed.Int26_6) float64 { return float64(v) / 64 }

const maxLineRunes = 1000

// shorten cuts s to fit maxW, ending it with an ellipsis.
func (sc *scene) shorten(s string, size float64, isBold bool, maxW float64) string {
	if sc.room(s, size, isBold) <= maxW {
		return s
	}
	r := []rune(s)
	// No line of the picture holds more than a few hundred characters:
	// the search need not measure a longer text.
	r = r[:min(len(r), maxLineRunes)]
	// The longest prefix that fits with the ellipsis: a binary search.
	lo, hi := 0, len(r)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if sc.room(string(r[:mid])+"…", size, isBold) <= maxW {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return strings.TrimRight(string(r[:lo]), " ·,;:") + "…"
}

// wrap breaks s into lines of at most maxW, at most maxLines of them (the
// last shortened); a word wider than a line is shortened.
func (sc *scene) wrap(s string, size float64, isBold bool, maxW float64, maxLines int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		try := w
		if line != "" {
			try = line + " " + w
		}
		if sc.room(try, size, isBold) <= maxW || line == "" {
			line = try
			continue
		}
		lines = append(lines, line)
		line = w
	}
	if line != "" {
		lines = append(lines, line)
	}
	if len(lines) > maxLines {
		lines[maxLines-1] = strings.Join(lines[maxLines-1:], " ")
		lines = lines[:maxLines]
	}
	for i, l := range lines {
		lines[i] = sc.shorten(l, size, isBold, maxW)
	}
	return lines
}
