package n8nschema

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/stormcheck/stormcheck/internal/ascii"
	"github.com/stormcheck/stormcheck/internal/lazyregexp"
)

// This file is the catalog's data on what nodes do to the world: which
// operations write, which parameters carry idempotency keys and whether a
// key survives a retry, what models cost, which calls are heartbeats or
// dead-man's-switch pings, and which dependencies rate-limit. Rules read it
// through the functions below; the tables are tested in effects_test.go.

// Confidence of a catalog entry: how sure the data is, mirrored by rules
// into the confidence of their findings.
type Confidence int

const (
	ConfLow Confidence = iota + 1
	ConfMedium
	ConfHigh
)

// ConfidenceNames are the confidences' names, by value.
var ConfidenceNames = []string{ConfLow: "low", ConfMedium: "medium", ConfHigh: "high"}

func (c Confidence) String() string {
	if c > 0 && int(c) < len(ConfidenceNames) {
		return ConfidenceNames[c]
	}
	return "none"
}

// ---------------------------------------------------------------------------
// Writes

// WriteOp reports whether a node changes state outside n8n when it runs (a
// retried write may commit twice), and names the operation ("POST",
// "message.post"). HTTP methods come from the method parameter; app nodes
// from their resource and operation, with n8n's defaults when the
// parameters are absent (they are omitted when equal to the default,
// docs/n8n-behaviour.md#omitted-defaults).
func WriteOp(n *Node) (bool, string) {
	w, op, _ := WriteOpConf(n)
	return w, op
}

// WriteOpConf is WriteOp with the confidence of the classification: high
// for HTTP methods and explicit operations, medium when the operation is
// n8n's default for the node or inferred from an SQL query.
func WriteOpConf(n *Node) (bool, string, Confidence) {
	if IsHTTPRequest(n.Type) {
		m := HTTPMethod(n)
		return IsWriteMethod(m), m, ConfHigh
	}
	a, ok := appOperation(n)
	if !ok {
		return false, "", 0
	}
	if sqlNodes[strings.TrimSuffix(n.Type, "Tool")] && a.op == "executeQuery" {
		q := strings.ToUpper(paramStr(n, "query"))
		return sqlWrites(q), a.name, ConfMedium
	}
	if strings.TrimSuffix(n.Type, "Tool") == typeSSH && a.name == "command.execute" {
		// The command is what writes, if anything (shell.go).
		return !ReadOnlyCommand(paramStr(n, "command")), a.name, ConfMedium
	}
	return a.kind.Writes(), a.name, a.conf
}

// ReadsOnly reports a node known to only read when it runs: an operation
// n8n's description lists as a read (Postgres "select", Redis "get",
// MongoDB "find"), an executeQuery whose literal query only reads
// (SQLReadsOnly), a MongoDB aggregate whose literal pipeline has no $out or
// $merge stage (the stages that write a collection), an SSH command that
// only reads (ReadOnlyCommand). A query an expression builds, a procedure
// call or an operation the description does not list is not known to read,
// though WriteOp does not call it a write either.
func ReadsOnly(n *Node) bool {
	a, ok := appOperation(n)
	if !ok || !a.listed {
		return false
	}
	typ := strings.TrimSuffix(n.Type, "Tool")
	switch {
	case sqlNodes[typ] && a.op == "executeQuery":
		return SQLReadsOnly(rawParam(n, "query"))
	case typ == typeSSH && a.name == "command.execute":
		return ReadOnlyCommand(paramStr(n, "command"))
	case typ == typeMongoDB && a.op == "aggregate":
		q := rawParam(n, "query")
		return literalText(q) != "" && !strings.Contains(q, "{{") &&
			!strings.Contains(q, "$out") && !strings.Contains(q, "$merge")
	}
	return !a.kind.Writes()
}

// typeMongoDB is the MongoDB node; its aggregate runs the stored pipeline
// (nodes-base dist/nodes/MongoDb/MongoDb.node.js L194-203).
const typeMongoDB = "n8n-nodes-base.mongoDb"

// SQLReadsOnly reports a query, as stored ("=" first for an expression),
// known to only read: with its {{ }} expressions taken as values and its
// strings and comments left out, it is one statement (nothing after a ";")
// that starts with a reading word (SELECT, WITH, SHOW, EXPLAIN, DESCRIBE,
// VALUES, TABLE) and names no write verb (sqlWrites), no procedure or block
// (CALL, EXEC, EXECUTE, DO), no COPY and no INTO (SELECT … INTO makes a
// table in Postgres, a file in MySQL). A query an expression builds whole
// ("={{ $json.sql }}") has no literal statement and is not known.
func SQLReadsOnly(raw string) bool {
	q := strings.ToUpper(literalText(raw))
	t := strings.TrimLeft(q, " \t\r\n(")
	end := strings.IndexFunc(t, func(r rune) bool { return r < 'A' || r > 'Z' })
	if end < 0 {
		end = len(t)
	}
	switch t[:end] {
	case "SELECT", "WITH", "SHOW", "EXPLAIN", "DESCRIBE", "DESC", "VALUES", "TABLE":
	default:
		return false
	}
	if i := strings.IndexByte(q, ';'); i >= 0 && strings.Trim(q[i:], "; \t\r\n") != "" {
		return false
	}
	return !sqlWrites(q) && !sqlProcedure.MatchString(q)
}

// sqlProcedure matches the words that run code or move data a query's text
// does not show: a procedure call, an anonymous block, a bulk copy, a
// SELECT … INTO.
var sqlProcedure = lazyregexp.New(`\b(CALL|EXEC|EXECUTE|DO|COPY|INTO)\b`)

// literalText is a stored parameter value with its expression marker
// dropped, each {{ }} expression replaced by a value ("?"), and the SQL
// strings ('…') and comments (-- …, /* … */) left out, so that a word in a
// string is not a verb; "" when nothing but expressions and blanks is left.
func literalText(raw string) string {
	s := exprRE.ReplaceAllString(strings.TrimPrefix(raw, "="), "?")
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				i = len(s)
				continue
			}
			i += j + 1
			b.WriteString("''")
		case strings.HasPrefix(s[i:], "--"):
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				j = len(s) - i
			}
			i += j - 1
			b.WriteByte(' ')
		case strings.HasPrefix(s[i:], "/*"):
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				j = len(s) - i - 2
			}
			i += j + 3
			b.WriteByte(' ')
		default:
			b.WriteByte(s[i])
		}
	}
	if strings.Trim(b.String(), "? \t\r\n") == "" {
		return ""
	}
	return b.String()
}

// rawParam is a string parameter as stored, expression marker included.
func rawParam(n *Node, path string) string {
	v, ok := n.Param(path)
	if !ok {
		return ""
	}
	return v.Str()
}

// typeSSH is the SSH node, which runs a command on a host.
const typeSSH = "n8n-nodes-base.ssh"

// appOp is an app node's operation as n8n runs it.
type appOp struct {
	name   string // "message.send"; "send" when the node has no resource
	op     string
	kind   OpKind
	conf   Confidence
	listed bool // n8n's description lists the operation (or the node always sends)
}

// appOperation resolves an app node's resource and operation, taking n8n's
// defaults for its version from the generated table when the parameters
// are absent (they are omitted when equal to the default,
// docs/n8n-behaviour.md#omitted-defaults): Outlook v2 with no operation sends mail, Drive
// v3 uploads. An operation the table does not list (an expression, a
// newer version) is classified by its leading verb. Nodes that work
// inside n8n (Date & Time "add", Item Lists) are not app nodes.
func appOperation(n *Node) (appOp, bool) {
	// The analysis asks this of an app node several times (the attempt
	// model, its consequence, several rules): the answer is kept on the
	// node.
	return n.appOp.get(n, appOperationOf)
}

// appOperationOf is appOperation, made.
func appOperationOf(n *Node) (appOp, bool) {
	typ := strings.TrimSuffix(n.Type, "Tool")
	if r := Lookup(typ).Role; r != RoleExternal && r != RoleModel {
		return appOp{}, false
	}
	d, ok := n.describeAs(typ)
	if !ok {
		// A node n8n does not describe (a community node): its
		// operation is unknown, unless its stored name says it runs a
		// job and answers with the output.
		return undescribedAnswer(n)
	}
	res := paramStr(n, "resource")
	absent := res == ""
	if absent {
		res = d.DefaultResource()
	}
	a := appOp{op: paramStr(n, "operation"), conf: ConfHigh}
	if a.op == "" {
		a.op, a.conf = d.DefaultOperation(res), ConfMedium
	}
	if a.op == "" {
		if op, ok := alwaysWrites[typ]; ok {
			return appOp{name: op, op: op, kind: OpSend, conf: ConfHigh, listed: true}, true
		}
		return appOp{}, false
	}
	a.name = a.op
	if res != "" {
		a.name = res + "." + a.op
	}
	k, known := d.operationOf(res, absent, a.op)
	if !known {
		k = verbKind(a.op)
	}
	if RunsAndAnswers(a.op) {
		k = OpRead
	}
	a.kind, a.listed = k, known
	return a, true
}

// undescribedAnswer is appOperation for a node the table does not
// describe: only an operation that runs a job and answers with its output
// (RunsAndAnswers) is read, as a read, with medium confidence; the stored
// value is what the node's code switches on.
func undescribedAnswer(n *Node) (appOp, bool) {
	op := paramStr(n, "operation")
	if !RunsAndAnswers(op) {
		return appOp{}, false
	}
	a := appOp{name: op, op: op, kind: OpRead, conf: ConfMedium}
	if res := paramStr(n, "resource"); res != "" {
		a.name = res + "." + op
	}
	return a, true
}

// RunsAndAnswers reports an operation that runs a job, waits for it and
// answers with its output: Apify's community node's "Run actor and get
// dataset" and "Run task and get dataset" (apify/n8n-nodes-apify,
// nodes/Apify/resources/actors/run-actor-and-get-dataset/execute.ts: it
// starts the run, polls it to its end and returns the dataset's items), a
// "runSync". It is the app side of the HTTP reading of Apify's
// run-sync-get-dataset-items (analyze readingPOST): a repeat runs the
// scrape again and stores nothing the owner keeps. "Run actor" alone
// starts a run and answers with the run, not its output, and is not one.
func RunsAndAnswers(op string) bool {
	words := opWords(op)
	if len(words) < 2 || words[0] != "run" {
		return false
	}
	if words[1] == "sync" {
		return true
	}
	return slices.Contains(words[2:], "get")
}

// opWords splits an operation's value into lower-case words, at spaces,
// punctuation and camelCase ("Run actor and get dataset", "runSync",
// "run-sync").
func opWords(s string) []string {
	var words []string
	start := -1
	flush := func(end int) {
		if start >= 0 {
			words = append(words, strings.ToLower(s[start:end]))
		}
		start = -1
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'A' && c <= 'Z':
			flush(i)
			start = i
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			if start < 0 {
				start = i
			}
		default:
			flush(i)
		}
	}
	flush(len(s))
	return words
}

