package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var rs010 = &analyze.Rule{
	ID:    "RS010",
	Name:  "always-fails",
	Title: "a node fails on every run that reaches it",
	Doc: `Some nodes cannot succeed as the workflow is exported, whatever the data: n8n fails them on every
item, stops the execution there and marks it failed, so the work after them never happens, event after
event, with nothing retried and nothing written. A node that sends its failures to its error output
(continueErrorOutput) is reported too when every path from that output leads back to it through nodes that
hand the item on (a Wait on a time, an Edit Fields, a No Op): the failed item is sent to it again, so the
execution goes round for ever and is never marked failed (RS103 reports the loop). The rule reports such a
node on a path an enabled trigger reaches:

- a credentials block that names only types the node does not take ("googleSheetsApi" on a Google Sheets
  node, which takes googleApi or googleSheetsOAuth2Api): n8n looks the credential up by the node's own type
  name and fails the node before any request
  (packages/core/src/execution-engine/node-execution-context/node-execution-context.ts getCredentials:
  "Node does not have any credentials set for ..."); the HTTP Request and GraphQL nodes, which take any
  credential, a node whose authentication is "none", a node whose credentials are all optional or shown
  only for other parameters' values (the AI Agent's, for the SQL agent), and a programmatic node set to a
  resource or operation it does not define (it asks for its credential only in the branch of an operation it
  runs; a declarative node asks first, n8n-core routing-node.ts prepareCredentials) are left out;
- the OpenAI node v1.x's "Message a model" with no model (n8n finds the parameter issue before it runs the
  workflow, packages/core/src/execution-engine/workflow-execute.ts checkForWorkflowIssues) or no prompt
  ("A non-empty prompt is required.",
  packages/@n8n/nodes-langchain/nodes/vendors/OpenAi/v1/actions/text/message.operation.ts);
  the legacy OpenAI node at text/complete with a chat model, which OpenAI's legacy completions endpoint
  refuses ("This is a chat model and not supported in the v1/completions endpoint"); a resource or
  operation the OpenAI node's routers do not handle (packages/@n8n/nodes-langchain/nodes/vendors/OpenAi/v1/actions/router.ts,
  v2/actions/router.ts), and one an app node's code has no branch for where that code throws (Airtable v1:
  "The operation ... is not known!", packages/nodes-base/nodes/Airtable/v1/AirtableV1.node.ts; Google Sheets
  v3 and later, packages/nodes-base/nodes/Google/Sheet/v2/actions/router.ts; Twilio and Trello: "The operation
  ... is not known!", and OpenWeatherMap; Postgres v1: "The operation ... is not supported!"; the routers of
  Airtable v2, Discord v2 but on OAuth2, Item Lists v3, Google Drive v3 and Todoist v1, which call the operation
  of a resource that lacks it; Google
  Calendar 1.3, which then sorts the keys of the empty items it made); a resource the node does not
  define, for the app nodes whose code reads their operation first (Notion, Gmail v1, Twitter v1, Google Docs,
  Google Sheets, Slack, NocoDB, Telegram, GitHub, Twilio, Google Calendar, Trello, Microsoft Teams v1,
  Shopify, Pushbullet, Spotify, LinkedIn, Elasticsearch, Pushover, Google Translate): n8n drops the
  operation, shown only for the resources the node defines
  (packages/workflow/src/node-helpers.ts getNodeParameters keeps only the parameters shown), and the node
  throws "Could not get parameter" before any request (packages/core/src/execution-engine/node-execution-context/node-execution-context.ts
  _getNodeParameter); so does an operation at a resource whose code reads first a parameter shown only for the
  operations it defines (Google Sheets v3 and later at "sheet": sheetName; Slack at "reaction":
  channelId); a node whose code sends nothing for an operation it lacks and returns no item, an empty one or
  one holding only a "not found" text (Notion, Google Sheets v1, Google Drive v1, Google Docs, Google Calendar
  v1 to 1.2, Microsoft Teams v1, Shopify, Pushbullet, Slack, Spotify, LinkedIn, Elasticsearch, Pushover,
  Google Translate, Spreadsheet File v2) does not fail, and is left
  out (RS007 leaves it out too: it never asks for its credential); Telegram and GitHub at an operation their
  resource lacks send their request with no method or path (a POST to /bot<token>/, a GET to the API's root),
  reported as a node that does none of its work, like the declarative nodes below;
  a declarative node (the legacy OpenAI node among them) at a resource or operation its description lacks
  (resource "openai", operation "chatCompletion") finds no routing for it and sends only a bare request to its
  service's base URL (packages/core/src/execution-engine/routing-node.ts runNode), which does none of its work:
  it is reported as a node that does none of its work on any run, since what the service answers, not the
  node, decides whether it fails (the legacy OpenAI node ignores HTTP error statuses and passes the answer on,
  and a field an expression after it reads from that answer is empty, not an error, since n8n's expression
  engines swallow a TypeError, @n8n/expression-runtime isolated-vm-bridge.ts, while a Code or Function node that
  reads it throws);
- a JavaScript Code node that calls $env itself ($env('API_KEY')) in its top-level statements: n8n gives the
  code $env as a Proxy over a plain object (packages/workflow/src/workflow-data-proxy-env-provider.ts
  createEnvProvider), so the call throws "TypeError: $env is not a function" on every run; a call inside a
  block or a function, after a return, or in a file with a try is not judged, nor is $env.KEY, which works
  where the instance allows env access;
- a Merge v3 or later in mode "combine" by matching fields (combineBy's default) with the simple list of
  fields left empty: it throws "You need to define at least one pair of fields in "Fields to Match" to match
  on" before it reads its inputs (packages/nodes-base/nodes/Merge/v3/actions/mode/combineByFields.ts,
  v3/helpers/utils.ts checkMatchFieldsInput);
- an app node whose code throws first thing, before it reads an item or asks for its credential: Airtable v1
  on the API key authentication, which is v1's default ("The API Key connection was deprecated by Airtable,
  please use Access Token or OAuth2 instead.", packages/nodes-base/nodes/Airtable/v1/AirtableV1.node.ts), and
  Orbit, whose service shut down ("Service is deprecated", packages/nodes-base/nodes/Orbit/Orbit.node.ts);
- an If or Filter node v2+ whose first condition, under strict type validation, compares against a literal
  of the wrong type: "Wrong type: 'true' is a string but was expecting a boolean"
  (packages/workflow/src/node-parameters/filter-parameter.ts, packages/nodes-base/nodes/If/V2/IfV2.node.ts), or
  whose first value is an expression that is always a boolean ({{ $json.x ? true : false }}, {{ !!$json.x }})
  under a string or number comparison: n8n checks the first value's type for every operation;
- an HTTP Request v3 or later that sends a JSON body written as text that is not JSON whatever its expressions
  yield (a trailing comma, a string joined with + outside {{ }}, an empty body): n8n parses it for every item
  and throws "The value in the "JSON Body" field is not valid JSON" before any request
  (packages/nodes-base/nodes/HttpRequest/V3/HttpRequestV3.node.ts parseJsonParameter); an expression that could
  yield a key, several members or several values (after "{", "[" or ",", or the whole body) leaves the body
  unjudged. An HTTP Request v1 or v2 with "JSON/RAW Parameters" on parses its body, headers and query
  parameters alike, each unless empty, and throws "The data in "Body Parameters" is no valid JSON"
  (packages/nodes-base/nodes/HttpRequest/V1/HttpRequestV1.node.ts, V2/HttpRequestV2.node.ts); the body counts
  only at PATCH, POST, PUT or DELETE (the method defaults to GET, and n8n drops a parameter it does not show)
  and not with Body Content Type "RAW/Custom" or binary data. A v1 or v2 node that stores "method" (v3's name)
  and no "requestMethod" sends GET with no body: whatever the finding, it says so, and its fix sets the Request
  Method first, then the body, which n8n parses before it sends anything;
- an HTTP Request with no credential that sends, in its list of headers or query parameters, an API key
  (Authorization, x-api-key, api_key, ...) whose value holds {{ }} but does not start with "=" ("Bearer
  {{ $env.API_KEY }}"): n8n evaluates only a string that starts with "="
  (packages/workflow/src/expressions/expression-helpers.ts isExpression), so the braces are sent as written and
  the service refuses the key on every item; braces in other headers, the body or a prompt are not judged (a
  template may mean them), nor are headers written as JSON, nor a node whose credential sets its own header
  after these (packages/nodes-base/nodes/HttpRequest/V3/HttpRequestV3.node.ts, V2/HttpRequestV2.node.ts);
- an HTTP Request whose URL holds {{ }} but does not start with "=" ("https://api.x.com/items/{{ $json.id }}"),
  which n8n uses as written: braces at the start make the node refuse it ("URL must start with "http" or
  "https"", packages/nodes-base/nodes/HttpRequest/V3/HttpRequestV3.node.ts), braces in the host reach no
  server, braces in the path, percent-encoded, ask the API for a resource it does not have (404), and braces
  in a query parameter that carries a key (api_key, access_token, Google's key) are sent as the key, which
  the service refuses; other braces in the query string send a literal value and are not judged, nor is a
  placeholder host (example.com, yourdomain.com);
- an HTTP Request to a model API's endpoint (OpenAI, Anthropic, Gemini, Mistral, Groq, ...) whose
  authentication is "none", the default, and no header, query parameter or body field of which carries a
  key: the node reads a credential only for the authentication it is set to
  (packages/nodes-base/nodes/HttpRequest/V1/HttpRequestV1.node.ts, V3/HttpRequestV3.node.ts), so one left in
  its credentials block is ignored, and the API answers 401 and bills nothing; the same for any other API at a
  real host (not a placeholder or an expression) when the node holds a credential it does not read, since the
  owner made that credential because the API asks for one (a note when the credential is a template's blank:
  choosing one under Authentication mends it, and when the export names no credential on any node and is not
  shown active: shared without its credentials, the owner sets the key up first); an HTTP Request that ignores
  error statuses (Never Error, Ignore Response Code) does not fail and is not reported;
- an HTTP Request v2 or later whose authentication is a value it does not offer (v1's "oAuth2" or
  "headerAuth", kept by an export or written by hand): n8n keeps the stored value, builds a request only for
  none, a predefined or a generic credential type (or, from v3, under pagination), and throws "Cannot read
  properties of undefined (reading 'status')" reading the answer it never asked for (V3/HttpRequestV3.node.ts,
  V2/HttpRequestV2.node.ts); v1 sends the request whatever its authentication;
- a Google Sheets v4 or later Update Row or Append or Update Row that maps each column below and sets no value
  for the column it matches rows on: n8n reads the sheet's header row, then throws "The 'Column to Match On'
  parameter is required" on every item (Google/Sheet/v2/actions/sheet/update.operation.ts);
- an HTTP Request v3 or later that posts to Anthropic's Messages API (api.anthropic.com/v1/messages) a body
  written in the node with no max_tokens: the API requires it (Create a Message, "required maxTokens") and
  answers 400 on every item, billing nothing; a body another node builds (one expression naming no model), or
  one an expression may add keys to, is not judged;
- a Webhook v2 or later set to answer through a Respond to Webhook node ("Using 'Respond to Webhook' Node")
  that no Respond to Webhook node follows: on every request it throws "No Respond to Webhook node found in
  the workflow" (packages/nodes-base/nodes/Webhook/utils.ts checkResponseModeConfiguration, which lists the
  nodes after the webhook, disabled ones included), and, the other way round, one followed by a Respond to
  Webhook node but set to answer otherwise (Immediately, the default, or When Last Node Finishes): "Unused
  Respond to Webhook node found in the workflow" (a workflow with a Wait node that resumes on a webhook or form
  call, which may own the Respond node, is left out); the caller gets an error and the execution fails at the
  webhook;
- a Supabase node that gets a row, or deletes or updates rows with the filter built manually (the
  default), with no filter condition: it throws "At least one select condition must be defined" before any
  request (packages/nodes-base/nodes/Supabase/Supabase.node.ts); or that creates or updates a row with a
  field whose column name is empty: it sends the value under the column "", which no table has, and the
  Supabase API refuses the request;
- an AI Agent, Basic LLM Chain or Question and Answer chain left on the default prompt source, which reads
  the chatInput field, fed only by nodes whose items have none (a schedule, a webhook, an Edit Fields node
  that sets other fields, a Code node whose every return writes out new items, [{ json: { ... } }], with
  no spread, Object.assign or chatInput in its code, another AI Agent, whose items hold its answer, output,
  never a field of the item it read): "No prompt specified" (packages/@n8n/nodes-langchain/utils/helpers.ts getPromptInputByType);
  and one whose defined prompt is only {{ $json.X }}, fed straight by a Webhook (through If, Switch, Filter or
  No Operation nodes at most), when X is not a key of a Webhook's item (headers, params, query, body,
  webhookUrl, executionMode; its options change what body holds, never those keys:
  packages/nodes-base/nodes/Webhook/Webhook.node.ts): the prompt is undefined and the node throws the same error
  before any model call; text around the field makes the prompt a string, and an Edit Fields or Code node in
  between makes items of its own shape, which is not judged;
- an Information Extractor, Text Classifier, or agent or chain with a defined prompt, whose text is only a
  field path of its item ({{ $json.pages[0].markdown }}), fed by an HTTP Request whose response format is
  file (through If, Switch, Filter or No Operation nodes at most): the answer goes to binary data, and the
  item's JSON is the item the request was sent for, or with the response's headers and status included, those
  alone (packages/nodes-base/nodes/HttpRequest/V3/HttpRequestV3.node.ts), so the text is undefined and the node
  throws "Text for item 0 is not defined" or "No prompt specified" before any model call. A field of the
  headers and status is not judged; nor, when the JSON is the item the request was sent for, is any reader but
  the Information Extractor, which reads no binary and hands on only its output (an agent or chain may pass
  the file on as an image, a classifier may route it, and mean the item's own field);
- an HTTP Request whose URL takes its host from $json.body.X and whose items come straight from a trigger
  that emits no body field (through If, Switch, Filter, No Operation or a Wait on a time at most): the Shopify
  Trigger emits the payload Shopify posts (packages/nodes-base/nodes/Shopify/ShopifyTrigger.node.ts
  returnJsonArray(req.body)), a Schedule Trigger or Cron the time, a Manual Trigger {}; only a Webhook keeps
  the request under body. The read of the missing body renders nothing (the TypeError is swallowed), and the
  URL is judged when what is left cannot be called: the {{ }} opened the URL, or the host left starts with a
  dot or holds an empty label (https://{{ $json.body.domain }}.myshopify.com/...); no call leaves;
- an AI Agent (Tools or Conversational) whose memory (Simple Memory v1.2 and later, Postgres, MongoDB, Redis,
  Xata, Zep or Motorhead chat memory) is left on the default Session ID, "Connected Chat Trigger Node": the
  memory reads the sessionId field of the agent's item, failing that the sessionId of the workflow's Chat
  Trigger when it ran in this execution, and throws "No session ID found" otherwise
  (packages/@n8n/nodes-langchain/utils/helpers.ts getSessionId); the agent asks for its memory before its first
  model call, so nothing is billed and no tool runs. Only items that certainly carry no sessionId are judged (a
  schedule, a webhook, a Telegram update, an Edit Fields node that sets other fields, an If or Switch passing
  them on) in runs no Chat Trigger started; a Code node, a sub-workflow's input or an Edit Fields node that sets
  sessionId leave it unjudged. When only some of the agent's inputs bring such items (a Chat Trigger and a
  Webhook both feed it), the finding names them: the runs they start stop at the agent, and no rule counts
  the agent's calls or writes in them;
- an Aggregate node in "Individual Fields" mode (the default) that names one output field twice, or leaves two
  fields empty: it throws "The '...' output field is used more than once" before it reads any item
  (packages/nodes-base/nodes/Transform/Aggregate/Aggregate.node.ts);
- a Question and Answer chain whose retriever input is a vector store, not a retriever: LangChain's
  createRetrievalChain (@langchain/classic chains/retrieval) stops at "retrieveDocumentsChain.withConfig is
  not a function", before any search or model call;
- a Code, Function or Function Item node whose whole code is one name nothing defines, a placeholder a build
  step was to replace ("__PREPARE_MESSAGE_CODE__"): n8n runs the code as the body of an async function, where
  the name throws a ReferenceError (packages/@n8n/task-runner/src/js-task-runner/js-task-runner.ts
  createVmExecutableCode; only a name of capitals, digits and underscores is judged, which no global has);
- an Extract from File, Spreadsheet File (Read from File) or HTTP Request (v3+, binary body) node that reads,
  by a literal name, a binary field no item it is fed can carry: every path to it starts at a Form Trigger and
  passes only If, Switch, Filter and No Operation nodes, and the name is not a key the form stores an upload
  under. The form stores each file field under its label (from v2.4 its field name, when set) with every
  character but ASCII letters, digits and "_" replaced by "_", plus "_0", "_1", ... for a list upload
  (packages/nodes-base/nodes/Form/utils/utils.ts prepareFormReturnItem, getFieldIdentifier), so a read by the
  label as written ("Bank statement (CSV)", "Reçu") throws "The item has no binary field" on every submission
  (packages/core/src/execution-engine/node-execution-context/utils/binary-helper-functions.ts
  assertBinaryData). Not judged: any other node on the way (a Code node, a download, Convert to File may set
  any key), a name set by an expression, a workflow whose binaryMode setting is not "separate";
- a node whose parameter expression reads, by name, a node the workflow does not have ($('HTTP Request1'),
  $node["Config"], $items("Old Sheet"), left behind when a node was renamed or removed): n8n throws "Referenced
  node doesn't exist" as it evaluates the parameter, on every item, before any request
  (packages/workflow/src/workflow-data-proxy.ts). Only what surely runs is judged: a node of the main flow, not
  a trigger or a sub-node (a tool reads its parameters only when called), and a reference no ?, && or || comes
  before in its {{ }}; a name held in a variable is not judged. A JavaScript Code, Function or Function Item
  node fails alike when its code surely runs such a read: the task runner hands the code the same data proxy,
  built on every node of the workflow (packages/@n8n/task-runner/src/js-task-runner/js-task-runner.ts
  createDataProxy; packages/cli/src/task-runners/task-managers/data-request-response-builder.ts), and the
  Function nodes spread it into their sandbox (packages/nodes-base/nodes/Function/Function.node.ts). Only a read
  that runs whenever the code does is judged: in a statement at the top of the code, or in the body of a
  for...of over the node's own input items (n8n runs no node on an empty input), with no return, break or
  continue before it outside a function, and not in a function, an if or else, a ternary, behind && or ||, in a
  switch, a try or another loop; code that binds $ itself (cheerio) is not judged, nor Python (n8n 2's runner
  has no _("X")). No rule counts the calls or writes after such a node;
- a JavaScript Code, Function or Function Item node fed straight by a trigger whose item has a fixed shape (a
  Schedule Trigger's timestamp, Readable date, Day of week, ... Timezone: packages/nodes-base/nodes/Schedule/
  ScheduleTrigger.node.ts; a Cron, Interval or Manual Trigger's {}, unless the export pins a Manual Trigger's
  data; a Webhook's headers, params, query, body, webhookUrl and executionMode), whose code surely reads a
  property of, or calls a method on, a top-level field that item lacks ($json.bestTime.split(':'),
  $json.email.toLowerCase() after a Webhook, items[0].json.rows.length, $input.first().json.x.y, or through
  one alias, const user = $json; user.bestTime.split(':')): $json is the input item's json (the task runner's
  data proxy at the item's index, packages/workflow/src/workflow-data-proxy.ts; the Function node assigns
  the proxy of item 0 to its sandbox, packages/nodes-base/nodes/Function/Function.node.ts), the field is
  undefined and the read throws "Cannot read properties of undefined" on every run that trigger starts. Only
  what surely runs is judged, as for a missing node's read above, and nothing read after ?. or a default
  (|| or ??), a field the code sets first, or code that rebinds $json or items or copies into an object
  (Object.assign). Reading the field alone gives undefined and is not judged. When other inputs feed the node
  too, the finding names the triggers whose runs stop there, and only those runs count as stopped; it is
  reported at the code's line;
- under executionOrder "v1", a node whose main inputs all enter input 0 and that reads, by name, a node X
  ($('X').first(), in a parameter expression as above or at a Code node's top level with no try in the code),
  when X and a parent Y of the node both hang from one output of one node F and Y sits higher on the canvas:
  v1 runs F's children one at a time from the top, depth-first, so the node runs right after Y, before X, and
  n8n throws "Node 'X' hasn't been executed"; the execution stops there, X and the branches below never run
  (docs/n8n-facts.md, "Parallel branches joined on one input under v1"). A warning when Y outputs an item
  whenever it succeeds (a Set or No Operation node, a Code node that returns object literals, alwaysOutputData,
  OpenAI's, Anthropic's or Google Gemini's "Message a model" and a Basic LLM Chain with no output parser, which
  answer each item they run on,
  an HTTP Request v3 or later whose response format is text or file or that asks for the full response), and
  no rule counts the calls after it; else a note of medium confidence, since Y may output no item (an HTTP
  Request's JSON answer that is an empty array, a read that finds no rows) and X then runs first. So too a
  node with one main input anywhere in Y's branch (below an If, another fan-out) reading a node anywhere in a
  lower sibling's branch: it runs only in Y's branch, before that sibling: a warning when F runs once per
  execution (no join or loop above it) or Y always passes it an item; below a node that joins F's branches on
  input 0 (run once per branch), a note, since an item of Y may take another way and the node then runs after
  X. Equal heights, children of F on two outputs and the legacy order are not judged;
- on n8n 2 and later, a Python Code node (v2, language "python" or "pythonNative") whose code reads, on a
  top-level line no earlier return can skip, _input, _json, _("Node") or the other mode's accessor: n8n 2 runs
  both values on the native Python runner, whose only globals are _items (all items) and _item (each item)
  (nodes-base Code/Code.node.js execute, Code/descriptions/PythonCodeDescription.js), so the name raises a
  NameError; n8n 1.x ran "python" on Pyodide, which defined them (--n8n-version 1.x: not judged);
- a model call, by a literal model id, to a model its provider has shut down: a chat model or app node of
  OpenAI, Anthropic or the Gemini API with the provider's credential, or an HTTP Request to the provider's
  generation endpoint ("gpt-4-1106-preview", shut down by OpenAI on 2026-03-26; "gemini-2.0-flash", by Google
  on 2026-06-01). The provider answers every call with an error and bills nothing, so no spend rule prices
  it. The dates come from the providers' deprecation pages, in a table checked by hand (as of 2026-12-02:
  stormcheck reads no clock), and only ids a page names count: "gpt-4o" stays live while "gpt-4o-2024-05-13"
  is shut down. A node that stores no model sends n8n's default for its version, which is judged alike
  (an Anthropic chat model v1.3's "claude-sonnet-4-5-20250929"). The model counts only at a resource and
  operation the node defines, after their defaults: with another (the legacy OpenAI node's text resource at
  "completion"), n8n's routing applies no operation's request and hides the model, so it is never sent
  (packages/core/src/execution-engine/routing-node.ts getRequestOptionsFromParameters). A model chosen by an
  expression, a stored but empty id, a gateway's id ("openai/gpt-4" through OpenRouter), Azure OpenAI,
  Vertex AI and an OpenAI chat model whose base URL points elsewhere are not judged;
- an agent or chain whose every chat model fails so (a credential of a type the model node does not take, a
  model its provider shut down): the root asks the sub-node for its model and fails with "Error in sub-node"
  (packages/core/src/execution-engine/node-execution-context/utils/get-input-connection-data.ts);
- a vector store whose embeddings sub-node (Embeddings OpenAI or Google Gemini) names, by a literal id, an
  embedding model its provider shut down ("models/text-embedding-004", by Google on 2026-01-14; OpenAI's
  first-generation text-similarity-*, text-search-* and code-search-* models, on 2024-01-04), at mode insert,
  load or update: the embeddings node only builds its client, and the store's first embedDocuments or
  embedQuery, made before it writes or searches, is refused and rethrown
  (packages/@n8n/ai-utilities/src/utils/vector-store/createVectorStoreNode, log-wrapper.ts); so does a
  Question and Answer chain whose Vector Store Retriever searches such a store. A store used as an agent's
  tool (retrieve-as-tool, or behind a Vector Store Tool) fails only as that tool: n8n hands the error to the
  agent as the tool's answer (packages/core/src/execution-engine/workflow-execute.ts handleNodeExecutionError),
  and the agent goes on, so nothing is reported;
- an agent or chain (AI Agent, Basic LLM Chain, Summarization, Text Classifier, Information Extractor,
  Sentiment Analysis, Question and Answer chain) with no enabled chat model connected: its model input is
  required, and it asks for the model before it reads a prompt or calls a tool, so it fails with "A Chat
  Model sub-node must be connected and enabled" (get-input-connection-data.ts validateInputConfiguration), and
  its tools never run.

A trigger also starts no run that does any work when a node it reaches along main connections (at any depth, whatever
the output, even one its runs would not take) leaves empty a parameter n8n requires and shows for the
node's values: required, a text, options or date value, "" or absent with an empty default (an HTTP
Request's URL, a Typeform Trigger's form), or a resource locator whose value is ""
(packages/workflow/src/type-guards.ts isValidResourceLocatorParameterValue: a Google Sheets Document, an
Airtable base). One n8n shows only for some resources, operations or values of another option
(packages/workflow/src/node-helpers.ts displayParameter) is judged when the node's values are certainly
among them: stored as those literals, or absent with the default n8n fills in (a Slack v2 message post,
the default, asks for Send Message To; a Pushbullet push for its title and body; a Google Sheets v4
Document at the "sheet" resource, which a v1 sheetId does not fill). A value set by an expression is not
judged, nor an option that is not a plain list value (a switch); when another parameter of the same name
can be shown with it, only a stored empty value counts. Before any node runs, every execution checks
its start node and the nodes after it and fails with "Workflow has issues"
(packages/core/src/execution-engine/workflow-execute.ts checkForWorkflowIssues), production runs included, and
n8n refuses to publish the workflow, naming the node (packages/cli/src/workflows/workflow-validation.service.ts
validateNodeConfiguration; when the values that show the parameter are defaults the export leaves out, the
editor, which fills them in, marks the node and disables Publish). That finding is a note, since whoever
publishes the workflow is told, unless the export shows it active, when its runs fail (a warning). Every
other finding of one workflow, of this rule or another, on what such a run would do is a note that says it holds
once the blank is filled in (a set-wide finding, such as RS505's count of what runs at once across workflows,
still counts them): every finding of a workflow whose every trigger n8n refuses (or that it refuses to
publish), and one on a node only refused triggers' runs reach (analyze.Graph.RefusedRun). What holds of the
export as stored is left as it is: a workflow n8n cannot build, a node n8n 2 leaves out, the refusal itself.
A tool an agent calls (a node connected by ai_tool: a <type>Tool variant, or a tool node of its own such as
the HTTP Request Tool or Call n8n Workflow Tool) that leaves a required parameter empty is judged the same
way, with its own outcome. A variant is read as its base node: n8n builds its description from the base
node's at the same version (packages/cli/src/node-types.ts getByNameAndVersion; a version whose description
is not usableAsTool is not judged) and keeps every property, adding a required Description (toolDescription,
whose default is the node's description, so only a stored "" is empty), shown for a node with a resource or
operation only when Tool Description is Set Manually (packages/cli/src/tool-generation/ai-tools.ts
convertNodeToAiTool); parameters shown or hidden by "@tool" are not judged. n8n refuses to publish the
workflow, naming the node (validateNodeConfiguration reads every enabled node with a connection, sub-nodes
too; the editor disables Publish), but no run is refused: a run's check reads its start and the nodes after
it along main connections only. So a run goes on and the agent calls the tool with the parameter empty: an
HTTP Request tool fails every call with "URL parameter cannot be empty" (nodes-base
HttpRequest/V3/HttpRequestV3.node.ts), and a failed call is the tool's answer (of a variant, an AI Agent from v3 gets the
error, packages/core/src/execution-engine/workflow-execute.ts handleNodeExecutionError; before v3 the
AgentExecutor drops it and answers nothing), and the run goes on. An agent that never calls its tools (it fails
on every run, every run reaches it only past a node that does, or n8n refuses the runs that reach it: each is
RS010's own finding) leaves only the refusal to publish to say. The finding is at the tool, a note whether
or not the export shows the workflow active, since a tool whose calls fail does not fail the run; the
workflow's other findings hold once the blank is filled in, as above.
A node's own credential that is a template's blank of a type the node does not take (a Gmail node's
"gmailOAuth2Api", id "gmailOAuth2Api") is a blank too: the finding that names it is a note, but filling it in
(the credential field offers only the types the node takes) mends that fault, so the finding says so ("as
exported it holds no usable credential: …; choosing one in its credential field … mends this") rather than
that it holds once the blank is filled in. A target parameter the node's operation reads but never sends
under its sign-in is no blank: Discord v2 reads the server (guildId) for every resource but the webhook's,
yet checks it only with OAuth2 (nodes-base dist/nodes/Discord/v2/actions/router.js, helpers/utils.js
checkAccessToGuild); with a bot token it goes only into the URL of channel create and getAll and of the member
operations (actions/channel/create.operation.js, actions/member/*.operation.js) and into a reply's
message_reference (helpers/utils.js prepareOptions), so a message sent, listed or deleted in a channel by its
id leaves a "123456789" server unread, and a node after it keeps its severity.

An If or Filter whose test reads only literals (both operands with no {{ }} and nothing read from the item:
an unfinished If's "" equals "", a field name typed as text where {{ $json.field }} was meant) answers the
same for every item, so every item leaves by one output (packages/workflow/src/node-parameters/filter-parameter.ts
executeFilterCondition and executeFilter; If v1's conditions.string, number and boolean, IfV1.node.ts). What
only the other output reaches never runs, and no failed execution shows it: the finding names it, at the
same weight as a node that fails on every run. A test under strict type validation that compares literals of
the wrong type throws on every item instead: the node fails, as above. Text that names item data without
an expression ("{{ $json.x }}" with no "=", "$json.x") and regex and date tests are not judged. The spend
and silent-failure rules leave out what such an output, or a Switch rule an always-true earlier rule
shadows, would reach.
So does an If or Filter with no condition at all (left unfinished, or its conditions dropped by hand): n8n fills
the missing conditions with their default, {}, runs none, and the combine decides: If v1's "all" (its default)
and Filter v1's "AND" pass every item, "any" and "OR" none (IfV1.node.ts, FilterV1.node.ts); at v2 an empty
list passes under "and" and fails under "or", and a missing one is no filter value, which the node reads as
true for every item (packages/workflow/src/node-helpers.ts getNodeParameters, type-guards.ts isFilterValue;
packages/core/src/execution-engine/node-execution-context/utils/extract-value.ts extractValueFilter). An export
whose parameters were all lost (RS008) lost its conditions too, and is not judged.
So does a test that compares the count of the node's own input with a number that count cannot cross
($input.all().length > 0, $items().length !== 0, {{ $input.all().length === 0 }} is true, $input.all() is not
empty; If v1's number and boolean conditions alike): n8n runs a node only when its input holds items
(packages/core/src/execution-engine/workflow-execute.ts prepareConnectionInputData returns null for an empty
input, and runNode returns no data; an output with no items starts no node after it), and $input.all() and
$items() with no node name are that input (packages/workflow/src/workflow-data-proxy.ts), so the count is at
least 1 whenever the test runs and a branch for "nothing came" never does: the finding says the test is the
count of the node's own input. The items of another node ($('X').all().length, $node["X"]), a field of the
item ($json.items.length) and a count compared with a number past 1 (> 5) vary, and are not judged.
So does a test of a field a Code node sets, on every item it returns, to the count of its own input
(return emails.map(i => ({ json: { ...i.json, nb_emails: emails.length } }))) when a node before that Code
node caps the count: a Limit keeps the first Max Items items (the last with Keep set to Last Items), 1 when
Max Items is unset (nodes-base dist/nodes/Transform/Limit/Limit.node.js execute), and the nodes between it
and the Code node send at most one item per item they are given (If, Filter, Switch, Set, a Gmail thread
get, a Code node that maps its input or the Limit's items, a node set to Execute Once keeps one), so behind
a Limit at its default nb_emails is 1 and nb_emails > 50 is false for every item: the finding names the
test, the Code node, the cap and the Limit that sets it, and what never runs behind the output no item
takes. A node that may add items on the way (a list or getAll operation, an HTTP Request, Split Out, a
Merge) lifts the cap, and the test is not judged.
So does a test, fed only by an enabled Webhook (through If, Switch, Filter or No Operation nodes, which
pass its items on), that reads a top-level field a Webhook's item never has ({{ $json.properties.rdv_date }}, where the
request sends body.properties; $json["properties"], $input.item.json.properties and $('Webhook').item.json
.properties alike): n8n's Webhook makes every item
{headers, params, query, body} plus webhookUrl and executionMode (jwtPayload under JWT auth), whatever its
options (nodes-base dist/nodes/Webhook/Webhook.node.js L262-268, utils.js setupOutputConnection L100-128,
handleFormData), so the read is undefined, its TypeError one key deeper swallowed (n8n-workflow
dist/cjs/expression.js L669-683), and a condition is not empty, exists, boolean is true, or string equals,
contains, starts with or ends with a non-empty literal is false (filter-parameter.js L214-362): with the
conditions all required, no item takes the true output, and the finding names the read and the Webhook. A
Set or Code node in between, a read under body, a combinator "or", a test true on a missing value (is
empty), Always Output Data and continue on fail are not judged.
A node behind the output such a gate never takes that would fail on every run for a defect of its own (any
reason this rule gives: a read of a node the workflow lacks, a URL n8n uses as written, a shut-down model) has
no finding of its own, since no run reaches it; the gate's finding names the first two with their reasons (the
second's said once when it is the first's), counts the rest, and lists each as a related place: once the owner
mends the test as the finding says, every run that takes that branch fails there. The nodes behind each gate are
read once, and the walks behind all gates share the budget of the walks after failing nodes.
What lies only behind a Code, Function or Function Item node that reads a key of the workflow's static data
($getWorkflowStaticData('global'), or 'node' for its own) and throws or returns no items when it is unset never
runs either, when the export's staticData does not hold that key and every node that sets it runs only behind
that node, behind another such gate, or behind a node that fails on every item: n8n starts the static data empty
and keeps only what an execution wrote (packages/workflow/src/workflow.ts getStaticData), so no run ever sets the
key and no item passes. The gate itself is not reported (an If before it that tests a flag read from the same
key sends it nothing, so it need not throw); the node that keeps the writers from running is, and counts what
never runs. A defect of a node behind such a gate is not reported while no finding names the gate. A key the export holds, or a write the reader cannot place (the object handed on, a key computed
from item data written by a node a run reaches), opens the gate.

A trigger that fails so never starts a run. The finding says why and names what never runs after the
node. That includes what lies behind a Merge v3 or later that combines its inputs and needs both (combine
by all combinations, by position without unpaired items, by matching fields keeping matches; not with
alwaysOutputData) when the failing node's side is the only way to one of those inputs: a run down the other
side runs the Merge with that input empty (requiredInputs 1, Merge/v3/actions/versionDescription.js) and it
returns nothing (combineAll.js "if (!input1 || !input2) return [returnData]", combineByPosition.js Math.min
of the lengths), so the finding names that Merge too, and a defect of a node behind it is not reported
while no run reaches it. A Merge whose input a branch feeds on some runs and not others is not such a Merge. It is a warning: the work never happens and each execution is marked failed, though nothing is
duplicated or charged. It is a note for a node only a manual trigger reaches (a person runs it and sees the
error; a manual trigger that starts a sub-workflow another workflow of the set calls counts as any other), or
a node of a sub-workflow or tool workflow whose every caller a person starts so (an agent behind a Chat Trigger
that is not public, whose tool calls its own workflow or one shipped in the same file: analyze.Watched, as RS403
reads it),
and so is a clock trigger whose stored rule registers no job: a Cron with no trigger times (the node maps
triggerTimes.item || [] to cron jobs, packages/nodes-base/nodes/Cron/Cron.node.ts) or a Schedule Trigger whose
rule.interval is an empty list; only a run from the editor starts it
and in a file whose parameters were lost (RS008). It is a note, too, when the failure loses no work outside
n8n: n8n stops the execution at the node (packages/core/src/execution-engine/workflow-execute.ts
processRunExecutionData), so the node's own work, what follows it and whatever else the run had still to run is
not done; when none of that makes an external call (a request, a model call, a read, a write, a message: any
operation of the node or its sub-nodes) or leaves anything behind (a Respond to Webhook, a sub-workflow, a
command, a file: Code, Set, No Operation, Merge and If nodes with no calls of their own, a console log), no
one waits for the run's end (a Webhook answering when the last node finishes or from a Respond to Webhook node,
a form, a chat, an MCP client, a calling workflow), and the run has made a call or a write before it, that work is
done and each run only ends marked failed, which starts the error workflow when one is set: a notification,
not lost work. The finding says so and names the work done before it. A run that makes no call at all keeps
the warning: such a workflow does nothing outside n8n, and the failing node may be its whole point. What is
sure to have run before the node is the chain of single parents above it and, for a node with several main inputs (a Merge), the chain above each input one connection feeds: n8n
holds such a node until every input has data or nothing else is left to run (workflow-execute.ts
addNodeToBeExecuted, waitingExecution). Everything else its trigger's runs reach may run after it: a branch
beside it, or a second branch into a node with one input, which runs on the first branch's items before the
second branch runs under executionOrder v1; any of those that calls out keeps the warning, as does a node in a
loop (the later rounds before it are lost). A workflow n8n 2 refuses to publish for another node's
missing credential or parameter keeps the finding's severity: n8n names only that node, and once the owner
fills it in and publishes, this node fails on every unattended run (docs/precision.md, part CM). When the chat model a failing node calls
has no credential it requires (read only in an export where some node names a credential: a file with none may
have had them taken out), the finding names that first: the model asks for it before it calls the
provider ("Node does not have any credentials set",
n8n-core/dist/execution-engine/node-execution-context/node-execution-context.js getCredentials).

An AI Agent also fails before its model call when its memory (Simple Memory from v1.2, and the other
memories that read getSessionId) takes the session ID from its Key and the Key is empty: any Session ID
value but "fromInput" reads sessionKey, an empty one throws "Key parameter is empty"
(@n8n/n8n-nodes-langchain/dist/utils/helpers.js getSessionId), and the agent asks for its memory before its
model. Judged: Session ID a literal other than "fromInput", or an expression that does not name
"fromInput" (an options value is not checked against its list), with a Key stored as "" or, under a literal
Session ID, absent (it defaults to ""). A Key set by an expression is not judged.

A node of a type n8n 2 ships but leaves out by default, Execute Command and the Local File Trigger
(NODES_EXCLUDE's default from 2.0, @n8n/config/dist/configs/nodes.config.js), makes a default install fail
to build the workflow as for a type it does not ship. The instance may set NODES_EXCLUDE to load them, which
an export does not show, so the finding is a note at the first such node, and the rest of the workflow is
judged as if it loads; with --n8n-version 1.x it is not reported. Two reads the instance's environment
blocks by default are notes alike, once per workflow each, at the first enabled node a run reaches (one that
does not continue on error) that makes one, naming how many more do, and the rest of the workflow is judged
as if the read succeeds: a JavaScript Code, Function or Function Item node whose code calls require() at its
top level, with no try in the code and no return, branch or callback before it (not in a comment or a
string), fails on every run of a default install of any release: n8n 2's task runner resolves require through
allow lists that are empty unless the instance sets NODE_FUNCTION_ALLOW_BUILTIN (Node's own modules, "crypto")
or NODE_FUNCTION_ALLOW_EXTERNAL (any other, "xml2js"), and throws "Module '...' is disallowed" otherwise
(@n8n/task-runner/dist/config/js-runner-config.js, dist/js-task-runner/require-resolver.js
createRequireResolver), and n8n 1.x's vm2 sandbox, which the Function nodes keep, reads the same variables,
empty by default (n8n-nodes-base/dist/nodes/Code/JavaScriptSandbox.js vmResolver), and throws "Cannot find module
'...'" (vm2/lib/resolver.js); and from n8n 2.0 a node
that reads $env ($env.API_KEY) inside {{ }} of a parameter expression (a value starting with "=", with no ?,
&& or || before it in its braces, in a top-level parameter the node keeps, not an option of a collection,
whose declared options vary by version; not a trigger's or a sub-node's) or in code
as above: n8n 2 blocks environment access unless N8N_BLOCK_ENV_ACCESS_IN_NODE is "false", and the read throws
"access to env vars denied", an ExpressionError the expression engines rethrow
(n8n-workflow/dist/cjs/workflow-data-proxy-env-provider.js createEnvProviderState, expression.js; the
default changed in 2.0, n8n's breaking-change rule process-env-access-v2); with --n8n-version 1.x it is not
reported. Left out: disabled nodes, nodes that continue on error
(continueRegularOutput passes the item on; continueErrorOutput sends it to the error output, where the
workflow handles it; one whose error output leads nowhere is reported, since its items go no further and n8n
does not mark the run failed, and RS403 leaves it here), nodes no enabled trigger reaches, sub-nodes, an archived workflow, and a credential that
does not match the node's authentication, which RS007 reports.

A node that fails for a defect of its own behind one that fails first on every run (a retired model behind a
URL n8n uses as written, Airtable v1 nodes after the first) is reported too, at the severity of the runs that
would reach it (a note when another finding of the workflow gives the same reason: the same words but for the
sub-node, parameter or header that holds it and a quoted argument in code; a different model, missing node or
value read is another reason, with a fix of its own; a node
that runs or the first one behind: the owner who reads that finding knows the fix), and the finding names
the node in front: n8n's error names only the first, and once the owner
fixes it, this node fails every run in its place (docs/precision.md, part CQ). A node whose shut-down model is
the model node the one in front fails on is left out: that node's one fix mends both. The nodes of one
workflow that fail on one shut-down model (chains or agents with model sub-nodes of their own that call one
retired id, or app nodes that do) are one fix, the model's name: they are reported once, at the first of the
most severe, with the others as related places ("; 28 more nodes of the workflow call
"gemini-2.5-flash-preview-05-20""), so a template with 29 such chains is one warning, not 29. So are the
triggers one node's blank required parameter keeps from starting ("; node "Get saved keywords" keeps 1 more
trigger from starting"). A node that needs a fix of its own first (a credential, a prompt, a URL) is not
folded, nor one whose reason is another; copies of a workflow in other files are reported each where they
stand. Only the failing nodes are
passed (their regular outputs followed); any other dead output (a Stop and Error, a test that reads only
literals, an empty output) still ends the walk, and a node that would run on the failing node's output but
has no defect of its own is not reported. The rules that count what a run reaches (the spend rules,
RS402) still stop at the first failure.

A workflow that holds a node whose type n8n's own packages (n8n-nodes-base, @n8n/n8n-nodes-langchain) do
not ship fails as a whole: a name no release had ("n8n-nodes-base.httpTrigger", "n8n-nodes-base.database"), a
misspelling ("n8n-nodes-base.mongodb" for mongoDb), a node n8n 2.0 removed (the Start node, Automizy,
Spontit; with --n8n-version 1.x these still ship), or a type with no package before its name ("httpRequest").
The Workflow constructor asks the node types for every node, disabled ones included, and n8n's loader throws
UnrecognizedNodeTypeError for a name its package does not hold, or a package it does not have
(packages/workflow/src/workflow.ts, packages/core/src/nodes-loader/directory-loader.ts getNode,
packages/cli/src/load-nodes-and-credentials.ts getNode): n8n refuses to publish the workflow and fails every
run, manual ones included, before any node runs. So does a node with no type, or a "type" that is not a
string: the look-up calls endsWith on it and throws (packages/cli/src/node-types.ts resolveBaseName); n8n
2.41.1 also refuses to import such a file (packages/workflow/src/workflow-structure-validation.ts), and the
editor's import skips a node with no type, with the connections to it (packages/frontend/editor-ui
useCanvasOperations.ts importWorkflowData). The rule
reports it once, at the first such node, naming the others and, for each of them whose name the node table
holds in other letter case (or with its package), the type to use; and since nothing in the workflow runs, no rule reports what its runs would
do. It is a note, since n8n names the node to whoever publishes or runs the workflow, and a warning when the
export shows the workflow active or published with a trigger n8n ships other than a manual one, and every
such node is of a type an older release shipped (one 2.0 removed): it ran, and on a release that does not ship
the node n8n fails to activate it at startup and retries in the background
(packages/cli/src/active-workflow-manager.ts activateWorkflow), so its triggers stop firing unseen. A type no
release had (a misspelling, "n8n-nodes-base.localFile") was never published, so an active flag beside it says
nothing of runs: a note. A trigger
whose own type n8n does not ship never fired, and a workflow with no trigger has none to stop: a note. A community node's type (another package) is not such a node: n8n loads
it once the package is installed. So is a node of a type n8n ships at a typeVersion that type does not have, when the type
is a VersionedNodeType (Airtable at 4: it has 1, 2, 2.1 and 2.2): from n8n 2.41.1 its getNodeType throws
NodeVersionNotFoundError ("Node type … is not available in version 4") while the Workflow is built
(n8n-workflow dist/cjs/versioned-node-type.js), and the finding names the versions there are. n8n 2.8.4's look-up
returned nothing and the constructor skipped the node, so with --n8n-version before 2.41 it is not judged; a plain
node class, which takes any typeVersion, is not judged either. Whether a release once had that version is not known,
so an active export beside it stays a note.`,
	Fix:        "Make the node runnable as the finding says: select a credential of a type the node takes (for Airtable v1, an access token or OAuth2 with the authentication to match, or upgrade the node to v2), set the missing model or prompt, compare against a value of the right type, feed the prompt and retriever the node reads, read _items or _item in Python code on n8n 2, give a key to a node that takes the credential instead of reading $credentials in code, read an upload under the binary key n8n stores it as, remove a node whose service is gone, move to a model the provider still serves, or use a node type n8n ships; for a require() or a $env read a default install blocks, set the instance variable the finding names or do without it",
	FixDoc:     "None: which credential, model, prompt or value the author meant is theirs to say.",
	Severity:   analyze.Warning,
	Confidence: analyze.High,
	Tags:       []string{"input", "errors"},
	FoldMore:   foldMore,
	Run: func(pass *analyze.Pass) {
		w := pass.Workflow
		if analyze.RunStateOf(w) == analyze.RunNever {
			return // archived: n8n runs none of its triggers
		}
		g := pass.Set.Graph(w)
		// A manual trigger starts a sub-workflow's runs when another
		// workflow calls it and it has no Execute Workflow Trigger; a
		// caller is not a person watching, so such a trigger counts as
		// the others do.
		called := calledByAnother(pass)
		if len(g.Unloadable) > 0 {
			reportUnloadable(pass, g, called)
			return // nothing in it runs: what would fail later never does
		}
		if g.BuildFails() {
			return // its connections cannot be built (RS003 says so): nothing runs
		}
		reportExcluded(pass, g)
		var all, machine []*n8nschema.Node
		var idle *n8nschema.Node // a clock trigger with no job to fire on
		// others: the triggers neither a person's nor a caller's, whose
		// runs nobody watches (analyze.Watched); viaOthers what they reach.
		var others []*n8nschema.Node
		var viaOthers analyze.Reach
		othersWalked := false
		for _, t := range g.Triggers() {
			if t.Disabled {
				continue
			}
			if !analyze.ByHand(t) && t.Type != n8nschema.TypeExecuteWorkflowTrigger {
				others = append(others, t)
			}
			all = append(all, t)
			if called || !analyze.ByHand(t) {
				machine = append(machine, t)
			} else if idle == nil && !analyze.OnClock(t) && n8nschema.IsScheduleTrigger(t.Type) {
				idle = t
			}
		}
		if len(all) == 0 {
			return
		}
		reportToolBlanks(pass, g)
		reportBlockedByDefault(pass, g, all)
		var live, byMachine analyze.Reach
		walked := false
		// walkLive makes live and byMachine, once, when a node first needs them.
		walkLive := func() {
			if !walked {
				live, byMachine, walked = analyze.LiveFrom(g, all...), analyze.LiveFrom(g, machine...), true
			}
		}
		// behind: nodes an earlier failing node keeps runs from, with it.
		var behind, behindMachine, nearest map[*n8nschema.Node]*n8nschema.Node
		var said map[string]*n8nschema.Node // causes given, by a live node or the first node behind
		var lossBudget *int                 // the walks of FailureLossOf, shared as budget is
		var starts map[*n8nschema.Node]bool // the enabled triggers, for FailureLossOf
		// The walks after failing nodes share one budget, so that many
		// failing nodes before one long tail stay linear.
		budget := 4 * (len(g.Nodes) + len(g.Edges))
		for _, n := range g.Nodes {
			if n.Disabled || g.IsSubNode(n) {
				continue
			}
			// failsIfReached, with FailsWhy's answer kept: most nodes
			// do not fail, and are asked no more.
			var f nodeFailure
			fails, failing := g.FailsWhy(n)
			ok := false
			if failing {
				f, ok = failingReached(g, n, fails)
			}
			if !ok && n.ContinuesOnFail() && !g.ErrorsGoNowhere(n) {
				continue // its error output handles the failure
			}
			if !ok && failing {
				continue // RS007 reports it, or a trigger's refusal names it
			}
			why, given, loopVia := f.why, f.given, f.loopVia
			if w, bare := g.DoesNoWork(n); !ok && bare {
				walkLive()
				if live.Has(n) {
					reportNoWork(pass, g, n, w, nil, nil, byMachine.Has(n), idle)
					continue
				}
				if behind == nil {
					behind, nearest = analyze.BehindNearest(g, all...)
					behindMachine = analyze.BehindFrom(g, machine...)
				}
				if first := behind[n]; first != nil {
					reportNoWork(pass, g, n, w, first, nearest[n], behindMachine[n] != nil, idle)
				}
				continue
			}
			if !ok {
				if jr, found := g.LaterSiblingRead(n); found && !jr.Sure {
					walkLive()
					if live.Has(n) {
						reportJoinRead(pass, g, n, jr, byMachine.Has(n))
					}
				}
				if trigs, why, code, every, found := g.TriggerFieldThrow(n); found && !every {
					walkLive()
					reportFieldThrow(pass, n, trigs, why, code, live, byMachine)
				}
				// The walks are made for the first node that needs them:
				// most nodes fail on no input.
				from, fails := g.SessionlessFrom(n)
				if len(from) == 0 {
					continue
				}
				walkLive()
				reportSessionless(pass, g, n, from, fails, live, byMachine)
				continue
			}
			walkLive()
			var first *n8nschema.Node // fails before n on every path to it
			if !live.Has(n) {
				// A defect of its own, unseen while an earlier node fails:
				// once that one is fixed, this one fails every run.
				if behind == nil {
					behind, nearest = analyze.BehindNearest(g, all...)
					behindMachine = analyze.BehindFrom(g, machine...)
				}
				if first = behind[n]; first == nil {
					continue
				}
				// A model node both share: its one fix mends both, and
				// the first one's finding names it.
				if _, model, ok := retiredModelOf(g, n); ok && model != n {
					if _, fm, fok := retiredModelOf(g, first); fok && fm == model {
						continue
					}
				}
			}
			d := analyze.Diagnostic{Node: n, Fix: f.fix}
			names, starved, cut := neverRunAfter(g, n, live, &budget)
			after := "the execution stops there"
			switch {
			case cut && len(names) == 0: // what follows was not read
			case cut:
				after = joinNames(names[:min(len(names), 2)], 2) + " and more never run"
			case len(names) > 0:
				after = joinNames(names, 2) + plural(len(names), " never runs", " never run")
			}
			merge := ""
			if starved != nil {
				// The Merge runs on the other input's items alone and
				// combines them with none: nothing leaves it.
				merge = fmt.Sprintf(", and node %q, which combines its inputs, gets no item on input %d on any run, so it outputs nothing", starved.To.Name, starved.Input+1)
			}
			after += merge
			if g.ErrorsGoNowhere(n) {
				// n8n marks such a run a success: nothing says it failed.
				after = "its items leave by its error output, which leads nowhere, so nothing after it runs and the execution is not marked failed"
				switch {
				case cut && len(names) > 0 || len(names) > 2:
					after += " (" + joinNames(names[:min(len(names), 2)], 2) + " and more never run" + merge + ")"
				case len(names) > 0:
					after += " (" + joinNames(names, 2) + plural(len(names), " never runs", " never run") + merge + ")"
				}
			}
			if loopVia != nil {
				// n8n hands the failed item back to the node, which fails
				// it again: the run never ends and is never marked failed
				// (RS103 reports the loop).
				after = fmt.Sprintf("its items leave by its error output, which leads back to it through %q, so the execution goes round for ever, holding a worker, and is never marked failed", loopVia.Name)
				switch {
				case cut && len(names) > 0 || len(names) > 2:
					after += " (" + joinNames(names[:min(len(names), 2)], 2) + " and more never run" + merge + ")"
				case len(names) > 0:
					after += " (" + joinNames(names, 2) + plural(len(names), " never runs", " never run") + merge + ")"
				}
			}
			d.Message = fmt.Sprintf("node %q fails on every run that reaches it: %s; %s", n.Name, why, after)
			if g.Spec(n).Role == n8nschema.RoleTrigger {
				// It fails before it emits an item: no run starts.
				head := "never starts a run"
				if _, _, refused := g.StartRefused(n); refused {
					// The trigger does fire: each run it starts is
					// refused before any node runs (readers took "never
					// starts a run" and "each of its runs fails" for a
					// contradiction).
					head = "starts no run that does any work"
				}
				d.Message = fmt.Sprintf("trigger %q %s: %s", n.Name, head, why)
				if len(names) > 0 {
					d.Message += "; " + after
				}
			}
			// The fix leads with the reason the message names, the
			// first the node meets (analyze failsFirst order).
			switch {
			case strings.Contains(why, "A Chat Model sub-node must be connected"):
				d.Fix = fmt.Sprintf("Connect an enabled chat model sub-node to %q, or remove the node if it is unfinished", n.Name)
			case strings.Contains(why, "the Webhook items it is fed have no top-level") && webhookPromptField(g, n) != "":
				field := webhookPromptField(g, n)
				d.Fix = fmt.Sprintf("Read the request's field where the Webhook puts it: set the prompt of %q to {{ $json.body.%s }}", n.Name, field)
			case strings.Contains(why, "whose response format is file") && fileAnswerSource(g, n) != nil:
				src := fileAnswerSource(g, n)
				d.Fix = fmt.Sprintf("Set Response Format of %q to JSON so that its answer is the item's JSON, or read the file with an Extract from File node before %q", src.Name, n.Name)
			case strings.Contains(why, "No prompt specified"):
				fix := fmt.Sprintf("Set the prompt of %q to Define below (promptType \"define\") with the text it should read from the items it is fed", n.Name)
				if d.Fix != "" {
					fix += "; then " + strings.ToLower(d.Fix[:1]) + d.Fix[1:]
				}
				d.Fix = fix
			}
			if n8nschema.LiteralKey(n) {
				// The key is refused first: a live model alone would not make it work.
				fix := fmt.Sprintf("Start the key's value in %q with \"=\" so that n8n evaluates its {{ }}, or send the key through a credential", n.Name)
				if d.Fix != "" {
					fix += "; then " + strings.ToLower(d.Fix[:1]) + d.Fix[1:]
				}
				d.Fix = fix
			}
			if mem, ok := g.SessionMemory(n); ok && strings.Contains(why, "No session ID found") {
				d.Fix = sessionFix(mem, n)
			}
			if mem, ok := g.EmptyKeyMemory(n); ok && strings.Contains(why, "Key parameter is empty") {
				d.Fix = fmt.Sprintf("Set Session ID of %q to Define below with a Key each conversation has (a chat or sender id from the trigger), or to Connected Chat Trigger Node when a Chat Trigger starts %q", mem.Name, n.Name)
			}
			if param, name, ok := g.MissingNodeRef(n); ok {
				d.Fix = fmt.Sprintf("Make %q of %q read a node the workflow has (the node %q was renamed or removed)", param, n.Name, name)
			}
			if param, name, ok := g.UnrunNodeRef(n); ok {
				d.Fix = fmt.Sprintf("Make %q of %q read a node that runs before it on its trigger's path, or guard the read with $(%q).isExecuted", param, n.Name, name)
			}
			if jr, ok := g.LaterSiblingRead(n); ok && jr.Sure {
				d.Fix = joinReadFix(n, jr)
			}
			if trigs, fwhy, code, every, found := g.TriggerFieldThrow(n); found && every && fwhy == given {
				d.Pos = code.Pos()
				d.Fix = fieldThrowFix(n, trigs)
			}
			// The URL and the key are refused first: a live model alone
			// would not make the call work.
			fix, blankUnread, keyless := "", false, false
			switch {
			case n8nschema.LiteralURL(n):
				fix = fmt.Sprintf("Start the URL of %q with \"=\" so that n8n evaluates its {{ }}", n.Name)
			case n8nschema.NoKey(n):
				fix = fmt.Sprintf("Set the Authentication of %q to the provider's credential (Predefined Credential Type), or send the key in a header", n.Name)
				if n.TypeVersion < 2 {
					fix = fmt.Sprintf("Set the Authentication of %q to Header Auth with the provider's key, or send the key in a header", n.Name)
				}
				kw, _ := n8nschema.NoKeyWhy(n)
				ours := strings.Contains(given, kw) // the refusal given is noKey's
				if unread := n8nschema.UnreadCredentials(n); len(unread) > 0 && ours {
					held := unread[0]
					fix = fmt.Sprintf("Set the Authentication of %q to the type of the credential it holds, %q (Predefined Credential Type for a provider's, Generic Credential Type for a header, query or basic one)", n.Name, held)
					if n.TypeVersion < 2 {
						fix = fmt.Sprintf("Set the Authentication of %q to the kind of the credential it holds, %q (Basic Auth, Digest Auth, Header Auth, Query Auth, OAuth1 or OAuth2)", n.Name, held)
					}
					// The owner who fills the template's credential in picks
					// it under an Authentication, which mends this.
					blankUnread = templateCredentials(n)
				} else if ours && !g.KeepsCredentials() && analyze.RunStateOf(w) != analyze.RunShown {
					// An export with no credential on any node, not shown
					// published: shared with its credentials taken out, so
					// the owner sets the key up before any run.
					keyless = true
				}
			}
			if fix != "" {
				if d.Fix != "" {
					fix += "; then " + strings.ToLower(d.Fix[:1]) + d.Fix[1:]
				}
				d.Fix = fix
			}
			if m, _, ok := n8nschema.IgnoredMethod(n); ok && !n8nschema.BrokenJSONBody(n) {
				// What n8n meets first is the GET it sends (said in the
				// message); the stored method's body comes next, then the rest.
				fix := fmt.Sprintf("Set Request Method of %q to %s (v%s reads requestMethod, not method)", n.Name, m, strconv.FormatFloat(n.TypeVersion, 'f', -1, 64))
				if n8nschema.BrokenJSONBodyAt(n, m) {
					fix += ", and write its JSON parameters as valid JSON: computed values go inside {{ }} (in quotes for text, or {{ JSON.stringify(...) }} for any value), or n8n fails it with \"is no valid JSON\" before any request"
				}
				if d.Fix != "" {
					fix += "; then " + strings.ToLower(d.Fix[:1]) + d.Fix[1:]
				}
				d.Fix = fix
			}
			if n8nschema.UnknownAuth(n) {
				// No request is built: the authentication comes before the
				// method, the URL and the key.
				a, _ := n.Param("authentication")
				fix := fmt.Sprintf("Set Authentication of %q to one HTTP Request v%s offers (None, Predefined Credential Type or Generic Credential Type; it has no %q) and pick the credential there", n.Name, strconv.FormatFloat(n.TypeVersion, 'f', -1, 64), a.Str())
				if d.Fix != "" {
					fix += "; then " + strings.ToLower(d.Fix[:1]) + d.Fix[1:]
				}
				d.Fix = fix
			}
			// The body is parsed before anything is sent (HttpRequestV2
			// L831, V3 L279), so its fix leads; an authentication the
			// version lacks comes next.
			jsonFix := ""
			switch {
			case n8nschema.BrokenJSONBody(n) && n.TypeVersion < 3:
				jsonFix = fmt.Sprintf("Write the JSON parameters of %q as valid JSON: computed values go inside {{ }} (in quotes for text, or {{ JSON.stringify(...) }} for any value), and JSON allows no trailing comma; or set Body Content Type to RAW/Custom for a body that is not JSON", n.Name)
			case n8nschema.BrokenJSONBody(n):
				jsonFix = fmt.Sprintf("Write the JSON body of %q as valid JSON: computed values go inside {{ }} (in quotes for text, or {{ JSON.stringify(...) }} for any value), and JSON allows no trailing comma", n.Name)
			}
			if jsonFix != "" {
				if n8nschema.UnknownAuth(n) {
					jsonFix += "; then " + strings.ToLower(d.Fix[:1]) + d.Fix[1:]
				}
				d.Fix = jsonFix
			}
			form := n.Type == n8nschema.TypeFormTrigger
			switch kind, ok := g.RespondMismatch(n); {
			case ok && kind == analyze.RespondMissing && form:
				d.Fix = fmt.Sprintf("Add a Respond to Webhook node after %q, or set its Respond When parameter to Form Is Submitted or Workflow Finishes", n.Name)
			case ok && kind == analyze.RespondMissing:
				d.Fix = fmt.Sprintf("Add a Respond to Webhook node after %q, or set its Respond parameter to Immediately or When Last Node Finishes", n.Name)
			case ok && kind == analyze.RespondUnsupported:
				d.Fix = fmt.Sprintf("Remove the Respond to Webhook node after %q; to answer the form, end it with an n8n Form node whose Page Type is Form Ending", n.Name)
			case ok && form:
				d.Fix = fmt.Sprintf("Set the Respond When parameter of %q to Using 'Respond to Webhook' Node, or remove the Respond to Webhook node after it", n.Name)
			case ok:
				d.Fix = fmt.Sprintf("Set the Respond parameter of %q to Using 'Respond to Webhook' Node, or remove the Respond to Webhook node after it", n.Name)
			}
			sameCause := false
			if first != nil {
				// A cause another finding of the workflow already gives
				// (Airtable v1 after Airtable v1): the owner who reads that
				// one knows the fix, so this one is said as a note.
				if said == nil {
					said = saidCauses(g, live)
				}
				cause := causeOf(given)
				other, seen := said[cause]
				if near := nearest[n]; near != nil && near != first {
					// Another failure stands between: fixing the
					// first lets the run reach that one, not this.
					d.Message += fmt.Sprintf(" (behind %q, which fails first, and %q, the failure nearest before it: this one fails the run once every failure before it is fixed", first.Name, near.Name)
				} else {
					d.Message += fmt.Sprintf(" (behind %q, which fails first: fixing that one alone leaves the run failing here", first.Name)
				}
				if seen && other != n {
					sameCause = true
					d.Message += fmt.Sprintf("; the same reason as %q", other.Name)
				} else {
					said[cause] = n
				}
				d.Message += ")"
			}
			if sameCause {
				d.Severity = analyze.Note
			}
			m, param, refused := g.StartRefused(n)
			// A sub-workflow's node whose every caller a person starts in
			// the editor (an agent behind a test chat) is watched too; a
			// refused start says what n8n does first (below). Only a node
			// no other trigger reaches can be: asked of those alone, since
			// each answer walks the workflow.
			if !othersWalked {
				viaOthers, othersWalked = analyze.ReachFrom(g, others...), true
			}
			if !byMachine.Has(n) && (first == nil || behindMachine[n] == nil) || !refused && !viaOthers.Has(n) && watched(pass, n) {
				d.Severity = analyze.Note
				if idle != nil {
					d.Message += fmt.Sprintf(" (only a manual run reaches it: %q registers no schedule)", idle.Name)
				} else {
					d.Message += " (" + byHandWhy(g, n) + ")"
				}
			}
			if refused {
				d.Fix = fmt.Sprintf("Fill in %q of %q, or remove the node if it is unfinished", param, m.Name)
				d.Stored = true // the refusal itself
			}
			if refused && d.Severity != analyze.Note {
				// n8n refuses to publish it and names the node and the
				// parameter; once published (an export shown active),
				// every run fails (workflow-execute.js checkForWorkflowIssues).
				if analyze.RunStateOf(w) == analyze.RunShown {
					d.Message += "; the export shows it active, so each of its runs fails"
				} else if g.PublishRefused() {
					d.Severity = analyze.Note
					d.Message += "; n8n refuses to publish the workflow and names the node"
				} else {
					// The publish check reads the stored parameters, where
					// the empty list n8n fills in before a run is absent,
					// or hidden by a value left at its default
					// (n8nschema.PublishMissing); the editor, whose nodes
					// carry their defaults, marks the node and disables
					// Publish (workflows.store nodesWithValidationIssues,
					// hasPublishBlockingIssues).
					d.Severity = analyze.Note
					d.Message += fmt.Sprintf("; the editor, which fills in its defaults, marks the node and will not publish the workflow, but n8n's own publish check reads the stored parameters, where %q of %q is not missing: this blank does not stop a publish through the API, and each run it then starts is refused", param, m.Name)
				}
			}
			if d.Severity != analyze.Note && g.Spec(n).Role != n8nschema.RoleTrigger && !called && loopVia == nil {
				// What the failure keeps from running may all be work
				// inside n8n: then it costs a run marked failed, not work.
				if lossBudget == nil {
					b := 4 * (len(g.Nodes) + len(g.Edges))
					lossBudget, starts = &b, map[*n8nschema.Node]bool{}
					for _, t := range all {
						starts[t] = true
					}
				}
				if loss := pass.Set.FailureLossOf(w, n, starts, lossBudget); loss.Known && loss.Outside == nil && loss.Awaited == nil && len(loss.Done) > 0 {
					d.Severity = analyze.Note
					d.Message += "; " + lossNote(pass, g, n, loss, len(names) > 0 || cut)
				}
			}
			if w.ParametersLost {
				d.Severity = analyze.Note
			}
			if keyless {
				d.Severity = analyze.Note
				d.Message += "; the export names no credential on any node and does not show the workflow active: shared without its credentials, it holds until the owner sets the key up"
			}
			if blankUnread {
				d.Severity = analyze.Note
				d.Message += "; its credential is a template's blank, and choosing one under Authentication mends this"
			}
			d.FoldKey = oneFixKey(pass, g, n, why, d.Fix, refused)
			// A credential of a type the node does not take that is a
			// template's blank: choosing one mends what this says.
			d.BlankFault = strings.HasPrefix(given, "its credential ") && strings.Contains(given, " is not of a type the node takes")
			d.FaultFirst = f.first
			pass.Report(d)
		}
		for _, n := range g.NeverTakenCandidates() {
			gd, ok := g.DecidedGate(n)
			if !ok || len(gd.Never) == 0 {
				continue
			}
			walkLive()
			if live.Has(n) {
				reportDecidedGate(pass, g, n, gd, byMachine.Has(n), live, &budget)
			}
		}
	},
}

