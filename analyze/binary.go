package analyze

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// A node that reads a binary field its items cannot carry (missingBinary).
//
// n8n reads a named binary field of an item through assertBinaryData
// (n8n-core/dist/execution-engine/node-execution-context/utils/binary-helper-functions.js
// L32-69): in the default binary mode ("separate") it throws "This
// operation expects the node's input data to contain a binary file ...,
// but none was found" when the item has no binaries (L56), and "The
// item has no binary field ..." when it has none of that name (L63).

// nonWord is JavaScript's /\W/g: ASCII only, so every other character,
// accented or not, is not a word character either.
var nonWord = regexp.MustCompile(`[^A-Za-z0-9_]`)

// maxBinaryFeedDepth bounds how far back through pass-through nodes
// binaryKeys looks.
const maxBinaryFeedDepth = 8

// binaryType reports a type binaryRead (missingBinary) judges.
func binaryType(typ string) bool {
	switch typ {
	case "n8n-nodes-base.extractFromFile", "n8n-nodes-base.spreadsheetFile", "n8n-nodes-base.httpRequest":
		return true
	}
	return false
}

// binaryRead is the literal binary field name node nd reads on every
// item, for the nodes whose code was read; ok false when it is not known
// (an expression, an operation that reads no file):
//
//   - Extract from File (every operation: Files/ExtractFromFile/actions/
//     spreadsheet.operation.js via SpreadsheetFile/v2/fromFile.operation.js
//     L69-70, moveTo.operation.js L100-105, pdf.operation.js L89 through
//     utils/binary.js L106), binaryPropertyName, default "data";
//   - Spreadsheet File at fromFile, its default operation
//     (SpreadsheetFile/v1/SpreadsheetFileV1.node.js L40-42,
//     v2/fromFile.operation.js L69-70; description.js L25-30);
//   - HTTP Request v3+ sending a binary body (HttpRequest/V3/HttpRequestV3.node.js
//     L300-304: contentType "binaryData", inputDataFieldName, for any
//     method but HEAD, OPTIONS and TRACE, L32).
func binaryRead(nd *n8nschema.Node) (string, bool) {
	lit := func(path, def string) (string, bool) {
		v, has := nd.Param(path)
		if !has {
			return def, def != ""
		}
		if v.Kind() != n8nschema.String || v.IsExpr() {
			return "", false
		}
		return v.Str(), v.Str() != ""
	}
	switch nd.Type {
	case "n8n-nodes-base.extractFromFile":
		return lit("binaryPropertyName", "data")
	case "n8n-nodes-base.spreadsheetFile":
		if op, ok := lit("operation", "fromFile"); !ok || op != "fromFile" {
			return "", false
		}
		return lit("binaryPropertyName", "data")
	case "n8n-nodes-base.httpRequest":
		if nd.TypeVersion < 3 {
			return "", false
		}
		if sb, has := nd.Param("sendBody"); !has || sb.Kind() != n8nschema.Bool || !sb.True() {
			return "", false
		}
		if ct, ok := lit("contentType", ""); !ok || ct != "binaryData" {
			return "", false
		}
		if m, ok := lit("method", "GET"); !ok || m == "HEAD" || m == "OPTIONS" || m == "TRACE" {
			return "", false
		}
		return lit("inputDataFieldName", "")
	}
	return "", false
}

// formKey is the binary key pattern of one file field of a Form Trigger.
type formKey struct {
	key   string // the field's identifier with every non-word character replaced
	label string // the identifier as written
}

// formFileKeys reads the binary keys an enabled Form Trigger's items may
// carry (Form/utils/utils.js prepareFormReturnItem L403-461): one per file
// field, its identifier with /\W/g replaced by "_" (L457), and with "_0",
// "_1", ... when the upload arrives as a list (L458-460). The identifier
// is the field's label below v2.4, and its fieldName from v2.4 when that
// is set (getFieldIdentifier L241-246). ok false when a field's type or
// identifier is not a literal.
func formFileKeys(nd *n8nschema.Node) ([]formKey, bool) {
	fs, has := nd.Param("formFields.values")
	if !has {
		return nil, true
	}
	if fs.Kind() != n8nschema.Array {
		return nil, false
	}
	var keys []formKey
	for _, f := range fs.ElemsSeq() {
		t := f.Get("fieldType")
		if !t.Exists() {
			continue // text, the default
		}
		if t.Kind() != n8nschema.String || t.IsExpr() {
			return nil, false
		}
		if t.Str() != "file" {
			continue
		}
		id := ""
		name, label := f.Get("fieldName"), f.Get("fieldLabel")
		switch {
		case nd.TypeVersion >= 2.4 && name.Exists() && (name.Kind() != n8nschema.String || name.Str() != ""):
			id = name.Str()
			if name.Kind() != n8nschema.String || name.IsExpr() {
				return nil, false
			}
		case label.Exists():
			if label.Kind() != n8nschema.String || label.IsExpr() {
				return nil, false
			}
			id = label.Str()
		default:
			if name.Exists() && (name.Kind() != n8nschema.String || name.IsExpr()) {
				return nil, false
			}
			id = name.Str()
		}
		keys = append(keys, formKey{key: nonWord.ReplaceAllString(id, "_"), label: id})
	}
	return keys, true
}

