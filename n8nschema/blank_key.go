package n8nschema

import (
	"encoding/json"
	"io"
	"net/url"
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/internal/ascii"
	"github.com/stormcheck/stormcheck/internal/lazyregexp"
)

// BlankKey reports an HTTP Request with no credential that sends, as the
// key of a header, query or body parameter that carries one, a template's
// blank typed as text: "Bearer YOUR_API_KEY", "<your_api_key>",
// "[Your PiAPI Key]", "YOUR-API-KEY-HERE", "PUBLIC_TRANSIT_API_KEY" (a
// constant's name, not a key), or in the URL's query string
// ("?api_key=YOUR_API_KEY"). n8n sends the text as written (a value that
// does not start with "=" is no expression: n8n-workflow/dist/cjs/
// expressions/expression-helpers.js isExpression), so the service refuses
// the key on every item, until the owner puts a real key there. It names
// the parameter (header "Authorization"), never its value. What is sent is
// read as literalKey reads it (sendHeaders, sendQuery, sendBody and the
// key-value lists: nodes-base HttpRequest/V3/HttpRequestV3.node.js; v1
// and v2 send their lists unless jsonParameters is set,
// HttpRequest/V2/HttpRequestV2.node.js), and the headers and query
// parameters written as JSON (SentJSONParams: jsonHeaders, jsonQuery;
// v1 and v2 headerParametersJson, queryParametersJson). A node with a
// credential is left out: the credential may carry the key. A value with
// {{ }} is literalKey's (RS010), an expression is not judged; in JSON text
// marked as an expression ("={…}") a member's string without {{ }} is
// sent as written, and is read.
func BlankKey(n *Node) (string, bool) {
	if !IsHTTPRequest(n.Type) {
		return "", false
	}
	if a, ok := n.Param("authentication"); ok && (a.Kind() != String || a.IsExpr() || a.Str() != "none") {
		return "", false
	}
	where, found := "", false
	SentParams(n, func(what, name string, val Value) bool {
		s, ok := sentText(val)
		if !ok || !keyParam(name) || !BlankKeyText(s) && !strippedKey(what, s) {
			return true
		}
		where, found = what+" "+strconv.Quote(name), true
		return false
	})
	if found {
		return where, true
	}
	SentJSONParams(n, func(what, name, val string, _ bool) bool {
		if !keyParam(name) || !BlankKeyText(val) && !strippedKey(what, val) {
			return true
		}
		where, found = what+" "+strconv.Quote(name), true
		return false
	})
	if found {
		return where, true
	}
	// A key typed into the URL's query string.
	v, ok := n.Param("url")
	if !ok || v.Kind() != String {
		return "", false
	}
	u := strings.TrimPrefix(strings.TrimSpace(v.Str()), "=")
	_, query, ok := strings.Cut(u, "?")
	if !ok {
		return "", false
	}
	query, _, _ = strings.Cut(query, "#")
	for kv := range strings.SplitSeq(query, "&") {
		name, val, _ := strings.Cut(kv, "=")
		if keyParam(name) && BlankKeyText(val) {
			return "query parameter " + strconv.Quote(name), true
		}
	}
	return "", false
}

// sentText returns the text a key-value list's value sends when it is no
// expression: a value the export leaves out is its field's default, ""
// (nodes-base HttpRequest/V3/Description.js headerParameters' "value",
// V2/HttpRequestV2.node.js headerParametersUi's: default ""), which an
// export omits as it omits every default, so {"name": "x-api-key"} sends
// the header empty.
func sentText(val Value) (string, bool) {
	switch {
	case val.Kind() == Missing:
		return "", true
	case val.Kind() == String && !val.IsExpr():
		return val.Str(), true
	}
	return "", false
}

