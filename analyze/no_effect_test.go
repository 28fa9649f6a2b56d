package analyze

import (
	"encoding/json"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestCodeRequestEffect: code whose every request is a GET or a HEAD, by
// a literal method or by none, only reads; a write method, a method the
// code computes, or a module it loads may write.
func TestCodeRequestEffect(t *testing.T) {
	for _, c := range []struct {
		code string
		want bool
	}{
		{`return [{json: await this.helpers.httpRequest({url: 'https://x/y', method: 'GET'})}];`, false},
		{`const r = await this.helpers.httpRequest({"method": "get", "url": u}); return [{json: r}];`, false},
		{`const r = await this.helpers.httpRequest({url: u, json: true}); return [{json: r}];`, false},
		{`const r = await fetch(u); return [{json: await r.json()}];`, false},
		{`const o = {url: u}; o.method = 'HEAD'; await this.helpers.request(o); return items;`, false},
		{`if (x.method == 'POST') {} return [{json: await this.helpers.httpRequest({url: u})}];`, false},
		{`return [{json: items.map(i => i.json)}];`, false}, // sends nothing
		{`await this.helpers.httpRequest({url: u, method: 'POST', body: b}); return items;`, true},
		{`await this.helpers.httpRequest({url: a}); await this.helpers.httpRequest({url: b, method: 'PATCH'}); return items;`, true},
		{`await fetch(u, {method: "DELETE"}); return items;`, true},
		{"await this.helpers.httpRequest({url: u, method: `PUT`}); return items;", true},
		{`await this.helpers.httpRequest({url: u, method: m}); return items;`, true},
		{`await this.helpers.httpRequest({url: u, method: post ? 'POST' : 'GET'}); return items;`, true},
		{`const axios = require('axios'); const r = await axios.get(u); return [{json: r.data}];`, true},
	} {
		params, _ := json.Marshal(map[string]string{"jsCode": c.code})
		f := n8nschema.Parse(n8nschema.NewSource("c.json", []byte(`{"nodes":[{"name":"Code","type":"n8n-nodes-base.code","typeVersion":2,"parameters":`+string(params)+`}],"connections":{}}`)))
		if got := HasEffect(f.Workflows[0].Nodes[0]); got != c.want {
			t.Errorf("%s: effect %v, want %v", c.code, got, c.want)
		}
	}
}
