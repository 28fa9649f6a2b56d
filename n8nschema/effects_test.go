package n8nschema

import (
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// node parses one node object (JSON) inside a minimal workflow.
func node(t *testing.T, js string) *Node {
	t.Helper()
	f := Parse(NewSource("t.json", []byte(`{"nodes":[`+js+`],"connections":{}}`)))
	if len(f.Workflows) != 1 || len(f.Workflows[0].Nodes) != 1 {
		t.Fatalf("bad test node %s: %+v", js, f.Problems)
	}
	return f.Workflows[0].Nodes[0]
}

func TestWriteOp(t *testing.T) {
	tests := []struct {
		name, node string
		write      bool
		op         string
		conf       Confidence
	}{
		{"http default GET", `{"name":"a","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://x"}}`, false, "GET", ConfHigh},
		{"http POST", `{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"method":"POST"}}`, true, "POST", ConfHigh},
		{"http expression =PUT", `{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"method":"=PUT"}}`, true, "PUT", ConfHigh},
		{"http expression braces", `{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"method":"={{ 'patch' }}"}}`, true, "PATCH", ConfHigh},
		{"http v1 requestMethod", `{"name":"a","type":"n8n-nodes-base.httpRequest","typeVersion":1,"parameters":{"requestMethod":"POST"}}`, true, "POST", ConfHigh},
		{"http tool", `{"name":"a","type":"n8n-nodes-base.httpRequestTool","parameters":{"method":"DELETE"}}`, true, "DELETE", ConfHigh},
		// v1 and v2 read requestMethod, v3 on and the LangChain tool read method;
		// n8n drops the other name, so it sends the default GET.
		{"http v1 stores v3's method", `{"name":"a","type":"n8n-nodes-base.httpRequest","typeVersion":1,"parameters":{"method":"POST"}}`, false, "GET", ConfHigh},
		{"http v2 stores v3's method", `{"name":"a","type":"n8n-nodes-base.httpRequest","typeVersion":2,"parameters":{"method":"PUT","url":"https://x"}}`, false, "GET", ConfHigh},
		{"http v2 requestMethod over method", `{"name":"a","type":"n8n-nodes-base.httpRequest","typeVersion":2,"parameters":{"method":"GET","requestMethod":"DELETE"}}`, true, "DELETE", ConfHigh},
		{"http v4 stores v1's requestMethod", `{"name":"a","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"requestMethod":"POST"}}`, false, "GET", ConfHigh},
		{"http no typeVersion runs the default 4.5", `{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"method":"POST"}}`, true, "POST", ConfHigh},
		{"http tool v4 reads method", `{"name":"a","type":"n8n-nodes-base.httpRequestTool","typeVersion":4.2,"parameters":{"method":"PATCH"}}`, true, "PATCH", ConfHigh},
		{"langchain http tool v1.1 reads method", `{"name":"a","type":"@n8n/n8n-nodes-langchain.toolHttpRequest","typeVersion":1.1,"parameters":{"method":"POST"}}`, true, "POST", ConfHigh},
		{"langchain http tool v1 ignores requestMethod", `{"name":"a","type":"@n8n/n8n-nodes-langchain.toolHttpRequest","typeVersion":1,"parameters":{"requestMethod":"POST"}}`, false, "GET", ConfHigh},
		{"slack default post", `{"name":"a","type":"n8n-nodes-base.slack","typeVersion":2.2,"parameters":{"text":"hi"}}`, true, "message.post", ConfMedium},
		{"slack search", `{"name":"a","type":"n8n-nodes-base.slack","parameters":{"operation":"search"}}`, false, "message.search", ConfHigh},
		{"slack tool update", `{"name":"a","type":"n8n-nodes-base.slackTool","parameters":{"operation":"update"}}`, true, "message.update", ConfHigh},
		{"gmail default send", `{"name":"a","type":"n8n-nodes-base.gmail","typeVersion":2.1,"parameters":{"sendTo":"x"}}`, true, "message.send", ConfMedium},
		{"gmail getAll", `{"name":"a","type":"n8n-nodes-base.gmail","parameters":{"operation":"getAll"}}`, false, "message.getAll", ConfHigh},
		{"gmail addLabels", `{"name":"a","type":"n8n-nodes-base.gmail","parameters":{"operation":"addLabels"}}`, true, "message.addLabels", ConfHigh},
		{"smtp v1 always sends", `{"name":"a","type":"n8n-nodes-base.emailSend","typeVersion":1,"parameters":{}}`, true, "send", ConfHigh},
		{"smtp v2 default send", `{"name":"a","type":"n8n-nodes-base.emailSend","typeVersion":2.1,"parameters":{}}`, true, "email.send", ConfMedium},
		{"mailgun always sends", `{"name":"a","type":"n8n-nodes-base.mailgun","typeVersion":1,"parameters":{}}`, true, "send", ConfHigh},
		// A broker send publishes again on a retry (Kafka, AMQP, MQTT have no operation).
		{"kafka always sends", `{"name":"a","type":"n8n-nodes-base.kafka","typeVersion":1,"parameters":{"topic":"t"}}`, true, "send", ConfHigh},
		{"amqp always sends", `{"name":"a","type":"n8n-nodes-base.amqp","typeVersion":1,"parameters":{"sink":"q"}}`, true, "send", ConfHigh},
		{"mqtt always publishes", `{"name":"a","type":"n8n-nodes-base.mqtt","typeVersion":1,"parameters":{"topic":"t"}}`, true, "publish", ConfHigh},
		{"rabbitmq default send", `{"name":"a","type":"n8n-nodes-base.rabbitmq","typeVersion":1.1,"parameters":{"queue":"q"}}`, true, "sendMessage", ConfMedium},
		{"sheets default read", `{"name":"a","type":"n8n-nodes-base.googleSheets","typeVersion":4.5,"parameters":{}}`, false, "sheet.read", ConfMedium},
		{"sheets append", `{"name":"a","type":"n8n-nodes-base.googleSheets","parameters":{"operation":"append"}}`, true, "sheet.append", ConfHigh},
		{"sheets appendOrUpdate", `{"name":"a","type":"n8n-nodes-base.googleSheets","parameters":{"operation":"appendOrUpdate"}}`, true, "sheet.appendOrUpdate", ConfHigh},
		{"airtable v1 default read", `{"name":"a","type":"n8n-nodes-base.airtable","typeVersion":1,"parameters":{}}`, false, "read", ConfMedium},
		{"airtable v1 append", `{"name":"a","type":"n8n-nodes-base.airtable","typeVersion":1,"parameters":{"operation":"append"}}`, true, "append", ConfHigh},
		{"airtable v2 default get", `{"name":"a","type":"n8n-nodes-base.airtable","typeVersion":2.1,"parameters":{}}`, false, "record.get", ConfMedium},
		{"airtable create", `{"name":"a","type":"n8n-nodes-base.airtable","parameters":{"operation":"create"}}`, true, "record.create", ConfHigh},
		// Defaults per version from the generated node table.
		{"outlook v2 default send", `{"name":"a","type":"n8n-nodes-base.microsoftOutlook","typeVersion":2,"parameters":{"toRecipients":"x"}}`, true, "message.send", ConfMedium},
		{"drive v3 default upload", `{"name":"a","type":"n8n-nodes-base.googleDrive","typeVersion":3,"parameters":{}}`, true, "file.upload", ConfMedium},
		{"gmail draft default create", `{"name":"a","type":"n8n-nodes-base.gmail","typeVersion":2.1,"parameters":{"resource":"draft"}}`, true, "draft.create", ConfMedium},
		{"notion v2 default create", `{"name":"a","type":"n8n-nodes-base.notion","typeVersion":2.2,"parameters":{}}`, true, "page.create", ConfMedium},
		{"notion v2 page archive", `{"name":"a","type":"n8n-nodes-base.notion","typeVersion":2.2,"parameters":{"operation":"archive"}}`, true, "page.archive", ConfHigh},
		{"discord v2 default channel create", `{"name":"a","type":"n8n-nodes-base.discord","typeVersion":2,"parameters":{}}`, true, "channel.create", ConfMedium},
		{"not in the hand catalog", `{"name":"a","type":"n8n-nodes-base.actionNetwork","typeVersion":1,"parameters":{}}`, true, "attendance.create", ConfMedium},
		{"internal node with operations", `{"name":"a","type":"n8n-nodes-base.dateTime","typeVersion":2,"parameters":{"operation":"addToDate"}}`, false, "", 0},
		{"unlisted operation by its verb", `{"name":"a","type":"n8n-nodes-base.slack","typeVersion":2.2,"parameters":{"operation":"createWidget"}}`, true, "message.createWidget", ConfHigh},
		{"postgres default insert", `{"name":"a","type":"n8n-nodes-base.postgres","typeVersion":2.5,"parameters":{}}`, true, "database.insert", ConfMedium},
		{"postgres select query", `{"name":"a","type":"n8n-nodes-base.postgres","parameters":{"operation":"executeQuery","query":"select * from t"}}`, false, "database.executeQuery", ConfMedium},
		{"postgres insert query", `{"name":"a","type":"n8n-nodes-base.postgres","parameters":{"operation":"executeQuery","query":"=INSERT INTO t VALUES (1)"}}`, true, "database.executeQuery", ConfMedium},
		{"mysql upsert", `{"name":"a","type":"n8n-nodes-base.mySql","parameters":{"operation":"upsert"}}`, true, "database.upsert", ConfHigh},
		{"stripe default balance", `{"name":"a","type":"n8n-nodes-base.stripe","parameters":{}}`, false, "balance.get", ConfMedium},
		{"stripe charge create", `{"name":"a","type":"n8n-nodes-base.stripe","parameters":{"resource":"charge","operation":"create"}}`, true, "charge.create", ConfHigh},
		{"hubspot default upsert", `{"name":"a","type":"n8n-nodes-base.hubspot","typeVersion":2,"parameters":{}}`, true, "contact.upsert", ConfMedium},
		{"hubspot deal get", `{"name":"a","type":"n8n-nodes-base.hubspot","parameters":{"resource":"deal","operation":"get"}}`, false, "deal.get", ConfHigh},
		{"telegram sendPhoto", `{"name":"a","type":"n8n-nodes-base.telegram","parameters":{"operation":"sendPhoto"}}`, true, "message.sendPhoto", ConfHigh},
		{"github createComment", `{"name":"a","type":"n8n-nodes-base.github","parameters":{"resource":"issue","operation":"createComment"}}`, true, "issue.createComment", ConfHigh},
		{"internal set", `{"name":"a","type":"n8n-nodes-base.set","parameters":{"operation":"update"}}`, false, "", 0},
		{"unknown community", `{"name":"a","type":"n8n-nodes-foo.bar","parameters":{"operation":"create"}}`, false, "", 0},
		// A community node's operation that runs a job and answers with its
		// output is a read; its other operations stay unknown.
		{"apify run actor and get dataset", `{"name":"a","type":"@apify/n8n-nodes-apify.apify","typeVersion":1,"parameters":{"operation":"Run actor and get dataset"}}`, false, "Run actor and get dataset", ConfMedium},
		{"apify run task and get dataset", `{"name":"a","type":"@apify/n8n-nodes-apify.apify","typeVersion":1,"parameters":{"resource":"Actor tasks","operation":"Run task and get dataset"}}`, false, "Actor tasks.Run task and get dataset", ConfMedium},
		{"apify run actor", `{"name":"a","type":"@apify/n8n-nodes-apify.apify","typeVersion":1,"parameters":{"operation":"Run actor"}}`, false, "", 0},
		{"community runSync", `{"name":"a","type":"n8n-nodes-foo.bar","parameters":{"operation":"runSync"}}`, false, "runSync", ConfMedium},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, op, conf := WriteOpConf(node(t, tt.node))
			if w != tt.write || op != tt.op || conf != tt.conf {
				t.Errorf("WriteOpConf = %v, %q, %v; want %v, %q, %v", w, op, conf, tt.write, tt.op, tt.conf)
			}
		})
	}
}