// SentParams calls fn with each header, query and body parameter of the
// key-value lists an HTTP Request sends ("header", "query parameter",
// "body parameter"), until fn returns false: v3 and later send a list when
// its send flag is a literal true and it is specified as key-value pairs
// (the default); v1 and v2 send theirs unless jsonParameters is set.
func SentParams(n *Node, fn func(what, name string, val Value) bool) {
	lists := [...]struct{ send, specify, list, what string }{
		{"sendHeaders", "specifyHeaders", "headerParameters.parameters", "header"},
		{"sendQuery", "specifyQuery", "queryParameters.parameters", "query parameter"},
		{"sendBody", "specifyBody", "bodyParameters.parameters", "body parameter"},
	}
	if n.TypeVersion < 3 {
		if v, ok := n.Param("jsonParameters"); ok && (v.Kind() != Bool || v.True()) {
			return
		}
		lists[0].list, lists[1].list, lists[2].list = "headerParametersUi.parameter", "queryParametersUi.parameter", "bodyParametersUi.parameter"
	}
	for _, p := range lists {
		if n.TypeVersion >= 3 {
			if v, ok := n.Param(p.send); !ok || v.Kind() != Bool || !v.True() {
				continue
			}
			if v, ok := n.Param(p.specify); ok && (v.Kind() != String || v.IsExpr() || v.Str() != "keypair") {
				continue
			}
		}
		list, _ := n.Param(p.list)
		for _, e := range list.ElemsSeq() {
			name := e.Get("name")
			if name.Kind() != String || name.IsExpr() {
				continue
			}
			if !fn(p.what, strings.TrimSpace(name.Str()), e.Get("value")) {
				return
			}
		}
	}
}

// SentJSONParams calls fn with each member whose value is a string of
// the headers and query parameters an HTTP Request sends written as JSON,
// in the text's order, until fn returns false: v3 and later parse
// jsonHeaders or jsonQuery when sendHeaders or sendQuery is a literal true
// and specifyHeaders or specifyQuery is "json" (nodes-base
// HttpRequest/V3/HttpRequestV3.node.js L175-188, L326-345,
// parseJsonParameter); v1 and v2 parse headerParametersJson and
// queryParametersJson when jsonParameters is true
// (HttpRequest/V1/HttpRequestV1.node.js L639, L695-765;
// V2/HttpRequestV2.node.js the same code). expr says the text is an
// expression ("={…}"), whose strings' {{ }} n8n evaluates; text that is
// not a JSON object as written ({{ }} outside a string, an expression that
// builds the whole object) is not read.
func SentJSONParams(n *Node, fn func(what, name, val string, expr bool) bool) {
	lists := [...]struct{ send, specify, text, what string }{
		{"sendHeaders", "specifyHeaders", "jsonHeaders", "header"},
		{"sendQuery", "specifyQuery", "jsonQuery", "query parameter"},
	}
	if n.TypeVersion < 3 {
		if v, ok := n.Param("jsonParameters"); !ok || v.Kind() != Bool || !v.True() {
			return
		}
		lists[0].text, lists[1].text = "headerParametersJson", "queryParametersJson"
	}
	for _, p := range lists {
		if n.TypeVersion >= 3 {
			if v, ok := n.Param(p.send); !ok || v.Kind() != Bool || !v.True() {
				continue
			}
			if v, ok := n.Param(p.specify); !ok || v.Kind() != String || v.IsExpr() || v.Str() != "json" {
				continue
			}
		}
		v, ok := n.Param(p.text)
		if !ok {
			continue
		}
		if v.Kind() == Object { // an object is sent as it is
			more := true
			v.Each(func(name string, m Value) bool {
				if m.Kind() == String {
					more = fn(p.what, strings.TrimSpace(name), m.Str(), m.IsExpr())
				}
				return more
			})
			if !more {
				return
			}
			continue
		}
		if v.Kind() != String {
			continue
		}
		text, expr := strings.CutPrefix(v.Str(), "=")
		if !jsonMembers(text, func(name, val string) bool { return fn(p.what, strings.TrimSpace(name), val, expr) }) {
			return
		}
	}
}

