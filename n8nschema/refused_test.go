package n8nschema

import (
	"strings"
	"testing"
)

// TestNoBilledCall: n8n makes no billed call for a node whose credential
// is of a type the node does not take, or whose resource or operation its
// description (at that very version) does not define; nor for the OpenAI
// app node v1.x's message with no model or no prompt, nor for the legacy
// OpenAI node's text/complete with a chat model, which OpenAI refuses. A
// stripped credentials block, a node that takes any credential or asks
// for none, an expression or a version the table does not list (but for
// the legacy OpenAI node, one description at every version) are not
// judged.
func TestNoBilledCall(t *testing.T) {
	for _, c := range []struct {
		node string
		why  string // "" when n8n makes the call
	}{
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"resource":"chat","operation":"create"}}`, `operation "create" is not one the node defines for "chat"`},
		{`{"name":"n","type":"n8n-nodes-base.openAi","parameters":{"resource":"chat","operation":"create"}}`, `operation "create"`},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1.1,"parameters":{"resource":"completions"}}`, `resource "completions" is not one the node defines`},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"resource":"chat"},"credentials":{"openAIApi":{"id":"1"}}}`, `credential "openAIApi" is not of a type the node takes ("openAiApi")`},
		{`{"name":"n","type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1.2,"parameters":{},"credentials":{"openAIApi":{"id":"1"}}}`, `credential "openAIApi"`},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"resource":"chat","model":"gpt-4o-mini"},"credentials":{"openAiApi":{"id":"1"}}}`, ""},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"resource":"chat","model":"gpt-4o-mini"}}`, ""},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"resource":"chat","model":"gpt-4o-mini"},"credentials":{}}`, ""},
		// Text edit with no model stored sends its default,
		// text-davinci-edit-001 (TextDescription.js editOperations).
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"operation":"edit"}}`, `"text-davinci-edit-001", which OpenAI shut down on 2024-01-04`},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"resource":"chat","operation":"={{ $json.op }}"}}`, ""},
		// The legacy OpenAI node is one description at every typeVersion.
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1.8,"parameters":{"resource":"completions"}}`, `resource "completions" is not one the node defines`},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1.8,"parameters":{"resource":"text","operation":"completion","model":"text-davinci-003"}}`, `operation "completion" is not one the node defines for "text"`},
		{`{"name":"n","type":"n8n-nodes-base.someCommunityNode","typeVersion":1,"parameters":{"resource":"x"}}`, ""},
		// The HTTP Request node takes a credential of any type; a node whose
		// authentication is "none" asks for none.
		{`{"name":"n","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"={{ $json.url }}"},"credentials":{"openAiApi":{"id":"1"}}}`, ""},
		{`{"name":"n","type":"n8n-nodes-base.httpRequest","typeVersion":2,"parameters":{"url":"={{ $json.url }}"},"credentials":{"slackApi":{"id":"1"}}}`, ""},
		// Ghost asks for the credential its source shows; the Crypto node
		// asks for one only for the actions that sign or encrypt, and a
		// Wait node that resumes after an interval asks for none.
		{`{"name":"n","type":"n8n-nodes-base.ghost","typeVersion":1,"parameters":{"source":"adminApi","operation":"create"},"credentials":{"ghostApi":{"id":"1"}}}`, `credential "ghostApi" is not of a type the node takes ("ghostAdminApi", "ghostContentApi")`},
		{`{"name":"n","type":"n8n-nodes-base.crypto","typeVersion":2,"parameters":{"action":"hmac"},"credentials":{"httpHeaderAuth":{"id":"1"}}}`, `credential "httpHeaderAuth"`},
		{`{"name":"n","type":"n8n-nodes-base.crypto","typeVersion":2,"parameters":{},"credentials":{"httpHeaderAuth":{"id":"1"}}}`, ""},
		{`{"name":"n","type":"n8n-nodes-base.wait","typeVersion":1.1,"parameters":{},"credentials":{"httpQueryAuth":{"id":"1"}}}`, ""},
		// The OpenAI app node v1.x stored under the legacy node's names:
		// no modelId, no messages.values.
		{`{"name":"n","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.3,"parameters":{"model":"gpt-3.5-turbo","messages":{"messageValues":[{"content":"Hi"}]}}}`, `it has no model`},
		{`{"name":"n","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.8,"parameters":{"resource":"text","operation":"message","modelId":{"__rl":true,"mode":"list","value":""},"messages":{"values":[{"content":"Hi"}]}}}`, `it has no model`},
		{`{"name":"n","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.3,"parameters":{"modelId":{"__rl":true,"mode":"list","value":"gpt-4o-mini"},"messages":{"messageValues":[{"content":"Hi"}]}}}`, `it sends no prompt`},
		{`{"name":"n","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.7,"parameters":{"modelId":"gpt-4o","messages":{"values":[{"content":"="},{"role":"system","content":"  "},{}]}}}`, `it sends no prompt`},
		{`{"name":"n","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.7,"parameters":{"modelId":"gpt-4o"}}`, `it sends no prompt`},
		{`{"name":"n","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.7,"parameters":{"modelId":"gpt-4o","messages":{"values":[{"content":""},{"content":"={{ $json.text }}"}]}}}`, ""},
		{`{"name":"n","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.7,"parameters":{"modelId":{"__rl":true,"mode":"id","value":"={{ $json.model }}"},"messages":{"values":[{"content":"Hi"}]}}}`, ""},
		{`{"name":"n","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.7,"parameters":{"resource":"image","operation":"generate"}}`, ""},
		{`{"name":"n","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":2.1,"parameters":{"model":"gpt-4o"}}`, ""},
		{`{"name":"n","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.3,"parameters":{"resource":"chat","modelId":"gpt-4o","messages":{"values":[{"content":"Hi"}]}}}`, `resource "chat" is not one the node defines`},
		// The legacy node's default text/complete posts to /v1/completions,
		// which refuses a chat model, at any typeVersion.
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"model":"gpt-4","prompt":"Hi"}}`, `refuses the chat model "gpt-4"`},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1.8,"parameters":{"model":"gpt-4o-mini","messages":{"values":[{"content":"Hi"}]}}}`, `refuses the chat model "gpt-4o-mini"`},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1.3,"parameters":{"resource":"text","operation":"complete","model":"gpt-3.5-turbo"}}`, `"gpt-3.5-turbo"`},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"model":"o3-mini"}}`, `"o3-mini"`},
		// The completion models it serves OpenAI shut down on 2026-09-28
		// (RetiredModelCall).
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"model":"gpt-3.5-turbo-instruct"}}`, `which OpenAI shut down on 2026-09-28`},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"model":"davinci-002"}}`, `which OpenAI shut down on 2026-09-28`},
		// Text complete, the node's default, with no model stored sends
		// gpt-3.5-turbo-instruct (TextDescription.js completeOperations).
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"prompt":"Hi"}}`, `"gpt-3.5-turbo-instruct", which OpenAI shut down on 2026-09-28`},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"operation":"moderate"}}`, ""},
		// Its chat model, stored nowhere, is n8n's default "gpt-3.5-turbo",
		// shut down on 2026-10-23.
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1.1,"parameters":{"resource":"chat","prompt":{"messages":[{"content":"Hi"}]}}}`, `"gpt-3.5-turbo", which OpenAI shut down on 2026-10-23`},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1.1,"parameters":{"resource":"chat","chatModel":"={{ $json.model }}"}}`, ""},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1.1,"parameters":{"resource":"image","prompt":"a cat"}}`, `"dall-e-2", which OpenAI shut down on 2026-05-12`},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1.1,"parameters":{"resource":"image","imageModel":"gpt-image-1.5","prompt":"a cat"}}`, ""},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"model":"={{ $json.model }}"}}`, ""},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"resource":"chat","model":"gpt-4o-mini"}}`, ""},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"model":"omni-moderation-latest"}}`, ""},
	} {
		f := Parse(NewSource("n.json", []byte(`{"nodes":[`+c.node+`],"connections":{}}`)))
		why, refused := NoBilledCall(f.Workflows[0].Nodes[0])
		if refused != (c.why != "") || !strings.Contains(why, c.why) {
			t.Errorf("%s: refused %v (%s), want %q", c.node, refused, why, c.why)
		}
	}
}

// TestRefusedCallFails: a refusal fails the node on every item when n8n's
// code throws (a credential it does not hold, the OpenAI app node's
// routers, its v1 message with no model or prompt) or the provider's
// refusal becomes the node's error (the legacy node's completions); an
// operation a node's description lacks is not known to fail (a
// declarative node may still send a request that answers).
func TestRefusedCallFails(t *testing.T) {
	for _, c := range []struct {
		node  string
		fails bool
	}{
		{`{"name":"n","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.3,"parameters":{"resource":"chat"}}`, true},
		{`{"name":"n","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":2.1,"parameters":{"resource":"text","operation":"message"}}`, true},
		{`{"name":"n","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.5,"parameters":{"modelId":"gpt-4o"}}`, true},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1.8,"parameters":{"model":"gpt-4o-mini"}}`, true},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"resource":"chat"},"credentials":{"openAIApi":{"id":"1"}}}`, true},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1.1,"parameters":{"resource":"completions"}}`, false},
		{`{"name":"n","type":"n8n-nodes-base.notion","typeVersion":2,"parameters":{"resource":"database","operation":"create"}}`, false},
		// A programmatic node asks for its credential only in the branch of
		// an operation it defines: Twitter v1 with an operation it lacks
		// asks for none, so the credential of another type does not fail it.
		{`{"name":"n","type":"n8n-nodes-base.twitter","typeVersion":1,"parameters":{"resource":"tweet","operation":"getRecent"},"credentials":{"twitterOAuth2Api":{"id":"1"}}}`, false},
	} {
		f := Parse(NewSource("n.json", []byte(`{"nodes":[`+c.node+`],"connections":{}}`)))
		r, refused := RefusedCall(f.Workflows[0].Nodes[0])
		if !refused || r.Fails != c.fails {
			t.Errorf("%s: refused %v, fails %v (%s), want refused, fails %v", c.node, refused, r.Fails, r.Why, c.fails)
		}
	}
}

// TestUndefinedOperation: what a node set to a resource or operation no
// configuration defines does, as its code says (noBranches): it throws, or
// returns no items or an empty item, sending no request and asking for no
// credential (NoBranch); a node whose code
// was not read may still send one (Telegram sends to the bare endpoint); a
// declarative node sends only a bare request to its base URL. An
// operation n8n shows only for another parameter's value (Ghost's admin
// API, TheHive's loaded lists, Discord's webhook) is defined.
func TestUndefinedOperation(t *testing.T) {
	for _, c := range []struct {
		node                             string
		refused                          bool
		fails, noCall, noItems, noBranch bool
	}{
		{`{"name":"n","type":"n8n-nodes-base.airtable","typeVersion":1,"parameters":{"authentication":"airtableTokenApi","operation":"create"}}`, true, true, true, false, true},
		// At a resource it does not define, n8n has dropped the operation,
		// which these read first: they throw before any request.
		{`{"name":"n","type":"n8n-nodes-base.googleSheets","typeVersion":4.7,"parameters":{"operation":"getAll"}}`, true, true, true, false, true}, // sheetName dropped: before the GET that finds the sheet
		{`{"name":"n","type":"n8n-nodes-base.googleSheets","typeVersion":3,"parameters":{"resource":"spreadsheet","operation":"getAll"}}`, true, true, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.googleSheets","typeVersion":4.4,"parameters":{"resource":"row","operation":"append"}}`, true, true, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.googleSheets","typeVersion":1,"parameters":{"resource":"googleSheets","operation":"append"}}`, true, true, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.googleSheets","typeVersion":2,"parameters":{"resource":"sheetRow","operation":"create"}}`, true, true, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.googleDocs","typeVersion":1,"parameters":{"resource":"docs","operation":"create"}}`, true, true, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.notion","typeVersion":2.2,"parameters":{"resource":"row","operation":"create"}}`, true, true, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.twitter","typeVersion":1,"parameters":{"resource":"tweets","operation":"create"}}`, true, true, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.gmail","typeVersion":1,"parameters":{"resource":"gmail","operation":"send"}}`, true, true, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.telegram","typeVersion":1.2,"parameters":{"resource":"chatMessage","operation":"sendMessage"}}`, true, true, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.twilio","typeVersion":1,"parameters":{"resource":"message","operation":"send"}}`, true, true, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.googleCalendar","typeVersion":1.3,"parameters":{"resource":"events","operation":"create"}}`, true, true, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.googleDocs","typeVersion":2,"parameters":{"operation":"append"}}`, true, false, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.notion","typeVersion":2,"parameters":{"resource":"database","operation":"create"}}`, true, false, true, true, true},
		{`{"name":"n","type":"n8n-nodes-base.notion","typeVersion":1,"parameters":{"operation":"createPage"}}`, true, false, true, true, true},
		{`{"name":"n","type":"n8n-nodes-base.slack","typeVersion":1,"parameters":{"operation":"postMessage"}}`, true, false, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.slack","typeVersion":1,"parameters":{"resource":"chat.postMessage","operation":"post"}}`, true, true, true, false, true},
		// Slack v1 reads channelId at reaction before its operation's ifs.
		{`{"name":"n","type":"n8n-nodes-base.slack","typeVersion":1,"parameters":{"resource":"reaction","operation":"list"}}`, true, true, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.gmail","typeVersion":1,"parameters":{"operation":"send"}}`, true, false, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.nocoDb","typeVersion":1,"parameters":{"resource":"item","operation":"create"}}`, true, true, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.nocoDb","typeVersion":3,"parameters":{"operation":"upsert"}}`, true, false, true, true, true},
		{`{"name":"n","type":"n8n-nodes-base.nocoDb","typeVersion":2,"parameters":{"operation":"create"}}`, false, false, false, false, false},
		// Telegram and GitHub send their request with no method or path
		// (TestBareEndpoint): no call of the node's work, not judged to fail.
		{`{"name":"n","type":"n8n-nodes-base.telegram","typeVersion":1.2,"parameters":{"resource":"message","operation":"post"}}`, true, false, true, false, false},
		{`{"name":"n","type":"n8n-nodes-base.github","typeVersion":1,"parameters":{"resource":"repository","operation":"getCommits"}}`, true, false, true, false, false},
		{`{"name":"n","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.3,"parameters":{"resource":"chat"}}`, true, true, true, false, false},
		// A declarative node finds no routing: a bare request to its base
		// URL, no call of the node's work, and whatever answers passes on.
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"resource":"text","operation":"generate","model":"gpt-4"}}`, true, false, true, false, false},
		{`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1.1,"parameters":{"resource":"completions"}}`, true, false, true, false, false},
		// Google Sheets v1 at sheet or spreadsheet: no branch matches, no items.
		{`{"name":"n","type":"n8n-nodes-base.googleSheets","typeVersion":1,"parameters":{"resource":"sheet","operation":"upsertRow"}}`, true, false, true, true, true},
		{`{"name":"n","type":"n8n-nodes-base.googleSheets","typeVersion":2,"parameters":{"resource":"spreadsheet","operation":"append"}}`, true, false, true, true, true},
		// An operation a resource defined lacks: Twilio and Trello throw
		// "not known", Postgres v1 "not supported", the routers of Airtable
		// v2, Discord v2, Item Lists v3 and Google Drive v3 a TypeError;
		// Google Calendar 1.3 throws sorting the empty items' keys.
		{`{"name":"n","type":"n8n-nodes-base.twilio","typeVersion":1,"parameters":{"resource":"sms","operation":"create"}}`, true, true, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.twilio","typeVersion":1,"parameters":{"operation":"sendMessage"}}`, true, true, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.trello","typeVersion":1,"parameters":{"resource":"card","operation":"add"}}`, true, true, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.postgres","typeVersion":1,"parameters":{"operation":"upsert"}}`, true, true, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.airtable","typeVersion":2.1,"parameters":{"operation":"list"}}`, true, true, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.discord","typeVersion":2,"parameters":{"operation":"sendMessage"}}`, true, true, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.itemLists","typeVersion":3.1,"parameters":{"operation":"aggregateItems"}}`, true, true, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.openWeatherMap","typeVersion":1,"parameters":{"operation":"getCurrent"}}`, true, true, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.todoist","typeVersion":1,"parameters":{"operation":"getTasks"}}`, true, true, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.todoist","typeVersion":2,"parameters":{"operation":"getTasks"}}`, true, false, false, false, false},
		{`{"name":"n","type":"n8n-nodes-base.googleDrive","typeVersion":3,"parameters":{"resource":"file","operation":"get"}}`, true, true, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.googleCalendar","typeVersion":1.3,"parameters":{"resource":"calendar","operation":"create"}}`, true, true, true, false, true},
		// Discord v2 on OAuth2 GETs the user's guilds first: not judged.
		{`{"name":"n","type":"n8n-nodes-base.discord","typeVersion":2,"parameters":{"authentication":"oAuth2","operation":"sendMessage"}}`, true, false, false, false, false},
		{`{"name":"n","type":"n8n-nodes-base.discord","typeVersion":2,"parameters":{"authentication":"oAuth2","resource":"chat","operation":"send"}}`, true, true, true, false, true},
		// No if matches: one empty item (Google Calendar 1 to 1.2, Microsoft
		// Teams v1, Shopify, Pushbullet) or none (Google Drive v1 and v2).
		{`{"name":"n","type":"n8n-nodes-base.googleCalendar","typeVersion":1,"parameters":{"resource":"calendar","operation":"createEvent"}}`, true, false, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.microsoftTeams","typeVersion":1,"parameters":{"operation":"GetMessages"}}`, true, false, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.shopify","typeVersion":1,"parameters":{"resource":"order","operation":"list"}}`, true, false, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.pushbullet","typeVersion":1,"parameters":{"operation":"send"}}`, true, false, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.googleDrive","typeVersion":1,"parameters":{"resource":"drive","operation":"listFiles"}}`, true, false, true, true, true},
		{`{"name":"n","type":"n8n-nodes-base.googleDrive","typeVersion":2,"parameters":{"resource":"file","operation":"create"}}`, true, false, true, true, true},
		// Part EJ. Slack v2 to 2.7 returns the item holding its "not found"
		// text, and reads channelId first at reaction; Spotify, LinkedIn
		// and Elasticsearch one empty item; Pushover and Google Translate
		// none. At a resource they lack, the operation is dropped.
		{`{"name":"n","type":"n8n-nodes-base.slack","typeVersion":2.2,"parameters":{"resource":"message","operation":"history"}}`, true, false, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.slack","typeVersion":2.4,"parameters":{"resource":"message","operation":"setDoNotDisturb"}}`, true, false, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.slack","typeVersion":2.3,"parameters":{"resource":"reaction","operation":"list"}}`, true, true, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.slack","typeVersion":2.2,"parameters":{"resource":"chat","operation":"post"}}`, true, true, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.spotify","typeVersion":1,"parameters":{"resource":"player","operation":"start"}}`, true, false, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.linkedIn","typeVersion":1,"parameters":{"resource":"post","operation":"uploadMedia"}}`, true, false, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.elasticsearch","typeVersion":1,"parameters":{"resource":"document","operation":"append"}}`, true, false, true, false, true},
		{`{"name":"n","type":"n8n-nodes-base.pushover","typeVersion":1,"parameters":{"resource":"message","operation":"send"}}`, true, false, true, true, true},
		{`{"name":"n","type":"n8n-nodes-base.googleTranslate","typeVersion":1,"parameters":{"resource":"language","operation":"detectLanguage"}}`, true, false, true, true, true},
		{`{"name":"n","type":"n8n-nodes-base.googleTranslate","typeVersion":2,"parameters":{"resource":"text","operation":"translate"}}`, true, true, true, false, true},
		// Execute Workflow never reads its hidden operation: it runs its
		// sub-workflow whatever the operation holds.
		{`{"name":"n","type":"n8n-nodes-base.executeWorkflow","typeVersion":1,"parameters":{"resource":"workflow","operation":"executeWorkflow","workflowId":"x"}}`, false, false, false, false, false},
		{`{"name":"n","type":"n8n-nodes-base.executeWorkflow","typeVersion":1.4,"parameters":{"operation":"run"}}`, false, false, false, false, false},
		// Merge v2's code has one if per mode and combinationMode: a value
		// it lacks (v1's "mergeByIndex") runs none and returns no items.
		{`{"name":"n","type":"n8n-nodes-base.merge","typeVersion":2,"parameters":{"mode":"combine","combinationMode":"mergeByIndex"}}`, true, false, true, true, true},
		{`{"name":"n","type":"n8n-nodes-base.merge","typeVersion":2.1,"parameters":{"mode":"mergeByIndex"}}`, true, false, true, true, true},
		{`{"name":"n","type":"n8n-nodes-base.merge","typeVersion":2.1,"parameters":{"mode":"combine","combinationMode":"mergeByPosition"}}`, false, false, false, false, false},
		{`{"name":"n","type":"n8n-nodes-base.merge","typeVersion":2,"parameters":{"mode":"combine"}}`, false, false, false, false, false},
		{`{"name":"n","type":"n8n-nodes-base.merge","typeVersion":2,"parameters":{"mode":"append","combinationMode":"mergeByIndex"}}`, false, false, false, false, false},
		{`{"name":"n","type":"n8n-nodes-base.merge","typeVersion":2,"parameters":{"mode":"combine","combinationMode":"={{ $json.how }}"}}`, false, false, false, false, false},
		{`{"name":"n","type":"n8n-nodes-base.merge","typeVersion":1,"parameters":{"mode":"mergeByIndex"}}`, false, false, false, false, false},
		// Defined in some configuration, or not judged.
		{`{"name":"n","type":"n8n-nodes-base.airtable","typeVersion":1,"parameters":{"authentication":"airtableOAuth2Api","resource":"record","operation":"append"}}`, false, false, false, false, false},
		{`{"name":"n","type":"n8n-nodes-base.ghost","typeVersion":1,"parameters":{"source":"adminApi","operation":"create"}}`, false, false, false, false, false},
		{`{"name":"n","type":"n8n-nodes-base.storyblok","typeVersion":1,"parameters":{"source":"managementApi","operation":"publish"}}`, false, false, false, false, false},
		{`{"name":"n","type":"n8n-nodes-base.theHive","typeVersion":1,"parameters":{"resource":"case","operation":"create"}}`, false, false, false, false, false},
		{`{"name":"n","type":"n8n-nodes-base.theHive","typeVersion":1,"parameters":{"resource":"observable","operation":"executeAnalyzer"}}`, false, false, false, false, false},
		{`{"name":"n","type":"n8n-nodes-base.discord","typeVersion":2,"parameters":{"authentication":"webhook","operation":"sendLegacy"}}`, false, false, false, false, false},
		{`{"name":"n","type":"n8n-nodes-base.notion","typeVersion":2.2,"parameters":{"resource":"database","operation":"={{ $json.op }}"}}`, false, false, false, false, false},
	} {
		f := Parse(NewSource("n.json", []byte(`{"nodes":[`+c.node+`],"connections":{}}`)))
		r, refused := RefusedCall(f.Workflows[0].Nodes[0])
		if refused != c.refused || r.Fails != c.fails || r.NoCall != c.noCall || r.NoItems != c.noItems || r.NoBranch != c.noBranch {
			t.Errorf("%s: refused %v %+v, want refused %v fails %v noCall %v noItems %v noBranch %v", c.node, refused, r, c.refused, c.fails, c.noCall, c.noItems, c.noBranch)
		}
	}
}

