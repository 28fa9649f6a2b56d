package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/internal/ascii"
	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var rs403 = &analyze.Rule{
	ID:    "RS403",
	Name:  "swallowed-failure",
	Title: "a failed write or paid call continues as if it succeeded",
	Doc: `With onError "continueRegularOutput" (or the legacy continueOnFail), a node that fails passes its input
through, or an item {error: ...}, on its normal output
(packages/core/src/execution-engine/workflow-execute.ts,
packages/core/src/execution-engine/node-execution-context/base-execute-context.ts). The execution succeeds, no
error workflow runs, and the nodes after it treat the failure as a result: an order marked as invoiced that
was not, an empty summary saved over a good one. For a write or a paid call that is a silent data problem. It
is fine when a node downstream checks for the error (an If, Switch, Filter or Code node that tests "error", any
node that reads the item's error field, $json.error, or the failed node's by name, $('Create invoice').item.json.error,
or in a Code node that reads $(…).….error with the name held in a variable, a string literal that names the node,
to record or report it, or an If that tests whether a returned field is there: the failed item lacks it, or a Code
node that binds a flag to such a test, ok = typeof s.worker_hours === 'number', and an If, Switch or Filter after it
that tests the flag, which sends the failed item down the branch the workflow chose), when a
message, an alert or a log row tells the result from a failure by a conditional on a field of the result
({{ $json.call_id ? 'Initiated' : 'Failed' }}: the owner reads "Failed"; a fallback such as || 'n/a' is a silent
default, not a test), when an
If or Switch tests a field of the result and sends the item that lacks it to a Stop and Error, an alert or a log row (a field a
Set of v3.2 or later derives from the result with no fallback (||, ??, ?: or n8n's $ifEmpty) counts: its expression reads
past the missing result, n8n swallows the TypeError, and the Set stores null, nodes-base nodes/Set/v2/helpers/utils.js validateEntry; a test that
null passes, a boolean's "is false" among them, n8n-workflow node-parameters/filter-parameter.js, sends it there), when the next node is a call
that names its target with a field of the result (its URL, an id, or a parameter that is only {{ $json.id }}, or a body
field that names the resource, a URL or URI such as Gemini's "fileUri": "{{ $json.file.uri }}" or an "id" alone, not
a record's other fields: it fails on the missing field, and the failure surfaces there; so does such a call on the
false output of an If right after it that tests fields of the item, where the failed item goes; and so does such a
call that continues on failure itself, whose own error item then carries the failure on, when its failure is observed
as this rule judges any node's: its error output wired, the run failing after it, its error read by name, or a check
after it, judged for that one call and not followed further), when onError is "continueErrorOutput" with the error output wired to a handler, when
an If or Switch after it stops the execution on one branch (Stop and Error), when nothing uses the node's
output (only a Loop Over Items whose done output leads nowhere, reached directly or through a Wait, or a
No Op that ends the branch; nodes after a Wait or No Op that do not read the item; a Respond to Webhook that
answers with a body of its own, respondWith json, text or noData, built from earlier nodes), for
deletes and for commands that only remove files (rm -f of a temporary file over SSH), whose failure
("already gone") is usually meant to be ignored, whether it goes on as an item or to an error output wired to nothing, and for a POST to an endpoint that answers rather than stores (".../query",
".../search", a question's /answer, /classify or /predict, a collection of figures such as ".../stats/runs" or ".../reports/detailed" sent
only ids and filters); a chat request to a model (a body with a model and messages with roles), to whatever host,
is a model call whose answer the nodes after it use, and is read as a paid call is. It is fine, too, when the next Code node parses the reply inside try/catch
(the failed item lands in the catch, which substitutes its fallback) and a condition after it tests what it
returns; a fallback nothing tests flows on as a result, whatever its words say. It is fine when a Code node binds a
test of a field of the result to a key it returns (managerNotified: dm?.ok === true, false for the failed item,
which lacks the field) and the answer to the webhook's caller, or a message, after it carries that key or the
whole item: the failure is reported in-band (a record that keeps the flag beside the row does not count: the row
passes for a result). It is fine, too, when the next Code node puts an answer of its own words where the
field is missing (item.json.resposta || 'Got your message, we will answer here.') and feeds a message or the
webhook's answer: the person answered gets the reply the workflow chose for a failure; a placeholder of fewer
than three words (|| 'n/a', || '{}') is a silent default. It is fine when a Filter, or an If whose false
output leads nowhere, tests a field of the result with a test a missing field fails (equals, exists, is true):
the failed item is skipped there. An expression that parses or reaches into a missing field of the result
(JSON.parse($json.output), $json.data.url, $json.candidates[0].content) is no check, and does not make the failure
loud one node later even where that node has no onError of its own: both of n8n's expression engines (the VM engine, 2.41.1's
default, @n8n/config expression-engine.config.js, and the legacy one) catch what an expression throws as it runs, a
SyntaxError from JSON.parse or a TypeError, rethrow only n8n's own ExpressionError and yield undefined (Tournament's
try/catch calls E: n8n-workflow dist/cjs/expression.js L58-61, @n8n/expression-runtime isolated-vm-bridge.js
L87-100; only an expression that does not parse fails, "invalid syntax"), so the node goes on with an
empty value (observed on n8n 2.41.1: a Set reading {{ $json.data.url.replace(…) }} after a failed upload stores null and
the run succeeds). Code does throw: a next Code node that reads past a field of the result ($json.data.url,
$input.first().json.file.uri, JSON.parse($json.output)) outside a try and without ?. fails on the failed item, and
the failure surfaces there. A best-effort write (a log row, a run-tracking mark, a
team alert, a call or text to the owner's own number written in the node or read from $env or $vars, an update that
only adds to usage counters such as times_referenced = times_referenced + 1, any write of an error workflow) is a note: its failure loses a line, not data. Not so the alert or log row of the
workflow's own failure handling, which runs only for an item the work failed on: reached only through an error output
(n8n-core workflow-execute.js handleNodeErrorOutput), or through the output of an If or Switch that a failed item takes,
one that tests a flag a Code node's catch sets (catch (err) { parseOk = false } and parse_ok: parseOk returned) or the
error field a node that continues on failure hands on ({error: …}), read as n8n-workflow node-parameters/filter-parameter.js
does. It is the only record of that failure (the execution succeeds), and when the item goes on after it to a write that
closes it (a Gmail markAsRead, a status update), a failed alert loses the failure and the item with it: it keeps the
rule's severity. With no write after it the item is not closed (a schedule that reads the pending rows again meets it
again), and it is a note. So is a Google Drive update
that only renames a file (no new content; Google/Drive/v2/actions/file/update.operation.js), which keeps its old name; a file sent to a
chat (a receipt forwarded to the reviewers, a generated report) is the work itself, not an alert, and so is a bot's
message to each user the data names (a Telegram chat id read from the alert rows a schedule reads: ConsequenceIn). A call that cannot be made as written (an HTTP Request with no URL, a
placeholder host such as YOUR_PROJECT.supabase.co, a resource a template's blank names such as the phone number
id "REPLACE_WITH_PHONE_NUMBER_ID", as RS402 reads it) fails on every run and is a template's
blank, not a result anyone takes for one; an acknowledgement that stores nothing (Telegram's answerCallbackQuery,
which stops a button's spinner, or sendChatAction's "typing…", nodes-base/nodes/Telegram/Telegram.node.js) loses
nothing when it fails; neither is reported. A call to a model its provider shut down (RS010's table), or a
write n8n refuses on every item before sending it (RS010's refusals that send nothing: a JSON body that does not
parse or is empty, an authentication the node does not offer), fails on every run: a node that continues hands the error item on every time, and RS010 leaves it to this rule, so it is
reported, unless its error output leads nowhere: then RS010 reports it, since nothing runs after it. Nor is a node
reported when every path its items take ends at a node that fails on every item (RS010's facts, within 32
nodes): the execution fails whatever it returned, so its failure never passes for a success; and nothing is
reported behind a node that fails on every run, which no run gets past. An agent or chain answers for its model: its onError decides where a
failed model call goes. An error output wired to nothing drops the failed items whatever comes after
(n8n-core's workflow-execute.js handleNodeErrorOutput, L1603-1661, moves them to the last output): the nodes
after it do not run for them, and the run ends as a success. It is fine, too, when the next Code node reads the
result and returns a field set to a literal (statut: "échec") that a message or log row fed by it tests in a
conditional ({{ $json.statut === "échec" ? "❌" : "✅" }}): the failed item lacks the result, takes the code's
fallback, and the owner reads the mark. It is fine in an agent's tool workflow (every caller the set resolves is a
Call Workflow tool, or the agent and its tool workflow are shipped in one file) when the error item reaches the
workflow's end through nodes that keep its fields (a Set that includes the input's fields, a condition, a No Op)
and no branch beside its way (fed by an earlier node from the output that leads to it) ends the run later: n8n
hands the item of the last node it ran to the agent as the tool's answer (ToolWorkflowV1.node.js), and the model
reads the error. Where only a person starts the runs that reach the node (a Manual
Trigger, a chat only the editor's test chat runs) in a workflow no other workflow calls, or in a tool or
sub-workflow whose every caller the audited set resolves is itself run only so (an agent behind a Chat Trigger
that is not public, @n8n/n8n-nodes-langchain ChatTrigger.node.js L368), or that no call resolves to but that
itself, behind a person's trigger, calls a workflow the set lacks (an agent and its tools' workflow shipped in
one file), the finding is a note: the person who clicked sees the failure in the run. A write that another write of the
same node type runs from its error output, directly or through an Edit Fields or No Op, is that write's fallback (the create-or-edit idiom: a
GitHub "Edit a file" whose error output creates the file it did not find, or a create whose error output edits the
file that is already there): n8n sends it only the items the first write failed on (handleNodeErrorOutput), so its
own failure alone is what the idiom expects of the other case, and the finding names the hazard as both failing. So it is
when the node before the first write feeds the fallback the same items too (a loop that runs the create beside the edit:
an item is lost only when both fail); a write that anything else feeds (the first write's success output, another source)
is no fallback, since its failures there lose items no other write holds.`,
	Fix:        "Use onError continueErrorOutput and wire the error output to a handler, or check the output for an error item before using it",
	FixDoc:     "None: turning continueOnFail off stops the workflow on errors it meant to pass over; the handling it lacks must be designed.",
	Severity:   analyze.Warning,
	Confidence: analyze.Medium,
	Tags:       []string{"errors"},
	Run: func(pass *analyze.Pass) {
		g := pass.Set.Graph(pass.Workflow)
		seen := map[*n8nschema.Node]bool{}
		var errRead map[string]bool
		writes := liveWrites(pass)
		for _, op := range pass.Set.OperationsOf(pass.Workflow) {
			n := op.Node
			// A model call its provider refuses on every run (a shut-down
			// model) is not Live, yet it runs and fails every time:
			// continuing hands on an error item on every run, and RS010
			// leaves a node that continues to this rule.
			// One whose error output leads nowhere ends the run there:
			// RS010 reports it (ErrorsGoNowhere).
			// So is a write n8n refuses on every item before it sends it
			// (a JSON body that does not parse).
			refused := !op.Live && op.Refused && !n.Disabled && g.Reachable(n) && (retiredModel(n) || refusedWrite(op)) && !g.ErrorsGoNowhere(n)
			if !op.Live && !refused {
				continue
			}
			// Only a node that continues on error passes a failure on (a
			// sub-node's root decides for it, below): any other is left
			// before its write is read.
			sub := g.IsSubNode(n)
			if !n.ContinuesOnFail() && !sub {
				continue
			}
			paid := op.Paid || refused && retiredModel(n)
			if sub && !paid {
				continue // a sub-node's failure is its root's, and only a paid call's is read (below)
			}
			if !sub && n.OnError == "continueErrorOutput" && len(g.ErrorOutputs(n)) > 0 {
				continue // its failures go to its error output, which is wired (below)
			}
			// A POST to a read endpoint (".../query", ".../search") is not
			// a write whose failure misleads anyone. A sub-node's write is
			// not read: its root's failure is (below).
			write := !sub && op.Consequence() != analyze.NoEffect
			// A chat request to a host the run decides may or may not
			// bill, but what comes after reads its answer.
			model := !paid && n8nschema.ChatRequestBody(n)
			if !write && !paid && !model || analyze.CannotCall(op) {
				continue // a call to a placeholder host fails every run: nothing passes for a result
			}
			if sub {
				// A sub-node's failure is its root's: an agent or chain
				// whose model call fails fails as a whole, and its onError
				// decides where the failure goes; only a paid call is read.
				r := g.Root(n)
				if r == nil || g.IsSubNode(r) || g.Spec(r).Role != n8nschema.RoleAgent {
					continue
				}
				n, write = r, false
			}
			if seen[n] {
				continue
			}
			seen[n] = true
			var how string
			switch {
			case n.OnError == "continueErrorOutput":
				if len(g.ErrorOutputs(n)) > 0 {
					continue
				}
				how = "onError continueErrorOutput with nothing on the error output"
			case n.OnError == "continueRegularOutput":
				how = "onError continueRegularOutput"
			case n.OnError == "" && n.ContinueOnFail:
				how = "continueOnFail"
			default:
				continue
			}
			// An error output wired to nothing drops the failed items,
			// whatever comes after: nothing downstream can see them.
			if n.OnError != "continueErrorOutput" {
				if !flowsOn(g, n) || !outputUsed(g, n) {
					continue // nothing uses the output
				}
				if failsAfter(g, n) {
					continue // the run fails further on whatever n returns: RS010 reports it
				}
				if errRead == nil {
					errRead = errorsReadByName(g)
				}
				if errRead[n.Name] || checkedDownstream(g, n) {
					continue // something checks it
				}
				if answersTool(pass, g, n) {
					continue // the agent's model reads the error item as the tool's answer
				}
			}
			// "Delete if it exists" is the usual intent, whether the failure
			// goes on as an item or to an error output wired to nothing.
			if _, name := n8nschema.WriteOp(n); write && (cleanupOp.MatchString(name) || analyze.CleanupURL(n) || analyze.CleanupCommand(n)) {
				continue
			}
			what := "write"
			switch {
			case paid:
				what = "paid call"
			case model:
				what = "model call"
			}
			msg := fmt.Sprintf("node %q continues on failure (%s) and nothing after it checks for an error item: a failed %s looks like success to the rest of the workflow",
				n.Name, how, what)
			fails := "a failed " + what
			if refused && !retiredModel(n) {
				r, _ := n8nschema.RefusedCall(n)
				fails = fmt.Sprintf("it fails on every item (%s), and", r.Why)
				msg = fmt.Sprintf("node %q continues on failure (%s) and nothing after it checks for an error item: %s the error item looks like success to the rest of the workflow",
					n.Name, how, fails)
			} else if !op.Paid && paid {
				m, _ := n8nschema.RetiredModelCall(op.Node)
				fails = fmt.Sprintf("its model call fails on every run (%q, which %s shut down %s), and", m.Model, m.Provider, m.When())
				msg = fmt.Sprintf("node %q continues on failure (%s) and nothing after it checks for an error item: %s the error item looks like success to the rest of the workflow",
					n.Name, how, fails)
			}
			// A write that another write's error output runs (create when
			// the edit fails, or edit when the create does): its own
			// failure is expected of the idiom only with the first one's;
			// the item is lost when both fail.
			var first *n8nschema.Node
			if write && !refused {
				first = fallbackOf(g, n, writes)
			}
			switch {
			case first != nil:
				// The fallback run by the first's error output: its own
				// failure alone (a create that finds the file there) is
				// what the idiom expects.
				both := fmt.Sprintf("when %q and its fallback %q both fail", first.Name, n.Name)
				switch {
				case n.OnError == "continueErrorOutput":
					after := ", the nodes after it do not run for it,"
					if !flowsOn(g, n) {
						after = ""
					}
					msg = fmt.Sprintf("node %q sends failures to its error output, which is wired to nothing: %s, the item is dropped%s and the run ends as a success", n.Name, both, after)
				case !flowsOn(g, n):
					msg = fmt.Sprintf("node %q continues on failure (%s) and nothing comes after it: %s, the run ends as a success", n.Name, how, both)
				default:
					msg = fmt.Sprintf("node %q continues on failure (%s) and nothing after it checks for an error item: %s, the error item looks like success to the rest of the workflow", n.Name, how, both)
				}
			case n.OnError == "continueErrorOutput":
				// n8n moves the failed items to the error output
				// (workflow-execute.js handleNodeErrorOutput): wired to
				// nothing, they are dropped, the nodes after it never see
				// them, and the run ends as a success.
				after := ", the nodes after it do not run for it,"
				if !flowsOn(g, n) {
					after = ""
				}
				msg = fmt.Sprintf("node %q sends failures to its error output, which is wired to nothing: %s drops the item%s and the run ends as a success", n.Name, fails, after)
				if !op.Paid && paid || refused {
					msg = fmt.Sprintf("node %q sends failures to its error output, which is wired to nothing: %s the item is dropped%s and the run ends as a success", n.Name, fails, after)
				}
			case !flowsOn(g, n):
				msg = fmt.Sprintf("node %q continues on failure (%s) and nothing comes after it: a failed %s ends the run as a success", n.Name, how, what)
			}
			// Its own blank (a template's sheet id, key or URL) is one
			// more failure it swallows: no gate (OwnFailure).
			d := analyze.Diagnostic{Node: n, Pos: n.Pos, Message: msg, OwnFailure: true}
			if watched(pass, n) {
				// The person who clicked watches the run: the node's
				// error item, or the run stopping, is in front of them.
				d.Severity = analyze.Note
				d.Message += "; " + byHandWhy(g, n) + ": the person who started the run sees the failure in it"
			}
			if write && (analyze.BestEffortIn(g, n) || g.FromErrorTrigger(n)) {
				// A log row, a run-tracking mark or a team alert (every
				// write of an error workflow reports a failure) that fails
				// costs a line nobody reads, not the data. Not so the alert
				// of the workflow's own failure handling (an error output,
				// the failure branch of a caught failure) when the item goes
				// on to a write that closes it (marks it processed): the
				// alert is the only record of the failure, and its own
				// failure loses both.
				if g.FromErrorTrigger(n) || !g.HandlesFailure(n) {
					d.Severity = analyze.Note
					d.Message += "; it is a best-effort record or alert"
				} else if w := writeAfter(g, n, writes); w != nil {
					d.Message += fmt.Sprintf("; it is the only record of an item the workflow failed on (it runs only on the failure path), so a failed %s loses that failure too while %q after it closes the item as if it were handled", what, w.Name)
				} else {
					d.Severity = analyze.Note
					d.Message += "; it records an item the workflow failed on, but nothing after it writes: the run does not close the item, so its failure costs the record, not the item"
				}
			} else if analyze.RenamesFile(n) {
				// A file left under its old name: nothing is lost.
				d.Severity = analyze.Note
				d.Message += "; it only renames a file, which keeps its old name when the call fails"
			}
			pass.Report(d)
		}
	},
}