// jsonMembers calls fn with each member of the JSON object text whose
// value is a string, in order, until fn returns false (it then returns
// false); of a name given twice, the last. Text that is not one JSON
// object gives nothing.
func jsonMembers(text string, fn func(name, val string) bool) bool {
	type member struct {
		name, val string
		str       bool
	}
	var members []member
	dec := json.NewDecoder(strings.NewReader(text))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return true
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return true
		}
		name, _ := t.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return true
		}
		var val string
		str := json.Unmarshal(raw, &val) == nil
		members = append(members, member{name, val, str})
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') {
		return true
	}
	if _, err := dec.Token(); err != io.EOF {
		return true // more after the object: not valid JSON
	}
	// A name given again replaces the earlier member (JSON.parse keeps
	// the last), whatever its value.
	last := make(map[string]int, len(members))
	for i, m := range members {
		last[m.name] = i
	}
	for i, m := range members {
		if m.str && last[m.name] == i && !fn(m.name, m.val) {
			return false
		}
	}
	return true
}

// keyParam reports a parameter name that carries a key or token
// (CredentialField: it holds "key", "auth" or "token"), but not one that
// only holds the letters: a keyword, an author, an idempotency key (any
// text is a valid one).
func keyParam(name string) bool {
	s := strings.ToLower(strings.TrimSpace(name))
	if !keyName(s) || strings.Contains(s, "keyword") || strings.Contains(s, "idempotency") {
		return false
	}
	return !strings.Contains(s, "author") || strings.Contains(s, "authoriz")
}

// BlankKeyText reports a key typed as text that is a template's blank:
// bracketed ("<your_api_key>", "[Your PiAPI Key]", "{YOUR-API-KEY}"), or
// holding the word "your" ("YOUR_API_TOKEN", "AddYourAPIKeyHere"),
// "replace" or "placeholder", a run of x ("key_XXXXXXXXX"), or a
// constant's name that ends in a key's word ("PUBLIC_TRANSIT_API_KEY",
// "$OPENAI_API_KEY"), after an auth scheme ("Bearer", "Basic", "Token")
// when there is one. BlankKey also reads a key header left empty (its value absent too: sentText) or
// holding a scheme alone (strippedKey). A key a service issues is random letters and digits,
// with a prefix at most (sk-, apify_api_): never brackets, those words or a
// constant's name. A value with {{ }} is not a blank (literalKey) unless
// its braces hold bare names ("Bearer {{OPENAI_API_KEY}}": placeholderBraces).
func BlankKeyText(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" || strings.Contains(s, "{{") && !placeholderBraces(s) {
		return false
	}
	if blankKeyWord(s) {
		return true
	}
	if scheme, rest, ok := strings.Cut(s, " "); ok && authScheme(scheme) {
		return blankKeyWord(strings.TrimSpace(rest))
	}
	return false
}

// strippedKey reports a key header whose value is empty or an
// Authorization scheme alone ("", "Bearer ", "Basic"): an export whose
// author took the key out before publishing it, so the service refuses
// every call until the owner puts one there. Only a header: an empty
// query parameter named for a token is often a first page's cursor
// (pageToken=).
func strippedKey(what, s string) bool {
	if what != "header" {
		return false
	}
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "bearer", "basic", "token", "bot": // the schemes a key follows (Bot: Discord)
		return true
	}
	return false
}

// authScheme reports an Authorization scheme's name: letters and dashes
// ("Bearer", "Basic", "Token", "API-Key").
func authScheme(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c != '-' && (c < 'a' || c > 'z') {
			return false
		}
	}
	return true
}

