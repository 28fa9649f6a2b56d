package analyze

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestConsequenceOf: what a node leaves when it runs once more, read from
// its method and endpoint or its operation, and who receives it.
func TestConsequenceOf(t *testing.T) {
	http := func(method, url, extra string) string {
		return `{"name":"Call","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"` + method + `","url":"` + url + `"` + extra + `}}`
	}
	for _, c := range []struct {
		name, node string
		want       Consequence
	}{
		{"get", `{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"url":"https://x/y"}}`, NoEffect},
		{"post to search", http("POST", "https://api.example.com/v1/search?q=x", ""), NoEffect},
		{"post to completions", http("POST", "https://api.openai.com/v1/chat/completions", ""), NoEffect},
		{"apify run-sync", http("POST", "https://api.apify.com/v2/acts/abc/run-sync", ""), NoEffect},
		{"graphql query", http("POST", "https://api.linear.app/graphql", `,"jsonBody":"{\"query\": \"{ issues { nodes { id } } }\"}"`), NoEffect},
		{"graphql mutation", http("POST", "https://api.linear.app/graphql", `,"jsonBody":"{\"query\": \"mutation { issueCreate(input: {}) { success } }\"}"`), SecondRecord},
		{"hasura insert of a chat message", http("POST", "https://my-app.hasura.app/v1/graphql", `,"sendBody":true,"specifyBody":"json","jsonBody":"={\"query\": \"mutation M($c: String!, $chat: uuid!) { insert_messages_one(object: { content: $c, chat_id: $chat }) { id } }\", \"variables\": {\"content\": \"{{ $json.message }}\", \"chatId\": \"{{ $json.chatId }}\"}}"`), SecondRecord},
		{"hasura insert on conflict", http("POST", "https://my-app.hasura.app/v1/graphql", `,"sendBody":true,"specifyBody":"json","jsonBody":"={\"query\": \"mutation M($c: String!) { insert_messages_one(object: { content: $c }, on_conflict: { constraint: messages_pkey, update_columns: [content] }) { id } }\"}"`), SameState},
		{"a send mutation to the item's chat", http("POST", "https://my-app.hasura.app/v1/graphql", `,"sendBody":true,"specifyBody":"json","jsonBody":"={\"query\": \"mutation M($c: String!, $chat: uuid!) { sendMessage(content: $c, chat_id: $chat) { id } }\", \"variables\": {\"content\": \"{{ $json.message }}\", \"chatId\": \"{{ $json.chatId }}\"}}"`), Harm},
		{"notion page", http("POST", "https://api.notion.com/v1/pages", `,"sendBody":true,"specifyBody":"json","jsonBody":"={{ JSON.stringify($json) }}"`), SecondRecord},
		{"doNotSave", http("POST", "https://api.example.com/v1/enrich", `,"sendQuery":true,"queryParameters":{"parameters":[{"name":"doNotSave","value":"true"}]}`), NoEffect},
		{"google inspect", http("POST", "https://searchconsole.googleapis.com/v1/urlInspection/index:inspect", ""), NoEffect},
		{"google synthesize", http("POST", "https://texttospeech.googleapis.com/v1/text:synthesize", ""), NoEffect},
		{"google values append", http("POST", "https://sheets.googleapis.com/v4/spreadsheets/abc/values/Sheet1:append", `,"sendBody":true,"specifyBody":"json","jsonBody":"={{ JSON.stringify($json) }}"`), SecondRecord},
		{"patch by id", http("PATCH", "https://api.example.com/tasks/{{ $json.id }}", ""), SameState},
		{"patch appends", http("PATCH", "https://api.notion.com/v1/blocks/{{ $json.id }}/children", ""), SecondRecord},
		{"put", http("PUT", "https://x/y", ""), SameState},
		{"delete", http("DELETE", "https://x/y", ""), SameState},
		{"post by id", http("POST", "https://api.todoist.com/rest/v2/tasks/{{ $json.id }}", ""), SameState},
		{"post record", http("POST", "https://erp.example.com/api/items", ""), Unclear},
		// A body that carries only a search is a read at any URL; one that
		// carries data, or a query that writes, is not (issue 30, part CC).
		{"scraper actor body", http("POST", "https://relay.example.com/maps", `,"sendBody":true,"specifyBody":"json","jsonBody":"{\"language\": \"en\", \"locationQuery\": \"{place}\", \"maxCrawledPlacesPerSearch\": 10, \"searchStringsArray\": [\"{what}\"], \"skipClosedPlaces\": false}"`), NoEffect},
		{"keyword search body", http("POST", "https://relay.example.com/profiles", `,"sendBody":true,"specifyBody":"json","jsonBody":"{\"isName\": false, \"keywords\": [\"{kw}\"]}"`), NoEffect},
		{"search parameters", http("POST", "https://relay.example.com/go", `,"sendBody":true,"bodyParameters":{"parameters":[{"name":"q","value":"={{ $json.q }}"},{"name":"maxResults","value":"5"}]}`), NoEffect},
		{"query with a record's data", http("POST", "https://relay.example.com/maps", `,"sendBody":true,"specifyBody":"json","jsonBody":"{\"query\": \"{q}\", \"email\": \"{email}\"}"`), Unclear},
		{"search words in a summary", http("POST", "https://relay.example.com/maps", `,"sendBody":true,"bodyParameters":{"parameters":[{"name":"search_summary","value":"={{ $json.text }}"}]}`), Unclear},
		{"query that inserts", http("POST", "https://db.example.com/v1/sql", `,"sendBody":true,"specifyBody":"json","jsonBody":"{\"query\": \"INSERT INTO leads VALUES (1)\"}"`), Unclear},
		{"search body with expressions", http("POST", "https://relay.example.com/maps", `,"sendBody":true,"specifyBody":"json","jsonBody":"={\"locationQuery\": \"{{ $json.city }}\", \"maxResults\": {{ $json.n }}}"`), NoEffect},
		{"query an SQL runner is sent", http("POST", "https://db.example.com/v1/sql", `,"sendBody":true,"specifyBody":"json","jsonBody":"={\"query\": \"{{ $json.statement }}\"}"`), Unclear},
		{"query body to a create path", http("POST", "https://relay.example.com/contacts/create", `,"sendBody":true,"specifyBody":"json","jsonBody":"{\"query\": \"{q}\"}"`), Unclear},
		// An event whose attendees come from the data invites them; an
		// endpoint named for a booking books.
		{"graph event for a customer", http("POST", "https://graph.microsoft.com/v1.0/me/events", `,"sendBody":true,"specifyBody":"json","jsonBody":"{\"subject\": \"Call\", \"attendees\": [{\"emailAddress\": {\"address\": \"{email}\"}, \"type\": \"required\"}]}"`), Harm},
		{"graph event for a fixed attendee", http("POST", "https://graph.microsoft.com/v1.0/me/events", `,"sendBody":true,"specifyBody":"json","jsonBody":"{\"subject\": \"Call\", \"attendees\": [{\"emailAddress\": {\"address\": \"me@acme.test\"}}]}"`), SecondRecord},
		{"graph event with no attendees", http("POST", "https://graph.microsoft.com/v1.0/me/events", `,"sendBody":true,"specifyBody":"json","jsonBody":"{\"subject\": \"{{ $json.s }}\", \"attendees\": []}"`), SecondRecord},
		{"owner's booking webhook", http("POST", "https://n8n.acme.test/webhook/vfd-book", `,"sendBody":true,"specifyBody":"json","jsonBody":"={{ JSON.stringify({ name: $json.name }) }}"`), Harm},
		{"owner's intake webhook", http("POST", "https://n8n.acme.test/webhook/vfd-intake", `,"sendBody":true,"specifyBody":"json","jsonBody":"={{ JSON.stringify({ name: $json.name }) }}"`), Unclear},
		{"cloudinary upload named by the item", http("POST", "https://api.cloudinary.com/v1_1/acme/image/upload",
			`,"sendBody":true,"contentType":"multipart-form-data","bodyParameters":{"parameters":[{"name":"file","value":"={{ $json.url }}"},{"name":"public_id","value":"=covers/{{ $json.isbn }}"}]}`), SameState},
		{"cloudinary upload named in the JSON body", http("POST", "https://api.cloudinary.com/v1_1/acme/auto/upload",
			`,"sendBody":true,"specifyBody":"json","jsonBody":"={\"file\": \"{{ $json.url }}\", \"public_id\": \"{{ $json.slug }}\"}"`), SameState},
		{"cloudinary upload named by the time", http("POST", "https://api.cloudinary.com/v1_1/acme/image/upload",
			`,"sendBody":true,"bodyParameters":{"parameters":[{"name":"file","value":"={{ $json.url }}"},{"name":"public_id","value":"=img-{{ $now.toMillis() }}"}]}`), Unclear},
		{"cloudinary upload with a random id", http("POST", "https://api.cloudinary.com/v1_1/acme/image/upload",
			`,"sendBody":true,"bodyParameters":{"parameters":[{"name":"file","value":"={{ $json.url }}"},{"name":"upload_preset","value":"n8n"}]}`), Unclear},
		{"voice call to the owner's phone", http("POST", "https://api.bland.ai/v1/calls", `,"sendBody":true,"specifyBody":"json","jsonBody":"={\"phone_number\": \"+1 555 0100\", \"task\": \"{{ $json.alert }}\"}"`), Nuisance},
		{"voice call to the phone in the variables", http("POST", "https://api.bland.ai/v1/calls", `,"sendBody":true,"bodyParameters":{"parameters":[{"name":"to_number","value":"={{ $env.OWNER_PHONE }}"}]}`), Nuisance},
		{"voice call to a lead's phone", http("POST", "https://api.bland.ai/v1/calls", `,"sendBody":true,"bodyParameters":{"parameters":[{"name":"to_number","value":"={{ $json.phone }}"}]}`), Unclear},
		{"translation to a fixed language", http("POST", "https://api.example.com/v1/jobs", `,"sendBody":true,"bodyParameters":{"parameters":[{"name":"to","value":"en"}]}`), Unclear},
		{"action on the order the body names", http("POST", "https://shop.example.org/v2/design/configure", `,"sendBody":true,"specifyBody":"json","jsonBody":"={\"orderId\": \"{{ $json.order_id }}\", \"color\": \"red\"}"`), SameState},
		{"collection create naming a customer", http("POST", "https://shop.example.org/v2/orders", `,"sendBody":true,"specifyBody":"json","jsonBody":"={\"customerId\": \"{{ $json.id }}\"}"`), Harm},
		{"run naming a record", http("POST", "https://api.example.org/v1/flows/trigger", `,"sendBody":true,"bodyParameters":{"parameters":[{"name":"recordId","value":"={{ $json.id }}"}]}`), Unclear},
		{"text to the lead's phone at an unknown API", http("POST", "https://api.linqapp.com/api/partner/v2/chats", `,"sendBody":true,"specifyBody":"json","jsonBody":"={\"participants\": [\"{{ $json.phone }}\"], \"message\": \"Hi\"}"`), Harm},
		{"text to the owner's phone at an unknown API", http("POST", "https://api.linqapp.com/api/partner/v2/chats", `,"sendBody":true,"specifyBody":"json","jsonBody":"={\"participants\": [\"+1 555 0100\"], \"message\": \"New lead\"}"`), Nuisance},
		{"record with a phone and no text", http("POST", "https://crm.example.org/api/v1/people", `,"sendBody":true,"specifyBody":"json","jsonBody":"={\"phone\": \"{{ $json.phone }}\", \"name\": \"x\"}"`), Unclear},
		{"workspace row with a phone and a message", http("POST", "https://api.airtable.com/v0/app/Leads", `,"sendBody":true,"specifyBody":"json","jsonBody":"={\"fields\": {\"phone\": \"{{ $json.phone }}\", \"message\": \"{{ $json.msg }}\"}}"`), SecondRecord},
		{"draft at a mail API", http("POST", "https://api.fastmail.com/jmap/api/", `,"sendBody":true,"specifyBody":"json","jsonBody":"={\"keywords\": {\"$draft\": true}, \"to\": [{\"email\": \"{{ $json.to }}\"}], \"subject\": \"x\"}"`), Nuisance},
		{"post invoice", http("POST", "https://erp.example.com/api/invoices", `,"sendBody":true,"specifyBody":"json","jsonBody":"={{ JSON.stringify($json) }}"`), Harm},
		{"stripe", http("POST", "https://api.stripe.com/v1/payment_intents", `,"sendBody":true,"specifyBody":"json","jsonBody":"={{ JSON.stringify($json) }}"`), Harm},
		{"whatsapp", http("POST", "https://graph.facebook.com/v19.0/123/messages", `,"sendBody":true,"specifyBody":"json","jsonBody":"={{ JSON.stringify($json) }}"`), Harm},
		{"slack webhook", http("POST", "https://hooks.slack.com/services/T/B/x", ""), Nuisance},
		{"ntfy", http("POST", "https://ntfy.sh/alerts", ""), Nuisance},
		{"telegram api", http("POST", "https://api.telegram.org/bot1/sendMessage", ""), Nuisance},
		{"log endpoint", http("POST", "https://api.example.com/v1/logs", ""), Nuisance},
		{"sheets append", `{"name":"a","type":"n8n-nodes-base.googleSheets","typeVersion":4.5,"parameters":{"operation":"append"}}`, SecondRecord},
		{"sheets append to a log", `{"name":"Log to Sheets","type":"n8n-nodes-base.googleSheets","typeVersion":4.5,"parameters":{"operation":"append"}}`, Nuisance},
		{"sheets append to an audit tab", `{"name":"Save","type":"n8n-nodes-base.googleSheets","typeVersion":4.5,"parameters":{"operation":"append","sheetName":{"__rl":true,"mode":"list","value":"gid=1","cachedResultName":"Audit Log"}}}`, Nuisance},
		{"sheets appendOrUpdate", `{"name":"a","type":"n8n-nodes-base.googleSheets","parameters":{"operation":"appendOrUpdate"}}`, SameState},
		{"sheets update", `{"name":"a","type":"n8n-nodes-base.googleSheets","parameters":{"operation":"update"}}`, SameState},
		{"airtable upsert", `{"name":"a","type":"n8n-nodes-base.airtable","parameters":{"operation":"upsert"}}`, SameState},
		{"slack default post", `{"name":"a","type":"n8n-nodes-base.slack","typeVersion":2.2,"parameters":{}}`, Nuisance},
		{"telegram", `{"name":"a","type":"n8n-nodes-base.telegram","typeVersion":1.2,"parameters":{"chatId":"={{ $json.message.chat.id }}","text":"hi"}}`, Nuisance},
		{"telegram button answered", `{"name":"a","type":"n8n-nodes-base.telegram","typeVersion":1.2,"parameters":{"resource":"callback","queryId":"={{ $json.callback_query.id }}"}}`, NoEffect},
		{"telegram typing shown", `{"name":"a","type":"n8n-nodes-base.telegram","typeVersion":1.2,"parameters":{"operation":"sendChatAction","chatId":"={{ $json.message.chat.id }}","action":"typing"}}`, NoEffect},
		{"telegram inline answer is no ack", `{"name":"a","type":"n8n-nodes-base.telegram","typeVersion":1.2,"parameters":{"resource":"callback","operation":"answerInlineQuery","queryId":"={{ $json.inline_query.id }}"}}`, SameState},
		{"gateway send-text after a token segment", http("POST", "https://api.wa-gateway.io/instances/I1/token/T1/send-text", `,"sendBody":true,"bodyParameters":{"parameters":[{"name":"phone","value":"={{ $json.phone }}"},{"name":"message","value":"hi"}]}`), Harm},
		{"token endpoint still answers", http("POST", "https://auth.acme-ops.io/oauth/token", ""), NoEffect},
		{"gmail to the team", `{"name":"a","type":"n8n-nodes-base.gmail","typeVersion":2.1,"parameters":{"sendTo":"ops@acme.test","subject":"report"}}`, Nuisance},
		{"gmail to a customer", `{"name":"a","type":"n8n-nodes-base.gmail","typeVersion":2.1,"parameters":{"sendTo":"={{ $json.email }}","subject":"welcome"}}`, Harm},
		{"gmail reply", `{"name":"a","type":"n8n-nodes-base.gmail","typeVersion":2.1,"parameters":{"operation":"reply","messageId":"={{ $json.id }}"}}`, Harm},
		{"outlook draft", `{"name":"a","type":"n8n-nodes-base.microsoftOutlook","typeVersion":2,"parameters":{"resource":"draft","operation":"create"}}`, Nuisance},
		{"twilio to a customer", `{"name":"a","type":"n8n-nodes-base.twilio","typeVersion":1,"parameters":{"to":"={{ $json.phone }}","message":"hi"}}`, Harm},
		{"gmail addLabels", `{"name":"a","type":"n8n-nodes-base.gmail","parameters":{"operation":"addLabels"}}`, SameState},
		{"stripe charge", `{"name":"a","type":"n8n-nodes-base.stripe","parameters":{"resource":"charge","operation":"create"}}`, Harm},
		{"hubspot deal", `{"name":"a","type":"n8n-nodes-base.hubspot","typeVersion":2,"parameters":{"resource":"deal","operation":"create"}}`, Harm},
		{"zendesk ticket", `{"name":"a","type":"n8n-nodes-base.zendesk","typeVersion":1,"parameters":{"resource":"ticket","operation":"create"}}`, Harm},
		{"calendar invite", `{"name":"a","type":"n8n-nodes-base.googleCalendar","typeVersion":1.3,"parameters":{"operation":"create","additionalFields":{"attendees":["={{ $json.email }}"]}}}`, Harm},
		{"calendar event alone", `{"name":"a","type":"n8n-nodes-base.googleCalendar","typeVersion":1.3,"parameters":{"operation":"create"}}`, SecondRecord},
		{"dropbox upload", `{"name":"a","type":"n8n-nodes-base.dropbox","typeVersion":1,"parameters":{"path":"/reports/today.pdf"}}`, SameState},
		{"s3 upload", `{"name":"a","type":"n8n-nodes-base.s3","typeVersion":1,"parameters":{"operation":"upload"}}`, SameState},
		{"drive upload", `{"name":"a","type":"n8n-nodes-base.googleDrive","typeVersion":3,"parameters":{}}`, SecondRecord},
		{"github file create at the item's path", `{"name":"a","type":"n8n-nodes-base.github","typeVersion":1.1,"parameters":{"resource":"file","owner":"acme","repository":"notes","filePath":"=notes/{{ $json.slug }}.md","fileContent":"={{ $json.text }}","commitMessage":"add"}}`, SameState},
		{"github file create by default", `{"name":"a","type":"n8n-nodes-base.github","typeVersion":1.1,"parameters":{"resource":"file","filePath":"report.md"}}`, SameState},
		{"github file create stamped with the time", `{"name":"a","type":"n8n-nodes-base.github","typeVersion":1.1,"parameters":{"resource":"file","operation":"create","filePath":"=logs/{{ $now.toMillis() }}.md"}}`, SecondRecord},
		{"github tool file create at the model's path", `{"name":"a","type":"n8n-nodes-base.githubTool","typeVersion":1.1,"parameters":{"resource":"file","operation":"create","filePath":"={{ $fromAI('path') }}"}}`, SameState},
		{"github issue create", `{"name":"a","type":"n8n-nodes-base.github","typeVersion":1.1,"parameters":{"resource":"issue","operation":"create","title":"x"}}`, SecondRecord},
		{"thehive analyzer", `{"name":"a","type":"n8n-nodes-base.theHive","typeVersion":1,"parameters":{"resource":"observable","operation":"executeAnalyzer"}}`, NoEffect},
		{"postgres insert query", `{"name":"a","type":"n8n-nodes-base.postgres","parameters":{"operation":"executeQuery","query":"INSERT INTO t VALUES (1)"}}`, SecondRecord},
		{"postgres update query", `{"name":"a","type":"n8n-nodes-base.postgres","parameters":{"operation":"executeQuery","query":"UPDATE t SET a = 1"}}`, SameState},
		{"whatsapp gateway to a fixed number", http("POST", "http://wa:3000/send", `,"bodyParameters":{"parameters":[{"name":"number","value":"919999999999"},{"name":"message","value":"={{ $json.text }}"}]}`), Nuisance},
		{"whatsapp gateway to the sender", http("POST", "http://wa:3000/send", `,"bodyParameters":{"parameters":[{"name":"number","value":"={{ $json.from }}"}]}`), Harm},
		{"line push to the owner's id", http("POST", "https://api.line.me/v2/bot/message/push", `,"jsonBody":"={\"to\": \"{{ $env.LINE_USER_ID }}\", \"messages\": []}"`), Nuisance},
		{"line push to the item", http("POST", "https://api.line.me/v2/bot/message/push", `,"jsonBody":"={\"to\": \"{{ $json.uid }}\", \"messages\": []}"`), Harm},
		{"gmail to a configured address", `{"name":"a","type":"n8n-nodes-base.gmail","typeVersion":2.1,"parameters":{"sendTo":"={{ $vars.ops_mail }}","subject":"report"}}`, Nuisance},
		{"statistics endpoint", http("POST", "https://services.sentinel-hub.com/api/v1/statistics", ""), NoEffect},
		{"stats of the runs the body names", http("POST", "={{ $env.RUNNER }}/v1/stats/runs", `,"sendBody":true,"specifyBody":"json","jsonBody":"={\"run_ids\": {{ JSON.stringify($json.run_ids) }}}"`), NoEffect},
		{"report filtered by dates", http("POST", "=https://reports.api.clockify.me/v1/workspaces/{{ $json.ws }}/reports/detailed", `,"sendBody":true,"specifyBody":"json","jsonBody":"={\"dateRangeStart\": \"{{ $json.start }}\", \"detailedFilter\": {\"page\": 1, \"pageSize\": 50}, \"exportType\": \"json\"}"`), NoEffect},
		{"metrics lookup by ids in body parameters", http("POST", "https://api.example.org/metrics/lookup", `,"sendBody":true,"bodyParameters":{"parameters":[{"name":"ids","value":"={{ $json.ids }}"}]}`), NoEffect},
		{"stats without a body", http("POST", "https://api.example.org/v2/stats/daily", ""), NoEffect},
		{"stats with the item spread into the body", http("POST", "https://api.example.org/v1/stats/runs", `,"sendBody":true,"specifyBody":"json","jsonBody":"={{ JSON.stringify({ ...$json, run_ids: $json.ids }) }}"`), Unclear},
		{"analytics metric value sent", http("POST", "https://api.example.org/v1/analytics", `,"sendBody":true,"specifyBody":"json","jsonBody":"={\"metric_value\": 3, \"user_id\": \"{{ $json.id }}\"}"`), Unclear},
		{"stats with a title of its own", http("POST", "https://api.example.org/v1/stats/runs", `,"sendBody":true,"specifyBody":"json","jsonBody":"={\"run_ids\": [1, 2], \"title\": \"{{ $json.title }}\"}"`), Unclear},
		{"metric points sent", http("POST", "https://api.example.org/v1/metrics", `,"sendBody":true,"specifyBody":"json","jsonBody":"={\"series\": [{\"metric\": \"jobs\", \"points\": [[{{ $now.toSeconds() }}, 1]]}]}"`), Unclear},
		{"analytics event with properties", http("POST", "https://api.example.org/analytics/events", `,"sendBody":true,"bodyParameters":{"parameters":[{"name":"event","value":"signup"},{"name":"user_id","value":"={{ $json.id }}"}]}`), Unclear},
		{"stats reset", http("POST", "https://api.example.org/v1/stats/reset", ""), Unclear},
		{"report created from the item", http("POST", "https://api.example.org/v1/reports", `,"sendBody":true,"specifyBody":"json","jsonBody":"={{ JSON.stringify($json) }}"`), Unclear},
		{"report titled", http("POST", "https://qualys.example.org/api/2.0/fo/report/", `,"sendBody":true,"bodyParameters":{"parameters":[{"name":"template_id","value":"12"},{"name":"report_title","value":"={{ $json.title }}"}]}`), Unclear},
		{"process endpoint", http("POST", "https://services.sentinel-hub.com/api/v1/process", ""), NoEffect},
		{"process an order", http("POST", "https://shop.example.org/api/orders/{{ $json.id }}/process", ""), Harm},
		{"gmail trash by id", http("POST", "=https://gmail.googleapis.com/gmail/v1/users/me/messages/{{ $json.id }}/trash", ""), SameState},
		{"gmail thread untrash by id", http("POST", "=https://gmail.googleapis.com/gmail/v1/users/me/threads/{{ $json.threadId }}/untrash", ""), SameState},
		{"gmail send", http("POST", "https://gmail.googleapis.com/gmail/v1/users/me/messages/send", `,"sendBody":true,"specifyBody":"json","jsonBody":"={{ JSON.stringify($json) }}"`), Harm},
		{"graph move by id", http("POST", "=https://graph.microsoft.com/v1.0/me/messages/{{ $json.id }}/move", ""), SameState},
		{"graph send a draft by id", http("POST", "=https://graph.microsoft.com/v1.0/me/messages/{{ $json.id }}/send", ""), Harm},
		{"graph reply by id", http("POST", "=https://graph.microsoft.com/v1.0/me/messages/{{ $json.id }}/reply", ""), Harm},
		{"create under a version", http("POST", "https://api.example.org/orders/v2/move", `,"sendBody":true,"specifyBody":"json","jsonBody":"={{ JSON.stringify($json) }}"`), Harm},
		{"slack chat.delete", http("POST", "https://slack.com/api/chat.delete", `,"sendBody":true,"bodyParameters":{"parameters":[{"name":"ts","value":"={{ $json.ts }}"}]}`), SameState},
		{"qdrant points delete", http("POST", "=http://qdrant:6333/collections/docs/points/delete", `,"sendBody":true,"specifyBody":"json","jsonBody":"={{ JSON.stringify({ points: [$json.id] }) }}"`), SameState},
		{"slack chat.postMessage", http("POST", "https://slack.com/api/chat.postMessage", `,"sendBody":true,"bodyParameters":{"parameters":[{"name":"text","value":"={{ $json.text }}"}]}`), Nuisance},
		{"cancel an order by id", http("POST", "https://shop.example.org/api/orders/48213/cancel", ""), SameState},
		{"resolve an approval by id", http("POST", "=https://api.example.org/approvals/{{ $json.approval_id }}/resolve", `,"sendBody":true,"bodyParameters":{"parameters":[{"name":"decision","value":"={{ $json.decision }}"}]}`), SameState},
		{"publish a draft by id", http("POST", "=https://blog.example.org/ghost/api/admin/posts/{{ $json.id }}/publish", ""), SameState},
		{"publish under a record, a new thing", http("POST", "=https://api.example.org/pages/{{ $json.id }}/publish_to_feed", ""), Unclear},
		{"trigger a run of a record", http("POST", "=https://api.example.org/workflows/{{ $json.id }}/trigger", ""), Unclear},
		{"messages under a conversation", http("POST", "=https://api.example.org/conversations/{{ $json.id }}/messages", `,"sendBody":true,"bodyParameters":{"parameters":[{"name":"text","value":"={{ $json.text }}"}]}`), Harm},
		{"comment under a record", http("POST", "=https://api.example.org/v1/tasks/{{ $json.id }}/comments", ""), Unclear},
		{"postgrest ignore duplicates", http("POST", "https://abc.supabase.co/rest/v1/seen_items", `,"sendHeaders":true,"headerParameters":{"parameters":[{"name":"Prefer","value":"resolution=ignore-duplicates,return=minimal"}]},"sendBody":true,"specifyBody":"json","jsonBody":"={{ $json.rows }}"`), SameState},
		{"postgrest merge duplicates in JSON headers", http("POST", "https://db.example.org/rest/v1/contacts?on_conflict=email", `,"sendHeaders":true,"specifyHeaders":"json","jsonHeaders":"{\"Prefer\": \"resolution=merge-duplicates\"}","sendBody":true,"specifyBody":"json","jsonBody":"={{ $json.rows }}"`), SameState},
		{"bodyless post to a collection of orders", http("POST", "https://erp.example.com/api/orders", ""), Unclear},
		{"bodyless post with the item in the query", http("POST", "https://erp.example.com/api/orders", `,"sendQuery":true,"queryParameters":{"parameters":[{"name":"sku","value":"={{ $json.sku }}"}]}`), Harm},
		{"fixed order written in the body", http("POST", "https://erp.example.com/api/orders", `,"sendBody":true,"bodyParameters":{"parameters":[{"name":"sku","value":"PAPER-A4"}]}`), Harm},
		{"postgrest insert", http("POST", "https://abc.supabase.co/rest/v1/seen_items", `,"sendHeaders":true,"headerParameters":{"parameters":[{"name":"Prefer","value":"return=minimal"}]}`), Unclear},
	} {
		f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(`{"nodes":[`+c.node+`],"connections":{}}`)))
		if len(f.Workflows) != 1 || len(f.Workflows[0].Nodes) != 1 {
			t.Fatalf("%s: bad test node", c.name)
		}
		if got := ConsequenceOf(f.Workflows[0].Nodes[0]); got.Consequence != c.want {
			t.Errorf("%s: %v (%q), want %v", c.name, got.Consequence, got.Duplicate, c.want)
		}
	}
}