// fallbackOf returns the write of n's own node type whose error output
// runs write n, directly or through nodes that hand the item on (an Edit
// Fields, a No Op): n8n sends the items that write failed on there
// (workflow-execute.js handleNodeErrorOutput), so n is its fallback on the
// same service (create the file the edit did not find, or the reverse),
// and n's failure loses the item only when the first write failed too.
// nil when no such write's error output leads to n: an alert that a
// failed write's error output posts elsewhere is a handler, which the
// finding words as the only record of the failure. nil too when n also
// runs for items no failure sent it and the first write does not get
// (its success output, another source); a node that feeds both alike
// (a loop that runs the create beside the edit) leaves it a fallback.
func fallbackOf(g *analyze.Graph, n *n8nschema.Node, writes func(*n8nschema.Node) bool) *n8nschema.Node {
	seen := map[*n8nschema.Node]bool{n: true}
	queue := []*n8nschema.Node{n}
	var first *n8nschema.Node
	var beside []*n8nschema.Node // other feeders: each must feed the first write the same items
	reads := 0
	for h := 0; h < len(queue); h++ {
		if h == maxLoopBack {
			return nil // inputs left unread: not known to be a fallback
		}
		for _, e := range g.InOfType(queue[h], analyze.ConnMain) {
			if reads++; reads > 4*maxLoopBack {
				return nil // as many inputs as that: not the idiom, and not read on
			}
			m := e.From
			if e.Error {
				if m.OnError == "continueErrorOutput" && m.Type == n.Type && writes(m) {
					if first == nil {
						first = m // the first for the wording; every such write's failures are the idiom's
					}
					continue
				}
				return nil
			}
			// A disabled node passes its input on (workflow-execute.js
			// handleDisabledNode), as an Edit Fields or a No Op hands the
			// item on.
			switch {
			case m.Disabled, m.Type == n8nschema.TypeSet, m.Type == n8nschema.TypeNoOp:
				if !seen[m] {
					seen[m] = true
					queue = append(queue, m)
				}
			default:
				beside = append(beside, m)
			}
		}
	}
	if first == nil {
		return nil
	}
	// A node that feeds n and the first write alike (a loop that runs
	// the create beside the edit) hands n items the first write also
	// gets: one is lost only when both fail, so n's own failures there
	// (the file is already there) are the idiom's too. Anything else
	// (the first write's own success output, another source) feeds n
	// items no failure sent it.
	for _, m := range beside {
		if m == first || !feeds(g, m, first) {
			return nil
		}
	}
	return first
}

