package analyze

import (
	"fmt"
	"strings"

	"github.com/stormcheck/stormcheck/internal/ascii"
	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// A Webhook's item has a fixed set of top-level keys (webhookItemKeys):
// the request's headers, params, query and body, the webhookUrl and
// executionMode (n8n-nodes-base/dist/nodes/Webhook/Webhook.node.js
// L262-268, utils.js setupOutputConnection L100-128), and jwtPayload under
// JWT auth. Its options change what body and binary hold (binaryData and
// rawBody; a multipart form's fields go under body too: Webhook.node.js
// L247-252 and L303-324, utils.js handleFormData), never those keys. A
// field the request carries is read as $json.body.X; $json.X of any other
// name is undefined.

// bareFieldRE matches a parameter whose whole text is one top-level
// field of the item: ={{ $json.Question }} or ={{ $json["Question"] }}.
// Text around it (a newline, "Question: ") makes the value a string even
// when the field is missing.
var bareFieldRE = lazyregexp.New(`^=\{\{\s*\$json(?:\.([A-Za-z_$][\w$]*)|\[\s*["']([^"'\\]+)["']\s*\])\s*\}\}$`)

// webhookPrompt judges a node that reads its prompt with
// getPromptInputByType at promptType "define" (noPrompt): its text is
// the parameter's value, and when that is undefined it throws "No prompt
// specified" before the model is called (@n8n/n8n-nodes-langchain
// dist/utils/helpers.js L25-50). A text that is only {{ $json.X }}, fed
// straight by a Webhook (through If, Switch, Filter or No Operation
// nodes at most, which pass items on unchanged), is undefined for every X
// that is not a key of a Webhook's item. An Edit Fields or Code node in
// between makes items of its own shape, which is not judged.
func (g *Graph) webhookPromptField(i int) (string, bool) {
	t, ok := g.Nodes[i].Param("text")
	if !ok || t.Kind() != n8nschema.String {
		return "", false
	}
	m := bareFieldRE.FindStringSubmatch(t.Str())
	if m == nil {
		return "", false
	}
	field := m[1] + m[2]
	if webhookItemKeys[strings.ToLower(field)] || field == "jwtPayload" {
		return "", false
	}
	fed := g.webhookItems()
	if !g.everyMainInput(i, func(e *Edge) bool { return !e.Error && fed[e.from] }) {
		return "", false
	}
	return field, true
}

// webhookPrompt is webhookPromptField's failure, as RS010 gives it.
func (g *Graph) webhookPrompt(i int) (string, bool) {
	field, ok := g.webhookPromptField(i)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("its prompt is {{ $json.%s }}, and the Webhook items it is fed have no top-level %s (a request's fields sit under body: {{ $json.body.%[1]s }}), so the prompt is undefined: n8n stops at \"No prompt specified\"", field, field), true
}

// WebhookPromptField returns the field n's prompt reads off the top level
// of the Webhook items it is fed, when that leaves the prompt undefined
// (webhookPromptField): RS010's fix moves it under body.
func (g *Graph) WebhookPromptField(n *n8nschema.Node) (string, bool) {
	i, ok := g.index(n)
	if !ok {
		return "", false
	}
	return g.webhookPromptField(i)
}

// webhookItems marks the nodes whose every output item is a Webhook's
// item as the Webhook made it: an enabled Webhook, or an If, Switch,
// Filter or No Operation node fed only by such nodes (feedTable).
func (g *Graph) webhookItems() []bool {
	return g.webhookFed.table(g, func(nd *n8nschema.Node) (leaf, passes bool) {
		switch nd.Type {
		case n8nschema.TypeWebhook:
			return !nd.Disabled, false
		case n8nschema.TypeIf, n8nschema.TypeSwitch, n8nschema.TypeFilter, n8nschema.TypeNoOp:
			return false, !nd.Disabled
		}
		return false, false
	})
}

// jsonPathRE matches a condition's left value that is only a field path
// of the item: ={{ $json.organizer.name }}, ={{ $json["Start Time"] }}.
// Its first key is group 1 or 2.
var jsonPathRE = lazyregexp.New(`^=\{\{\s*\$json(?:\.([A-Za-z_$][\w$]*)|\[\s*["']([^"'\\]+)["']\s*\])(?:\.[A-Za-z_$][\w$]*|\[\s*["'][^"'\\]+["']\s*\]|\[\d+\])*\s*\}\}$`)

// jsonPathKey is jsonPathRE's first key (group 1 or 2) of s, ok when it
// matches: read left to right, where each byte says which part comes
// next, not through the regexp's machine (TestJSONPathAsRegexp).
func jsonPathKey(s string) (key string, ok bool) {
	i := 0
	spaces := func() {
		for i < len(s) && ascii.IsSpace(s[i]) {
			i++
		}
	}
	lit := func(w string) bool {
		if !strings.HasPrefix(s[i:], w) {
			return false
		}
		i += len(w)
		return true
	}
	ident := func() (string, bool) { // [A-Za-z_$][\w$]*
		j := i
		if i < len(s) && (ascii.IsWord(s[i]) && !('0' <= s[i] && s[i] <= '9') || s[i] == '$') {
			for i++; i < len(s) && (ascii.IsWord(s[i]) || s[i] == '$'); i++ {
			}
		}
		return s[j:i], i > j
	}
	quoted := func() (string, bool) { // \s*["'][^"'\\]+["']\s*\]
		spaces()
		if i == len(s) || s[i] != '"' && s[i] != '\'' {
			return "", false
		}
		i++
		j := i
		for i < len(s) && s[i] != '"' && s[i] != '\'' && s[i] != '\\' {
			i++
		}
		k := i
		if k == j || i == len(s) || s[i] == '\\' {
			return "", false
		}
		i++
		spaces()
		return s[j:k], lit("]")
	}
	if !lit("={{") {
		return "", false
	}
	spaces()
	switch {
	case !lit("$json"):
		return "", false
	case lit("."):
		key, ok = ident()
	case lit("["):
		key, ok = quoted()
	}
	for ok {
		switch {
		case lit("."):
			_, ok = ident()
		case lit("["):
			if i < len(s) && '0' <= s[i] && s[i] <= '9' {
				for i < len(s) && '0' <= s[i] && s[i] <= '9' {
					i++
				}
				ok = lit("]")
			} else {
				_, ok = quoted()
			}
		default:
			spaces()
			return key, lit("}}") && i == len(s)
		}
	}
	return "", false
}

// webhookGateFalse reports an If or Filter (v2 and later, filter
// conditions) that no item of a Webhook passes: fed straight by a Webhook
// (webhookItems), its conditions are all required (combinator "and", the
// default), and one of them reads a field under a top-level key a
// Webhook's item does not have ({{ $json.organizer.name }}, where the
// request sends body.organizer; {{ $json.properties.rdv_date }}, a
// HubSpot object's field, where the Webhook that replaced the HubSpot
// Trigger holds the object under body). Such a read is undefined, or, one
// key deeper, a TypeError that both expression engines swallow, giving
// undefined or null (docs/n8n-facts.md, part CQ; n8n-workflow
// expression.js L669-683; @n8n/expression-runtime
// dist/cjs/bridge/isolated-vm-bridge.js L87-100). A test that this fails
// (falseWhenMissing) leaves the true output empty (and were the TypeError
// thrown, the node, which does not continue on fail, would stop the run).
// Always Output Data sends one empty item to an empty first output
// (workflow-execute.js ensureAlwaysOutputData): not judged.
func (g *Graph) webhookGateFalse(i int) bool {
	_, ok := g.webhookGateMiss(i)
	return ok
}

// webhookGateMiss is webhookGateFalse's first condition that fails on
// every Webhook item.
func (g *Graph) webhookGateMiss(i int) (n8nschema.Value, bool) {
	nd := g.Nodes[i]
	if nd.Disabled || nd.ContinuesOnFail() || nd.ContinueOnFail || nd.AlwaysOutputData || nd.TypeVersion < 2 ||
		nd.Type != n8nschema.TypeIf && nd.Type != n8nschema.TypeFilter {
		return n8nschema.Value{}, false
	}
	f := nd.Params().Get("conditions")
	if c := f.Get("combinator"); c.Exists() && (c.Kind() != n8nschema.String || c.IsExpr() || c.Str() != "and") {
		return n8nschema.Value{}, false
	}
	var miss n8nschema.Value
	found := false
	for _, c := range f.Get("conditions").ElemsSeq() {
		if g.webhookMissFalse(c) {
			miss, found = c, true
			break
		}
	}
	if !found {
		return miss, false
	}
	items := g.webhookItems()
	fed := false
	ok := g.everyMainInput(i, func(e *Edge) bool {
		if g.disabledTrigger(int(e.from)) {
			return true // it starts no run: nothing comes from it
		}
		fed = true
		return !e.Error && items[e.from]
	})
	return miss, ok && fed
}

// webhookOf is the first enabled Webhook found going back from node i
// along main inputs through the nodes that pass its items on
// (webhookItems), nil when there is none.
func (g *Graph) webhookOf(i int) *n8nschema.Node {
	items := g.webhookItems()
	seen := map[int]bool{i: true}
	queue := []int{i}
	for len(queue) > 0 {
		j := queue[0]
		queue = queue[1:]
		for _, e := range g.ins(j) {
			k := int(e.from)
			if e.Type != ConnMain || seen[k] || !items[k] {
				continue
			}
			if g.Nodes[k].Type == n8nschema.TypeWebhook {
				return g.Nodes[k]
			}
			seen[k] = true
			queue = append(queue, k)
		}
	}
	return nil
}

// WebhookGate is an If or Filter whose true output no Webhook item
// reaches (webhookGateFalse): the read of the condition that fails on
// every such item ($json.properties.rdv_date), the same read under body
// ($json.body.properties.rdv_date), and a Webhook whose items it is fed.
type WebhookGate struct {
	Read, Body string
	Webhook    *n8nschema.Node
}

// newWebhookGate words the read of condition c (webhookRead).
func (g *Graph) newWebhookGate(c n8nschema.Value, wh *n8nschema.Node) *WebhookGate {
	norm, head, _ := g.webhookRead(c)
	path := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(norm, "={{"), "}}"))
	rest := strings.TrimPrefix(path, "$json")
	return &WebhookGate{Read: head + rest, Body: head + ".body" + rest, Webhook: wh}
}