// TestRunsAndAnswers: an operation that runs a job and answers with its
// output, not one that only starts it.
func TestRunsAndAnswers(t *testing.T) {
	for op, want := range map[string]bool{
		"Run actor and get dataset": true, "Run task and get dataset": true, "runSync": true, "run-sync": true,
		"runSyncGetDatasetItems": true, "Run actor": false, "Run task": false, "run": false, "Get last run": false,
		"runGet": false, "createRun": false, "": false, "Scrape single URL": false,
	} {
		if got := RunsAndAnswers(op); got != want {
			t.Errorf("RunsAndAnswers(%q) = %v, want %v", op, got, want)
		}
	}
}

// TestVerbKind covers operations the generated table does not list (an
// expression, a newer version): they are classified by their leading verb.
func TestVerbKind(t *testing.T) {
	for op, want := range map[string]OpKind{
		"create": OpCreate, "createFromText": OpCreate, "sendAndWait": OpCreate, "append": OpCreate,
		"addLabels": OpUpdate, "upsert": OpUpdate, "appendOrUpdate": OpUpdate, "update": OpUpdate, "archive": OpUpdate,
		"deleteRecord": OpDelete, "remove": OpDelete,
		"get": OpRead, "getAll": OpRead, "search": OpRead, "read": OpRead, "settings": OpRead, "additional": OpRead,
		"download": OpRead, "select": OpRead, "lookup": OpRead,
	} {
		if got := verbKind(op); got != want {
			t.Errorf("verbKind(%q) = %v, want %v", op, got, want)
		}
	}
}