// feeds reports a main connection from m to n, read from n's inputs (at
// most 4 × maxLoopBack of them: a fallback's first write has a few).
func feeds(g *analyze.Graph, m, n *n8nschema.Node) bool {
	in := g.InOfType(n, analyze.ConnMain)
	if len(in) > 4*maxLoopBack {
		return false
	}
	for _, e := range in {
		if e.From == m && !e.Error {
			return true
		}
	}
	return false
}

// writeAfter returns the first node after n (main connections, at most
// failsAfterCap nodes) whose write is not a best-effort record or alert:
// the work the run goes on to do with the item (marking a mail read,
// updating its row), or nil; writes tells the workflow's live writes (liveWrites).
func writeAfter(g *analyze.Graph, n *n8nschema.Node, writes func(*n8nschema.Node) bool) *n8nschema.Node {
	seen := map[*n8nschema.Node]bool{n: true}
	queue := []*n8nschema.Node{n}
	for h := 0; h < len(queue) && len(queue) <= failsAfterCap; h++ {
		for _, e := range g.OutOfType(queue[h], analyze.ConnMain) {
			v := e.To
			if seen[v] || v.Disabled || queue[h] == n && e.Error {
				continue
			}
			seen[v] = true
			if writes(v) && !analyze.BestEffortIn(g, v) {
				return v
			}
			queue = append(queue, v)
		}
	}
	return nil
}

// liveWrites tells the workflow's live writes (nodes whose call can
// act), node by node as asked: what a write leaves is read only of the
// few nodes fallbackOf and writeAfter ask about, each once per pass.
func liveWrites(pass *analyze.Pass) func(*n8nschema.Node) bool {
	var ops map[*n8nschema.Node][]*analyze.Operation
	var known map[*n8nschema.Node]bool // both made on the first question
	return func(n *n8nschema.Node) bool {
		if w, ok := known[n]; ok {
			return w
		}
		if ops == nil {
			ops, known = map[*n8nschema.Node][]*analyze.Operation{}, map[*n8nschema.Node]bool{}
			for _, op := range pass.Set.OperationsOf(pass.Workflow) {
				ops[op.Node] = append(ops[op.Node], op)
			}
		}
		w := slices.ContainsFunc(ops[n], func(op *analyze.Operation) bool {
			return op.Live && op.Consequence() != analyze.NoEffect && !analyze.CannotCall(op)
		})
		known[n] = w
		return w
	}
}

// cleanupOp matches operations whose failure is usually meant to be
// ignored: deleting or archiving what may already be gone.
var cleanupOp = lazyregexp.New(`(?i)(^|\.)(delete|remove|clear|trash|archive|deactivate)`)

// flowsOn reports whether n's normal output feeds another node. Returning
// to a Loop Over Items whose done output leads nowhere does not count: the
// loop only moves on to the next batch, and the results are dropped.
func flowsOn(g *analyze.Graph, n *n8nschema.Node) bool {
	for _, e := range g.OutOfType(n, analyze.ConnMain) {
		if e.Error {
			continue
		}
		if deadEnd(g, e.To, 0) {
			continue
		}
		return true
	}
	return false
}

// failsAfter reports whether every path n's items take ends at a node
// that fails on every item (analyze FailsWhy) before the run could end:
// the execution fails whatever n returns, so its failure never passes for
// a success. It walks at most failsAfterCap nodes, and says no beyond.
func failsAfter(g *analyze.Graph, n *n8nschema.Node) bool {
	seen := map[*n8nschema.Node]bool{n: true}
	queue := []*n8nschema.Node{n}
	failed := false
	for h := 0; h < len(queue); h++ {
		u := queue[h]
		outs := g.OutOfType(u, analyze.ConnMain)
		if len(outs) == 0 {
			return false // a run ends here
		}
		for _, e := range outs {
			if u == n && e.Error {
				continue
			}
			v := e.To
			if v == n {
				return false // back to n: a loop may end elsewhere
			}
			if seen[v] {
				continue
			}
			seen[v] = true
			if _, fails := g.FailsWhy(v); fails && !v.ContinuesOnFail() && !v.Disabled {
				failed = true
				continue
			}
			if len(queue) >= failsAfterCap {
				return false
			}
			queue = append(queue, v)
		}
	}
	return failed
}

// failsAfterCap bounds failsAfter's walk, which keeps the rule linear.
const failsAfterCap = 32

// deadEnd reports whether the items reaching m reach no one: m is a Loop
// Over Items whose done output leads nowhere (the loop only moves on to the
// next batch), or a No Op or a Wait that leads nowhere or only to such
// nodes.
func deadEnd(g *analyze.Graph, m *n8nschema.Node, depth int) bool {
	switch {
	case depth > 4:
		return false
	case m.Type == n8nschema.TypeSplitInBatches && m.TypeVersion >= 2:
		return !doneUsed(g, m)
	case m.Type != n8nschema.TypeNoOp && m.Type != n8nschema.TypeWait:
		return false
	}
	for _, e := range g.OutOfType(m, analyze.ConnMain) {
		if !deadEnd(g, e.To, depth+1) {
			return false
		}
	}
	return true
}

// doneUsed reports whether the done output of a Loop Over Items (v2
// ["loop", "done"], v3 ["done", "loop"]) feeds a node.
func doneUsed(g *analyze.Graph, sib *n8nschema.Node) bool {
	done := 1
	if sib.TypeVersion >= 3 {
		done = 0
	}
	for _, e := range g.OutOfType(sib, analyze.ConnMain) {
		if e.Output == done {
			return true
		}
	}
	return false
}

// errorTest matches a condition or code that looks at an error.
var errorTest = lazyregexp.New(`(?i)\berror\b|\.error|statusCode|status_code`)

// checkedDownstream reports whether a node after n (main connections, a
// few hops) is an If, Switch, Filter or Code node that tests for an error,
// or an If or Switch with a branch that stops the execution (Stop and
// Error): testing for the success fields and failing otherwise is a check.
func checkedDownstream(g *analyze.Graph, n *n8nschema.Node) bool {
	return checkedFrom(g, n, 0)
}