// TestCleanupCommand: a command that only removes files is a cleanup.
func TestCleanupCommand(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		want bool
	}{
		{"rm -f /tmp/a.mov", true},
		{"=rm -f /tmp/{{ $json.id }}.mov; rm -rf /tmp/work", true},
		{"={{ `rm -f ${$json.path}` }}", true},
		{"sudo find /tmp/job -type f -delete && echo done", true},
		{"ffmpeg -i a.mov b.mp4 && rm -f a.mov", false},
		{"ls /tmp", false},
		{"echo hi", false},
	} {
		src := `{"nodes":[{"name":"a","type":"n8n-nodes-base.ssh","typeVersion":1,"parameters":{"command":` + jsonString(c.cmd) + `}}],"connections":{}}`
		f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(src)))
		if got := CleanupCommand(f.Workflows[0].Nodes[0]); got != c.want {
			t.Errorf("%q: %v, want %v", c.cmd, got, c.want)
		}
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestConsequenceInFixedRecipient: a message to an address a Set node
// writes as a literal is the owner's; one the Set node copies from the
// item is not.
func TestConsequenceInFixedRecipient(t *testing.T) {
	const twilio = `{"name":"Text","type":"n8n-nodes-base.twilio","typeVersion":1,"parameters":{"to":"%s","message":"hi"}}`
	for _, c := range []struct {
		name, set, to string
		want          Consequence
		http          bool
	}{
		{"call at an unknown API to the owner's cell", `{"name":"Config","type":"n8n-nodes-base.set","typeVersion":3.4,"parameters":{"assignments":{"assignments":[{"name":"owner_cell","value":"+1 555 0100","type":"string"}]}}}`,
			`={{ $('Config').first().json.owner_cell }}`, Nuisance, true},
		{"call at an unknown API to a copied phone", `{"name":"Config","type":"n8n-nodes-base.set","typeVersion":3.4,"parameters":{"assignments":{"assignments":[{"name":"owner_cell","value":"={{ $json.phone }}","type":"string"}]}}}`,
			`={{ $('Config').first().json.owner_cell }}`, Unclear, true},
		{"assignment read by name", `{"name":"Config","type":"n8n-nodes-base.set","typeVersion":3.4,"parameters":{"assignments":{"assignments":[{"name":"owner_cell","value":"+1 555 0100","type":"string"}]}}}`,
			`={{ $('Config').first().json.owner_cell }}`, Nuisance, false},
		{"v1 values read as $json", `{"name":"Config","type":"n8n-nodes-base.set","typeVersion":1,"parameters":{"values":{"string":[{"name":"to","value":"ops@acme.test"}]}}}`,
			`={{ $json.to }}`, Nuisance, false},
		{"fields.values of 3.2 by $node", `{"name":"Config","type":"n8n-nodes-base.set","typeVersion":3.2,"parameters":{"fields":{"values":[{"name":"owner","stringValue":"+15550100"}]}}}`,
			`={{ $node["Config"].json["owner"] }}`, Nuisance, false},
		{"number from the instance's variables", `{"name":"Config","type":"n8n-nodes-base.set","typeVersion":3.4,"parameters":{"assignments":{"assignments":[{"name":"cell","value":"={{ $env.OWNER_CELL }}","type":"string"}]}}}`,
			`={{ $('Config').item.json.cell }}`, Nuisance, false},
		{"copied from the item", `{"name":"Config","type":"n8n-nodes-base.set","typeVersion":3.4,"parameters":{"assignments":{"assignments":[{"name":"cell","value":"={{ $json.phone }}","type":"string"}]}}}`,
			`={{ $('Config').first().json.cell }}`, Harm, false},
		{"a field the Set node does not write", `{"name":"Config","type":"n8n-nodes-base.set","typeVersion":3.4,"parameters":{"assignments":{"assignments":[{"name":"cell","value":"+1 555 0100","type":"string"}]}}}`,
			`={{ $('Config').first().json.phone }}`, Harm, false},
		{"disabled Set node", `{"name":"Config","type":"n8n-nodes-base.set","typeVersion":3.4,"disabled":true,"parameters":{"assignments":{"assignments":[{"name":"cell","value":"+1 555 0100","type":"string"}]}}}`,
			`={{ $json.cell }}`, Harm, false},
		{"raw JSON mode", `{"name":"Config","type":"n8n-nodes-base.set","typeVersion":3.4,"parameters":{"mode":"raw","jsonOutput":"{\"cell\": \"+1 555 0100\"}"}}`,
			`={{ $json.cell }}`, Harm, false},
		{"the literal and something else", `{"name":"Config","type":"n8n-nodes-base.set","typeVersion":3.4,"parameters":{"assignments":{"assignments":[{"name":"cell","value":"+1 555 0100","type":"string"}]}}}`,
			`={{ $json.cell }}{{ $json.ext }}`, Harm, false},
	} {
		node := strings.ReplaceAll(twilio, "%s", strings.ReplaceAll(c.to, `"`, `\"`))
		if c.http {
			node = `{"name":"Text","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST","url":"https://api.bland.ai/v1/calls","sendBody":true,"bodyParameters":{"parameters":[{"name":"phone_number","value":"` + strings.ReplaceAll(c.to, `"`, `\"`) + `"},{"name":"task","value":"={{ $json.alert }}"}]}}}`
		}
		src := `{"nodes":[` + c.set + `,` + node + `],"connections":{"Config":{"main":[[{"node":"Text","type":"main","index":0}]]}}}`
		f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(src)))
		if len(f.Workflows) != 1 || len(f.Workflows[0].Nodes) != 2 {
			t.Fatalf("%s: bad test workflow", c.name)
		}
		w := f.Workflows[0]
		if got := ConsequenceIn(BuildGraph(w), w.Nodes[1]); got.Consequence != c.want {
			t.Errorf("%s: %v (%q), want %v", c.name, got.Consequence, got.Duplicate, c.want)
		}
	}
}

