package analyze

import (
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// A call to a resource a template's blank names cannot be made as
// exported, but it reaches a real service once the owner fills the blank
// in; a request with no URL or to a placeholder host reaches none.
func TestCallsNowhere(t *testing.T) {
	src := `{"name":"w","nodes":[
{"name":"Alert","type":"n8n-nodes-base.telegram","typeVersion":1.2,"position":[0,0],"parameters":{"chatId":"YOUR_TELEGRAM_CHAT_ID","text":"hi"},"credentials":{"telegramApi":{"id":"1","name":"bot"}}},
{"name":"No URL","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"position":[0,200],"parameters":{"method":"POST"}},
{"name":"Placeholder","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"position":[0,400],"parameters":{"method":"POST","url":"https://yourdomain.com/hook"}},
{"name":"Real","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"position":[0,600],"parameters":{"url":"https://api.coinpaprika.com/v1/tickers/btc-bitcoin"}}
],"connections":{}}`
	f := n8nschema.Parse(n8nschema.NewSource("w.json", []byte(src)))
	s := Build([]*n8nschema.File{f}, DefaultOptions())
	want := map[string][2]bool{ // CannotCall, CallsNowhere
		"Alert": {true, false}, "No URL": {true, true}, "Placeholder": {true, true}, "Real": {false, false},
	}
	for name, w := range want {
		o := op(t, s, "w", name)
		if got := [2]bool{CannotCall(o), CallsNowhere(o)}; got != w {
			t.Errorf("%s: CannotCall, CallsNowhere = %v, want %v", name, got, w)
		}
	}
}
