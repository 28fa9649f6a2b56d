package analyze

import (
	"strconv"
	"strings"
	"testing"
)

// retriedPost is an HTTP Request node posting to host/path with n tries.
func retriedPost(name, path string, tries int) string {
	return `{"name":"` + name + `","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"retryOnFail":true,"maxTries":` +
		strconv.Itoa(tries) + `,"parameters":{"method":"POST","url":"https://crm.acme.internal/` + path + `","options":{}}}`
}

// TestRunAttemptsTakesOneWay checks that an item's attempts on one
// dependency follow one way through exclusive outputs (an If's true or
// false, a node's error output or its regular one) and add up over
// outputs that all receive it, never past every call's attempts once;
// and that, while the dependency fails, the way ends at the first node
// that calls it and does not continue on failure, and goes on from a node
// with an error output by that output alone; and that outputs that all
// receive the item add up only over the branches that go on: of those
// that end the run, the first to run ends it for the others.
func TestRunAttemptsTakesOneWay(t *testing.T) {
	const ifNode = `{"name":"Choose","type":"n8n-nodes-base.if","typeVersion":2.2,"parameters":{"conditions": {"conditions": [{"leftValue": "={{ $json.body.ok }}", "rightValue": "", "operator": {"type": "boolean", "operation": "true", "singleValue": true}}], "combinator": "and"}}}`
	const noOp = `{"name":"Choose","type":"n8n-nodes-base.noOp","typeVersion":1,"parameters":{}}`
	const ifConns = `"Hook":{"main":[[{"node":"Choose","type":"main","index":0}]]},
			 "Choose":{"main":[[{"node":"A","type":"main","index":0}],[{"node":"B","type":"main","index":0}]]},
			 "A":{"main":[[{"node":"C","type":"main","index":0}]]}`
	const fanConns = `"Hook":{"main":[[{"node":"Choose","type":"main","index":0}]]},
			 "Choose":{"main":[[{"node":"A","type":"main","index":0},{"node":"B","type":"main","index":0}]]},
			 "A":{"main":[[{"node":"C","type":"main","index":0}]]}`
	for _, c := range []struct {
		name, onError, extra, conns string
		want                        int
		others                      string // B's and C's onError
	}{
		{"if", "continueRegularOutput", ifNode, ifConns, 5, ""},                                     // max(3+2, 4)
		{"if, A stops the run", "", ifNode, ifConns, 4, ""},                                         // max(3, 4): C never runs
		{"fan-out, all go on", "continueRegularOutput", noOp, fanConns, 9, "continueRegularOutput"}, // 3+2+4
		{"fan-out, C and B stop the run", "continueRegularOutput", noOp, fanConns, 5, ""},           // max(3+2, 4): the first of C and B to fail ends the run
		{"fan-out, B stops the run", "continueRegularOutput", noOp, `"Hook":{"main":[[{"node":"Choose","type":"main","index":0}]]},
			 "Choose":{"main":[[{"node":"A","type":"main","index":0},{"node":"B","type":"main","index":0}]]}`, 7, ""}, // 3+4: A goes on, then B ends the run
		{"fan-out, A stops the run", "", noOp, fanConns, 4, ""},                                 // max(3, 4): A or B, whichever runs first, ends the run
		{"fan-out, A stops the run, B goes on", "", noOp, fanConns, 7, "continueRegularOutput"}, // 3+4
		{"error output", "continueErrorOutput", noOp, `"Hook":{"main":[[{"node":"A","type":"main","index":0}]]},
			 "A":{"main":[[{"node":"C","type":"main","index":0}],[{"node":"B","type":"main","index":0}]]}`, 7, ""}, // 3+max(2, 4)
		{"error output only", "continueErrorOutput", noOp, `"Hook":{"main":[[{"node":"A","type":"main","index":0}]]},
			 "A":{"main":[[{"node":"B","type":"main","index":0}],[{"node":"C","type":"main","index":0}]]}`, 5, ""}, // 3+2: B, on the regular output, never runs
	} {
		t.Run(c.name, func(t *testing.T) {
			a := retriedPost("A", "a", 3)
			if c.onError != "" {
				a = strings.Replace(a, `"retryOnFail"`, `"onError":"`+c.onError+`","retryOnFail"`, 1)
			}
			b, cc := retriedPost("B", "b", 4), retriedPost("C", "c", 2)
			if c.others != "" {
				b = strings.Replace(b, `"retryOnFail"`, `"onError":"`+c.others+`","retryOnFail"`, 1)
				cc = strings.Replace(cc, `"retryOnFail"`, `"onError":"`+c.others+`","retryOnFail"`, 1)
			}
			js := `{"name":"w","nodes":[
			  {"name":"Hook","type":"n8n-nodes-base.webhook","typeVersion":2,"webhookId":"0b5c6c1e-6a51-4a55-9f0e-000000000001","parameters":{"path":"p","httpMethod":"POST"}},
			  ` + c.extra + `, ` + a + `, ` + b + `, ` + cc + `],
			 "connections":{` + c.conns + `}}`
			s := buildJSON(t, js)
			sums := Summarize(s)
			if len(sums) != 1 || len(sums[0].RunAttempts) != 1 {
				t.Fatalf("RunAttempts = %v, want one dependency", sums[0].RunAttempts)
			}
			for d, got := range sums[0].RunAttempts {
				if got != c.want {
					t.Errorf("RunAttempts[%q] = %d, want %d", d, got, c.want)
				}
			}
		})
	}
}