// TestBareEndpoint: Telegram and GitHub at an operation a resource they
// define lacks send their request with the endpoint ” (a POST to
// /bot<token>/, a GET to the API's root), which does none of their work.
func TestBareEndpoint(t *testing.T) {
	for _, c := range []struct {
		node string
		bare bool
	}{
		{`{"name":"n","type":"n8n-nodes-base.telegram","typeVersion":1,"parameters":{"resource":"message","operation":"send"}}`, true},
		{`{"name":"n","type":"n8n-nodes-base.github","typeVersion":1.1,"parameters":{"resource":"file","operation":"createUpdate"}}`, true},
		{`{"name":"n","type":"n8n-nodes-base.telegram","typeVersion":1.2,"parameters":{"resource":"chatMessage","operation":"send"}}`, false}, // throws: its operation dropped
		{`{"name":"n","type":"n8n-nodes-base.telegram","typeVersion":1.2,"parameters":{"resource":"message","operation":"sendMessage"}}`, false},
	} {
		f := Parse(NewSource("n.json", []byte(`{"nodes":[`+c.node+`],"connections":{}}`)))
		r, _ := RefusedCall(f.Workflows[0].Nodes[0])
		if r.Bare != c.bare || c.bare && (r.Fails || r.NoBranch || !strings.Contains(r.Why, "no method or path")) {
			t.Errorf("%s: %+v, want bare %v", c.node, r, c.bare)
		}
	}
}

