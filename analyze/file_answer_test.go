package analyze

import (
	"strings"
	"testing"
)

// TestFileAnswer: a reader's required text that is only a field path of
// its item, fed by an HTTP Request whose response format is file
// (fileAnswerField), at each version's parameter; what stays unjudged.
func TestFileAnswer(t *testing.T) {
	const (
		v4file    = `"typeVersion": 4.2, "parameters": {"url": "https://api.example.com/ocr", "options": {"response": {"response": {"responseFormat": "file"}}}}`
		v4headers = `"typeVersion": 4.2, "parameters": {"url": "https://api.example.com/ocr", "options": {"response": {"response": {"responseFormat": "file", "fullResponse": true}}}}`
		v4json    = `"typeVersion": 4.2, "parameters": {"url": "https://api.example.com/ocr", "options": {"response": {"response": {"responseFormat": "json"}}}}`
		v4auto    = `"typeVersion": 4.2, "parameters": {"url": "https://api.example.com/ocr", "options": {}}`
		v4expr    = `"typeVersion": 4.2, "parameters": {"url": "https://api.example.com/ocr", "options": {"response": {"response": {"responseFormat": "={{ 'file' }}"}}}}`
		v4pages   = `"typeVersion": 4.2, "parameters": {"url": "https://api.example.com/ocr", "options": {"response": {"response": {"responseFormat": "file"}}, "pagination": {"pagination": {"paginationMode": "responseContainsNextURL"}}}}`
		v2file    = `"typeVersion": 2, "parameters": {"url": "https://api.example.com/ocr", "responseFormat": "file"}`
		extractor = `"type": "@n8n/n8n-nodes-langchain.informationExtractor", "typeVersion": 1.2, "parameters": {"text": "%s"}`
		chain     = `"type": "@n8n/n8n-nodes-langchain.chainLlm", "typeVersion": 1.7, "parameters": {"promptType": "define", "text": "%s"}`
		classify  = `"type": "@n8n/n8n-nodes-langchain.textClassifier", "typeVersion": 1.1, "parameters": {"inputText": "%s"}`
		pages     = `={{ $json.pages[0].markdown }}`
	)
	for _, c := range []struct {
		name, http, reader, text string
		through                  bool // a No Operation node between
		want                     string
	}{
		{"extractor after a file response", v4file, extractor, pages, false, "Text for item 0 is not defined"},
		{"extractor through a No Operation node", v4file, extractor, pages, true, "Text for item 0 is not defined"},
		{"extractor after a v2 file response", v2file, extractor, pages, false, "Text for item 0 is not defined"},
		{"chain after headers and status", v4headers, chain, pages, false, "No prompt specified"},
		{"classifier after headers and status", v4headers, classify, pages, false, "Text to classify for item 0 is not defined"},
		{"chain reads the sent item's field", v4file, chain, pages, false, ""},
		{"classifier reads the sent item's field", v4file, classify, pages, false, ""},
		{"chain reads the status", v4headers, chain, `={{ $json.statusCode }}`, false, ""},
		{"JSON response", v4json, extractor, pages, false, ""},
		{"autodetect", v4auto, extractor, pages, false, ""},
		{"format from an expression", v4expr, extractor, pages, false, ""},
		{"paginated", v4pages, extractor, pages, false, ""},
		{"text around the field", v4file, extractor, `=Invoice: {{ $json.pages[0].markdown }}`, false, ""},
		{"the binary's mime type", v4file, extractor, `={{ $binary.data.mimeType }}`, false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			reader := strings.Replace(c.reader, "%s", strings.ReplaceAll(c.text, `"`, `\"`), 1)
			feed := "H"
			nodes := `{"name": "S", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "position": [0, 0], "parameters": {}},
			 {"name": "H", "type": "n8n-nodes-base.httpRequest", "position": [0, 0], ` + c.http + `},
			 {"name": "R", "position": [0, 0], ` + reader + `},
			 {"name": "M", "type": "@n8n/n8n-nodes-langchain.lmChatOpenAi", "typeVersion": 1.2, "position": [0, 0], "parameters": {}, "credentials": {"openAiApi": {"id": "1", "name": "OpenAI"}}}`
			conns := `"S": {"main": [[{"node": "H", "type": "main", "index": 0}]]},
			 "M": {"ai_languageModel": [[{"node": "R", "type": "ai_languageModel", "index": 0}]]}`
			if c.through {
				nodes += `, {"name": "N", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}}`
				conns += `, "H": {"main": [[{"node": "N", "type": "main", "index": 0}]]}`
				feed = "N"
			}
			conns += `, "` + feed + `": {"main": [[{"node": "R", "type": "main", "index": 0}]]}`
			g := BuildGraph(parseOne(t, `{"nodes": [`+nodes+`], "connections": {`+conns+`}}`))
			why, ok := g.FailsWhy(g.Node("R"))
			if ok != (c.want != "") || ok && (!strings.Contains(why, c.want) || !strings.Contains(why, `read off the items of "H"`)) {
				t.Errorf("FailsWhy(R) = %q, %v; want %q", why, ok, c.want)
			}
			if src, ok := g.FileAnswerSource(g.Node("R")); c.want != "" && (!ok || src.Name != "H") {
				t.Errorf("FileAnswerSource(R) = %v, %v; want H", src, ok)
			}
		})
	}
}