// maxRelays bounds how many calls that continue on failure a failure is
// followed through (relaysFailure): one, so the walk stays linear.
const maxRelays = 1

// checkedFrom is checkedDownstream for a failure relayed relays times.
func checkedFrom(g *analyze.Graph, n *n8nschema.Node, relays int) bool {
	type hop struct {
		n *n8nschema.Node
		d int
	}
	seen := map[*n8nschema.Node]bool{n: true}
	queue := []hop{{n, 0}}
	// The fields Sets derive from n's result, found once for n on the
	// first If or Switch that needs them, not once per branch (a Set
	// feeding many Ifs made that quadratic).
	var derived *derivedSets
	derivedOf := func() *derivedSets {
		if derived == nil {
			derived = derivedFields(g, n)
		}
		return derived
	}
	for len(queue) > 0 {
		h := queue[0]
		queue = queue[1:]
		if h.d >= 4 {
			continue
		}
		for _, e := range g.OutOfType(h.n, analyze.ConnMain) {
			m := e.To
			if seen[m] {
				continue
			}
			seen[m] = true
			if readsErrorField(m, n) {
				return true // the failed item's error is read: recorded, reported or tested
			}
			switch {
			case n8nschema.IsBranch(m.Type), n8nschema.IsCode(m.Type):
				found := false
				m.Params().Scalars(func(v n8nschema.Value) bool {
					if !found && v.Kind() == n8nschema.String && errorTest.MatchString(v.Str()) {
						found = true
					}
					return true
				})
				if found || stopsOnBranch(g, m) || testsPresence(m, n, h.d == 0) || catchesBadReply(m) && testedAfter(g, m) ||
					skipsWithoutResult(g, m, n, h.d == 0) || routesFailureToHandler(g, m, n, h.d == 0, derivedOf) ||
					flagsResult(g, m, n, h.d == 0 || passesOnly(g, n, m)) {
					return true
				}
			}
			if h.d == 0 && (analyze.ThrowsOnErrorItem(g, m) || routesToFailingCall(g, m)) {
				return true
			}
			if h.d == 0 && relays < maxRelays && relaysFailure(g, m, relays) {
				return true // the next call fails on the missing field, and its failure is observed
			}
			if reportsMissingResult(m, n, h.d == 0 || passesOnly(g, n, m)) {
				return true // the owner is told which items failed
			}
			if h.d == 0 && marksFailure(g, m) {
				return true // a status the code derives from the result is printed
			}
			queue = append(queue, hop{m, h.d + 1})
		}
	}
	return false
}

// relaysFailure reports whether m, the node right after a node that
// continues on failure, is a call that continues on failure too and names
// what it acts on with a field of the item (analyze.NamesTargetWithItem:
// a URL, an id, a body's "fileUri"): for the failed item the field is
// missing, so m fails as well and hands on its own error item, and the
// first failure surfaces wherever m's is observed. m's is observed when
// the rule would not report m: its error output is wired, the run fails
// further on whatever it returns, a node reads its error by name, or a
// check after it (checkedFrom, one relay deeper) sees its failed item.
// An m whose output nothing uses, or that ends the branch, ends the run as
// a success: nothing is observed.
func relaysFailure(g *analyze.Graph, m *n8nschema.Node, relays int) bool {
	if m.Disabled || !m.ContinuesOnFail() || !analyze.NamesTargetWithItem(g, m) {
		return false
	}
	if m.OnError == "continueErrorOutput" {
		return len(g.ErrorOutputs(m)) > 0
	}
	if !flowsOn(g, m) || !outputUsed(g, m) {
		return false
	}
	return failsAfter(g, m) || errorsReadByName(g)[m.Name] || checkedFrom(g, m, relays+1)
}

// errorsReadByName returns the nodes whose error some node reads by name
// ($('Create invoice').item.json.error): wherever it is, that node
// observes the failure. One walk over the workflow.
func errorsReadByName(g *analyze.Graph) map[string]bool {
	out := map[string]bool{}
	for _, m := range g.Nodes {
		if raw := m.Params().Raw(); ascii.Index(raw, "error", 3) < 0 && !strings.Contains(raw, `\u`) { // "error" from its o
			continue // none of its strings says error (an escape aside, \u may spell it)
		}
		m.Params().Scalars(func(v n8nschema.Value) bool {
			if v.Kind() != n8nschema.String {
				return true
			}
			x := v.Str()
			for _, at := range namedErrorRE.FindAllStringSubmatch(x, -1) {
				out[at[1]+at[2]] = true
			}
			// Code that reads $(name).….error with the name held in a
			// variable (a list of the fallback models' nodes) reads the
			// error of every node a string literal of it names.
			if n8nschema.IsCode(m.Type) && strings.Contains(x, "$(") && errorPropRE.MatchString(x) {
				for _, lit := range stringLitRE.FindAllStringSubmatch(x, -1) {
					if name := lit[1] + lit[2]; name != "" && g.Node(name) != nil {
						out[name] = true
					}
				}
			}
			return true
		})
	}
	return out
}

// errorPropRE matches a read of an error property (.error, ["error"]);
// stringLitRE a quoted string with no quote or newline inside.
var (
	errorPropRE = lazyregexp.New(`(\.error\b|\[\s*["']error["']\s*\])`)
	stringLitRE = lazyregexp.New(`"([^"\n\\]{1,120})"|'([^'\n\\]{1,120})'`)
)

// errorFieldRE matches an expression or code that reads the error field a
// failed item carries ({error: message}, workflow-execute.ts):
// $json.error, $json["error"], item.json.error, $('Node').item.json.error.
var errorFieldRE = lazyregexp.New(`json(\.error\b|\[\s*["']error["']\s*\])`)

// namedErrorRE matches the error field of a named node's output:
// $('Validate file').item.json.error, $node["Upload"].json["error"].
var namedErrorRE = lazyregexp.New(`\$(?:\(\s*['"]([^'"]+)['"]\s*\)|node\[\s*['"]([^'"]+)['"]\s*\])[\w.()\[\]'"]*?json(?:\.error\b|\[\s*["']error["']\s*\])`)

// readsErrorField reports whether any parameter of m reads the error field
// of the item that reaches it, or of n's output by name: a Set or a sheet
// row that records it, a message that reports it, a condition that tests
// it. Another node's error ($('Validate file').item.json.error) is not n's.
func readsErrorField(m, n *n8nschema.Node) bool {
	found := false
	m.Params().Scalars(func(v n8nschema.Value) bool {
		if found || v.Kind() != n8nschema.String {
			return true
		}
		x := v.Str()
		named := namedErrorRE.FindAllStringSubmatchIndex(x, -1)
	next:
		for _, at := range errorFieldRE.FindAllStringIndex(x, -1) {
			for _, nm := range named {
				if at[0] >= nm[0] && at[1] <= nm[1] {
					var name string
					if nm[2] >= 0 {
						name = x[nm[2]:nm[3]]
					} else {
						name = x[nm[4]:nm[5]]
					}
					if name != n.Name {
						continue next // another node's error
					}
				}
			}
			found = true
			return true
		}
		return true
	})
	return found
}

// testedAfter reports whether a condition node (If, Switch, Filter) a few
// hops after the Code node c tests its output: a fallback the catch
// substitutes is observed only when something tells it from a result;
// otherwise it flows on as one, whatever its words say.
func testedAfter(g *analyze.Graph, c *n8nschema.Node) bool {
	return branchWithin3(g, c, false, func(m *n8nschema.Node) bool {
		found := false
		m.Params().Scalars(func(v n8nschema.Value) bool {
			found = found || v.Kind() == n8nschema.String && refsResult(v.Str(), c, true)
			return true
		})
		return found
	})
}

// branchWithin3 reports whether a condition node (If, Switch, Filter) at
// most three main hops after c passes test; noError leaves out error
// outputs.
func branchWithin3(g *analyze.Graph, c *n8nschema.Node, noError bool, test func(*n8nschema.Node) bool) bool {
	seen := map[*n8nschema.Node]bool{c: true}
	next := []*n8nschema.Node{c}
	for d := 0; d < 3 && len(next) > 0; d++ {
		var more []*n8nschema.Node
		for _, u := range next {
			for _, e := range g.OutOfType(u, analyze.ConnMain) {
				m := e.To
				if seen[m] || noError && e.Error {
					continue
				}
				seen[m] = true
				more = append(more, m)
				if n8nschema.IsBranch(m.Type) && test(m) {
					return true
				}
			}
		}
		next = more
	}
	return false
}