// TestKeyBeforeAsPatterns checks the key namesRecipient reads before each
// colon against the key bodyFieldRE and exprFieldRE find, on bodies cut
// and joined at random: every field they find is one keyBefore reads, so
// a body with no recipient key has no recipient field.
func TestKeyBeforeAsPatterns(t *testing.T) {
	parts := []string{`"`, `'`, "to", "To", "_id", "phone", "x1", ":", " ", "\t", "\n", "\v", ",", "{", "}", "[", "]",
		"{{ $json.to }}", `"+1 555"`, "12", "-", "+", `\"`, "é", "text", `"to": "a"`, "chat_id: 5"}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(20) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		s := b.String()
		for _, re := range []interface {
			FindAllStringSubmatchIndex(string, int) [][]int
		}{bodyFieldRE, exprFieldRE} {
			for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
				colon := m[3] + strings.IndexByte(s[m[3]:], ':')
				if got := keyBefore(s, colon); got != s[m[2]:m[3]] {
					t.Fatalf("keyBefore(%q, %d) = %q; the pattern finds %q", s, colon, got, s[m[2]:m[3]])
				}
			}
		}
	}
}

// TestNamesRecipient: the cheap test before the recipient patterns.
func TestNamesRecipient(t *testing.T) {
	node := func(params string) *n8nschema.Node {
		src := `{"nodes":[{"name":"Call","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":` + params + `}],"connections":{}}`
		f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(src)))
		if len(f.Workflows) != 1 || len(f.Workflows[0].Nodes) != 1 {
			t.Fatalf("bad test node %s", params)
		}
		return f.Workflows[0].Nodes[0]
	}
	for _, c := range []struct {
		params string
		want   bool
	}{
		{`{"jsonBody":"{\"model\": \"gpt\", \"messages\": []}"}`, false},
		{`{"jsonBody":"={\"to\" : \"{{ $json.phone }}\"}"}`, true},
		{`{"jsonBody":"={{ { chat_id: $json.chat, text: 'hi' } }}"}`, true},
		{`{"jsonBody":"{\"auto\": 1, \"photo\": 2}"}`, false},
		{`{"bodyParameters":{"parameters":[{"name":"Recipient","value":"x"}]}}`, true},
		{`{"bodyParameters":{"parameters":[{"name":"subject","value":"x"}]}}`, false},
	} {
		if got := namesRecipient(node(c.params)); got != c.want {
			t.Errorf("namesRecipient(%s) = %v, want %v", c.params, got, c.want)
		}
	}
}

// TestRoleField: a field path names a colleague's role in the owner's
// organisation, in snake_case, camelCase or a nested path; a customer's or
// a lead's address does not.
func TestRoleField(t *testing.T) {
	for path, want := range map[string]bool{
		".email_przelozonego":    true,
		".managerEmail":          true,
		".manager.email":         true,
		`["supervisor_email"]`:   true,
		".kierownik_mail":        true,
		".assignee":              true,
		".email":                 false,
		".customer_email":        false,
		".managementCompanyMail": false,
		".leadEmail":             false,
	} {
		if got := roleField(path); got != want {
			t.Errorf("roleField(%q) = %v, want %v", path, got, want)
		}
	}
}
