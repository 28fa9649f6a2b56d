package main

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCommittedTableIsGenerated fails when n8nschema/zz_nodes_generated.go
// is not what the generator makes from the installed n8n. It needs the n8n
// that scripts/e2e-n8n.sh installs; .ci/run also runs `gencatalog -check`
// after that script, where the package is always there.
func TestCommittedTableIsGenerated(t *testing.T) {
	dir := defaultModules()
	if _, err := os.Stat(filepath.Join(dir, "n8n-nodes-base", "dist", "types", "nodes.json")); err != nil {
		t.Skipf("n8n %s is not installed in %s (scripts/e2e-n8n.sh installs it): %v", n8nVersion, dir, err)
	}
	got, err := Generate(dir)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("..", "..", out))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs from what the generator makes from %s: run go run ./scripts/gencatalog", out, dir)
	}
}

func TestShown(t *testing.T) {
	gte := func(v float64) any { return map[string]any{"_cnd": map[string]any{"gte": v}} }
	params := map[string]any{"resource": "message", "tags": []any{}, "mode": "=expr"}
	for _, c := range []struct {
		name string
		do   *displayOptions
		v    float64
		want bool
	}{
		{"no options", nil, 1, true},
		{"show matches", &displayOptions{Show: map[string][]any{"resource": {"draft", "message"}}}, 1, true},
		{"show misses", &displayOptions{Show: map[string][]any{"resource": {"draft"}}}, 1, false},
		{"absent parameter hides", &displayOptions{Show: map[string][]any{"operation": {"send"}}}, 1, false},
		{"empty list hides", &displayOptions{Show: map[string][]any{"tags": {gte(0)}}}, 1, false},
		{"expression shows", &displayOptions{Show: map[string][]any{"mode": {"list"}}}, 1, true},
		{"version condition", &displayOptions{Show: map[string][]any{"@version": {gte(2)}}}, 2.1, true},
		{"version condition misses", &displayOptions{Show: map[string][]any{"@version": {gte(2)}}}, 1, false},
		{"version list", &displayOptions{Show: map[string][]any{"@version": {1.0}}}, 1, true},
		{"hide matches", &displayOptions{Hide: map[string][]any{"@version": {1.0}}}, 1, false},
		{"hide misses", &displayOptions{Hide: map[string][]any{"@version": {1.0}}}, 2, true},
	} {
		if got := shown(c.do, c.v, params); got != c.want {
			t.Errorf("%s: shown = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestKind(t *testing.T) {
	for _, c := range []struct{ node, value, action, want string }{
		{"gmail", "send", "Send a message", kindSend},
		{"slack", "post", "Send a message", kindSend},
		{"googleDrive", "upload", "Upload a file", kindCreate},
		{"hubspot", "upsert", "Create or update a contact", kindUpdate},
		{"gmail", "addLabels", "Add label to message", kindUpdate},
		{"notion", "archive", "Archive a page", kindUpdate},
		{"gmail", "delete", "Delete a message", kindDelete},
		{"postgres", "executeQuery", "Execute a SQL query", kindExecute},
		{"mongoDb", "findOneAndUpdate", "Find and update documents", kindUpdate},
		{"mongoDb", "findOneAndReplace", "Find and replace documents", kindUpdate},
		{"gmail", "getAll", "Get many messages", ""},
		{"redis", "incr", "Atomically increment a key by 1. Creates the key if it does not exist.", kindCreate},
		{"sms77", "send", "Convert text to voice", kindSend},
		{"openAi", "complete", "Create a Completion", ""},
		{"bannerbear", "create", "Create an image", kindCreate},
		{"microsoftOutlook", "getAll", "", ""},
		{"n8n", "activate", "Publish a workflow", kindUpdate},
		{"awsSns", "publish", "Publish a message to a topic", kindSend},
	} {
		if got := kind(c.node, c.value, c.action, ""); got != c.want {
			t.Errorf("%s %s (%q): kind %q, want %q", c.node, c.value, c.action, got, c.want)
		}
	}
}

func TestCredentials(t *testing.T) {
	type cred = struct {
		Name           string          `json:"name"`
		Required       bool            `json:"required"`
		DisplayOptions *displayOptions `json:"displayOptions"`
	}
	on := func(key string, vals ...any) *displayOptions {
		return &displayOptions{Show: map[string][]any{key: vals}}
	}
	auth := func(vals ...any) *displayOptions { return on("authentication", vals...) }
	for _, c := range []struct {
		name             string
		creds            []cred
		base             map[string]any
		want, gate, auth string
	}{
		{"slack", []cred{{"slackApi", true, auth("accessToken")}, {"slackOAuth2Api", true, auth("oAuth2")}},
			map[string]any{"authentication": "accessToken"}, "slackApi:accessToken slackOAuth2Api:oAuth2", "authentication", "accessToken"},
		{"several values", []cred{{"b", true, auth("x", "y")}, {"a", true, nil}},
			map[string]any{"authentication": "y"}, "a b:x,y", "authentication", "y"},
		{"not required", []cred{{"a", false, auth("x")}}, map[string]any{"authentication": "x"}, "a?", "", ""},
		{"another key decides too", []cred{{"a", true, &displayOptions{Show: map[string][]any{"authentication": {"x"}, "resource": {"r"}}}}},
			map[string]any{"authentication": "x"}, "a?", "", ""},
		// Ghost: the source parameter decides as authentication does.
		{"source", []cred{{"ghostAdminApi", true, on("source", "adminApi")}, {"ghostContentApi", true, on("source", "contentApi")}},
			map[string]any{"source": "contentApi"}, "ghostAdminApi:adminApi ghostContentApi:contentApi", "source", "contentApi"},
		// The Wait node's incomingAuthentication is not shown at the
		// defaults: no default.
		{"gate not shown", []cred{{"httpBasicAuth", true, on("incomingAuthentication", "basicAuth")}},
			map[string]any{"resume": "timeInterval"}, "httpBasicAuth:basicAuth", "incomingAuthentication", ""},
		// The Pipedrive Trigger: authentication and the webhook's own
		// incomingAuthentication; the table holds authentication.
		{"two gates", []cred{{"pipedriveApi", true, auth("apiToken")}, {"pipedriveOAuth2Api", true, auth("oAuth2")}, {"httpBasicAuth", true, on("incomingAuthentication", "basicAuth")}},
			map[string]any{"authentication": "apiToken", "incomingAuthentication": "none"}, "httpBasicAuth? pipedriveApi:apiToken pipedriveOAuth2Api:oAuth2", "authentication", "apiToken"},
		{"shown for several parameters", []cred{{"mySql", true, &displayOptions{Show: map[string][]any{"agent": {"sqlAgent"}, "/dataSource": {"mysql"}}}}},
			map[string]any{}, "mySql?", "", ""},
		{"a boolean gate", []cred{{"httpSslAuth", true, on("provideSslCertificates", true)}}, map[string]any{}, "httpSslAuth?", "", ""},
		{"an empty condition", []cred{{"sendInBlueApi", true, &displayOptions{Show: map[string][]any{}}}}, map[string]any{}, "sendInBlueApi", "", ""},
		{"shown unconditionally elsewhere", []cred{{"a", true, auth("x")}, {"a", true, nil}}, map[string]any{"authentication": "x"}, "a", "", ""},
		{"no credentials", nil, map[string]any{}, "", "", ""},
	} {
		d := description{Name: c.name, Credentials: c.creds}
		got, gate, a, err := d.credentials(c.base)
		if err != nil || got != c.want || gate != c.gate || a != c.auth {
			t.Errorf("%s: credentials %q gate %q auth %q (%v), want %q %q %q", c.name, got, gate, a, err, c.want, c.gate, c.auth)
		}
	}
	two := description{Name: "x", Credentials: []cred{{"a", true, on("source", "s")}, {"b", true, on("resource", "r")}}}
	if _, _, _, err := two.credentials(map[string]any{}); err == nil {
		t.Error("credentials hung on two parameters other than authentication: no error")
	}
}

func TestOldDefaults(t *testing.T) {
	v := func(f float64) *float64 { return &f }
	descs := []description{
		{Name: "kafka", Version: []byte(`1`), DefaultVersion: v(1)},
		{Name: "kafka", Version: []byte(`2`), DefaultVersion: v(1)},
		{Name: "loop", Version: []byte(`3`)},
		{Name: "loop", Version: []byte(`2`)},
		{Name: "agent", Version: []byte(`[2, 2.1]`), DefaultVersion: v(2.1)},
		{Name: "agent", Version: []byte(`[1, 1.9]`), DefaultVersion: v(2.1)},
		{Name: "plain", Version: []byte(`[1, 1.1]`), DefaultVersion: v(1)},
	}
	got, err := oldDefaults(descs)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"kafka": 1, "plain": 1}
	if !maps.Equal(got, want) {
		t.Errorf("oldDefaults = %v, want %v", got, want)
	}
}

func TestOperationsGated(t *testing.T) {
	show := func(kv ...any) *displayOptions {
		m := map[string][]any{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1].([]any)
		}
		return &displayOptions{Show: m}
	}
	opts := func(vals ...string) []option {
		var out []option
		for _, v := range vals {
			out = append(out, option{Name: v, Value: v, Action: v + " a post"})
		}
		return out
	}
	// Ghost v1 (nodes/Ghost/Ghost.node.ts): the admin API's operations
	// show only for source adminApi.
	ghost := description{Name: "ghost", Properties: []property{
		{Name: "source", Type: "options", Default: "contentApi", Options: opts("adminApi", "contentApi")},
		{Name: "resource", Type: "options", Default: "post", Options: opts("post")},
		{Name: "operation", Type: "options", Default: "get", Options: opts("get", "getAll"),
			DisplayOptions: show("source", []any{"contentApi"}, "resource", []any{"post"})},
		{Name: "operation", Type: "options", Default: "get", Options: opts("create", "delete", "get", "getAll", "update"),
			DisplayOptions: show("source", []any{"adminApi"}, "resource", []any{"post"})},
	}}
	// Discord v2: webhook authentication hides the resource and shows one
	// operation of its own.
	discord := description{Name: "discord", Properties: []property{
		{Name: "authentication", Type: "options", Default: "botToken", Options: opts("botToken", "webhook")},
		{Name: "resource", Type: "options", Default: "message", Options: opts("message"),
			DisplayOptions: &displayOptions{Hide: map[string][]any{"authentication": {"webhook"}}}},
		{Name: "operation", Type: "options", Default: "send", Options: opts("send", "get"),
			DisplayOptions: show("resource", []any{"message"}, "authentication", []any{"botToken"})},
		{Name: "operation", Type: "options", Default: "sendLegacy", Options: opts("sendLegacy"),
			DisplayOptions: show("authentication", []any{"webhook"})},
	}}
	// A gate whose own parameter is shown only at a version: below it, the
	// gated operations are no configuration's.
	versioned := description{Name: "versioned", Properties: []property{
		{Name: "source", Type: "options", Default: "a", Options: opts("a", "b"),
			DisplayOptions: show("@version", []any{map[string]any{"_cnd": map[string]any{"gte": 2.0}}})},
		{Name: "operation", Type: "options", Default: "get", Options: opts("get", "create"),
			DisplayOptions: show("source", []any{"b"})},
		{Name: "operation", Type: "options", Default: "get", Options: opts("get"),
			DisplayOptions: &displayOptions{Hide: map[string][]any{"source": {"b"}}}},
	}}
	for _, c := range []struct {
		d    description
		v    float64
		want []resOps
	}{
		{ghost, 1, []resOps{{"post", "get", "get getAll create:c delete:d update:u"}}},
		{discord, 2, []resOps{{"message", "send", "send:s get"}, {"", "sendLegacy", "sendLegacy:s"}}},
		{versioned, 1, []resOps{{"", "get", "get"}}},
		{versioned, 2, []resOps{{"", "get", "get create:c"}}},
	} {
		got, err := c.d.operations(c.v)
		if err != nil {
			t.Fatalf("%s v%v: %v", c.d.Name, c.v, err)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s v%v: operations %v, want %v", c.d.Name, c.v, got, c.want)
		}
	}
}

// TestGatedOperationsOfInstalledN8n reads the installed n8n's own node
// descriptions and fails when an operation that n8n shows only for another
// parameter's value, or lists through a loadOptions method, is missing.
func TestGatedOperationsOfInstalledN8n(t *testing.T) {
	dir := defaultModules()
	b, err := os.ReadFile(filepath.Join(dir, "n8n-nodes-base", "dist", "types", "nodes.json"))
	if err != nil {
		t.Skipf("n8n %s is not installed in %s (scripts/e2e-n8n.sh installs it): %v", n8nVersion, dir, err)
	}
	var descs []description
	if err := json.Unmarshal(b, &descs); err != nil {
		t.Fatal(err)
	}
	if err := loadOptions(dir, "n8n-nodes-base", descs); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		node     string
		v        float64
		resource string
		ops      []string // each must be listed, with its kind
	}{
		{"ghost", 1, "post", []string{"get", "getAll", "create:c", "delete:d", "update:u"}},            // source: adminApi
		{"storyblok", 1, "story", []string{"get", "getAll", "delete:d", "publish:u", "unpublish:u"}},   // source: managementApi
		{"theHive", 1, "alert", []string{"create:c", "count", "markAsRead:u", "promote:u", "merge:u"}}, // loadAlertOptions
		{"theHive", 1, "case", []string{"create:c", "getAll", "update:u", "executeResponder:x"}},       // loadCaseOptions
		{"theHive", 1, "observable", []string{"create:c", "executeAnalyzer:x", "search", "update:u"}},  // loadObservableOptions
		{"theHive", 1, "task", []string{"create:c", "search", "update:u"}},                             // loadTaskOptions
		{"theHive", 1, "log", []string{"create:c", "getAll"}},                                          // in the description
		{"discord", 2, "", []string{"sendLegacy:s"}},                                                   // authentication: webhook
		{"discord", 2, "message", []string{"send:s", "sendAndWait:s"}},                                 // authentication: botToken
		{"microsoftTeams", 2, "chatMessage", []string{"create:c", "sendAndWait:s"}},                    // hidden for a service principal only
		{"gmail", 2.1, "message", []string{"send:s", "reply:s", "sendAndWait:s"}},                      // no gate
		{"slack", 2.3, "message", []string{"post:s", "sendAndWait:s", "update:u", "delete:d"}},         // no gate
		{"googleSheets", 4.7, "sheet", []string{"append:c", "appendOrUpdate:u", "read", "update:u"}},   // no gate
	} {
		i := slices.IndexFunc(descs, func(d description) bool {
			vs, _ := d.versions()
			return d.Name == c.node && slices.Contains(vs, c.v)
		})
		if i < 0 {
			t.Errorf("%s v%v: not in nodes.json", c.node, c.v)
			continue
		}
		rows, err := descs[i].operations(c.v)
		if err != nil {
			t.Fatalf("%s v%v: %v", c.node, c.v, err)
		}
		j := slices.IndexFunc(rows, func(r resOps) bool { return r.resource == c.resource })
		if j < 0 {
			t.Errorf("%s v%v: resource %q missing from %v", c.node, c.v, c.resource, rows)
			continue
		}
		have := strings.Fields(rows[j].ops)
		for _, op := range c.ops {
			if !slices.Contains(have, op) {
				t.Errorf("%s v%v %s: operation %q missing from %q", c.node, c.v, c.resource, op, rows[j].ops)
			}
		}
	}
}

