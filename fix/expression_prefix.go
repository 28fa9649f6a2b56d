package fix

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// expressionPrefix inserts "=" after the opening quote of each string
// value at paths below the node's parameters (RS012): n8n evaluates a
// parameter only when it begins with "=" (n8n-workflow
// dist/cjs/expressions/expression-helpers.js isExpression). Unsafe: the
// author may have meant the braces as text.
func (r *repairer) expressionPrefix(w *n8nschema.Workflow, n *n8nschema.Node, paths []string) (*analyze.Repair, error) {
	src := w.Source.Src
	rep := &analyze.Repair{Safety: analyze.Unsafe}
	for _, p := range paths {
		v, ok := n.Param(p)
		off := v.Offset()
		if !ok || v.Kind() != n8nschema.String || off < 0 || off+1 >= len(src) || src[off] != '"' {
			return nil, fmt.Errorf("parameter %q is not a string", p)
		}
		if src[off+1] == '=' {
			continue // an expression already
		}
		rep.Edits = append(rep.Edits, analyze.Edit{Source: w.Source, Offset: off + 1, Text: "="})
	}
	shown := make([]string, len(paths))
	for i, p := range paths {
		shown[i] = strconv.Quote(n8nschema.ShownPath(p))
	}
	them := "them"
	if len(paths) == 1 {
		them = "it"
	}
	rep.Description = fmt.Sprintf("Begin %s of %q with \"=\", so that n8n evaluates %s", strings.Join(shown, ", "), n.Name, them)
	return rep, nil
}
