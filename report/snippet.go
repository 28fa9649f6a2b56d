package report

import (
	"strings"
	"unicode/utf8"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// A snippet shows at most snippetWidth runes of a line, snippetLead of
// them before the caret. It costs what it shows, whatever the line's
// length: `n8n export:workflow --all` writes every workflow on one line,
// and redacting that line again for each finding made text output
// quadratic.
const (
	snippetWidth = 100
	snippetLead  = snippetWidth / 3
	// Lines are redacted in blocks of snippetBlock bytes, each with
	// snippetMargin bytes either side, so that a secret's context
	// (`"password": "`, `Bearer `) just outside a block still masks the
	// part inside. Findings crowd together (several on one node), so a
	// block is redacted once for all the snippets that show part of it.
	snippetBlock  = 512
	snippetMargin = 256
)

type blockKey struct {
	src         *n8nschema.Source
	line, block int
}

// blockSpans returns the secret spans of block i of line n ([ls, le) in
// src): what secretSpans finds in the block and its margins, and every run
// of string characters (every secret pattern matches inside one) that the
// margin's edge cuts, where it reaches the block: its start or its context
// is out of sight.
func (r *Redactor) blockSpans(src *n8nschema.Source, n, ls, le, i int) [][2]int {
	key := blockKey{src, n, i}
	if spans, ok := r.blocks[key]; ok {
		return spans
	}
	b := src.Src
	bs, be := ls+i*snippetBlock, min(le, ls+(i+1)*snippetBlock)
	es := runeStart(b, ls, max(ls, bs-snippetMargin))
	ee := runeStart(b, ls, min(le, be+snippetMargin))
	r.scanned += ee - es
	var spans [][2]int
	for _, sp := range secretSpans(string(b[es:ee])) {
		if sp[0]+es < be && sp[1]+es > bs {
			spans = append(spans, [2]int{sp[0] + es, sp[1] + es})
		}
	}
	if es > ls {
		k := es
		for k < ee && b[k] != '"' && b[k] != '\\' {
			k++
		}
		if k > bs {
			spans = append(spans, [2]int{es, k})
		}
	}
	if ee < le {
		k := ee
		for k > es && b[k-1] != '"' && b[k-1] != '\\' {
			k--
		}
		if k < be {
			spans = append(spans, [2]int{k, ee})
		}
	}
	if r.blocks == nil {
		r.blocks = map[blockKey][][2]int{}
	}
	r.blocks[key] = spans
	return spans
}

// Snippet returns the text around pos shown under a finding, secrets
// masked with one '*' per rune and control characters escaped, and the
// caret's column in it.
func (r *Redactor) Snippet(src *n8nschema.Source, pos n8nschema.Pos) (string, int) {
	b := src.Src
	ls, le := src.LineSpan(pos.Line)
	caret := caretOffset(b, ls, le, pos)

	// The window [ds, de): the whole line when it is short, else up to
	// snippetLead runes before the caret and snippetWidth runes from there.
	ds, de := ls, le
	if runesAfter(b, ls, le, snippetWidth) < le {
		ds = runesBefore(b, ls, caret, snippetLead)
		de = runesAfter(b, ds, le, snippetWidth)
	}

	// The secrets the patterns find near the window, from the blocks it
	// overlaps (each block is redacted once per render).
	var spans [][2]int
	if de > ds {
		for i := (ds - ls) / snippetBlock; i <= (de-1-ls)/snippetBlock; i++ {
			spans = append(spans, r.blockSpans(src, pos.Line, ls, le, i)...)
		}
	}
	// The values the JSON structure marks as secrets (read from the
	// members in the window only).
	spans = append(spans, r.structuralSpans(src, ds, de)...)
	spans = mergeSpans(spans)

	var out strings.Builder
	col := 1
	if ds > ls {
		out.WriteString("…")
		col++
	}
	col += writeWindow(&out, b, ds, de, caret, spans)
	if de < le {
		out.WriteString("…")
	}
	return out.String(), col
}

// writeWindow writes the bytes [ds, de) of b as a snippet shows them: the
// runes in spans (sorted, disjoint) as '*', a tab as a space, control and
// invisible characters escaped. It returns the columns written before
// caret.
func writeWindow(out *strings.Builder, b []byte, ds, de, caret int, spans [][2]int) int {
	col := 0
	si := 0
	for i := ds; i < de; {
		for si < len(spans) && spans[si][1] <= i {
			si++
		}
		if b[i] >= 0x20 && b[i] < 0x7f && (si == len(spans) || spans[si][0] > i) {
			// A run of printable ASCII bytes outside the spans is shown as
			// it is, one column a byte.
			stop := de
			if si < len(spans) {
				stop = min(stop, spans[si][0])
			}
			j := i + 1
			for j < stop && b[j] >= 0x20 && b[j] < 0x7f {
				j++
			}
			out.Write(b[i:j])
			if i < caret {
				col += min(j, caret) - i
			}
			i = j
			continue
		}
		c, size := utf8.DecodeRune(b[i:])
		text := ""
		switch {
		case si < len(spans) && spans[si][0] <= i:
			text = "*"
		case c == '\t':
			text = " "
		case unprintable(c) || c == utf8.RuneError && size == 1:
			text = Printable(string(b[i : i+size]))
		default:
			text = string(b[i : i+size])
		}
		out.WriteString(text)
		if i < caret {
			col += utf8.RuneCountInString(text)
		}
		i += size
	}
	return col
}

// caretOffset is the byte offset of pos in the line [ls, le): pos.Offset
// when it lies on the line, else found from the column.
func caretOffset(b []byte, ls, le int, pos n8nschema.Pos) int {
	if pos.Offset >= ls && pos.Offset <= le && (pos.Offset > 0 || pos.Line == 1) {
		return runeStart(b, ls, pos.Offset)
	}
	return runesAfter(b, ls, le, max(pos.Col-1, 0))
}

// runesAfter returns the offset n runes after i, or end.
func runesAfter(b []byte, i, end, n int) int {
	for ; n > 0 && i < end; n-- {
		_, size := utf8.DecodeRune(b[i:end])
		i += size
	}
	return i
}

// runesBefore returns the offset n runes before i, or start.
func runesBefore(b []byte, start, i, n int) int {
	for ; n > 0 && i > start; n-- {
		_, size := utf8.DecodeLastRune(b[start:i])
		i -= size
	}
	return i
}

// runeStart moves i back to the start of the rune it falls in (at most 3
// bytes), so that a window never cuts a character in two.
func runeStart(b []byte, start, i int) int {
	for k := 0; k < utf8.UTFMax-1 && i > start && i < len(b) && !utf8.RuneStart(b[i]); k++ {
		i--
	}
	return i
}