func TestIdempotencyKeyOf(t *testing.T) {
	tests := []struct {
		name, node string
		ok         bool
		key, value string
	}{
		{"header pair", `{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"method":"POST","sendHeaders":true,"headerParameters":{"parameters":[{"name":"Authorization","value":"Bearer x"},{"name":"Idempotency-Key","value":"={{ $json.order_id }}"}]}}}`, true, "Idempotency-Key", "={{ $json.order_id }}"},
		{"header lower case", `{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"headerParameters":{"parameters":[{"name":"x-idempotency-key","value":"={{ $now }}"}]}}}`, true, "X-Idempotency-Key", "={{ $now }}"},
		{"paypal", `{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"headerParameters":{"parameters":[{"name":"PayPal-Request-Id","value":"={{ $json.id }}"}]}}}`, true, "PayPal-Request-Id", "={{ $json.id }}"},
		{"json headers", `{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"specifyHeaders":"json","jsonHeaders":"{\"Idempotency-Key\": \"{{ $json.sku }}\"}"}}`, true, "Idempotency-Key", "{{ $json.sku }}"},
		{"query pair", `{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"queryParameters":{"parameters":[{"name":"idempotency_key","value":"={{ $json.id }}"}]}}}`, true, "idempotency_key", "={{ $json.id }}"},
		{"json body square", `{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"jsonBody":"={\"idempotency_key\": \"{{ $json.id }}\", \"amount\": 5}"}}`, true, "idempotency_key", "{{ $json.id }}"},
		{"v1 headerParametersUi", `{"name":"a","type":"n8n-nodes-base.httpRequest","typeVersion":1,"parameters":{"headerParametersUi":{"parameter":[{"name":"Idempotency-Key","value":"k"}]}}}`, true, "Idempotency-Key", "k"},
		{"x-request-id is tracing", `{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"headerParameters":{"parameters":[{"name":"X-Request-Id","value":"={{ $json.id }}"}]}}}`, false, "", ""},
		{"none", `{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"method":"POST"}}`, false, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, ok := IdempotencyKeyOf(node(t, tt.node))
			if ok != tt.ok || k.Name.Name != tt.key || k.Value != tt.value {
				t.Errorf("IdempotencyKeyOf = %q %q %v; want %q %q %v", k.Name.Name, k.Value, ok, tt.key, tt.value, tt.ok)
			}
			if ok && !k.Pos.IsValid() {
				t.Errorf("key position is not valid: %+v", k.Pos)
			}
		})
	}
}

func TestClassifyKey(t *testing.T) {
	tests := []struct {
		value string
		want  KeyStability
		why   string
	}{
		{"={{ $json.order_id }}", KeyStable, ""},
		{"={{ $('Orders').item.json.id }}-charge", KeyStable, ""},
		{"={{ $now }}", KeyPerAttempt, "$now"},
		{"={{ $now.toMillis() }}-{{ $json.id }}", KeyPerAttempt, "$now"},
		{"={{ Date.now() }}", KeyPerAttempt, "Date.now()"},
		{"={{ Math.random().toString(36) }}", KeyPerAttempt, "Math.random()"},
		{"={{ $randomUUID() }}", KeyPerAttempt, "randomUUID()"},
		{"={{ crypto.randomUUID() }}", KeyPerAttempt, "randomUUID()"},
		{"={{ DateTime.now().toISO() }}", KeyPerAttempt, "DateTime.now()"},
		{"={{ $execution.id }}-{{ $json.id }}", KeyPerExecution, "$execution.id"},
		{"order-key", KeyConstant, ""},
		{"", KeyEmpty, ""},
		{"=", KeyEmpty, ""},
	}
	for _, tt := range tests {
		got, why := ClassifyKey(tt.value)
		if got != tt.want || why != tt.why {
			t.Errorf("ClassifyKey(%q) = %v, %q; want %v, %q", tt.value, got, why, tt.want, tt.why)
		}
	}
}

