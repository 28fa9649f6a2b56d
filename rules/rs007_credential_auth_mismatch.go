package rules

import (
	"fmt"
	"strconv"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var rs007 = &analyze.Rule{
	ID:    "RS007",
	Name:  "credential-auth-mismatch",
	Title: "a node's credential does not match its authentication",
	Doc: `Many app nodes take one of several kinds of credential, chosen by their Authentication parameter (Slack:
an access token or OAuth2). n8n requires the credential that the chosen authentication shows, and an export
stores the parameter only when it differs from the node version's default. A node that names an OAuth2
credential while its authentication is the access-token kind has no credential n8n accepts, and what stops
the workflow depends on whether the authentication is stored on the node. Stored: n8n refuses to publish
(activate) the workflow with "Missing required credential: slackApi" (packages/workflow/src/node-validation.ts
validateNodeCredentials, called by packages/cli/src/workflows/workflow-validation.service.ts
validateForActivation for every enabled node that is connected or a trigger). Left at the default: that
server check reads the stored parameters, where the authentication is absent, so it shows no credential
and passes; the editor, which reads the node with its defaults, marks the node as having issues and will
not publish the workflow, and a workflow published another way (the public API, an import) fails at that
node on every run, since at run time the parameters carry their defaults and the node asks for the
credential its authentication names: "Node does not have any credentials set for "slackApi""
(packages/core/src/execution-engine/node-execution-context/node-execution-context.ts getCredentials); HTTP
Request v1, and v2 on a generic credential type, read the credential inside a try that ignores the failure
(packages/nodes-base/nodes/HttpRequest/V1/HttpRequestV1.node.ts, V2/HttpRequestV2.node.ts) and send the request
without authentication instead, which a service that needs one refuses. A node no run reaches (behind an output
that never carries an item, such as a Switch's output past its one default rule) still keeps the workflow from
being published, and the finding says no run reaches it; it is a note, since the editor says so when the owner
publishes. So is a node that misses a required parameter, whose runs n8n refuses before any credential is read,
and a node left at its default authentication in a workflow n8n refuses to publish for another node's
credential (a trigger given a credential of a type it does not take, such as a WhatsApp Trigger's "whatsAppApi"
where it requires "whatsAppTriggerApi"; or another node's stored mismatch), unless another workflow of the set
calls it: the API's publishing is refused too, so no published run reaches the node
(n8n-workflow/dist/cjs/node-validation.js validateNodeCredentials).
Either way the workflow does no work in production: an error workflow that cannot be published reports
nothing, a schedule never fires or fails each time. Every way to publish on n8n 2.41.1 (the editor, the
public API, import:workflow --activeState=fromJson) runs that check (packages/cli/src/workflows/workflow.service.ts
activateWorkflow); a workflow already published, which n8n starts again when it boots, is not checked again
(packages/cli/src/active-workflow-manager.ts add checks only for a trigger), and then fails at the node on
every run, as one left at the default does. It is a warning, as RS010 gives a node that fails every run: the
work never happens, but nothing is duplicated or charged. It is a note for a node only a manual trigger reaches
(a person runs it from the editor and sees the node fail; a manual trigger that starts a sub-workflow another
workflow of the set calls counts as any other), as RS010 judges it, and for every node of a workflow with no
enabled trigger that no workflow of the set calls: n8n refuses to publish such a workflow for having no trigger
before it checks any credential ("Workflow cannot be activated because it has no trigger node",
packages/workflow/src/workflow-validation.ts validateWorkflowHasTriggerLikeNode, which validateForActivation
calls first), and a call needs an Execute Workflow Trigger (packages/cli/src/utils.ts findSubworkflowStart), so
only a person running it from the editor reaches the node. Which credential each authentication needs, and its
default per node version, come from n8n's node descriptions (the generated node table). A few nodes choose
their credential by another parameter in the same way, and are checked the same way: Ghost's and Storyblok's
Source (Content or Admin/Management API), Jira's Jira Version, the FTP node's Protocol, WordPress's and the
Facebook Graph API's authType, Mailjet's and Mindee's Resource. A node whose code throws before it asks for
its credential fails every run with that error instead (Airtable v1 on its default API key authentication,
which RS010 explains), and so does one set to a resource it does not define (Slack v1 at "chat.postMessage",
Google Docs at "docs", Google Sheets v1 at "googleSheets"): n8n drops its operation, shown only for the
resources the node defines (packages/workflow/src/node-helpers.ts getNodeParameters), and the code reads it
first and throws "Could not get parameter". A node set to an operation its code has no branch for, at a
resource it defines, never asks for its credential and does not fail, so it is left out (Slack v1's message
"postMessage", Google Docs' document "append", Google Sheets v1's sheet "upsertRow":
packages/nodes-base/nodes/Slack/V1/SlackV1.node.ts, Google/Docs/GoogleDocs.node.ts,
Google/Sheet/v1/GoogleSheetsV1.node.ts send nothing and return an item or none); the same fact leaves it out
of RS010. An authentication set by an expression, and credentials that several parameters
decide together, are left out, and so is a workflow holding a node of a type n8n does not ship: n8n cannot
build it, so it refuses to publish it and no node of it runs, whatever the credentials (RS010 reports it).
When n8n refuses the runs that reach the node for a required parameter left blank (RS010), the finding is a
note that holds once the blank is filled in, as for every rule. A template's blank in the node's own resource (a sheet
id "YOUR_SHEET_ID") fails it only after n8n has asked for the credential, so the finding holds as exported: a note that
names the blank as what fails the node once the credential is mended. It is a note, too, when the credential the node
names has an id that is a template's blank ("REPLACE_WITH_CREDENTIAL_ID") in a workflow the export does not show
published and no other workflow of the set calls: n8n does not find that id on import, and binds the credential
of that name and type if the project holds exactly one or leaves the slot for the owner
(packages/cli/src/workflow-helpers.ts replaceInvalidCredentials); the owner sets up every credential of such a
template, and the editor asks there for the one the authentication needs and will not publish the workflow
without it, so nothing shows the mismatch reaching a production run (unless the node's code throws before it asks
for any credential, as above: the credential the owner picks does not mend it, and the warning stands). So is
an object with neither id nor name, which names no credential to bind. A credential stored by name alone (the
old export's form, "googleSheetsOAuth2Api": "Google Sheets account", or an object with a name and no id) is not
a template's blank but the owner's own credential: the same function binds it by name and type to the
importing project's credential (a string or a null id; an empty id, which no credential has, by name once the
look-up by id finds none), exactly as it binds an id from another instance, on every way in: import:workflow
(packages/cli/src/services/import.service.ts), a new workflow from the editor or the API
(packages/cli/src/workflows/workflow-creation.service.ts) and an update (workflow.service.ts). Nothing sends the
owner back to the node, which still names a credential its authentication does not take, so it stays a warning
like a named id. A blank in a workflow shown published, or in one another workflow calls, stays a warning.`,
	Fix:        "Set the node's Authentication to the kind of credential it names, or select a credential of the type its authentication requires",
	FixDoc:     "None: either the authentication or the credential is wrong, and only the author knows which account the node should use.",
	Severity:   analyze.Warning,
	Confidence: analyze.High,
	Tags:       []string{"input", "credentials"},
	Run: func(pass *analyze.Pass) {
		g := pass.Set.Graph(pass.Workflow)
		if g.BuildFails() {
			return // n8n cannot build it: no node runs, whatever its credential
		}
		var refusers []*n8nschema.Node // read once, on the first mismatch
		var refused []string
		for _, n := range g.Nodes {
			m, ok := credentialMismatch(g, n)
			if !ok {
				continue
			}
			if refusers == nil {
				refusers, refused = publishRefused(g)
				if refusers == nil {
					refusers = []*n8nschema.Node{} // none: asked once all the same
				}
			}
			if r, ok := n8nschema.RefusedCall(n); ok && r.NoBranch && !r.Fails {
				// Its code has no branch for its resource or operation: it
				// never asks for a credential, so none makes it fail or work.
				continue
			}
			pos := n.Field("credentials").Get(m.named).Pos()
			// n8n's activation check reads the stored parameters; the
			// editor and a run read them with their defaults.
			outcome := fmt.Sprintf("n8n refuses to publish the workflow (\"Missing required credential: %s\")", m.want[0])
			// What a run does at the node: n8n's error, or, for HTTP
			// Request v1 (v2 on a generic type), a request without the key.
			err := fmt.Sprintf("Node does not have any credentials set for %q", m.want[0])
			throwsFirst := false // it fails whatever credential it is given
			if r, ok := n8nschema.RefusedCall(n); ok && r.Fails && n8nschema.FailsBeforeCredential(n) && !m.stored {
				err, throwsFirst = r.Why, true // its code throws before it asks for its credential
			}
			at := func(fails, swallows string) string {
				if n8nschema.SwallowsMissingCredential(n) {
					return swallows + fmt.Sprintf("HTTP Request v%s ignores the credential it cannot read and sends the request without authentication, which a service that needs one refuses", strconv.FormatFloat(n.TypeVersion, 'f', -1, 64))
				}
				return fails + err
			}
			if m.stored && analyze.RunStateOf(pass.Workflow) == analyze.RunShown {
				// Published before: restarted at boot without the check.
				outcome += at("; the export shows it published, and as published the node fails every run: ", "; the export shows it published, and as published, on every run, ")
			}
			if !m.stored {
				outcome = at("the editor will not publish the workflow (the node has issues), and published through the API the node fails every run: ",
					"the editor will not publish the workflow (the node has issues), and published through the API, on every run, ")
			}
			if !g.Reachable(n) {
				// No run gets to it (an output that never carries an item
				// leads there): only the publishing check stands.
				unreached := noRunReaches(g, n, "the node")
				outcome = fmt.Sprintf("n8n refuses to publish the workflow (\"Missing required credential: %s\"), though %s", m.want[0], unreached)
				if !m.stored {
					outcome = "the editor will not publish the workflow (the node has issues), though " + unreached
				}
			}
			d := analyze.Diagnostic{Node: n, Pos: pos, FaultFirst: true} // n8n asks for the credential before any request: a blank resource fails it only after
			if p, c, ok := otherRefuser(refusers, refused, n); ok && !m.stored && analyze.RunStateOf(pass.Workflow) != analyze.RunShown && !calledByAnother(pass) {
				// n8n refuses to publish the workflow for another node's
				// credential, through the API too: no published run
				// reaches this one, and the owner is told at publishing.
				outcome = fmt.Sprintf("the editor will not publish the workflow (the node has issues), and n8n refuses to publish it for %q's credential anyway (\"Missing required credential: %s\"), so no published run reaches the node", p.Name, c)
				d.Severity = analyze.Note
			}
			if (watched(pass, n) || untriggered(pass)) && g.Reachable(n) {
				// No one publishes it: a person runs it from the editor
				// and sees the node fail, as RS010 judges such a node.
				d.Severity = analyze.Note
				outcome = at("a run from the editor fails at the node: ", "in a run from the editor, ") + " (" + byHandWhy(g, n) + ")"
			}
			if !g.Reachable(n) {
				// The editor says so when the owner publishes: nothing
				// fails unseen.
				d.Severity = analyze.Note
			}
			if c, blank := n8nschema.TemplateCredential(n, m.named); d.Severity != analyze.Note && blank && !c.ByName() && !throwsFirst && analyze.RunStateOf(pass.Workflow) != analyze.RunShown && !calledByAnother(pass) {
				// A template's credential, or one stored with neither id
				// nor name: it binds to nothing as exported, and the owner
				// picks it when setting the workflow up, where the editor
				// offers the slot the authentication needs and will not
				// publish it empty. One stored by name alone (ByName) is
				// the owner's own, bound by name on import as an id from
				// another instance is: the warning stands.
				d.Severity = analyze.Note
				how := "which the owner replaces when setting the workflow up"
				if c.NameOnly {
					how = "so it names no credential of any instance, and the owner picks one when setting the workflow up"
				}
				outcome += fmt.Sprintf("; its %q credential is %s, %s, where the editor asks for the %q credential the authentication needs",
					m.named, analyze.CredentialBlankIs(c), how, m.want[0])
			}
			if param, blank := n8nschema.MissingRequired(n); blank && !g.IsSubNode(n) && !refusedRun(g, n) {
				// n8n refuses every run that reaches the node before any
				// credential is read: the mismatch bites once it is filled.
				// Not a sub-node's: no run's check reads a tool (RS010).
				d.Severity = analyze.Note
				outcome += analyze.RequiredClause(n.Name, param, false, false)
			}
			d.Message = fmt.Sprintf("node %q names a %q credential but its %s is %q (%s), which requires a %q credential: %s",
				n.Name, m.named, m.param, m.auth, m.how, m.want[0], outcome)
			pass.Report(d)
		}
	},
}

// refusedRun reports a node whose runs n8n refuses for a required blank
// that Pass.Report already names (analyze.Graph.RefusedRun).
func refusedRun(g *analyze.Graph, n *n8nschema.Node) bool {
	_, _, _, _, ok := g.RefusedRun(n)
	return ok
}

// otherRefuser returns the first of the nodes publishRefused gave that is
// not n, with the credential it lacks.
func otherRefuser(nodes []*n8nschema.Node, creds []string, n *n8nschema.Node) (*n8nschema.Node, string, bool) {
	for i, p := range nodes {
		if p != n {
			return p, creds[i], true
		}
	}
	return nil, "", false
}
