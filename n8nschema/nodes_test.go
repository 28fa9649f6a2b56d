package n8nschema

import (
	"slices"
	"strings"
	"testing"
)

func TestDescribeNodeVersions(t *testing.T) {
	for _, c := range []struct {
		typ     string
		v, want float64
		known   bool
	}{
		{"n8n-nodes-base.gmail", 2.1, 2.1, true},
		{"n8n-nodes-base.gmail", 2.15, 2.1, true}, // unlisted: the nearest lower
		{"n8n-nodes-base.gmail", 0, 2.2, true},    // absent: the newest
		{"n8n-nodes-base.gmail", 0.5, 1, true},    // below every version: the oldest
		{"n8n-nodes-base.gmailTool", 2.1, 2.1, true},
		{"n8n-nodes-base.ifTool", 2, 0, false}, // If is not usable as a tool
		{"n8n-nodes-foo.bar", 1, 0, false},
	} {
		d, ok := DescribeNode(c.typ, c.v)
		if ok != c.known || d.Version != c.want || d.Known() != c.known {
			t.Errorf("DescribeNode(%s, %v) = v%v %v, want v%v %v", c.typ, c.v, d.Version, ok, c.want, c.known)
		}
	}
}

func TestNodeFlags(t *testing.T) {
	for _, typ := range []string{"n8n-nodes-base.gmailTrigger", "n8n-nodes-base.googleDriveTrigger",
		"n8n-nodes-base.googleSheetsTrigger", "n8n-nodes-base.microsoftOutlookTrigger", "n8n-nodes-base.notionTrigger",
		"n8n-nodes-base.rssFeedReadTrigger", "n8n-nodes-base.airtableTrigger"} {
		if !IsPollingTrigger(typ) || !IsTriggerNode(typ) {
			t.Errorf("%s: want a polling trigger", typ)
		}
	}
	for _, typ := range []string{"n8n-nodes-base.webhook", "n8n-nodes-base.formTrigger", "n8n-nodes-base.scheduleTrigger",
		"n8n-nodes-base.emailReadImap", "n8n-nodes-base.gmail"} {
		if IsPollingTrigger(typ) {
			t.Errorf("%s: not a polling trigger", typ)
		}
	}
	if !IsWebhookNode("n8n-nodes-base.formTrigger") || !IsWebhookNode("n8n-nodes-base.wait") || IsWebhookNode("n8n-nodes-base.scheduleTrigger") {
		t.Error("webhook flags: want formTrigger and wait, not scheduleTrigger")
	}
	if IsTriggerNode("n8n-nodes-base.gmail") || !IsTriggerNode("n8n-nodes-base.scheduleTrigger") {
		t.Error("trigger flags: want scheduleTrigger, not gmail")
	}
}

func TestNodeOutputs(t *testing.T) {
	for _, c := range []struct {
		typ  string
		v    float64
		want int
	}{
		{"n8n-nodes-base.if", 2.2, 2},
		{"n8n-nodes-base.splitInBatches", 1, 1},
		{"n8n-nodes-base.splitInBatches", 3, 2},
		{"n8n-nodes-base.switch", 3.2, -1},
		{"n8n-nodes-base.compareDatasets", 2.3, 4},
		{"@n8n/n8n-nodes-langchain.lmChatOpenAi", 1.2, 0},
		{"n8n-nodes-base.set", 3.4, 1},
	} {
		d, _ := DescribeNode(c.typ, c.v)
		if got := d.Outputs(); got != c.want {
			t.Errorf("%s v%v: %d outputs, want %d", c.typ, c.v, got, c.want)
		}
	}
}