// TestDroppedParameterWording: at a resource the node does not define,
// n8n drops the operation (shown only for the resources it defines); at
// an operation it lacks, a parameter shown only for the operations it
// defines (Google Sheets v4's sheetName, Slack v1's channelId at
// reaction). The node reads it first and throws, as seen on n8n 2.41.1.
func TestDroppedParameterWording(t *testing.T) {
	for _, c := range []struct{ node, why string }{
		{`{"name":"n","type":"n8n-nodes-base.notion","typeVersion":2.2,"parameters":{"resource":"row","operation":"create"}}`,
			`its resource "row" is not one the node defines: n8n drops its operation, shown only for the resources the node defines, which the code reads first: it throws "Could not get parameter" before any request`},
		{`{"name":"n","type":"n8n-nodes-base.googleSheets","typeVersion":4.5,"parameters":{"resource":"sheet","operation":"getAll"}}`,
			`its operation "getAll" is not one the node defines for "sheet": n8n drops its parameter "sheetName", shown only for the operations the node defines, which the code reads first: it throws "Could not get parameter" before any request`},
		{`{"name":"n","type":"n8n-nodes-base.slack","typeVersion":1,"parameters":{"resource":"reaction","operation":"list"}}`,
			`its operation "list" is not one the node defines for "reaction": n8n drops its parameter "channelId"`},
		{`{"name":"n","type":"n8n-nodes-base.googleSheets","typeVersion":4.5,"parameters":{"resource":"spreadsheet","operation":"getAll"}}`,
			`its operation "getAll" is not one the node defines for "spreadsheet": its code has no branch for it and throws before any request`},
	} {
		f := Parse(NewSource("n.json", []byte(`{"nodes":[`+c.node+`],"connections":{}}`)))
		r, refused := RefusedCall(f.Workflows[0].Nodes[0])
		if !refused || !strings.HasPrefix(r.Why, c.why) {
			t.Errorf("%s: refused %v, why %q, want %q", c.node, refused, r.Why, c.why)
		}
	}
}

