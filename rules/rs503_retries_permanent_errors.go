package rules

import (
	"fmt"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var rs503 = &analyze.Rule{
	ID:    "RS503",
	Name:  "retries-permanent-errors",
	Title: "node retries repeat errors that cannot succeed",
	Doc: `n8n's node retry retries every failure alike: no status code is excluded
(packages/core/src/execution-engine/workflow-execute.ts). A 401 from an expired credential, a 403, a 404 or a
422 rejecting the payload fails the same way on every try, and for a write each try may leave a trace (a
rejected order, a duplicate validation e-mail). The rule reports calls whose tries can leave something: a write,
and a call not known to only read. A read (a GET, a search, a scrape, a GraphQL query, a POST that only reads or
analyses) that the server refuses leaves nothing behind, with or without credentials: a refused read is not
billed and writes nothing, so its tries cost one more rejected request each and the waits between them, and the
rule is silent, over HTTP as through a driver (below). A credential the node does not read, as an HTTP Request
whose authentication is "none" ignores the block its export lists, is carried by none of its calls. An HTTP
Request with "Never Error" (options.response.response.neverError; Ignore Response Code, options.ignoreResponseCode,
before v3) returns the status instead of throwing, so
the workflow can retry 429 and 5xx only and report the rest. A Data Table is not a call: it reaches n8n's own
database inside the execution (nodes-base/nodes/DataTable/common/utils.ts), with no credential and no status.
A database node (Postgres, MySQL, Microsoft SQL, Oracle, MongoDB, Redis, Snowflake), a message broker (Kafka,
RabbitMQ, AMQP, MQTT), Send Email, SSH, FTP, LDAP and IMAP call through a driver, not HTTP (nodes-base
nodes/Postgres/transport/index.js pg-promise, MySql/v2/transport mysql2, Microsoft/Sql mssql, Kafka/v1 kafkajs,
RabbitMQ/GenericFunctions.js amqplib, Amqp rhea, MQTT/GenericFunctions.js mqtt, EmailSend/v2 nodemailer,
Ldap/Helpers.js ldapts): their errors carry no status. A call there known to only read (a read operation, or an
executeQuery whose literal query is one statement that starts with SELECT, WITH or the like and names no write
verb, no CALL, EXEC, EXECUTE, DO, COPY or INTO) that the server refuses (a wrong password, a missing table)
leaves nothing behind and costs only the waits, and the rule is silent. A write (a broker's send publishes the
message again) and a call not known to read (a procedure call, a query an expression builds) are reported with
the driver's own permanent refusals (a refused login, a missing table, topic or queue, a violated constraint, a
rejected recipient).`,
	Fix:        "Turn on Never Error and branch on the status code, retrying only 429 and 5xx, or drop the node retry for calls whose failures are permanent",
	FixDoc:     "None: which errors are permanent depends on the API; an error branch that tells them apart must be written.",
	Severity:   analyze.Note,
	Confidence: analyze.Medium,
	Tags:       []string{"retries"},
	Run: func(pass *analyze.Pass) {
		for op := range eachLiveOp(pass) {
			n := op.Node
			k := op.OwnRetries()
			// A Data Table runs inside n8n: no credential, no status.
			if k < 2 || op.Paid || analyze.InProcess(n) {
				continue
			}
			if n8nschema.IgnoresStatus(n) {
				continue
			}
			auth := len(n.Credentials) > 0 && !n8nschema.IgnoresCredentials(n)
			if v, ok := n.Param("authentication"); ok && v.Str() != "" && v.Str() != "none" {
				auth = true
			}
			// A read (a GET, a search, a scrape, a POST that only reads or
			// analyses) the server refuses leaves nothing behind and is not
			// billed: its tries cost one rejected request each and the
			// waits, with or without credentials. A write's tries may each
			// leave a trace.
			write := op.Consequence() != analyze.NoEffect
			// A driver's call (a database, a broker, SMTP, SSH) has no HTTP
			// status and no method to tell a read by: one not known to only
			// read (a procedure, a query an expression builds) may write.
			proto := n8nschema.NoHTTPStatus(n.Type)
			if !write && (!auth || proto == "" || n8nschema.ReadsOnly(n)) {
				continue
			}
			_, name := n8nschema.WriteOp(n)
			what := fmt.Sprintf("makes a write (%s)", name)
			if !write {
				what = fmt.Sprintf("runs %s, not known to only read", name)
			}
			examples := noStatusRefusals[proto]
			pass.Report(analyze.Diagnostic{
				Node: n, Pos: n.Pos, OwnFailure: true, // its own blank is one more refusal it retries
				Message: fmt.Sprintf("node %q tries %d times on any error%s: it %s, so a %s fails the same way %d times",
					n.Name, k, anyError[proto != ""], what, examples, k),
				Chain: op.Factors,
			})
		}
	},
}

// noStatusRefusals are the errors a write's tries all meet, by what the node
// calls (n8nschema.NoHTTPStatus; "" for HTTP).
var noStatusRefusals = map[string]string{
	"":         "401, 403 or 422",
	"database": "refused login, a missing table or column or a violated constraint",
	"smtp":     "refused login or a rejected recipient",
	"server":   "refused login or a missing path",
	"broker":   "refused login or a missing topic or queue",
}

// anyError qualifies "any error": an HTTP call's include its 4xx answers.
var anyError = map[bool]string{false: ", 4xx included", true: ""}