// blankKeyWord reports a key that is a fill-in (fillIn), or, as a key's
// blank is free text, holds one's first word at any word's start ("Add
// your API key here", "-put-your-api-key-", "AddYourAPIKeyHere"), a run of
// four x ("key_XXXXXXXXX") or a constant's name ending in a key's word.
func blankKeyWord(s string) bool {
	s = strings.Trim(s, `"'`)
	if len(s) < 2 {
		return false
	}
	if fillIn(s) || ascii.ContainsFold(s, "xxxx") {
		return true
	}
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c != 'y' && c != 'r' || leadLen(s, i) == 0 {
			continue
		}
		p := byte(' ')
		if i > 0 {
			p = s[i-1]
		}
		if p|0x20 < 'a' || p|0x20 > 'z' || 'a' <= p && p <= 'z' && 'A' <= s[i] && s[i] <= 'Z' && 'a' <= s[i+1] && s[i+1] <= 'z' {
			return true // after a non-letter, or a capitalised word after a small letter
		}
	}
	return strings.IndexByte(s, '_') >= 0 && keyConstantRE.MatchString(s)
}

// keyConstantRE: a constant's name ending in a key's word.
var keyConstantRE = lazyregexp.New(`^\$?[A-Z][A-Z0-9]*(_[A-Z0-9]+)*_(KEY|TOKEN|SECRET|APIKEY|ACCESS_KEY)(_[A-Z0-9]+)?$`)

// CredentialBlank is a node's credentials entry that binds to no
// credential as exported (TemplateCredential).
type CredentialBlank struct {
	Type, ID, Name string
	// NameOnly: stored by name alone (ID is ""): the old export's form,
	// "googleSheetsOAuth2Api": "Google Sheets account", or an object
	// whose id is null, missing or empty.
	NameOnly bool
	// WrongType: every entry is a template's blank of a type the node does
	// not take (wrongTypeBlank); this is the first.
	WrongType bool
}

// ByName reports an entry stored by name alone that has a name: not a
// template's blank but the owner's own credential, as an old export
// keeps it (or one stripped of its id), which n8n binds on import by name
// and type to the credential of the importing project (n8n/dist/
// workflow-helpers.js replaceInvalidCredentials), just as it binds an id
// from another instance. The blank reach and RS007 leave it out; it says
// only that the export names no id (analyze.account, botTriggers).
func (c CredentialBlank) ByName() bool {
	return c.NameOnly && strings.TrimSpace(c.Name) != ""
}

// TemplateCredential reads node n's credentials entry of type typ as a
// template's blank: an id no instance generates (Placeholder:
// "REPLACE_WITH_CREDENTIAL_ID", "GOOGLE_SHEETS_PORTFOLIO_CREDENTIAL_ID",
// "<CREDENTIAL_ID>"; or HandWrittenID: n8n's ids are numbers or sixteen
// letters and digits, so "google-drive-cred-id" or "gmailOAuth2Api" was
// written by hand), or none, the entry stored by name alone (NameOnly; one with a
// name, ByName, is the owner's credential rather than a blank, and the
// callers that ask whether a node fails as exported leave it out; those
// that ask which key it is read it as no id known). n8n resolves all of
// them alike on every way in (import:workflow, a new workflow from the
// editor or the API, an update: n8n/dist/workflow-helpers.js
// replaceInvalidCredentials, called by services/import.service.js and
// workflows/workflow-creation.service.js): a bare name or a null id is
// looked up by name and type, an id it does not find (an empty one too)
// by name once the look-up by id finds none, and the entry is bound to the
// one credential of that name and type in the importing project, if there
// is exactly one, or left with no id for the owner to pick. A node that
// asks for such a credential fails, with "Credential with ID … does not
// exist for type …" or, with no id, CredentialMissingIdError
// (n8n/dist/credentials-helper.js getCredentialsEntity). A null entry
// names no credential at all: n8n skips it, and it is not read here.
func TemplateCredential(n *Node, typ string) (CredentialBlank, bool) {
	return templateCredential(n.Field("credentials"), typ)
}

