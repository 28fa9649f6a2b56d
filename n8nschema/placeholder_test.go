package n8nschema

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestPlaceholderHostLabels checks PlaceholderHost's reading of a label
// that starts with "your" against a regular expression of it, on random
// hosts of the pieces it reads.
func TestPlaceholderHostLabels(t *testing.T) {
	fill := regexp.MustCompile(`(^|\.)your($|\.|-|_|n8n|[a-z]{3})`)
	byLabel := func(h string) bool {
		return fill.MatchString(strings.NewReplacer("yourstory", "x", "yourmembership", "x").Replace(h))
	}
	pieces := []string{"your", "you", "r", ".", "-", "_", "domain", "dom", "app", "api", "n8n", "x", "com", "my", "yourdomain", "s", "ls", "8"}
	rng := rand.New(rand.NewPCG(3, 29))
	for i := 0; i < 100000; i++ {
		var b strings.Builder
		for k := rng.IntN(6); k >= 0; k-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		h := b.String()
		if strings.HasSuffix(h, ".test") || strings.HasSuffix(h, ".invalid") || strings.Contains(h, "example") {
			continue // placeholders for another reason
		}
		if got, want := PlaceholderHost(h), byLabel(h); got != want {
			t.Fatalf("PlaceholderHost(%q) = %v, by label %v", h, got, want)
		}
	}
	for h, want := range map[string]bool{"yourdomain.com": true, "api.your-instance.app": true, "myyourdomain.com": false,
		"yours.com": false, "n8n.yourcompany.io": true, "api.yourcourier.com": true, "yourshop.io": true, "your.nextcloud.com": true,
		"yourls.org": false, "api.yourmembership.com": false, "<host>": true, "api.[region].x.com": true, "a>b": true, "x]": true, "a<b": true, "yourstory.com": false, "your1.com": false, "example.com": true, "api.stripe.com": false} {
		if got := PlaceholderHost(h); got != want {
			t.Errorf("PlaceholderHost(%q) = %v, want %v", h, got, want)
		}
	}
}

