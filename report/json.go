package report

import (
	"encoding/json"
	"io"
	"math"

	"github.com/stormcheck/stormcheck/analyze"
)

// JSON renders the v1 JSON document of DESIGN.md §6. It is an API: fields
// change only with a new version number.
type JSON struct{}

type jsonDoc struct {
	Version   int            `json:"version"`
	Tool      jsonTool       `json:"tool"`
	Summary   Summary        `json:"summary"`
	Workflows []jsonWorkflow `json:"workflows"`
	Findings  []jsonFinding  `json:"findings"`
}

type jsonTool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type jsonWorkflow struct {
	File        string          `json:"file"`
	ID          string          `json:"id"`
	Name        string          `json:"name"`
	Nodes       int             `json:"nodes"`
	MaxAttempts *int            `json:"max_attempts"`
	Unbounded   bool            `json:"unbounded"`
	Operations  []jsonOperation `json:"operations"`
}

type jsonOperation struct {
	Node         string       `json:"node"`
	Type         string       `json:"type"`
	Dependency   string       `json:"dependency"`
	Paid         bool         `json:"paid"`
	Write        bool         `json:"write"`
	Attempts     *int         `json:"attempts"`
	Unbounded    bool         `json:"unbounded"`
	CallsPerItem *int         `json:"calls_per_item"`
	Factors      []jsonFactor `json:"factors"`
	// Spend of paid calls (analyze/spend.go); null when unbounded or unknown.
	Model                string   `json:"model"`
	SpendPerItemUSD      *float64 `json:"spend_per_item_usd"`
	SpendPerExecutionUSD *float64 `json:"spend_per_execution_usd"`
}

type jsonFactor struct {
	Kind     string `json:"kind"`
	Value    *int   `json:"value"`
	Node     string `json:"node"`
	Workflow string `json:"workflow"`
}

type jsonFinding struct {
	Rule        string       `json:"rule"`
	Name        string       `json:"name"`
	Severity    string       `json:"severity"`
	Confidence  string       `json:"confidence"`
	File        string       `json:"file"`
	Line        int          `json:"line"`
	Column      int          `json:"column"`
	Workflow    string       `json:"workflow"`
	WorkflowID  string       `json:"workflow_id"`
	Node        string       `json:"node"`
	Message     string       `json:"message"`
	Fix         string       `json:"fix"`
	HelpURI     string       `json:"help_uri"`
	Fingerprint string       `json:"fingerprint"`
	Chain       []jsonFactor `json:"chain"`
}

func intPtr(v int) *int { return &v }

// usdPtr rounds a dollar figure to a millionth, so that output is stable.
func usdPtr(v float64) *float64 {
	v = math.Round(v*1e6) / 1e6
	return &v
}

// Render writes the document, indented, with a trailing newline.
func (JSON) Render(w io.Writer, r *Result) error {
	doc := jsonDoc{
		Version:   1,
		Tool:      jsonTool{Name: r.Tool.Name, Version: r.Tool.Version},
		Summary:   r.Summary,
		Workflows: []jsonWorkflow{},
		Findings:  []jsonFinding{},
	}
	if r.Set != nil {
		for _, wf := range r.Set.Workflows {
			jw := jsonWorkflow{File: wf.Source.Name, ID: wf.ID, Name: wf.Name, Nodes: len(wf.Nodes), Operations: []jsonOperation{}}
			maxAttempts := 0
			for _, op := range r.Set.OperationsOf(wf) {
				jo := jsonOperation{Node: op.Node.Name, Type: op.Type, Dependency: op.Dependency, Paid: op.Paid, Write: op.Write,
					Unbounded: op.Unbounded, Factors: jsonFactors(op.Factors)}
				if !op.Unbounded {
					jo.Attempts = intPtr(op.Attempts)
					maxAttempts = max(maxAttempts, op.Attempts)
				} else {
					jw.Unbounded = true
				}
				if !op.CallsUnbounded {
					jo.CallsPerItem = intPtr(op.CallsPerItem)
				}
				jo.Model = op.Model
				if usd, ok := op.SpendPerExecution(&r.Set.Options); ok {
					jo.SpendPerItemUSD, jo.SpendPerExecutionUSD = usdPtr(op.SpendPerItemUSD), usdPtr(usd)
				}
				jw.Operations = append(jw.Operations, jo)
			}
			if !jw.Unbounded {
				jw.MaxAttempts = intPtr(maxAttempts)
			}
			doc.Workflows = append(doc.Workflows, jw)
		}
	}
	red := memo{}
	for _, f := range r.Findings {
		doc.Findings = append(doc.Findings, jsonFinding{
			Rule: f.RuleID, Name: f.RuleName, Severity: f.Severity.String(), Confidence: f.Confidence.String(),
			File: f.File, Line: f.Pos.Line, Column: f.Pos.Col, Workflow: f.Workflow, WorkflowID: f.WorkflowID,
			Node: f.Node, Message: red.Redact(f.Message), Fix: red.Redact(f.Fix), HelpURI: f.URL, Fingerprint: f.Fingerprint,
			Chain: jsonFactors(f.Chain),
		})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

func jsonFactors(fs []analyze.Factor) []jsonFactor {
	out := make([]jsonFactor, 0, len(fs))
	for _, f := range fs {
		jf := jsonFactor{Kind: f.Kind, Node: f.Node, Workflow: f.Workflow}
		if !f.Unbounded {
			jf.Value = intPtr(f.Value)
		}
		out = append(out, jf)
	}
	return out
}
