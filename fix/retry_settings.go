package fix

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// retryAsRun writes over a node's clamped retry settings the values n8n
// runs (analyze.ClampedRetry): maxTries 5 for 6 or more, 2 for 1, the
// count n8n makes of 0; waitBetweenTries 5000 for more. n8n runs the node
// exactly as before; the file then says what runs (RS506).
func (r *repairer) retryAsRun(w *n8nschema.Workflow, node string) (*analyze.Repair, error) {
	n := w.Node(node)
	if n == nil {
		return nil, noRepair("the node was not found")
	}
	c, ok := analyze.ClampedRetry(r.set.Graph(w), n)
	if !ok {
		return nil, noRepair("n8n runs the node's retry settings as written")
	}
	rep := &analyze.Repair{Safety: analyze.Safe}
	var what []string
	for _, s := range []struct {
		clamped bool
		field   string
		val     int
	}{{c.TriesClamped, "maxTries", c.Tries}, {c.WaitClamped, "waitBetweenTries", c.WaitMS}} {
		if !s.clamped {
			continue
		}
		e, err := setMember(w, n.Value, []string{s.field}, raw(strconv.Itoa(s.val)))
		if err != nil {
			return nil, err
		}
		rep.Edits = append(rep.Edits, e)
		what = append(what, fmt.Sprintf("%s = %d", s.field, s.val))
	}
	rep.Description = fmt.Sprintf("Write the retry settings n8n runs on %q: %s", n.Name, strings.Join(what, ", "))
	return rep, nil
}