// TestPersonPauseRunsAtOnce checks that a daily run that waits for a
// person's resume link is not handed to the fleet: one run a day, whose
// schedule still fires at a fixed time (ClockTicksOf), and, when a
// retried call comes after the pause, one the person resumes for that
// call's dependency only (ResumedCalls), not for A's before the pause.
func TestPersonPauseRunsAtOnce(t *testing.T) {
	for _, c := range []struct {
		name  string
		after bool
	}{
		{"call after the pause", true},
		{"nothing after the pause", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			conns := `"Daily":{"main":[[{"node":"A","type":"main","index":0}]]},"A":{"main":[[{"node":"Wait","type":"main","index":0}]]}`
			nodes := `{"name":"Daily","type":"n8n-nodes-base.scheduleTrigger","typeVersion":1.2,"parameters":{"rule":{"interval":[{"triggerAtHour":8}]}}},
			  {"name":"Wait","type":"n8n-nodes-base.wait","typeVersion":1.1,"webhookId":"0b5c6c1e-6a51-4a55-9f0e-000000000002","parameters":{"resume":"webhook"}},
			  ` + retriedPost("A", "a", 3)
			if c.after {
				nodes += `, ` + retriedPost("B", "b", 3)
				conns += `,"Wait":{"main":[[{"node":"B","type":"main","index":0}]]}`
			}
			s := buildJSON(t, `{"name":"w","nodes":[`+nodes+`],"connections":{`+conns+`}}`)
			w := s.Workflows[0]
			runs, persons := RunsAtOnce(s, w)
			if runs != 1 || persons != 0 {
				t.Errorf("RunsAtOnce = %d, %d, want 1, 0", runs, persons)
			}
			if ClockTicksOf(s, w) == nil {
				t.Errorf("ClockTicksOf = nil: the pause hides the daily tick")
			}
			want := map[string]bool{}
			for _, op := range s.OperationsOf(w) {
				if op.Node.Name == "B" {
					want[DependencyIdentity(op)] = true
				}
			}
			if got := ResumedCalls(s, w); len(got) != len(want) || len(want) > 0 && !got[firstKey(want)] {
				t.Errorf("ResumedCalls = %v, want %v", got, want)
			}
		})
	}
}

func firstKey(m map[string]bool) string {
	for k := range m {
		return k
	}
	return ""
}