// binaryFeed is what binaryKeys learns of the binaries reaching a node.
type binaryFeed struct {
	keys  []formKey
	forms []*n8nschema.Node
}

// binaryKeys reports the binary keys items leaving node i may carry,
// when every path to it starts at a Form Trigger whose file fields are
// literals and passes only If, Switch, Filter and No Operation nodes,
// which pass their items on unchanged. Any other node may add binaries
// (a Code node, an HTTP download, Convert to File), and then nothing is
// known.
func (g *Graph) binaryKeys(i int, feed *binaryFeed, seen map[int]bool, depth int) bool {
	if seen[i] {
		return true // a cycle adds no source of its own
	}
	seen[i] = true
	nd := g.Nodes[i]
	if nd.Disabled || depth > maxBinaryFeedDepth {
		return false
	}
	switch nd.Type {
	case n8nschema.TypeFormTrigger:
		keys, ok := formFileKeys(nd)
		if !ok {
			return false
		}
		feed.keys = append(feed.keys, keys...)
		feed.forms = append(feed.forms, nd)
		return true
	case n8nschema.TypeIf, n8nschema.TypeSwitch, n8nschema.TypeFilter, n8nschema.TypeNoOp:
		return g.everyMainInput(i, func(e *Edge) bool {
			return !e.Error && g.binaryKeys(int(e.from), feed, seen, depth+1)
		})
	}
	return false
}

// carries reports whether a key in keys may be name: the key itself, or
// the key of a list upload ("key_0").
func carries(keys []formKey, name string) bool {
	for _, k := range keys {
		if name == k.key {
			return true
		}
		if rest, ok := strings.CutPrefix(name, k.key+"_"); ok && rest != "" && strings.Trim(rest, "0123456789") == "" {
			return true
		}
	}
	return false
}

// missingBinary judges a node that reads a literal binary field
// (binaryRead) which no item it is fed can carry, in the default binary
// mode: every path to it starts at a Form Trigger whose file fields are
// known (binaryKeys), and the name is none of their keys. The name as the
// form shows it ("Bank statement (CSV)") is not the key n8n stores it
// under ("Bank_statement__CSV_"). n8n throws on every item before the
// node sends anything.
func (g *Graph) missingBinary(i int) (string, bool) {
	nd := g.Nodes[i]
	if nd.Disabled {
		return "", false
	}
	name, ok := binaryRead(nd)
	if !ok {
		return "", false
	}
	if g.Workflow != nil {
		// "combined" keeps files in the JSON; the default is "separate"
		// (binary-helper-functions.js L32, n8n-workflow constants.js L174-175).
		if m := g.Workflow.Settings.Value.Get("binaryMode"); m.Exists() && (m.Kind() != n8nschema.String || m.Str() != "separate") {
			return "", false
		}
	}
	feed := &binaryFeed{}
	seen := map[int]bool{}
	if !g.everyMainInput(i, func(e *Edge) bool { return !e.Error && g.binaryKeys(int(e.from), feed, seen, 0) }) {
		return "", false
	}
	if carries(feed.keys, name) {
		return "", false
	}
	src := "Form Trigger " + strconv.Quote(feed.forms[0].Name)
	if len(feed.forms) > 1 {
		src = "its Form Triggers"
	}
	if len(feed.keys) == 0 {
		return "it reads the binary field " + strconv.Quote(name) + ", but the only items it is fed come from " + src + ", which has no file field: n8n stops at \"This operation expects the node's input data to contain a binary file\" before anything is sent", true
	}
	var stored []string
	for j, k := range feed.keys {
		if j == 4 {
			stored = append(stored, "and "+strconv.Itoa(len(feed.keys)-j)+" more")
			break
		}
		s := strconv.Quote(k.key)
		if k.label != k.key {
			s += " for " + strconv.Quote(k.label)
		}
		stored = append(stored, s)
	}
	return "it reads the binary field " + strconv.Quote(name) + ", but the only files it is fed are the uploads of " + src + ", which n8n stores under " + strings.Join(stored, ", ") + " (each non-word character of a field's name becomes \"_\"): n8n stops at \"The item has no binary field\" before anything is sent", true
}
