package analyze

import (
	"fmt"
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Only a Webhook wraps the request it receives: its item holds the
// payload under body (webhook_prompt.go). An app trigger emits the
// provider's payload itself, and so do the triggers that make their own
// item; none of them has a top-level body:
//
//   - the Shopify Trigger returns the body Shopify posts, a checkout,
//     order, product... (Shopify/ShopifyTrigger.node.js L411
//     returnJsonArray(req.body));
//   - the Schedule Trigger and Cron return the time of the run
//     ({timestamp, "Readable date", ...}), the Manual Trigger {}.
//
// A parameter that reads $json.body.X off such an item reads a property
// of undefined: the TypeError is swallowed and the {{ }} renders as
// nothing, under the default "vm" engine as under the legacy one
// (docs/n8n-facts.md, part CQ; n8n-workflow expression.js L669-683). In
// a URL's host that leaves a URL with no host to call
// (urlHostReadsBody): the node fails on every item.
var bodylessTriggers = map[string]bool{
	"n8n-nodes-base.shopifyTrigger": true, "n8n-nodes-base.scheduleTrigger": true,
	"n8n-nodes-base.cron": true, "n8n-nodes-base.manualTrigger": true,
}

// bodyReadRE matches a read of a property of the item's body field:
// $json.body.domain, $json["body"].x, $json.body["x"]; not body?.x,
// which gives undefined without throwing.
var bodyReadRE = lazyregexp.New(`\$json(?:\.body|\[\s*["']body["']\s*\])\s*(?:\.[A-Za-z_$]|\[)`)

// bodylessURL judges an HTTP Request node whose URL takes its host from
// $json.body.X (urlHostReadsBody) and whose every item comes straight
// from a trigger whose items have no body (bodylessItems).
func (g *Graph) bodylessURL(i int) (string, bool) {
	nd := g.Nodes[i]
	if strings.TrimSuffix(nd.Type, "Tool") != n8nschema.TypeHTTPRequest {
		return "", false
	}
	u, ok := nd.Param("url")
	if !ok || !u.IsExpr() {
		return "", false
	}
	seg, ok := urlHostReadsBody(u.Str())
	if !ok {
		return "", false
	}
	var trig *n8nschema.Node
	memo := map[int]bool{}
	if !g.everyMainInput(i, func(e *Edge) bool { return !e.Error && g.bodylessItems(int(e.from), memo, 0, &trig) }) || trig == nil {
		return "", false
	}
	return fmt.Sprintf("its URL takes the host from %s, but the items it is fed come from %q, whose items have no body field (only a Webhook's item wraps the request in body): the read renders nothing, the URL has no valid host and the call fails", seg, trig.Name), true
}

// urlHostReadsBody reports the {{ }} segment of an URL expression that
// reads a property of $json.body where the URL's host is, when the URL
// rendered without it cannot be called: the segment opens the URL (the
// scheme and host come from it, and the rest is a relative URL), or,
// after "://", the host left starts with a dot or holds an empty label
// ("https://.myshopify.com/..."). A host that is only the segment
// ("https:///path") is not judged: the URL parser then reads the path's
// first part as the host.
func urlHostReadsBody(url string) (string, bool) {
	s := strings.TrimPrefix(url, "=")
	if strings.HasPrefix(s, "{{") {
		if b := strings.Index(s, "}}"); b >= 0 && bodyReadRE.MatchString(s[:b+2]) {
			return s[:b+2], true
		}
		return "", false
	}
	k := strings.Index(s, "://")
	if k < 0 || strings.Contains(s[:k], "{{") {
		return "", false
	}
	s = s[k+3:]
	// The host ends at the first /, ? or # outside {{ }}.
	depth, end := 0, len(s)
scan:
	for j := 0; j < len(s); j++ {
		switch {
		case strings.HasPrefix(s[j:], "{{"):
			depth++
			j++
		case strings.HasPrefix(s[j:], "}}") && depth > 0:
			depth--
			j++
		case depth == 0 && (s[j] == '/' || s[j] == '?' || s[j] == '#'):
			end = j
			break scan
		}
	}
	host, seg := s[:end], ""
	var left strings.Builder // the host as rendered, a body read giving ""
	for {
		a := strings.Index(host, "{{")
		if a < 0 {
			left.WriteString(host)
			break
		}
		b := strings.Index(host[a:], "}}")
		if b < 0 {
			return "", false
		}
		left.WriteString(host[:a])
		if x := host[a : a+b+2]; bodyReadRE.MatchString(x) {
			if seg == "" {
				seg = x
			}
		} else {
			left.WriteString("x") // some other value
		}
		host = host[a+b+2:]
	}
	h := left.String()
	if seg == "" || h == "" || !strings.HasPrefix(h, ".") && !strings.Contains(h, "..") {
		return "", false
	}
	return seg, true
}

// bodylessItems reports a node whose every output item is the item of a
// trigger of bodylessTriggers as it made it: such a trigger, enabled, or
// an If, Switch, Filter, No Operation or Wait (time interval or specific
// time: Wait.node.js L472-548 returns its input) node fed only by such
// nodes. trig is set to the trigger found.
func (g *Graph) bodylessItems(i int, memo map[int]bool, depth int, trig **n8nschema.Node) bool {
	if r, ok := memo[i]; ok {
		return r
	}
	memo[i] = false // a cycle proves nothing
	nd := g.Nodes[i]
	ok := false
	switch {
	case nd.Disabled:
	case bodylessTriggers[nd.Type]:
		ok = true
		if *trig == nil {
			*trig = nd
		}
	case nd.Type == n8nschema.TypeIf, nd.Type == n8nschema.TypeSwitch, nd.Type == n8nschema.TypeFilter, nd.Type == n8nschema.TypeNoOp,
		nd.Type == n8nschema.TypeWait && waitsForTime(nd):
		ok = depth < maxFeedDepth && g.everyMainInput(i, func(e *Edge) bool {
			return !e.Error && g.bodylessItems(int(e.from), memo, depth+1, trig)
		})
	}
	memo[i] = ok
	return ok
}

// waitsForTime reports a Wait node that resumes after a time interval
// (the default) or at a specific time: it outputs its input items. One
// resumed by a webhook or a form outputs the resuming request.
func waitsForTime(nd *n8nschema.Node) bool {
	r, ok := nd.Param("resume")
	if !ok {
		return true
	}
	return r.Kind() == n8nschema.String && !r.IsExpr() && (r.Str() == "timeInterval" || r.Str() == "specificTime")
}

// missingBodyReadRE matches one {{ }} segment that opens with a read of
// a field under the body of an item: $json.body.email, or the item of a
// named node, $('Order').item.json.body.email, $('Order').first().json
// ["body"]["email"], $node["Order"].json.body.email. Group 1 or 2 names
// the node, none for $json. The read is evaluated first, so whatever
// follows it (|| 'x', .trim()) never runs when it throws; body?.x does
// not throw, and a read after another operand may not be evaluated.
var missingBodyReadRE = lazyregexp.New(`^\{\{\s*(?:\$json|\$\(\s*['"]([^'"]+)['"]\s*\)\s*\.\s*(?:item|first\(\s*\)|last\(\s*\))\s*\.\s*json|\$node\[\s*["']([^"']+)["']\s*\]\s*\.\s*json)\s*(?:\.\s*body|\[\s*["']body["']\s*\])\s*(?:\.\s*[A-Za-z_$]|\[)`)

// bodylessRead reports a {{ }} segment x of node i's parameters that
// reads a field under body of items that carry none (bodylessTriggers),
// and the trigger whose items they are: $json.body.X where every item
// node i is fed comes straight from such a trigger (bodylessItems), or
// $('T').item.json.body.X where T is one. The read renders as nothing.
func (g *Graph) bodylessRead(i int, x string) (*n8nschema.Node, bool) {
	m := missingBodyReadRE.FindStringSubmatch(strings.TrimSpace(x))
	if m == nil {
		return nil, false
	}
	if name := m[1] + m[2]; name != "" {
		t := g.Node(name)
		if t == nil || t.Disabled || !bodylessTriggers[t.Type] {
			return nil, false
		}
		return t, true
	}
	var trig *n8nschema.Node
	memo := map[int]bool{} // fresh: a memo's hit does not set trig
	if !g.everyMainInput(i, func(e *Edge) bool { return !e.Error && g.bodylessItems(int(e.from), memo, 0, &trig) }) || trig == nil {
		return nil, false
	}
	return trig, true
}

// onlyBodylessReads reports a parameter value v of node i whose every
// {{ }} segment is a bodylessRead, with at least one: what it renders is
// the text around them, the same on every run. trig is set to the
// trigger found.
func (g *Graph) onlyBodylessReads(i int, v string, trig **n8nschema.Node) bool {
	segs := exprRE.FindAllString(v, -1)
	if len(segs) == 0 {
		return false
	}
	for _, s := range segs {
		t, ok := g.bodylessRead(i, s)
		if !ok {
			return false
		}
		if *trig == nil {
			*trig = t
		}
	}
	return true
}

// bodylessRecipient reports a message node whose every recipient
// (recipientExprs: Gmail's sendTo, WhatsApp's recipientPhoneNumber, a
// messaging API body's to) is one read of a body its items never carry
// (bodylessRead): the message has no recipient. Gmail throws "Invalid
// email address" for the empty To before it sends (Gmail/GenericFunctions.js
// L284-294 prepareEmailsInput, called for sendTo at v2/GmailV2.node.js
// L219); the WhatsApp node sends to "" (WhatsApp/MessageFunctions.js
// L138-145 cleanPhoneNumber): no one receives either.
func (g *Graph) bodylessRecipient(i int) (*n8nschema.Node, string, bool) {
	n := g.Nodes[i]
	xs := recipientExprs(n)
	if len(xs) == 0 {
		return nil, "", false
	}
	var trig *n8nschema.Node
	for _, x := range xs {
		s := strings.TrimSpace(strings.TrimPrefix(x, "="))
		if !soleExprRE.MatchString(s) {
			return nil, "", false // text around the read is sent as it is
		}
		t, ok := g.bodylessRead(i, s)
		if !ok {
			return nil, "", false
		}
		if trig == nil {
			trig = t
		}
	}
	return trig, strings.TrimSpace(strings.TrimPrefix(xs[0], "=")), true
}

// bodylessFails judges a node that fails on every item because what it
// needs reads a body its items never carry: an HTTP Request's URL host
// (bodylessURL), a Gmail send's To (gmailNoRecipient).
func (g *Graph) bodylessFails(i int) (string, bool) {
	if why, ok := g.bodylessURL(i); ok {
		return why, true
	}
	return g.gmailNoRecipient(i)
}

// bodylessType reports a type bodylessFails judges: bodylessURL's and
// gmailNoRecipient's.
func bodylessType(typ string) bool {
	base := strings.TrimSuffix(typ, "Tool")
	return base == n8nschema.TypeHTTPRequest || base == "n8n-nodes-base.gmail"
}

// gmailNoRecipient judges a Gmail send whose recipient is a bodyless
// read (bodylessRecipient): it fails on every item before it sends.
func (g *Graph) gmailNoRecipient(i int) (string, bool) {
	n := g.Nodes[i]
	if strings.TrimSuffix(n.Type, "Tool") != "n8n-nodes-base.gmail" || n.TypeVersion < 2 {
		return "", false // v1 reads other parameters (toList)
	}
	if _, op := n8nschema.WriteOp(n); op != "message.send" {
		return "", false
	}
	trig, x, ok := g.bodylessRecipient(i)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("its To reads %s, but the items of %q have no body field (only a Webhook's item wraps the request in body): the To renders empty and Gmail stops at \"Invalid email address\" before it sends", x, trig.Name), true
}

// bodylessPOST reports an HTTP POST whose every parameter that reads the
// item reads only bodies its items never carry (onlyBodylessReads): the
// request it sends is the same on every run, and carries nothing of the
// order or event that started it.
func (g *Graph) bodylessPOST(n *n8nschema.Node) (*n8nschema.Node, bool) {
	i, ok := g.index(n)
	if !ok || !n8nschema.IsHTTPRequest(n.Type) || n8nschema.HTTPMethod(n) != "POST" {
		return nil, false
	}
	var trig *n8nschema.Node
	all := true
	n.Params().Scalars(func(v n8nschema.Value) bool {
		if all && v.Kind() == n8nschema.String && readsItem(v.Str()) && !g.onlyBodylessReads(i, v.Str(), &trig) {
			all = false
		}
		return true
	})
	return trig, all && trig != nil
}