// disabledTrigger reports a disabled trigger: it starts no run (starts).
func (g *Graph) disabledTrigger(i int) bool {
	return g.Nodes[i].Disabled && g.specs[i].Role == n8nschema.RoleTrigger
}

// itemJSONRE matches the opening of a left value that reads the item's
// JSON another way than $json: $input.item.json, the item itself, or
// $('Webhook').item.json, the paired item of a node (group 1 or 2 names
// it), which for an item a Webhook made is that Webhook's item (or, for
// another Webhook, which has not run, a read that throws).
var itemJSONRE = lazyregexp.New(`^=\{\{\s*(\$input\s*\.\s*item\s*\.\s*json|\$\(\s*(?:'([^']+)'|"([^"]+)")\s*\)\s*\.\s*item\s*\.\s*json)`)

// webhookRead is a condition's left value read as a field path of a
// Webhook's item: the value with $input.item.json or $('W').item.json,
// W an enabled Webhook, written as $json, and the text the read opens
// with ($json, $input.item.json, $('W').item.json).
func (g *Graph) webhookRead(c n8nschema.Value) (norm, head string, ok bool) {
	l := c.Get("leftValue")
	if l.Kind() != n8nschema.String {
		return "", "", false
	}
	s := l.Str()
	m := itemJSONRE.FindStringSubmatch(s)
	if m == nil {
		return s, "$json", true
	}
	if name := m[2] + m[3]; name != "" {
		if t := g.Node(name); t == nil || t.Disabled || t.Type != n8nschema.TypeWebhook {
			return "", "", false
		}
	}
	return "={{ $json" + s[len(m[0]):], m[1], true
}

