package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/engine"
	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// configName is the file found upward from the inputs; configNames are
// the names it may have (both in one folder is an error).
const configName = ".stormcheck.yaml"

var configNames = []string{configName, ".stormcheck.yml"}

// Config is .stormcheck.yaml (docs/design.md#configuration). Unknown keys are an error;
// every key is optional, and flags given on the command line win.
type Config struct {
	MaxAttempts *int           `yaml:"max_attempts"`
	FailOn      string         `yaml:"fail_on"`
	Items       *int           `yaml:"items"`
	Fleet       configFleet    `yaml:"fleet"`
	Rules       configRules    `yaml:"rules"`
	Instance    configInst     `yaml:"instance"`
	Spend       configSpend    `yaml:"spend"`
	Ignore      []ConfigIgnore `yaml:"ignore"`
	// Dependencies bound concurrent requests per host (RS505).
	Dependencies map[string]configDependency `yaml:"dependencies"`
	// Fix tunes the repairs of audit --fix.
	Fix configFix `yaml:"fix"`
	// Exclude lists globs (relative to the config's folder, ** for any
	// folders) of files a folder walk leaves out, as ruff's exclude does;
	// a file named on the command line is still read.
	Exclude []string `yaml:"exclude"`

	// N8nVersion is the n8n release the figures are for ("2.8.4").
	N8nVersion string `yaml:"n8n_version"`

	// Path is where the config was read from ("" when there is none), as
	// reports show it; Dir is its folder.
	Path string `yaml:"-"`
	Dir  string `yaml:"-"`
	root *yaml.Node
}

type configFleet struct {
	Workers     *int `yaml:"workers"`
	Concurrency *int `yaml:"concurrency"`
}

type configRules struct {
	Enable   []string          `yaml:"enable"`
	Disable  []string          `yaml:"disable"`
	Severity map[string]string `yaml:"severity"`
}

type configInst struct {
	BaseURLs []string `yaml:"base_urls"`
}

type configSpend struct {
	// Prices are USD per million tokens, by model name.
	Prices map[string]configPrice `yaml:"prices"`
	Caps   []configCap            `yaml:"caps"`
}

type configPrice struct {
	InputPerM  float64 `yaml:"input_per_m"`
	OutputPerM float64 `yaml:"output_per_m"`
}

type configCap struct {
	Provider string  `yaml:"provider"`
	USD      float64 `yaml:"usd"`
	Period   string  `yaml:"period"`
}

type configFix struct {
	// MaxTokens is the output cap the RS302 repair writes (--unsafe-fixes);
	// without it that repair is not offered.
	MaxTokens *int `yaml:"max_tokens"`
}

type configDependency struct {
	MaxInFlight int `yaml:"max_in_flight"`
}

// ConfigIgnore is one entry of the ignore list.
type ConfigIgnore struct {
	Rule     string `yaml:"rule"`
	Path     string `yaml:"path"`
	Workflow string `yaml:"workflow"`
	Node     string `yaml:"node"`
	Reason   string `yaml:"reason"`
	Expires  string `yaml:"expires"` // YYYY-MM-DD, the last day it works
}

// Ceilings on numbers from the config and flags. Counts multiply (attempts
// × items × workers × concurrency) and must not wrap around: a million
// each is beyond any fleet. Dollar figures must be finite; NaN and .inf
// decode from YAML as floats and compare false with everything.
const (
	maxCount = engine.MaxCount
	maxUSD   = 1e9
)

// loadConfig reads and checks a config file; name is how messages show it.
// A bad config is a usage error (exit 2) that names the file and line.
func loadConfig(p, name string, all []*analyze.Rule) (*Config, error) {
	src, err := engine.ReadFile(p, engine.MaxConfigSize)
	if errors.Is(err, engine.ErrTooLarge) {
		return nil, usageErrorf("config %s: larger than %s; not read", name, formatSize(engine.MaxConfigSize))
	}
	if nr := (engine.NotRegularError{}); errors.As(err, &nr) {
		return nil, usageErrorf("config %s: %v; not read", name, nr)
	}
	if err != nil {
		return nil, &usageError{fmt.Errorf("config: %w", err)}
	}
	cfg, err := parseConfig(src, name, all)
	if err != nil {
		return nil, &usageError{err}
	}
	cfg.Path, cfg.Dir = name, filepath.Dir(p)
	return cfg, nil
}

var (
	unknownKeyRE = lazyregexp.NewRare(`^line (\d+): field (.+) not found in type (\S+)$`)
	lineRE       = lazyregexp.NewRare(`^(?:yaml: )?line (\d+): (.*)$`)
)

