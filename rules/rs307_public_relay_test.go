package rules

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// relayChain is one workflow of an open Webhook feeding a chain of k Set
// nodes that keep the request, each with a Send Email to the caller's
// address hanging off it.
func relayChain(k int) *analyze.Set {
	nodes := []string{`{"name":"Hook","type":"n8n-nodes-base.webhook","typeVersion":2,"position":[0,0],"parameters":{"path":"3c2f7a0e-5b7d-4c1e-9a51-0f6f3b2d9e11"}}`}
	var conns []string
	prev := "Hook"
	for i := range k {
		nodes = append(nodes,
			fmt.Sprintf(`{"name":"Keep %d","type":"n8n-nodes-base.set","typeVersion":3.4,"position":[0,0],"parameters":{"includeOtherFields":true,"assignments":{"assignments":[{"id":"a","name":"step","type":"number","value":%d}]}}}`, i, i),
			fmt.Sprintf(`{"name":"Mail %d","type":"n8n-nodes-base.emailSend","typeVersion":2.1,"position":[0,0],"parameters":{"fromEmail":"a@example.com","toEmail":"={{ $json.body.email }}","subject":"hi","emailFormat":"text","text":"hi"}}`, i))
		conns = append(conns, fmt.Sprintf(`%q:{"main":[[{"node":"Keep %d","type":"main","index":0},{"node":"Mail %d","type":"main","index":0}]]}`, prev, i, i))
		prev = fmt.Sprintf("Keep %d", i)
	}
	return generatedSet("relays", nodes, conns)
}

// TestPublicRelayLinearInChain: RS307 follows each mailer's recipient
// back through the Set nodes before it to the request once per node and
// field (relayWalk's memo), so k mailers behind a chain of k Sets are k
// findings and 4× the chain takes at most 6× the CPU time.
func TestPublicRelayLinearInChain(t *testing.T) {
	const k = 300
	small, large := relayChain(k), relayChain(4*k)
	var fs, fl []analyze.Finding
	linearIn(t, "RS307 over a chain", k, func() { fs = analyze.Run(small, []*analyze.Rule{rs307}) }, func() { fl = analyze.Run(large, []*analyze.Rule{rs307}) })
	if len(fs) != k || len(fl) != 4*k {
		t.Fatalf("RS307 findings: %d and %d, want %d and %d", len(fs), len(fl), k, 4*k)
	}
}

// TestPublicRelaySameOnALoop: a form's submission goes round a loop of
// two No Ops (K ⇄ L) with a mailer after each, both sending to the form's
// Email. Whichever mailer is asked first, the loop's fields get one answer
// (relayWalk: no false stored while the field it leaned on is still being
// walked), and the mailers are asked in file order: both are found, the
// same way on every run.
func TestPublicRelaySameOnALoop(t *testing.T) {
	src, err := os.ReadFile("testdata/RS307/form_loop_both_mailers_send_to_the_form.json")
	if err != nil {
		t.Fatal(err)
	}
	var first string
	for i := range 60 {
		s := analyze.Build([]*n8nschema.File{n8nschema.Parse(n8nschema.NewSource("loop.json", src))}, analyze.DefaultOptions())
		var got []string
		for _, f := range analyze.Run(s, []*analyze.Rule{rs307}) {
			got = append(got, f.Message)
		}
		if len(got) != 2 {
			t.Fatalf("run %d: %d findings, want 2 (MailA and MailB): %q", i, len(got), got)
		}
		if i == 0 {
			first = strings.Join(got, "\n")
		} else if g := strings.Join(got, "\n"); g != first {
			t.Fatalf("run %d differs from run 0:\n%s\nvs\n%s", i, g, first)
		}
	}
}