// verbKind classifies an operation the table does not list by its leading
// verb ("createComment", "sendEmail").
func verbKind(op string) OpKind {
	switch {
	case !hasVerb(op, writeVerbs):
		return OpRead
	case hasPrefix(op, idempotentPrefixes):
		return OpUpdate
	case hasVerb(op, duplicatingVerbs):
		return OpCreate
	case hasVerb(op, []string{"delete", "remove", "clear", "trash"}):
		return OpDelete
	}
	return OpUpdate
}

func hasPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// IsWriteMethod reports whether an HTTP method changes state.
func IsWriteMethod(m string) bool {
	switch m {
	case "POST", "PUT", "PATCH", "DELETE":
		return true
	}
	return false
}

func paramStr(n *Node, path string) string {
	v, ok := n.Param(path)
	if !ok {
		return ""
	}
	return strings.TrimPrefix(v.Str(), "=")
}

// alwaysWrites are app nodes whose description has no operation at some
// version: every run sends (Send Email v1, Mailgun).
// A message broker's node has no operation either: Kafka, AMQP and MQTT
// publish each item (nodes-base dist/nodes/Kafka/v1/KafkaV1.node.js L371
// and v2/KafkaV2.node.js L353 producer.sendBatch, Amqp/Amqp.node.js L211
// sender.send, MQTT/Mqtt.node.js L130 client.publishAsync), and a retry
// publishes it again. RabbitMQ's node lists its operations (sendMessage).
var alwaysWrites = map[string]string{
	"n8n-nodes-base.emailSend": "send",
	"n8n-nodes-base.mailgun":   "send",
	"n8n-nodes-base.kafka":     "send",
	"n8n-nodes-base.amqp":      "send",
	"n8n-nodes-base.mqtt":      "publish",
}

// sqlNodes run free SQL with operation executeQuery; whether that writes is
// read from the query (n8n's security audit treats them alike,
// packages/cli/src/security-audit/constants.ts SQL_NODE_TYPES).
var sqlNodes = map[string]bool{
	"n8n-nodes-base.postgres": true, "n8n-nodes-base.mySql": true, "n8n-nodes-base.microsoftSql": true,
	"n8n-nodes-base.googleBigQuery": true, "n8n-nodes-base.snowflake": true, "n8n-nodes-base.crateDb": true,
	"n8n-nodes-base.questDb": true, "n8n-nodes-base.timescaleDb": true,
}

// sqlWriteWords are the verbs of an SQL write, upper-case.
var sqlWriteWords = [...]string{"INSERT", "UPDATE", "DELETE", "MERGE", "UPSERT", "REPLACE", "TRUNCATE", "DROP", "ALTER", "CREATE"}

// sqlWrites reports whether the upper-cased query q holds one of
// sqlWriteWords as a word: what `\b(INSERT|…|CREATE)\b` matches (\b reads
// ASCII word bytes; a byte of a longer rune is none). The pattern, with no
// literal prefix, was tried at every byte of the query; a byte search per
// word is not.
func sqlWrites(q string) bool {
	for _, w := range sqlWriteWords {
		for i := 0; ; {
			j := strings.Index(q[i:], w)
			if j < 0 {
				break
			}
			p, e := i+j, i+j+len(w)
			if (p == 0 || !sqlWordByte(q[p-1])) && (e == len(q) || !sqlWordByte(q[e])) {
				return true
			}
			i = p + 1
		}
	}
	return false
}

// sqlWordByte reports an ASCII word byte, as \b reads one.
func sqlWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// writeVerbs are operation values (or their leading word) that change
// state. Reads (get, getAll, search, list, read, select, lookup, download)
// are absent.
var writeVerbs = []string{
	"create", "post", "send", "insert", "update", "upsert", "delete", "append", "add", "charge",
	"publish", "push", "set", "incr", "upload", "reply", "move", "copy", "edit", "remove", "clear",
	"deleteRecord", "deleteTable", "appendOrUpdate", "invite", "archive", "trash", "subscribe",
	"capture", "refund", "pay", "transfer", "share", "write", "activate", "deactivate", "execute",
	"postMessage", "sendMessage", "sendPhoto", "sendDocument", "sendAudio", "sendVideo",
	"sendAndWait", "sendMediaGroup", "sendLocation", "sendSticker", "sendAnimation", "sendChatAction",
}

// hasVerb reports whether op is one of verbs or starts with one of them as
// a camelCase word ("createComment", "sendEmail").
func hasVerb(op string, verbs []string) bool {
	for _, v := range verbs {
		if op == v {
			return true
		}
		// camelCase leading verb: "createComment", "addLabels", "sendEmail".
		if strings.HasPrefix(op, v) && len(op) > len(v) && op[len(v)] >= 'A' && op[len(v)] <= 'Z' {
			return true
		}
	}
	return false
}

// duplicatingVerbs are write operations whose repetition leaves a second
// effect: another row, message, charge or file. Updates, upserts and
// deletes re-apply the same state and are absent.
var duplicatingVerbs = []string{
	"create", "post", "send", "insert", "append", "add", "charge", "publish", "push", "incr",
	"upload", "reply", "copy", "invite", "capture", "refund", "pay", "transfer", "share", "execute",
	"postMessage", "sendMessage", "sendPhoto", "sendDocument", "sendAudio", "sendVideo", "sendAndWait",
	"sendMediaGroup", "sendLocation", "sendSticker", "sendAnimation", "subscribe",
}

// keyedStores keep an object under the name the request gives it (a
// bucket key, a file path): uploading or writing it again replaces the
// object instead of adding a second one (S3 PutObject, FTP STOR, GCS
// objects.insert with a name). Google Drive and OneDrive are absent: they
// keep a second file of the same name.
var keyedStores = map[string]bool{
	"n8n-nodes-base.s3": true, "n8n-nodes-base.awsS3": true, "n8n-nodes-base.ftp": true,
	"n8n-nodes-base.googleCloudStorage": true, "n8n-nodes-base.readWriteFile": true,
	"n8n-nodes-base.writeBinaryFile": true,
	// "Existing files get overwritten" (nodes-base/nodes/Dropbox/Dropbox.node.js
	// upload's path), and WebDAV PUT replaces the file at the path
	// (nodes-base/nodes/NextCloud/NextCloud.node.js).
	"n8n-nodes-base.dropbox": true, "n8n-nodes-base.nextCloud": true,
}

// idempotentPrefixes are camelCase operations that only set state even
// though they start with a duplicating verb ("addLabels" on a message).
var idempotentPrefixes = []string{"addLabel", "addTag", "addToList", "appendOrUpdate", "createOrUpdate", "createUpdate", "upsert"}

// rpcPathWords mark a POST that asks for an answer rather than storing
// something: search, lookup, validation, conversion, OCR, ranking and
// model endpoints (a question's /answer), generation, media synthesis (text-to-speech, image generation and
// remix), and WebDriver commands on an open browser session (navigate,
// find, click, set a cookie). Repeating it costs a call but leaves no
// second record (confidence medium: a path is a hint, not a contract).
var rpcPathWords = lazyregexp.New(`(?i)/(search|query|lookup|find|validate|verify|check|status|screenshot|render|preview|extract|scrape|crawl|parse|convert|translate|transcri\w*|classify|detect|analy[sz]e|summari[sz]e|completions?|embeddings?|generat(e|ions?)|chat|answer|predict|inference|estimate|quote|calculate|token|oauth2?|login|auth|text-to-speech|speech-to-text|tts|remix|upscale|describe|ocr|re-?rank|rank|score|moderations?|tokeni[sz]e|compress|resize|thumbnail|images/(generations|edits|variations)|session/[^/]+/(url|elements?|execute(/\w+)?|actions|window\w*|frame|back|forward|refresh|cookie))\b`)

// rpcStems holds, in lower case, the start of every rpcPathWords match
// ('/' and the word, or its stem); keep it in step with the regex
// (TestRPCStems). It spares the regex on most URLs.
var rpcStems = newStems("/search", "/query", "/lookup", "/find", "/validate", "/verify", "/check", "/status",
	"/screenshot", "/render", "/preview", "/extract", "/scrape", "/crawl", "/parse", "/convert", "/translate",
	"/transcri", "/classify", "/detect", "/analy", "/summari", "/completion", "/embedding", "/generat", "/chat", "/answer", "/predict",
	"/inference", "/estimate", "/quote", "/calculate", "/token", "/oauth", "/login", "/auth", "/text-to-speech",
	"/speech-to-text", "/tts", "/remix", "/upscale", "/describe", "/ocr", "/re-rank", "/rerank", "/rank", "/score",
	"/moderation", "/compress", "/resize", "/thumbnail", "/images/", "/session/")

// AnswerPath reports whether a POST to this URL asks for an answer rather
// than storing something (rpcPathWords): a repeat costs a call and leaves
// no second record.
func AnswerPath(url string) bool {
	url = strings.ToLower(url)
	if i := strings.IndexAny(url, "?#"); i >= 0 {
		url = url[:i]
	}
	at, _ := rpcStems.index(url)
	if at < 0 {
		return false
	}
	// Every match starts with a stem, so none before at: the pattern
	// (hundreds of instructions, each tried at every byte) reads the URL
	// from there, not its scheme and host.
	for _, m := range rpcPathWords.FindAllStringIndex(url[at:], -1) {
		// A dotted method name is a method of that family, not the word:
		// Slack's chat.postMessage posts a message (a file extension,
		// search.json, is the word).
		if !dottedMethod(url[at+m[1]:]) {
			return true
		}
	}
	return false
}

// dottedMethod reports whether rest, the text after a word of a URL path,
// continues it into a dotted method name (".postMessage", ".update") and
// not a file extension (".json").
func dottedMethod(rest string) bool {
	name, ok := strings.CutPrefix(rest, ".")
	if !ok || name == "" || strings.ContainsAny(name, "/.") || name[0] < 'a' || name[0] > 'z' {
		return false
	}
	switch name {
	case "json", "xml", "php", "html", "htm", "asp", "aspx", "js", "txt", "csv", "cgi", "do", "jsp":
		return false
	}
	return true
}

// AppOperation returns an app node's resource and what its operation does
// when run once more, with n8n's defaults when the parameters are absent;
// false for HTTP and for nodes that work inside n8n.
func AppOperation(n *Node) (resource string, kind OpKind, ok bool) {
	a, ok := appOperation(n)
	if !ok {
		return "", OpRead, false
	}
	res, _, _ := strings.Cut(a.name, ".")
	if res == a.name {
		res = ""
	}
	return res, a.kind, true
}