// parseConfig decodes and validates a config.
func parseConfig(src []byte, name string, all []*analyze.Rule) (*Config, error) {
	cfg := &Config{}
	dec := yaml.NewDecoder(bytes.NewReader(src))
	dec.KnownFields(true)
	if err := dec.Decode(cfg); err != nil && !errors.Is(err, io.EOF) {
		return nil, yamlError(name, src, err)
	}
	// A second document ("---" and more settings) would be silently
	// ignored; a merge gone wrong is the usual cause.
	for {
		var next yaml.Node
		err := dec.Decode(&next)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, yamlError(name, src, err)
		}
		if len(next.Content) > 0 && next.Content[0].Tag != "!!null" { // a bare trailing "---" holds nothing
			return nil, fmt.Errorf("%s:%d: a second YAML document; put every setting in one document", name, max(next.Line, 1))
		}
	}
	var root yaml.Node
	if err := yaml.Unmarshal(src, &root); err != nil {
		return nil, yamlError(name, src, err)
	}
	cfg.root = &root
	if err := cfg.validate(name, all); err != nil {
		return nil, err
	}
	return cfg, nil
}

// yamlError rewrites the decoder's messages as `file:line: message`, in
// this tool's words: the key, what it wants and what it got, and the key
// that was meant when one is unknown.
func yamlError(name string, src []byte, err error) error {
	var root yaml.Node
	_ = yaml.Unmarshal(src, &root) // a type error still parses as a tree
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs := make([]string, 0, len(te.Errors))
		for _, e := range te.Errors {
			msgs = append(msgs, name+":"+typeErrorText(e, &root))
		}
		return errors.New(strings.Join(msgs, "\n"))
	}
	if m := lineRE.FindStringSubmatch(err.Error()); m != nil {
		return fmt.Errorf("%s:%s: %s", name, m[1], m[2])
	}
	return fmt.Errorf("%s: %w", name, err)
}

var cannotUnmarshalRE = lazyregexp.NewRare("^line (\\d+): cannot unmarshal !!(\\w+)(?: `(.*)`)? into (.+)$")

// typeErrorText is one of the decoder's type errors as "LINE: message".
func typeErrorText(e string, root *yaml.Node) string {
	if m := unknownKeyRE.FindStringSubmatch(e); m != nil {
		msg := fmt.Sprintf("%s: unknown key %q", m[1], m[2])
		if s := closest(m[2], configKeys[m[3]]); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		return msg
	}
	if m := cannotUnmarshalRE.FindStringSubmatch(e); m != nil {
		got := m[3]
		switch m[2] {
		case "seq":
			got = "a list"
		case "map":
			got = "a mapping"
		case "null":
			got = "nothing"
		case "str":
			got = strconv.Quote(got)
		}
		key, v := keyAtLine(root, m[1])
		if key != "" {
			key += ": "
		}
		if v != nil && v.Kind == yaml.ScalarNode && m[2] != "str" {
			got = v.Value // the decoder cuts long values short
		}
		return fmt.Sprintf("%s: %swant %s, got %s", m[1], key, typeWords(m[4]), got)
	}
	if m := lineRE.FindStringSubmatch(e); m != nil {
		return m[1] + ": " + m[2]
	}
	return " " + e
}

// typeWords names a Go type the way the config's reader thinks of it.
func typeWords(t string) string {
	t = strings.TrimPrefix(t, "*")
	switch {
	case strings.HasPrefix(t, "int") || strings.HasPrefix(t, "uint"):
		return "a whole number"
	case strings.HasPrefix(t, "float"):
		return "a number"
	case t == "string":
		return "a string"
	case t == "bool":
		return "true or false"
	case strings.HasPrefix(t, "[]"):
		return "a list"
	}
	return "a mapping" // maps and the config's sections
}

// keyAtLine is the dotted path and the value of the key whose value is on
// line (as the decoder's message gives it); "" when none is.
func keyAtLine(n *yaml.Node, line string) (string, *yaml.Node) {
	want, err := strconv.Atoi(line)
	if err != nil || n == nil {
		return "", nil
	}
	var found *yaml.Node
	var walk func(n *yaml.Node, path string) string
	walk = func(n *yaml.Node, path string) string {
		switch n.Kind {
		case yaml.DocumentNode:
			for _, c := range n.Content {
				if p := walk(c, path); p != "" {
					return p
				}
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				p := k.Value
				if path != "" {
					p = path + "." + k.Value
				}
				if v.Line == want && v.Kind != yaml.MappingNode || k.Line == want && v.Kind == yaml.MappingNode {
					found = v
					return p
				}
				if q := walk(v, p); q != "" {
					return q
				}
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				if q := walk(c, fmt.Sprintf("%s[%d]", path, i)); q != "" {
					return q
				}
			}
		}
		return ""
	}
	p := walk(n, "")
	return p, found
}