// templateCredential is TemplateCredential of the node's credentials
// object creds, read once by a caller that asks of each entry.
func templateCredential(creds Value, typ string) (CredentialBlank, bool) {
	v := creds.Get(typ)
	b := CredentialBlank{Type: typ, NameOnly: true}
	switch v.Kind() {
	case String:
		b.Name = v.Str()
		return b, true
	case Object:
	default:
		return CredentialBlank{}, false
	}
	// The id first: most entries hold a real one, and the rest is not
	// read. field, not Get: a miss builds no path.
	id, _ := v.field("id")
	if id.Kind() == String || id.Kind() == Number {
		if b.ID = id.Str(); strings.TrimSpace(b.ID) == "" {
			b.ID = ""
		} else if !Placeholder(b.ID) && !HandWrittenID(b.ID) {
			return CredentialBlank{}, false
		} else {
			b.NameOnly = false
		}
	}
	if f, _ := v.field("__aiGatewayManaged"); f.True() {
		// n8n Cloud's Gateway credits: a managed reference with no id
		// (BillingOf), which the instance resolves itself.
		return CredentialBlank{}, false
	}
	name, _ := v.field("name")
	b.Name = name.Str()
	return b, true
}

// HandWrittenID reports a credential id no n8n instance generates, so a
// person wrote it ("google-drive-cred-id", "gmailOAuth2Api", the
// credential type's own name): n8n gives every credential a sixteen-byte
// nanoid over [0-9A-Za-z] (@n8n/db/dist/entities/abstract-entity.js
// mixinStringId generateId, @n8n/utils/dist/generate-nano-id.cjs,
// NANOID_ALPHABET in @n8n/constants/dist/index.js), and an instance from
// before 1.0 numbered them (kept as strings of digits since). An id set by
// an expression ("={{ … }}") is not judged. One pass over the bytes.
func HandWrittenID(id string) bool {
	if id == "" || id[0] == '=' {
		return false
	}
	digits := true
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case '0' <= c && c <= '9':
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z':
			digits = false
		default:
			return true
		}
	}
	return !digits && len(id) != 16
}

// BlankCredential returns a credential the node reads (UsesCredential)
// that binds to no credential as exported (TemplateCredential): n8n finds
// none by its id, and the node fails until the owner picks one. An entry
// stored by name alone (ByName) is the owner's credential, not a blank:
// n8n binds it by name and type on import, as it binds an id from another
// instance, so a node that fails for its own reason still fails. An HTTP
// Request that ignores its credentials (IgnoresCredentials) reads none,
// and a node that fails or returns before it asks for any
// (FailsBeforeCredential) fails the same whatever its credential.
func BlankCredential(n *Node) (CredentialBlank, bool) {
	if len(n.Credentials) == 0 || IgnoresCredentials(n) { // most nodes have none
		return CredentialBlank{}, false
	}
	var b CredentialBlank
	found, blank := false, false
	creds := n.Field("credentials")
	creds.Each(func(t string, _ Value) bool {
		c, ok := templateCredential(creds, t)
		if !ok || c.ByName() {
			return true
		}
		blank = true // an entry wrongTypeBlank may read
		b, found = c, UsesCredential(n, t)
		return !found
	})
	if !blank {
		return CredentialBlank{}, false // most credentials have real ids
	}
	if !found {
		return wrongTypeBlank(n, creds)
	}
	if FailsBeforeCredential(n) {
		return CredentialBlank{}, false
	}
	return b, true
}

// wrongTypeBlank returns the blank of a node whose every credentials
// entry is a template's blank (TemplateCredential, not ByName) of a type
// the node does not take ("gmailOAuth2Api" on a Gmail Trigger, which takes
// "gmailOAuth2"): RefusedCall reads the type and fails the node, but the
// template named no credential at all, and the owner picks one in the
// node's credential field, which offers only the types the node takes
// (n8n/dist/workflow-helpers.js replaceInvalidCredentials finds none by
// id and leaves the entry for the owner). Until then the node fails on
// every item, as for any blank credential.
func wrongTypeBlank(n *Node, creds Value) (CredentialBlank, bool) {
	if fullAccess[n.Type] {
		return CredentialBlank{}, false
	}
	d, known := DescribeNode(strings.TrimSuffix(n.Type, "Tool"), n.TypeVersion)
	if !known || !d.AsksCredential() {
		return CredentialBlank{}, false
	}
	var first CredentialBlank
	all := true
	creds.Each(func(t string, v Value) bool {
		if v.Kind() == Null {
			return true
		}
		b, ok := templateCredential(creds, t)
		if !ok || b.ByName() || d.takesCredential(t) {
			all = false
			return false
		}
		if first.Type == "" {
			first = b
		}
		return true
	})
	if !all || first.Type == "" {
		return CredentialBlank{}, false
	}
	first.WrongType = true
	return first, true
}

