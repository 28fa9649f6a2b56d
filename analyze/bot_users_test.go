package analyze

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestBotUsers: a bot's message goes to each user the data names only
// when its chat or user id reads the data, not a literal, $env, a Set
// node's literal or another node's parameter, and no chat trigger's run
// reaches it.
func TestBotUsers(t *testing.T) {
	const (
		schedule = `{"name":"Start","type":"n8n-nodes-base.scheduleTrigger","typeVersion":1.2,"position":[0,0],"parameters":{}}`
		chat     = `{"name":"Start","type":"n8n-nodes-base.telegramTrigger","typeVersion":1.1,"position":[0,0],"parameters":{"updates":["message"]}}`
		rows     = `{"name":"Rows","type":"n8n-nodes-base.googleSheets","typeVersion":4.5,"position":[200,0],"parameters":{"documentId":{"__rl":true,"value":"1abc","mode":"id"},"sheetName":{"__rl":true,"value":"Users","mode":"name"}}}`
		config   = `{"name":"Rows","type":"n8n-nodes-base.set","typeVersion":3.4,"position":[200,0],"parameters":{"assignments":{"assignments":[{"id":"a","name":"chat_id","value":"","type":"string"}]},"options":{}}}`
	)
	telegram := func(chatID string) string {
		b, _ := json.Marshal(chatID)
		return `{"name":"Send","type":"n8n-nodes-base.telegram","typeVersion":1.2,"position":[400,0],"parameters":{"chatId":` + string(b) + `,"text":"hi","additionalFields":{}}}`
	}
	discord := func(sendTo string) string {
		return `{"name":"Send","type":"n8n-nodes-base.discord","typeVersion":2,"position":[400,0],"parameters":{"resource":"message","sendTo":"` + sendTo +
			`","userId":{"__rl":true,"value":"={{ $json.user }}","mode":"id"},"channelId":{"__rl":true,"value":"={{ $json.channel }}","mode":"id"},"content":"hi"}}`
	}
	cases := []struct {
		name, trigger, source, send string
		want                        Consequence
	}{
		{"schedule, chat id from the rows", schedule, rows, telegram("={{ $json.user_id }}"), Harm},
		{"schedule, a named node's rows", schedule, rows, telegram("={{ $('Rows').item.json.user_id }}"), Harm},
		{"schedule, literal chat", schedule, rows, telegram("-100123"), Nuisance},
		{"schedule, $env chat", schedule, rows, telegram("={{ $env.CHAT }}"), Nuisance},
		{"schedule, a Set node's blank", schedule, config, telegram("={{ $json.chat_id }}"), Nuisance},
		{"schedule, another node's parameter", schedule, rows, telegram(`={{ $node["Rows"].parameter["sheetName"] }}`), Nuisance},
		{"chat trigger, an answer", chat, rows, telegram("={{ $json.user_id }}"), Nuisance},
		{"schedule, Discord DM", schedule, rows, discord("user"), Harm},
		{"schedule, Discord channel", schedule, rows, discord("channel"), Nuisance},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := `{"name":"W","nodes":[` + c.trigger + `,` + c.source + `,` + c.send + `],"connections":{` +
				`"Start":{"main":[[{"node":"Rows","type":"main","index":0}]]},"Rows":{"main":[[{"node":"Send","type":"main","index":0}]]}}}`
			s := Build([]*n8nschema.File{n8nschema.Parse(n8nschema.NewSource("w.json", []byte(src)))}, DefaultOptions())
			g := s.Graph(s.Workflows[0])
			e := ConsequenceIn(g, g.Node("Send"))
			if e.Consequence != c.want || !e.Message {
				t.Errorf("ConsequenceIn = %v (message %v, %q), want %v", e.Consequence, e.Message, e.Duplicate, c.want)
			}
		})
	}
}