// TestThrowsFirst: Airtable v1 throws on the API key authentication, its
// default, before it reads an operation or asks for a credential; Orbit
// always throws. Another authentication, Airtable v2, or an expression
// are not judged so.
func TestThrowsFirst(t *testing.T) {
	for _, c := range []struct {
		node string
		why  string // "" when the node does not throw first
	}{
		{`{"name":"n","type":"n8n-nodes-base.airtable","typeVersion":1,"parameters":{"operation":"append"},"credentials":{"airtableApi":{"id":"1"}}}`,
			`its authentication is "airtableApi" (the default of v1, not stored on the node), which Airtable v1 refuses before any request: "The API Key connection was deprecated by Airtable`},
		{`{"name":"n","type":"n8n-nodes-base.airtable","typeVersion":1,"parameters":{"authentication":"airtableApi","operation":"nope"},"credentials":{"slackApi":{"id":"1"}}}`,
			`its authentication is "airtableApi", which Airtable v1 refuses`},
		{`{"name":"n","type":"n8n-nodes-base.orbit","typeVersion":1,"parameters":{"resource":"member","operation":"upsert"}}`, `Orbit's service shut down`},
		{`{"name":"n","type":"n8n-nodes-base.airtable","typeVersion":1,"parameters":{"authentication":"airtableTokenApi","operation":"append"}}`, ""},
		{`{"name":"n","type":"n8n-nodes-base.airtable","typeVersion":1,"parameters":{"authentication":"={{ $json.auth }}","operation":"append"}}`, ""},
		{`{"name":"n","type":"n8n-nodes-base.airtable","typeVersion":2.1,"parameters":{"authentication":"airtableApi","operation":"create"}}`, ""},
		{`{"name":"n","type":"n8n-nodes-base.airtable","parameters":{"operation":"create"}}`, ""},
	} {
		f := Parse(NewSource("n.json", []byte(`{"nodes":[`+c.node+`],"connections":{}}`)))
		r, refused := RefusedCall(f.Workflows[0].Nodes[0])
		if c.why == "" {
			if refused {
				t.Errorf("%s: refused (%s), want not", c.node, r.Why)
			}
			continue
		}
		if !refused || !r.Fails || !r.NoCall || !strings.Contains(r.Why, c.why) {
			t.Errorf("%s: refused %v %+v, want fails with no call: %q", c.node, refused, r, c.why)
		}
	}
}

