package rules

import (
	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var rs003 = &analyze.Rule{
	ID:    "RS003",
	Name:  "broken-connection",
	Title: "a connection names a missing node or has the wrong shape",
	Doc: `n8n keys "connections" by the source node's name and lists, per output slot, the target nodes by name.
A connection to a node that does not exist (renamed or deleted by hand, or keyed by node id after a
scripted rewrite), an output slot that is an object where an array belongs, a connection written as an array
["B", "main", 0] instead of an object (one finding per connection), or a node without a name is silently
ignored by n8n: the edge does not run, and stormcheck cannot follow it when it counts attempts.`,
	Fix:        "Reconnect the nodes in the n8n editor and export again, or correct the node name in connections",
	FixDoc:     "None: a connection to a missing node is either a typo or a deleted node; only the author knows which.",
	Severity:   analyze.Warning,
	Confidence: analyze.High,
	Tags:       []string{"input"},
	Run: func(pass *analyze.Pass) {
		reportProblems(pass, n8nschema.BrokenConnection, 0)
	},
}