// relayLadder is an open Webhook feeding a chain of k No Ops where each
// hands back to the one before (a loop at every step), with a Send Email
// to the caller's address after each.
func relayLadder(k int) *analyze.Set {
	nodes := []string{`{"name":"Hook","type":"n8n-nodes-base.webhook","typeVersion":2,"position":[0,0],"parameters":{"path":"3c2f7a0e-5b7d-4c1e-9a51-0f6f3b2d9e11"}}`}
	var conns []string
	prev := "Hook"
	for i := range k {
		nodes = append(nodes,
			fmt.Sprintf(`{"name":"Pass %d","type":"n8n-nodes-base.noOp","typeVersion":1,"position":[0,0],"parameters":{}}`, i),
			fmt.Sprintf(`{"name":"Mail %d","type":"n8n-nodes-base.emailSend","typeVersion":2.1,"position":[0,0],"parameters":{"fromEmail":"a@example.com","toEmail":"={{ $json.body.email }}","subject":"hi","emailFormat":"text","text":"hi"}}`, i))
		to := fmt.Sprintf(`{"node":"Mail %d","type":"main","index":0}`, i)
		if i+1 < k {
			to += fmt.Sprintf(`,{"node":"Pass %d","type":"main","index":0}`, i+1)
		}
		if i > 0 {
			to += fmt.Sprintf(`,{"node":%q,"type":"main","index":0}`, prev)
		}
		conns = append(conns, fmt.Sprintf(`"Pass %d":{"main":[[%s]]}`, i, to))
		prev = fmt.Sprintf("Pass %d", i)
	}
	conns = append(conns, `"Hook":{"main":[[{"node":"Pass 0","type":"main","index":0}]]}`)
	return generatedSet("ladder", nodes, conns)
}

// TestPublicRelayLinearOnLoops: the walk answers the fields of a loop
// together (one strongly connected component), each field once, so a
// ladder of k loops with a mailer at every step is k findings and 4× the
// ladder takes at most 6× the CPU time.
func TestPublicRelayLinearOnLoops(t *testing.T) {
	const k = 300
	small, large := relayLadder(k), relayLadder(4*k)
	var fs, fl []analyze.Finding
	linearIn(t, "RS307 over a ladder of loops", k, func() { fs = analyze.Run(small, []*analyze.Rule{rs307}) }, func() { fl = analyze.Run(large, []*analyze.Rule{rs307}) })
	if len(fs) != k || len(fl) != 4*k {
		t.Fatalf("RS307 findings: %d and %d, want %d and %d", len(fs), len(fl), k, 4*k)
	}
}

// TestPublicRelayRecipientLinear: the recipient reader finds the end of
// each {{ }} and each "json" once (exprScan), so a recipient that reads
// $json k times costs its length: 4× the reads take at most 6× the time.
func TestPublicRelayRecipientLinear(t *testing.T) {
	const k = 10000
	recipient := func(k int) *analyze.Set {
		nodes := []string{`{"name":"Hook","type":"n8n-nodes-base.webhook","typeVersion":2,"position":[0,0],"parameters":{"path":"contact-form"}}`,
			`{"name":"Mail","type":"n8n-nodes-base.emailSend","typeVersion":2.1,"position":[0,0],"parameters":{"fromEmail":"a@example.com","toEmail":"={{ ` + strings.Repeat("$json $input ", k) + `}}","subject":"hi","emailFormat":"text","text":"hi"}}`}
		return generatedSet("relay", nodes, []string{`"Hook":{"main":[[{"node":"Mail","type":"main","index":0}]]}`})
	}
	small, large := recipient(k), recipient(4*k)
	linearIn(t, "RS307 over one recipient", k, func() { analyze.Run(small, []*analyze.Rule{rs307}) }, func() { analyze.Run(large, []*analyze.Rule{rs307}) })
}