// nodeFailure is why a node fails on every run that reaches it, in the
// words RS010's finding gives (failsIfReached).
type nodeFailure struct {
	why   string // the reason the finding gives
	given string // the reason before the rewrites (saidCauses reads it)
	// loopVia: the node's error output only leads back to it
	// (errorsLoopBack): a failure on every call goes round for ever.
	loopVia *n8nschema.Node
	fix     string // the fix the reason names first (a model to move to), or ""
	// first: the reason is a sub-node's missing credential, which the
	// node asks for when it asks its model, before its own credential
	// (a vector store gets its embeddings first: @n8n/ai-utilities
	// dist/esm/utils/vector-store/createVectorStoreNode/
	// createVectorStoreNode.js L376, L412), so the node's own missing
	// credential (analyze.Graph.BehindBlank) fails it only after.
	first bool
}

// failsIfReached reports why node n fails on every run that reaches it,
// as RS010 reports it, whether or not a run reaches it: an enabled node,
// not a sub-node, that fails on every item (analyze.Graph.FailsWhy) and
// does not hand the failure on (an error output that leads somewhere
// other than back to it), whose credential RS007 does not report and
// whose missing parameter no trigger's refusal names (namedByRefusal).
// It is the one answer Run's findings and a decided gate's (the faults
// behind its dead output, reportDecidedGate) read.
func failsIfReached(g *analyze.Graph, n *n8nschema.Node) (nodeFailure, bool) {
	if n.Disabled || g.IsSubNode(n) {
		return nodeFailure{}, false
	}
	why, ok := g.FailsWhy(n)
	if !ok {
		return nodeFailure{}, false
	}
	return failingReached(g, n, why)
}

