package cmd

import (
	"bytes"

	"go.yaml.in/yaml/v3"

	"github.com/stormcheck/stormcheck/engine"
)

// shownConfig is what --show-config prints: every setting as the audit
// would run with it, flags merged over the config.
type shownConfig struct {
	Config        *string                     `yaml:"config"` // null: none found
	FailOn        string                      `yaml:"fail_on"`
	MaxAttempts   int                         `yaml:"max_attempts"`
	Items         int                         `yaml:"items"`
	Fleet         map[string]int              `yaml:"fleet"`
	MinConfidence string                      `yaml:"min_confidence"`
	MinSeverity   string                      `yaml:"min_severity"`
	Rules         []string                    `yaml:"rules"`
	Severity      map[string]string           `yaml:"severity,omitempty"`
	Exclude       []string                    `yaml:"exclude"`
	Gitignore     bool                        `yaml:"gitignore"`
	Ignore        []ConfigIgnore              `yaml:"ignore,omitempty"`
	Dependencies  map[string]configDependency `yaml:"dependencies,omitempty"`
	Spend         *configSpend                `yaml:"spend,omitempty"`
	Fix           *configFix                  `yaml:"fix,omitempty"`
	BaseURLs      []string                    `yaml:"base_urls,omitempty"`
	Inputs        []string                    `yaml:"inputs"`
}

// showConfig prints the config found and the merged settings, as YAML.
func (o *AuditOptions) showConfig(cfg *Config, st *auditSettings, ins []engine.Input) error {
	sc := shownConfig{
		FailOn: st.failOn, MaxAttempts: st.Analysis.MaxAttempts, Items: st.Analysis.Items,
		Fleet:         map[string]int{"workers": st.Analysis.Workers, "concurrency": st.Analysis.Concurrency},
		MinConfidence: o.MinConfidence, MinSeverity: o.MinSeverity,
		Rules: []string{}, Exclude: []string{}, Gitignore: !o.NoGitignore, Inputs: []string{},
		BaseURLs: st.Analysis.BaseURLs,
	}
	for _, r := range st.Rules {
		sc.Rules = append(sc.Rules, r.ID+" "+r.Name)
	}
	if cfg != nil {
		sc.Config = &cfg.Path
		sc.Exclude = append(sc.Exclude, cfg.Exclude...)
		sc.Ignore = cfg.Ignore
		sc.Dependencies = cfg.Dependencies
		if len(cfg.Rules.Severity) > 0 {
			sc.Severity = cfg.Rules.Severity
		}
		if len(cfg.Spend.Prices) > 0 || len(cfg.Spend.Caps) > 0 {
			sc.Spend = &cfg.Spend
		}
		if cfg.Fix.MaxTokens != nil {
			sc.Fix = &cfg.Fix
		}
	}
	for _, in := range ins {
		sc.Inputs = append(sc.Inputs, in.Name)
	}
	var b bytes.Buffer
	if cfg == nil {
		b.WriteString("# no .stormcheck.yaml or .stormcheck.yml in the first input's folder or above, up to the repository root\n")
	}
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(sc); err != nil {
		return err
	}
	_, err := o.IO.Out.Write(b.Bytes())
	return err
}