// AppResourceOperation returns an app node's resource and operation as
// n8n runs them, its defaults for the version taken when the parameters
// are absent (appOperation): ("message", "getAll") for a Gmail tool set to
// get many messages, ("event", "create") for a Google Calendar node left
// at its defaults. resource is "" for a node that has none.
func AppResourceOperation(n *Node) (resource, op string, ok bool) {
	a, ok := appOperation(n)
	if !ok {
		return "", "", false
	}
	res, _, _ := strings.Cut(a.name, ".")
	if res == a.name {
		res = ""
	}
	return res, a.op, true
}

// KeyedStore reports whether a node type stores an object under the name
// the request gives it, so that a repeat overwrites it (keyedStores).
func KeyedStore(typ string) bool { return keyedStores[strings.TrimSuffix(typ, "Tool")] }

// SQLQuery reports whether a node runs free SQL (an SQL node's
// executeQuery), and whether the query inserts rows.
func SQLQuery(n *Node) (query, insert bool) {
	typ := strings.TrimSuffix(n.Type, "Tool")
	if !sqlNodes[typ] || paramStr(n, "operation") != "executeQuery" {
		return false, false
	}
	q := strings.ToUpper(paramStr(n, "query"))
	// An upsert (ON CONFLICT, ON DUPLICATE KEY UPDATE) re-applies the row
	// a repeat would insert again.
	upsert := strings.Contains(q, "ON CONFLICT") || strings.Contains(q, "ON DUPLICATE KEY")
	return true, strings.Contains(q, "INSERT") && !upsert
}

// HumanGate reports whether a node waits for a person: a Wait resumed by a
// webhook or form (nodes-base/nodes/Wait: resume 'webhook' | 'form'), a
// Form page, or a "send and wait for response" operation (Slack, Gmail,
// Telegram, Discord, Teams, e-mail; docs/n8n-behaviour.md#notifiers), or a community
// human-review node waiting on its own webhook. A loop
// through one runs once per human answer, not on its own.
func HumanGate(n *Node) bool {
	switch n.Type {
	case "n8n-nodes-base.wait":
		r := paramStr(n, "resume")
		if r == "" {
			r = paramStr(n, "mode") // early exports
		}
		return r == "webhook" || r == "form"
	case "n8n-nodes-base.form":
		return true
	}
	if paramStr(n, "operation") == "sendAndWait" {
		return true
	}
	// A community node that is no trigger but holds a webhook of its own
	// waits on it: a human-review node that resumes when the reviewer
	// answers (n8n gives a webhookId only to nodes that declare webhooks).
	return !strings.HasPrefix(n.Type, "n8n-nodes-base.") && !strings.HasPrefix(n.Type, "@n8n/") &&
		!IsTriggerNode(n.Type) && !strings.HasSuffix(strings.ToLower(n.Type), "trigger") &&
		n.Field("webhookId").Str() != ""
}

// ---------------------------------------------------------------------------
// Idempotency keys

// KeyName is a request field that deduplicates retries on the server.
type KeyName struct {
	Name     string // canonical spelling
	Provider string // who honours it ("" for the generic IETF header)
	Where    string // "header" or "body"
	Conf     Confidence
}

// keyNames are idempotency fields by convention. Sources: IETF draft
// "The Idempotency-Key HTTP Header Field"; Stripe, Adyen, GoCardless, Mollie
// (Idempotency-Key); PayPal (PayPal-Request-Id); Checkout.com
// (Cko-Idempotency-Key); Twilio (I-Twilio-Idempotency-Token); Xendit
// (X-Idempotency-Key); Wise (X-idempotence-uuid); Razorpay
// (X-Payout-Idempotency); Square, Plaid (idempotency_key in the body);
// Airwallex, Revolut Business (request_id in the body); AWS (ClientToken).
var keyNames = []KeyName{
	{"Idempotency-Key", "", "header", ConfHigh},
	{"X-Idempotency-Key", "", "header", ConfHigh},
	{"PayPal-Request-Id", "paypal", "header", ConfHigh},
	{"Cko-Idempotency-Key", "checkout.com", "header", ConfHigh},
	{"I-Twilio-Idempotency-Token", "twilio", "header", ConfHigh},
	{"X-Idempotence-Uuid", "wise", "header", ConfHigh},
	{"X-Payout-Idempotency", "razorpay", "header", ConfHigh},
	{"idempotency_key", "square", "body", ConfHigh},
	{"idempotencyKey", "", "body", ConfHigh},
	{"request_id", "airwallex", "body", ConfMedium},
	{"ClientToken", "aws", "body", ConfMedium},
	{"client_token", "", "body", ConfMedium},
	{"MessageDeduplicationId", "aws-sqs", "body", ConfHigh},
}

// keyHosts are APIs that document an idempotency header on their write
// endpoints, by host suffix: Stripe, GoCardless, Mollie, Adyen
// (Idempotency-Key), PayPal (PayPal-Request-Id), Checkout.com
// (Cko-Idempotency-Key), Xendit (X-Idempotency-Key). Providers whose key
// must be a UUID (Wise) or that take it in the body (Square) are left out:
// the fix package writes a header from the execution and the item.
var keyHosts = []struct{ Host, Header string }{
	{"api.stripe.com", "Idempotency-Key"},
	{"api.gocardless.com", "Idempotency-Key"},
	{"api-sandbox.gocardless.com", "Idempotency-Key"},
	{"api.mollie.com", "Idempotency-Key"},
	{"adyen.com", "Idempotency-Key"},
	{"adyenpayments.com", "Idempotency-Key"},
	{"api.paypal.com", "PayPal-Request-Id"},
	{"api-m.paypal.com", "PayPal-Request-Id"},
	{"api-m.sandbox.paypal.com", "PayPal-Request-Id"},
	{"api.sandbox.paypal.com", "PayPal-Request-Id"},
	{"api.checkout.com", "Cko-Idempotency-Key"},
	{"api.sandbox.checkout.com", "Cko-Idempotency-Key"},
	{"api.xendit.co", "X-Idempotency-Key"},
}

// KeyHeaderFor returns the idempotency header an API host honours on its
// writes, if the catalog knows one.
func KeyHeaderFor(host string) (string, bool) {
	h, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(host)), ":")
	if h == "" {
		return "", false
	}
	for _, k := range keyHosts {
		if h == k.Host || strings.HasSuffix(h, "."+k.Host) {
			return k.Header, true
		}
	}
	return "", false
}

// LookupKeyName returns the key convention a field name follows, if any.
// Header names compare without case; "_" and "-" are the same.
func LookupKeyName(name string) (KeyName, bool) {
	for _, k := range keyNames {
		if strings.EqualFold(k.Name, strings.TrimSpace(name)) {
			return k, true
		}
	}
	norm := normKey(name)
	for i, k := range normKeyNames {
		if k == norm {
			return keyNames[i], true
		}
	}
	return KeyName{}, false
}

func normKey(s string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "_", "-")
}

// IdempotencyKey is a key a node sends, with where it is.
type IdempotencyKey struct {
	Name  KeyName
	Value string // the raw parameter text (an expression or a literal)
	Pos   Pos
}

// jsonFieldParams hold JSON text that may carry a key (HTTP Request v3+
// jsonHeaders/jsonQuery/jsonBody; v1/v2 headerParametersJson and friends,
// nodes-base/nodes/HttpRequest/V3/Description.ts and V2).
var jsonFieldParams = [...]string{"jsonHeaders", "jsonQuery", "jsonBody", "headerParametersJson", "queryParametersJson", "bodyParametersJson", "body"}

// IdempotencyKeyOf finds an idempotency key among a node's header, query
// and body parameters: name/value pairs (headerParameters.parameters[],
// v1/v2 headerParametersUi.parameter[]) and JSON text parameters.
func IdempotencyKeyOf(n *Node) (IdempotencyKey, bool) {
	if !mayHoldKey(n.Params()) {
		return IdempotencyKey{}, false
	}
	return findKey(n)
}

// findKey is IdempotencyKeyOf without the prefilter.
func findKey(n *Node) (IdempotencyKey, bool) {
	var found IdempotencyKey
	ok := false
	params := n.Params()
	params.Walk(func(rel string, v Value) {
		if ok {
			return
		}
		if strings.HasSuffix(rel, ".name") || rel == "name" {
			if k, isKey := LookupKeyName(v.Str()); isKey && !bodyKeyInHeader(k, rel) {
				val := params.Get(strings.TrimSuffix(rel, "name") + "value")
				found, ok = IdempotencyKey{Name: k, Value: val.Str(), Pos: v.Pos()}, true
			}
		}
	})
	if ok {
		return found, providerHost(n, found)
	}
	var vals [len(jsonFieldParams)]Value
	params.getMany(jsonFieldParams[:], vals[:]) // one pass, not a Param per name
	for i, v := range vals[:] {
		if !v.Exists() || v.Kind() != String {
			continue
		}
		if k, val, hit := keyInJSONText(v.Str()); hit && !bodyKeyInHeader(k, jsonFieldParams[i]) {
			key := IdempotencyKey{Name: k, Value: val, Pos: v.Pos()}
			return key, providerHost(n, key)
		}
	}
	return IdempotencyKey{}, false
}

// bodyKeyInHeader reports a name that matches a convention of the request
// body (AWS's ClientToken, a client_token field) sent as a header (the
// parameter at rel lies under headerParameters, headerParametersUi,
// jsonHeaders or headerParametersJson). The server reads that field from
// the body, and a header of the same spelling is something else: Z-API's
// Client-Token header is the account's security token, the same on every
// request (developer.z-api.io/en/security/client-token: "included in the header of
// all your HTTP requests").
func bodyKeyInHeader(k KeyName, rel string) bool {
	return k.Where == "body" && (strings.HasPrefix(rel, "header") || strings.HasPrefix(rel, "jsonHeaders"))
}

// keyProviderHosts are where a provider's body field means an idempotency
// key: elsewhere "request_id" or "ClientToken" is just a field.
var keyProviderHosts = map[string]string{"airwallex": "airwallex.com", "aws": "amazonaws.com"}

// providerHost reports whether a key named by one provider's convention is
// sent to that provider (or the call goes to an unknown URL).
func providerHost(n *Node, k IdempotencyKey) bool {
	host, ok := keyProviderHosts[k.Name.Provider]
	if !ok || k.Name.Where != "body" {
		return true
	}
	url := strings.ToLower(paramStr(n, "url"))
	return url == "" || strings.Contains(url, "{{") && !strings.Contains(url, "://") || strings.Contains(url, host)
}

// keyStems holds, in normKey form, a piece of every name in keyNames;
// keep it in step with them (TestKeyStems). Each is seven bytes or more,
// so that index reads every fourth offset, not every third.
var keyStems = newStems("idempoten", "request-id", "clientt", "client-t", "deduplic")