// configKeys are the keys of each section of the config, by the Go type
// name the decoder's messages give ("cmd.configFleet").
var configKeys = func() map[string][]string {
	keys := map[string][]string{}
	var visit func(t reflect.Type)
	visit = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || keys[t.String()] != nil {
			return
		}
		keys[t.String()] = []string{}
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if name == "" || name == "-" {
				continue
			}
			keys[t.String()] = append(keys[t.String()], name)
			visit(f.Type)
		}
	}
	visit(reflect.TypeOf(Config{}))
	return keys
}()

// line returns the line of a key path in the config ("ignore", "2",
// "reason"), or of the deepest part of it that exists.
func (c *Config) line(keys ...string) int {
	n := c.root
	if n == nil {
		return 0
	}
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	ln := n.Line
	for _, k := range keys {
		switch n.Kind {
		case yaml.MappingNode:
			found := false
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == k {
					ln, n, found = n.Content[i].Line, n.Content[i+1], true
					break
				}
			}
			if !found {
				return ln
			}
		case yaml.SequenceNode:
			i, err := strconv.Atoi(k)
			if err != nil || i >= len(n.Content) {
				return ln
			}
			n = n.Content[i]
			ln = n.Line
		default:
			return ln
		}
	}
	return ln
}

func (c *Config) errorf(name string, keys []string, format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", name, c.line(keys...), fmt.Sprintf(format, args...))
}