// failingReached is failsIfReached for an enabled node, not a sub-node,
// that fails on every item for the reason why (Graph.FailsWhy).
func failingReached(g *analyze.Graph, n *n8nschema.Node, why string) (nodeFailure, bool) {
	var loopVia *n8nschema.Node
	if n.ContinuesOnFail() && !g.ErrorsGoNowhere(n) {
		if loopVia, _ = errorsLoopBack(g, n); loopVia == nil {
			return nodeFailure{}, false
		}
	}
	if _, rs007 := credentialMismatch(g, n); rs007 || namedByRefusal(g, n, why) {
		return nodeFailure{}, false
	}
	f := nodeFailure{why: why, given: why, loopVia: loopVia}
	if m, model, ok := retiredModelOf(g, n); ok {
		f.fix = fmt.Sprintf("Move %q to a model %s still serves: %q stopped answering %s", model.Name, m.Provider, m.Model, m.When())
		// A model node asks for its credential before it calls
		// the provider (n8n-core node-execution-context.js
		// getCredentials L223-233): with none, that is the
		// first failure (when the shut-down model is the reason
		// given: a memory or prompt may fail before it).
		if c, missing := g.LacksCredential(model); missing && strings.Contains(why, m.Model) {
			who := "it has"
			if model != n {
				who = fmt.Sprintf("its model %q has", model.Name)
				f.first = true
			}
			f.why = fmt.Sprintf("%s no %q credential, which it requires: n8n stops at \"Node does not have any credentials set\" before any call (and %q stopped answering %s)", who, c, m.Model, m.When())
			f.fix = fmt.Sprintf("Select a %q credential on %q; then %s", c, model.Name, strings.ToLower(f.fix[:1])+f.fix[1:])
		}
	}
	if m, def, ok := n8nschema.IgnoredMethod(n); ok && !n8nschema.BrokenJSONBody(n) {
		get := "GET, Request Method's default"
		if !def {
			get = "GET, its Request Method"
		}
		f.why += fmt.Sprintf(" (it stores \"method\": %q, which HTTP Request v%s does not read: it sends %s, with no body)", m, strconv.FormatFloat(n.TypeVersion, 'f', -1, 64), get)
	}
	return f, true
}