// TestRequired pins which parameters are judged when empty: required, one
// string-like value or a resource locator ("~"), shown always, by
// @version, or by conditions the table can read from the node's values
// (resource, operation, another options parameter shown with them),
// written with them; a name another property holds counts alone only
// when the two are never shown together, else only a stored empty value
// ("+"); a multiOptions ("*"), missing when its list is empty, counts
// absent only when its default is [] (else "+").
func TestRequired(t *testing.T) {
	var d description
	if err := json.Unmarshal([]byte(`{"name": "x", "version": [1, 2], "properties": [
	  {"name": "resource", "type": "options", "default": "sheet", "options": [{"value": "sheet"}, {"value": "file"}, {"value": "spreadsheet"}]},
	  {"name": "operation", "type": "options", "default": "append", "options": [{"value": "append"}, {"value": "delete"}, {"value": "send"}, {"value": "get"}]},
	  {"name": "to", "type": "options", "default": "", "required": true, "displayOptions": {"show": {"operation": ["send"]}}, "options": [{"value": "user"}, {"value": "channel"}]},
	  {"name": "url", "type": "string", "default": "", "required": true},
	  {"name": "method", "type": "options", "default": "GET", "required": true},
	  {"name": "since", "type": "dateTime", "default": "", "required": true, "displayOptions": {"show": {"@version": [2]}}},
	  {"name": "text", "type": "string", "default": "", "required": true, "displayOptions": {"show": {"operation": ["send"]}}},
	  {"name": "channel", "type": "string", "default": "", "required": true, "displayOptions": {"show": {"operation": ["send"], "to": ["channel"]}}},
	  {"name": "flagged", "type": "string", "default": "", "required": true, "displayOptions": {"show": {"operation": ["send"], "urgent": [true]}}},
	  {"name": "tags", "type": "string", "default": "", "required": true, "typeOptions": {"multipleValues": true}},
	  {"name": "count", "type": "number", "default": 1, "required": true},
	  {"name": "table", "type": "string", "default": "", "required": true},
	  {"name": "table", "type": "string", "default": "", "displayOptions": {"show": {"operation": ["get"]}}},
	  {"name": "note", "type": "string", "default": ""},
	  {"name": "base", "type": "resourceLocator", "default": {"mode": "list", "value": ""}, "required": true},
	  {"name": "model", "type": "resourceLocator", "default": {"mode": "list", "value": "gpt-4o"}, "required": true},
	  {"name": "doc", "type": "resourceLocator", "default": {"mode": "list", "value": ""}, "required": true, "displayOptions": {"show": {"resource": ["sheet", "file"]}}},
	  {"name": "doc", "type": "resourceLocator", "default": {"mode": "list", "value": ""}, "required": true, "displayOptions": {"show": {"resource": ["spreadsheet"], "operation": ["delete"]}}},
	  {"name": "sheet", "type": "resourceLocator", "default": {"mode": "list", "value": ""}, "required": true, "displayOptions": {"show": {"resource": ["sheet"], "operation": ["append"]}}},
	  {"name": "sheet", "type": "string", "default": "", "displayOptions": {"show": {"resource": ["file"]}}},
	  {"name": "cell", "type": "string", "default": "", "required": true, "displayOptions": {"show": {"resource": ["sheet"], "@version": [2]}, "hide": {"@version": [1], "operation": ["delete"]}}},
	  {"name": "labels", "type": "multiOptions", "default": [], "required": true, "displayOptions": {"show": {"operation": ["send"]}}, "options": [{"value": "a"}, {"value": "b"}]},
	  {"name": "scopes", "type": "multiOptions", "default": ["read"], "required": true, "options": [{"value": "read"}, {"value": "write"}]},
	  {"name": "extras", "type": "multiOptions", "default": [], "options": [{"value": "a"}]}
	]}`), &d); err != nil {
		t.Fatal(err)
	}
	for v, want := range map[float64]string{
		1: "to:operation=send url +method text:operation=send channel:operation=send;to()=channel ~base +~model " +
			"~doc:resource=sheet,file ~doc:resource=spreadsheet;operation=delete ~sheet:resource=sheet;operation=append *labels:operation=send +*scopes",
		2: "to:operation=send url +method since text:operation=send channel:operation=send;to()=channel ~base +~model " +
			"~doc:resource=sheet,file ~doc:resource=spreadsheet;operation=delete ~sheet:resource=sheet;operation=append cell:resource=sheet;operation!delete *labels:operation=send +*scopes",
	} {
		if got := d.required(v); got != want {
			t.Errorf("required(%v) =\n%q, want\n%q", v, got, want)
		}
	}
}