// FailsBeforeCredential reports a node whose code never asks n8n for its
// credential as configured (RefusedCall): one with no branch for its
// resource or operation (NoBranch), or one that throws before any request
// (Fails and NoCall: a service shut down, Airtable v1's API key, a
// Supabase filter with no condition), so what its credential is changes
// nothing. An HTTP Request asks for its credentials first, before it reads
// its URL or body (nodes-base HttpRequest/V3/HttpRequestV3.node.js:
// getCredentials, then "URL must start with "http" or "https""), and a
// declarative node before it routes (n8n-core routing-node.js
// prepareCredentials), so their refusals are not such.
func FailsBeforeCredential(n *Node) bool {
	r, ok := RefusedCall(n)
	return ok && (r.NoBranch || r.Fails && r.NoCall && !r.Bare && !IsHTTPRequest(n.Type))
}

// UsesCredential reports a credential type the node asks n8n for as it
// is stored: one it requires in every configuration, one its credential
// parameter's value (stored as a literal, or its default) requires
// (AuthCredentials), or an HTTP Request v3 or later's predefined or
// generic credential type its authentication names. A value set by an
// expression is not judged.
func UsesCredential(n *Node, typ string) bool {
	if IsHTTPRequest(n.Type) && n.TypeVersion >= 3 {
		auth, ok := literalParam(n, "authentication")
		switch {
		case !ok:
			return false
		case auth == "predefinedCredentialType":
			t, ok := literalParam(n, "nodeCredentialType")
			return ok && t == typ
		case auth == "genericCredentialType":
			t, ok := literalParam(n, "genericAuthType")
			return ok && t == typ
		}
		return false
	}
	d, ok := n.Describe()
	if !ok {
		return false
	}
	for _, c := range d.RequiredCredentials() {
		if c == typ {
			return true
		}
	}
	a, gated := d.AuthCredentialOf(typ)
	if !gated {
		return false
	}
	auth, ok := literalParam(n, d.CredentialParam())
	if !ok {
		return false
	}
	if _, set := n.Param(d.CredentialParam()); !set {
		auth = d.DefaultAuthentication()
	}
	return a.For(auth)
}

// BlankURL returns the part of an HTTP Request's URL, a path segment or a
// query parameter's value, that is a template's blank left for the owner
// to fill in: a fill-in token ("YOUR_ACCOUNT", "your-location",
// "YourUnitId", "REPLACE_WITH_BOARD_ID", "PLACEHOLDER", "xxxx"), or one
// in brackets ("<spreadsheet_id>", "[board-id]", "{accountId}": single
// braces, which n8n sends as they are). n8n sends the URL's literal text
// as written (a value that does not start with "=" is no expression, and
// in one only {{ }} is evaluated: n8n-workflow/dist/cjs/expressions/
// expression-helpers.js isExpression), so every call asks the service for
// a resource that does not exist and fails, until the owner names a real
// one. The host is FillInHost's; what {{ }} computes is not judged, nor an
// ordinary path segment in capitals ("/v1/USERS", "/API_KEY").
//
// It names the part as a clause: `path segment "YOUR_ACCOUNT"`, or
// `query parameter "appid" ("YOUR_KEY")`.
func BlankURL(n *Node) (string, bool) {
	if !IsHTTPRequest(n.Type) {
		return "", false
	}
	v, ok := n.Param("url")
	if !ok || v.Kind() != String {
		return "", false
	}
	u := strings.TrimSpace(v.Str())
	if rest, ok := strings.CutPrefix(u, "="); ok {
		u = dropExprSpans(rest)
	}
	u, _, _ = strings.Cut(u, "#")
	if !mayBlankURL(u) {
		return "", false
	}
	return blankURLIn(u)
}

