package n8nschema

import (
	"cmp"
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
)

// PlaceholderHost reports whether a host (a dependency) that only holds
// a place: a name
// reserved for examples (RFC 2606: example.com, .example, .test,
// .invalid), or a fill-in left for the reader (yourdomain.com,
// your-instance.app, api.yourcourier.com: fillInLabel).
func PlaceholderHost(h string) bool {
	if h == "" {
		return false
	}
	h, _, _ = strings.Cut(h, ":")
	for _, d := range []string{".example.com", ".example.org", ".example.net", ".example"} {
		if h == d[1:] || strings.HasSuffix(h, d) { // the name or a subdomain
			return true
		}
	}
	if strings.HasSuffix(h, ".test") || strings.HasSuffix(h, ".invalid") {
		return true
	}
	return FillInHost(h)
}

// FillInHost reports a host that PlaceholderHost reads as a fill-in left
// for the owner (a label "your…": push.yourdomain.com, your-instance.app;
// or brackets: <your-host>), not one of the names reserved for examples,
// which fixtures and docs also use to stand for any real host.
func FillInHost(h string) bool {
	h, _, _ = strings.Cut(h, ":")
	for i := 0; i < len(h); i++ {
		switch h[i] { // a template's blank: strings.ContainsAny builds its set on every call
		case '<', '>', '[', ']':
			return true
		}
	}
	if !strings.Contains(h, "your") {
		return false // every fill-in label starts with it: most hosts are read with no split
	}
	for label := range strings.SplitSeq(h, ".") {
		if fillInLabel(label) {
			return true
		}
	}
	return false
}

// fillInLabel reports a host label left for the reader to fill in: "your"
// as a fill-in's first word (fillInWords: alone, your.nextcloud.com, or
// before a separator, your-instance), or run together with a word of the
// fill-in list or any run of three letters or more (yourn8n, yourcourier,
// yourshop, yourcompany): a host's labels join their words. "yours" and
// "yourls" are words of their own, and a few real services are named so
// (realYour). Not "placeholder" (via.placeholder.com serves images) nor a
// run of x.
func fillInLabel(label string) bool {
	if !foldAt(label, 0, "your") {
		return false
	}
	if leadEnds(label, 4) || strings.HasPrefix(label[4:], "n8n") {
		return true
	}
	letters := 4
	for letters < len(label) && label[letters] >= 'a' && label[letters] <= 'z' {
		letters++
	}
	return letters >= 7 && !realYour[label]
}

// realYour are hosts' labels that start with "your" and a word but name
// a real service: YourMembership's API (api.yourmembership.com), the
// YourStory news site and its feeds (yourstory.com).
var realYour = map[string]bool{"yourmembership": true, "yourstory": true}