// mayHoldKey is false when no value findKey reads in params can hold a
// key name: LookupKeyName and keyInJSONText match only names that hold
// one in normKey form. It spares the walk over every parameter of most
// writes. findKey reads a scalar whose path ends in ".name" or is "name"
// (a member whose key is "name" or ends in ".name", which escapeKey
// writes as "\.name") and a string member named for a JSON text
// parameter (jsonFieldParams, read at the top): only those members' JSON
// text is searched (keyReadAt), read off the tree's run of nodes below
// params (tree.descendants) without building a path. Parameters that are
// no plain object are searched whole.
func mayHoldKey(params Value) bool {
	t := params.t
	if t == nil || params.odd || params.Kind() != Object {
		return keyStems.mayHold(params.Raw())
	}
	n := params.node()
	if n.n == 0 {
		return false
	}
	lo, hi := t.descendants(n)
	for j := lo; j < hi; j++ {
		c := &t.nodes[j]
		if c.flags&member == 0 || c.container() || !keyReadAt(t.keyOf(c)) {
			continue
		}
		if keyStems.mayHold(t.text[c.off:c.first]) {
			return true
		}
	}
	return false
}

// keyReadAt reports a member's key under which findKey may read a key
// name: "name" or one ending in ".name", or a JSON text parameter's, at
// any depth.
func keyReadAt(key string) bool {
	return key == "name" || strings.HasSuffix(key, ".name") || slices.Contains(jsonFieldParams[:], key)
}

// stems are lower-case ASCII words (letters and '-') that a prefilter
// looks for in JSON text.
type stems struct {
	words []string
	// class sorts the bytes for mayHold: 0 when there is nothing to do.
	class [256]uint8
	// byFirst are the words a byte of class stemStart may begin: most
	// begin with a common letter, and a text has many.
	byFirst [256][]string
	// quads is a bit per hash of the four bytes every word holds at
	// offsets 0 to stride-1, as quadAt reads them (quadHash), or nil
	// when a word is shorter than four bytes. With stride 1, scan looks
	// at byFirst only where the four bytes of raw hash to a set bit: the
	// first letter alone sent a quarter of the bytes of English text
	// there. With a longer stride (every word at least stride+3 bytes
	// long), index reads raw four bytes at every stride-th offset, as
	// each word holds one of them, and scans the bytes around only on a
	// set bit or an escape or a byte outside ASCII among the four: a third
	// of the reads for the key stems.
	quads  *[quadBits / 64]uint64
	stride int
}

const quadBits = 1 << 12

// quadAt reads raw[i:i+4] with 0x20 set in every byte: an ASCII letter in
// lower case, '-' as it is, '_' as 0x7f.
func quadAt(raw string, i int) uint32 { return rawQuad(raw, i) | 0x20202020 }

// rawQuad reads raw[i:i+4] as it is, little-endian (the compiler makes
// the four bytes one load).
func rawQuad(raw string, i int) uint32 {
	w := raw[i : i+4]
	return uint32(w[0]) | uint32(w[1])<<8 | uint32(w[2])<<16 | uint32(w[3])<<24
}

func quadHash(q uint32) uint32 { return q * 0x9e3779b1 >> (32 - 12) }

const (
	stemStart  = 1 + iota // the first byte of a word, in either case ('_' for '-')
	stemEscape            // a backslash: an escape may spell a letter
	stemWide              // a byte outside ASCII
)

func newStems(words ...string) *stems {
	s := &stems{words: words}
	for c := range 256 {
		switch {
		case c == '\\':
			s.class[c] = stemEscape
		case c >= utf8.RuneSelf:
			s.class[c] = stemWide
		}
	}
	shortest := len(words[0])
	for _, w := range words {
		shortest = min(shortest, len(w))
		for c := range 256 {
			if foldByte(byte(c)) == w[0] {
				s.class[c] = stemStart
				s.byFirst[c] = append(s.byFirst[c], w)
			}
		}
	}
	if shortest < 4 {
		return s
	}
	// Four bytes read every stride bytes, with no gap between them.
	s.stride = min(shortest-3, 4)
	s.quads = new([quadBits / 64]uint64)
	for _, w := range words {
		for off := range s.stride {
			// Every spelling foldByte reads as w: '-' is also '_'.
			q := quadAt(w, off)
			for variant := range 16 {
				v := q
				for j := range 4 {
					if variant&(1<<j) != 0 {
						if w[off+j] != '-' {
							v = 0 // not a spelling of w: no bit
							break
						}
						v = v&^(0xff<<(8*j)) | ('_'|0x20)<<(8*j)
					}
				}
				if v != 0 {
					h := quadHash(v)
					s.quads[h/64] |= 1 << (h % 64)
				}
			}
		}
	}
	return s
}

// mayHold is false when no string that the JSON text raw holds (or raw
// itself) can contain one of the stems once lower-cased with '_' read as
// '-', as normKey compares and (?i) matches. An escape other than \u
// decodes to no letter, '-' or '_', so a run of them in a decoded string
// stands in raw as it is. Of the characters outside ASCII, only three turn into ASCII
// letters: the Kelvin sign and the long s fold to k and s
// (strings.EqualFold, (?i)), and strings.ToLower makes the dotted capital
// I an i. raw is read once, without a copy.
func (s *stems) mayHold(raw string) bool {
	at, _ := s.index(raw)
	return at >= 0
}

// index is where mayHold finds its reason in raw: the first stem, with
// exact true, or the first escape or character outside ASCII that may
// spell one, with exact false; -1 when there is none.
func (s *stems) index(raw string) (at int, exact bool) {
	from := 0 // no byte before it starts a stem or is an escape or outside ASCII
	// quads and stride are read into locals and the two tests of a quad
	// are one, so that the loop, which runs over every fourth byte of a
	// write's parameters, is short.
	if quads, stride := s.quads, s.stride; quads != nil && stride > 1 {
		end, p := 0, 0 // end: where the last bytes tried one by one end
		for ; p+4 <= len(raw); p += stride {
			q := rawQuad(raw, p)
			// ASCII (no high bit) and no '\\' (no zero byte in bs)
			if bs := q ^ 0x5c5c5c5c; ((bs-0x01010101)&^bs|q)&0x80808080 == 0 {
				if h := quadHash(q | 0x20202020); quads[h/64]&(1<<(h%64)) == 0 {
					continue // no stem starts in the stride that ends at p: it would hold these bytes
				}
			}
			if at, exact := s.scan(raw, max(end, p-stride+1), p+4); at >= 0 {
				return at, exact
			}
			end = p + 4
		}
		from = max(end, p-stride+1)
	}
	return s.scan(raw, from, len(raw))
}

// scan is index tried at every byte of raw[from:to].
func (s *stems) scan(raw string, from, to int) (at int, exact bool) {
	for i := from; i < to; i++ {
		switch c := raw[i]; s.class[c] {
		case 0:
		case stemStart:
			if s.quads != nil && i+4 <= len(raw) {
				if h := quadHash(quadAt(raw, i)); s.quads[h/64]&(1<<(h%64)) == 0 {
					continue // the first four bytes of no stem
				}
			}
			for _, w := range s.byFirst[c] {
				if hasFoldPrefix(raw[i:], w) {
					return i, true
				}
			}
		case stemEscape:
			if i+1 < len(raw) && raw[i+1] == 'u' {
				return i, false
			}
		case stemWide:
			if foldsToASCII(raw[i:]) {
				return i, false
			}
		}
	}
	return -1, true
}

// foldByte lower-cases an ASCII letter and reads '_' as '-'.
func foldByte(c byte) byte {
	switch {
	case 'A' <= c && c <= 'Z':
		return c + 'a' - 'A'
	case c == '_':
		return '-'
	}
	return c
}

// hasFoldPrefix reports whether s starts with w under foldByte.
func hasFoldPrefix(s, w string) bool {
	if len(s) < len(w) {
		return false
	}
	for j := 0; j < len(w); j++ {
		if foldByte(s[j]) != w[j] {
			return false
		}
	}
	return true
}

// foldsToASCII reports whether s starts with one of the three characters
// outside ASCII that fold or lower-case to an ASCII letter.
func foldsToASCII(s string) bool {
	return strings.HasPrefix(s, "\u212a") || strings.HasPrefix(s, "\u017f") || strings.HasPrefix(s, "\u0130")
}

var jsonMember = lazyregexp.New(`"([A-Za-z][A-Za-z0-9_-]*)"\s*:\s*("(?:[^"\\]|\\.)*"|\{\{[^}]*\}\}|[^,}\n]+)`)

func keyInJSONText(s string) (KeyName, string, bool) {
	if !mayNameKey(s) {
		return KeyName{}, "", false
	}
	for _, m := range jsonMember.FindAllStringSubmatch(s, -1) {
		if k, ok := LookupKeyName(m[1]); ok {
			return k, strings.Trim(strings.TrimSpace(m[2]), `"`), true
		}
	}
	return KeyName{}, "", false
}

// normKeyNames are the keyNames as normKey writes them.
var normKeyNames = func() []string {
	var out []string
	for _, k := range keyNames {
		out = append(out, normKey(k.Name))
	}
	return out
}()

// mayNameKey is false when no member name of s can be a key name: a
// member name jsonMember captures is ASCII, and LookupKeyName matches it
// only when its normKey form is one of normKeyNames, so that form is then
// a substring of normKey(s). It spares the regex on most JSON bodies.
func mayNameKey(s string) bool {
	norm := strings.ReplaceAll(strings.ToLower(s), "_", "-")
	for _, k := range normKeyNames {
		if strings.Contains(norm, k) {
			return true
		}
	}
	return false
}

// KeyStability says whether a key survives a retry.
type KeyStability int

const (
	// KeyStable derives from the item ({{ $json.order_id }}).
	KeyStable KeyStability = iota
	// KeyPerAttempt changes on every evaluation: time, random, fresh UUIDs.
	KeyPerAttempt
	// KeyPerExecution is the same within one execution but new after a
	// restart ($execution.id): unstable where the workflow restarts itself.
	KeyPerExecution
	// KeyConstant is one literal for every item: the server treats every
	// item after the first as a replay of it.
	KeyConstant
	// KeyEmpty carries no value.
	KeyEmpty
)

// unstableKeyTokens change per evaluation. n8n expressions expose Luxon's
// DateTime and $now/$today (packages/workflow/src/workflow-data-proxy.ts);
// JavaScript's Date and Math.random are available in expressions too.
var unstableKeyTokens = []struct{ Token, Why string }{
	{"$now", "$now"},
	{"$today", "$today"},
	{"DateTime.now", "DateTime.now()"},
	{"DateTime.local", "DateTime.local()"},
	{"DateTime.utc", "DateTime.utc()"},
	{"Date.now", "Date.now()"},
	{"new Date", "new Date()"},
	{"Math.random", "Math.random()"},
	{"randomUUID", "randomUUID()"},
	{"$randomUUID", "$randomUUID"},
	{"uuid()", "uuid()"},
	{"uuidv4", "uuidv4()"},
	{"$uuid", "$uuid"},
	{"$runIndex", "$runIndex"},
	{"nanoid", "nanoid()"},
	{"getTime()", "getTime()"},
}

