package analyze

import (
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// A form is a page a person fills in and submits, and then waits for the
// answer: the Webhook answers with what the run made (a Respond to
// Webhook node that answers with something, or the last node's output),
// and the request brings what a person types to a business: an e-mail
// address or phone number, and a name or a message (a lead form may ask
// for no name: e-mail, company and message). A service's event is
// answered on receipt, or names its kind (an event type) or signs itself
// (a signature header), and a form does neither.

// postsPersonForm reports whether a Webhook takes a form a person filled
// in, read once per webhook of the graph.
func (g *Graph) postsPersonForm(t *n8nschema.Node) bool {
	if g == nil || t.Type != n8nschema.TypeWebhook {
		return false
	}
	g.formOnce.Do(func() {
		g.formBy = map[*n8nschema.Node]bool{}
		for _, tr := range g.Triggers() {
			if tr.Type == n8nschema.TypeWebhook {
				g.formBy[tr] = postsPersonForm(g, g.walk(false, []*n8nschema.Node{tr}), tr)
			}
		}
	})
	if r, ok := g.formBy[t]; ok {
		return r
	}
	return postsPersonForm(g, g.walk(false, []*n8nschema.Node{t}), t) // not one of the graph's triggers
}

// postsPersonForm reports whether webhook t takes a form a person filled
// in: it answers with the run's result (responseMode "lastNode", or
// "responseNode" with a Respond to Webhook node that does not answer
// noData), the run reads an e-mail address or phone number and a name or
// a message from the request, and it reads no event type or signature
// header. The fields count by any path the run reads the request by: the
// body in an expression or in code ($json.body.email,
// $('Webhook').first().json.body.email, const {email} = $json.body), the
// item's own fields on a node the webhook feeds directly or through the
// webhook's name ($json.email: n8n's Webhook item holds the request under
// body, so the field is undefined there, but the request plainly brings
// it), and the query of a webhook that takes GET.
func postsPersonForm(g *Graph, reached map[*n8nschema.Node]bool, t *n8nschema.Node) bool {
	answers := false
	switch t.Params().Get("responseMode").Str() {
	case "lastNode":
		answers = true
	case "responseNode":
	default:
		return false
	}
	direct := map[*n8nschema.Node]bool{}
	for _, e := range g.Out(t) {
		if e.Type == ConnMain {
			direct[e.To] = true
		}
	}
	get := takesGet(t)
	var name, contact, typed, event bool
	for n := range reached {
		if n.Disabled {
			continue
		}
		if n.Type == n8nschema.TypeRespondToWebhook && n.Params().Get("respondWith").Str() != "noData" {
			answers = true
		}
		for _, x := range g.paths(g.at(n)) {
			if event {
				break
			}
			if signatureHeaderRE.MatchString(x) {
				event = true
				continue
			}
			requestFields(x, t, direct[n], get, func(f string) {
				switch {
				case personNameRE.MatchString(f):
					name = true
				case personContactRE.MatchString(f):
					contact = true
				case personTextRE.MatchString(f):
					typed = true
				case eventFieldRE.MatchString(f):
					event = true
				}
			})
		}
	}
	return answers && contact && (name || typed) && !event
}

// requestFields calls fn with each field (lowercased) of t's request that
// x reads.
func requestFields(x string, t *n8nschema.Node, direct, get bool, fn func(string)) {
	each := func(re *lazyregexp.Regexp, s string) {
		for _, m := range re.FindAllStringSubmatch(s, -1) {
			fn(strings.ToLower(m[1] + m[2]))
		}
	}
	expr := strings.Contains(x, "{{")
	switch {
	case expr && readsBody(x, t):
		each(requestFieldRE, x)
	case !expr && strings.Contains(x, "body"):
		// Code reads the body as json.body.email, or takes it apart:
		// const { name, email } = $json.body.
		each(codeBodyRE, x)
		for _, m := range destructureBodyRE.FindAllStringSubmatch(x, -1) {
			for _, part := range strings.Split(m[1], ",") {
				key, _, _ := strings.Cut(part, ":")
				fn(strings.ToLower(strings.TrimSpace(key)))
			}
		}
	}
	if get {
		each(queryFieldRE, x)
	}
	item := func(s string) {
		for _, m := range itemOwnFieldRE.FindAllStringSubmatch(s, -1) {
			if f := strings.ToLower(m[1] + m[2]); !webhookItemKeys[f] {
				fn(f)
			}
		}
	}
	if direct {
		item(x)
	}
	for _, m := range nodeRefRE.FindAllStringSubmatchIndex(x, -1) {
		name := ""
		if m[2] >= 0 {
			name = x[m[2]:m[3]]
		} else {
			name = x[m[4]:m[5]]
		}
		if name != t.Name {
			continue
		}
		if r := refJSONRE.FindStringSubmatch(x[m[1]:]); r != nil {
			if f := strings.ToLower(r[1] + r[2]); !webhookItemKeys[f] {
				fn(f)
			}
		}
	}
}

// takesGet reports whether a Webhook answers GET (alone or among its
// methods), whose fields come in the query.
func takesGet(t *n8nschema.Node) bool {
	v, ok := t.Param("httpMethod")
	if !ok {
		return true // GET by default
	}
	if strings.EqualFold(v.Str(), "GET") {
		return true
	}
	for _, e := range v.Elems() {
		if strings.EqualFold(e.Str(), "GET") {
			return true
		}
	}
	return false
}

// webhookItemKeys are the keys of the item a Webhook node makes
// (nodes-base/nodes/Webhook/Webhook.node.ts): the request's parts, not its
// fields.
var webhookItemKeys = map[string]bool{"body": true, "headers": true, "params": true, "query": true, "webhookurl": true, "executionmode": true}

var (
	// requestFieldRE matches a field read from a request body in an
	// expression: body.email, body["phone"], body['first_name'].
	requestFieldRE = lazyregexp.New(`\bbody(?:\.([A-Za-z_][A-Za-z0-9_]*)|\[\s*["']([^"']+)["']\s*\])`)
	// codeBodyRE matches a body field read in code: json.body.email,
	// json["body"]["email"].
	codeBodyRE = lazyregexp.New(`\bjson\s*(?:\.\s*body|\[\s*["']body["']\s*\])\s*(?:\.\s*([A-Za-z_]\w*)|\[\s*["']([^"']+)["']\s*\])`)
	// destructureBodyRE matches the names taken apart from the body in
	// code: const { name, email } = $json.body.
	destructureBodyRE = lazyregexp.New(`\{([\w\s,:]+)\}\s*=\s*[\w$.()\[\]'"\s]*\bjson\s*(?:\.\s*body|\[\s*["']body["']\s*\])\s*(?:;|\n|\|\||$)`)
	// queryFieldRE matches a field read from a request's query.
	queryFieldRE = lazyregexp.New(`\bjson\s*(?:\.\s*query|\[\s*["']query["']\s*\])\s*(?:\.\s*([A-Za-z_]\w*)|\[\s*["']([^"']+)["']\s*\])`)
	// itemOwnFieldRE matches a field of the item a node receives:
	// $json.email, $input.first().json.email, $input.item.json["email"].
	itemOwnFieldRE = lazyregexp.New(`(?:\$json|\$input\s*\.\s*(?:first\(\s*\)|last\(\s*\)|item)\s*\.\s*json)\s*(?:\.\s*([A-Za-z_]\w*)|\[\s*["']([^"']+)["']\s*\])`)
	// refJSONRE matches, after $('Webhook'), a field of its item:
	// .item.json.email, .first().json["email"].
	refJSONRE = lazyregexp.New(`^\s*\.\s*(?:item|first\(\s*\)|last\(\s*\)|all\(\s*\)\s*\[\s*\d+\s*\])\s*\.\s*json\s*(?:\.\s*([A-Za-z_]\w*)|\[\s*["']([^"']+)["']\s*\])`)
)

// personNameRE, personContactRE and personTextRE match the fields of a
// contact or lead form: a person's name; an e-mail address or phone
// number; what a person writes to a business (a message, a company, a
// subject). eventFieldRE matches the field a service's event names its
// kind by; signatureHeaderRE a signature header read from the request.
var (
	personNameRE      = lazyregexp.New(`^(name|full_?name|first_?name|last_?name|your_?name|nom|nombre)$`)
	personContactRE   = lazyregexp.New(`^(e_?mail|email_?address|your_?email|phone|phone_?number|telephone|tel|mobile|whatsapp)$`)
	personTextRE      = lazyregexp.New(`^(message|your_?message|comments?|company|company_?name|business_?name|subject|inquiry|enquiry|question|notes?)$`)
	eventFieldRE      = lazyregexp.New(`^(event|event_?type|event_?name|topic|trigger_?event|webhook_?event|notification_?type)$`)
	signatureHeaderRE = lazyregexp.New(`(?i)headers\s*(?:\.\s*|\[\s*["'])[\w-]*(signature|hmac)`)
)