func TestPlaceholder(t *testing.T) {
	for s, want := range map[string]bool{
		"REPLACE_WITH_CREDENTIAL_ID": true,
		"YOUR_GEMINI_CREDENTIAL_ID":  true,
		"{{APIFY_CREDENTIAL_ID}}":    true,
		"{{INSTANCE_ID}}":            true,
		"REPLACE_WITH_INSTANCE_ID":   true,
		"xxx":                        true,
		"YourCredentialId":           true, // a capitalised word after "Your", as blankURLPart read it
		"replace":                    true,
		"yours_truly":                true, // snake_case, not "your"
		"Yourls":                     false,
		"":                           false,
		"1":                          false, // an n8n 0.x credential id
		"xEdXDIPxkqE6OLxQ":           false, // a nanoid n8n gave
		"8f3a2b1c9d0e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a": false,
	} {
		if got := Placeholder(s); got != want {
			t.Errorf("Placeholder(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestPlaceholderSplit checks the three placeholder patterns against the
// one alternation they replace, on random strings of the pieces it reads.
func TestPlaceholderSplit(t *testing.T) {
	one := regexp.MustCompile(`(?i)^(<[^>]*>|\[[^\]]*\]|\{[^}]*\}|\{\{[^}]*\}\}|(your|replace)([\s_-](?s:.*))?|x{3,}|\.{3}|(?s:.*)placeholder(?s:.*)|changeme|todo|tbd|.*api[\s_-]?key.*|.*secret.*|.*token.*)$|^(?-i:(Your|Replace)[A-Z])(?s:.*)$|^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$`)
	pieces := []string{"<", ">", "[", "]", "{", "}", "{{", "}}", "your", "YOUR", "Your", "Replace", " ", "_", "-", "\n", "x", "X", ".", "replace",
		"PlaceHolder", "changeme", "todo", "TBD", "api", "key", "KEY", "secret", "token", "a", "Z", "9", "id", "\u212a"}
	rng := rand.New(rand.NewPCG(12, 3))
	matched := 0
	for i := 0; i < 200000; i++ {
		s := joinRandom(rng, pieces)
		want := one.MatchString(s)
		if got := placeholder(s); got != want {
			t.Fatalf("placeholder(%q) = %v, one pattern %v", s, got, want)
		}
		if want {
			matched++
		}
	}
	if matched < 1000 {
		t.Fatalf("only %d random strings matched", matched)
	}
}

// TestMayBePlaceholder checks that the gate before the placeholder patterns lets
// through every string the regexp matches, on random strings of the
// pieces its alternatives read (cases, folds, separators, non-ASCII).
func TestMayBePlaceholder(t *testing.T) {
	pieces := []string{"your", "YOUR", "Yo", "ur", "replace", "REPLACE", "placeholder", "PlaceHolder", "changeme", "todo",
		"TBD", "api", "Api", "key", "KEY", "secret", "SECRET", "token", "Token", "x", "X", "xxx", ".", "...", "<", ">",
		"[", "]", "{", "}", "{{", "}}", "_", "-", " ", "\t", "\n", "a", "Z", "9", "abc", "ſ", "K", "é", "ID"}
	rng := rand.New(rand.NewPCG(12, 29))
	matched := 0
	for i := 0; i < 200000; i++ {
		s := joinRandom(rng, pieces)
		if placeholder(s) {
			matched++
			if !mayBePlaceholder(s) {
				t.Fatalf("mayBePlaceholder(%q) = false, but the placeholder patterns match it", s)
			}
		}
	}
	if matched < 1000 {
		t.Fatalf("only %d random strings matched: the test reads too little", matched)
	}
}

// joinRandom joins one to five pieces drawn at random.
func joinRandom(rng *rand.Rand, pieces []string) string {
	var b strings.Builder
	for k := rng.IntN(5); k >= 0; k-- {
		b.WriteString(pieces[rng.IntN(len(pieces))])
	}
	return b.String()
}

// TestBlankTarget checks which parameters name a resource by a template's
// blank: a resource locator's value or an id parameter, not an expression,
// not an ordinary id, not a name typed in "name" mode that only reads like
// a constant, and not Microsoft Graph's braced worksheet GUID.
func TestBlankTarget(t *testing.T) {
	for _, c := range []struct {
		params string
		want   string
	}{
		{`{"calendar":{"__rl":true,"value":"USER_EMAIL_PLACEHOLDER","mode":"id"}}`, "calendar"},
		{`{"documentId":{"__rl":true,"value":"YOUR_SPREADSHEET_ID","mode":"list"}}`, "documentId"},
		{`{"channelId":{"__rl":true,"value":"=REPLACE_WITH_CHANNEL_ID","mode":"id"}}`, "channelId"},
		{`{"owner":{"__rl":true,"value":"<YOUR_GITHUB_USERNAME>","mode":"name"}}`, "owner"},
		{`{"chatId":"YOUR_TELEGRAM_CHAT_ID","text":"hi"}`, "chatId"},
		{`{"phoneNumberId":"REPLACE_WITH_PHONE_NUMBER_ID"}`, "phoneNumberId"},
		{`{"from":"YOUR_TWILIO_PHONE_NUMBER","to":"={{ $json.phone }}","message":"hi"}`, "from"},
		{`{"from":"+15551234567","to":"YOUR_PHONE"}`, ""},
		{`{"from":"={{ $json.sender }}"}`, ""},
		{`{"documentId":{"__rl":true,"value":"1AbCdEfGh","mode":"id"}}`, ""},
		{`{"documentId":{"__rl":true,"value":"={{ $json.sheet }}","mode":"id"}}`, ""},
		{`{"sheetName":{"__rl":true,"value":"RAW_DATA","mode":"name"}}`, ""},
		{`{"sheetName":{"__rl":true,"value":"Token usage","mode":"name"}}`, ""},
		{`{"worksheet":{"__rl":true,"value":"{00000000-0001-0000-0000-000000000000}","mode":"id"}}`, ""},
		{`{"sheetName":{"__rl":true,"value":0,"mode":"list"}}`, ""},
		{`{"text":"YOUR_MESSAGE_HERE","chatId":"123456"}`, ""},
		{`{"resource":"message","chatId":"={{ $json.chat.id }}"}`, ""},
		{`{"tableId":"news_card_queue"}`, ""},
		{`{"tableId":"todo"}`, ""},
		{`{"tableId":"token_usage"}`, ""},
		{`{"calendar":{"__rl":true,"value":"your_email@gmail.com","mode":"list"}}`, "calendar"},
		{`{"dataTableId":{"__rl":true,"value":"placeholder-table-id","mode":"list"}}`, "dataTableId"},
		{`{"documentId":"{{WEB_SHEET_ID}}"}`, "documentId"},
		{`{"options":{"value":"YOUR_SPREADSHEET_ID","mode":"id"}}`, ""}, // no locator: no "__rl"
		// An id masked with x after the prefix every such id has.
		{`{"channelId":{"__rl":true,"value":"C0XXXXXXXXX","mode":"id"}}`, "channelId"},
		{`{"documentId":{"__rl":true,"value":"1XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX","mode":"id"}}`, "documentId"},
		{`{"baseId":"appXXXXXXXXXXXXX"}`, "baseId"},
		{`{"from":"+33XXXXXXXXX"}`, "from"},
		{`{"labelId":"Label_XXXXXXXXXXXXXXXXXX"}`, "labelId"},
		{`{"channelId":{"__rl":true,"value":"C05AB12CD","mode":"id"}}`, ""},
		{`{"channelId":{"__rl":true,"value":"C05AB12XXX","mode":"id"}}`, ""},     // three x: a real id may end so
		{`{"documentId":{"__rl":true,"value":"1AbCdEfGhXXXX","mode":"id"}}`, ""}, // x shorter than the rest
		{`{"sheetName":{"__rl":true,"value":"TaxXXXX","mode":"name"}}`, ""},      // a name is the owner's words
		{`{"channelId":{"__rl":true,"value":"C0.XXXXXXXX","mode":"id"}}`, ""},    // not an id's characters
	} {
		n := node(t, `{"type":"n8n-nodes-base.googleSheets","typeVersion":4.5,"parameters":`+c.params+`}`)
		got, ok := BlankTarget(n)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("BlankTarget(%s) = %q, %v; want %q", c.params, got, ok, c.want)
		}
	}
}

// TestBlankTargetDiscordGuild: Discord v2's guild is a blank only where the
// operation sends it (unsentTarget): always with OAuth2, with a bot token
// in the URL of channel create and getAll, every member operation and a
// reply's message_reference; never with a webhook.
func TestBlankTargetDiscordGuild(t *testing.T) {
	const guild = `"guildId":{"__rl":true,"mode":"id","value":"123456789"}`
	for _, c := range []struct {
		params string
		want   bool
	}{
		{`{` + guild + `,"resource":"message","operation":"getAll"}`, false},
		{`{` + guild + `,"resource":"message","operation":"deleteMessage"}`, false},
		{`{` + guild + `,"resource":"message","operation":"react"}`, false},
		{`{` + guild + `,"resource":"message","operation":"sendAndWait"}`, false},
		{`{` + guild + `,"resource":"message","operation":"send","options":{}}`, false},
		{`{` + guild + `,"resource":"message","options":{}}`, false}, // send, the default
		{`{` + guild + `,"resource":"message","operation":"send","options":{"message_reference":"1248678443432808512"}}`, true},
		{`{` + guild + `,"resource":"channel","operation":"get"}`, false},
		{`{` + guild + `,"resource":"channel","operation":"deleteChannel"}`, false},
		{`{` + guild + `,"resource":"channel","operation":"update"}`, false},
		{`{` + guild + `,"resource":"channel","operation":"create"}`, true},
		{`{` + guild + `,"resource":"channel","operation":"getAll"}`, true},
		{`{` + guild + `}`, true}, // channel create, the defaults
		{`{` + guild + `,"resource":"member","operation":"getAll"}`, true},
		{`{` + guild + `,"resource":"member","operation":"roleAdd"}`, true},
		{`{` + guild + `,"authentication":"oAuth2","resource":"message","operation":"getAll"}`, true},
		{`{` + guild + `,"authentication":"botToken","resource":"message","operation":"getAll"}`, false},
		{`{` + guild + `,"authentication":"webhook","resource":"message","operation":"getAll"}`, false},
		{`{` + guild + `,"resource":"={{ $json.r }}","operation":"getAll"}`, true},
		// A server's URL is matched to its id for every resource but the
		// webhook's: read whatever the operation sends.
		{`{"guildId":{"__rl":true,"mode":"url","value":"YOUR_SERVER_ID"},"resource":"message","operation":"getAll"}`, true},
	} {
		n := node(t, `{"type":"n8n-nodes-base.discord","typeVersion":2,"parameters":`+c.params+`}`)
		if _, got := BlankTarget(n); got != c.want {
			t.Errorf("BlankTarget(%s) = %v, want %v", c.params, got, c.want)
		}
	}
}

// TestMockWrite checks the mock and echo services and ReqRes's paths.
func TestMockWrite(t *testing.T) {
	for _, c := range []struct {
		host, path string
		want       bool
	}{
		{"jsonplaceholder.typicode.com", "/posts", true},
		{"dummyjson.com", "/products/add", true},
		{"httpbin.org", "/post", true},
		{"www.httpbin.org", "/anything", true},
		{"postman-echo.com", "/post", true},
		{"reqres.in", "/api/users", true},
		{"reqres.in", "/api/users/2", true},
		{"reqres.in", "/api/collections/posts/records", false},
		{"reqres.in", "/api/usersx", false},
		{"webhook.site", "/0c1d2e3f", false},
		{"my-json-server.typicode.com", "/posts", false},
		{"api.example.org", "/posts", false},
	} {
		if got := MockWrite(c.host, c.path); got != c.want {
			t.Errorf("MockWrite(%q, %q) = %v, want %v", c.host, c.path, got, c.want)
		}
	}
}

// TestFillInShapes checks the hand-written fill-in test (fillIn) against
// the patterns it stands for, and constantRE's prefilter (mayBeConstant),
// on random strings of the patterns' pieces in both cases, with newlines,
// the Kelvin sign and the long s.
func TestFillInShapes(t *testing.T) {
	shapes := regexp.MustCompile(`(?i)^(<[^>]*>|\[[^\]]*\]|\{[^}]*\}|\{\{[^}]*\}\}|(your|replace)([\t\n\f\r _-](?s:.*))?|x{3,}|\.{3}|changeme)$|^(?-i:(Your|Replace)[A-Z])(?s:.*)$|(?i)^(?s:.*)placeholder(?s:.*)$`)
	pieces := []string{"your", "YOUR", "Your", "x", "X", ".", "<", ">", "[", "]", "{", "}", "replace", "REPLACE", "Replace", "changeme", "ChangeMe",
		"placeholder", "PlaceHolder", "plac", "eholder", "_", "-", " ", "\n", "A", "Z", "a", "0", "9", "id", "ID", "\u212a", "\u017f", "é", "="}
	rng := rand.New(rand.NewPCG(14, 1))
	matched := 0
	for i := 0; i < 300000; i++ {
		var b strings.Builder
		for k := rng.IntN(6); k >= 0; k-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		want := shapes.MatchString(s)
		if got := fillIn(s); got != want {
			t.Fatalf("fillIn(%q) = %v, the patterns %v", s, got, want)
		}
		if want {
			matched++
		}
		if constantRE.MatchString(s) && !mayBeConstant(s) {
			t.Fatalf("mayBeConstant(%q) = false, but the pattern matches", s)
		}
	}
	if matched < 1000 {
		t.Fatalf("only %d random strings matched", matched)
	}
}
