package rules

import (
	"fmt"

	"github.com/stormcheck/stormcheck/analyze"
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
(packages/core/src/execution-engine/node-execution-context/node-execution-context.ts getCredentials).
Either way the workflow does no work in production: an error workflow that cannot be published reports
nothing, a schedule never fires or fails each time. Which credential each authentication needs, and its
default per node version, come from n8n's node descriptions (the generated node table). An authentication
set by an expression, and credentials that other parameters decide, are left out.`,
	Fix:        "Set the node's Authentication to the kind of credential it names, or select a credential of the type its authentication requires",
	FixDoc:     "None: either the authentication or the credential is wrong, and only the author knows which account the node should use.",
	Severity:   analyze.Error,
	Confidence: analyze.High,
	Tags:       []string{"input", "credentials"},
	Run: func(pass *analyze.Pass) {
		g := pass.Set.Graph(pass.Workflow)
		for _, n := range g.Nodes {
			m, ok := credentialMismatch(g, n)
			if !ok {
				continue
			}
			pos := n.Field("credentials").Get(m.named).Pos()
			// n8n's activation check reads the stored parameters; the
			// editor and a run read them with their defaults.
			outcome := fmt.Sprintf("n8n refuses to publish the workflow (\"Missing required credential: %s\")", m.want[0])
			if !m.stored {
				outcome = fmt.Sprintf("the editor will not publish the workflow (the node has issues), and published through the API the node fails every run: Node does not have any credentials set for %q", m.want[0])
			}
			pass.Report(analyze.Diagnostic{Node: n, Pos: pos,
				Message: fmt.Sprintf("node %q names a %q credential but its authentication is %q (%s), which requires a %q credential: %s",
					n.Name, m.named, m.auth, m.how, m.want[0], outcome)})
		}
	},
}
