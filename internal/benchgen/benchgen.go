// Package benchgen generates workflow sets for benchmarks and the tests that
// pin their shape: inputs of a chosen size that exercise retries,
// sub-workflow calls, AI sub-nodes and cycles without ../shared.
package benchgen

import (
	"fmt"
	"strings"
)

// Workflow generates one workflow of n nodes (rounded down to blocks of
// ten) and the sub-workflow it calls, as one JSON array. Each block is
//
//	HTTP (3 tries) -> Set -> If -0-> Wait -> HTTP   (an unguarded retry loop)
//	                         If -1-> Execute Workflow (2 tries) -> Agent (2 tries) -> Code -> next block
//	Model -ai_languageModel-> Agent, Tool (Call Workflow Tool) -ai_tool-> Agent, Embed -ai_embedding-> Code
//
// so the graph has retries, sub-workflow calls, AI sub-nodes and cycles.
func Workflow(n int) []byte {
	var nodes, conns []string
	node := func(name, typ, params, extra string) {
		nodes = append(nodes, fmt.Sprintf(`{"id":%q,"name":%q,"type":%q,"typeVersion":2,"position":[0,0],"parameters":{%s}%s}`,
			name, name, typ, params, extra))
	}
	edge := func(from string, outs ...[]string) {
		var slots []string
		for _, o := range outs {
			var cs []string
			for _, to := range o {
				cs = append(cs, fmt.Sprintf(`{"node":%q,"type":"main","index":0}`, to))
			}
			slots = append(slots, "["+strings.Join(cs, ",")+"]")
		}
		conns = append(conns, fmt.Sprintf(`%q:{"main":[%s]}`, from, strings.Join(slots, ",")))
	}
	ai := func(from, typ, to string) {
		conns = append(conns, fmt.Sprintf(`%q:{%q:[[{"node":%q,"type":%q,"index":0}]]}`, from, typ, to, typ))
	}
	node("Start", "n8n-nodes-base.scheduleTrigger", "", "")
	prev := "Start"
	sub := `"workflowId":{"__rl":true,"value":"sub","mode":"id"}`
	for b := range n / 10 {
		h, s, i, w, x, a, c := fmt.Sprint("HTTP ", b), fmt.Sprint("Set ", b), fmt.Sprint("If ", b), fmt.Sprint("Wait ", b),
			fmt.Sprint("Exec ", b), fmt.Sprint("Agent ", b), fmt.Sprint("Code ", b)
		node(h, "n8n-nodes-base.httpRequest", `"method":"POST","url":"https://api.example.com/x"`, `,"retryOnFail":true,"maxTries":3`)
		node(s, "n8n-nodes-base.set", "", "")
		node(i, "n8n-nodes-base.if", "", "")
		node(w, "n8n-nodes-base.wait", "", "")
		node(x, "n8n-nodes-base.executeWorkflow", sub, `,"retryOnFail":true,"maxTries":2`)
		node(a, "@n8n/n8n-nodes-langchain.agent", `"options":{}`, `,"retryOnFail":true,"maxTries":2`)
		node(c, "n8n-nodes-base.code", "", "")
		node(fmt.Sprint("Model ", b), "@n8n/n8n-nodes-langchain.lmChatOpenAi", `"options":{"maxRetries":2}`, "")
		node(fmt.Sprint("Tool ", b), "@n8n/n8n-nodes-langchain.toolWorkflow", sub, `,"retryOnFail":true`)
		node(fmt.Sprint("Embed ", b), "@n8n/n8n-nodes-langchain.embeddingsOpenAi", "", "")
		edge(prev, []string{h})
		edge(h, []string{s})
		edge(s, []string{i})
		edge(i, []string{w}, []string{x})
		edge(w, []string{h})
		edge(x, []string{a})
		edge(a, []string{c})
		ai(fmt.Sprint("Model ", b), "ai_languageModel", a)
		ai(fmt.Sprint("Tool ", b), "ai_tool", a)
		ai(fmt.Sprint("Embed ", b), "ai_embedding", c)
		prev = c
	}
	main := fmt.Sprintf(`{"id":"big","name":"Big","nodes":[%s],"connections":{%s}}`, strings.Join(nodes, ",\n"), strings.Join(conns, ",\n"))
	subwf := `{"id":"sub","name":"Sub","nodes":[
	  {"name":"When called","type":"n8n-nodes-base.executeWorkflowTrigger","parameters":{}},
	  {"name":"Post","type":"n8n-nodes-base.httpRequest","retryOnFail":true,"maxTries":5,"parameters":{"method":"POST","url":"https://api.example.com/y"}}],
	  "connections":{"When called":{"main":[[{"node":"Post","type":"main","index":0}]]}}}`
	return []byte("[" + main + "," + subwf + "]")
}