// ClassifyKey says how stable a key value is and why (the token that makes
// it unstable).
func ClassifyKey(value string) (KeyStability, string) {
	v := strings.TrimSpace(value)
	if v == "" || v == "=" {
		return KeyEmpty, ""
	}
	for _, t := range unstableKeyTokens {
		if strings.Contains(v, t.Token) {
			return KeyPerAttempt, t.Why
		}
	}
	if strings.Contains(v, "$execution.id") || strings.Contains(v, "$executionId") {
		return KeyPerExecution, "$execution.id"
	}
	if !strings.HasPrefix(v, "=") && !strings.Contains(v, "{{") {
		if placeholder(v) {
			// A template's blank ("YOUR_API_KEY", "<idempotency-key>"):
			// nothing is sent that the server could match, so no key.
			return KeyEmpty, ""
		}
		return KeyConstant, ""
	}
	return KeyStable, ""
}

// placeholderREs match a literal left for the user to fill in beyond a
// fill-in's words and shapes (fillIn): one that names an API key, a
// secret or a token, or snake_case in any case. Two patterns, not one
// alternation of two ^…$ branches: Go's regexp sees each as anchored and
// tries the text's start only, where it tried the alternation at every
// byte (5.7 % of a corpus audit's instructions, docs/performance.md).
var placeholderREs = [...]*lazyregexp.Regexp{
	lazyregexp.New(`(?i)^.*(api[\s_-]?key|secret|token).*$`),
	lazyregexp.New(`(?i)^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$`),
}

// placeholder reports a literal left for the user to fill in: one by its
// words (placeholderWords) or snake_case (placeholderREs[1]).
func placeholder(s string) bool {
	return placeholderWords(s) || placeholderREs[1].MatchString(s)
}

// placeholderWords reports a fill-in (fillIn: "YOUR_…", "<…>",
// "{{INSTANCE_ID}}", "xxx"), "todo" or "tbd", or a literal that names an
// API key, a secret or a token (placeholderREs[0]).
func placeholderWords(s string) bool {
	return fillIn(s) || strings.EqualFold(s, "todo") || strings.EqualFold(s, "tbd") || placeholderREs[0].MatchString(s)
}

// Placeholder reports a literal a template left for the user to fill in
// ("YOUR_CREDENTIAL_ID", "REPLACE_WITH_INSTANCE_ID", "{{INSTANCE_ID}}",
// "xxx"): it names nothing, neither a key nor an account nor an instance.
func Placeholder(s string) bool {
	s = strings.TrimSpace(s)
	return s != "" && mayBePlaceholder(s) && placeholder(s)
}

// mayBePlaceholder is false for a string placeholderREs cannot match: the
// regexp backtracks through its alternatives at ~1,000 instructions a byte,
// and most strings asked (credential ids) are plain ASCII words. For ASCII,
// (?i) folds ASCII letters only, so each alternative needs one of these:
// a leading bracket, dot or x, an underscore, a byte past ASCII, or one of
// the words the other alternatives hold ("your", "replace", "placeholder",
// "changeme", "todo", "tbd", "api", "secret", "token") in any case. One
// pass over s, each byte asked for the words it can start.
func mayBePlaceholder(s string) bool {
	switch s[0] {
	case '<', '[', '{', '.', 'x', 'X':
		return true
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c >= utf8.RuneSelf {
			return true
		}
		var hit bool
		switch c | 0x20 { // a letter in lower case; no other byte gives one
		case 'y':
			hit = foldAt(s, i, "your")
		case 'r':
			hit = foldAt(s, i, "replace")
		case 'p':
			hit = foldAt(s, i, "placeholder")
		case 'c':
			hit = foldAt(s, i, "changeme")
		case 't':
			hit = foldAt(s, i, "todo") || foldAt(s, i, "tbd") || foldAt(s, i, "token")
		case 'a':
			hit = foldAt(s, i, "api")
		case 's':
			hit = foldAt(s, i, "secret")
		}
		if hit {
			return true
		}
	}
	return false
}

// foldAt reports whether s holds word (lower-case ASCII letters) at i, in
// any case of its ASCII letters.
func foldAt(s string, i int, word string) bool {
	if len(s)-i < len(word) {
		return false
	}
	for j := 0; j < len(word); j++ {
		if s[i+j]|0x20 != word[j] {
			return false
		}
	}
	return true
}

// ---------------------------------------------------------------------------
// Prices

// Price is a model's list price in USD per million tokens and its output
// ceiling (what one call can generate when nothing caps it).
type Price struct {
	Model      string // name prefix, lower case
	Provider   string
	InputPerM  float64
	OutputPerM float64
	MaxOutput  int // tokens
}

// PricesAsOf is when the table's oldest rows were read from the providers'
// pricing pages; rows added or re-read since were read later, up to
// PricesNewest, each with its read date in docs/n8n-facts.md ("Prices").
// No one date holds for every row. Override a row in .stormcheck.yaml
// (spend.prices) when a provider changes its prices.
const PricesAsOf = "2025-08"

// PricesNewest is the day the newest rows were read (the Claude 4.5 and
// 4.6 rows, Anthropic's model pages, issue 28 part EG).
const PricesNewest = "2026-12-03"

// prices are public list prices (standard tier, USD per 1M tokens) from the
// providers' pricing pages, and each model's maximum output tokens.
var prices = []Price{
	// OpenAI (platform.openai.com/docs/pricing)
	{"gpt-5", "openai", 1.25, 10, 128000},
	{"gpt-5-mini", "openai", 0.25, 2, 128000},
	{"gpt-5-nano", "openai", 0.05, 0.40, 128000},
	// Later GPT-5 models have rows of their own: "gpt-5" prefixes them, and
	// its $10 output is none of theirs (docs/n8n-facts.md, "Prices").
	{"gpt-5.4-mini", "openai", 0.75, 4.50, 128000},
	{"gpt-5.4-nano", "openai", 0.20, 1.25, 128000},
	{"gpt-5.6-terra", "openai", 2, 12, 128000},
	{"gpt-5.6-luna", "openai", 0.20, 1.20, 128000},
	{"gpt-4.1", "openai", 2, 8, 32768},
	{"gpt-4.1-mini", "openai", 0.40, 1.60, 32768},
	{"gpt-4.1-nano", "openai", 0.10, 0.40, 32768},
	{"gpt-4o", "openai", 2.50, 10, 16384},
	{"chatgpt-4o", "openai", 5, 15, 16384},
	{"gpt-4o-mini", "openai", 0.15, 0.60, 16384},
	{"gpt-4-turbo", "openai", 10, 30, 4096},
	{"gpt-4", "openai", 30, 60, 8192},
	{"gpt-3.5-turbo", "openai", 0.50, 1.50, 4096},
	{"o1", "openai", 15, 60, 100000},
	{"o1-mini", "openai", 1.10, 4.40, 65536},
	{"o3", "openai", 2, 8, 100000},
	{"o3-mini", "openai", 1.10, 4.40, 100000},
	{"o4-mini", "openai", 1.10, 4.40, 100000},
	{"text-davinci", "openai", 20, 20, 4096},
	// Anthropic (anthropic.com/pricing)
	{"claude-opus-4", "anthropic", 15, 75, 32000},
	{"claude-sonnet-4", "anthropic", 3, 15, 64000},
	{"claude-haiku-4", "anthropic", 1, 5, 64000},
	// The 4.5 and 4.6 models, as Anthropic's model pages give them
	// (docs/n8n-facts.md, "Prices"): Opus 4.5 is a third of Opus 4's price,
	// Sonnet 4.6 writes up to 128K. Anthropic's ids use a dash, OpenRouter's
	// a dot ("anthropic/claude-sonnet-4.5").
	{"claude-opus-4-5", "anthropic", 5, 25, 64000},
	{"claude-opus-4.5", "anthropic", 5, 25, 64000},
	{"claude-sonnet-4-5", "anthropic", 3, 15, 64000},
	{"claude-sonnet-4.5", "anthropic", 3, 15, 64000},
	{"claude-sonnet-4-6", "anthropic", 3, 15, 128000},
	{"claude-sonnet-4.6", "anthropic", 3, 15, 128000},
	{"claude-haiku-4-5", "anthropic", 1, 5, 64000},
	{"claude-haiku-4.5", "anthropic", 1, 5, 64000},
	{"claude-3-7-sonnet", "anthropic", 3, 15, 64000},
	{"claude-3-5-sonnet", "anthropic", 3, 15, 8192},
	{"claude-3-5-haiku", "anthropic", 0.80, 4, 8192},
	{"claude-3-opus", "anthropic", 15, 75, 4096},
	{"claude-3-sonnet", "anthropic", 3, 15, 4096},
	{"claude-3-haiku", "anthropic", 0.25, 1.25, 4096},
	{"claude-2", "anthropic", 8, 24, 4096},
	// Google (ai.google.dev/pricing)
	{"gemini-2.5-pro", "google", 1.25, 10, 65536},
	// Gemini 3.8 Flash, which the Gemini API serves for gemini-2.5-pro from
	// 2026-12-01 (BilledModel): $0.75 in, $3.75 out per 1M through
	// 2026-12-31 ($1.50/$7.50 from 2027-01-01), 65,536 output tokens
	// (docs/n8n-facts.md, "Models the providers shut down").
	{"gemini-3.8-flash", "google", 0.75, 3.75, 65536},
	{"gemini-2.5-flash", "google", 0.30, 2.50, 65536},
	{"gemini-2.5-flash-lite", "google", 0.10, 0.40, 65536},
	// Gemini 2.5 Flash Image answers with images, billed as output tokens at
	// $30 per 1M (1,290 tokens an image up to 1024x1024, $0.039), and ends
	// at 32,768 output tokens (ai.google.dev/gemini-api/docs/pricing; the
	// Vertex AI model card): not gemini-2.5-flash's text rate and ceiling.
	{"gemini-2.5-flash-image", "google", 0.30, 30, 32768},
	// Gemini 3.1 Flash-Lite, GA 2026-05-07 (model card: 65,536 output
	// tokens; $0.25/$1.50 per 1M, docs/n8n-facts.md, "Prices").
	{"gemini-3.1-flash-lite", "google", 0.25, 1.50, 65536},
	{"gemini-2.0-flash", "google", 0.10, 0.40, 8192},
	{"gemini-2.0-flash-lite", "google", 0.075, 0.30, 8192},
	{"gemini-1.5-pro", "google", 1.25, 5, 8192},
	{"gemini-1.5-flash", "google", 0.075, 0.30, 8192},
	// Mistral (mistral.ai/pricing)
	{"mistral-large", "mistral", 2, 6, 32768},
	{"mistral-medium", "mistral", 0.40, 2, 32768},
	{"mistral-small", "mistral", 0.20, 0.60, 32768},
	{"open-mistral-nemo", "mistral", 0.15, 0.15, 32768},
	{"codestral", "mistral", 0.30, 0.90, 32768},
	// DeepSeek (api-docs.deepseek.com/quick_start/pricing)
	{"deepseek-chat", "deepseek", 0.27, 1.10, 8192},
	{"deepseek-reasoner", "deepseek", 0.55, 2.19, 65536},
	// xAI (docs.x.ai/docs/models)
	{"grok-4", "xai", 3, 15, 128000},
	// Grok 4.3: $1.25 in, $2.50 out per 1M (xAI's model page,
	// docs.x.ai/docs/models, and its May 15 retirement page, which bills
	// the retired ids at this rate: routedModels); xAI's page gives no
	// output ceiling, 32K is Venice's listing of the model (docs.venice.ai/
	// models/grok-4-3, "Sortie maximale 32K tokens"). Longer than "grok-4".
	{"grok-4.3", "xai", 1.25, 2.50, 32768},
	// Grok 4 Fast and 4.1 Fast (reasoning and non-reasoning alike): $0.20
	// in, $0.50 out per 1M, 2M context, 30,000 output tokens, as the
	// providers list them (xAI's own page is not in the library:
	// docs/n8n-facts.md, "Prices"). Longer than "grok-4", so they win; xAI's
	// API writes 4.1 "grok-4-1-fast", OpenRouter "x-ai/grok-4.1-fast".
	{"grok-4-fast", "xai", 0.20, 0.50, 30000},
	{"grok-4.1-fast", "xai", 0.20, 0.50, 30000},
	{"grok-4-1-fast", "xai", 0.20, 0.50, 30000},
	{"grok-3", "xai", 3, 15, 128000},
	{"grok-2", "xai", 2, 10, 32768},
	// Groq-hosted open models (groq.com/pricing)
	{"llama-3.3-70b", "groq", 0.59, 0.79, 32768},
	{"llama-3.1-8b", "groq", 0.05, 0.08, 8192},
}