// lossNote says why a failure that loses no work outside n8n is a note
// (analyze.Set.FailureLossOf): the work before the node (loss.Done, not
// empty) is done, and
// neither the node nor what it keeps from running makes a call or
// writes; the run is marked failed (unless its error output leads
// nowhere), which starts the error workflow when one is set.
func lossNote(pass *analyze.Pass, g *analyze.Graph, n *n8nschema.Node, loss analyze.FailureLoss, after bool) string {
	what := "it makes no call and writes nothing outside n8n"
	if after {
		what = "neither it nor what it keeps from running makes a call or writes outside n8n"
	}
	names := make([]string, 0, 2)
	for _, x := range loss.Done[:min(len(loss.Done), 2)] {
		names = append(names, fmt.Sprintf("%q", x.Name))
	}
	more := ""
	if len(loss.Done) > 2 {
		more = fmt.Sprintf(" and %d more", len(loss.Done)-2)
	}
	done := "the work before it (" + strings.Join(names, ", ") + more + ") is done"
	cost := "a run only ends marked failed"
	if pass.Set.HasErrorWorkflow(pass.Workflow) {
		cost += ", which starts the error workflow"
	}
	if g.ErrorsGoNowhere(n) {
		cost = "a run loses no work outside n8n"
	}
	return what + ", and " + done + ": " + cost
}