// Chain generates n workflows, each calling the next with 2 tries, as one
// JSON array.
func Chain(n int) []byte {
	var wfs []string
	for i := range n {
		call := ""
		conn := `"When called":{"main":[[{"node":"Post","type":"main","index":0}]]}`
		if i+1 < n {
			call = fmt.Sprintf(`,{"name":"Next","type":"n8n-nodes-base.executeWorkflow","typeVersion":1,"retryOnFail":true,"maxTries":2,"parameters":{"workflowId":"w%d"}}`, i+1)
			conn = `"When called":{"main":[[{"node":"Post","type":"main","index":0}]]},"Post":{"main":[[{"node":"Next","type":"main","index":0}]]}`
		}
		wfs = append(wfs, fmt.Sprintf(`{"id":"w%d","name":"W%d","nodes":[
		  {"name":"When called","type":"n8n-nodes-base.executeWorkflowTrigger","parameters":{}},
		  {"name":"Post","type":"n8n-nodes-base.httpRequest","retryOnFail":true,"parameters":{"method":"POST","url":"https://api.example.com/z"}}%s],
		  "connections":{%s}}`, i, i, call, conn))
	}
	return []byte("[" + strings.Join(wfs, ",\n") + "]")
}

// RetriedPosts generates one workflow of n HTTP Request POSTs to Stripe
// (an API that honours an idempotency key, and each sends the item's
// order_id) that retry, one after another behind a schedule trigger.
func RetriedPosts(n int) []byte {
	var nodes, conns []string
	nodes = append(nodes, `{"name":"Start","type":"n8n-nodes-base.scheduleTrigger","typeVersion":1.2,"position":[0,0],"parameters":{}}`)
	prev := "Start"
	for i := range n {
		name := fmt.Sprint("Post ", i)
		nodes = append(nodes, fmt.Sprintf(`{"name":%q,"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"position":[0,0],"retryOnFail":true,"maxTries":3,"parameters":{"method":"POST","url":"https://api.stripe.com/v1/p%d","sendBody":true,"bodyParameters":{"parameters":[{"name":"order","value":"={{ $json.order_id }}"}]}}}`, name, i))
		conns = append(conns, fmt.Sprintf(`%q:{"main":[[{"node":%q,"type":"main","index":0}]]}`, prev, name))
		prev = name
	}
	return []byte(fmt.Sprintf(`{"id":"posts","name":"Posts","nodes":[%s],"connections":{%s}}`, strings.Join(nodes, ",\n"), strings.Join(conns, ",\n")))
}

// SharedHost generates n workflows, each a schedule trigger and one
// retried HTTP Request POST, as one JSON array: all to one host when same
// is set, else each to a host of its own.
func SharedHost(n int, same bool) []byte {
	var wfs []string
	for i := range n {
		host := "api.example.com"
		if !same {
			host = fmt.Sprintf("api%d.example.com", i)
		}
		wfs = append(wfs, fmt.Sprintf(`{"id":"h%d","name":"H%d","nodes":[
		  {"name":"Start","type":"n8n-nodes-base.scheduleTrigger","typeVersion":1.2,"position":[0,0],"parameters":{}},
		  {"name":"Post","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"position":[0,0],"retryOnFail":true,"maxTries":3,"parameters":{"method":"POST","url":"https://%s/x"}}],
		  "connections":{"Start":{"main":[[{"node":"Post","type":"main","index":0}]]}}}`, i, i, host))
	}
	return []byte("[" + strings.Join(wfs, ",\n") + "]")
}

// Triggers generates one workflow of t Webhook triggers that all start one
// chain of n nodes, every third a retried HTTP Request POST (the others a Set
// and a Code node reading the request's body). Every trigger reaches every
// node of the chain, so a fact read once per trigger over what its runs
// reach costs t × n.
func Triggers(t, n int) []byte {
	var nodes, conns []string
	first := "Step 0"
	for i := range t {
		name := fmt.Sprint("Hook ", i)
		nodes = append(nodes, fmt.Sprintf(`{"name":%q,"type":"n8n-nodes-base.webhook","typeVersion":2,"position":[0,0],"webhookId":"hook-%d","parameters":{"httpMethod":"POST","path":"hook-%d"}}`, name, i, i))
		conns = append(conns, fmt.Sprintf(`%q:{"main":[[{"node":%q,"type":"main","index":0}]]}`, name, first))
	}
	for i := range n {
		name := fmt.Sprint("Step ", i)
		switch i % 3 {
		case 0:
			nodes = append(nodes, fmt.Sprintf(`{"name":%q,"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"position":[0,0],"retryOnFail":true,"maxTries":3,"parameters":{"method":"POST","url":"https://api.example.com/s%d","sendBody":true,"bodyParameters":{"parameters":[{"name":"email","value":"={{ $json.body.email }}"}]}}}`, name, i))
		case 1:
			nodes = append(nodes, fmt.Sprintf(`{"name":%q,"type":"n8n-nodes-base.set","typeVersion":3.4,"position":[0,0],"parameters":{"assignments":{"assignments":[{"id":"a","name":"email","value":"={{ $('Hook 0').item.json.body.email }}","type":"string"}]}}}`, name))
		default:
			nodes = append(nodes, fmt.Sprintf(`{"name":%q,"type":"n8n-nodes-base.code","typeVersion":2,"position":[0,0],"parameters":{"jsCode":"return $input.all().map(i => ({json: {email: i.json.email}}))"}}`, name))
		}
		if i+1 < n {
			conns = append(conns, fmt.Sprintf(`%q:{"main":[[{"node":%q,"type":"main","index":0}]]}`, name, fmt.Sprint("Step ", i+1)))
		}
	}
	return []byte(fmt.Sprintf(`{"id":"triggers","name":"Triggers","nodes":[%s],"connections":{%s}}`, strings.Join(nodes, ",\n"), strings.Join(conns, ",\n")))
}