// TestOnceWhileDown checks that a retried call in a poll loop that goes
// round only on an answer is made once while its dependency fails when it
// ends the run on failure, and keeps its unbounded repeats when it
// continues on error (the loop may go round on the error item).
func TestOnceWhileDown(t *testing.T) {
	for _, c := range []struct {
		onError string
		want    bool
	}{
		{"", true},
		{"stopWorkflow", true},
		{"continueRegularOutput", false},
		{"continueErrorOutput", false},
	} {
		t.Run("onError="+c.onError, func(t *testing.T) {
			a := retriedPost("Poll", "status", 3)
			if c.onError != "" {
				a = strings.Replace(a, `"retryOnFail"`, `"onError":"`+c.onError+`","retryOnFail"`, 1)
			}
			js := `{"name":"w","nodes":[
			  {"name":"Hook","type":"n8n-nodes-base.webhook","typeVersion":2,"webhookId":"0b5c6c1e-6a51-4a55-9f0e-000000000003","parameters":{"path":"p","httpMethod":"POST"}},
			  {"name":"Wait","type":"n8n-nodes-base.wait","typeVersion":1.1,"webhookId":"0b5c6c1e-6a51-4a55-9f0e-000000000004","parameters":{}},
			  {"name":"Done?","type":"n8n-nodes-base.if","typeVersion":2.2,"parameters":{"conditions":{"options":{"version":2},"combinator":"and","conditions":[{"leftValue":"={{ $json.status }}","rightValue":"completed","operator":{"type":"string","operation":"equals"}}]}}},
			  ` + a + `],
			 "connections":{"Hook":{"main":[[{"node":"Wait","type":"main","index":0}]]},
			   "Wait":{"main":[[{"node":"Poll","type":"main","index":0}]]},
			   "Poll":{"main":[[{"node":"Done?","type":"main","index":0}]]},
			   "Done?":{"main":[[],[{"node":"Wait","type":"main","index":0}]]}}}`
			s := buildJSON(t, js)
			sums := Summarize(s)
			for _, op := range sums[0].Operations {
				if op.Node != "Poll" {
					continue
				}
				if !op.Unbounded {
					t.Fatalf("Poll is not Unbounded: the loop analysis bounds it, the test needs another loop")
				}
				if op.OnceWhileDown != c.want {
					t.Errorf("OnceWhileDown = %v, want %v", op.OnceWhileDown, c.want)
				}
				return
			}
			t.Fatalf("no operation at Poll")
		})
	}
}

// TestOnceWhileDownToolCycle: the models of two agent tools wired as each
// other's tool, a cycle of ai_tool connections no node of the main graph
// holds, have no root (rootsVia): nothing ends the run at their failure,
// so their unbounded repeats stay (OnceWhileDown is false). The loops over
// roots held trivially, and it said they were made once.
func TestOnceWhileDownToolCycle(t *testing.T) {
	js := `{"name":"w","nodes":[
	  {"name":"Chat","type":"@n8n/n8n-nodes-langchain.chatTrigger","typeVersion":1.1,"webhookId":"0b5c6c1e-6a51-4a55-9f0e-000000000009","parameters":{}},
	  {"name":"Agent","type":"@n8n/n8n-nodes-langchain.agent","typeVersion":1.7,"parameters":{}},
	  {"name":"Model","type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1.2,"parameters":{"model":"gpt-4o-mini"},"credentials":{"openAiApi":{"id":"1","name":"o"}}},
	  {"name":"A","type":"@n8n/n8n-nodes-langchain.agentTool","typeVersion":2.2,"parameters":{}},
	  {"name":"B","type":"@n8n/n8n-nodes-langchain.agentTool","typeVersion":2.2,"parameters":{}},
	  {"name":"MA","type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1.2,"parameters":{"model":"gpt-4o-mini"},"credentials":{"openAiApi":{"id":"1","name":"o"}}},
	  {"name":"MB","type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1.2,"parameters":{"model":"gpt-4o-mini"},"credentials":{"openAiApi":{"id":"1","name":"o"}}}],
	 "connections":{"Chat":{"main":[[{"node":"Agent","type":"main","index":0}]]},
	   "Model":{"ai_languageModel":[[{"node":"Agent","type":"ai_languageModel","index":0}]]},
	   "MA":{"ai_languageModel":[[{"node":"A","type":"ai_languageModel","index":0}]]},
	   "MB":{"ai_languageModel":[[{"node":"B","type":"ai_languageModel","index":0}]]},
	   "A":{"ai_tool":[[{"node":"B","type":"ai_tool","index":0}]]},
	   "B":{"ai_tool":[[{"node":"A","type":"ai_tool","index":0}]]}}}`
	s := buildJSON(t, js)
	w := s.Workflows[0]
	g := s.Graph(w)
	n := 0
	for _, op := range s.OperationsOf(w) {
		if op.Node.Name != "MA" && op.Node.Name != "MB" {
			continue
		}
		n++
		if roots, _ := g.rootsVia(op.Node); !op.Unbounded || len(roots) != 0 {
			t.Fatalf("%s: Unbounded %v, %d roots: the test needs an unbounded call with none", op.Node.Name, op.Unbounded, len(roots))
		}
		if OnceWhileDown(g, w, op) {
			t.Errorf("%s: OnceWhileDown = true, want false", op.Node.Name)
		}
	}
	if n != 2 {
		t.Fatalf("%d operations at MA and MB, want 2", n)
	}
}

