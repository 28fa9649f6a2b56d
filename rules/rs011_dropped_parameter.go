package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var rs011 = &analyze.Rule{
	ID:    "RS011",
	Name:  "dropped-parameter",
	Title: "a parameter the node's version does not have: n8n drops it",
	Doc: `n8n keeps only the parameters a node's description defines at the node's typeVersion: when it builds a
workflow to run it, the Workflow constructor replaces each node's parameters with what
NodeHelpers.getNodeParameters(description.properties, node.parameters, true, false) returns, and that function
walks the description's properties only (n8n-workflow dist/cjs/workflow.js, the constructor; dist/cjs/node-helpers.js
getNodeParameters). A parameter of another name never reaches the node's code. Workflows written by hand or by an
AI often put a later version's parameter in an older node, or one no version has: an HTTP Request v1 with
"method": "POST" (v1 reads requestMethod, whose default is GET) or with a "headers" object holding an API key (v1
reads Header Parameters, headerParametersUi or headerParametersJson), an AI Agent v1 with promptType, a Set v3.3 with
"values". An import keeps them in the file, and the editor has no field for them, so nothing shows that they are
not read.
It is a warning when the node is an HTTP Request that a run other than a person's from the editor reaches (in a
workflow that is not archived, and not only past a node that fails on every run or does none of its work, which
RS010 names: then a note that holds once that node is fixed), and what is dropped is part of the request: a method other than the one the node
sends (an HTTP method, DELETE, GET, HEAD, OPTIONS, PATCH, POST or PUT, stored under "method", "requestMethod" or
"httpMethod", whichever the version does not read), or headers, a query, a body, an authentication or a URL that
carries content (a parameter whose name says so, holding an object, a list, or text that is not the name of a kind;
not a switch or a kind, such as "sendBody", "specifyHeaders": "keypair", "bodyContentType": "json" or "authMethod":
"bearer", nor an authentication object beside the credential of a node whose own authentication is set): every run
sends something other than what was written (a GET with no body for a POST; a call without its API key, which the
service answers 401). So is a filter dropped from an app's read that such a run reaches (a parameter whose name says
filter, holding a condition, on a node whose operation reads and that does not fail on every run: Google Sheets v4
reads its lookups from "filtersUI", and a "filters" written for another version is dropped): every run reads every
row or record (nodes-base Google/Sheet/v2/actions/sheet/read.operation.js: no lookup values, every row), and the nodes after
it take them for the ones asked for. A node that misses a required parameter (an HTTP Request with no URL: n8n refuses every run that reaches it, RS010) sends
nothing, and its note says what is dropped and that the required parameter is empty (the parameter the dropped one
often stands for, as "urls" beside an HTTP Request v1's "url"), which holds in a workflow with no trigger too, where
RS010 reads nothing: a run a person starts in the editor is checked the same way. Otherwise it is a note: the value is not read, but what that costs depends on what the node
would have done with it. One finding per node, at the first such parameter (a request's part before others); the
rest are named in it. The notes of one workflow, a request's part's among them, are one finding, at its first node
that loses a request's part (else its first such node), with the other nodes as related places: a workflow that stores parameters its nodes' versions lack was written
for other versions, by hand or by a model. The versions that have the parameter are named by runs of the node
table's versions ("v1 and v2.2 to v2.7 have it" for Postgres "columns", which v2 and v2.1 lack).
Left out: a method the node sends anyway ("httpMethod": "GET" on a v1 node, which sends GET), a node whose typeVersion is missing or is not one the node table lists exactly, a type n8n does not ship
(a community node), a <type>Tool variant (n8n adds properties to those: packages/cli/src/node-types.ts), a disabled
node, and an export whose parameters were lost (RS008). A value that holds nothing (null, "", false, {} or []) is
not reported. n8n drops a parameter the description defines too, when its display options hide it for the node's
other values (getNodeParameters is called with returnNoneDisplayed false, so a property displayParameter hides is
skipped): that is not reported here; RS007 and RS010 read the cases where it decides what a node does.`,
	Fix:        "Put the value in the parameter the node's version reads (open the node in the editor: what it shows is what runs), or replace the node with a newer version that has the parameter",
	FixDoc:     "None: which parameter of the node's version should hold the value, and in what shape, is the author's choice.",
	Severity:   analyze.Note,
	Confidence: analyze.High,
	Tags:       []string{"input"},
	FoldMore:   droppedFoldMore,
	Run: func(pass *analyze.Pass) {
		w := pass.Workflow
		if w == nil || w.ParametersLost {
			return
		}
		g := pass.Set.Graph(w)
		if g.BuildFails() {
			return // n8n cannot build it: no node runs (RS010 or RS003 says why)
		}
		for _, n := range w.Nodes {
			if n.Disabled || n.IsSticky() {
				continue
			}
			dropped := n8nschema.DroppedParams(n)
			if len(dropped) == 0 {
				continue
			}
			reportDropped(pass, g, n, dropped)
		}
	},
}

