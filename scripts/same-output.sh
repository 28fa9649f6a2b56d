#!/usr/bin/env bash
# Checks that the working tree's stormcheck prints byte for byte what a
# reference commit's does: every format (text, concise, json, sarif, github,
# markdown, and --diff) over ../shared/corpus/n8n-real, ../shared/corpus/n8n-more
# and testdata/examples, plus the corpus given twice in reverse argument order.
# A refactor that must not change output (issue 14: two passes, a new parser)
# runs this before it lands.
#
# Usage: bash scripts/same-output.sh [REF]   (REF defaults to 83625a3, the
# last commit before the two-pass audit). Exits 1 on the first difference,
# printing the start of the diff. Never run by go test: it takes a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
ref=${1:-83625a3}
shared=${SHARED:-../shared}
[ -d "$shared/corpus" ] || { echo "same-output: $shared/corpus not found" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cache=${STORMCHECK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/stormcheck}/same-output
mkdir -p "$cache"
old=$cache/stormcheck-$(git rev-parse --short "$ref")
if [ ! -x "$old" ]; then
	git worktree add -q --detach "$work/ref" "$ref"
	(cd "$work/ref" && go build -o "$old" .)
	git worktree remove --force "$work/ref"
fi
go build -o "$work/new" .
fail=0
run() { # NAME ARGS...: runs both binaries with ARGS, compares stdout and exit code
	local name=$1
	shift
	local rc_old=0 rc_new=0
	"$old" "$@" >"$work/$name.old" 2>"$work/$name.old.err" || rc_old=$?
	"$work/new" "$@" >"$work/$name.new" 2>"$work/$name.new.err" || rc_new=$?
	if [ "$rc_old" != "$rc_new" ]; then
		echo "DIFF $name: exit $rc_old before, $rc_new now" >&2
		fail=1
	elif ! cmp -s "$work/$name.old" "$work/$name.new"; then
		echo "DIFF $name:" >&2
		diff "$work/$name.old" "$work/$name.new" | head -20 >&2 || true
		fail=1
	else
		echo "same $name ($(wc -c <"$work/$name.new") bytes, exit $rc_new)"
	fi
}
for set in "$shared/corpus/n8n-real" "$shared/corpus/n8n-more" testdata/examples; do
	tag=$(basename "$set")
	for f in text concise json sarif github markdown; do
		run "$tag.$f" audit --color never --fail-on warning --format "$f" "$set"
	done
	run "$tag.diff" audit --color never --diff --unsafe-fixes "$set"
done
# Argument order: the same set given as its subfolders, reversed.
mapfile -t parts < <(find "$shared/corpus/n8n-real" -mindepth 1 -maxdepth 1 | LC_ALL=C sort -r)
run "n8n-real.reversed.json" audit --fail-on never --format json "${parts[@]}"
run "n8n-real.reversed.text" audit --color never --fail-on never --format text "${parts[@]}"
exit $fail