func TestLookupPrice(t *testing.T) {
	tests := []struct {
		model, want string
		ok          bool
	}{
		{"gpt-4o", "gpt-4o", true},
		{"gpt-4o-mini", "gpt-4o-mini", true},
		{"gpt-4o-mini-2024-07-18", "gpt-4o-mini", true},
		{"gpt-4o-2024-05-13", "gpt-4o", true},
		{"GPT-4.1-mini", "gpt-4.1-mini", true},
		{"gpt-4-turbo-preview", "gpt-4-turbo", true},
		{"gpt-4-0613", "gpt-4", true},
		{"o1-mini", "o1-mini", true},
		{"o1", "o1", true},
		{"o1x", "", false},
		{"openai/gpt-4o-mini", "gpt-4o-mini", true},
		{"models/gemini-1.5-flash", "gemini-1.5-flash", true},
		{"models/gemini-2.0-flash-lite-001", "gemini-2.0-flash-lite", true},
		{"claude-3-5-sonnet-20241022", "claude-3-5-sonnet", true},
		{"claude-sonnet-4-20250514", "claude-sonnet-4", true},
		{"=gpt-4o", "gpt-4o", true},
		{"llama3", "", false},
		// Grok 4 Fast is its own row, not Grok 4's price.
		{"grok-4-0709", "grok-4", true},
		{"x-ai/grok-4-fast", "grok-4-fast", true},
		{"grok-4-fast-non-reasoning", "grok-4-fast", true},
		{"x-ai/grok-4.1-fast", "grok-4.1-fast", true},
		{"grok-4-1-fast-reasoning", "grok-4-1-fast", true},
		{"grok-code-fast-1", "", false},
		// Later GPT-5 models are their own rows; dated snapshots and aliases
		// of a model keep its row.
		{"gpt-5-2025-08-07", "gpt-5", true},
		{"gpt-5-mini-2025-08-07", "gpt-5-mini", true},
		{"gpt-5-chat-latest", "gpt-5", true},
		{"gpt-5.4-mini", "gpt-5.4-mini", true},
		{"openai/gpt-5.4-mini", "gpt-5.4-mini", true},
		{"openai/gpt-5.4-nano", "gpt-5.4-nano", true},
		{"gpt-5.6-luna", "gpt-5.6-luna", true},
		{"gpt-5.6-terra", "gpt-5.6-terra", true},
		// Claude 4.5 and 4.6, in Anthropic's and OpenRouter's spellings.
		{"claude-opus-4-5-20251101", "claude-opus-4-5", true},
		{"anthropic/claude-opus-4.5", "claude-opus-4.5", true},
		{"claude-opus-4-1-20250805", "claude-opus-4", true},
		{"claude-sonnet-4-5-20250929", "claude-sonnet-4-5", true},
		{"anthropic/claude-sonnet-4.5", "claude-sonnet-4.5", true},
		{"claude-sonnet-4-6", "claude-sonnet-4-6", true},
		{"anthropic/claude-sonnet-4.6", "claude-sonnet-4.6", true},
		{"claude-haiku-4-5-20251001", "claude-haiku-4-5", true},
		{"anthropic/claude-haiku-4.5", "claude-haiku-4.5", true},
	}
	for _, tt := range tests {
		p, ok := LookupPrice(tt.model)
		if ok != tt.ok || p.Model != tt.want {
			t.Errorf("LookupPrice(%q) = %q, %v; want %q, %v", tt.model, p.Model, ok, tt.want, tt.ok)
		}
	}
	p, _ := LookupPrice("gpt-4o")
	if diff := cmp.Diff(Price{"gpt-4o", "openai", 2.50, 10, 16384}, p); diff != "" {
		t.Errorf("gpt-4o price mismatch (-want +got):\n%s", diff)
	}
	p, _ = LookupPrice("x-ai/grok-4-fast")
	if diff := cmp.Diff(Price{"grok-4-fast", "xai", 0.20, 0.50, 30000}, p); diff != "" {
		t.Errorf("grok-4-fast price mismatch (-want +got):\n%s", diff)
	}
	p, _ = LookupPrice("gpt-5.6-luna")
	if diff := cmp.Diff(Price{"gpt-5.6-luna", "openai", 0.20, 1.20, 128000}, p); diff != "" {
		t.Errorf("gpt-5.6-luna price mismatch (-want +got):\n%s", diff)
	}
	p, _ = LookupPrice("claude-opus-4-5-20251101")
	if diff := cmp.Diff(Price{"claude-opus-4-5", "anthropic", 5, 25, 64000}, p); diff != "" {
		t.Errorf("claude-opus-4-5 price mismatch (-want +got):\n%s", diff)
	}
	// What the Gemini API serves gemini-2.5-pro as (BilledModel).
	p, _ = LookupPrice("models/gemini-3.8-flash")
	if diff := cmp.Diff(Price{"gemini-3.8-flash", "google", 0.75, 3.75, 65536}, p); diff != "" {
		t.Errorf("gemini-3.8-flash price mismatch (-want +got):\n%s", diff)
	}
}

func TestPricesTable(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range prices {
		if seen[p.Model] {
			t.Errorf("model %q listed twice", p.Model)
		}
		seen[p.Model] = true
		if p.Provider == "" || p.InputPerM <= 0 || p.OutputPerM <= 0 || p.MaxOutput <= 0 {
			t.Errorf("incomplete price row %+v", p)
		}
		if NormalizeModel(p.Model) != p.Model {
			t.Errorf("model %q is not in normal form", p.Model)
		}
	}
}