// flagsResult reports whether m is a Code node that reads a field of n's
// result in a way that branches on its absence, and the failed item
// ({error: …}), which lacks the field, shows for what it is after it:
//   - it binds a flag to a test of the field (ok = typeof s.worker_hours
//     === 'number', managerNotified: dm?.ok === true), and a condition (If,
//     Switch, Filter) a few hops after it tests the flag, or the reply or
//     message it feeds carries it (a Respond to Webhook or a message reading
//     $json.managerNotified, or the whole item): the flag says false; a
//     record keeps the flag beside a row that passes for a result;
//   - or it puts an answer of its own words where the field is missing
//     (item.json.resposta || 'Got your message, we will answer here.') and
//     feeds a reply or a message: the person answered gets the fallback the
//     workflow chose. A placeholder (|| 'n/a') is a silent default.
//
// $json and $input count only when the items reaching m are n's (direct);
// n's name counts anywhere.
func flagsResult(g *analyze.Graph, m, n *n8nschema.Node, direct bool) bool {
	if !n8nschema.IsCode(m.Type) {
		return false
	}
	v, ok := m.Param("jsCode")
	if !ok {
		v, ok = m.Param("functionCode")
	}
	if !ok || !direct && !refsResult(v.Str(), n, false) {
		// Reached through other nodes, the code reads n's result only by
		// its name: a flag's item (FieldFlag.Of) is a piece of the code.
		return false
	}
	of := func(f analyze.FieldFlag) bool {
		named := strings.HasPrefix(f.Of, "$(") || strings.HasPrefix(f.Of, "$node[")
		return named && refsResult(f.Of, n, false) || !named && direct
	}
	var flags []string
	for _, f := range analyze.FieldFlags(v.Str()) {
		if of(f) {
			flags = append(flags, f.Name)
		}
	}
	if len(flags) > 0 && (branchWithin3(g, m, true, func(c *n8nschema.Node) bool { return testsFlag(c, m, flags) }) ||
		carriesFlag(g, m, flags)) {
		return true
	}
	for _, f := range analyze.FieldFallbacks(v.Str()) {
		if of(f) {
			return answersWith(g, m)
		}
	}
	return false
}

// wholeItemRE matches a parameter that sends the whole item:
// JSON.stringify($json), {{ $json }}.
var wholeItemRE = lazyregexp.New(`JSON\.stringify\(\s*\$json\s*\)|\{\{\s*\$json\s*\}\}`)

// carriesFlag reports whether a node right after Code node m answers the
// caller (Respond to Webhook) or a person (a message) with one of m's
// flags: it reads the flag ($json.managerNotified) or the whole item.
func carriesFlag(g *analyze.Graph, m *n8nschema.Node, flags []string) bool {
	for _, e := range g.OutOfType(m, analyze.ConnMain) {
		r := e.To
		if e.Error || r.Disabled {
			continue
		}
		respond := r.Type == n8nschema.TypeRespondToWebhook
		if w, _ := n8nschema.WriteOp(r); !respond && !(w && analyze.ConsequenceIn(g, r).Message) {
			continue // a record keeps the flag beside a row that passes for a result
		}
		if respond && respondsWithItems(r) || testsFlag(r, m, flags) {
			return true
		}
		whole := false
		r.Params().Scalars(func(p n8nschema.Value) bool {
			whole = whole || p.Kind() == n8nschema.String && (wholeItemRE.MatchString(p.Str()) || p.Str() == "autoMapInputData")
			return true
		})
		if whole {
			return true
		}
	}
	return false
}

// answersWith reports whether a node right after Code node m answers a
// person with m's items: a Respond to Webhook, or a message (mail, chat,
// SMS), that reads them.
func answersWith(g *analyze.Graph, m *n8nschema.Node) bool {
	for _, e := range g.OutOfType(m, analyze.ConnMain) {
		r := e.To
		if e.Error || r.Disabled {
			continue
		}
		switch w, _ := n8nschema.WriteOp(r); {
		case r.Type == n8nschema.TypeRespondToWebhook && respondsWithItems(r):
			return true
		case r.Type != n8nschema.TypeRespondToWebhook && !(w && analyze.ConsequenceIn(g, r).Message):
			continue
		}
		reads := false
		r.Params().Scalars(func(p n8nschema.Value) bool {
			reads = reads || p.Kind() == n8nschema.String && strings.Contains(p.Str(), "$json")
			return true
		})
		if reads {
			return true
		}
	}
	return false
}

// testsFlag reports whether a condition node reads one of the flags of
// Code node m: $json.ok, $json["ok"], $('Format row').item.json.ok.
func testsFlag(c, m *n8nschema.Node, flags []string) bool {
	found := false
	c.Params().Scalars(func(v n8nschema.Value) bool {
		if found || v.Kind() != n8nschema.String {
			return true
		}
		x := v.Str()
		for _, at := range resultFieldRE.FindAllStringSubmatch(x, -1) {
			ref, field := at[1], strings.Trim(at[2], `?.["' `)
			if ref != "$json" && !refsResult(ref, m, false) {
				continue
			}
			for _, f := range flags {
				if field == f {
					found = true
					return true
				}
			}
		}
		return true
	})
	return found
}

// resultFieldRE finds the first field read of an item: $json.ok,
// $json["ok"], $('Format row').item.json.ok; group 1 the reference, group
// 2 the field.
var resultFieldRE = lazyregexp.New(`(\$json|\$\(\s*['"][^'"]+['"]\s*\)[\w.()]*?\.json|\$node\[\s*['"][^'"]+['"]\s*\]\.json)(\??\.\w+|\[\s*['"][^'"]+['"]\s*\])`)

// routesFailureToHandler reports whether an If or a Switch tests a field of
// n's result and sends the item that lacks it (the failed one) down an output that
// stops the run (Stop and Error) or alerts or records (a best-effort write:
// a team message, a log row) within a few hops. An output that leads
// nowhere, or on to the usual work, does not observe the failure.
//
// A field a Set derives from the result (derivedFields) is the result's
// too: the Set stores null where its expression reads past the missing
// result, and the condition sees null.
func routesFailureToHandler(g *analyze.Graph, m, n *n8nschema.Node, direct bool, derivedOf func() *derivedSets) bool {
	reads := func(left string) bool { return refsResult(left, n, direct) }
	out, ok := failedOutput(m, reads)
	if !ok {
		derived := derivedOf()
		if len(derived.byName) == 0 {
			return false
		}
		// The Sets that feed m directly, read once from m's in-edges.
		var feeding []*n8nschema.Node
		for _, e := range g.InOfType(m, analyze.ConnMain) {
			if d, ok := derived.byName[e.From.Name]; ok && d.set == e.From && !e.Error {
				feeding = append(feeding, e.From)
			}
		}
		out, ok = failedOutput(m, func(left string) bool { return refsDerived(left, feeding, derived) })
		if !ok {
			return false
		}
	}
	for _, e := range g.OutOfType(m, analyze.ConnMain) {
		if e.Output == out && !e.Error && handles(g, e.To, 0) {
			return true
		}
	}
	return false
}

// handles reports whether the items reaching m stop the run or are
// reported: a Stop and Error, or a best-effort write (an alert, a log row),
// within three hops.
func handles(g *analyze.Graph, m *n8nschema.Node, depth int) bool {
	if m.Type == n8nschema.TypeStopAndError {
		return true
	}
	if w, _ := n8nschema.WriteOp(m); w && analyze.BestEffort(m) {
		return true
	}
	if depth >= 2 {
		return false
	}
	for _, e := range g.OutOfType(m, analyze.ConnMain) {
		if !e.Error && handles(g, e.To, depth+1) {
			return true
		}
	}
	return false
}

// passOps are the condition operators a missing field passes: a boolean's
// "is false" too, which n8n tests as !left, true for null and undefined
// (n8n-workflow node-parameters/filter-parameter.js, case 'boolean').
var passOps = map[string]bool{"notExists": true, "empty": true, "isEmpty": true, "false": true}

// derivedSets are the fields Sets derive from a call's result
// (derivedFields), by the Set's name.
type derivedSets struct {
	byName map[string]derivedSet
}

// derivedSet is one Set and the fields it derives from the result.
type derivedSet struct {
	set    *n8nschema.Node
	fields []string
}

// derivedFields are the fields that Set nodes (v3.2 and later) a few hops
// after n derive from n's result alone, by Set node: an assignment whose
// expression reads the result with no fallback (no ||, ??, ?: or
// $ifEmpty), or with one behind a read that throws first (readsPastRE).
// For the failed item the expression reads past a missing
// field and throws a TypeError as it runs. Tournament wraps each
// expression in a try/catch that calls E (@n8n/tournament
// dist/ExpressionBuilder.js L67), and E rethrows only n8n's
// ExpressionError in both engines: the VM engine, 2.41.1's default
// (@n8n/config dist/configs/expression-engine.config.js L22 engine "vm"),
// swallows the rest in its isolate (@n8n/expression-runtime
// dist/cjs/bridge/isolated-vm-bridge.js L87-100), the legacy engine in
// n8n-workflow dist/cjs/expression.js L58-61. The expression yields
// undefined and the Set stores null (nodes-base
// nodes/Set/v2/helpers/utils.js validateEntry: null at v3.2 and later;
// docs/n8n-facts.md): the field is as missing as the result. Only an
// expression that does not parse throws ("invalid syntax",
// expression.js L672-675), whatever the item.
func derivedFields(g *analyze.Graph, n *n8nschema.Node) *derivedSets {
	out := &derivedSets{byName: map[string]derivedSet{}}
	seen := map[*n8nschema.Node]bool{n: true}
	type hop struct {
		n *n8nschema.Node
		d int
	}
	queue := []hop{{n, 0}}
	for len(queue) > 0 {
		h := queue[0]
		queue = queue[1:]
		if h.d >= 3 {
			continue
		}
		for _, e := range g.OutOfType(h.n, analyze.ConnMain) {
			m := e.To
			if seen[m] || e.Error {
				continue
			}
			seen[m] = true
			if m.Type == n8nschema.TypeSet && m.TypeVersion >= 3.2 && !m.Disabled {
				d := derivedSet{set: m}
				for _, a := range m.Params().Get("assignments.assignments").ElemsSeq() {
					v := a.Get("value").Str()
					name := strings.TrimSpace(strings.TrimPrefix(a.Get("name").Str(), "="))
					if name != "" && refsResult(v, n, h.n == n) && (!fallbackRE.MatchString(v) || readsPastRE.MatchString(v)) {
						d.fields = append(d.fields, name)
					}
				}
				if len(d.fields) > 0 {
					out.byName[m.Name] = d
				}
			}
			queue = append(queue, hop{m, h.d + 1})
		}
	}
	return out
}