// TestThrowsFirstAreProgrammatic: every node throwsFirst reads is a
// programmatic node the table describes at both ends of its versions, and
// a parameter it reads is the one the table knows the default of.
func TestThrowsFirstAreProgrammatic(t *testing.T) {
	for _, x := range throwsFirst {
		for _, v := range []float64{x.from, x.to} {
			d, ok := DescribeNode(x.typ, v)
			if !ok || d.Version != v || d.Declarative() {
				t.Errorf("%s v%v: known %v, version %v, declarative %v", x.typ, v, ok, d.Version, d.Declarative())
			}
			if x.param != "" && (x.param != d.CredentialParam() || d.DefaultAuthentication() == "") {
				t.Errorf("%s v%v: reads %q, the table knows the default of %q (%q)", x.typ, v, x.param, d.CredentialParam(), d.DefaultAuthentication())
			}
		}
	}
}

// TestNoBranchesAreProgrammatic: every node whose code noBranches reads is
// a programmatic node the table describes at both ends of its versions (a
// declarative node sends its request whatever its operation).
func TestNoBranchesAreProgrammatic(t *testing.T) {
	for _, x := range noBranches {
		for _, v := range []float64{x.from, x.to} {
			d, ok := DescribeNode(x.typ, v)
			if !ok || d.Version != v || d.Declarative() || len(d.e.ops) == 0 {
				t.Errorf("%s v%v: known %v, version %v, declarative %v, operations %d", x.typ, v, ok, d.Version, d.Declarative(), len(d.e.ops))
			}
		}
	}
}