// MockWrite reports a request to a public mock or echo service, which
// answers a write as if it had made it and keeps nothing
// (docs/n8n-facts.md): JSONPlaceholder and DummyJSON fake every create,
// update and delete, httpbin and Postman Echo answer with the request
// itself and offer no way to read it back, and ReqRes's classic demo
// endpoints return a record they do not save. A repeat duplicates
// nothing. ReqRes's collections keep what they are sent, and request
// inspectors (webhook.site, RequestBin) keep each request for reading:
// neither is listed. host is lower case, path the URL's path.
func MockWrite(host, path string) bool {
	host = strings.TrimPrefix(host, "www.")
	paths, ok := mockHosts[host]
	if !ok {
		return false
	}
	if paths == nil {
		return true
	}
	for _, p := range paths {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}

// mockHosts are the mock and echo services MockWrite knows, with the
// paths that keep nothing (nil: every path).
var mockHosts = map[string][]string{
	"jsonplaceholder.typicode.com": nil,
	"dummyjson.com":                nil,
	"httpbin.org":                  nil,
	"postman-echo.com":             nil,
	"reqres.in":                    {"/api/users", "/api/register", "/api/login", "/api/logout", "/api/unknown"},
}

// BlankTarget returns the parameter of a node whose value, the id or name
// of the resource the node acts on, is a template's blank left for the
// owner to fill in ("YOUR_SPREADSHEET_ID", "<your-calendar>",
// "REPLACE_WITH_CHANNEL_ID", "USER_EMAIL_PLACEHOLDER"): a resource
// locator's value ({"__rl": true, "value": …}), or a string parameter
// named for an id (chatId, sheetId, phoneNumberId), or an SMS sender
// ("from": Twilio, Vonage and Plivo send only from a number or sender id
// the account owns, and refuse "YOUR_TWILIO_PHONE_NUMBER"). As exported, every
// call asks its service for a resource that does not exist and fails:
// nothing is written, and the call is made only once the owner names a
// real one (BlankID: "C0XXXXXXXXX", a Slack channel masked with x, too).
// An expression is not judged here (EachTarget's callers resolve the field
// of a config Set node one reads), nor a name typed in the locator's "name" mode that only reads like a constant ("RAW_DATA",
// "Token usage"), nor a GUID in braces, which is how Microsoft Graph
// names an Excel worksheet.
func BlankTarget(n *Node) (string, bool) {
	param, found := "", false
	EachTarget(n, func(k, s string, nameMode bool) bool {
		if BlankID(s, nameMode) {
			param, found = k, true
			return false
		}
		return true
	})
	return param, found
}

// BlankLocator is BlankTarget for the resource locators alone (a folder,
// sheet, channel or calendar picked from a list, by id or by URL): a
// trigger watches the resource one names. A string parameter named for an
// id may be one the owner makes up (a Kafka consumer group), which names
// nothing that must exist.
func BlankLocator(n *Node) (string, bool) {
	param, found := "", false
	EachTarget(n, func(k, s string, nameMode bool) bool {
		if v, _ := n.Param(k); v.Kind() == Object && BlankID(s, nameMode) {
			param, found = k, true
			return false
		}
		return true
	})
	return param, found
}

// EachTarget calls fn with each parameter of node n that names the
// resource the node acts on, as BlankTarget judges them: a resource
// locator's value (nameMode when it is in the locator's "name" mode), a
// string parameter named for an id, an SMS sender ("from"); one the
// node's operation never sends (unsentTarget) is left out. It stops when
// fn returns false. s is the value as written: an expression's too, which
// a caller that resolves it reads (a field a config Set node writes).
func EachTarget(n *Node, fn func(param, s string, nameMode bool) bool) {
	params := n.Params()
	if params.Kind() != Object {
		return
	}
	// The members are read off the tree, as Each gives them, without a
	// Value for each: most are no target (a number, a flag, an object
	// with no "__rl"), and a member's key is read only once its kind may
	// make it one.
	t, pn := params.t, params.node()
	for k := pn.first; k < pn.first+pn.n; k++ {
		c := &t.nodes[k]
		var key, s string
		nameMode := false
		switch c.kind() {
		case Object:
			if rl, ok := t.member(c, "__rl"); !ok || !(Value{t: t, i: rl}).True() {
				continue
			}
			key = t.keyOf(c)
			s, nameMode = t.memberStr(c, "value"), t.memberStr(c, "mode") == "name"
		case String:
			key = t.keyOf(c)
			if !strings.HasSuffix(key, "Id") && !strings.HasSuffix(key, "ID") && key != "from" {
				continue
			}
			s = Value{t: t, i: k}.Str()
		default:
			continue
		}
		if unsentTarget(n, key) {
			continue
		}
		if !fn(key, s, nameMode) {
			return
		}
	}
}

// memberStr is Str of object c's member of that key ("" when c has none).
func (t *tree) memberStr(c *jnode, key string) string {
	i, ok := t.member(c, key)
	if !ok {
		return ""
	}
	return Value{t: t, i: i}.Str()
}

// unsentTarget reports a target parameter that node n's operation, under
// its sign-in, reads but never sends: a template's blank there is asked of
// no service, so it fails nothing. Discord v2 reads the server (guildId)
// for every resource but the webhook's, yet checks it only with OAuth2
// (nodes-base dist/nodes/Discord/v2/actions/router.js: GET
// /users/@me/guilds and helpers/utils.js checkAccessToGuild when
// authentication is oAuth2; sendDiscordMessage asks for a member of it
// only then); with a bot token (the default) it goes into the URL of
// channel create and getAll (actions/channel/create.operation.js
// POST /guilds/{guildId}/channels, getAll.operation.js) and of every member
// operation (actions/member/*.operation.js /guilds/{guildId}/...), and
// into a message sent as a reply (message_reference's guild_id,
// helpers/utils.js prepareOptions); a message sent, read, listed, deleted
// or reacted to, and a channel read, updated or deleted, go by the
// channel's id alone (their execute takes _guildId). With a webhook the
// server is not read at all. A value n8n evaluates (an expression) is not
// judged here.
func unsentTarget(n *Node, param string) bool {
	if n.Type != "n8n-nodes-base.discord" || param != "guildId" || n.TypeVersion < 2 {
		return false
	}
	if mode, _ := literalParam(n, "guildId.mode"); mode == "url" {
		// A server's URL is matched to its id for every resource but the
		// webhook's (router.js getNodeParameter extractValue, which throws
		// on a URL its pattern does not match): read, whatever is sent.
		auth, _ := literalParam(n, "authentication")
		return auth == "webhook"
	}
	auth, ok := literalParam(n, "authentication")
	if !ok {
		return false
	}
	switch auth {
	case "webhook":
		return true
	case "", "botToken":
	default:
		return false // OAuth2: every call checks the server first
	}
	res, rok := literalParam(n, "resource")
	op, ook := literalParam(n, "operation")
	if !rok || !ook {
		return false
	}
	res = cmp.Or(res, "channel")
	switch res {
	case "member":
		return false
	case "channel":
		op = cmp.Or(op, "create")
		return op != "create" && op != "getAll"
	case "message":
		op = cmp.Or(op, "send")
		if op == "send" {
			ref, ok := n.Param("options.message_reference")
			return !ok || ref.Kind() == String && strings.TrimSpace(ref.Str()) == ""
		}
		return true
	}
	return false
}

// BlankID reports a resource's id or name (a name when nameMode) that is a
// template's blank. A literal written as an expression ("=YOUR_ID") is
// read as its text. Placeholder's patterns are too wide here: an id or a
// name may well be snake_case ("news_card_queue"), "todo", or hold
// "token" ("token_usage"); a blank is a fill-in (fillIn: bracketed,
// "your…", "replace…", "placeholder", "xxx"), SCREAMING_SNAKE_CASE, an
// id typed by counting (countingID) or one masked with x (maskedID).
func BlankID(s string, nameMode bool) bool {
	s = strings.TrimSpace(s)
	if rest, ok := strings.CutPrefix(s, "="); ok {
		if strings.Contains(rest, "{{") {
			return false
		}
		s = strings.TrimSpace(rest)
	}
	if s == "" || bracedGUID(s) {
		return false
	}
	if fillIn(s) {
		return true
	}
	// A name is the owner's words: a tab may be called RAW_DATA.
	return !nameMode && (mayBeConstant(s) && constantRE.MatchString(s) || countingID(s) || maskedID(s))
}

// maskedID reports an id whose author kept the prefix every such id
// starts with and masked the rest with x: "C0XXXXXXXXX" (a Slack
// channel), "1XXXX…" (a Google spreadsheet), "appXXXXXXXXXXXXX" (an
// Airtable base), "+33XXXXXXXXX" (a phone number's country code),
// "Label_XXXXXXXXXXXXXXXXXX" (a Gmail label). It ends in a run of one x
// (one case), four long at least and no shorter than the prefix, which
// holds letters, digits, "+", "-" and "_" alone. A service draws an id's
// characters at random (a spreadsheet's from 64, a Slack id's from 36): a
// run of four of one letter at its end, covering half of it, is not one
// it issues. An id of x alone is fillIn's.
func maskedID(s string) bool {
	x := s[len(s)-1]
	if x != 'X' && x != 'x' {
		return false
	}
	i := len(s) - 1
	for i > 0 && s[i-1] == x {
		i--
	}
	if run := len(s) - i; run < 4 || run < i {
		return false
	}
	for j := 0; j < i; j++ {
		switch c := s[j]; {
		case '0' <= c && c <= '9', 'a' <= c|0x20 && c|0x20 <= 'z', c == '+', c == '-', c == '_':
		default:
			return false
		}
	}
	return true
}

// countingID reports an id typed by counting ("1a2b3c4d5e6f7g8h9i0j",
// "123456789", "abc12345"): eight or more letters and digits whose digits
// count up by one (9 then 0) and whose letters run up the alphabet, each
// run three long at least when present and one of them five. No service
// issues such an id (a spreadsheet's is 44 random characters, a chat's a
// number its service assigns): it holds the place of one.
func countingID(s string) bool {
	if len(s) < 8 {
		return false
	}
	var lastD, lastL byte
	nd, nl := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case '0' <= c && c <= '9':
			if nd > 0 && c != '0'+(lastD-'0'+1)%10 {
				return false
			}
			lastD, nd = c, nd+1
		case 'a' <= c|0x20 && c|0x20 <= 'z':
			c |= 0x20
			if nl > 0 && c != lastL+1 {
				return false
			}
			lastL, nl = c, nl+1
		default:
			return false
		}
	}
	return (nd == 0 || nd >= 3) && (nl == 0 || nl >= 3) && max(nd, nl) >= 5
}

// mayBeConstant is what a match of constantRE needs: a capital first, an
// underscore after it.
func mayBeConstant(s string) bool {
	return 'A' <= s[0] && s[0] <= 'Z' && strings.IndexByte(s, '_') > 0
}

// constantRE matches a constant's name, whose letters must all be
// capitals: an id left blank.
var constantRE = lazyregexp.New(`^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$`)

// bracedGUID reports "{00000000-0001-0000-0000-000000000000}": hex digits
// and dashes in braces.
func bracedGUID(s string) bool {
	if len(s) < 3 || s[0] != '{' || s[len(s)-1] != '}' {
		return false
	}
	for _, c := range s[1 : len(s)-1] {
		if !(c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}
