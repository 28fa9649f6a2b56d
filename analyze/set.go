package analyze

import "github.com/stormcheck/stormcheck/n8nschema"

// Options are the assumptions of one analysis run.
type Options struct {
	// MaxAttempts is the attempt budget per logical operation (RS101).
	MaxAttempts int
	// Items is how many items one execution carries, for per-execution figures.
	Items int
	// Workers and Concurrency describe a queue-mode fleet (in-flight ceilings).
	Workers     int
	Concurrency int
	// BaseURLs are the instance's own URLs, to recognise self-trigger webhooks.
	BaseURLs []string
	// Prices override the catalog's model prices, by model name.
	Prices map[string]ModelPrice
	// SpendCaps are provider spend limits declared in config (RS301, RS303).
	SpendCaps []SpendCap
	// MaxInFlight bounds concurrent requests per dependency host (RS505).
	MaxInFlight map[string]int
}

// ModelPrice is what a model costs in USD per million tokens.
type ModelPrice struct {
	InputPerM  float64
	OutputPerM float64
}

// SpendCap is a declared hard limit on spend, e.g. a provider's daily cap.
type SpendCap struct {
	Provider string  // "openai", "anthropic", … or "*" for any
	USD      float64 // the limit
	Period   string  // "day" or "execution"
}

// DefaultOptions are the figures used when nothing is configured.
func DefaultOptions() Options {
	return Options{MaxAttempts: 10, Items: 1, Workers: 1, Concurrency: 10}
}

// Set is one analysis: every file and workflow given in one run, and what
// the analysis built from them.
type Set struct {
	Files     []*n8nschema.File
	Workflows []*n8nschema.Workflow
	Options   Options
	// Operations are the logical operations of every workflow, in workflow
	// then node order; filled by Amplify.
	Operations []*Operation
}

// OperationsOf returns the operations of one workflow.
func (s *Set) OperationsOf(w *n8nschema.Workflow) []*Operation {
	var out []*Operation
	for _, op := range s.Operations {
		if op.Workflow == w {
			out = append(out, op)
		}
	}
	return out
}

// Build assembles the analysis set from parsed files.
func Build(files []*n8nschema.File, opts Options) *Set {
	s := &Set{Files: files, Options: opts}
	for _, f := range files {
		s.Workflows = append(s.Workflows, f.Workflows...)
	}
	return s
}