func TestModelOf(t *testing.T) {
	tests := []struct {
		name, node, model string
		isDefault         bool
	}{
		{"rl model", `{"name":"a","type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1.2,"parameters":{"model":{"__rl":true,"value":"gpt-4o","mode":"list"}}}`, "gpt-4o", false},
		{"string model", `{"name":"a","type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1,"parameters":{"model":"gpt-4o-mini"}}`, "gpt-4o-mini", false},
		// Defaults from n8n 2.8.4's descriptions (the generated table).
		{"default v1.2", `{"name":"a","type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1.2,"parameters":{}}`, "gpt-5-mini", true},
		{"default v1", `{"name":"a","type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1,"parameters":{}}`, "gpt-5-mini", true},
		{"anthropic default v1.3", `{"name":"a","type":"@n8n/n8n-nodes-langchain.lmChatAnthropic","typeVersion":1.3,"parameters":{}}`, "claude-sonnet-4-5-20250929", true},
		{"anthropic default v1.2", `{"name":"a","type":"@n8n/n8n-nodes-langchain.lmChatAnthropic","typeVersion":1.2,"parameters":{}}`, "claude-3-5-sonnet-20240620", true},
		{"gemini default", `{"name":"a","type":"@n8n/n8n-nodes-langchain.lmChatGoogleGemini","typeVersion":1,"parameters":{}}`, "models/gemini-2.5-flash", true},
		{"legacy openai default", `{"name":"a","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"resource":"chat"}}`, "gpt-3.5-turbo", true},
		{"openai app has no default", `{"name":"a","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.8,"parameters":{}}`, "", false},
		{"gemini", `{"name":"a","type":"@n8n/n8n-nodes-langchain.lmChatGoogleGemini","parameters":{"modelName":"models/gemini-2.0-flash"}}`, "models/gemini-2.0-flash", false},
		{"openai app", `{"name":"a","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.8,"parameters":{"modelId":{"__rl":true,"value":"gpt-4o","mode":"list"}}}`, "gpt-4o", false},
		{"expression", `{"name":"a","type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","parameters":{"model":"={{ $json.model }}"}}`, "", false},
		{"gemini app", `{"name":"a","type":"@n8n/n8n-nodes-langchain.googleGemini","typeVersion":1,"parameters":{"modelId":{"__rl":true,"value":"models/gemini-2.5-flash","mode":"list","cachedResultName":"models/gemini-2.5-flash"},"messages":{"values":[{"content":"hi"}]}}}`, "models/gemini-2.5-flash", false},
		{"gemini app tool", `{"name":"a","type":"@n8n/n8n-nodes-langchain.googleGeminiTool","typeVersion":1,"parameters":{"modelId":{"__rl":true,"value":"models/gemini-2.0-flash","mode":"id"}}}`, "models/gemini-2.0-flash", false},
		{"anthropic app", `{"name":"a","type":"@n8n/n8n-nodes-langchain.anthropic","typeVersion":1,"parameters":{"modelId":{"__rl":true,"value":"claude-sonnet-4-5-20250929","mode":"list"}}}`, "claude-sonnet-4-5-20250929", false},
		{"gemini app model by expression", `{"name":"a","type":"@n8n/n8n-nodes-langchain.googleGemini","typeVersion":1,"parameters":{"modelId":{"__rl":true,"value":"={{ $json.model }}","mode":"id"}}}`, "", false},
		// The audio transcribe and translate operations send whisper-1
		// whatever is stored (vendors/OpenAi/v2/actions/audio/transcribe.operation.js).
		{"openai app transcribe", `{"name":"a","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.8,"parameters":{"resource":"audio","operation":"transcribe"}}`, "whisper-1", false},
		{"openai app translate", `{"name":"a","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":2,"parameters":{"resource":"audio","operation":"translate","modelId":{"__rl":true,"value":"gpt-4o","mode":"list"}}}`, "whisper-1", false},
		{"openai app speech", `{"name":"a","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.8,"parameters":{"resource":"audio","operation":"generate","model":"tts-1-hd"}}`, "tts-1-hd", false},
		{"perplexity tool", `{"name":"a","type":"n8n-nodes-base.perplexityTool","typeVersion":1,"parameters":{"model":"sonar-reasoning"}}`, "sonar-reasoning", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, d := ModelOf(node(t, tt.node))
			if m != tt.model || d != tt.isDefault {
				t.Errorf("ModelOf = %q, %v; want %q, %v", m, d, tt.model, tt.isDefault)
			}
		})
	}
}