// LookupPrice returns the price of a model by the longest table name that
// prefixes it, after lower-casing and dropping a "models/" or "provider/"
// prefix ("models/gemini-1.5-flash", "openai/gpt-4o-mini").
func LookupPrice(model string) (Price, bool) {
	m := NormalizeModel(model)
	best, ok := Price{}, false
	for _, p := range prices {
		if strings.HasPrefix(m, p.Model) && len(p.Model) > len(best.Model) {
			if len(m) > len(p.Model) && !modelSep(m[len(p.Model)]) {
				continue
			}
			best, ok = p, true
		}
	}
	return best, ok
}

// modelSep is a character that may follow a model family name: a version
// or date suffix, never another letter ("o1" must not match "o1x").
func modelSep(c byte) bool { return c == '-' || c == '.' || c == ':' || c == '@' || c == '_' }

// NormalizeModel lower-cases a model name and drops a path prefix.
func NormalizeModel(model string) string {
	m := strings.ToLower(strings.TrimSpace(strings.TrimPrefix(model, "=")))
	if i := strings.LastIndexByte(m, '/'); i >= 0 {
		m = m[i+1:]
	}
	return m
}

// modelParams are the parameters that name the model, per node type
// (@n8n/nodes-langchain/nodes/llms/*: lmChatOpenAi 'model' as a resource
// locator from v1.2; LmChatGoogleGemini 'modelName'; vendors/OpenAi 'modelId').
var modelParams = map[string][]string{
	"@n8n/n8n-nodes-langchain.lmChatOpenAi":       {"model.value", "model"},
	"@n8n/n8n-nodes-langchain.lmOpenAi":           {"model.value", "model"},
	"@n8n/n8n-nodes-langchain.lmChatAzureOpenAi":  {"model"},
	"@n8n/n8n-nodes-langchain.lmChatAnthropic":    {"model.value", "model"},
	"@n8n/n8n-nodes-langchain.lmChatGoogleGemini": {"modelName"},
	"@n8n/n8n-nodes-langchain.lmChatGoogleVertex": {"modelName"},
	"@n8n/n8n-nodes-langchain.lmChatMistralCloud": {"model"},
	"@n8n/n8n-nodes-langchain.lmChatGroq":         {"model"},
	"@n8n/n8n-nodes-langchain.lmChatDeepSeek":     {"model"},
	"@n8n/n8n-nodes-langchain.lmChatOpenRouter":   {"model"},
	"@n8n/n8n-nodes-langchain.lmChatXAiGrok":      {"model"},
	"@n8n/n8n-nodes-langchain.lmChatAwsBedrock":   {"model"},
	"@n8n/n8n-nodes-langchain.lmChatOllama":       {"model"},
	"@n8n/n8n-nodes-langchain.openAi":             {"modelId.value", "modelId", "model"},
	// The app nodes of the other vendors keep the model in the same
	// 'modelId' resource locator, read with extractValue
	// (vendors/GoogleGemini/actions/descriptions.js modelRLC,
	// text/message.operation.js; vendors/Anthropic, Ollama, Moonshot,
	// MiniMax, AlibabaCloud likewise): "models/gemini-2.5-flash".
	"@n8n/n8n-nodes-langchain.googleGemini": {"modelId.value", "modelId"},
	"@n8n/n8n-nodes-langchain.anthropic":    {"modelId.value", "modelId"},
	"@n8n/n8n-nodes-langchain.ollama":       {"modelId.value", "modelId"},
	"@n8n/n8n-nodes-langchain.moonshot":     {"modelId.value", "modelId"},
	"@n8n/n8n-nodes-langchain.minimax":      {"modelId.value", "modelId"},
	"@n8n/n8n-nodes-langchain.alibabaCloud": {"modelId.value", "modelId"},
	"n8n-nodes-base.openAi":                 {"chatModel", "model"},
	"n8n-nodes-base.perplexity":             {"model"},
	// EmbeddingsHuggingFaceInference.node.js L52, L86.
	"@n8n/n8n-nodes-langchain.embeddingsHuggingFaceInference": {"modelName"},
}

// legacyDefaultModels are defaults of nodes whose model parameter depends
// on the resource and operation, which the generated table does not
// follow: the legacy OpenAI node's chat completion ('gpt-3.5-turbo',
// n8n-nodes-base nodes.json openAi chatModel).
var legacyDefaultModels = map[string]string{
	"n8n-nodes-base.openAi": "gpt-3.5-turbo",
}

// fixedModel is the model a node's code sends whatever it stores: the
// OpenAI node's audio transcribe and translate operations post model
// whisper-1, which no parameter sets (@n8n/n8n-nodes-langchain
// dist/nodes/vendors/OpenAi/v1 and v2 actions/audio/transcribe.operation.js
// and translate.operation.js: const model = 'whisper-1').
func fixedModel(n *Node) (string, bool) {
	if strings.TrimSuffix(n.Type, "Tool") != "@n8n/n8n-nodes-langchain.openAi" || paramStr(n, "resource") != "audio" {
		return "", false
	}
	switch paramStr(n, "operation") {
	case "transcribe", "translate":
		return "whisper-1", true
	}
	return "", false
}

// ModelOf returns the model a paid node calls ("" when unknown or an
// expression), and whether it is n8n's default rather than set by the user.
func ModelOf(n *Node) (model string, isDefault bool) {
	if m, ok := fixedModel(n); ok {
		return m, false
	}
	for _, p := range modelParams[strings.TrimSuffix(n.Type, "Tool")] {
		v, ok := n.Param(p)
		if !ok || v.Kind() != String {
			continue
		}
		s := v.Str()
		if strings.Contains(s, "{{") {
			return "", false
		}
		if s = strings.TrimPrefix(s, "="); s != "" {
			return s, false
		}
	}
	if n.Type == openAiLegacy {
		// None stored: the default of its resource and operation.
		return legacyModel(n)
	}
	if m, ok := legacyDefaultModels[n.Type]; ok {
		return m, true
	}
	// The default of the node's version, from n8n's own description
	// (gpt-5-mini, models/gemini-2.5-flash, claude-sonnet-4-5-...).
	if _, ok := modelParams[n.Type]; ok {
		if d, ok := n.Describe(); ok && d.DefaultModel() != "" {
			return d.DefaultModel(), true
		}
	}
	return "", false
}

// EmbeddingModelOf is the model an embeddings sub-node
// (@n8n/n8n-nodes-langchain.embeddings*) sends: its literal "model" or
// "modelName" (a resource locator's value too), else the default of its
// version when it stores none (text-embedding-3-small for Embeddings
// OpenAI from v1.1: EmbeddingsOpenAi.node.js L63-65, L106-124). An
// expression, or a node of another kind, gives "". Embeddings bill input
// tokens only, so no output cap or ceiling is read from it.
func EmbeddingModelOf(n *Node) string {
	if !strings.HasPrefix(n.Type, "@n8n/n8n-nodes-langchain.embeddings") {
		return ""
	}
	for _, p := range []string{"model", "modelName"} {
		v, ok := n.Param(p)
		if !ok {
			continue
		}
		if v.Kind() == Object {
			v = v.Get("value")
		}
		s := v.Str()
		if v.Kind() != String || strings.Contains(s, "{{") {
			return ""
		}
		return strings.TrimPrefix(s, "=")
	}
	if d, ok := n.Describe(); ok {
		return d.DefaultModel()
	}
	return ""
}

// anthropicMaxTokens is @langchain/anthropic 1.1.3's
// MODEL_DEFAULT_MAX_OUTPUT_TOKENS, matched in order by prefix of the model
// name, with FALLBACK_MAX_OUTPUT_TOKENS 2048 for any other model
// (@langchain/anthropic/dist/chat_models.js L21–34). The "sonnet-3-7" key
// is spelled that way there, so claude-3-7-sonnet gets 2048.
var anthropicMaxTokens = []struct {
	prefix string
	tokens int
}{
	{"claude-opus-4-1", 8192}, {"claude-opus-4", 8192}, {"claude-sonnet-4", 8192},
	{"claude-sonnet-3-7-sonnet", 8192}, {"claude-3-5-sonnet", 4096}, {"claude-3-5-haiku", 4096},
	{"claude-3-haiku", 2048},
}

const anthropicFallbackMaxTokens = 2048

