package analyze

import (
	"testing"

	"github.com/stormcheck/stormcheck/internal/corpustest"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestMayMessage: mayMessage, which spares RelaysChat the consequence of
// nodes that send no message, is true of every node whose consequence is
// a message: hand-written nodes both ways, then every node of the three
// corpora (it fails if the test drops a way a message is found).
func TestMayMessage(t *testing.T) {
	http := func(method, url, extra string) string {
		return `{"name":"Call","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"` + method + `","url":"` + url + `"` + extra + `}}`
	}
	for _, c := range []struct {
		name, node string
		may, msg   bool
	}{
		{"slack send", `{"name":"s","type":"n8n-nodes-base.slack","typeVersion":2.2,"parameters":{"select":"channel","channelId":"C1","text":"hi"}}`, true, true},
		{"gmail tool", `{"name":"g","type":"n8n-nodes-base.gmailTool","typeVersion":2.1,"parameters":{"sendTo":"a@b.c","subject":"s","message":"m"}}`, true, true},
		{"set", `{"name":"s","type":"n8n-nodes-base.set","typeVersion":3.4,"parameters":{}}`, false, false},
		{"sheet append", `{"name":"s","type":"n8n-nodes-base.googleSheets","typeVersion":4.5,"parameters":{"operation":"append"}}`, false, false},
		{"get", http("GET", "https://x.example.com/messages", ""), false, false},
		{"post to a message path", http("POST", "https://api.example.org/v1/conversations/{{ $json.id }}/messages", `,"sendBody":true,"bodyParameters":{"parameters":[{"name":"text","value":"={{ $json.text }}"}]}`), true, true},
		{"post to a long-s message path", http("POST", "https://api.example.org/v1/\u017fms", ""), true, true},
		{"post to a team host", http("POST", "https://hooks.slack.com/services/T/B/X", `,"sendBody":true,"bodyParameters":{"parameters":[{"name":"text","value":"hi"}]}`), true, true},
		{"post naming a recipient", http("POST", "https://api.example.org/v1/notify", `,"sendBody":true,"bodyParameters":{"parameters":[{"name":"to","value":"={{ $json.phone }}"},{"name":"body","value":"hi"}]}`), true, true},
		{"post to a team channel", http("POST", "https://chat.example.org/api/post", `,"sendBody":true,"specifyBody":"json","jsonBody":"{\"channel\": \"#ops\", \"text\": \"down\"}"`), true, true},
		{"post an order", http("POST", "https://erp.example.com/api/orders", `,"sendBody":true,"bodyParameters":{"parameters":[{"name":"sku","value":"={{ $json.sku }}"}]}`), false, false},
	} {
		f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(`{"nodes":[`+c.node+`],"connections":{}}`)))
		if len(f.Workflows) != 1 || len(f.Workflows[0].Nodes) != 1 {
			t.Fatalf("%s: bad test node", c.name)
		}
		n := f.Workflows[0].Nodes[0]
		if got := mayMessage(n); got != c.may {
			t.Errorf("%s: mayMessage %v, want %v", c.name, got, c.may)
		}
		if got := ConsequenceOf(n).Message; got != c.msg {
			t.Errorf("%s: Message %v, want %v", c.name, got, c.msg)
		}
	}
	for _, name := range []string{"n8n-real", "n8n-more", "n8n-fresh"} {
		may, msg, none := 0, 0, 0
		for _, f := range corpustest.FilesOf(t, name) {
			for _, w := range f.Workflows {
				for _, n := range w.Nodes {
					m := mayMessage(n)
					switch e := ConsequenceOf(n); {
					case e.Message && !m:
						t.Errorf("%s %q node %q: a message, and mayMessage says none", name, w.Name, n.Name)
					case e.Message:
						msg++
					case m:
						may++
					default:
						none++
					}
				}
			}
		}
		if msg == 0 || none == 0 {
			t.Errorf("%s: %d messages, %d kept that are none, %d spared: the corpus tests one side only", name, msg, may, none)
		}
	}
}

// TestMessagePath: the stems' test before messagePathRE answers as the
// pattern does, in any case, past ASCII included.
func TestMessagePath(t *testing.T) {
	for _, p := range []string{"", "/", "/messages", "/v1/Message/x", "/SMS", "/smsx", "/e-mail", "/emails/", "/Mails",
		"/send", "/send-text", "/SEND_now/1", "/sendMessage", "/whatsapp", "/WhatsApp/", "/orders", "/messaging", "/mess",
		"/\u017fms", "/\u017fend", "/me\u017f\u017fage", "/caf\u00e9/send", "/caf\u00e9", "/resend", "/x/sms/y", "mail"} {
		if got, want := messagePath(p), messagePathRE.MatchString(p); got != want {
			t.Errorf("messagePath(%q) = %v, messagePathRE %v", p, got, want)
		}
	}
}