// saidCauses maps the reason of each live failing node of g (quoted names
// and values blanked) to the first such node in file order.
func saidCauses(g *analyze.Graph, live analyze.Reach) map[string]*n8nschema.Node {
	said := map[string]*n8nschema.Node{}
	for _, n := range g.Nodes {
		if !live.Has(n) || n.Disabled || n.ContinuesOnFail() || g.IsSubNode(n) {
			continue
		}
		if why, ok := g.FailsWhy(n); ok {
			if c := causeOf(why); said[c] == nil {
				said[c] = n
			}
		}
	}
	return said
}

// quotedRE is a quoted name in a reason that says where the cause sits,
// not what it is: the model sub-node (its model "Chat Model1"), the
// parameter, header or field that holds it. Two reasons that differ only
// there are the same cause; a different model, missing node or value read
// is another cause, with a fix of its own.
var quotedRE = lazyregexp.New(`\b(its (?:model|embeddings|memory|tool|parameter|parameters|header|field|option) )"[^"]*"`)

// codeArgRE is a quoted argument of a call the reason quotes from code
// ($env("GOOGLE_API_KEY")): the same mistake whatever it reads.
var codeArgRE = lazyregexp.New(`\("[^"]*"\)`)

// causeOf is the key two nodes' reasons share when they fail for the
// same cause.
func causeOf(why string) string {
	return codeArgRE.ReplaceAllString(quotedRE.ReplaceAllString(why, `$1""`), `("")`)
}