// TestAnswersStarter: an HTTP send to the sender of the webhook request
// that started the run (a WhatsApp Cloud or Viber reply to the body's
// from, renamed by a Code node) is the bot's answer in that person's
// chat; a send to a number read from elsewhere, or one a schedule's run
// also reaches, is a message to a recipient taken from the data.
func TestAnswersStarter(t *testing.T) {
	const (
		hook     = `{"name":"Start","type":"n8n-nodes-base.webhook","typeVersion":2,"position":[0,0],"parameters":{"httpMethod":"POST","path":"guest-inbound"}}`
		schedule = `{"name":"Tick","type":"n8n-nodes-base.scheduleTrigger","typeVersion":1.2,"position":[0,200],"parameters":{}}`
		code     = `{"name":"Normalize","type":"n8n-nodes-base.code","typeVersion":2,"position":[200,0],"parameters":{"jsCode":"const b = ($input.first().json.body) || {};\nreturn [{ json: { sender: b.from || '', message: String(b.text || '') } }];"}}`
	)
	send := func(url, body string) string {
		b, _ := json.Marshal(body)
		return `{"name":"Send","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"position":[400,0],"parameters":{"method":"POST","url":"` + url + `","sendBody":true,"specifyBody":"json","jsonBody":` + string(b) + `}}`
	}
	whatsApp := "https://graph.facebook.com/v20.0/123/messages"
	viber := "https://chatapi.viber.com/pa/send_message"
	cases := []struct {
		name, send string
		tick       bool
		want       Consequence
	}{
		{"WhatsApp reply to the sender", send(whatsApp, `={{ ({ messaging_product: 'whatsapp', to: $node['Normalize'].json.sender, type: 'text', text: { body: 'hi' } }) }}`), false, Nuisance},
		{"Viber reply to the sender", send(viber, `={{ ({ receiver: $node['Normalize'].json.sender, type: 'text', text: 'hi' }) }}`), false, Nuisance},
		{"WhatsApp to the body's from", send(whatsApp, `={"messaging_product":"whatsapp","to":"{{ $('Start').item.json.body.from }}","text":{"body":"hi"}}`), false, Nuisance},
		{"WhatsApp to a number in the body", send(whatsApp, `={"messaging_product":"whatsapp","to":"{{ $('Start').item.json.body.customer_phone }}","text":{"body":"hi"}}`), false, Harm},
		{"a schedule's run reaches it too", send(whatsApp, `={"messaging_product":"whatsapp","to":"{{ $('Start').item.json.body.from }}","text":{"body":"hi"}}`), true, Harm},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			nodes, conns := hook+`,`+code+`,`+c.send, `"Start":{"main":[[{"node":"Normalize","type":"main","index":0}]]},"Normalize":{"main":[[{"node":"Send","type":"main","index":0}]]}`
			if c.tick {
				nodes, conns = nodes+`,`+schedule, conns+`,"Tick":{"main":[[{"node":"Send","type":"main","index":0}]]}`
			}
			src := `{"name":"W","nodes":[` + nodes + `],"connections":{` + conns + `}}`
			s := Build([]*n8nschema.File{n8nschema.Parse(n8nschema.NewSource("w.json", []byte(src)))}, DefaultOptions())
			g := s.Graph(s.Workflows[0])
			e := ConsequenceIn(g, g.Node("Send"))
			if e.Consequence != c.want || !e.Message {
				t.Errorf("ConsequenceIn = %v (message %v, %q), want %v", e.Consequence, e.Message, e.Duplicate, c.want)
			}
		})
	} // A reply addressed by the request's own message or conversation id:
	// Feishu/Lark's POST …/messages/{message_id}/reply, Chatwoot's POST
	// …/conversations/{conversation_id}/messages, from an HTTP Request or
	// from a Code node's this.helpers.httpRequest. The id must be one the
	// request carried; a private note answers no one.
	read := `{"name":"Normalize","type":"n8n-nodes-base.code","typeVersion":2,"position":[200,0],"parameters":{"jsCode":"const p = $input.item.json.body || {};\nreturn [{ json: { message_id: p.message_id, conversation_id: p.conversation?.id, text: p.content } }];"}}`
	other := `{"name":"Normalize","type":"n8n-nodes-base.code","typeVersion":2,"position":[200,0],"parameters":{"jsCode":"return [{ json: { message_id: 'om_1', conversation_id: 7 } }];"}}`
	reply := func(code string) string {
		b, _ := json.Marshal(code)
		return `{"name":"Send","type":"n8n-nodes-base.code","typeVersion":2,"position":[400,0],"parameters":{"jsCode":` + string(b) + `}}`
	}
	chatwoot := "await this.helpers.httpRequest({ method: 'POST', url: 'https://chat.example.com/api/v1/accounts/1/conversations/' + $json.conversation_id + '/messages', body: { content: 'hi', private: %s } });\nreturn [];"
	for _, c := range []struct {
		name, read, send string
		want             bool
	}{
		{"Feishu reply to the request's message_id", read, send("=https://open.feishu.cn/open-apis/im/v1/messages/{{ $json.message_id }}/reply", `={{ JSON.stringify({ content: 'hi', msg_type: 'text' }) }}`), true},
		{"Feishu reply to the body's message_id", read, send("=https://open.feishu.cn/open-apis/im/v1/messages/{{ $('Start').item.json.body.message_id }}/reply", `={"msg_type":"text"}`), true},
		{"Chatwoot reply from a Code node", read, reply(fmt.Sprintf(chatwoot, "false")), true},
		{"Chatwoot private note", read, reply(fmt.Sprintf(chatwoot, "true")), false},
		{"an id the request did not carry", other, send("=https://open.feishu.cn/open-apis/im/v1/messages/{{ $json.message_id }}/reply", `={"msg_type":"text"}`), false},
		{"a fixed message", read, send("https://open.feishu.cn/open-apis/im/v1/messages/om_1/reply", `={"msg_type":"text"}`), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := `{"name":"W","nodes":[` + hook + `,` + c.read + `,` + c.send + `],"connections":{"Start":{"main":[[{"node":"Normalize","type":"main","index":0}]]},"Normalize":{"main":[[{"node":"Send","type":"main","index":0}]]}}}`
			s := Build([]*n8nschema.File{n8nschema.Parse(n8nschema.NewSource("w.json", []byte(src)))}, DefaultOptions())
			g := s.Graph(s.Workflows[0])
			if got := g.AnswersStarter(g.Node("Send")); got != c.want {
				t.Errorf("AnswersStarter = %v, want %v", got, c.want)
			}
			if got := RelaysChat(g, g.Node("Start")); got != c.want {
				t.Errorf("RelaysChat = %v, want %v", got, c.want)
			}
		})
	}
}