func TestNodeDefaults(t *testing.T) {
	d, _ := DescribeNode("n8n-nodes-base.microsoftOutlook", 2)
	if d.DefaultResource() != "message" || d.DefaultOperation("message") != "send" {
		t.Errorf("outlook v2 defaults %s.%s, want message.send", d.DefaultResource(), d.DefaultOperation("message"))
	}
	if k, ok := d.Operation("draft", "send"); !ok || k != OpSend {
		t.Errorf("outlook draft.send = %v %v, want send", k, ok)
	}
	if k, ok := d.Operation("message", "getAll"); !ok || k != OpRead {
		t.Errorf("outlook message.getAll = %v %v, want read", k, ok)
	}
	if _, ok := d.Operation("message", "nope"); ok {
		t.Error("an unlisted operation is not known")
	}
	if !slices.Equal(d.Credentials(), []string{"microsoftEntraServicePrincipalApi", "microsoftOAuth2Api", "microsoftOutlookOAuth2Api"}) {
		t.Errorf("outlook credentials %v", d.Credentials())
	}
	for _, c := range []struct {
		typ  string
		v    float64
		want string
	}{
		{"@n8n/n8n-nodes-langchain.lmChatOpenAi", 1.2, "gpt-5-mini"},
		{"@n8n/n8n-nodes-langchain.lmChatOpenAi", 1, "gpt-5-mini"},
		{"@n8n/n8n-nodes-langchain.lmChatAnthropic", 1, "claude-2"},
		{"@n8n/n8n-nodes-langchain.lmChatAnthropic", 1.3, "claude-sonnet-4-5-20250929"},
		{"@n8n/n8n-nodes-langchain.lmChatGoogleGemini", 1, "models/gemini-2.5-flash"},
		{"@n8n/n8n-nodes-langchain.lmChatGoogleVertex", 1, "gemini-2.5-flash"},
	} {
		d, _ := DescribeNode(c.typ, c.v)
		if got := d.DefaultModel(); got != c.want {
			t.Errorf("%s v%v: default model %q, want %q", c.typ, c.v, got, c.want)
		}
	}
}

// TestExecutionTimeoutCapped: n8n runs min(executionTimeout,
// EXECUTIONS_TIMEOUT_MAX) s, 3600 by default (workflow-runner.js L178–180).
func TestExecutionTimeoutCapped(t *testing.T) {
	for _, c := range []struct {
		set  string
		want float64
	}{
		{`1800`, 1800},
		{`3600`, 3600},
		{`7200`, 3600},
		{`-1`, 0},
		{`0`, 0},
	} {
		f := Parse(NewSource("t.json", []byte(`{"nodes":[],"connections":{},"settings":{"executionTimeout":`+c.set+`}}`)))
		w := f.Workflows[0]
		if w.Settings.ExecutionTimeout != c.want {
			t.Errorf("executionTimeout %s: %v s, want %v", c.set, w.Settings.ExecutionTimeout, c.want)
		}
		if got := w.Settings.ExecutionTimeoutValue.Raw(); got != c.set {
			t.Errorf("executionTimeout %s: value %q, want the file's", c.set, got)
		}
	}
}

// TestAuthCredentials: the Slack node requires slackApi for its default
// access-token authentication and slackOAuth2Api for OAuth2; Google Books
// v2 defaults to OAuth2 where v1 defaulted to a service account; Ghost's
// and Storyblok's credentials hang on their source as others' hang on
// their authentication.
func TestAuthCredentials(t *testing.T) {
	for typ, want := range map[string][3]string{
		"n8n-nodes-base.ghost":     {"ghostAdminApi", "adminApi", "contentApi"},
		"n8n-nodes-base.storyblok": {"storyblokManagementApi", "managementApi", "contentApi"},
	} {
		d, _ := DescribeNode(typ, 1)
		got := authMap(d)
		if d.CredentialParam() != "source" || len(got) != 2 || len(got[want[0]]) != 1 || got[want[0]][0] != want[1] || d.DefaultAuthentication() != want[2] {
			t.Errorf("%s: %q %v default %q", typ, d.CredentialParam(), got, d.DefaultAuthentication())
		}
	}
	d, _ := DescribeNode("n8n-nodes-base.slack", 2.3)
	if got := authMap(d); len(got) != 2 || got["slackApi"][0] != "accessToken" || got["slackOAuth2Api"][0] != "oAuth2" || d.DefaultAuthentication() != "accessToken" {
		t.Errorf("slack 2.3: %v default %q", got, d.DefaultAuthentication())
	}
	if got := d.Credentials(); len(got) != 2 || got[0] != "slackApi" || got[1] != "slackOAuth2Api" {
		t.Errorf("slack 2.3 credentials %v", got)
	}
	for v, want := range map[float64]string{1: "serviceAccount", 2: "oAuth2"} {
		if d, _ := DescribeNode("n8n-nodes-base.googleBooks", v); d.DefaultAuthentication() != want {
			t.Errorf("googleBooks v%v default authentication %q, want %q", v, d.DefaultAuthentication(), want)
		}
	}
	if d, _ := DescribeNode("n8n-nodes-base.slack", 2.3); d.CredentialParam() != "authentication" {
		t.Errorf("slack 2.3 credentials hang on %q", d.CredentialParam())
	}
	if a, ok := d.AuthCredentialOf("slackOAuth2Api"); !ok || !a.For("oAuth2") || a.For("accessToken") || a.For("") {
		t.Errorf("slack 2.3 slackOAuth2Api: %v %v", a, ok)
	}
	if _, ok := d.AuthCredentialOf("slack"); ok {
		t.Error("slack 2.3: a credential type named slack")
	}
	if d, _ := DescribeNode("n8n-nodes-base.httpRequest", 4.2); authMap(d) != nil {
		t.Errorf("httpRequest: %v", authMap(d))
	}
}