// reportNoWork reports a node that runs but never does its work
// (analyze.Graph.DoesNoWork): every run goes on without it, on an answer
// that is not the node's result. A note when only a manual run reaches it.
func reportNoWork(pass *analyze.Pass, g *analyze.Graph, n *n8nschema.Node, why string, first, near *n8nschema.Node, machine bool, idle *n8nschema.Node) {
	d := analyze.Diagnostic{Node: n}
	d.Message = fmt.Sprintf("node %q does none of its work on any run that reaches it: %s", n.Name, why)
	switch {
	case first != nil && near != nil && near != first:
		d.Message += fmt.Sprintf(" (behind %q, which fails first, and %q, the failure nearest before it: once every failure before it is fixed, this node still does nothing)", first.Name, near.Name)
	case first != nil:
		d.Message += fmt.Sprintf(" (behind %q, which fails first: fixing that one alone leaves this node doing nothing)", first.Name)
	}
	d.Fix = fmt.Sprintf("Set the resource and operation of %q to ones the node offers (open it in the editor and choose them again), or replace it with the node of its current version", n.Name)
	if !machine {
		d.Severity = analyze.Note
		if idle != nil {
			d.Message += fmt.Sprintf(" (only a manual run reaches it: %q registers no schedule)", idle.Name)
		} else {
			d.Message += " (" + byHandWhy(g, n) + ")"
		}
	}
	if pass.Workflow.ParametersLost {
		d.Severity = analyze.Note
	}
	pass.Report(d)
}

// reportDecidedGate reports an If or Filter whose test reads literals
// only, or the count of the node's own input, or a count field a node
// before it caps (analyze.Graph.DecidedGate): every item leaves by one
// output, and what only the other reaches never runs, with no failed
// execution to show it. A note when only a manual trigger reaches the
// gate.
func reportDecidedGate(pass *analyze.Pass, g *analyze.Graph, n *n8nschema.Node, gd analyze.GateDecision, machine bool, live analyze.Reach, budget *int) {
	taken, test, never := gd.Taken, gd.Test, gd.Never
	// What lies behind the dead output, each node once (one seen for
	// every walk from it), nearest first.
	var behind []*n8nschema.Node
	seen := map[*n8nschema.Node]bool{n: true}
	cut := false
	for _, e := range never {
		if seen[e.To] || live.Has(e.To) {
			continue
		}
		seen[e.To] = true
		if !e.To.Disabled {
			behind = append(behind, e.To)
		}
		var c bool
		behind, c = appendNeverRun(behind, g, e.To, live, seen, budget)
		cut = cut || c
	}
	if len(behind) == 0 {
		return
	}
	names := make([]string, len(behind))
	for i, v := range behind {
		names[i] = fmt.Sprintf("%q", v.Name)
	}
	after := joinNames(names, 2) + plural(len(names), " never runs", " never run")
	if cut {
		after = joinNames(names[:min(len(names), 2)], 2) + " and more never run"
	}
	out := 0
	if taken == "false" {
		out = 1
	}
	if !slices.ContainsFunc(g.Out(n), func(e *analyze.Edge) bool { return e.Type == analyze.ConnMain && e.Output == out }) {
		taken += " output, which leads nowhere"
	} else {
		taken += " output"
	}
	d := analyze.Diagnostic{Node: n}
	d.Message = fmt.Sprintf("node %q sends every item to its %s: its test reads only literals (%s), which answer the same for every item; %s", n.Name, taken, test, after)
	d.Fix = fmt.Sprintf("Make the test of %q read the item (an expression such as {{ $json.field }} on one side), or remove the branch it never takes", n.Name)
	switch cc := gd.Cap; {
	case cc != nil:
		most := strconv.FormatFloat(cc.Bound, 'f', -1, 64) + " items"
		if cc.Bound == 1 {
			most = "1 item"
		}
		d.Message = fmt.Sprintf("node %q sends every item to its %s: its test (%s) reads %s, which node %q sets to the count of its input, at most %s: %s, so the test answers the same for every item; %s", n.Name, taken, test, cc.Field, cc.Code.Name, most, cc.How, after)
		d.Fix = fmt.Sprintf("If the test is meant to see more than %s, raise the cap at %q; else remove the branch %q never takes", most, cc.By.Name, n.Name)
	case gd.Webhook != nil:
		read := gd.Webhook.Read
		what := "sends every item to its " + taken
		if n.Type == n8nschema.TypeFilter {
			what = "keeps no item"
		}
		d.Message = fmt.Sprintf("node %q %s: its test (%s) reads %s, which the items of Webhook %q never carry: n8n's Webhook puts the request's payload under body, so the read is empty and the test fails for every item; %s", n.Name, what, test, read, gd.Webhook.Webhook.Name, after)
		d.Fix = fmt.Sprintf("Make the test of %q read the payload under body (%s), where Webhook %q puts it; else remove the branch it never takes", n.Name, gd.Webhook.Body, gd.Webhook.Webhook.Name)
	case gd.NoCondition:
		what := "sends every item to its " + taken
		if n.Type == n8nschema.TypeFilter && gd.Taken == "false" {
			what = "keeps no item"
		}
		d.Message = fmt.Sprintf("node %q %s: it has no condition, so its test answers the same for every item; %s", n.Name, what, after)
		d.Fix = fmt.Sprintf("Add the condition %q is meant to test (an expression such as {{ $json.field }} on one side), or remove the branch it never takes", n.Name)
	case gd.OwnCount:
		d.Message = fmt.Sprintf("node %q sends every item to its %s: its test is the count of the node's own input (%s), at least 1 whenever it runs, since n8n runs no node on no items, so it answers the same for every item; %s", n.Name, taken, test, after)
		d.Fix = fmt.Sprintf("To act when nothing comes, turn on Always Output Data in the node that feeds %q and test a field of its item (the empty item it then sends stands for none); else remove the branch %q never takes", n.Name, n.Name)
	}
	d.Message += faultsBehind(pass, g, behind, &d.Related)
	if !machine {
		d.Severity = analyze.Note
		d.Message += " (" + byHandWhy(g, n) + ")"
	}
	if pass.Workflow.ParametersLost {
		d.Severity = analyze.Note
	}
	pass.Report(d)
}

// faultsBehind says which of the nodes behind a decided gate's dead
// output (behind, nearest first; no run reaches them) fail on every run
// once the gate is mended and a run reaches them, for a fault of their
// own (failsIfReached): their findings are dropped while the gate holds
// them back, so the gate's finding names the first two with their
// reasons and counts the rest, and adds each as a related place.
func faultsBehind(pass *analyze.Pass, g *analyze.Graph, behind []*n8nschema.Node, related *[]analyze.Related) string {
	var b strings.Builder
	k := 0
	var firstWhy string
	for _, v := range behind {
		f, ok := failsIfReached(g, v)
		if !ok {
			continue
		}
		src := pass.File.Source
		*related = append(*related, analyze.Related{File: src.Name, Pos: v.Pos, Source: src,
			Message: fmt.Sprintf("node %q would fail on every run that reaches it, once the gate lets items through: %s", v.Name, f.why)})
		switch k++; {
		case k == 1:
			firstWhy = f.why
			fmt.Fprintf(&b, "; and behind it, %q would fail on every run: %s", v.Name, f.why)
		case k == 2 && causeOf(f.why) == causeOf(firstWhy):
			// The same cause (causeOf): said once.
			fmt.Fprintf(&b, "; so would %q, for the same reason", v.Name)
		case k == 2:
			fmt.Fprintf(&b, "; so would %q: %s", v.Name, f.why)
		}
	}
	if k > 2 {
		fmt.Fprintf(&b, "; so would %d more %s behind it", k-2, plural(k-2, "node", "nodes"))
	}
	return b.String()
}

