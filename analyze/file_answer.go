package analyze

import (
	"fmt"
	"strings"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// An HTTP Request whose response format is file puts the answer in binary
// data, never in the item's JSON: that is the item the request was sent
// for, or, with Include Response Headers and Status on, only the
// response's headers, statusCode and statusMessage
// (n8n-nodes-base/dist/nodes/HttpRequest/V3/HttpRequestV3.node.js
// L720-748; V2/HttpRequestV2.node.js L1030-1062). A node after it that
// reads a field of the answer off $json reads undefined.

// fileResponse reads an enabled HTTP Request whose response format is
// "file" as written (v1 and v2: responseFormat; v3 on:
// options.response.response.responseFormat, which defaults to
// autodetect and is not judged), with no pagination. full is true when
// the item's JSON is the response's headers and status only.
func fileResponse(nd *n8nschema.Node) (full, ok bool) {
	if nd.Disabled || nd.Type != n8nschema.TypeHTTPRequest {
		return false, false
	}
	p := nd.Params()
	format, fullAt := p.Get("responseFormat"), p.Get("options.fullResponse")
	if nd.TypeVersion >= 3 {
		format, fullAt = p.Get("options.response.response.responseFormat"), p.Get("options.response.response.fullResponse")
		if m := p.Get("options.pagination.pagination.paginationMode"); m.Exists() && (m.Kind() != n8nschema.String || m.Str() != "off") {
			return false, false
		}
	}
	if format.Kind() != n8nschema.String || format.IsExpr() || format.Str() != "file" {
		return false, false
	}
	return fullAt.True(), true
}

// fileItems marks the nodes whose every output item is an item of a file
// response (fileResponse), or, with headersOnly, of one whose JSON holds
// the response's headers and status only: such an HTTP Request, or an If,
// Switch, Filter or No Operation node fed only by such nodes (feedTable).
func (g *Graph) fileItems(headersOnly bool) []bool {
	m := &g.fileFed
	if headersOnly {
		m = &g.headersFed
	}
	return m.table(g, func(nd *n8nschema.Node) (leaf, passes bool) {
		switch nd.Type {
		case n8nschema.TypeHTTPRequest:
			full, ok := fileResponse(nd)
			return ok && (full || !headersOnly), false
		case n8nschema.TypeIf, n8nschema.TypeSwitch, n8nschema.TypeFilter, n8nschema.TypeNoOp:
			return false, !nd.Disabled
		}
		return false, false
	})
}

// fileSource returns the file response nearest i on its first main input,
// back through the nodes that pass items on (fileItems), for the message.
func (g *Graph) fileSource(i int) (*n8nschema.Node, bool) {
	for range maxFeedDepth + 1 {
		var next *Edge
		for _, e := range g.ins(i) {
			if e.Type == ConnMain && !e.Error {
				next = e
				break
			}
		}
		if next == nil {
			return nil, false
		}
		if _, ok := fileResponse(next.From); ok {
			return next.From, true
		}
		i = int(next.from)
	}
	return nil, false
}

// fileAnswerField judges a node whose required text (param) is only a
// field path of its item, {{ $json.pages[0].markdown }}, fed only by file
// responses (fileItems). The path reads undefined (a missing parent is a
// TypeError both expression engines swallow: docs/n8n-facts.md, part CQ)
// when the items' JSON is certainly without its first key:
//
//   - headers and status only (Include Response Headers and Status),
//     and the key is none of them;
//   - the item the request was sent for, read by an Information
//     Extractor: it reads no binary and hands on only {output}
//     (InformationExtractor.node.js L262-275), so a file fetched right
//     before it serves it nothing but the JSON it read the answer's field
//     off. Other readers (an agent or chain passing images on, a Text
//     Classifier routing the file) may mean the item's own field, and are
//     judged on headers-only items alone.
func (g *Graph) fileAnswerField(i int, param string, extractor bool) (string, *n8nschema.Node, bool) {
	t, ok := g.Nodes[i].Param(param)
	if !ok || t.Kind() != n8nschema.String {
		return "", nil, false
	}
	key, ok := jsonPathKey(t.Str())
	if !ok {
		return "", nil, false
	}
	switch key {
	case "headers", "statusCode", "statusMessage":
		return "", nil, false
	}
	fed := g.fileItems(!extractor)
	if !g.everyMainInput(i, func(e *Edge) bool { return !e.Error && fed[e.from] }) {
		return "", nil, false
	}
	src, ok := g.fileSource(i)
	if !ok {
		return "", nil, false
	}
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(t.Str(), "={{"), "}}")), src, true
}

// fileAnswerWhy says why: what the items hold, and n8n's error.
func fileAnswerWhy(what, path string, src *n8nschema.Node, stop string) string {
	holds := "the item the request was sent for"
	if full, _ := fileResponse(src); full {
		holds = "the response's headers, statusCode and statusMessage only"
	}
	return fmt.Sprintf("its %s is {{ %s }}, read off the items of %q, whose response format is file: the answer goes to binary data and each item's JSON is %s, so the %[1]s is undefined: n8n stops at %[5]q", what, path, src.Name, holds, stop)
}

// filePrompt is fileAnswerField for a prompt read with
// getPromptInputByType at promptType "define" (noPrompt): undefined
// throws "No prompt specified" (@n8n/n8n-nodes-langchain dist/utils/helpers.js L34-49).
func (g *Graph) filePrompt(i int) (string, bool) {
	path, src, ok := g.fileAnswerField(i, "text", false)
	if !ok {
		return "", false
	}
	return fileAnswerWhy("prompt", path, src, "No prompt specified"), true
}

// fileTextType reports a type fileText judges.
func fileTextType(typ string) bool {
	switch strings.TrimPrefix(typ, langchain) {
	case "informationExtractor", "textClassifier":
		return true
	}
	return false
}

// fileText judges the text of an Information Extractor (param text) and
// of a Text Classifier (inputText): each throws before the model is
// called when it is empty ("Text for item N is not defined":
// chains/InformationExtractor/processItem.js L12-16; "Text to classify
// for item N is not defined": chains/TextClassifier/processItem.js L12-15).
func (g *Graph) fileText(i int) (string, bool) {
	switch strings.TrimPrefix(g.Nodes[i].Type, langchain) {
	case "informationExtractor":
		if path, src, ok := g.fileAnswerField(i, "text", true); ok {
			return fileAnswerWhy("text", path, src, "Text for item 0 is not defined"), true
		}
	case "textClassifier":
		if path, src, ok := g.fileAnswerField(i, "inputText", false); ok {
			return fileAnswerWhy("text", path, src, "Text to classify for item 0 is not defined"), true
		}
	}
	return "", false
}

// FileAnswerSource returns the file response nearest n on its main input,
// which RS010's fix names when n's text reads a field of its answer
// (filePrompt, fileText).
func (g *Graph) FileAnswerSource(n *n8nschema.Node) (*n8nschema.Node, bool) {
	i, ok := g.index(n)
	if !ok {
		return nil, false
	}
	return g.fileSource(i)
}