// authMap is what AuthCredentials yields, as a map of each type's values.
func authMap(d NodeVersion) map[string][]string {
	var m map[string][]string
	for a := range d.AuthCredentials() {
		if m == nil {
			m = map[string][]string{}
		}
		m[a.Type] = strings.Split(a.values, ",")
	}
	return m
}

func TestImportName(t *testing.T) {
	for _, c := range []struct {
		typ, want string
		known     bool
	}{
		{"n8n-nodes-base.function", "Function", true},
		{"n8n-nodes-base.set", "Edit Fields (Set)", true}, // the newest version's display name
		{"n8n-nodes-base.httpRequest", "HTTP Request", true},
		{"n8n-nodes-acme.scraper", "", false}, // a community node names itself
	} {
		if got, ok := ImportName(c.typ); got != c.want || ok != c.known {
			t.Errorf("ImportName(%s) = %q %v, want %q %v", c.typ, got, ok, c.want, c.known)
		}
	}
}

// TestDeclaresParam pins which stored parameters n8n keeps when it loads
// a workflow: those the type declares at the node's version, and any the
// table cannot judge.
func TestDeclaresParam(t *testing.T) {
	for _, c := range []struct {
		typ     string
		version float64
		name    string
		want    bool
	}{
		{"n8n-nodes-base.openAi", 1, "prompt", true},
		{"n8n-nodes-base.openAi", 1, "text", false}, // no such parameter in the text resource of v1
		{"n8n-nodes-base.httpRequest", 4.2, "url", true},
		{"n8n-nodes-base.httpRequest", 4.2, "bodyParametersJson", false}, // a v1 parameter
		{"n8n-nodes-base.httpRequest", 1, "bodyParametersJson", true},
		{"n8n-nodes-base.httpRequest", 9.9, "anything", true},            // a version the table does not list
		{"n8n-nodes-community.thing", 1, "anything", true},               // a type it does not describe
		{"n8n-nodes-base.httpRequestTool", 4.2, "toolDescription", true}, // n8n adds a tool's properties
	} {
		if got := DeclaresParam(c.typ, c.version, c.name); got != c.want {
			t.Errorf("DeclaresParam(%q, %v, %q) = %v, want %v", c.typ, c.version, c.name, got, c.want)
		}
	}
}

// TestMissingVersion: a VersionedNodeType refuses a typeVersion its map
// does not hold from 2.41; a listed version, one only the class knows (the
// Agent's 2.3), a plain class, no typeVersion and 2.8.4 are not judged.
func TestMissingVersion(t *testing.T) {
	v241, v284 := Version{2, 41, 1}, Version{2, 8, 4}
	for _, c := range []struct {
		typ  string
		tv   float64
		ver  Version
		want bool
	}{
		{"n8n-nodes-base.airtable", 4, v241, true},
		{"n8n-nodes-base.airtableTool", 4, v241, true},
		{"n8n-nodes-base.discord", 1.1, v241, true},
		{"n8n-nodes-base.airtable", 2.2, v241, false},
		{"n8n-nodes-base.airtable", 0, v241, false},
		{"n8n-nodes-base.airtable", 4, v284, false},
		{"@n8n/n8n-nodes-langchain.agent", 2.3, v241, false},
		{"n8n-nodes-base.code", 9, v241, false},
	} {
		n := &Node{Type: c.typ, TypeVersion: c.tv}
		if _, got := MissingVersion(n, c.ver); got != c.want {
			t.Errorf("%s v%v on %s: missing %v, want %v", c.typ, c.tv, c.ver, got, c.want)
		}
	}
}