// fallbackRE matches an expression that puts something else where a read
// finds nothing: ||, ??, a conditional (a ? that is not ?.), or n8n's
// $ifEmpty(value, default) (n8n-workflow
// dist/cjs/extensions/extended-functions.js ifEmpty).
var fallbackRE = lazyregexp.New(`\|\||\?\?|\?[^.]|\$ifEmpty\(`)

// readsPastRE matches an expression that reads past a field of an item
// ($json.data.total, $('Fetch').item.json.candidates[0],
// JSON.parse($json.output)): for the failed item, which lacks the field,
// the read throws before any fallback runs, and Tournament's try/catch
// around the whole expression (@n8n/tournament dist/ExpressionBuilder.js
// L66-69) yields undefined: $ifEmpty($json.data.total, 0) stores null, as
// $json.data.total ?? 0 does. A read that stops at the missing field
// ($json.total ?? 0, $json.data?.total ?? 0) lets the fallback run.
var readsPastRE = lazyregexp.New(derefRef + derefName + `(\.\w|\[)|JSON\.parse\(\s*` + derefRef + derefName + `\s*\)`)

// derefRef is an item's JSON, the input's or a named node's; derefName a
// field of it.
const (
	derefRef  = `(\$json|\$input\.(item|first\(\)|last\(\)|all\(\)\[\d+\])\.json|\$\(\s*['"][^'"]+['"]\s*\)\.(item|first\(\)|last\(\)|all\(\)\[\d+\])\.json|\$node\[\s*['"][^'"]+['"]\s*\]\.json)`
	derefName = `(\.\w+|\[["']\w+["']\])`
)

// setRefRE matches a read of a named node's output: $('Shape'),
// $("Shape"), $node["Shape"]; group 1, 2 or 3 the name.
var setRefRE = lazyregexp.New(`\$\(\s*'([^']+)'\s*\)|\$\(\s*"([^"]+)"\s*\)|\$node\[\s*["']([^"']+)["']\s*\]`)

// refsDerived reports whether the condition's left value left reads a
// field a Set derived from the result (derivedFields): by the Set's name,
// or as $json right after one of the Sets feeding the condition's node.
func refsDerived(left string, feeding []*n8nschema.Node, derived *derivedSets) bool {
	for _, set := range feeding {
		for _, f := range derived.byName[set.Name].fields {
			if fieldRead(left, f) {
				return true
			}
		}
	}
	for _, at := range setRefRE.FindAllStringSubmatchIndex(left, -1) {
		name := ""
		for k := 2; k < len(at); k += 2 {
			if at[k] >= 0 {
				name = left[at[k]:at[k+1]]
			}
		}
		for _, f := range derived.byName[name].fields {
			if fieldRead(left[at[1]:], f) {
				return true
			}
		}
	}
	return false
}

// fieldRead reports whether expr reads .json.f or $json.f (dot or
// bracket) as a whole field name.
func fieldRead(expr, f string) bool {
	for _, pre := range []string{"json." + f, `json["` + f + `"]`, "json['" + f + "']"} {
		for i := 0; ; {
			j := strings.Index(expr[i:], pre)
			if j < 0 {
				break
			}
			end := i + j + len(pre)
			if end == len(expr) || !ascii.IsWord(expr[end]) {
				return true
			}
			i = end
		}
	}
	return false
}

// failedOutput returns the output of If m that an item without n's result
// takes: a condition on a field of the result that a missing field fails
// (equals, exists, is true…) sends it to false (1) when the conditions are
// joined by and; one it passes (does not exist, is empty) to true (0) when
// they are joined by or. Conditions that do not read n's result decide
// nothing.
func failedOutput(m *n8nschema.Node, reads func(left string) bool) (int, bool) {
	p := m.Params()
	switch {
	case m.Type == n8nschema.TypeSwitch && m.TypeVersion >= 3:
		return failedRule(p, reads)
	case m.Type != n8nschema.TypeIf:
		return 0, false
	}
	or := p.Get("conditions.combinator").Str() == "or" || p.Get("combineOperation").Str() == "any"
	fails, passes, total := 0, 0, 0
	judge := func(op, left string) {
		total++
		if !reads(left) {
			return
		}
		switch {
		case rejectOps[op]:
			fails++
		case passOps[op]:
			passes++
		}
	}
	for _, c := range p.Get("conditions.conditions").ElemsSeq() { // v2
		judge(c.Get("operator.operation").Str(), c.Get("leftValue").Str())
	}
	for _, kind := range []string{"string", "number", "boolean", "dateTime"} { // v1
		for _, c := range p.Get("conditions." + kind).ElemsSeq() {
			op := c.Get("operation").Str()
			if op == "" {
				op = map[string]string{"string": "equal", "number": "smaller", "boolean": "equal", "dateTime": "after"}[kind]
			}
			judge(op, c.Get("value1").Str())
		}
	}
	switch {
	case !or && fails > 0, or && total > 0 && fails == total:
		return 1, true
	case or && passes > 0, !or && total > 0 && passes == total:
		return 0, true
	}
	return 0, false
}

// failedRule returns the output of a Switch (v3, rules) that an item
// without n's result takes: the first rule it matches, or the fallback
// output when it matches none (options.fallbackOutput "extra" or an index;
// nodes-base/nodes/Switch/V3/SwitchV3.node.ts). A rule it may or may not
// match decides nothing.
func failedRule(p n8nschema.Value, reads func(left string) bool) (int, bool) {
	rules := p.Get("rules.values").Elems()
	for i, r := range rules {
		or := r.Get("conditions.combinator").Str() == "or"
		fails, passes, total := 0, 0, 0
		for _, c := range r.Get("conditions.conditions").ElemsSeq() {
			total++
			if !reads(c.Get("leftValue").Str()) {
				continue
			}
			switch op := c.Get("operator.operation").Str(); {
			case rejectOps[op]:
				fails++
			case passOps[op]:
				passes++
			}
		}
		switch {
		case !or && fails > 0, or && total > 0 && fails == total:
			continue // the failed item does not match this rule
		case or && passes > 0, !or && total > 0 && passes == total:
			return i, true
		}
		return 0, false
	}
	fb := p.Get("options.fallbackOutput")
	if fb.Str() == "extra" {
		return len(rules), true
	}
	if x, ok := fb.Num(); ok {
		return int(x), true
	}
	return 0, false // dropped: no output observes it
}

// routesToFailingCall reports whether m is an If that sends the failed
// item down its false output (its conditions all test fields of the item
// with a test a missing field fails, joined by and) to a call that names
// its target with a field of the item: the call fails on the missing
// field, and the failure surfaces there.
func routesToFailingCall(g *analyze.Graph, m *n8nschema.Node) bool {
	if m.Type != n8nschema.TypeIf || m.Params().Get("conditions.combinator").Str() == "or" ||
		m.Params().Get("combineOperation").Str() == "any" {
		return false
	}
	p := m.Params()
	tests, other := 0, false
	p.Walk(func(rel string, v n8nschema.Value) {
		var base string
		switch {
		case strings.HasSuffix(rel, "operator.operation"):
			base = strings.TrimSuffix(rel, "operator.operation") + "leftValue"
		case strings.HasSuffix(rel, ".operation") && !strings.Contains(rel, "operator"):
			base = strings.TrimSuffix(rel, "operation") + "value1"
		default:
			return
		}
		if rejectOps[v.Str()] && strings.Contains(p.Get(base).Str(), "$json") {
			tests++
		} else {
			other = true
		}
	})
	if tests == 0 || other {
		return false
	}
	for _, e := range g.OutOfType(m, analyze.ConnMain) {
		if e.Output == 1 && !e.Error && analyze.ThrowsOnErrorItem(g, e.To) {
			return true
		}
	}
	return false
}

// tryCatchRE matches Code that parses in a try block and catches the
// failure: a reply that is an error item instead of the answer lands in
// the catch, which substitutes its fallback (manual review, confidence 0).
var tryCatchRE = lazyregexp.New(`\btry\s*\{[\s\S]*\}\s*catch\b`)

