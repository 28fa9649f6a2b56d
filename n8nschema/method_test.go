package n8nschema

import "testing"

func TestDroppedMethod(t *testing.T) {
	cases := []struct {
		js, name      string
		stored, sends string
		ok            bool
	}{
		{`{"type":"n8n-nodes-base.httpRequest","typeVersion":1,"parameters":{"method":"POST"}}`, "method", "POST", "GET", true},
		{`{"type":"n8n-nodes-base.httpRequest","typeVersion":1,"parameters":{"method":" post \n"}}`, "method", "POST", "GET", true},
		// The case RS011 and IgnoredMethod once answered apart: v1 reads
		// requestMethod GET and drops method POST.
		{`{"type":"n8n-nodes-base.httpRequest","typeVersion":1,"parameters":{"requestMethod":"GET","method":"POST"}}`, "method", "POST", "GET", true},
		{`{"type":"n8n-nodes-base.httpRequest","typeVersion":2,"parameters":{"requestMethod":"PUT","httpMethod":"POST"}}`, "httpMethod", "POST", "PUT", true},
		{`{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"requestMethod":"POST"}}`, "requestMethod", "POST", "GET", true},
		{`{"type":"n8n-nodes-base.httpRequest","typeVersion":1,"parameters":{"requestMethod":"={{ $json.m }}","method":"POST"}}`, "method", "POST", "", true},
		{`{"type":"n8n-nodes-base.httpRequest","typeVersion":1,"parameters":{"method":"whatever"}}`, "method", "", "", false},
		{`{"type":"n8n-nodes-base.httpRequest","typeVersion":1,"parameters":{"authMethod":"bearer"}}`, "authMethod", "", "", false},
		{`{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST"}}`, "method", "", "", false}, // read, not dropped
		{`{"type":"n8n-nodes-base.webhook","typeVersion":2,"parameters":{"httpMethod":"POST"}}`, "httpMethod", "", "", false},
	}
	for _, c := range cases {
		stored, sends, ok := DroppedMethod(node(t, c.js), c.name)
		if stored != c.stored || sends != c.sends || ok != c.ok {
			t.Errorf("DroppedMethod(%s, %q) = %q, %q, %v; want %q, %q, %v", c.js, c.name, stored, sends, ok, c.stored, c.sends, c.ok)
		}
	}
	// IgnoredMethod (RS010): a v1 or v2 node that stores "method" and
	// sends GET, by default or as its stored requestMethod.
	for _, c := range []struct {
		js      string
		m       string
		def, ok bool
	}{
		{`{"type":"n8n-nodes-base.httpRequest","typeVersion":1,"parameters":{"method":"POST"}}`, "POST", true, true},
		{`{"type":"n8n-nodes-base.httpRequest","typeVersion":1,"parameters":{"requestMethod":"GET","method":"POST"}}`, "POST", false, true},
		{`{"type":"n8n-nodes-base.httpRequest","typeVersion":1,"parameters":{"requestMethod":"PUT","method":"POST"}}`, "", false, false},
		{`{"type":"n8n-nodes-base.httpRequest","typeVersion":1,"parameters":{"method":"whatever"}}`, "", false, false},
	} {
		m, def, ok := IgnoredMethod(node(t, c.js))
		if m != c.m || def != c.def || ok != c.ok {
			t.Errorf("IgnoredMethod(%s) = %q, %v, %v; want %q, %v, %v", c.js, m, def, ok, c.m, c.def, c.ok)
		}
	}
}