// requestDrop is what a dropped parameter of an HTTP Request would have
// changed in the request: the part, what every run sends instead, and
// where the node's version takes that part.
type requestDrop struct {
	part, sends, home string
	method            string // the stored method, when part is "method"
}

func reportDropped(pass *analyze.Pass, g *analyze.Graph, n *n8nschema.Node, dropped []n8nschema.DroppedParam) {
	// A method the node sends anyway changes nothing (a stored "GET"
	// beside v1's default requestMethod GET): not said.
	dropped = slices.DeleteFunc(dropped, func(p n8nschema.DroppedParam) bool {
		stored, sends, ok := n8nschema.DroppedMethod(n, p.Name)
		return ok && stored == sends
	})
	if len(dropped) == 0 {
		return
	}
	at, rd := 0, requestDrop{}
	// A node missing a required parameter sends nothing: n8n refuses
	// every run that reaches it (RS010), so what its request would lose
	// is not said.
	required, refused := n8nschema.MissingRequired(n)
	if !refused {
		for i, p := range dropped {
			if r, ok := requestPartDropped(n, p); ok {
				if _, fails := g.FailsWhy(n); r.part == "filter" && fails {
					continue // a node that fails on every run reads nothing (RS010)
				}
				at, rd = i, r
				break
			}
		}
	}
	p := dropped[at]
	ver := strconv.FormatFloat(n.TypeVersion, 'f', -1, 64)
	msg := fmt.Sprintf("n8n drops parameter %q of node %q when it loads the workflow: %s v%s has no such parameter%s",
		p.Name, n.Name, typeName(n.Type), ver, declaredAt(n.Type, p.Name))
	d := analyze.Diagnostic{Node: n, Pos: p.Value.Pos()}
	if rd.part != "" {
		msg += "; " + rd.sends
		switch {
		case rd.part == "method":
			d.Fix = fmt.Sprintf("Set %s of %q to %q", rd.home, n.Name, rd.method)
		case rd.part == "filter":
			d.Fix = fmt.Sprintf("Move the filter of %q into %s (open the node in the editor and set it again)", n.Name, rd.home)
		default:
			d.Fix = fmt.Sprintf("Move the %s of %q into %s, where HTTP Request v%s reads them, or replace the node with the newest HTTP Request", rd.part, n.Name, rd.home, ver)
		}
		if why := unreachedWhy(pass, g, n); why != "" {
			msg += why
		} else {
			d.Severity = analyze.Warning
		}
	}
	var others []string
	for i, o := range dropped {
		if i != at {
			others = append(others, strconv.Quote(o.Name))
		}
	}
	if len(others) > 0 {
		msg += "; it drops " + joinNames(others, 3) + " too"
	}
	if refused && !g.IsSubNode(n) {
		// What the drop leaves: the parameter the version reads stays
		// empty, and n8n refuses the runs before any node runs (in a
		// workflow with a trigger RS010 says so at the trigger). No
		// run's check reads a sub-node (RS010 reportToolBlanks).
		msg += fmt.Sprintf("; its required %q is empty: n8n refuses, before any node runs, every run that reaches the node", required)
	}
	d.Message = msg
	// A workflow whose nodes store parameters their versions do not have
	// was written for other versions (by hand or by a model): its notes
	// are one finding, at the first node that loses a request's part (else
	// the first such node), the others as related
	// places. A request part's warning stays on its own; one Report
	// lowers to a note (a blank every run stops at first) folds too.
	w := pass.Workflow
	d.NoteFoldKey = pass.File.Source.Name + "\x01" + w.Path + "\x01" + w.ID
	d.FoldLead = rd.part != "" // a part of a request dropped says more than a name that changes nothing sent
	if rd.part == "" {
		// What n8n drops it drops whether or not a run starts: a blank
		// elsewhere (often the parameter this one was meant to be) does
		// not change it.
		d.Stored = true
	}
	pass.Report(d)
}

