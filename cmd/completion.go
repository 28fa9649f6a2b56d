package cmd

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/engine"
	"github.com/stormcheck/stormcheck/report"
	"github.com/stormcheck/stormcheck/rules"
)

// addCompletions makes shell completion (stormcheck completion bash|zsh|
// fish|powershell) offer what each flag takes: rule IDs and names with
// their titles, formats, severities, and for simulate --outage the
// dependencies of the workflows given.
func addCompletions(root *cobra.Command, io *IO) {
	fixed := func(values ...string) cobra.CompletionFunc {
		return cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp)
	}
	for _, c := range root.Commands() {
		flag := func(name string, fn cobra.CompletionFunc) {
			if c.Flags().Lookup(name) != nil {
				_ = c.RegisterFlagCompletionFunc(name, fn)
			}
		}
		switch c.Name() {
		case "audit":
			flag("format", completeFormats)
			flag("enable", completeRules(true))
			flag("disable", completeRules(false))
			flag("fail-on", fixed("error", "warning", "note", "never"))
			flag("min-severity", fixed("note", "warning", "error"))
			flag("min-confidence", fixed("low", "medium", "high"))
			flag("color", fixed("auto", "always", "never"))
		case "explain":
			c.ValidArgsFunction = func(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
				if len(args) > 0 {
					return nil, cobra.ShellCompDirectiveNoFileComp
				}
				return ruleCandidates("", toComplete, false), cobra.ShellCompDirectiveNoFileComp
			}
		case "simulate":
			flag("format", fixed("text", "json", "svg"))
			flag("failure", fixed("502", "timeout"))
			flag("color", fixed("auto", "always", "never"))
			flag("outage", completeOutage(io))
		case "graph":
			flag("format", fixed("mermaid", "dot"))
		case "rules":
			flag("format", fixed(rulesFormats...))
		}
	}
}

// completeFormats offers the report formats, and FMT= to write one to a file.
func completeFormats(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if f, _, ok := strings.Cut(toComplete, "="); ok && slices.Contains(report.Formats, f) {
		return nil, cobra.ShellCompDirectiveDefault // FMT=PATH: a file name
	}
	return slices.Clone(report.Formats), cobra.ShellCompDirectiveNoFileComp
}

// completeRules offers rule IDs and names for a comma-separated list;
// --enable takes "-RULE" and "all" too.
func completeRules(enable bool) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		done, last := "", toComplete
		if i := strings.LastIndex(toComplete, ","); i >= 0 {
			done, last = toComplete[:i+1], toComplete[i+1:]
		}
		out := ruleCandidates(done, last, enable)
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	}
}

// ruleCandidates are the IDs and names that start with prefix (any case),
// each after done and described by its rule's title.
func ruleCandidates(done, prefix string, enable bool) []cobra.Completion {
	minus := ""
	if enable {
		if rest, ok := strings.CutPrefix(prefix, "-"); ok {
			minus, prefix = "-", rest
		}
	}
	var out []cobra.Completion
	if enable && minus == "" && strings.HasPrefix("all", strings.ToLower(prefix)) {
		out = append(out, cobra.CompletionWithDesc(done+"all", "every rule"))
	}
	for _, r := range rules.All() {
		for _, key := range []string{r.ID, r.Name} {
			if strings.HasPrefix(strings.ToLower(key), strings.ToLower(prefix)) {
				out = append(out, cobra.CompletionWithDesc(done+minus+key, r.ID+" "+r.Name+": "+r.Title))
			}
		}
	}
	return out
}

// completeOutage offers DEP: for every dependency an operation of the
// workflows given calls (the arguments typed so far), as simulate reads them.
func completeOutage(io *IO) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if strings.Contains(toComplete, ":") || len(args) == 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		wd, err := io.Getwd()
		if err != nil {
			return nil, cobra.ShellCompDirectiveError
		}
		ins, err := collectInputs(args, io.In, engine.NewNamer(wd, "", ""), defaultMaxFileSize)
		if err != nil {
			return nil, cobra.ShellCompDirectiveError
		}
		files, _ := parseInputs(ins, defaultMaxFileSize, false)
		set := analyze.Build(files, analyze.DefaultOptions())
		var deps []string
		for _, op := range set.Operations {
			if d := op.Dependency; d != "" && strings.HasPrefix(d, toComplete) && !slices.Contains(deps, d) {
				deps = append(deps, d)
			}
		}
		slices.Sort(deps)
		var out []cobra.Completion
		for _, d := range deps {
			out = append(out, d+":")
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	}
}
