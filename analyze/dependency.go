package analyze

import (
	"sort"
	"strings"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// What a dependency is: one name per service, however it is called (the
// OpenAI node and an HTTP Request to api.openai.com call one service); a
// feed or an MCP server per host, since each is its own server; nothing for
// what runs inside n8n (its Data Tables, its own API). A host that only
// holds a place (example.com, yourdomain.com) is no real dependency:
// n8nschema.PlaceholderHost. On a service shared by
// many tenants (a mailbox, an Airtable base, a Notion workspace, a
// database) the account is the credential: two workflows strain one
// tenant only when they call with the same one.

// InProcess reports a node whose operation runs inside n8n and sends no
// request: a Data Table reaches n8n's own database through a helper of the
// execution (nodes-base/dist/nodes/DataTable/common/utils.js
// getDataTableProxyExecute), with no credential and no HTTP status, so it
// is no external call and cannot fail with a 401, 403 or 422. The n8n API
// node is not: it sends HTTP requests to the instance's public API with an
// API key (nodes-base/dist/nodes/N8n/GenericFunctions.js apiRequest), though
// it is no external dependency either (dependency).
func InProcess(n *n8nschema.Node) bool {
	return strings.TrimSuffix(n.Type, "Tool") == "n8n-nodes-base.dataTable"
}

// dependency names what an operation calls.
func dependency(n *n8nschema.Node, sp n8nschema.Spec) string {
	if InProcess(n) {
		return "" // n8n's own tables: the instance itself
	}
	switch strings.TrimSuffix(n.Type, "Tool") {
	case n8nschema.TypeN8n:
		return "" // n8n's own API: the instance itself
	case "n8n-nodes-base.rssFeedRead":
		return hostDependency(n, "url")
	case "@n8n/n8n-nodes-langchain.mcpClient":
		return hostDependency(n, "endpointUrl", "sseEndpoint")
	}
	if sp.Provider != "" && sp.Provider != "mcp" {
		return sp.Provider
	}
	if v, _ := n.Param("url"); strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(v.Str(), "=")), "{{") {
		// An expression that chooses between one provider's model
		// endpoints calls that provider.
		if hc, ok := n8nschema.HTTPModelCallOf(n); ok {
			return hc.Provider
		}
	}
	return hostDependency(n, "url", "endpointUrl", "sseEndpoint")
}

// hostDependency is the host of the first URL parameter present, named for
// its service when it is a known API host.
func hostDependency(n *n8nschema.Node, params ...string) string {
	for _, k := range params {
		v, ok := n.Param(k)
		if !ok {
			continue
		}
		h := hostOf(strings.ToLower(strings.TrimSpace(strings.TrimPrefix(v.Str(), "="))))
		if p := apiHosts[strings.TrimPrefix(h, "www.")]; p != "" {
			return p
		}
		return h
	}
	return ""
}

// apiHosts are the API hosts of services the catalog names by provider
// (each service's API reference), so that a direct HTTP call and the
// service's node are one dependency.
var apiHosts = map[string]string{
	"api.openai.com":                    "openai",
	"api.anthropic.com":                 "anthropic",
	"generativelanguage.googleapis.com": "google-gemini",
	"api.mistral.ai":                    "mistral",
	"api.groq.com":                      "groq",
	"api.deepseek.com":                  "deepseek",
	"openrouter.ai":                     "openrouter",
	"api.perplexity.ai":                 "perplexity",
	"api.x.ai":                          "xai",
	"api.notion.com":                    "notion",
	"api.airtable.com":                  "airtable",
	"sheets.googleapis.com":             "google-sheets",
	"docs.googleapis.com":               "google-docs",
	"gmail.googleapis.com":              "gmail",
	"api.telegram.org":                  "telegram",
	"slack.com":                         "slack",
	"api.hubapi.com":                    "hubspot",
	"api.github.com":                    "github",
	"api.todoist.com":                   "todoist",
	"api.spotify.com":                   "spotify",
	"api.pipedrive.com":                 "pipedrive",
	"api.trello.com":                    "trello",
	"api.clickup.com":                   "clickup",
	"api.linear.app":                    "linear",
	"graph.facebook.com":                "facebook",
	"api.twitter.com":                   "twitter",
	"api.x.com":                         "twitter",
	"discord.com":                       "discord",
	"api.sendgrid.com":                  "sendgrid",
}