// droppedFoldMore words what a finding that others folded into says of
// them: how many more nodes of the workflow store the parameter.
func droppedFoldMore(_ string, n int) string {
	return fmt.Sprintf("; %d more %s of the workflow %s parameters %s version does not have", n, plural(n, "node", "nodes"), plural(n, "stores", "store"), plural(n, "its", "their"))
}

// typeName is the display name of a node type, else the type.
func typeName(typ string) string {
	if name, ok := n8nschema.ImportName(typ); ok {
		return name
	}
	return typ
}

// declaredAt says which versions of typ have the parameter, for a
// message, by runs of consecutive versions of the node table: " (v3 to
// v4.5 have it)", " (only v1.2 has it)", " (v1 and v2.2 to v2.7 have
// it)" (Postgres "columns", which v2 and v2.1 lack), at most three runs
// and how many more, or " (no version has it)".
func declaredAt(typ, name string) string {
	runs := n8nschema.DeclaringRuns(typ, name)
	f := func(v float64) string { return "v" + strconv.FormatFloat(v, 'f', -1, 64) }
	switch {
	case len(runs) == 0:
		return " (no version has it)"
	case len(runs) == 1 && runs[0].First == runs[0].Last:
		return " (only " + f(runs[0].First) + " has it)"
	}
	var parts []string
	for _, r := range runs {
		s := f(r.First)
		if r.Last != r.First {
			s += " to " + f(r.Last)
		}
		parts = append(parts, s)
	}
	return " (" + joinNames(parts, 3) + " have it)"
}

// requestPartDropped reports a dropped parameter of an HTTP Request that
// is part of the request, by what its value is: a method other than the
// one the node sends, stored as a method under a name that holds one
// (n8nschema.DroppedMethod), or headers, a query, a body, an
// authentication or a URL that carries content. A switch or the name of a
// kind carries none: a name starting with "send" or "specify" ("sendBody",
// "specifyHeaders": "keypair"), or ending with "type", "mode" or "format"
// ("bodyContentType": "json"), a string under an authentication's name
// ("authMethod": "bearer", "authentication": "headerAuth"), and a string
// that is one of the kinds HTTP Request offers as an option ("json",
// "keypair", "raw": kindValues).
func requestPartDropped(n *n8nschema.Node, p n8nschema.DroppedParam) (requestDrop, bool) {
	if n.Type != n8nschema.TypeHTTPRequest {
		return filterDropped(n, p)
	}
	old := n.TypeVersion < 3 // v1 and v2: requestMethod and the *ParametersUi/Json pairs
	if n8nschema.HoldsMethod(p.Name) {
		stored, sends, ok := n8nschema.DroppedMethod(n, p.Name)
		if !ok || sends == "" || stored == sends {
			return requestDrop{}, false // no method, or not known what the node sends
		}
		home := `Method ("method")`
		if old {
			home = `Request Method ("requestMethod")`
		}
		return requestDrop{part: "method", sends: fmt.Sprintf("every run sends %q, not %q", sends, stored), home: home, method: stored}, true
	}
	l := strings.ToLower(p.Name)
	v := p.Value
	k := v.Kind()
	if k != n8nschema.String && k != n8nschema.Object && k != n8nschema.Array {
		return requestDrop{}, false
	}
	if strings.HasPrefix(l, "send") || strings.HasPrefix(l, "specify") ||
		strings.HasSuffix(l, "type") || strings.HasSuffix(l, "mode") || strings.HasSuffix(l, "format") {
		return requestDrop{}, false // a switch or a kind ("specifyBody": "json"), no content
	}
	if k == n8nschema.String && kindValues[strings.ToLower(strings.TrimSpace(v.Str()))] {
		return requestDrop{}, false // "headers": "keypair" names a kind
	}
	var r requestDrop
	switch {
	case strings.Contains(l, "auth") || strings.Contains(l, "credential"):
		if k == n8nschema.String {
			return requestDrop{}, false // a kind of authentication ("authMethod": "bearer")
		}
		if a, ok := n.Param("authentication"); ok && a.Str() != "none" && len(n.Credentials) > 0 {
			// A value beside the credential the node authenticates
			// with (RS007 reads a credential of the wrong type).
			return requestDrop{}, false
		}
		r = requestDrop{part: "authentication", sends: "every run sends the request without this authentication", home: `Authentication ("authentication") and its credential`}
	case strings.Contains(l, "header"):
		r = requestDrop{part: "headers", sends: "every run sends the request without these headers", home: `Headers ("headerParametersUi", or "headerParametersJson" with JSON Parameters on)`}
		if !old {
			r.home = `Send Headers ("sendHeaders" and "headerParameters")`
		}
	case l == "qs" || strings.Contains(l, "query"):
		r = requestDrop{part: "query", sends: "every run sends the request without this query", home: `Query Parameters ("queryParametersUi", or "queryParametersJson" with JSON Parameters on)`}
		if !old {
			r.home = `Send Query Parameters ("sendQuery" and "queryParameters")`
		}
	case strings.Contains(l, "body"):
		r = requestDrop{part: "body", sends: "every run sends the request without this body", home: `Body Parameters ("bodyParametersUi", or "bodyParametersJson" with JSON Parameters on)`}
		if !old {
			r.home = `Send Body ("sendBody" and "bodyParameters" or "jsonBody")`
		}
	case strings.Contains(l, "url"):
		r = requestDrop{part: "URL", sends: "every run sends the request to the URL in \"url\" instead", home: `URL ("url")`}
	default:
		return requestDrop{}, false
	}
	return r, true
}