func (c *Config) validate(name string, all []*analyze.Rule) error {
	if c.N8nVersion != "" {
		if _, err := n8nschema.ParseVersion(c.N8nVersion); err != nil {
			return c.errorf(name, []string{"n8n_version"}, "n8n_version %v", err)
		}
	}
	if c.FailOn != "" && !oneOf(c.FailOn, "error", "warning", "note", "never") {
		return c.errorf(name, []string{"fail_on"}, "fail_on %q: want error, warning, note or never", c.FailOn)
	}
	for _, n := range []struct {
		keys []string
		v    *int
	}{{[]string{"max_attempts"}, c.MaxAttempts}, {[]string{"items"}, c.Items},
		{[]string{"fleet", "workers"}, c.Fleet.Workers}, {[]string{"fleet", "concurrency"}, c.Fleet.Concurrency}} {
		if n.v != nil && (*n.v < 1 || *n.v > maxCount) {
			return c.errorf(name, n.keys, "%s %d: want a whole number from 1 to %d", strings.Join(n.keys, "."), *n.v, maxCount)
		}
	}
	for i, sel := range c.Rules.Enable {
		if _, err := analyze.SelectRules(all, []string{sel}, nil); err != nil {
			return c.errorf(name, []string{"rules", "enable", strconv.Itoa(i)}, "rules.enable: %v%s", err, ruleHint(all, sel))
		}
	}
	for i, sel := range c.Rules.Disable {
		if _, err := analyze.SelectRules(all, nil, []string{sel}); err != nil {
			return c.errorf(name, []string{"rules", "disable", strconv.Itoa(i)}, "rules.disable: %v%s", err, ruleHint(all, sel))
		}
	}
	for _, k := range sortedKeys(c.Rules.Severity) {
		v := c.Rules.Severity[k]
		sev, ok := analyze.ParseSeverity(v)
		if !ok {
			return c.errorf(name, []string{"rules", "severity", k}, "rules.severity.%s %q: want error, warning or note", k, v)
		}
		if _, err := analyze.ResolveSeverities(all, map[string]analyze.Severity{k: sev}); err != nil {
			return c.errorf(name, []string{"rules", "severity", k}, "rules.severity: %v", err)
		}
	}
	for i, u := range c.Instance.BaseURLs {
		if p, err := url.Parse(u); err != nil || p.Scheme == "" || p.Host == "" {
			return c.errorf(name, []string{"instance", "base_urls", strconv.Itoa(i)}, "instance.base_urls: %q is not an absolute URL", u)
		}
	}
	for _, k := range sortedKeys(c.Spend.Prices) {
		p := c.Spend.Prices[k]
		for _, v := range []struct {
			key string
			usd float64
		}{{"input_per_m", p.InputPerM}, {"output_per_m", p.OutputPerM}} {
			if !(v.usd >= 0 && v.usd <= maxUSD) { // NaN fails both
				return c.errorf(name, []string{"spend", "prices", k, v.key}, "spend.prices.%s.%s %v: want a number of dollars from 0 to %d", k, v.key, v.usd, int64(maxUSD))
			}
		}
	}
	for i, cp := range c.Spend.Caps {
		keys := []string{"spend", "caps", strconv.Itoa(i)}
		switch {
		case cp.Provider == "":
			return c.errorf(name, keys, "spend.caps[%d]: provider is required (a provider like openai, or * for any)", i)
		case !(cp.USD > 0 && cp.USD <= maxUSD): // NaN fails both
			return c.errorf(name, append(keys, "usd"), "spend.caps[%d]: usd %v: want a number of dollars more than 0 and at most %d", i, cp.USD, int64(maxUSD))
		case !oneOf(cp.Period, "day", "execution"):
			return c.errorf(name, keys, "spend.caps[%d]: period %q: want day or execution", i, cp.Period)
		}
	}
	for _, host := range sortedKeys(c.Dependencies) {
		if n := c.Dependencies[host].MaxInFlight; n < 1 || n > maxCount {
			return c.errorf(name, []string{"dependencies", host}, "dependencies.%s.max_in_flight %d: want a whole number from 1 to %d", host, n, maxCount)
		}
	}
	if c.Fix.MaxTokens != nil && *c.Fix.MaxTokens < 1 {
		return c.errorf(name, []string{"fix", "max_tokens"}, "fix.max_tokens %d: want a whole number of at least 1", *c.Fix.MaxTokens)
	}
	for i, g := range c.Exclude {
		if err := engine.CheckGlob(g); err != nil {
			return c.errorf(name, []string{"exclude", strconv.Itoa(i)}, "exclude[%d]: bad glob %q: %v", i, g, err)
		}
	}
	for i, ig := range c.Ignore {
		keys := []string{"ignore", strconv.Itoa(i)}
		switch {
		case strings.TrimSpace(ig.Reason) == "":
			return c.errorf(name, keys, "ignore[%d]: reason is required: say why the finding is safe to ignore", i)
		case ig.Rule == "" && ig.Path == "" && ig.Workflow == "" && ig.Node == "":
			return c.errorf(name, keys, "ignore[%d]: set at least one of rule, path, workflow and node", i)
		}
		if ig.Rule != "" {
			if _, err := analyze.SelectRules(all, []string{ig.Rule}, nil); err != nil {
				return c.errorf(name, append(keys, "rule"), "ignore[%d]: %v", i, err)
			}
		}
		if ig.Path != "" {
			if _, err := path.Match(ig.Path, ""); err != nil {
				return c.errorf(name, append(keys, "path"), "ignore[%d]: bad path glob %q: %v", i, ig.Path, err)
			}
		}
		if ig.Expires != "" {
			if _, err := time.Parse(time.DateOnly, ig.Expires); err != nil {
				return c.errorf(name, append(keys, "expires"), "ignore[%d]: expires %q: want a date like 2026-12-31", i, ig.Expires)
			}
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// options applies the config's analysis settings to opts.
func (c *Config) options(opts *analyze.Options) {
	opts.BaseURLs = append(opts.BaseURLs, c.Instance.BaseURLs...)
	for _, k := range sortedKeys(c.Spend.Prices) {
		if opts.Prices == nil {
			opts.Prices = map[string]analyze.ModelPrice{}
		}
		p := c.Spend.Prices[k]
		opts.Prices[k] = analyze.ModelPrice{InputPerM: p.InputPerM, OutputPerM: p.OutputPerM}
	}
	for _, cp := range c.Spend.Caps {
		opts.SpendCaps = append(opts.SpendCaps, analyze.SpendCap{Provider: cp.Provider, USD: cp.USD, Period: cp.Period})
	}
	for _, host := range sortedKeys(c.Dependencies) {
		if opts.MaxInFlight == nil {
			opts.MaxInFlight = map[string]int{}
		}
		opts.MaxInFlight[host] = c.Dependencies[host].MaxInFlight
	}
}

// ignores converts the ignore list for analyze.Filter.
func (c *Config) ignores() []analyze.Ignore {
	out := make([]analyze.Ignore, 0, len(c.Ignore))
	for i, ig := range c.Ignore {
		e := analyze.Ignore{Rule: ig.Rule, Path: strings.TrimPrefix(ig.Path, "./"), Workflow: ig.Workflow, Node: ig.Node, Reason: ig.Reason,
			File: c.Path, Pos: n8nschema.Pos{Line: c.line("ignore", strconv.Itoa(i)), Col: 1}}
		if ig.Expires != "" {
			e.Expires, _ = time.Parse(time.DateOnly, ig.Expires)
		}
		if n := c.itemNode("ignore", i); n != nil {
			e.Pos.Col = n.Column
		}
		out = append(out, e)
	}
	return out
}

// itemNode returns the i-th element of a top-level sequence.
func (c *Config) itemNode(key string, i int) *yaml.Node {
	n := c.root
	if n == nil || len(n.Content) == 0 {
		return nil
	}
	n = n.Content[0]
	for j := 0; j+1 < len(n.Content); j += 2 {
		if n.Content[j].Value == key && n.Content[j+1].Kind == yaml.SequenceNode && i < len(n.Content[j+1].Content) {
			return n.Content[j+1].Content[i]
		}
	}
	return nil
}