// webhookMissFalse reports a filter condition that is false when its
// left value (webhookRead) reads a key a Webhook's item lacks
// (webhookGateFalse).
func (g *Graph) webhookMissFalse(c n8nschema.Value) bool {
	norm, _, ok := g.webhookRead(c)
	if !ok {
		return false
	}
	key, ok := jsonPathKey(norm)
	if !ok || webhookItemKeys[strings.ToLower(key)] || key == "jwtPayload" {
		return false
	}
	return falseWhenMissing(c)
}

// readKey returns the top-level key of the item a filter condition's left
// value reads when that value is only a field path ({{ $json.error }},
// {{ $json.organizer.name }}: error, organizer).
func readKey(c n8nschema.Value) (string, bool) {
	l := c.Get("leftValue")
	if l.Kind() != n8nschema.String {
		return "", false
	}
	return jsonPathKey(l.Str())
}

// falseWhenMissing reports a test that a missing (undefined or null)
// left value fails (filter-parameter.js, executeFilterConditionWithRegexTest
// L214-362; parseSingleFilterValue, L53-55, accepts a nullish value under
// strict validation, and a single-value operator's right value is not
// checked, L96-97):
//   - exists is false for any type (evaluateExistsOperation, before the
//     type is read);
//   - is not empty is false for any type: a string test turns the value
//     into "", a number, date or boolean test reads exists, an array test
//     reads [] and an object test !left;
//   - a boolean is true returns the value itself, undefined;
//   - a string equals, contains, starts with or ends with a non-empty
//     literal is false on "" (prepareStringFilterValues, L197-211).
//
// Other tests (is empty is true; not equals) are not judged.
func falseWhenMissing(c n8nschema.Value) bool {
	t := c.Get("operator.type")
	if t.Kind() != n8nschema.String || t.IsExpr() {
		return false
	}
	op := c.Get("operator.operation").Str()
	single := c.Get("operator.singleValue").True()
	switch t.Str() {
	case "string":
		switch op {
		case "notEmpty", "exists":
			return true
		case "equals", "contains", "startsWith", "endsWith":
			r := c.Get("rightValue")
			return r.Kind() == n8nschema.String && !r.IsExpr() && r.Str() != "" && !strings.HasPrefix(r.Str(), "=")
		}
	case "number", "dateTime", "boolean", "array", "object", "any":
		switch op {
		case "exists":
			return single
		case "notEmpty":
			return single && t.Str() != "any"
		case "true":
			return single && t.Str() == "boolean"
		}
	}
	return false
}