// modelService reports whether a dependency is a model provider, whose limits hold per service and key,
// not per tenant resource: a model is called with one key per
// organisation.
func modelService(sp n8nschema.Spec, dep string) bool {
	if sp.Role == n8nschema.RoleModel || sp.Paid {
		return true
	}
	switch dep {
	case "openai", "anthropic", "google-gemini", "mistral", "groq", "deepseek", "openrouter", "perplexity", "xai":
		return true
	}
	return false
}

// account names the credential an operation calls with (type and id), ""
// for a model provider or a node with none; dep is the operation's
// dependency. A credential that is a template's blank
// (n8nschema.TemplateCredential: an id such as "REPLACE_WITH_CREDENTIAL_ID",
// one left empty or out, as a workflow published with its ids stripped
// carries them, or the old form that kept only a credential's name) names
// no account: n8n binds such a credential when the workflow is imported
// (n8n/dist/workflow-helpers.js replaceInvalidCredentials): a bare name or
// an id that is null goes by the credential's name and type in the
// importing project, if exactly one has them, and so does an empty one,
// which no credential has (its findOneBy by id finds none and falls back
// to the name); an id left out is looked up as findOneBy({ id: undefined, type }), and
// TypeORM drops an undefined condition (@n8n/typeorm
// dist/query-builder/SelectQueryBuilder.js buildWhere), so it binds to the
// first credential of that type in the instance's database, whatever its
// name or project (by name only when there is none). Either way the key
// is one of the importing instance's, and the export does not say which:
// a missing id is a blank like the others (DependencyIdentity says what
// two blanks share). blank reports a node that calls with credentials whose ids are
// all such blanks: it calls with a key, but which one is not known. One
// reading gives both: Placeholder is asked once an id.
func account(n *n8nschema.Node, sp n8nschema.Spec, dep string) (acct string, blank bool) {
	if len(n.Credentials) == 0 || n8nschema.IgnoresCredentials(n) { // most nodes have none
		return "", false
	}
	model := modelService(sp, dep)
	var out []string
	blank, has := true, false
	n.Field("credentials").Each(func(typ string, v n8nschema.Value) bool {
		has = true
		if _, b := n8nschema.TemplateCredential(n, typ); b || v.Kind() != n8nschema.Object {
			return true // bound on import, or none named
		}
		blank = false
		if !model {
			out = append(out, typ+":"+v.Get("id").Str())
		}
		return true
	})
	sort.Strings(out)
	return strings.Join(out, ","), has && blank
}

// CannotCall reports a call that cannot be made as written: an HTTP
// Request with no URL (its url parameter is required and defaults to "",
// so n8n fails the node before any request: nodes-base/nodes/HttpRequest/
// V3/Description.ts url), a call to a host that only holds a place, or
// one to a resource a template's blank names (Operation.BlankTarget). A
// call n8n or its provider refuses as configured is not Live at all.
func CannotCall(op *Operation) bool {
	return op.BlankTarget || CallsNowhere(op)
}

// CallsNowhere is CannotCall but for a blank target: the call has no
// service to reach (no URL, or a host that only holds a place), while a
// blank target names a real service's resource the owner fills in.
func CallsNowhere(op *Operation) bool {
	if n8nschema.IsHTTPRequest(op.Node.Type) {
		v, ok := op.Node.Param("url")
		if !ok || v.Kind() == n8nschema.String && strings.TrimSpace(strings.TrimPrefix(v.Str(), "=")) == "" {
			return true
		}
	}
	return n8nschema.PlaceholderHost(strings.ToLower(op.Dependency))
}

// URLHost is the host of a node's URL parameter, as written ("" when an
// expression builds it): what a rate limit known per host is looked up by.
func URLHost(n *n8nschema.Node) string {
	v, _ := n.Param("url")
	return hostOf(strings.ToLower(strings.TrimSpace(strings.TrimPrefix(v.Str(), "="))))
}