// TestSummaryIdentityWhereRead checks that Summarize fills an operation's
// Identity, Account and PerKey in every workflow where RS505 or
// RunAttempts reads them, a workflow with an enabled call under n8n's
// retry: there the call that is not retried counts in RunAttempts too
// (A's 3 attempts, then B's 1, as A goes on after failing). A workflow
// with no retried call leaves them unfilled.
func TestSummaryIdentityWhereRead(t *testing.T) {
	b := strings.Replace(retriedPost("B", "b", 1), `"retryOnFail":true,`, ``, 1)
	a := strings.Replace(retriedPost("A", "a", 3), `"retryOnFail"`, `"onError":"continueRegularOutput","retryOnFail"`, 1)
	hook := `{"name":"Hook","type":"n8n-nodes-base.webhook","typeVersion":2,"webhookId":"0b5c6c1e-6a51-4a55-9f0e-000000000003","parameters":{"path":"p","httpMethod":"POST"}}`
	conns := `"Hook":{"main":[[{"node":"A","type":"main","index":0}]]},"A":{"main":[[{"node":"B","type":"main","index":0}]]}`
	for _, c := range []struct {
		name    string
		a       string
		filled  bool
		attempt int
	}{
		{"a retried call", a, true, 4},
		{"no retried call", strings.Replace(a, `"retryOnFail":true,`, ``, 1), false, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := buildJSON(t, `{"name":"w","nodes":[`+hook+`,`+c.a+`,`+b+`],"connections":{`+conns+`}}`)
			sums := Summarize(s)
			ops := s.OperationsOf(s.Workflows[0])
			if len(ops) != 2 {
				t.Fatalf("%d operations, want 2", len(ops))
			}
			for j, op := range ops {
				got := &sums[0].Operations[j]
				want := OperationSummary{}
				if c.filled {
					acct, _ := op.Credential()
					want = OperationSummary{Identity: DependencyIdentity(op), Account: acct, PerKey: PerKey(op)}
					if want.Identity == "" {
						t.Fatalf("node %s: no identity to compare", op.Node.Name)
					}
				}
				if got.Identity != want.Identity || got.Account != want.Account || got.PerKey != want.PerKey {
					t.Errorf("node %s: Identity, Account, PerKey = %q, %q, %v, want %q, %q, %v", op.Node.Name, got.Identity, got.Account, got.PerKey, want.Identity, want.Account, want.PerKey)
				}
			}
			total := 0
			for _, n := range sums[0].RunAttempts {
				total += n
			}
			if total != c.attempt {
				t.Errorf("RunAttempts = %v, want %d in all", sums[0].RunAttempts, c.attempt)
			}
		})
	}
}