func TestDefaultOutputCap(t *testing.T) {
	tests := []struct {
		name, node string
		want       int
	}{
		// @langchain/anthropic 1.1.3 MODEL_DEFAULT_MAX_OUTPUT_TOKENS.
		{"sonnet 4.5", `{"name":"a","type":"@n8n/n8n-nodes-langchain.lmChatAnthropic","typeVersion":1.3,"parameters":{"model":{"__rl":true,"value":"claude-sonnet-4-5-20250929","mode":"list"}}}`, 8192},
		{"opus 4.1", `{"name":"a","type":"@n8n/n8n-nodes-langchain.lmChatAnthropic","typeVersion":1.3,"parameters":{"model":{"__rl":true,"value":"claude-opus-4-1-20250805","mode":"list"}}}`, 8192},
		{"3.5 sonnet", `{"name":"a","type":"@n8n/n8n-nodes-langchain.lmChatAnthropic","typeVersion":1.2,"parameters":{"model":"claude-3-5-sonnet-20241022"}}`, 4096},
		{"3.5 haiku", `{"name":"a","type":"@n8n/n8n-nodes-langchain.lmChatAnthropic","typeVersion":1.2,"parameters":{"model":"claude-3-5-haiku-20241022"}}`, 4096},
		{"3.7 sonnet falls back", `{"name":"a","type":"@n8n/n8n-nodes-langchain.lmChatAnthropic","typeVersion":1.3,"parameters":{"model":{"__rl":true,"value":"claude-3-7-sonnet-20250219","mode":"list"}}}`, 2048},
		{"3 haiku", `{"name":"a","type":"@n8n/n8n-nodes-langchain.lmChatAnthropic","typeVersion":1.2,"parameters":{"model":"claude-3-haiku-20240307"}}`, 2048},
		{"default model of v1.3", `{"name":"a","type":"@n8n/n8n-nodes-langchain.lmChatAnthropic","typeVersion":1.3,"parameters":{}}`, 8192},
		{"default model of v1", `{"name":"a","type":"@n8n/n8n-nodes-langchain.lmChatAnthropic","typeVersion":1,"parameters":{}}`, 2048},
		{"expression: the largest", `{"name":"a","type":"@n8n/n8n-nodes-langchain.lmChatAnthropic","typeVersion":1.3,"parameters":{"model":{"__rl":true,"value":"={{ $json.m }}","mode":"id"}}}`, 8192},
		// Gemini and Vertex send no cap when options is {} or missing.
		{"gemini options {}", `{"name":"a","type":"@n8n/n8n-nodes-langchain.lmChatGoogleGemini","parameters":{"options":{}}}`, 0},
		{"gemini options missing", `{"name":"a","type":"@n8n/n8n-nodes-langchain.lmChatGoogleGemini","parameters":{}}`, 0},
		{"vertex options {}", `{"name":"a","type":"@n8n/n8n-nodes-langchain.lmChatGoogleVertex","parameters":{"options":{}}}`, 0},
		// The Anthropic app node sends options.maxTokens ?? 1024.
		{"anthropic message a model", `{"name":"a","type":"@n8n/n8n-nodes-langchain.anthropic","typeVersion":1,"parameters":{"modelId":{"__rl":true,"value":"claude-sonnet-4-5-20250929","mode":"list"},"messages":{"values":[{"content":"hi"}]}}}`, 1024},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := node(t, tt.node)
			if got := DefaultOutputCap(n, Lookup(n.Type)); got != tt.want {
				t.Errorf("DefaultOutputCap = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestHeartbeatOf(t *testing.T) {
	tests := []struct {
		name, node string
		ok         bool
		word       string
		service    string
	}{
		{"slack batch n of m", `{"name":"Post","type":"n8n-nodes-base.slack","parameters":{"text":"=Enriched batch {{ $runIndex }} of {{ $json.total }}"}}`, true, "batch N of M", ""},
		{"named heartbeat", `{"name":"Heartbeat","type":"n8n-nodes-base.httpRequest","parameters":{"method":"POST","url":"https://status.example.com/beat"}}`, true, "heartbeat", ""},
		{"progress in url", `{"name":"Report","type":"n8n-nodes-base.httpRequest","parameters":{"method":"POST","url":"https://dash.example.com/api/progress"}}`, true, "progress", ""},
		{"polling progress is no signal", `{"name":"Check Snapshot Status","type":"n8n-nodes-base.httpRequest","parameters":{"url":"https://api.example.com/progress/1"}}`, false, "", ""},
		{"in-progress status column", `{"name":"Set In-Progress","type":"n8n-nodes-base.googleSheets","parameters":{"operation":"update"}}`, false, "", ""},
		{"healthchecks", `{"name":"Ping","type":"n8n-nodes-base.httpRequest","parameters":{"url":"https://hc-ping.com/abc"}}`, true, "ping", "Healthchecks.io"},
		{"dead mans snitch", `{"name":"Heartbeat","type":"n8n-nodes-base.httpRequest","parameters":{"url":"https://nosnch.in/abc"}}`, true, "ping", "Dead Man's Snitch"},
		{"opsgenie", `{"name":"HB","type":"n8n-nodes-base.httpRequest","parameters":{"url":"https://api.opsgenie.com/v2/heartbeats/nightly/ping"}}`, true, "ping", "Opsgenie"},
		{"in progress status", `{"name":"Set In Progress","type":"n8n-nodes-base.notion","parameters":{}}`, false, "", ""},
		{"plain notification", `{"name":"Notify","type":"n8n-nodes-base.slack","parameters":{"text":"New order"}}`, false, "", ""},
		{"progressive is not progress", `{"name":"Render","type":"n8n-nodes-base.httpRequest","parameters":{"method":"POST","jsonBody":"{\"style\": \"classic-progressive\"}"}}`, false, "", ""},
		{"not a sink", `{"name":"Progress","type":"n8n-nodes-base.set","parameters":{}}`, false, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, ok := HeartbeatOf(node(t, tt.node))
			svc := ""
			if h.Switch != nil {
				svc = h.Switch.Service
			}
			if ok != tt.ok || h.Word != tt.word || svc != tt.service {
				t.Errorf("HeartbeatOf = %q %q %v; want %q %q %v", h.Word, svc, ok, tt.word, tt.service, tt.ok)
			}
		})
	}
}

func TestRateLimitOf(t *testing.T) {
	tests := []struct {
		typ, host, want string
	}{
		{"n8n-nodes-base.slack", "", "Slack"},
		{"n8n-nodes-base.slackTool", "", "Slack"},
		{"n8n-nodes-base.httpRequest", "api.openai.com", "OpenAI"},
		{"n8n-nodes-base.httpRequest", "shop.myshopify.com", "Shopify"},
		{"n8n-nodes-base.httpRequest", "hooks.slack.com", "Slack"},
		{"n8n-nodes-base.httpRequest", "example.com", ""},
		{"n8n-nodes-base.set", "", ""},
	}
	for _, tt := range tests {
		r, _ := RateLimitOf(tt.typ, tt.host)
		if r.Service != tt.want {
			t.Errorf("RateLimitOf(%q, %q) = %q, want %q", tt.typ, tt.host, r.Service, tt.want)
		}
	}
}

// TestRateLimitInFlightFloor: a service that limits the requests in
// flight carries the concurrency of its smallest plan (ElevenLabs' Free
// plan: 2); a service counted over a window carries none.
func TestRateLimitInFlightFloor(t *testing.T) {
	for _, tt := range []struct {
		host  string
		in    bool
		floor int
	}{
		{"api.elevenlabs.io", true, 2},
		{"api.openai.com", false, 0},
	} {
		r, ok := RateLimitOf("n8n-nodes-base.httpRequest", tt.host)
		if !ok || r.InFlight != tt.in || r.InFlightFloor != tt.floor {
			t.Errorf("RateLimitOf(httpRequest, %q) = InFlight %v floor %d, want %v %d", tt.host, r.InFlight, r.InFlightFloor, tt.in, tt.floor)
		}
	}
}

// TestRateLimitAnswers: each service's 429 is described as its docs say
// (a header, the error body, a fixed penalty, no delay), and every
// described service is one the table matches.
func TestRateLimitAnswers(t *testing.T) {
	for _, tt := range []struct{ typ, host, want string }{
		{"n8n-nodes-base.httpRequest", "generativelanguage.googleapis.com", "RetryInfo retryDelay"},
		{"n8n-nodes-base.telegram", "", "parameters.retry_after"},
		{"n8n-nodes-base.googleSheets", "", "no delay to wait"},
		{"n8n-nodes-base.airtable", "", "next 30 s"},
		{"n8n-nodes-base.slack", "", "Retry-After header"},
		{"n8n-nodes-base.httpRequest", "api.anthropic.com", "retry-after header"},
		{"n8n-nodes-base.httpRequest", "api.mistral.ai", "429 when its limits are reached"},
	} {
		r, ok := RateLimitOf(tt.typ, tt.host)
		if !ok || !strings.Contains(r.Answer, tt.want) {
			t.Errorf("RateLimitOf(%q, %q).Answer = %q, want it to say %q", tt.typ, tt.host, r.Answer, tt.want)
		}
	}
	known := map[string]bool{}
	for _, r := range rateLimits {
		known[r.Service] = true
	}
	for s := range rateLimitAnswers {
		if !known[s] {
			t.Errorf("rateLimitAnswers describes %q, which no rateLimits entry names", s)
		}
	}
}

// TestRateLimitWindows: each service's window is the span its docs count
// the limit over, none where they give no one span, and every window
// names a service the table matches.
func TestRateLimitWindows(t *testing.T) {
	for _, tt := range []struct {
		typ, host string
		ms        int
	}{
		{"n8n-nodes-base.notion", "", 60_000},
		{"n8n-nodes-base.httpRequest", "api.notion.com", 60_000},
		{"n8n-nodes-base.googleSheets", "", 60_000},
		{"@n8n/n8n-nodes-langchain.lmChatOpenAi", "", 60_000},
		{"n8n-nodes-base.airtable", "", 30_000},
		{"n8n-nodes-base.stripe", "", 1_000},
		{"n8n-nodes-base.shopify", "", 1_000},
		{"n8n-nodes-base.telegram", "", 0},
		{"@n8n/n8n-nodes-langchain.lmChatAnthropic", "", 0},
	} {
		r, ok := RateLimitOf(tt.typ, tt.host)
		if !ok || r.WindowMS != tt.ms {
			t.Errorf("RateLimitOf(%q, %q).WindowMS = %d, want %d", tt.typ, tt.host, r.WindowMS, tt.ms)
		}
	}
	known := map[string]bool{}
	for _, r := range rateLimits {
		known[r.Service] = true
	}
	for s, w := range rateLimitWindows {
		if !known[s] || w.ms <= 0 {
			t.Errorf("rateLimitWindows[%q] = %+v: no rateLimits entry names it, or it has no span", s, w)
		}
	}
}

func TestHumanGate(t *testing.T) {
	for _, tt := range []struct {
		node string
		want bool
	}{
		{`{"name":"a","type":"n8n-nodes-base.wait","parameters":{"resume":"webhook"}}`, true},
		{`{"name":"a","type":"n8n-nodes-base.wait","parameters":{"resume":"form"}}`, true},
		{`{"name":"a","type":"n8n-nodes-base.wait","parameters":{"mode":"webhook"}}`, true},
		{`{"name":"a","type":"n8n-nodes-base.wait","parameters":{"amount":5}}`, false},
		{`{"name":"a","type":"n8n-nodes-base.slack","parameters":{"operation":"sendAndWait"}}`, true},
		{`{"name":"a","type":"n8n-nodes-base.form","parameters":{}}`, true},
		{`{"name":"a","type":"n8n-nodes-base.slack","parameters":{}}`, false},
		// A community human-review node waits on its own webhook; a
		// community trigger or a base node with a webhookId does not.
		{`{"name":"a","type":"@gotohuman/n8n-nodes-gotohuman.gotoHuman","webhookId":"w1","parameters":{}}`, true},
		{`{"name":"a","type":"CUSTOM.klicktippTrigger","webhookId":"w1","parameters":{}}`, false},
		{`{"name":"a","type":"n8n-nodes-base.wait","webhookId":"w1","parameters":{"amount":5}}`, false},
		{`{"name":"a","type":"@gotohuman/n8n-nodes-gotohuman.gotoHuman","parameters":{}}`, false},
	} {
		if got := HumanGate(node(t, tt.node)); got != tt.want {
			t.Errorf("HumanGate(%s) = %v, want %v", tt.node, got, tt.want)
		}
	}
}

// TestKeptAnswers: HTTPModelCallOf and HeartbeatOf keep their answer on
// the node; goroutines asking at once (rules run in parallel) get the
// same answer as one asking alone (run with -race).
func TestKeptAnswers(t *testing.T) {
	nodes := []*Node{
		node(t, `{"name":"m","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST","url":"https://api.openai.com/v1/chat/completions","jsonBody":"{\"model\": \"gpt-4o\", \"max_tokens\": 300}"}}`),
		node(t, `{"name":"get","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://api.openai.com/v1/chat/completions"}}`),
		node(t, `{"name":"Progress ping","type":"n8n-nodes-base.slack","typeVersion":2.2,"parameters":{"text":"batch 3 of 9"}}`),
		node(t, `{"name":"beat","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST","url":"https://hc-ping.com/abc"}}`),
		node(t, `{"name":"s","type":"n8n-nodes-base.set","typeVersion":3.4,"parameters":{}}`),
	}
	type answer struct {
		call   HTTPModelCall
		isCall bool
		beat   Heartbeat
		isBeat bool
	}
	ask := func(n *Node) answer {
		var a answer
		a.call, a.isCall = HTTPModelCallOf(n)
		a.beat, a.isBeat = HeartbeatOf(n)
		return a
	}
	want := []answer{
		{call: HTTPModelCall{Provider: "openai", Model: "gpt-4o", MaxTokens: 300, Capped: true}, isCall: true},
		{},
		{beat: Heartbeat{Word: "progress", Where: "name", Conf: ConfMedium}, isBeat: true},
		{isBeat: true},
	}
	var wg sync.WaitGroup
	got := make([][]answer, 8)
	for g := range got {
		wg.Go(func() {
			for _, n := range nodes {
				got[g] = append(got[g], ask(n))
			}
		})
	}
	wg.Wait()
	for g := range got {
		for i, a := range got[g] {
			if a != got[0][i] {
				t.Errorf("goroutine %d, node %q: %+v; goroutine 0 %+v", g, nodes[i].Name, a, got[0][i])
			}
			if again := ask(nodes[i]); again != a {
				t.Errorf("node %q asked again: %+v, first %+v", nodes[i].Name, again, a)
			}
		}
	}
	for i, w := range want[:3] {
		if got[0][i] != w {
			t.Errorf("node %q: %+v, want %+v", nodes[i].Name, got[0][i], w)
		}
	}
	if b := got[0][3]; !b.isBeat || b.beat.Switch == nil {
		t.Errorf("ping to a dead-man's switch: %+v", b)
	}
}

// TestAnswerPathDottedMethod: a word of a dotted method name (Slack's
// chat.postMessage) is the method's family, not an endpoint that answers.
func TestAnswerPathDottedMethod(t *testing.T) {
	for url, want := range map[string]bool{
		"https://slack.com/api/chat.postMessage":      false,
		"https://slack.com/api/chat.update":           false,
		"http://ollama:11434/api/chat":                true,
		"https://api.example.com/search.json":         true,
		"https://api.example.com/v1/chat/completions": true,
	} {
		if got := AnswerPath(url); got != want {
			t.Errorf("AnswerPath(%q) = %v, want %v", url, got, want)
		}
	}
}

// TestPricesDates: the table's dates are dates, the oldest before the newest.
func TestPricesDates(t *testing.T) {
	if len(PricesAsOf) != len("2006-01") || len(PricesNewest) != len("2006-01-02") || PricesNewest[:len(PricesAsOf)] < PricesAsOf {
		t.Errorf("PricesAsOf %q, PricesNewest %q: want a month, then a later day", PricesAsOf, PricesNewest)
	}
}

func TestReadsOnly(t *testing.T) {
	pg := func(q string) string {
		return `{"name":"a","type":"n8n-nodes-base.postgres","typeVersion":2.6,"parameters":{"operation":"executeQuery","query":` + q + `}}`
	}
	tests := []struct {
		name, node string
		reads      bool
	}{
		{"select", pg(`"SELECT id FROM vendors WHERE name = '{{ $json.vendor }}'"`), true},
		{"select in an expression", pg(`"=SELECT id FROM t WHERE id = {{ $json.id }}"`), true},
		{"cte", pg(`"WITH x AS (SELECT 1) SELECT * FROM x;"`), true},
		{"verb in a string", pg(`"SELECT * FROM t WHERE note = 'do not delete'"`), true},
		{"comment first", pg(`"-- daily\nselect * from t"`), true},
		{"a procedure", pg(`"CALL archive_vendor('{{ $json.vendor }}')"`), false},
		{"exec", pg(`"EXEC dbo.archive 1"`), false},
		{"an expression builds it", pg(`"={{ $json.sql }}"`), false},
		{"a second statement", pg(`"SELECT 1; DROP TABLE t"`), false},
		{"an expression after a semicolon", pg(`"=SELECT 1; {{ $json.more }}"`), false},
		{"select into", pg(`"SELECT * INTO backup FROM t"`), false},
		{"cte insert", pg(`"WITH x AS (INSERT INTO t VALUES (1) RETURNING id) SELECT * FROM x"`), false},
		{"copy", pg(`"COPY t TO '/tmp/x'"`), false},
		{"do block", pg(`"DO $$ BEGIN PERFORM 1; END $$"`), false},
		{"postgres select op", `{"name":"a","type":"n8n-nodes-base.postgres","typeVersion":2.6,"parameters":{"operation":"select","table":"t"}}`, true},
		{"postgres default insert", `{"name":"a","type":"n8n-nodes-base.postgres","typeVersion":2.6,"parameters":{}}`, false},
		{"redis get", `{"name":"a","type":"n8n-nodes-base.redis","parameters":{"operation":"get"}}`, true},
		{"redis pop", `{"name":"a","type":"n8n-nodes-base.redis","parameters":{"operation":"pop"}}`, false},
		{"mongo find", `{"name":"a","type":"n8n-nodes-base.mongoDb","typeVersion":1.2,"parameters":{"operation":"find"}}`, true},
		{"mongo aggregate", `{"name":"a","type":"n8n-nodes-base.mongoDb","typeVersion":1.2,"parameters":{"operation":"aggregate","query":"[{\"$match\":{}}]"}}`, true},
		{"mongo aggregate $out", `{"name":"a","type":"n8n-nodes-base.mongoDb","typeVersion":1.2,"parameters":{"operation":"aggregate","query":"[{\"$out\":\"c\"}]"}}`, false},
		{"oracle execute", `{"name":"a","type":"n8n-nodes-base.oracleDatabase","parameters":{"operation":"execute","query":"SELECT 1 FROM dual"}}`, false},
		{"ssh ls", `{"name":"a","type":"n8n-nodes-base.ssh","parameters":{"command":"ls /tmp"}}`, true},
		{"ssh rm", `{"name":"a","type":"n8n-nodes-base.ssh","parameters":{"command":"rm -f /tmp/x"}}`, false},
		{"ldap search", `{"name":"a","type":"n8n-nodes-base.ldap","parameters":{}}`, true},
		{"kafka send", `{"name":"a","type":"n8n-nodes-base.kafka","parameters":{}}`, false},
		{"unlisted operation", `{"name":"a","type":"n8n-nodes-base.redis","parameters":{"operation":"scan"}}`, false},
	}
	for _, tt := range tests {
		if got := ReadsOnly(node(t, tt.node)); got != tt.reads {
			t.Errorf("%s: ReadsOnly = %v, want %v", tt.name, got, tt.reads)
		}
	}
}