// DependencyIdentity is what two operations must share to strain one
// dependency, "" when none can be named: the service for a model provider
// (its limits hold per key and organisation: a key whose id is a
// template's blank (Credential's blank) is nobody's known key, so it shares none,
// unless the export names the n8n instance it comes from: then it is one
// of that instance's keys, as a named one is, and RS505 keys it by that
// instance, PerKey) and for a host of its own called with no credential;
// the service and the credential for a host of its own called with one,
// a blank key there being "some key of its instance" (host, "blank:" and
// the instance), which shares with the blank keys of that instance only,
// not with the calls made with no credential nor with a named key, and
// none when the export names no instance; the service and the account for a service that many tenants share (a
// catalog service such as Gmail, Notion or Google Sheets, or its API
// host), whose limits hold per mailbox, base or workspace, so that calls
// with no credential known share nothing known; nothing for a placeholder.
// It reads the node's credentials (Credential): Summarize and the rules ask
// it, before the set's sources are released.
func DependencyIdentity(op *Operation) string {
	acct, blank := op.Credential()
	return identityOf(op, strings.ToLower(op.Dependency), acct, blank)
}

// identityOf is DependencyIdentity of an operation whose dependency, in
// lower case, is d, called with the credential acct (blank: Credential).
func identityOf(op *Operation, d, acct string, blank bool) string {
	switch {
	case d == "" || n8nschema.PlaceholderHost(d):
		return ""
	case modelService(*op.Spec, d):
		if blank && InstanceOf(op.Workflow) == "" {
			return "" // a template's key, of no instance: whose is not known
		}
		return d
	case !tenantService(op.Spec, d):
		switch {
		case acct != "":
			return d + "\x00" + acct
		case !blank:
			return d // no credential: one server whoever calls
		case InstanceOf(op.Workflow) == "":
			return "" // a key yet to be filled in: which one is not known
		}
		// Some key of this instance, which one not known: not the keyless
		// calls' (d), nor a named key's.
		return d + "\x00blank:" + InstanceOf(op.Workflow)
	case acct == "":
		return "" // a tenant of a large service, which one is not known
	}
	return d + "\x00" + acct
}

// tenantService reports whether a dependency is a service that many
// tenants share: the catalog names it, or it is one's API host.
func tenantService(sp *n8nschema.Spec, d string) bool {
	if sp != nil && sp.Provider != "" && strings.EqualFold(sp.Provider, d) {
		return true
	}
	return apiServices[d]
}

// apiServices are the services apiHosts names, looked up once per
// operation by DependencyIdentity.
var apiServices = func() map[string]bool {
	m := make(map[string]bool, len(apiHosts))
	for _, p := range apiHosts {
		m[p] = true
	}
	return m
}()

// PerKey reports whether a dependency's limits hold per key or account: a
// model provider (per key and organisation) or a call made with a
// credential, blank or not (Credential). Credentials belong to one n8n
// instance (their ids are the instance's), so calls from workflows of two
// instances share no key: only a host of its own, called with no
// credential, is one server whoever calls.
func PerKey(op *Operation) bool {
	if op.Spec == nil {
		return false
	}
	acct, blank := op.Credential()
	return acct != "" || blank || modelService(*op.Spec, strings.ToLower(op.Dependency))
}

// sharing is DependencyIdentity (for an operation with a catalog entry:
// "" for one made by hand without), Credential's account and PerKey, the
// node's credentials read once.
func sharing(op *Operation) (identity, acct string, perKey bool) {
	if op.Spec == nil {
		return "", "", false
	}
	acct, blank := op.Credential()
	d := strings.ToLower(op.Dependency)
	return identityOf(op, d, acct, blank), acct, acct != "" || blank || modelService(*op.Spec, d)
}

// Credential is the tenant the call reaches on a shared service: its
// credential ("notionApi:12"), "" when it has none or the service is a
// model provider, whose limits hold for the service; blank is true when
// the node calls with credentials whose ids are all a template's blanks
// (account): which key is not known. It is read where it is asked, not by
// Build: only DependencyIdentity and PerKey ask, of the operations of a
// workflow with one that SharesDependency (a tenth of them on the corpus),
// and reading a node's credentials is ~2,000 instructions.
func (op *Operation) Credential() (acct string, blank bool) {
	if op.Spec == nil {
		return "", false
	}
	return account(op.Node, *op.Spec, op.Dependency)
}
