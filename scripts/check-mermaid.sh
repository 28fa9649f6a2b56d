#!/usr/bin/env bash
# Checks every Mermaid diagram stormcheck writes with the real Mermaid
# parser (run by .ci/run): `graph --format mermaid` of the examples, the
# test workflows and the real corpus (../shared, when beside the
# repository), and the diagrams of the Markdown report. Mermaid and jsdom
# are installed once into ~/.cache/stormcheck (npm, pinned versions).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	echo "installing nodejs and npm"
	apt-get update -qq && apt-get install -y -qq nodejs npm >/dev/null
fi
mermaid=11.17.2 jsdom=26.1.0
cache=${STORMCHECK_CACHE:-$HOME/.cache/stormcheck}/mermaid-$mermaid
if [ ! -d "$cache/node_modules/mermaid" ] || [ ! -d "$cache/node_modules/jsdom" ]; then
	mkdir -p "$cache"
	[ -f "$cache/package.json" ] || echo '{"private": true}' >"$cache/package.json"
	npm install --prefix "$cache" --no-audit --no-fund --silent "mermaid@$mermaid" "jsdom@$jsdom"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/stormcheck" .
sc=$tmp/stormcheck
n=0
graph() { # file
	n=$((n + 1))
	"$sc" graph --format mermaid "$1" >"$tmp/g$n.mmd" 2>/dev/null || rm -f "$tmp/g$n.mmd"
}
for f in testdata/examples/*.json cmd/testdata/*.json; do graph "$f"; done
# A workflow with neither name nor id (Mermaid rejects an empty title).
echo '{"nodes": [{"name": "Start", "type": "n8n-nodes-base.manualTrigger"}], "connections": {}}' >"$tmp/nameless.json"
graph "$tmp/nameless.json"
# Names that try to end a label, the diagram or the fence; a retried paid
# call so that the Markdown report draws its chain too.
cat >"$tmp/hostile.json" <<'JSON'
{"name": "W\"] end\n%% ```x``` <b>|pipe|</b>", "nodes": [
 {"name": "A\"]\nclick A href \"javascript:alert(1)\"", "type": "n8n-nodes-base.webhook", "parameters": {"path": "x"}, "position": [0, 0]},
 {"name": "B `end` ;:#{}[]()<>&", "type": "@n8n/n8n-nodes-langchain.openAi", "retryOnFail": true, "maxTries": 5,
  "parameters": {"modelId": "gpt-4o"}, "position": [200, 0]}],
 "connections": {"A\"]\nclick A href \"javascript:alert(1)\"": {"main": [[{"node": "B `end` ;:#{}[]()<>&", "type": "main", "index": 0}]]}}}
JSON
graph "$tmp/hostile.json"
if [ -d ../shared/corpus/n8n-real ]; then
	# Every tenth workflow, in a fixed order: names, ids and shapes vary
	# enough, and the run stays under a minute.
	while IFS= read -r f; do graph "$f"; done < <(find ../shared/corpus/n8n-real -name '*.json' -not -path '*/odd/*' | sort | awk 'NR % 10 == 1')
fi

# The Markdown report: each ```mermaid block.
md() { # args...
	n=$((n + 1))
	"$sc" audit --format markdown --fail-on never "$@" >"$tmp/r$n.md" 2>/dev/null || true
	awk -v out="$tmp/r$n" '/^```mermaid$/ { k++; on = 1; next } /^```$/ { on = 0; next } on { print > (out "-" k ".mmd") }' "$tmp/r$n.md"
}
md testdata/examples
md "$tmp/hostile.json"
for f in testdata/examples/*.json; do md "$f"; done
[ -d ../shared/corpus/n8n-real ] && md ../shared/corpus/n8n-real

# ES modules resolve imports from their own folder: run the checker there.
cp scripts/check-mermaid.mjs "$cache/"
node "$cache/check-mermaid.mjs" "$tmp"/*.mmd
