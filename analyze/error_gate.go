package analyze

import (
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// A node that continues on fail to its regular output hands on an item
// {error: …} for each failed item (Telegram.node.js L2347-2352:
// returnJsonArray({ error: … }) when continueOnFail). One that sends
// failures to its error output does not: n8n moves every item whose json
// is only error, message and details to the last output
// (n8n-core/dist/execution-engine/workflow-execute.js
// handleNodeErrorOutput, L1603-1661), and one that does not continue
// stops the run at its failure. An If that tests {{ $json.error }} on the
// regular output of such a node waits for an item that never comes.

// errorGateFalse reports an If or Filter (v2 and later, filter
// conditions, all required) one of whose conditions tests the item's
// error field with a test a missing field fails ({{ $json.error }} is not
// empty, contains "blocked"), fed only by nodes whose items carry no
// error field (errorFreeItems): no item passes, and its true output stays
// empty. The gate itself must not continue on fail (a throwing test then
// sends items elsewhere, which failing judges).
func (g *Graph) errorGateFalse(i int) bool {
	nd := g.Nodes[i]
	if nd.Disabled || nd.ContinuesOnFail() || nd.ContinueOnFail || nd.TypeVersion < 2 ||
		nd.Type != n8nschema.TypeIf && nd.Type != n8nschema.TypeFilter {
		return false
	}
	f := nd.Params().Get("conditions")
	if c := f.Get("combinator"); c.Exists() && (c.Kind() != n8nschema.String || c.IsExpr() || c.Str() != "and") {
		return false
	}
	found := false
	for _, c := range f.Get("conditions").ElemsSeq() {
		if key, ok := readKey(c); ok && key == "error" && falseWhenMissing(c) {
			found = true
			break
		}
	}
	if !found {
		return false
	}
	items := g.errorFreeItems()
	fed := false
	ok := g.everyMainInput(i, func(e *Edge) bool {
		if g.disabledTrigger(int(e.from)) {
			return true // it starts no run: nothing comes from it
		}
		fed = true
		return !e.Error && items[e.from]
	})
	return ok && fed
}

// errorFreeItems marks the nodes whose every regular output item has no
// error field (feedTable):
//
//   - a message sent by an app node (Telegram, Slack, Gmail: an effect
//     Message) whose failures do not reach its regular output (errorsOnMain):
//     its item is the provider's record of the sent message, a shape the
//     provider fixes (Telegram's message: message_id, from, chat, date,
//     text). An HTTP Request, a Code node or a store's read are not taken:
//     an API may answer {"error": …} with a 200 (Slack's ok: false), and a
//     sheet may have a column named error;
//   - a Schedule Trigger, Cron or Manual Trigger, whose item n8n makes;
//   - a JavaScript Code node that never names error nor spreads or copies
//     an object, and whose every return hands back new items written out:
//     [{ json: { … } }], or its input mapped to them
//     ($input.all().map(item => ({ json: { … } })));
//   - an If, Switch, Filter, No Operation or Merge node, and a JavaScript
//     Code node that never names error nor spreads or copies an object
//     (its items are new ones of keys it writes out, or its input's), fed
//     only by such nodes, none of them continuing on fail to its regular
//     output.
func (g *Graph) errorFreeItems() []bool {
	return g.noError.table(g, func(nd *n8nschema.Node) (leaf, passes bool) {
		if nd.Disabled || errorsOnMain(nd) {
			return false, false
		}
		switch nd.Type {
		case "n8n-nodes-base.scheduleTrigger", "n8n-nodes-base.cron", "n8n-nodes-base.manualTrigger":
			return true, false
		case n8nschema.TypeIf, n8nschema.TypeSwitch, n8nschema.TypeFilter, n8nschema.TypeNoOp, "n8n-nodes-base.merge":
			return false, true
		case n8nschema.TypeCode:
			if !codeNamesNoError(nd) {
				return false, false
			}
			fresh := codeNewItems(nd)
			return fresh, !fresh
		}
		if n8nschema.IsHTTPRequest(nd.Type) || !n8nschema.Lookup(nd.Type).Known {
			return false, false
		}
		return ConsequenceOf(nd).Message, false
	})
}

// errorsOnMain reports a node whose failed items leave by its regular
// output as {error: …} items: onError continueRegularOutput, or the
// legacy continueOnFail with no onError.
func errorsOnMain(nd *n8nschema.Node) bool {
	return nd.OnError == "continueRegularOutput" || nd.OnError == "" && nd.ContinueOnFail
}

// codeReturnRE matches a return statement and, when it hands back new
// items written out, what shows it: [{ json: {, or a chain with no braces
// before a .map whose arrow returns { json: { … } }.
var codeReturnRE = lazyregexp.New(`\breturn\b\s*(\[\s*\{\s*json\s*:\s*\{|[^;{}]*?\.map\(\s*\(?\s*[A-Za-z_$][\w$]*\s*(?:,\s*[A-Za-z_$][\w$]*\s*)?\)?\s*=>\s*\(\s*\{\s*json\s*:\s*\{)?`)

// codeNewItems reports a Code node (codeNamesNoError) whose every return
// hands back new items written out (codeReturnRE): a Code node returns
// exactly the items its code returns (@n8n/task-runner
// dist/js-task-runner/js-task-runner.js L194-226).
func codeNewItems(nd *n8nschema.Node) bool {
	code := nd.Params().Get("jsCode").Str()
	returns := codeReturnRE.FindAllStringSubmatchIndex(code, -1)
	for _, m := range returns {
		if m[2] < 0 {
			return false
		}
	}
	return len(returns) > 0
}

// codeNamesNoError reports a JavaScript Code node whose code never names
// error and neither spreads nor copies an object (codeItems' test), so
// that no item it returns gains an error key its input lacked.
func codeNamesNoError(nd *n8nschema.Node) bool {
	if l, ok := nd.Param("language"); ok && nd.TypeVersion >= 2 && (l.Kind() != n8nschema.String || l.Str() != "javaScript") {
		return false
	}
	c, ok := nd.Param("jsCode")
	if !ok || c.Kind() != n8nschema.String || c.IsExpr() {
		return false
	}
	code := c.Str()
	return !strings.Contains(code, "error") && !spreadRE.MatchString(code) && !strings.Contains(code, "Object.assign")
}