// reportUnloadable reports a workflow n8n cannot build, at its first node
// of a type n8n does not ship. n8n names that node when it refuses to
// publish the workflow or to run it, so the person who tries sees it at
// once: a note, as for a node only a manual trigger reaches. It is a
// warning when the export shows the workflow active or published and it
// has a trigger n8n ships other than a manual one: such a workflow ran,
// and on a release that does not ship the node n8n fails to activate it
// at startup and retries in the background, so its triggers stop firing
// with no one clicking (packages/cli/src/active-workflow-manager.ts
// activateWorkflow). A trigger of a type n8n does not ship never fired,
// and a workflow with no trigger has none to stop.
func reportUnloadable(pass *analyze.Pass, g *analyze.Graph, called bool) {
	n := g.Unloadable[0]
	byHand, other, firing, onError := false, called, false, false
	for _, m := range g.Nodes {
		onError = onError || m.Type == n8nschema.TypeErrorTrigger && !m.Disabled
		switch {
		case m.Disabled:
		case analyze.ByHand(m):
			byHand = true
		case g.Spec(m).Role == n8nschema.RoleTrigger:
			other = true
			// A trigger of a type n8n does not ship never fired.
			firing = firing || !slices.Contains(g.Unloadable, m)
		case slices.Contains(g.Unloadable, m) && len(g.InOfType(m, analyze.ConnMain)) == 0 && !g.IsSubNode(m):
			other = true // a node n8n does not ship where a run would begin
		}
	}
	what := "which n8n does not ship"
	if n8nschema.RemovedIn2(n.Type) && pass.Set.Options.Version().Major >= 2 {
		what = "which n8n 2.0 removed"
	}
	ver := pass.Set.Options.Version()
	d := analyze.Diagnostic{Node: n, Severity: analyze.Note, Stored: true}
	d.Message = fmt.Sprintf("node %q is of type %q, %s", n.Name, n.Type, what)
	if vs, ok := n8nschema.MissingVersion(n, ver); ok {
		d.Message = "node " + strconv.Quote(n.Name) + missingVersion(n, vs)
	}
	// Nodes that fail for another reason than the first are named as
	// nodes n8n cannot load, not as "so is".
	mixed := false
	for _, m := range g.Unloadable[1:] {
		_, a := n8nschema.MissingVersion(m, ver)
		_, b := n8nschema.MissingVersion(n, ver)
		mixed = mixed || a != b || (m.Type == "") != (n.Type == "")
	}
	typeless, skipped := false, false
	for _, m := range g.Unloadable {
		typeless = typeless || m.Type == ""
		skipped = skipped || m.Type == "" && typeFalsy(m)
	}
	if n.Type == "" {
		d.Message = typelessNode(n)
	}
	if more, src := g.Unloadable[1:], pass.Workflow.Source; len(more) > 0 {
		names := make([]string, len(more))
		for i, m := range more {
			names[i] = fmt.Sprintf("%q", m.Name)
			msg := fmt.Sprintf("node %q is of type %q, which n8n does not ship", m.Name, m.Type)
			if t, ok := shippedAs(m.Type); ok {
				msg += fmt.Sprintf("; n8n ships it as %q", t)
			}
			if m.Type == "" {
				msg = typelessNode(m)
				if m.Name == "" {
					names[i] = fmt.Sprintf("nodes[%d]", m.Index)
				}
			}
			if vs, ok := n8nschema.MissingVersion(m, ver); ok {
				msg = "node " + strconv.Quote(m.Name) + missingVersion(m, vs)
			}
			d.Related = append(d.Related, analyze.Related{File: src.Name, Pos: m.Pos, Source: src, Message: msg})
		}
		if typeless || mixed {
			d.Message += " (nor can n8n load " + joinNames(names, 2) + ")"
		} else {
			also := " (" + plural(len(more), "so is ", "so are ") + joinNames(names, 2) + ")"
			if _, ok := n8nschema.MissingVersion(n, ver); ok {
				also = " (nor does it have " + joinNames(names, 2) + plural(len(more), " at its typeVersion)", " at their typeVersions)")
			}
			for _, m := range more {
				if what != "which n8n does not ship" && !n8nschema.RemovedIn2(m.Type) {
					// "so is" would say 2.0 removed it too.
					also = " (and " + joinNames(names, 2) + plural(len(more), " is of a type", " are of types") + " n8n does not ship)"
					break
				}
			}
			d.Message += also
		}
	}
	d.Message += ": n8n cannot build the workflow, so it refuses to publish it and fails every run before any node runs"
	if onError {
		// n8n runs no unpublished error workflow (n8n/dist/workflows/
		// workflow-execution.service.js loadErrorWorkflowData: "is not
		// active and cannot be executed"): what it loses is every report
		// of the workflows that name it.
		d.Message += "; n8n runs no unpublished error workflow, so the failures of the workflows that name it as their error workflow are reported nowhere"
	}
	// The Workflow constructor's type look-up calls endsWith on the type
	// (n8n/dist/node-types.js resolveBaseName); 2.41.1's structure check
	// wants a type that is a string (n8n-workflow
	// workflow-structure-validation.js); the editor's import keeps only the
	// nodes whose type is truthy, and the connections between the nodes it
	// keeps (n8n-editor-ui useCanvasOperations importWorkflowData).
	switch {
	case skipped:
		d.Message += "; n8n 2.41.1 refuses to import a node with no type, and the editor's import skips it with the connections to it"
	case typeless:
		d.Message += "; n8n 2.41.1 refuses to import a node whose type is not a string"
	}
	// It ran only if every such type was once shipped (a node 2.0
	// removed): with a name no release had, n8n never published it, and
	// an export's active flag is hand-written (import:workflow stores
	// every workflow inactive unless told, then publishes it through the
	// same check, packages/cli/src/services/import.service.ts).
	var never, versionless *n8nschema.Node
	for _, m := range g.Unloadable {
		if _, ok := n8nschema.MissingVersion(m, ver); ok {
			if versionless == nil {
				versionless = m
			}
			continue
		}
		if never == nil && !n8nschema.RemovedIn2(m.Type) {
			never = m
		}
	}
	switch shown := analyze.RunStateOf(pass.Workflow) == analyze.RunShown; {
	case byHand && !other:
		d.Message += " (only a manual trigger would start it)"
	case firing && shown && versionless != nil && never == nil:
		// Whether a release once built the node at that version is not
		// known: no claim that it ran, or that it never did.
		d.Message += fmt.Sprintf("; the export shows it active, but n8n %s cannot build %q at typeVersion %s", ver, versionless.Name, fmtVersion(versionless.TypeVersion))
	case firing && shown && never != nil && typeless:
		d.Message += "; the export shows it active, but n8n never publishes a workflow with a node it cannot load, so it never ran"
	case firing && shown && never != nil:
		d.Message += fmt.Sprintf("; the export shows it active, but no n8n release shipped the type of %q, so it never ran", never.Name)
	case firing && shown && !pass.Workflow.ParametersLost:
		d.Severity = analyze.Warning
		d.Message += "; the export shows it active, and n8n fails to activate it at startup, so its triggers stop firing"
	}
	// The Start node's replacements are n8n's own (the 2.0 breaking-change
	// report, packages/cli/src/modules/breaking-changes/rules/v2/start-node-removed.rule.ts).
	t, ok := shippedAs(n.Type)
	vs, noVersion := n8nschema.MissingVersion(n, ver)
	switch {
	case noVersion:
		d.Fix = fmt.Sprintf("Set the typeVersion of %q to one n8n has (%s; the newest is %s), and check its parameters at that version", n.Name, versionList(vs), fmtVersion(vs[len(vs)-1]))
	case n.Type == "" && n.Name == "":
		d.Fix = fmt.Sprintf("Give nodes[%d] back the name and type it had, or delete it and the connections to nodes that do not exist", n.Index)
	case n.Type == "":
		d.Fix = fmt.Sprintf("Give %q back the node type it had, or delete it", n.Name)
	case n.Type == n8nschema.TypeStart && (n.Disabled || len(g.OutOfType(n, analyze.ConnMain)) == 0):
		d.Fix = fmt.Sprintf("Delete the Start node %q: it starts nothing", n.Name)
	case n.Type == n8nschema.TypeStart && called:
		d.Fix = fmt.Sprintf("Replace the Start node %q with an Execute Workflow Trigger (n8n-nodes-base.executeWorkflowTrigger), since another workflow calls this one", n.Name)
	case n.Type == n8nschema.TypeStart:
		d.Fix = fmt.Sprintf("Replace the Start node %q with a Manual Trigger (n8n-nodes-base.manualTrigger)", n.Name)
	case ok:
		d.Fix = fmt.Sprintf("Set the type of %q to %q, the spelling n8n ships", n.Name, t)
	default:
		d.Fix = fmt.Sprintf("Replace %q with a node of a type n8n ships, or of an installed community package (whose types name that package)", n.Name)
	}
	// Every other node whose type n8n ships in another spelling is named
	// with it, not only the first.
	var also []string
	rest := 0
	for _, m := range g.Unloadable[1:] {
		if t, ok := shippedAs(m.Type); ok {
			also = append(also, fmt.Sprintf("set the type of %q to %q", m.Name, t))
		} else if vs, ok := n8nschema.MissingVersion(m, ver); ok {
			also = append(also, fmt.Sprintf("set the typeVersion of %q to one n8n has (%s)", m.Name, versionList(vs)))
		} else {
			rest++
		}
	}
	if rest > 0 {
		which := " of a type n8n does not ship"
		if typeless {
			which = " n8n cannot load"
		}
		also = append(also, "replace the other "+plural(rest, "node", fmt.Sprintf("%d nodes", rest))+which)
	}
	if len(also) > 0 {
		d.Fix += "; also " + strings.Join(also, "; ")
	}
	pass.Report(d)
}

// shippedAs is the type n8n ships for a type it does not: the same name in
// other letter case ("n8n-nodes-base.mongodb" for "n8n-nodes-base.mongoDb"),
// or a type written without its package ("httpRequest").
func shippedAs(typ string) (string, bool) {
	t, ok := n8nschema.ShippedSpelling(typ)
	if !ok && !strings.Contains(typ, ".") && typ != "" {
		// The type without its package: the package's own, if it has one.
		for _, pkg := range []string{"n8n-nodes-base.", "@n8n/n8n-nodes-langchain."} {
			if _, known := n8nschema.DescribeNode(pkg+typ, 0); known && !ok {
				t, ok = pkg+typ, true
			}
		}
	}
	return t, ok
}

// oneFixKey returns the FoldKey of a finding whose one fix mends the
// failures of other nodes of its workflow too (analyze.Fold reports them
// once, at the first, the others as related places): a shut-down model
// that is the reason given and whose fix is to move it (the model
// sub-nodes or app nodes that call it are changed alike, so several
// chains with models of their own that call one retired id are one fix).
// A finding whose node needs a fix of its own first (a credential, a
// prompt, a URL) has none, nor does a trigger a blank keeps from starting:
// each trigger's finding says what that trigger's runs are (a schedule n8n
// refuses to publish, a manual run), which one kept finding would lose.
// The key names the file and the workflow in it, so copies of a workflow
// in other files are reported each where it stands.
func oneFixKey(pass *analyze.Pass, g *analyze.Graph, n *n8nschema.Node, why, fix string, refused bool) string {
	if refused {
		return ""
	}
	w := pass.Workflow
	wf := pass.File.Source.Name + "\x01" + w.Path + "\x01" + w.ID
	if m, _, ok := retiredModelOf(g, n); ok && strings.Contains(why, m.Model) && strings.HasPrefix(fix, "Move ") {
		return "model\x00" + wf + "\x00" + m.Provider + "\x00" + m.Model
	}
	return ""
}

// foldMore words what a finding that others folded into (oneFixKey) says
// of them: how many more nodes call the model.
func foldMore(key string, n int) string {
	last := key[strings.LastIndexByte(key, 0)+1:]
	return fmt.Sprintf("; %d more %s of the workflow %s %q", n, plural(n, "node", "nodes"), plural(n, "calls", "call"), last)
}

// retiredModelOf reports the shut-down model a failing node calls, itself
// or through the chat model it is wired to, and the node that names it.
func retiredModelOf(g *analyze.Graph, n *n8nschema.Node) (n8nschema.RetiredModel, *n8nschema.Node, bool) {
	if m, ok := n8nschema.RetiredModelCall(n); ok {
		return m, n, true
	}
	for _, e := range g.InOfType(n, analyze.ConnModel) {
		if m, ok := n8nschema.RetiredModelCall(e.From); ok && !e.From.Disabled {
			return m, e.From, true
		}
	}
	if emb, ok := g.RefusedEmbedder(n); ok {
		if m, ok := n8nschema.RetiredModelCall(emb); ok {
			return m, emb, true
		}
	}
	return n8nschema.RetiredModel{}, nil, false
}

// typeFalsy reports a node whose "type" the editor's import reads as
// false (missing, null, "", 0 or false) and so skips.
func typeFalsy(n *n8nschema.Node) bool {
	switch t := n.Value.Get("type"); t.Kind() {
	case n8nschema.Missing, n8nschema.Null:
		return true
	case n8nschema.String:
		return t.Str() == ""
	case n8nschema.Number:
		v, _ := t.Num()
		return v == 0
	case n8nschema.Bool:
		return !t.True()
	}
	return false
}

// typelessNode says that node n has no type: none, or a "type" that is
// no string.
func typelessNode(n *n8nschema.Node) string {
	what := fmt.Sprintf("node %q", n.Name)
	if n.Name == "" {
		what = fmt.Sprintf("nodes[%d], which has no name,", n.Index)
	}
	if t := n.Value.Get("type"); t.Exists() && t.Kind() != n8nschema.String {
		return what + ` has a "type" that is not a node type name`
	}
	return what + " has no node type"
}

// neverRunAfter names, quoted and nearest first, the enabled nodes after n
// along main connections that nothing else runs (not in live); cut when
// the budget of edges to read ran out first.
//
// The walk goes on through a Merge that a run reaches but that outputs
// nothing on any run, an input it needs being fed by no run
// (analyze.Graph.StarvedInput) where the walk comes in: what only it
// leads to never runs either, and starved names it, with that input.
func neverRunAfter(g *analyze.Graph, n *n8nschema.Node, live analyze.Reach, budget *int) (names []string, starved *analyze.Edge, cut bool) {
	var merges []*analyze.Edge
	after, cut := appendNeverRunVia(nil, g, n, live, map[*n8nschema.Node]bool{n: true}, budget, &merges)
	for _, v := range after {
		names = append(names, fmt.Sprintf("%q", v.Name))
	}
	if len(merges) > 0 {
		starved = merges[0]
	}
	return names, starved, cut
}

// appendNeverRun appends to nodes, nearest first, the enabled nodes after
// n along main connections that nothing else runs (not in live) and that
// are not in seen, marking each it passes in seen (so that walks that
// share seen read each node once); cut when the budget of edges to read
// ran out first.
func appendNeverRun(nodes []*n8nschema.Node, g *analyze.Graph, n *n8nschema.Node, live analyze.Reach, seen map[*n8nschema.Node]bool, budget *int) ([]*n8nschema.Node, bool) {
	return appendNeverRunVia(nodes, g, n, live, seen, budget, nil)
}

// appendNeverRunVia is appendNeverRun that, given merges, also walks
// through each Merge it meets by an input no run feeds and that the Merge
// needs (analyze.Graph.StarvedInput), appending the connection to merges.
func appendNeverRunVia(nodes []*n8nschema.Node, g *analyze.Graph, n *n8nschema.Node, live analyze.Reach, seen map[*n8nschema.Node]bool, budget *int, merges *[]*analyze.Edge) ([]*n8nschema.Node, bool) {
	queue := []*n8nschema.Node{n}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, e := range g.Out(u) {
			if *budget--; *budget < 0 {
				return nodes, true
			}
			v := e.To
			if e.Type != analyze.ConnMain || seen[v] {
				continue
			}
			if live.Has(v) {
				if merges != nil && g.StarvedInput(v, e.Input) {
					seen[v] = true
					queue = append(queue, v)
					*merges = append(*merges, e)
				}
				continue
			}
			seen[v] = true
			queue = append(queue, v)
			if !v.Disabled {
				nodes = append(nodes, v)
			}
		}
	}
	return nodes, false
}

// reportSessionless reports an AI Agent that fails on the items some of
// its inputs bring (analyze.Graph.SessionlessFrom): its memory finds no
// session ID in them. It is a note when only a manual trigger reaches
// those inputs.
func reportSessionless(pass *analyze.Pass, g *analyze.Graph, n *n8nschema.Node, from []*n8nschema.Node, why string, live, byMachine analyze.Reach) {
	names, machine := liveNames(from, live, byMachine)
	if len(names) == 0 {
		return
	}
	d := analyze.Diagnostic{Node: n}
	if mem, ok := g.SessionMemory(n); ok {
		d.Fix = sessionFix(mem, n)
	}
	d.Message = fmt.Sprintf("node %q fails on every item %s %s it: %s; those runs stop there", n.Name, joinNames(names, 2), plural(len(names), "sends", "send"), why)
	if !machine {
		d.Severity = analyze.Note
		d.Message += " (only a manual trigger reaches it)"
	}
	if pass.Workflow.ParametersLost {
		d.Severity = analyze.Note
	}
	pass.Report(d)
}

// liveNames quotes the names of the nodes of from that a run reaches
// (live), and says whether a machine starts one of them (byMachine).
func liveNames(from []*n8nschema.Node, live, byMachine analyze.Reach) (names []string, machine bool) {
	for _, f := range from {
		if live.Has(f) {
			names = append(names, strconv.Quote(f.Name))
			machine = machine || byMachine.Has(f)
		}
	}
	return names, machine
}

// reportFieldThrow reports a Code or Function node whose code throws on
// the items of some of the triggers that feed it straight, not on its
// other inputs' (analyze.Graph.TriggerFieldThrow): the runs those
// triggers start stop there. At the line of its code.
func reportFieldThrow(pass *analyze.Pass, n *n8nschema.Node, trigs []*n8nschema.Node, why string, code n8nschema.Value, live, byMachine analyze.Reach) {
	names, machine := liveNames(trigs, live, byMachine)
	if len(names) == 0 {
		return
	}
	d := analyze.Diagnostic{Node: n, Pos: code.Pos(), Fix: fieldThrowFix(n, trigs)}
	d.Message = fmt.Sprintf("node %q fails on every run that reaches it from %s %s: %s; those runs stop there", n.Name, plural(len(names), "trigger", "triggers"), joinNames(names, 2), why)
	if !machine {
		d.Severity = analyze.Note
		d.Message += " (only a manual trigger reaches it)"
	}
	if pass.Workflow.ParametersLost {
		d.Severity = analyze.Note
	}
	pass.Report(d)
}

// fieldThrowFix tells how to mend code that reads a field its
// triggers' items lack.
func fieldThrowFix(n *n8nschema.Node, trigs []*n8nschema.Node) string {
	return fmt.Sprintf("Make the code of %q read the fields the items of %q carry (a Webhook's request fields are under body), or set the field in an Edit Fields node between them, or guard the read with ?. or a default", n.Name, trigs[0].Name)
}