// DefaultOutputCap is the output cap a model node sends when its
// max-tokens option is absent, 0 for none. lmChatAnthropic passes
// maxTokens undefined and ChatAnthropic takes it from its per-model table
// (LmChatAnthropic.node.js L293); an expression for the model name is
// read as the largest entry.
func DefaultOutputCap(n *Node, spec Spec) int {
	if strings.TrimSuffix(n.Type, "Tool") != "@n8n/n8n-nodes-langchain.lmChatAnthropic" {
		return spec.MaxTokensDefault
	}
	model, _ := ModelOf(n)
	if model == "" {
		if v, ok := n.Param("model"); ok && (v.IsExpr() || v.Get("value").IsExpr()) {
			return 8192
		}
	}
	for _, e := range anthropicMaxTokens {
		if strings.HasPrefix(model, e.prefix) {
			return e.tokens
		}
	}
	return anthropicFallbackMaxTokens
}

// ---------------------------------------------------------------------------
// Heartbeats and dead-man's switches

// Switch is a dead-man's-switch service: it alerts when pings stop, so a
// stalled workflow turns it red (fail-closed).
type Switch struct {
	Service string
	Match   string // a host, or host+path, matched inside the URL
	Conf    Confidence
}

// switches are dead-man's-switch endpoints by their documented ping URLs.
var switches = []Switch{
	{"Healthchecks.io", "hc-ping.com", ConfHigh},
	{"Healthchecks.io", "healthchecks.io/ping", ConfHigh},
	{"Cronitor", "cronitor.link", ConfHigh},
	{"Cronitor", "cronitor.io/p/", ConfHigh},
	{"Better Stack", "uptime.betterstack.com/api/v1/heartbeat", ConfHigh},
	{"Better Stack", "betteruptime.com/api/v1/heartbeat", ConfHigh},
	{"Uptime Kuma", "/api/push/", ConfMedium},
	{"Dead Man's Snitch", "nosnch.in", ConfHigh},
	{"Opsgenie", "opsgenie.com/v2/heartbeats", ConfHigh},
	{"PagerDuty", "pagerduty.com/api/v1/heartbeat", ConfMedium},
	{"UptimeRobot", "heartbeat.uptimerobot.com", ConfHigh},
	{"Cronhub", "cronhub.io/ping", ConfHigh},
	{"StatusCake", "push.statuscake.com", ConfHigh},
	{"Sentry Crons", "/cron/", ConfLow},
}

// switchWords are words one of which every switch's Match holds
// (TestSwitchWords): a URL without any, in any case, pings none.
var switchWords = [...]string{"ping", "cron", "heartbeat", "push", "nosnch"}

// asciiOnly reports whether s holds no byte beyond ASCII.
func asciiOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// SwitchOf reports whether a URL pings a dead-man's switch.
func SwitchOf(url string) (Switch, bool) {
	if asciiOnly(url) && !slices.ContainsFunc(switchWords[:], func(w string) bool { return ascii.ContainsFold(url, w) }) {
		// RS401 and RS402 ask this of many URLs, most of which name no
		// switch. (A text beyond ASCII may hold the Kelvin sign or the
		// dotted capital I, which ToLower makes a k and an i.)
		return Switch{}, false
	}
	u := strings.ToLower(url)
	for _, s := range switches {
		if strings.Contains(u, s.Match) {
			return s, true
		}
	}
	return Switch{}, false
}

// heartbeatWords mark a progress or liveness signal in a node's name, URL
// or message: "heartbeat", "progress", "batch 3 of 10", "still running".
var heartbeatWords = lazyregexp.New(`(?i)\b(?:heart-?beats?|keep-?alive|progress|still (?:running|alive|working)|i'?m alive|status (?:update|report|ping))\b|\bbatch\s*(?:\{\{[^}]*\}\}|\d+|n)\s*(?:of|/)`)

// HeartbeatWord returns the heartbeat wording in s ("" when none).
// "In progress" is a status value (a Jira or Notion column), not a signal.
func HeartbeatWord(s string) string {
	at, exact := heartbeatStems.index(s)
	if at < 0 {
		return ""
	}
	// Every match holds a stem at most 4 bytes after its start ("i'm
	// alive"), so none starts before the first stem less 4: the search
	// starts there, backed up to a byte that is no word byte (its \b
	// reads the byte before), and stops at the first match. A first match
	// that is "in progress" reads the whole text as before.
	from := 0
	if exact {
		from = max(0, at-4)
		for from > 0 && ascii.IsWord(s[from-1]) {
			from--
		}
	}
	if m := heartbeatWords.FindStringIndex(s[from:]); m == nil {
		return ""
	} else if w, ok := heartbeatMatch(s, m[0]+from, m[1]+from); ok {
		return w
	}
	for _, m := range heartbeatWords.FindAllStringIndex(s, -1) {
		if w, ok := heartbeatMatch(s, m[0], m[1]); ok {
			return w
		}
	}
	return ""
}

// heartbeatMatch is the wording of the heartbeatWords match s[from:to],
// false for "in progress".
func heartbeatMatch(s string, from, to int) (string, bool) {
	w := strings.ToLower(s[from:to])
	if before := strings.ToLower(s[:from]); w == "progress" && (strings.HasSuffix(before, "in ") ||
		strings.HasSuffix(before, "in-") || strings.HasSuffix(before, "in_")) {
		return "", false
	}
	if strings.HasPrefix(w, "batch") {
		return "batch N of M", true
	}
	return strings.Join(strings.Fields(w), " "), true
}

// heartbeatStems holds, in lower case, a word every heartbeatWords match
// contains; keep it in step with the regex. Messages are long, and most
// hold none of them.
var heartbeatStems = newStems("heart", "keep", "progress", "still", "alive", "status", "batch")

func mayHeartbeat(s string) bool { return heartbeatStems.mayHold(s) }

// signalSinks are nodes that post where people or dashboards watch: chat,
// e-mail, status pages. A progress post there stays green when the work
// stalls, because nobody alerts on a message that does not come.
var signalSinks = map[string]bool{
	"n8n-nodes-base.slack": true, "n8n-nodes-base.telegram": true, "n8n-nodes-base.discord": true,
	"n8n-nodes-base.mattermost": true, "n8n-nodes-base.microsoftTeams": true, "n8n-nodes-base.googleChat": true,
	"n8n-nodes-base.matrix": true, "n8n-nodes-base.rocketchat": true, "n8n-nodes-base.zulip": true,
	"n8n-nodes-base.gmail": true, "n8n-nodes-base.emailSend": true, "n8n-nodes-base.whatsApp": true,
	"n8n-nodes-base.pushover": true, "n8n-nodes-base.twilio": true, "n8n-nodes-base.httpRequest": true,
	"n8n-nodes-base.googleSheets": true, "n8n-nodes-base.airtable": true, "n8n-nodes-base.notion": true,
}

// messageParams hold what a signal says (Slack 'text', Telegram 'text',
// Discord 'content', e-mail 'subject'/'message'/'text', HTTP bodies).
var messageParams = [...]string{"text", "content", "message", "subject", "jsonBody", "body", "bodyParametersJson"}

// Heartbeat is a node classified as a liveness or progress signal.
type Heartbeat struct {
	Word   string // the wording that marks it ("progress", "batch … of")
	Where  string // "name", "url" or "message"
	Switch *Switch
	Conf   Confidence
}

// HeartbeatOf classifies a node as a heartbeat: a ping to a dead-man's
// switch (Switch set: fail-closed), or a progress/liveness message to a
// chat, e-mail, dashboard or URL (fail-open unless it also runs on
// failure). Nodes of other types are never heartbeats.
func HeartbeatOf(n *Node) (Heartbeat, bool) {
	typ := strings.TrimSuffix(n.Type, "Tool")
	if !signalSinks[typ] {
		return Heartbeat{}, false
	}
	// Several rules ask this of every node (RS401, RS402, RS201): the
	// answer is kept on the node.
	return n.heartbeat.get(n, heartbeatOf)
}

// PingsSwitch reports a node that HeartbeatOf finds pinging a dead-man's
// switch (Switch set), read from its URL alone: RS401 and RS402 ask only
// that of most nodes, and need no wording.
func PingsSwitch(n *Node) bool {
	if !signalSinks[strings.TrimSuffix(n.Type, "Tool")] {
		return false
	}
	_, ok := SwitchOf(paramStr(n, "url"))
	return ok
}

// HeartbeatNamed is HeartbeatOf without the wording of the node's
// messages: a ping to a dead-man's switch, or a signal whose name or URL
// says it is one. RS401 reads only that of a node outside a loop, where a
// word in a message is content, not a signal.
func HeartbeatNamed(n *Node) (Heartbeat, bool) {
	if !signalSinks[strings.TrimSuffix(n.Type, "Tool")] {
		return Heartbeat{}, false
	}
	if a := n.heartbeat.p.Load(); a != nil {
		if a.v.Where == "message" {
			return Heartbeat{}, false // the name and the URL say nothing
		}
		return a.v, a.ok // HeartbeatOf's answer, kept
	}
	return heartbeatRead(n, false)
}

// heartbeatOf is HeartbeatOf for a node of a signalSinks type.
func heartbeatOf(n *Node) (Heartbeat, bool) { return heartbeatRead(n, true) }

// heartbeatRead is heartbeatOf; the messages' wording is read only when
// messages is set.
func heartbeatRead(n *Node, messages bool) (Heartbeat, bool) {
	url := paramStr(n, "url")
	if s, ok := SwitchOf(url); ok {
		return Heartbeat{Word: "ping", Where: "url", Switch: &s, Conf: s.Conf}, true
	}
	h := heartbeatWording(n, url, messages)
	// A signal is sent: reading a job's progress (GET .../progress) or a
	// sheet is polling, not a heartbeat. (The wording is looked for first:
	// most nodes have none, and it is cheaper than the operation.)
	if h.Word == "" {
		return Heartbeat{}, false
	}
	if w, _ := WriteOp(n); !w {
		return Heartbeat{}, false
	}
	return h, true
}

// heartbeatWording finds the heartbeat wording of a node in its name, its
// URL, then (with messages) its message parameters; Word is "" when there
// is none.
func heartbeatWording(n *Node, url string, messages bool) Heartbeat {
	if w := HeartbeatWord(n.Name); w != "" {
		return Heartbeat{Word: w, Where: "name", Conf: ConfMedium}
	}
	if w := HeartbeatWord(url); w != "" {
		return Heartbeat{Word: w, Where: "url", Conf: ConfMedium}
	}
	if !messages {
		return Heartbeat{}
	}
	var msgs [len(messageParams)]Value
	n.Params().getMany(messageParams[:], msgs[:]) // one pass, not a Param per name
	for _, v := range msgs[:] {
		if v.escaped() && !mayHeartbeat(v.Raw()) {
			continue // spares unescaping a long message
		}
		if w := HeartbeatWord(strings.TrimPrefix(v.Str(), "=")); w != "" {
			return Heartbeat{Word: w, Where: "message", Conf: ConfMedium}
		}
	}
	return Heartbeat{}
}

// ---------------------------------------------------------------------------
// Rate-limited dependencies

