package analyze

import (
	"cmp"
	"slices"
	"strings"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// Who can start a trigger's runs from outside (Exposure), and how far a
// run that a stranger starts gets (StrangerReach). Anyone who learns an open
// Webhook's URL can start it, but some runs first fetch the caller's own
// object from a service, with the owner's credential, by an id the request
// carries: a service that notifies with a thin ping (Airtable's webhook
// payloads) or an event whose sender the run checks by fetching it again
// (Stripe's /v1/events/{id}). A stranger does not know such an id: the
// owner's account has no such object, the service answers 404, and an
// HTTP Request that does not continue on error throws, which ends the
// execution there (docs/n8n-facts.md, "A stranger's run stops at a fetch
// by the caller's id"). What lies only behind such a fetch is reached by
// the real sender alone.

// Exposure says who can start a trigger's runs from outside: "public"
// for a chat made public or a form with no authentication, whose page
// anyone with the link opens; "url" for a Webhook with no authentication,
// which anyone who learns its URL can call; "" for a trigger that checks
// who calls (basic, header or JWT auth, n8n user auth) or is not reached
// over HTTP. Chat Trigger: public (false by default) and authentication
// (none by default) (langchain nodes/trigger/ChatTrigger/ChatTrigger.node.ts);
// Form Trigger and Webhook: authentication, none by default
// (nodes-base/nodes/Form/v2/FormTriggerV2.node.ts, nodes/Webhook/description.ts);
// "bot" for a messaging bot that answers whoever writes to it (a Telegram
// Trigger with no chat or user restriction applied, a WhatsApp Trigger:
// botExposure, analyze/bot_sender.go).
func Exposure(t *n8nschema.Node) string {
	if t.Disabled {
		return ""
	}
	a, _ := t.Param("authentication")
	auth := a.Str()
	open := auth == "" || auth == "none"
	switch t.Type {
	case n8nschema.TypeChatTrigger:
		if t.Params().Get("public").True() && open {
			return "public"
		}
	case n8nschema.TypeFormTrigger:
		if open {
			return "public"
		}
	case n8nschema.TypeWebhook:
		if open {
			return "url"
		}
	}
	return botExposure(t)
}

// secretIDFetch is an API path whose id only the service and the
// account's owner know: host and the path before the id. Only ids that no
// page, link or receipt shows are listed: an Airtable base id is in the
// links of its shared views and forms, a Stripe checkout session's in the
// paying customer's browser, so fetching those stops nobody; GitHub
// repositories are often public, and Shopify, HubSpot or Baserow ids are
// numbers one can try in turn.
type secretIDFetch struct {
	host, before string
}

var secretIDFetches = []secretIDFetch{
	// The payloads of an Airtable webhook, or the webhook itself: its id
	// (ach…) is returned only to whoever created it, and sent in Airtable's
	// ping.
	{"api.airtable.com", "/webhooks/"},
	// A Stripe event (evt_…), sent to the endpoint and listed only in the
	// account's dashboard and API.
	{"api.stripe.com", "/v1/events/"},
}

// fetchGate reports whether node n of a webhook's runs is a fetch that a
// stranger's request does not pass: an HTTP Request at version 3 or later
// (V3 throws on a status of 400 or more unless told never to) that sends
// the owner's credential to one of secretIDFetches with the id taken from
// the request body (readsRequest; carriers are the webhook and the nodes
// that pass its items on as they came), and lets no failure through
// (onError, continueOnFail, options.response.response.neverError).
// alwaysOutputData changes nothing here: it applies to a node that
// succeeds with no items, not to one that throws.
func (g *Graph) fetchGate(n *n8nschema.Node, carriers map[string]bool) bool {
	if n.Disabled || n.Type != n8nschema.TypeHTTPRequest || n.TypeVersion < 3 || n.ContinuesOnFail() {
		return false
	}
	p := n.Params()
	if n8nschema.IgnoresStatus(n) || !sendsOwnersCredential(n) {
		return false
	}
	url := strings.TrimSpace(p.Get("url").Str())
	if !strings.HasPrefix(url, "=") {
		return false // a literal URL carries no id of the caller's
	}
	url = url[1:]
	host := hostOf(url)
	for _, f := range secretIDFetches {
		if !strings.EqualFold(host, f.host) {
			continue
		}
		_, path, _ := strings.Cut(url, host)
		_, rest, ok := strings.Cut(path, f.before)
		if !ok || !strings.HasPrefix(strings.TrimSpace(rest), "{{") {
			continue
		}
		id, _, closed := strings.Cut(rest, "}}")
		if closed && g.readsRequest(n, id+"}}", carriers) {
			return true
		}
	}
	return false
}

// readsRequest reports whether expression x of node n reads the request
// body: by the name of the webhook or of a node that passes its items on
// as they came, or as $json.body when every item n gets comes from such a
// node (elsewhere $json.body may be a field the workflow built itself).
func (g *Graph) readsRequest(n *n8nschema.Node, x string, carriers map[string]bool) bool {
	json, names := bodiesRead(x)
	for _, nm := range names {
		if carriers[nm] {
			return true
		}
	}
	return json && g.fedOnlyBy(n, carriers)
}

// sendsOwnersCredential reports whether an HTTP Request sends a stored
// credential (authentication predefinedCredentialType or
// genericCredentialType with one set) or an Authorization header of its
// own: not one that passes on what an item holds (the caller's own key,
// with which the caller's own id would be found).
func sendsOwnersCredential(n *n8nschema.Node) bool {
	switch n.Params().Get("authentication").Str() {
	case "predefinedCredentialType", "genericCredentialType":
		if len(n.Credentials) > 0 {
			return true
		}
	}
	if !n.Params().Get("sendHeaders").True() {
		return false
	}
	for _, h := range n.Params().Get("headerParameters.parameters").ElemsSeq() {
		v := h.Get("value").Str()
		if strings.EqualFold(strings.TrimSpace(h.Get("name").Str()), "authorization") && v != "" && !readsItems(v) {
			return true
		}
	}
	return false
}

// readsItems reports whether a parameter's expression reads the items of
// the run (what a caller sent may be among them), not only the owner's
// variables and environment.
func readsItems(v string) bool {
	if !strings.Contains(v, "{{") {
		return false
	}
	for _, s := range []string{"$json", "$(", "$node", "$input", "$item", "$binary"} {
		if strings.Contains(v, s) {
			return true
		}
	}
	return false
}

// StrangerReach is what a run a stranger starts at webhook t reaches of
// reach (RunReach of t) before it must stop: the nodes reached without
// passing a fetch by an id only the real sender knows (fetchGate) or a
// check of the caller's own token with the owner's identity provider
// (identityGate), and those gates. With none it is reach itself. A sibling branch that n8n
// would not start after the fetch fails (v1 order) is still counted as
// reached. At a bot (Exposure "bot") the gates are the tests of who wrote
// (senderGate): a comparison of the sender's id with the owner's, a lookup
// of the sender in the owner's table that finds no one, a branch on what
// the owner's own service answers about the sender (answerBranch).
func StrangerReach(g *Graph, t *n8nschema.Node, reach Reach) (Reach, []*n8nschema.Node) {
	var gates []*n8nschema.Node
	gated := map[*n8nschema.Node]gateStops{}
	if botExposure(t) != "" {
		gated = senderGates(g, reach, t)
		for n := range gated {
			gates = append(gates, n)
		}
		return strangerWalk(g, t, reach, gates, gated)
	}
	if t.Type != n8nschema.TypeWebhook {
		return reach, nil
	}
	var carriers map[string]bool // a set: each fetch asks it of every node that feeds it
	// The nodes of reach, not of the graph: RS306 asks for each open
	// webhook, and many webhooks that each reach a node or two stay linear.
	for _, n := range reach.Nodes() {
		if n == t {
			continue
		}
		body, ident := len(g.bodyReads(n)) > 0, identityEndpoint(n)
		if !body && !ident {
			continue
		}
		if carriers == nil {
			carriers = map[string]bool{}
			for _, c := range bodyCarriers(g, t) {
				carriers[c] = true
			}
		}
		if body && g.fetchGate(n, carriers) || ident && g.identityGate(n, carriers) {
			gates = append(gates, n)
			gated[n] = gateStops{all: true}
		}
	}
	return strangerWalk(g, t, reach, gates, gated)
}

// strangerWalk is what a stranger's run at t reaches of reach when it
// ends at the gates: at every output of a fetch, a Code node's test or a
// lookup, at the owner's outputs of a branch that tests the sender
// (gateStops).
func strangerWalk(g *Graph, t *n8nschema.Node, reach Reach, gates []*n8nschema.Node, gated map[*n8nschema.Node]gateStops) (Reach, []*n8nschema.Node) {
	if len(gates) == 0 {
		return reach, nil
	}
	slices.SortFunc(gates, func(a, b *n8nschema.Node) int { // file order
		i, _ := g.index(a)
		j, _ := g.index(b)
		return cmp.Compare(i, j)
	})
	seen := g.newReach()
	seen.add(t)
	for h := 0; h < len(seen.nodes); h++ {
		u := seen.nodes[h]
		stop, gate := gated[u]
		if gate && stop.all {
			continue // the stranger's run ends here
		}
		for _, e := range g.Out(u) {
			if e.Type == ConnMain && reach.Has(e.To) && !(gate && stop.stops(e)) {
				seen.add(e.To)
			}
		}
		for _, s := range g.SubNodes(u, "") {
			if reach.Has(s) {
				seen.add(s)
			}
		}
	}
	return seen, gates
}

// An identity endpoint answers who the bearer of a user's token is, for
// the users of one owner's project or tenant: Supabase Auth's GET
// /auth/v1/user (GoTrue: 401 for a missing, expired or forged JWT), an
// OpenID Connect provider's userinfo endpoint (RFC 6750 §3.1: 401
// invalid_token), as an Auth0 tenant, an Okta org or a Keycloak realm
// serves it, and Firebase Auth's accounts:lookup by an ID token
// (identitytoolkit: 400 INVALID_ID_TOKEN). A stranger who sends their own
// string there is refused. Left out: Google's userinfo and tokeninfo,
// which answer for any Google account, so a stranger's own token passes;
// and token introspection (RFC 7662), which answers 200 {active: false}
// and throws nothing. The path is read, not the host: a project's host is
// its own (xyz.supabase.co, a custom domain).
var identityPaths = []string{"/auth/v1/user", "/userinfo", "/accounts:lookup"}

// identityURL splits an HTTP Request's URL into host and path, the
// query and fragment cut off; "" when it is no URL.
func identityURL(n *n8nschema.Node) (host, path string) {
	url := strings.TrimSpace(n.Params().Get("url").Str())
	url = strings.TrimPrefix(url, "=")
	_, rest, ok := strings.Cut(url, "://")
	if !ok {
		return "", ""
	}
	i := strings.Index(rest, "/")
	if i < 0 {
		return rest, ""
	}
	host, path = rest[:i], rest[i:]
	if j := strings.IndexAny(path, "?#"); j >= 0 {
		path = path[:j]
	}
	return strings.ToLower(host), strings.TrimRight(path, "/")
}

// identityEndpoint reports an enabled HTTP Request whose URL is an
// identity endpoint (identityPaths) at a host that is not Google's.
func identityEndpoint(n *n8nschema.Node) bool {
	if n.Disabled || n.Type != n8nschema.TypeHTTPRequest {
		return false
	}
	host, path := identityURL(n)
	if path == "" || strings.Contains(path, "{{") {
		return false
	}
	if strings.HasSuffix(host, "googleapis.com") && path != "/v1/accounts:lookup" || strings.HasSuffix(host, "google.com") {
		return false
	}
	for _, p := range identityPaths {
		if strings.HasSuffix(path, p) {
			return true
		}
	}
	return false
}

// identityGate reports whether node n of a webhook's runs stops a
// stranger's run: an HTTP Request at version 3 or later to an identity
// endpoint that sends a credential the request carried (a header, a query
// or body parameter, or the URL reading the request's headers, body or
// query: callerReads) and lets no failure through. A stranger's token is
// refused with a 4xx, and HTTP Request V3 throws on a status of 400 or
// more unless Never Error is on (nodes-base HttpRequest/V3/HttpRequestV3.node.js
// L225: requestOptions.simple = false only under neverError), so the
// node's error ends the execution there.
func (g *Graph) identityGate(n *n8nschema.Node, carriers map[string]bool) bool {
	if n.TypeVersion < 3 || n.ContinuesOnFail() || n8nschema.IgnoresStatus(n) {
		return false
	}
	p := n.Params()
	if g.callerReads(n, p.Get("url").Str(), carriers) {
		return true
	}
	for _, list := range []string{"headerParameters.parameters", "queryParameters.parameters", "bodyParameters.parameters"} {
		for _, h := range p.Get(list).ElemsSeq() {
			if g.callerReads(n, h.Get("value").Str(), carriers) {
				return true
			}
		}
	}
	return g.callerReads(n, p.Get("jsonBody").Str(), carriers)
}

// callerReads reports whether expression x of node n reads what the
// caller sent: the headers, body or query of the webhook's item, by the
// name of the webhook or of a node that passes its items on as they came,
// or as $json when every item n gets comes from such a node.
func (g *Graph) callerReads(n *n8nschema.Node, x string, carriers map[string]bool) bool {
	if !strings.Contains(x, "{{") {
		return false
	}
	parts := []string{"headers", "body", "query"}
	named := false
	nodeRefs(x, func(name string, end int) {
		rest := exprRest(x, end)
		named = named || carriers[name] && slices.ContainsFunc(parts, func(p string) bool { return strings.Contains(rest, p) })
	})
	if named {
		return true
	}
	json := false
	for _, part := range parts {
		for _, s := range []string{"$json." + part, `$json["` + part + `"]`, "$json['" + part + "']", "$json?." + part} {
			json = json || strings.Contains(x, s)
		}
	}
	return json && g.fedOnlyBy(n, carriers)
}

// fedOnlyBy reports whether n has main inputs and every one comes from a
// node named in carriers: then $json is what they carry.
func (g *Graph) fedOnlyBy(n *n8nschema.Node, carriers map[string]bool) bool {
	in := g.InOfType(n, ConnMain)
	for _, e := range in {
		if !carriers[e.From.Name] {
			return false
		}
	}
	return len(in) > 0
}