// catchesBadReply reports whether a Code node reads its input inside a
// try/catch: the failed item ({error: …}) is handled there.
func catchesBadReply(m *n8nschema.Node) bool {
	if !n8nschema.IsCode(m.Type) {
		return false
	}
	for _, k := range []string{"jsCode", "functionCode", "pythonCode"} {
		if v, ok := m.Param(k); ok && tryCatchRE.MatchString(v.Str()) {
			return true
		}
	}
	if v, ok := m.Param("pythonCode"); ok && strings.Contains(v.Str(), "try:") && strings.Contains(v.Str(), "except") {
		return true
	}
	return false
}

// rejectOps are condition operators that a missing field fails (v2
// operator.operation, v1 operation): equals, contains, exists, is true,
// greater than… The failed item ({error: …}) lacks the result field, so
// it does not pass.
var rejectOps = map[string]bool{"equals": true, "contains": true, "startsWith": true, "endsWith": true,
	"regex": true, "exists": true, "notEmpty": true, "true": true, "gt": true, "gte": true, "lt": true,
	"lte": true, "after": true, "afterOrEquals": true, "before": true, "beforeOrEquals": true,
	"lengthEquals": true, "lengthGt": true, "lengthGte": true, "lengthLt": true, "lengthLte": true,
	"equal": true, "isNotEmpty": true, "larger": true, "largerEqual": true, "smaller": true, "smallerEqual": true}

// skipsWithoutResult reports whether a Filter, or an If whose false output
// leads nowhere, tests a field of n's result with an operator a missing
// field fails: the failed item is dropped there, not used as a result.
func skipsWithoutResult(g *analyze.Graph, m, n *n8nschema.Node, direct bool) bool {
	switch m.Type {
	case n8nschema.TypeFilter:
	case n8nschema.TypeIf:
		for _, e := range g.OutOfType(m, analyze.ConnMain) {
			if e.Output == 1 && !e.Error {
				return false // the item goes on on the false branch
			}
		}
	default:
		return false
	}
	p := m.Params()
	found := false
	p.Walk(func(rel string, v n8nschema.Value) {
		if found || !rejectOps[v.Str()] {
			return
		}
		var base string
		switch {
		case strings.HasSuffix(rel, "operator.operation"):
			base = strings.TrimSuffix(rel, "operator.operation") + "leftValue"
		case strings.HasSuffix(rel, ".operation"):
			base = strings.TrimSuffix(rel, "operation") + "value1"
		default:
			return
		}
		found = refsResult(p.Get(base).Str(), n, direct)
	})
	return found
}

// presenceOps are the If/Switch/Filter operators (v2 conditions, and v1's
// isEmpty/isNotEmpty) that test whether a field is there: a node that
// routes on the returned id sends the failed item ({error: …}, without it)
// down the other branch.
var presenceOps = map[string]bool{"exists": true, "notExists": true, "empty": true, "notEmpty": true,
	"isEmpty": true, "isNotEmpty": true}

// testsPresence reports whether a condition node tests a field of n's
// result for presence or emptiness: through $json when it comes right
// after n, or by naming n ($('Create invoice'), $node["Create invoice"]).
func testsPresence(m, n *n8nschema.Node, direct bool) bool {
	if !n8nschema.IsBranch(m.Type) {
		return false
	}
	p := m.Params()
	found := false
	p.Walk(func(rel string, v n8nschema.Value) {
		if found || !presenceOps[v.Str()] {
			return
		}
		var base string
		switch {
		case strings.HasSuffix(rel, "operator.operation"): // v2: leftValue beside operator
			base = strings.TrimSuffix(rel, "operator.operation") + "leftValue"
		case strings.HasSuffix(rel, ".operation"): // v1: value1 beside operation
			base = strings.TrimSuffix(rel, "operation") + "value1"
		default:
			return
		}
		found = refsResult(p.Get(base).Str(), n, direct)
	})
	return found
}

// refsResult reports whether an expression reads n's output.
func refsResult(expr string, n *n8nschema.Node, direct bool) bool {
	if direct && strings.Contains(expr, "$json") {
		return true
	}
	return strings.Contains(expr, "$('"+n.Name+"')") || strings.Contains(expr, `$("`+n.Name+`")`) ||
		strings.Contains(expr, `$node["`+n.Name+`"]`)
}

// passesItems are nodes that hand their input items on (or route them), so
// that a node further on may read the failed item.
var passesItems = map[string]bool{n8nschema.TypeSplitInBatches: true, "n8n-nodes-base.merge": true,
	n8nschema.TypeNoOp: true, "n8n-nodes-base.aggregate": true, n8nschema.TypeSet: true, n8nschema.TypeIf: true,
	n8nschema.TypeSwitch: true, n8nschema.TypeFilter: true, n8nschema.TypeWait: true, "n8n-nodes-base.limit": true,
	"n8n-nodes-base.sort": true, "n8n-nodes-base.removeDuplicates": true, "n8n-nodes-base.splitOut": true,
	"n8n-nodes-base.itemLists": true, n8nschema.TypeExecuteWorkflow: true, n8nschema.TypeRespondToWebhook: true}

// outputUsed reports whether anything uses n's output: the node right
// after it reads the item ($json, $input, items, columns mapped from the
// input), writes once per item it gets, or hands the items on; or a node
// names n ($('Name'), $node["Name"]). A command whose result nobody reads,
// followed by a read of the state it changed (resume the player, then ask
// what is playing), misleads no one when it fails.
func outputUsed(g *analyze.Graph, n *n8nschema.Node) bool {
	reads := func(m *n8nschema.Node, direct bool) bool {
		found := false
		m.Params().Walk(func(rel string, v n8nschema.Value) {
			if found || v.Kind() != n8nschema.String {
				return
			}
			x := v.Str()
			key := rel[strings.LastIndexByte(rel, '.')+1:]
			found = refsResult(x, n, false) ||
				direct && (strings.Contains(x, "$json") || strings.Contains(x, "$input") || strings.Contains(x, "items[") ||
					strings.Contains(x, "$binary") || strings.Contains(x, "$item(") ||
					// The item is read without an expression: columns mapped
					// from the input, a binary property by name.
					x == "autoMapInputData" || strings.HasSuffix(key, "PropertyName") || key == "inputDataFieldName")
		})
		return found
	}
	// The items go on unchanged through a Wait or a No Op: the nodes after
	// them get the failed item as the node right after n would.
	next := []*n8nschema.Node{n}
	seen := map[*n8nschema.Node]bool{n: true}
	for hop := 0; hop < 4 && len(next) > 0; hop++ {
		var through []*n8nschema.Node
		for _, from := range next {
			for _, e := range g.OutOfType(from, analyze.ConnMain) {
				m := e.To
				if e.Error || seen[m] {
					continue
				}
				seen[m] = true
				switch {
				case m.Type == n8nschema.TypeWait || m.Type == n8nschema.TypeNoOp:
					if reads(m, true) {
						return true
					}
					through = append(through, m)
					continue
				case m.Type == n8nschema.TypeRespondToWebhook && !respondsWithItems(m) && len(g.OutOfType(m, analyze.ConnMain)) == 0:
					// It answers with a body of its own; the failed item is
					// used only if that body reads it.
					if reads(m, true) {
						return true
					}
					continue
				case passesItems[m.Type]:
					return true // passes the items on: whatever comes after may read them
				}
				if w, _ := n8nschema.WriteOp(m); w {
					return true // it writes once per item it gets, failed or not
				}
				if reads(m, true) {
					return true
				}
			}
		}
		next = through
	}
	for _, m := range g.Nodes {
		if m != n && reads(m, false) {
			return true
		}
	}
	return false
}

// respondsWithItems reports whether a Respond to Webhook node answers with
// the items it gets: respondWith firstIncomingItem (the default),
// allIncomingItems or binary; json, text, jwt, redirect and noData answer
// with the node's own parameters (nodes-base/nodes/RespondToWebhook,
// respondWith and execute).
func respondsWithItems(m *n8nschema.Node) bool {
	switch m.Params().Get("respondWith").Str() {
	case "json", "text", "jwt", "redirect", "noData":
		return false
	}
	return true
}

// stopsOnBranch reports whether an output of a condition node leads, within
// two hops, to a Stop and Error node.
func stopsOnBranch(g *analyze.Graph, cond *n8nschema.Node) bool {
	if cond.Type != n8nschema.TypeIf && cond.Type != n8nschema.TypeSwitch {
		return false
	}
	for _, e := range g.OutOfType(cond, analyze.ConnMain) {
		if e.To.Type == n8nschema.TypeStopAndError {
			return true
		}
		for _, f := range g.OutOfType(e.To, analyze.ConnMain) {
			if f.To.Type == n8nschema.TypeStopAndError {
				return true
			}
		}
	}
	return false
}

// resultTernaryRE finds a conditional on a field of an item
// ($json.call_id ? 'Initiated' : 'Failed', $('Call').item.json.id ? …,
// !$json.sid ? …, $json.id !== undefined ? …): its group 1 is the
// reference tested. A fallback (|| 'n/a', ?? "none") is not a test: it puts a
// silent default where the result was, and the reader cannot tell.
var resultTernaryRE = lazyregexp.New(`(\$json|\$\(\s*['"][^'"]+['"]\s*\)[\w.()]*?\.json|\$node\[\s*['"][^'"]+['"]\s*\]\.json)((?:\.\w+|\[\s*['"][^'"]+['"]\s*\])+)\s*(?:[!=]==?\s*(?:undefined|null|''|""))?\s*\?[^?.]`)