// reportJoinRead reports, as a note of medium confidence, a node that
// under the v1 order reads a sibling branch not run yet on the runs where
// the branch above passes it an item (analyze.Graph.LaterSiblingRead, not
// Sure): that branch may output none (an HTTP Request's JSON answer that
// is an empty array, a read that finds nothing), and then the node first
// runs after the one it reads. Those runs stop at it.
func reportJoinRead(pass *analyze.Pass, g *analyze.Graph, n *n8nschema.Node, jr analyze.JoinRead, machine bool) {
	may := fmt.Sprintf("%q may output no item (a read that finds nothing gives none)", jr.Above.Name)
	if n8nschema.IsHTTPRequest(jr.Above.Type) {
		may = fmt.Sprintf("%q may output no item (its JSON answer gives one item per element when it is an array, none for [])", jr.Above.Name)
	}
	d := analyze.Diagnostic{Node: n, Severity: analyze.Note, Confidence: analyze.Medium, Fix: joinReadFix(n, jr)}
	d.Message = fmt.Sprintf("node %q fails on every run where %q outputs an item: %s; the execution stops there. %s, and then %q first runs after %q", n.Name, jr.Above.Name, jr.Why(), may, n.Name, jr.Name)
	if jr.Via != nil {
		// A reader below a join of the branches (JoinRead.Via): an item
		// may leave the upper branch before it, by a gate or none output.
		d.Message = fmt.Sprintf("node %q fails on every run where an item of %q reaches it: %s; the execution stops there. %q joins the branches on one input and runs once per branch: when no item of %q reaches %q (a gate on the way sends it elsewhere, or a node outputs none), %q runs after %q", n.Name, jr.Above.Name, jr.Why(), jr.Via.Name, jr.Above.Name, n.Name, n.Name, jr.Name)
	}
	if !machine {
		d.Message += " (" + byHandWhy(g, n) + ")"
	}
	pass.Report(d)
}

// joinReadFix tells how to have a node read a sibling branch after it ran.
func joinReadFix(n *n8nschema.Node, jr analyze.JoinRead) string {
	return fmt.Sprintf("Join the branches under %q in a Merge node with one input per branch before %q (it waits for all of them), or run them one after another, so that %q has run when %q reads it; or guard the read with $(%q).isExecuted", jr.From.Name, n.Name, jr.Name, n.Name, jr.Name)
}

// sessionFix tells how to give an agent's memory a session ID.
func sessionFix(mem, agent *n8nschema.Node) string {
	return fmt.Sprintf("Set Session ID of %q to Define below with a key each conversation has (a chat or sender id from the trigger), or set a sessionId field in the items before %q", mem.Name, agent.Name)
}

// reportExcluded reports, at its first such node, a workflow that holds a
// node n8n 2 leaves out by default (n8nschema.ExcludedByDefault): on a
// default install n8n cannot build it, as for a type it does not ship.
// The instance may set NODES_EXCLUDE to load the node, which an export
// does not show: a note, and the rest of the workflow is judged as if it
// loads.
func reportExcluded(pass *analyze.Pass, g *analyze.Graph) {
	v := pass.Set.Options.Version()
	for _, n := range g.Nodes {
		if !n8nschema.ExcludedByDefault(n.Type, v) {
			continue
		}
		pass.Report(analyze.Diagnostic{Node: n, Severity: analyze.Note, Stored: true,
			Message: fmt.Sprintf("node %q is of type %q, which n8n 2 leaves out by default (NODES_EXCLUDE): on a default n8n 2 install n8n cannot build the workflow, so it refuses to publish it and fails every run before any node runs, unless the instance sets NODES_EXCLUDE to a list without it", n.Name, n.Type),
			Fix:     fmt.Sprintf("Replace %q with a node n8n 2 loads by default, or set NODES_EXCLUDE on the instance to a list without %q (NODES_EXCLUDE=[] loads every node)", n.Name, n.Type),
		})
		return
	}
}

// reportBlockedByDefault reports, once per workflow each, at its first
// such node, an enabled node some run reaches (LiveFrom, or behind a node
// that fails: BehindFrom) that does not continue on fail and surely calls
// require() in its code (analyze.BlockedRequire: every n8n release's
// sandbox refuses a module its allow list, empty by default, does not
// name), or on n8n 2 and later reads $env (Graph.EnvRead: blocked unless
// N8N_BLOCK_ENV_ACCESS_IN_NODE is "false"). The instance's environment
// decides, which an export does not show, so each is a note, and the rest
// of the workflow is judged as if the read succeeded: the owner may have
// set the variable.
func reportBlockedByDefault(pass *analyze.Pass, g *analyze.Graph, starts []*n8nschema.Node) {
	var reached analyze.Reach
	var behind map[*n8nschema.Node]*n8nschema.Node
	walked := false // reached and behind read (behind is nil when no node fails on every item)
	runs := func(n *n8nschema.Node) bool {
		if n.Disabled || n.ContinuesOnFail() {
			return false
		}
		if !walked {
			reached, behind, walked = analyze.LiveFrom(g, starts...), analyze.BehindFrom(g, starts...), true
		}
		_, later := behind[n]
		return reached.Has(n) || later
	}
	var reqAt *n8nschema.Node
	var reqModule string
	reqMore := 0
	for _, n := range g.Nodes {
		if n8nschema.IsCode(n.Type) && !n.Disabled {
			if m, ok := analyze.BlockedRequire(n); ok && runs(n) {
				if reqAt == nil {
					reqAt, reqModule = n, m
				} else {
					reqMore++
				}
			}
		}
	}
	if reqAt != nil {
		what, vars := "require()", "NODE_FUNCTION_ALLOW_BUILTIN or NODE_FUNCTION_ALLOW_EXTERNAL"
		allow := "the module"
		if reqModule != "" {
			shown := shortName(reqModule)
			what = fmt.Sprintf("require(%q)", shown)
			allow = strconv.Quote(shown)
			if analyze.IsNodeBuiltin(reqModule) {
				vars = "NODE_FUNCTION_ALLOW_BUILTIN"
			} else {
				vars = "NODE_FUNCTION_ALLOW_EXTERNAL"
			}
		}
		// The Function nodes run in vm2 (nodes-base dist/nodes/Function/
		// Function.node.js L127), whose resolver throws "Cannot find
		// module" (vm2/lib/resolver.js); the Code node's task runner
		// throws DisallowedModuleError.
		thrown := "Module ... is disallowed"
		if reqAt.Type != n8nschema.TypeCode {
			thrown = "Cannot find module ..."
		}
		msg := fmt.Sprintf("node %q calls %s at the top of its code, outside any try: on a default n8n install the code's sandbox allows no module (its allow lists are empty), so the call throws %q and the node fails on every run that reaches it, unless the instance sets %s to a list with %s", reqAt.Name, what, thrown, vars, allow)
		if reqMore > 0 {
			msg += fmt.Sprintf(" (%d more %s require() so)", reqMore, plural(reqMore, "node calls", "nodes call"))
		}
		pass.Report(analyze.Diagnostic{Node: reqAt, Severity: analyze.Note,
			Message: msg,
			Fix:     fmt.Sprintf("Set %s on the instance to a list with %s (\"*\" allows all), or do the work without the module: an HTTP Request, Crypto, XML or Date & Time node, or the helpers n8n gives code", vars, allow),
		})
	}
	if pass.Set.Options.Version().Major < 2 {
		return // n8n 1.x let nodes read $env by default
	}
	var envAt *n8nschema.Node
	var envWhere, envKey string
	envMore := 0
	for _, n := range g.Nodes {
		if n.Disabled {
			continue
		}
		where, key, ok := g.EnvRead(n)
		if !ok || !runs(n) {
			continue
		}
		if envAt == nil {
			envAt, envWhere, envKey = n, where, key
		} else {
			envMore++
		}
	}
	if envAt != nil {
		read := "$env"
		if envIdentRE.MatchString(envKey) {
			read = "$env." + shortName(envKey)
		}
		in := "its code"
		if envWhere != "code" {
			in = fmt.Sprintf("parameter %q", shortName(envWhere))
		}
		msg := fmt.Sprintf("node %q reads %s in %s: on a default n8n 2 install nodes may not read environment variables (N8N_BLOCK_ENV_ACCESS_IN_NODE unset counts as true), so the read throws \"access to env vars denied\" and the node fails on every run that reaches it, unless the instance sets N8N_BLOCK_ENV_ACCESS_IN_NODE=false", envAt.Name, read, in)
		if envMore > 0 {
			msg += fmt.Sprintf(" (%d more %s $env so)", envMore, plural(envMore, "node reads", "nodes read"))
		}
		pass.Report(analyze.Diagnostic{Node: envAt, Severity: analyze.Note,
			Message: msg,
			Fix:     "Set N8N_BLOCK_ENV_ACCESS_IN_NODE=false on the instance, or keep the value in a credential the node takes (or in the node itself) instead of the environment",
		})
	}
}

// envIdentRE matches an environment variable's name worth printing: a
// plain identifier.
var envIdentRE = lazyregexp.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

// shortName cuts s to a length a message can hold.
func shortName(s string) string {
	const max = 60
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// namedByRefusal reports a node whose own failure is the missing
// parameter a trigger's refusal names (OpenAI v1's modelId): that
// finding names it and its fix.
func namedByRefusal(g *analyze.Graph, n *n8nschema.Node, why string) bool {
	param, ok := g.RefusalNames(n)
	return ok && strings.Contains(why, param)
}

// fileAnswerSource is the file response whose answer n's text reads,
// or nil.
func fileAnswerSource(g *analyze.Graph, n *n8nschema.Node) *n8nschema.Node {
	src, _ := g.FileAnswerSource(n)
	return src
}

// webhookPromptField is the field n's prompt reads off a Webhook item's
// top level, where that leaves the prompt undefined, or "".
func webhookPromptField(g *analyze.Graph, n *n8nschema.Node) string {
	f, _ := g.WebhookPromptField(n)
	return f
}

// rootStops reports a tool's root that never calls it: the root fails on
// every run (its prompt, its memory, a shut-down model: Graph.FailsWhy),
// every run reaches it only past a node that does (FailsBefore), or n8n
// refuses the runs that reach it (RefusedRun); RS010 says which.
func rootStops(g *analyze.Graph, root *n8nschema.Node) bool {
	if _, fails := g.FailsWhy(root); fails {
		return true
	}
	if _, behind := g.FailsBefore(root); behind {
		return true
	}
	_, _, _, _, refused := g.RefusedRun(root)
	return refused
}

// reportToolBlanks reports each enabled tool (a node connected to its
// root by ai_tool: a <type>Tool variant, an HTTP Request Tool, a Call
// n8n Workflow Tool) that misses a required parameter
// (n8nschema.MissingRequired). n8n refuses to publish the workflow for it,
// as for any connected node (validateNodeConfiguration), but refuses no
// run: a run's check reads its start and the nodes after it along main
// connections, not a sub-node (n8n-core workflow-execute.js
// checkReadyForExecution, getChildNodes). A run started in the editor
// goes on, and the tool is called with the parameter empty: a call that
// fails is handed back to the root as the tool's answer (workflow-execute.js
// handleNodeExecutionError for a variant under an AI Agent from v3; before,
// the AgentExecutor of @langchain/classic agents/executor.cjs catches it
// and answers nothing; a tool node of its own answers in its own way), so
// the run is not failed. A tool's own name left empty (toolName) is what
// the model is offered: only the refusal is told. A note, as RS010 is for a refused publish;
// the workflow's other findings say they hold once it is filled in
// (analyze.RequiredClause).
func reportToolBlanks(pass *analyze.Pass, g *analyze.Graph) {
	w := pass.Workflow
	for _, n := range g.Nodes {
		// A tool feeds its root by ai_tool: a sub-node (most nodes are not).
		if n.Disabled || !g.IsSubNode(n) || len(g.OutOfType(n, analyze.ConnTool)) == 0 {
			continue
		}
		// What the publish check finds: no run's check reads a tool, and
		// an absent multiOptions is no issue there (PublishMissing).
		param, ok := n8nschema.PublishMissing(n, w.ParametersLost)
		if !ok {
			continue
		}
		root := g.Root(n)
		// The tool's own name (a Vector Store's toolName in v1) is what
		// the model is offered, not a value a call reads: what an empty
		// one does is the provider's to say, so only the refusal is told.
		runs := root != nil && !root.Disabled && g.Reachable(root) && param != "toolName" && param != "name" && !rootStops(g, root)
		shown := analyze.RunStateOf(w) == analyze.RunShown
		if shown && !runs {
			continue // published: no refusal to name, and no run calls it
		}
		d := analyze.Diagnostic{Node: n, Severity: analyze.Note, Stored: true,
			Fix: fmt.Sprintf("Fill in %q of %q, or remove the tool if it is unfinished", param, n.Name)}
		d.Message = fmt.Sprintf("tool %q misses its required parameter %q, so n8n refuses to publish the workflow and names the node", n.Name, param)
		if shown {
			d.Message = fmt.Sprintf("tool %q misses its required parameter %q, which n8n refuses to publish, but the export shows the workflow active", n.Name, param)
		}
		if runs {
			how := "a run started in the editor goes on"
			if shown {
				how = "its runs go on"
			}
			d.Message += fmt.Sprintf("; no run is refused for it (n8n checks only the nodes after a run's trigger along main connections), so %s and %q calls the tool with %q empty", how, root.Name, param)
			// What an agent's model reads back from a variant's failed
			// call: from v3 the engine runs the tool and hands the agent
			// the error; before, the AgentExecutor drops the error and
			// answers nothing. A tool node of its own answers in its own way.
			answer := ""
			if n8nschema.ToolVariant(n.Type) && root.Type == n8nschema.TypeAgent {
				answer = " (the error)"
				if root.TypeVersion < 3 {
					answer = " (an empty one: the agent before v3 drops the error)"
				}
			}
			if e, ok := n8nschema.EmptyRequiredError(n, param); ok {
				d.Message += fmt.Sprintf(": every call fails (%q); %q gets each failure as the tool's answer%s and the run goes on", e, root.Name, answer)
			} else {
				d.Message += fmt.Sprintf("; a call that fails is handed to %q as the tool's answer%s and the run goes on", root.Name, answer)
			}
		}
		pass.Report(d)
	}
}

// templateCredentials reports a node whose every credential entry is a
// template's blank (n8nschema.TemplateCredential, not stored by name).
func templateCredentials(n *n8nschema.Node) bool {
	for _, t := range n.Credentials {
		if b, ok := n8nschema.TemplateCredential(n, t); !ok || b.ByName() {
			return false
		}
	}
	return len(n.Credentials) > 0
}
