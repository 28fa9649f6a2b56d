package analyze

import (
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// placeholderRE finds the {placeholder}s the HTTP Request tool lets the
// model fill (utils.js extractPlaceholders: /(\{[a-zA-Z0-9_-]+\})/g).
var placeholderRE = lazyregexp.New(`\{([a-zA-Z0-9_-]+)\}`)

// UnusedPlaceholder returns a placeholder an HTTP Request tool
// (toolHttpRequest) defines in placeholderDefinitions and no part of its
// request uses. When the tool is handed to the agent, n8n gathers the
// tool's parameters from the {placeholders} of the URL, and of the query,
// headers and body it sends (a key-value parameter whose value the model
// provides counts by its name), and throws "Misconfigured placeholder"
// for a definition none of them names
// (@n8n/n8n-nodes-langchain/dist/nodes/tools/ToolHttpRequest/ToolHttpRequest.node.js
// supplyData, utils.js prepareParameters). The agent fails before the
// model runs, so the tool never makes a call.
func UnusedPlaceholder(n *n8nschema.Node) (string, bool) {
	if n.Type != n8nschema.TypeToolHTTPRequest {
		return "", false
	}
	p := n.Params()
	defs := p.Get("placeholderDefinitions.values").Elems()
	if len(defs) == 0 {
		return "", false
	}
	used := map[string]bool{}
	collect := func(s string) {
		for _, m := range placeholderRE.FindAllStringSubmatch(s, -1) {
			used[m[1]] = true
		}
	}
	collect(p.Get("url").Str())
	for _, part := range []struct{ send, specify, json, pairs string }{
		{"sendQuery", "specifyQuery", "jsonQuery", "parametersQuery.values"},
		{"sendHeaders", "specifyHeaders", "jsonHeaders", "parametersHeaders.values"},
		{"sendBody", "specifyBody", "jsonBody", "parametersBody.values"},
	} {
		if !p.Get(part.send).True() {
			continue // off by default: nothing of it is read
		}
		switch p.Get(part.specify).Str() {
		case "json":
			collect(p.Get(part.json).Str())
		case "", "keypair":
			for _, e := range p.Get(part.pairs).ElemsSeq() {
				vp := e.Get("valueProvider").Str()
				if vp == "" || strings.Contains(vp, "model") { // modelRequired by default
					used[e.Get("name").Str()] = true
				} else {
					collect(e.Get("value").Str())
				}
			}
		}
	}
	for _, d := range defs {
		name := d.Get("name").Str()
		if strings.HasPrefix(name, "{") && strings.HasSuffix(name, "}") {
			name = name[1 : len(name)-1]
		}
		if !used[name] {
			return name, true
		}
	}
	return "", false
}