// filterDropped reports a dropped filter of an app's read (Google Sheets
// v4's "Get Rows" stores its lookups in "filtersUI"; a "filters" written
// for another version is dropped): the read runs without it and returns
// every row or record, which the nodes after it take for the one asked
// for (nodes-base Google/Sheet/v2/actions/sheet/read.operation.js: no lookup values,
// every row). A name that says filter and a value that holds conditions
// (an object or a list with content, a text that is not blank).
func filterDropped(n *n8nschema.Node, p n8nschema.DroppedParam) (requestDrop, bool) {
	if !strings.Contains(strings.ToLower(p.Name), "filter") {
		return requestDrop{}, false
	}
	if _, kind, ok := n8nschema.AppOperation(n); !ok || kind != n8nschema.OpRead {
		return requestDrop{}, false
	}
	if !holdsCondition(p.Value) {
		return requestDrop{}, false
	}
	return requestDrop{part: "filter", sends: "every run reads without this filter: the node returns every row or record it would have left out, and the nodes after it take them for the ones asked for",
		home: "the filter parameters its version reads"}, true
}

// holdsCondition reports a value with a text that is not blank somewhere
// in it (a condition's key or value); each part is read once.
func holdsCondition(v n8nschema.Value) bool {
	switch v.Kind() {
	case n8nschema.String:
		return strings.TrimSpace(v.Str()) != ""
	case n8nschema.Object:
		found := false
		v.Each(func(_ string, c n8nschema.Value) bool {
			found = holdsCondition(c)
			return !found
		})
		return found
	case n8nschema.Array:
		for _, c := range v.ElemsSeq() {
			if holdsCondition(c) {
				return true
			}
		}
	}
	return false
}

// kindValues are the option values of HTTP Request's kind parameters, at
// every version (Body Content Type, Specify Body/Headers/Query, Response
// Format, Authentication and its Generic Auth Type;
// HttpRequest/V1/HttpRequestV1.node.js, V2/HttpRequestV2.node.js,
// V3/Description.js and V3/HttpRequestV3.node.js): a string that is one
// of them names a kind, it is no header, query, body or URL.
var kindValues = map[string]bool{
	"json": true, "keypair": true, "string": true, "raw": true, "none": true, "text": true, "html": true,
	"file": true, "autodetect": true, "multipart-form-data": true, "form-urlencoded": true,
	"binarydata": true, "formdata": true, "formbinarydata": true,
	"predefinedcredentialtype": true, "genericcredentialtype": true, "basicauth": true, "digestauth": true,
	"headerauth": true, "queryauth": true, "oauth1": true, "oauth2": true,
}
