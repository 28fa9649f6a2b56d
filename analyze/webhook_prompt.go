package analyze

import (
	"fmt"
	"strings"

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