// TestAnswersStarterThroughCode: the sender's number a Code node reads
// off the request reaches the reply through the code's variables, a
// field returned by name, or a second Code node that builds the whole
// message body (to: the parameter its function was called with). A
// number the code does not take from the request is no sender.
func TestAnswersStarterThroughCode(t *testing.T) {
	const hook = `{"name":"Start","type":"n8n-nodes-base.webhook","typeVersion":2,"position":[0,0],"parameters":{"httpMethod":"POST","path":"wa"}}`
	code := func(name, js string) string {
		b, _ := json.Marshal(js)
		return `{"name":"` + name + `","type":"n8n-nodes-base.code","typeVersion":2,"position":[200,0],"parameters":{"jsCode":` + string(b) + `}}`
	}
	send := func(body string) string {
		b, _ := json.Marshal(body)
		return `{"name":"Send","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"position":[400,0],"parameters":{"method":"POST","url":"https://graph.facebook.com/v20.0/123/messages","sendBody":true,"specifyBody":"json","jsonBody":` + string(b) + `}}`
	}
	walk := "const req = $input.first().json;\nconst body = req.body ?? req;\nlet raw = '';\nfor (const m of body.entry[0].changes[0].value.messages) { raw = m.from; }\nconst digits = String(raw).replace(/\\D/g, '');\n"
	build := "function textMessage(recipient, text) { return { messaging_product: 'whatsapp', to: recipient, type: 'text', text: { body: text } }; }\nreturn $input.all().map((item) => ({ json: { send: textMessage(%s, 'hi') } }));"
	toField := `={"messaging_product":"whatsapp","to":"{{ $json.chatId }}","text":{"body":"hi"}}`
	for _, c := range []struct {
		name, nodes, conns string
		want               bool
	}{
		{"a variable chain", code("Normalize", walk+"return [{ json: { chatId: digits + '@c.us' } }];") + `,` + send(toField), `"Normalize":{"main":[[{"node":"Send","type":"main","index":0}]]}`, true},
		{"a field returned by name", code("Normalize", walk+"const chatId = digits;\nreturn [{ json: { chatId, text: 'x' } }];") + `,` + send(toField), `"Normalize":{"main":[[{"node":"Send","type":"main","index":0}]]}`, true},
		{"a number the code fixes", code("Normalize", "const b = $input.first().json.body;\nconst chatId = '5511999990000';\nreturn [{ json: { chatId, text: b.text } }];") + `,` + send(toField), `"Normalize":{"main":[[{"node":"Send","type":"main","index":0}]]}`, false},
		{"a body a second Code node builds for the sender", code("Normalize", walk+"return [{ json: { phone: raw } }];") + `,` + code("Build", fmt.Sprintf(build, "item.json.phone")) + `,` + send(`={{ JSON.stringify($json.send) }}`),
			`"Normalize":{"main":[[{"node":"Build","type":"main","index":0}]]},"Build":{"main":[[{"node":"Send","type":"main","index":0}]]}`, true},
		{"a body a second Code node builds for another number", code("Normalize", walk+"return [{ json: { phone: raw } }];") + `,` + code("Build", fmt.Sprintf(build, "item.json.owner_phone")) + `,` + send(`={{ JSON.stringify($json.send) }}`),
			`"Normalize":{"main":[[{"node":"Build","type":"main","index":0}]]},"Build":{"main":[[{"node":"Send","type":"main","index":0}]]}`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := `{"name":"W","nodes":[` + hook + `,` + c.nodes + `],"connections":{"Start":{"main":[[{"node":"Normalize","type":"main","index":0}]]},` + c.conns + `}}`
			s := Build([]*n8nschema.File{n8nschema.Parse(n8nschema.NewSource("w.json", []byte(src)))}, DefaultOptions())
			g := s.Graph(s.Workflows[0])
			if got := g.AnswersStarter(g.Node("Send")); got != c.want {
				t.Errorf("AnswersStarter = %v, want %v", got, c.want)
			}
			if got := RelaysChat(g, g.Node("Start")); got != c.want {
				t.Errorf("RelaysChat = %v, want %v", got, c.want)
			}
		})
	}
}

// TestCodeBindsBounded: code that calls its function many times is read
// for its first calls only, and a call left open is read within its
// window, so that the read stays linear in the code's length.
func TestCodeBindsBounded(t *testing.T) {
	code := "function f(a) { return {to: a} }\n" + strings.Repeat("f(m.from)\n", 10000) + "return []"
	if got := len(codeBinds(code)["a"]); got != maxCallsRead {
		t.Fatalf("codeBinds read %d calls of f, want the first %d", got, maxCallsRead)
	}
	open := "function f(a) { return {to: a} }\n" + strings.Repeat("f(m.from, ", 10000) + "\nreturn []"
	if got := codeBinds(open)["a"]; len(got) != 0 {
		t.Fatalf("codeBinds read %d arguments of calls never closed, want none", len(got))
	}
	if got := codeBinds("function f(a) { return a }\nf(m.from)\n")["a"]; len(got) != 1 || got[0] != "m.from" {
		t.Fatalf("codeBinds of one closed call = %q, want [m.from]", got)
	}
}