// mayBlankURL reports a URL's literal text (BlankURL's, its {{ }} spans
// dropped) that may hold a part blankURLIn reads as a blank: a bracket or
// brace (inBrackets, placeholderBraces), "%" (an escape may spell any
// byte), or a fill-in's word or shape in any case (fillInWords: "your",
// "replace", "placeholder", "changeme", a run of three x, "..."). Every
// such part holds one as written, so most URLs are read no further: one
// pass over the bytes, each looked up in urlFillIn.
func mayBlankURL(u string) bool {
	for i := 0; i < len(u); i++ {
		if k := urlFillIn[u[i]]; k != 0 && (k == 1 || foldAt(u, i, urlFillInWords[k])) {
			return true
		}
	}
	return false
}

// urlFillIn says, for each byte, what a fill-in mayBlankURL looks for
// may start with it: 0 none, 1 the byte itself, else the index of its
// word in urlFillInWords (in either case of a letter).
var urlFillIn = [256]uint8{'<': 1, '[': 1, '{': 1, '%': 1, '.': 2, 'y': 3, 'Y': 3, 'r': 4, 'R': 4,
	'p': 5, 'P': 5, 'c': 6, 'C': 6, 'x': 7, 'X': 7}

var urlFillInWords = [...]string{2: "...", 3: "your", 4: "replace", 5: "placeholder", 6: "changeme", 7: "xxx"}

// blankURLIn is BlankURL of the URL's literal text u.
func blankURLIn(u string) (string, bool) {
	if _, rest, ok := strings.Cut(u, "://"); ok {
		u = rest
	}
	path, query, _ := strings.Cut(u, "?")
	_, path, ok := strings.Cut(path, "/") // the host is FillInHost's
	if ok {
		for seg := range strings.SplitSeq(path, "/") {
			for part := range strings.SplitSeq(seg, ":") { // "YOUR_SHEET_ID:append"
				// A path holding a mustache fill-in ("/apps/{{APP_TOKEN}}")
				// asks for no resource until it is filled in; a query
				// value with braces is sent as a literal, no failure.
				if blankURLPart(part) || placeholderBraces(part) {
					return "path segment " + strconv.Quote(part), true
				}
			}
		}
	}
	for kv := range strings.SplitSeq(query, "&") {
		if name, val, ok := strings.Cut(kv, "="); ok && blankURLPart(val) {
			return "query parameter " + strconv.Quote(name) + " (" + strconv.Quote(val) + ")", true
		}
	}
	return "", false
}

// dropExprSpans puts "/" for each {{ }} span of an expression's text: what
// it computes is not read, and the literal text around it stays apart.
func dropExprSpans(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			break
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			s = s[:i]
			break
		}
		b.WriteString(s[:i])
		b.WriteByte('/')
		s = s[i+j+2:]
	}
	b.WriteString(s)
	return b.String()
}

// blankURLPart reports a path segment or query value (percent-decoded)
// that is a fill-in (fillIn), a bracketed one holding a name: not data a
// query value carries, nor {{ }}, which is no blank but an expression not
// marked as one (BlankURL).
func blankURLPart(s string) bool {
	if d, err := url.PathUnescape(s); err == nil {
		s = d
	}
	s = strings.TrimSpace(s)
	if inner, ok := inBrackets(s); ok {
		return !strings.HasPrefix(s, "{{") && bracketedName(inner)
	}
	return fillInWords(s)
}

// bracketedName reports what a bracketed blank holds: a name (letters,
// digits, "_", "-", "." and spaces), not data such as a JSON object a
// query value carries ({"pagination":{}}) or a list ([1,2]).
func bracketedName(s string) bool {
	letter := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c|0x20 >= 'a' && c|0x20 <= 'z':
			letter = true
		case c >= '0' && c <= '9', c == '_', c == '-', c == '.', c == ' ':
		default:
			return false
		}
	}
	return letter
}