// pacesItself are nodes that read the service's rate-limit headers and
// wait on their own before the next request, so a 429 does not reach n8n's
// node retry: Discord (v1 DiscordV1.node.ts and v2 transport/discord.api.ts
// sleep x-ratelimit-reset-after when x-ratelimit-remaining is 0).
var pacesItself = map[string]bool{"n8n-nodes-base.discord": true}

// RateLimit names a dependency that answers 429 under load, matched by
// node type or by a host suffix.
type RateLimit struct {
	Match   string // node type, or a host suffix
	Service string
	Conf    Confidence
	// Answer is what the service's 429 says of when to come back, after
	// "answers": its Retry-After header, a delay in the error body, a
	// fixed penalty, or nothing (rateLimitAnswers).
	Answer string
	// WindowMS is the span over which the service counts the limit its
	// 429 reports (rateLimitWindows): a try that waits at least as long is
	// past the window that refused the one before. 0: its docs give none.
	WindowMS int
	// Window says how it counts, after "it counts its limit" ("per minute");
	// "" when Answer says it already.
	Window string
	// InFlight is true for a service that limits the requests in flight at
	// once, not a count over a window (inFlightLimits).
	InFlight bool
	// InFlightFloor is, for such a service, the requests in flight at once
	// that its smallest plan allows (inFlightLimits): calls that never
	// have more in flight stay within every plan's limit.
	InFlightFloor int
}

// inFlightLimits are services whose 429 counts the requests a plan has in
// flight at once, with the concurrency their smallest plan allows:
// ElevenLabs ("API - Error Code 429" in its help center:
// too_many_concurrent_requests over the plan's concurrency, 2 on Free, 3
// on Starter, 5 on Creator, 10 on Pro, 15 on Scale and Business, or
// system_busy, after which "if you retry the request, it will succeed").
// A try is refused again only while as many requests are still in flight:
// when the node sends its items together, as HTTP Request v3 does unless
// batching spaces them (HttpRequestV3.node.js L196-199, L533-583: every
// item's request started, then Promise.allSettled), or when runs overlap.
var inFlightLimits = map[string]int{"ElevenLabs": 2}

// rateLimitWindow is the span a service counts its request limit over.
type rateLimitWindow struct {
	ms  int
	per string
}

// rateLimitWindows are the spans each service counts its limit over, from
// its public API docs (docs/n8n-facts.md lists the pages): Notion "Request
// limits" (a budget per connection per 60-second window, Retry-After at
// most 60 s); OpenAI "Rate limits", Gemini "Rate limits", Groq "Rate
// limits" (requests and tokens per minute, requests per day); Google
// Sheets and Google Drive "Usage limits" (quotas per minute); Firecrawl
// "Rate limits" (requests per minute); Airtable (30 s of refusals after a
// 429); X (15-minute windows); Stripe "Rate limits" (requests per second);
// Shopify "REST Admin API rate limits" (a bucket that leaks 2 requests a
// second on the standard plan). A service not listed gives no one window:
// Anthropic refills its buckets continuously, Telegram does not publish
// its limits, others were not checked.
var rateLimitWindows = map[string]rateLimitWindow{
	"Notion":        {60_000, "per connection over a 60-second window"},
	"OpenAI":        {60_000, "per minute (requests and tokens) and per day"},
	"Google Gemini": {60_000, "per minute (requests and tokens) and per day"},
	"Groq":          {60_000, "per minute (requests and tokens) and per day"},
	"Google Sheets": {60_000, ""},
	"Google Drive":  {60_000, "per minute"},
	"Firecrawl":     {60_000, "per minute"},
	"Airtable":      {30_000, ""},
	"X":             {900_000, ""},
	"Stripe":        {1_000, "per second"},
	"Shopify":       {1_000, "per second (a bucket that leaks 2 requests a second)"},
}

// rateLimitAnswers are what each service's 429 says of when to come back,
// from its public API docs (docs/n8n-facts.md lists the pages). A service
// not listed documents no delay that was checked: it gets the plain
// answer. Whatever the answer, n8n's node retry waits its fixed time.
var rateLimitAnswers = map[string]string{
	// A Retry-After header (OpenAI and Anthropic rate-limit guides,
	// Slack "Rate limits", Notion "Request limits", Microsoft Graph
	// "Throttling guidance", Shopify "REST Admin API rate limits",
	// Discord "Rate Limits").
	"OpenAI":          "429 with a Retry-After header",
	"Anthropic":       "429 with a retry-after header",
	"Slack":           "429 with a Retry-After header",
	"Notion":          "429 with a Retry-After header",
	"Microsoft Graph": "429 with a Retry-After header",
	"Shopify":         "429 with a Retry-After header",
	"Discord":         "429 with a Retry-After header",
	// GitHub "Rate limits for the REST API": x-ratelimit-reset for the
	// primary limit, retry-after (when present) for a secondary one.
	"GitHub": "403 or 429 with an x-ratelimit-reset or retry-after header",
	// X "Rate limits": x-rate-limit-reset, the end of a 15-minute window.
	"X": "429 with an x-rate-limit-reset header (its windows are 15 minutes)",
	// The delay in the error body, not a header: Gemini's
	// google.rpc.RetryInfo retryDelay in error.details; Telegram's
	// ResponseParameters retry_after (Bot API).
	"Google Gemini": "429 RESOURCE_EXHAUSTED with the delay in its error body (RetryInfo retryDelay), not in a header",
	"Telegram":      "429 with the delay in its error body (parameters.retry_after)",
	// Airtable "Managing API call limits": 5 requests/s per base, then
	// 30 s of refusals, no header.
	"Airtable": "429 and refuses every request for the next 30 s",
	// No delay given: Google Sheets "Usage limits" (per-minute quotas,
	// exponential backoff), Google Drive (403 or 429, backoff), Stripe
	// "Rate limits" (backoff), HubSpot (X-HubSpot-RateLimit-* headers,
	// no Retry-After).
	"Google Sheets": "429 with no delay to wait (its quotas refill each minute, and it asks for exponential backoff)",
	"Google Drive":  "403 or 429 with no delay to wait, and asks for exponential backoff",
	"Stripe":        "429 with no delay to wait, and asks for exponential backoff",
	"HubSpot":       "429 with no Retry-After (its X-HubSpot-RateLimit headers give the window)",
	"ElevenLabs":    "429 when more of the plan's requests are in flight at once than it allows, or when it is busy",
}

// rateLimits: providers that document request quotas and 429 responses
// (OpenAI, Anthropic, Google AI, Slack "Web API rate limits", Airtable 5
// requests/s per base, Notion about 3 requests/s, HubSpot, GitHub, Google
// Sheets per-minute quotas, Telegram, Discord); what each 429 says is in
// rateLimitAnswers.
var rateLimits = []struct {
	Match, Service string
	Conf           Confidence
}{
	{"api.openai.com", "OpenAI", ConfHigh},
	{"api.anthropic.com", "Anthropic", ConfHigh},
	{"generativelanguage.googleapis.com", "Google Gemini", ConfHigh},
	{"api.mistral.ai", "Mistral", ConfHigh},
	{"api.groq.com", "Groq", ConfHigh},
	{"openrouter.ai", "OpenRouter", ConfHigh},
	{"api.deepseek.com", "DeepSeek", ConfHigh},
	{"api.perplexity.ai", "Perplexity", ConfHigh},
	{"slack.com", "Slack", ConfHigh},
	{"api.airtable.com", "Airtable", ConfHigh},
	{"api.notion.com", "Notion", ConfHigh},
	{"api.hubapi.com", "HubSpot", ConfHigh},
	{"api.github.com", "GitHub", ConfHigh},
	{"sheets.googleapis.com", "Google Sheets", ConfHigh},
	{"api.telegram.org", "Telegram", ConfHigh},
	{"discord.com", "Discord", ConfHigh},
	{"api.twitter.com", "X", ConfHigh},
	{"api.x.com", "X", ConfHigh},
	{"myshopify.com", "Shopify", ConfHigh},
	{"api.stripe.com", "Stripe", ConfHigh},
	{"graph.microsoft.com", "Microsoft Graph", ConfHigh},
	{"api.elevenlabs.io", "ElevenLabs", ConfMedium},
	{"api.apollo.io", "Apollo", ConfMedium},
	{"api.firecrawl.dev", "Firecrawl", ConfMedium},
	{"n8n-nodes-base.slack", "Slack", ConfHigh},
	{"n8n-nodes-base.airtable", "Airtable", ConfHigh},
	{"n8n-nodes-base.notion", "Notion", ConfHigh},
	{"n8n-nodes-base.hubspot", "HubSpot", ConfHigh},
	{"n8n-nodes-base.github", "GitHub", ConfHigh},
	{"n8n-nodes-base.googleSheets", "Google Sheets", ConfHigh},
	// Google Drive answers 403 userRateLimitExceeded or 429 and asks for
	// backoff; it does not always send Retry-After, hence medium.
	{"n8n-nodes-base.googleDrive", "Google Drive", ConfMedium},
	{"n8n-nodes-base.telegram", "Telegram", ConfHigh},
	{"n8n-nodes-base.discord", "Discord", ConfHigh},
	{"n8n-nodes-base.twitter", "X", ConfHigh},
	{"n8n-nodes-base.shopify", "Shopify", ConfHigh},
	{"n8n-nodes-base.stripe", "Stripe", ConfHigh},
	{"n8n-nodes-base.openAi", "OpenAI", ConfHigh},
	{"@n8n/n8n-nodes-langchain.openAi", "OpenAI", ConfHigh},
	{"@n8n/n8n-nodes-langchain.lmChatOpenAi", "OpenAI", ConfHigh},
	{"@n8n/n8n-nodes-langchain.lmChatAnthropic", "Anthropic", ConfHigh},
	{"@n8n/n8n-nodes-langchain.lmChatGoogleGemini", "Google Gemini", ConfHigh},
}

// RateLimitOf reports whether a node's type or a dependency host is a
// rate-limited service.
func RateLimitOf(typ, host string) (RateLimit, bool) {
	typ = strings.TrimSuffix(typ, "Tool")
	if pacesItself[typ] {
		return RateLimit{}, false
	}
	h := strings.ToLower(host)
	for _, r := range rateLimits {
		if r.Match == typ || h != "" && !strings.Contains(r.Match, "n8n") && (h == r.Match || strings.HasSuffix(h, "."+r.Match) || strings.HasSuffix(h, r.Match)) {
			w := rateLimitWindows[r.Service]
			out := RateLimit{Match: r.Match, Service: r.Service, Conf: r.Conf, Answer: rateLimitAnswers[r.Service], WindowMS: w.ms, Window: w.per,
				InFlight: inFlightLimits[r.Service] > 0, InFlightFloor: inFlightLimits[r.Service]}
			if out.Answer == "" {
				out.Answer = "429 when its limits are reached"
			}
			return out, true
		}
	}
	return RateLimit{}, false
}
