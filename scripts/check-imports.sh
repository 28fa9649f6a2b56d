#!/usr/bin/env bash
# Checks the package boundaries (CONTRIBUTING.md, "Where things live"): one
# pipeline, one direction.
# Each line of `go list` is "<package> <imports...>" (non-test imports).
set -euo pipefail
cd "$(dirname "$0")/.."
mod=github.com/stormcheck/stormcheck
fail=0
deny() { # package, denied import regexp, why[, allowed import regexp]
	local pkg=$1 re=$2 why=$3 allow=${4:-} line
	line=$(go list -f '{{.ImportPath}} {{join .Imports " "}}' "./$pkg" 2>/dev/null || true)
	for imp in ${line#* }; do
		[ "$imp" = "${line%% *}" ] && continue
		[ -n "$allow" ] && [[ $imp =~ $allow ]] && continue
		if [[ $imp =~ $re ]]; then
			echo "import boundary: $pkg imports $imp ($why)"
			fail=1
		fi
	done
}
# internal/lazyregexp is regexp compiled on first use: a leaf of the
# standard library and internal/ascii (its case-blind literal search).
deny n8nschema "^$mod/|spf13/cobra|lipgloss|tidwall/gjson" "the model imports only the standard library" "^$mod/internal/(lazyregexp|ascii)$"
deny internal/lazyregexp "^$mod/|\\." "a leaf: it imports only the standard library and internal/ascii" "^$mod/internal/ascii$"
deny internal/ascii "^$mod/|\\." "a leaf: it imports only the standard library"
deny internal/safewrite "^$mod/|\\." "a leaf: it imports only the standard library"
deny analyze "^$mod/(rules|report|cmd|n8napi)$|^os$|spf13/cobra|lipgloss|tidwall/gjson" "analysis does no I/O and never sees rules or renderers"
deny rules "^$mod/(report|cmd|n8napi)$|^os$|tidwall/gjson|lipgloss|spf13/cobra" "rules read the model through Node.Param and never print"
deny report "^$mod/(rules|cmd|n8napi)$|spf13/cobra|tidwall/gjson" "renderers get rule metadata from findings"
deny simulate "^$mod/(rules|report|cmd|n8napi)$|^os$|spf13/cobra|tidwall/gjson" "the simulation reads the analysis, does no I/O and renders its own report"
deny simulate/chart "^$mod/|^os$|^net|spf13/cobra|lipgloss" "the chart draws a simulation's result and does no I/O" "^$mod/simulate$"
deny n8napi "^$mod/|spf13/cobra|lipgloss" "the API client stands alone"
deny fix "^$mod/(rules|report|cmd|n8napi)$|^os$|spf13/cobra|lipgloss|tidwall/gjson" "repairs are computed on the model and applied to bytes in memory; cmd writes the files"
deny engine "^$mod/(cmd|mcpserver|n8napi)$|^net|spf13/cobra|lipgloss" "the engine finds and reads the inputs it is named (files, folders, globs, stdin) and never sees flags, the network or a terminal: front ends fetch from an instance and render"
deny mcpserver "^$mod/(cmd|n8napi)$|^net|^os/exec$|spf13/cobra|lipgloss" "the MCP server calls the engine, never flags or the network"
deny cmd "lipgloss" "only report styles output"
# The corpus helpers are for tests only.
for pkg in . cmd analyze rules report simulate simulate/chart n8nschema n8napi fix engine mcpserver; do
	deny "$pkg" "^$mod/internal/(sharedtest|corpustest|schematest|benchgen|cputime)$" "test helpers never reach the binary"
done
# The binary behaves the same under go test and in use: it never imports
# testing (no testing.Testing() switches).
if go list -deps . | grep -qx testing; then
	echo "import boundary: the binary imports testing"
	fail=1
fi
# Only main.go exits the process.
if grep -rn --include='*.go' 'os\.Exit' cmd analyze rules report simulate n8nschema n8napi engine mcpserver 2>/dev/null | grep -v '_test.go'; then
	echo "import boundary: os.Exit outside main.go"
	fail=1
fi
[ $fail -eq 0 ] && echo "import boundaries ok"
exit $fail