func TestHideable(t *testing.T) {
	var d description
	if err := json.Unmarshal([]byte(`{"name": "x", "version": [1, 2], "properties": [
	  {"name": "resource", "type": "options", "default": "text", "options": [{"value": "text"}, {"value": "chat"}, {"value": "image"}]},
	  {"name": "operation", "type": "options", "default": "complete", "options": [{"value": "complete"}, {"value": "edit"}]},
	  {"name": "format", "type": "options", "default": "html", "options": [{"value": "text"}, {"value": "html"}]},
	  {"name": "url", "type": "string", "default": ""},
	  {"name": "prompt", "type": "string", "default": "", "displayOptions": {"show": {"resource": ["text"], "operation": ["complete"]}}},
	  {"name": "prompt", "type": "fixedCollection", "default": {}, "displayOptions": {"show": {"resource": ["chat"]}}},
	  {"name": "body", "type": "string", "default": "", "displayOptions": {"show": {"format": ["text"]}}},
	  {"name": "count", "type": "number", "default": 1, "displayOptions": {"show": {"resource": ["image"]}}},
	  {"name": "note", "type": "string", "default": "", "displayOptions": {"show": {"resource": ["image"]}}},
	  {"name": "note", "type": "string", "default": ""},
	  {"name": "flagged", "type": "string", "default": "", "displayOptions": {"show": {"urgent": [true]}}},
	  {"name": "later", "type": "string", "default": "", "displayOptions": {"show": {"@version": [2], "resource": ["chat"]}}}
	]}`), &d); err != nil {
		t.Fatal(err)
	}
	for v, want := range map[float64]string{
		1: "prompt:resource=text;operation=complete|resource=chat body:format(html)=text",
		2: "prompt:resource=text;operation=complete|resource=chat body:format(html)=text later:resource=chat",
	} {
		if got := d.hideable(v); got != want {
			t.Errorf("hideable(%v) =\n%q, want\n%q", v, got, want)
		}
	}
}