// TestPublicRelayLoopsAgainstReach: random graphs of No Ops, Set nodes
// that keep the item and Set nodes that write the Email field as the
// team's address, with loops, behind an open form, and a Gmail to
// {{ $json.Email }} after some of them. A mailer sends to the form's
// address exactly when a path from the form reaches its input without
// entering a Set that writes Email (a plain walk, no memo): the relay
// walk, answering loops together, must agree on every graph.
func TestPublicRelayLoopsAgainstReach(t *testing.T) {
	rnd := rand.New(rand.NewPCG(25, 307))
	for round := range 300 {
		k := 2 + rnd.IntN(8)
		kinds := make([]int, k) // 0 No Op, 1 Set that keeps, 2 Set that writes Email
		nodes := []string{`{"name":"Form","type":"n8n-nodes-base.formTrigger","typeVersion":2.2,"position":[0,0],"webhookId":"5f0c1f5e-2a4b-4b8e-9d1a-7e6c3b2a1f00","parameters":{"formTitle":"Join","formFields":{"values":[{"fieldLabel":"Email","fieldType":"email","requiredField":true}]},"options":{}}}`}
		for i := range k {
			kinds[i] = rnd.IntN(3)
			switch kinds[i] {
			case 0:
				nodes = append(nodes, fmt.Sprintf(`{"name":"N%d","type":"n8n-nodes-base.noOp","typeVersion":1,"position":[0,0],"parameters":{}}`, i))
			default:
				field, value := "step", "1"
				if kinds[i] == 2 {
					field, value = "Email", "team@example.com"
				}
				nodes = append(nodes, fmt.Sprintf(`{"name":"N%d","type":"n8n-nodes-base.set","typeVersion":3.4,"position":[0,0],"parameters":{"includeOtherFields":true,"assignments":{"assignments":[{"id":"a","name":%q,"type":"string","value":%q}]},"options":{}}}`, i, field, value))
			}
		}
		out := make([][]int, k+1) // out[0]: the form's
		out[0] = append(out[0], rnd.IntN(k))
		for range k + rnd.IntN(2*k) {
			from, to := rnd.IntN(k), rnd.IntN(k)
			out[from+1] = append(out[from+1], to)
		}
		var mailers []int
		for i := range k {
			if rnd.IntN(2) == 0 {
				mailers = append(mailers, i)
				nodes = append(nodes, fmt.Sprintf(`{"name":"Mail%d","type":"n8n-nodes-base.gmail","typeVersion":2.1,"position":[0,0],"parameters":{"sendTo":"={{ $json.Email }}","subject":"Welcome","message":"Your temporary password is Welcome123","options":{}}}`, i))
			}
		}
		var conns []string
		for from, tos := range out {
			name := "Form"
			if from > 0 {
				name = fmt.Sprintf("N%d", from-1)
			}
			var targets []string
			for _, to := range tos {
				targets = append(targets, fmt.Sprintf(`{"node":"N%d","type":"main","index":0}`, to))
			}
			if from > 0 && slices.Contains(mailers, from-1) {
				targets = append(targets, fmt.Sprintf(`{"node":"Mail%d","type":"main","index":0}`, from-1))
			}
			if len(targets) > 0 {
				conns = append(conns, fmt.Sprintf(`%q:{"main":[[%s]]}`, name, strings.Join(targets, ",")))
			}
		}
		// The truth: what carries the form's Email, by a plain walk that
		// does not pass a Set writing Email.
		carries := make([]bool, k)
		queue := []int{}
		for _, to := range out[0] {
			if kinds[to] != 2 && !carries[to] {
				carries[to] = true
				queue = append(queue, to)
			}
		}
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			for _, to := range out[u+1] {
				if kinds[to] != 2 && !carries[to] {
					carries[to] = true
					queue = append(queue, to)
				}
			}
		}
		var want []string
		for _, m := range mailers {
			if carries[m] {
				want = append(want, fmt.Sprintf("Mail%d", m))
			}
		}
		var got []string
		for _, f := range analyze.Run(generatedSet("loops", nodes, conns), []*analyze.Rule{rs307}) {
			got = append(got, f.Node)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: RS307 finds %v, the walk %v\nkinds %v\nedges %v", round, got, want, kinds, out)
		}
	}
}