// reportsMissingResult reports whether m is a message, an alert or a log
// row that tells the result from a failure by a conditional on a field of
// n's result ({{ $json.call_id ? 'Initiated' : 'Failed' }}): the failed
// item ({error: …}) lacks that field, so the owner reads "Failed".
// $json counts only when the items reaching m are n's (direct); n's name
// counts anywhere.
func reportsMissingResult(m, n *n8nschema.Node, direct bool) bool {
	if w, _ := n8nschema.WriteOp(m); !w {
		return false
	}
	if !analyze.ConsequenceOf(m).Message && !analyze.BestEffort(m) {
		return false
	}
	found := false
	m.Params().Scalars(func(v n8nschema.Value) bool {
		if found || v.Kind() != n8nschema.String || !strings.Contains(v.Str(), "?") {
			return true
		}
		for _, at := range resultTernaryRE.FindAllStringSubmatch(v.Str(), -1) {
			ref, field := at[1], at[2]
			if strings.Contains(field, "error") {
				continue // the error field is read elsewhere (readsErrorField)
			}
			if ref == "$json" && direct || ref != "$json" && refsResult(ref, n, false) {
				found = true
				return true
			}
		}
		return true
	})
	return found
}

// marksFailure reports whether m is a Code node right after the failing
// node that reads a field of the result ($json.stdout) and returns a status
// field set to a literal (statut: "échec"), and a message or log row fed by
// m's items tells the outcomes apart by a conditional on that field and
// literal ({{ $json.statut === "échec" ? "❌" : "✅" }}): the failed item
// lacks the result's field, takes the code's fallback, and the owner reads
// the mark.
func marksFailure(g *analyze.Graph, m *n8nschema.Node) bool {
	if !n8nschema.IsCode(m.Type) {
		return false
	}
	v, ok := m.Param("jsCode")
	if !ok {
		return false
	}
	code := v.Str()
	if !strings.Contains(code, "$json.") && !strings.Contains(code, "$input") {
		return false // reads nothing of the result
	}
	var marks [][2]string
	for _, at := range literalFieldRE.FindAllStringSubmatch(code, -1) {
		marks = append(marks, [2]string{at[1], at[2]})
	}
	if len(marks) == 0 {
		return false
	}
	for _, e := range g.OutOfType(m, analyze.ConnMain) {
		r := e.To
		if e.Error || !passesOnly(g, m, r) {
			continue
		}
		if w, _ := n8nschema.WriteOp(r); !w || !analyze.ConsequenceOf(r).Message && !analyze.BestEffort(r) {
			continue
		}
		found := false
		r.Params().Scalars(func(p n8nschema.Value) bool {
			if found || p.Kind() != n8nschema.String || !strings.Contains(p.Str(), "?") {
				return true
			}
			for _, at := range literalTestRE.FindAllStringSubmatch(p.Str(), -1) {
				for _, mk := range marks {
					if at[1] == mk[0] && at[2] == mk[1] {
						found = true
						return true
					}
				}
			}
			return true
		})
		if found {
			return true
		}
	}
	return false
}

// literalFieldRE finds a field set to a literal string in code: statut:
// "échec", status = 'failed'; group 1 the field, group 2 the literal.
var literalFieldRE = lazyregexp.New(`(\w+)["']?\s*[:=]\s*["']([^"'\n]{1,40})["']`)

// literalTestRE finds a test of a field of the item against a literal in
// an expression: $json.statut === "échec"; group 1 the field, group 2 the
// literal.
var literalTestRE = lazyregexp.New(`\$json\.(\w+)\s*[!=]==?\s*["']([^"'\n]{1,40})["']`)

// passesOnly reports whether the items reaching m are n's, handed on
// unchanged: m is right after n, or after nodes that only pass items on
// (a No Op, a Wait, a Limit), so $json in m still reads n's result.
func passesOnly(g *analyze.Graph, n, m *n8nschema.Node) bool {
	for d := 0; d < 4; d++ {
		in := g.InOfType(m, analyze.ConnMain)
		if len(in) != 1 {
			return false
		}
		p := in[0].From
		if p == n {
			return true
		}
		switch p.Type {
		case n8nschema.TypeNoOp, n8nschema.TypeWait, "n8n-nodes-base.limit", "n8n-nodes-base.sort":
			m = p
		default:
			return false
		}
	}
	return false
}

// refusedWrite reports a write n8n refuses on every item before it sends
// anything (n8nschema.RefusedCall: Fails and NoCall), such as a JSON body
// that does not parse.
func refusedWrite(op *analyze.Operation) bool {
	if !op.Write {
		return false
	}
	r, ok := n8nschema.RefusedCall(op.Node)
	return ok && r.Fails && r.NoCall
}

// retiredModel reports a node that calls a model its provider shut down.
func retiredModel(n *n8nschema.Node) bool {
	_, ok := n8nschema.RetiredModelCall(n)
	return ok
}

// answersTool reports a node of an agent's tool workflow whose error item
// is the tool's answer: the workflow runs only from its Execute Workflow
// Trigger, every caller the set resolves is a Call Workflow tool (or none
// resolves and the workflow's own agent calls a tool workflow the set
// lacks: an agent and its tool shipped in one file), every path from the
// node ends within a few nodes that hand the item on with its error field
// (a Set that keeps the input's fields, a condition, a No Op), and no
// branch beside the node's way ends the run after it (parallelBranch).
// n8n returns the items of the last node it ran to the tool
// (nodes-langchain ToolWorkflow/v1 ToolWorkflowV1.node.js:
// data[0][0].json), and the model reads {"error": …}: the failure reaches
// the caller.
func answersTool(pass *analyze.Pass, g *analyze.Graph, n *n8nschema.Node) bool {
	callers := 0
	for _, c := range pass.Set.CallsTo(pass.Workflow) {
		if c.Kind == analyze.CallN8nAPI {
			continue
		}
		if c.Kind != analyze.CallTool {
			return false
		}
		callers++ // its own agent's tool among them
	}
	if callers == 0 && !slices.ContainsFunc(pass.Set.CallsFrom(pass.Workflow), func(c *analyze.Call) bool {
		return c.Kind == analyze.CallTool && c.To == nil && (c.Missing != "" || c.Dynamic)
	}) {
		return false
	}
	var others []*n8nschema.Node
	for _, t := range g.Triggers() {
		if !t.Disabled && t.Type != n8nschema.TypeExecuteWorkflowTrigger {
			others = append(others, t)
		}
	}
	if analyze.ReachFrom(g, others...).Has(n) {
		return false
	}
	// n8n answers with the last node the run executed: the ways past n
	// must keep the error field, and no branch that runs beside n's (one
	// an earlier node feeds from the output it feeds n's way with, not an
	// If's or Switch's other output) may end the run after them.
	past := map[*n8nschema.Node]bool{}
	if !endsKeepingError(g, n, 0, past) {
		return false
	}
	return !parallelBranch(g, n, past)
}

// parallelBranch reports a node before n that also feeds, from an output
// it feeds n's way with, a branch that does not lead to n: n8n runs that
// branch in the same execution, before or after n's.
func parallelBranch(g *analyze.Graph, n *n8nschema.Node, past map[*n8nschema.Node]bool) bool {
	before := map[*n8nschema.Node]bool{n: true}
	queue := []*n8nschema.Node{n}
	for len(queue) > 0 {
		m := queue[0]
		queue = queue[1:]
		for _, e := range g.InOfType(m, analyze.ConnMain) {
			if !before[e.From] {
				before[e.From] = true
				queue = append(queue, e.From)
			}
		}
	}
	for a := range before {
		toward := map[int]bool{}
		for _, e := range g.OutOfType(a, analyze.ConnMain) {
			if before[e.To] {
				toward[e.Output] = true
			}
		}
		for _, e := range g.OutOfType(a, analyze.ConnMain) {
			if toward[e.Output] && !before[e.To] && !past[e.To] && !e.To.Disabled {
				return true
			}
		}
	}
	return false
}

// endsKeepingError reports whether every main path from n ends within
// a few nodes, each of which hands its items on with their error field;
// past collects n and the nodes after it.
func endsKeepingError(g *analyze.Graph, n *n8nschema.Node, depth int, past map[*n8nschema.Node]bool) bool {
	if depth > 6 {
		return false
	}
	past[n] = true
	for _, e := range g.OutOfType(n, analyze.ConnMain) {
		m := e.To
		if e.Error || m.Disabled || !keepsError(m) || !endsKeepingError(g, m, depth+1, past) {
			return false
		}
	}
	return true
}

// keepsError reports a node that hands on the items it gets with their
// fields, an error field among them.
func keepsError(m *n8nschema.Node) bool {
	switch m.Type {
	case n8nschema.TypeIf, n8nschema.TypeSwitch, n8nschema.TypeNoOp, n8nschema.TypeWait, "n8n-nodes-base.limit", "n8n-nodes-base.sort":
		return true
	case n8nschema.TypeSet:
		return analyze.SetKeepsField(m, "error")
	}
	return false
}
