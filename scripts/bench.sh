#!/usr/bin/env bash
# Times `stormcheck audit --format json --fail-on never` over the real corpus
# beside `cat` and `jq -c .` over the same bytes and the npm linter flowlint,
# alternating runs, and prints medians, ratios and peak RSS. Then times a
# generated 10,000-node workflow against its 1,000-node sibling.
# Never run by `go test`; run it by hand: bash scripts/bench.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
corpus=${CORPUS:-../shared/corpus/n8n-real}
cache=${STORMCHECK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/stormcheck}
[ -d "$corpus" ] || { echo "bench: $corpus not found (it lives in ../shared)" >&2; exit 2; }

need() { command -v "$1" >/dev/null 2>&1; }
if ! need jq || [ ! -x /usr/bin/time ] || ! need npm; then
	apt-get update -qq && apt-get install -y -qq jq time nodejs npm >/dev/null
fi
flowlint_dir=$cache/flowlint-0.7.0
if [ ! -x "$flowlint_dir/node_modules/.bin/flowlint" ]; then
	mkdir -p "$flowlint_dir"
	(cd "$flowlint_dir" && npm install --no-audit --no-fund --loglevel=error flowlint@0.7.0 >/dev/null)
fi
flowlint=$flowlint_dir/node_modules/.bin/flowlint

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/stormcheck" .
sc=$work/stormcheck
find "$corpus" -name '*.json' -print0 | LC_ALL=C sort -z >"$work/files"
bytes=$(xargs -0 cat <"$work/files" | wc -c)
nfiles=$(tr -cd '\0' <"$work/files" | wc -c)

declare -A cmds=(
	[cat]="xargs -0 cat <'$work/files' >/dev/null"
	[jq]="xargs -0 jq -c . <'$work/files' >/dev/null 2>&1 || true"
	[stormcheck]="'$sc' audit --format json --fail-on never '$corpus' >/dev/null"
	[flowlint]="'$flowlint' scan '$corpus' --format json >/dev/null 2>&1 || true"
)
order=(cat jq stormcheck flowlint)

# measure NAME: one run, appends "seconds rss_kib" to $res/NAME.
res=$work/results
mkdir -p "$res"
measure() {
	/usr/bin/time -f '%e %M' -o "$res/.t" bash -c "${cmds[$1]}"
	cat "$res/.t" >>"$res/$1"
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

echo "corpus: $nfiles files, $bytes bytes; $runs alternating runs each; machine: $(nproc) cores" >&2
for name in "${order[@]}"; do measure "$name" >/dev/null 2>&1; done # warm the page cache
for name in "${order[@]}"; do : >"$res/$name"; done
for _ in $(seq 1 "$runs"); do
	for name in "${order[@]}"; do measure "$name"; done
done

sc_med=$(cut -d' ' -f1 "$res/stormcheck" | median)
printf '\n| command | median wall (s) | peak RSS (MiB) | stormcheck ÷ it |\n|---|---:|---:|---:|\n'
for name in "${order[@]}"; do
	med=$(cut -d' ' -f1 "$res/$name" | median)
	rss=$(cut -d' ' -f2 "$res/$name" | sort -n | tail -1)
	ratio=$(awk -v a="$sc_med" -v b="$med" 'BEGIN { if (b > 0) printf "%.2f", a/b; else print "-" }')
	printf '| %s | %s | %.1f | %s |\n' "$name" "$med" "$(awk -v k="$rss" 'BEGIN{print k/1024}')" "$ratio"
done

# Growth: a 10,000-node workflow against its 1,000-node sibling.
seed=${SEED_WORKFLOW:-$corpus/Zie619__n8n-workflows/workflows/Wait/1282_Wait_Code_Import_Webhook.json}
go run ./scripts/genworkflow -from "$seed" -nodes 1000 -o "$work/gen1k.json"
go run ./scripts/genworkflow -from "$seed" -nodes 10000 -o "$work/gen10k.json"
cmds[gen1k]="'$sc' audit --format json --fail-on never '$work/gen1k.json' >/dev/null"
cmds[gen10k]="'$sc' audit --format json --fail-on never '$work/gen10k.json' >/dev/null"
: >"$res/gen1k"; : >"$res/gen10k"
for _ in $(seq 1 "$runs"); do measure gen1k; measure gen10k; done
g1=$(cut -d' ' -f1 "$res/gen1k" | median)
g10=$(cut -d' ' -f1 "$res/gen10k" | median)
printf '\n| generated workflow | median wall (s) | peak RSS (MiB) |\n|---|---:|---:|\n'
for name in gen1k gen10k; do
	printf '| %s | %s | %.1f |\n' "$name" "$(cut -d' ' -f1 "$res/$name" | median)" \
		"$(awk -v k="$(cut -d' ' -f2 "$res/$name" | sort -n | tail -1)" 'BEGIN{print k/1024}')"
done
awk -v a="$g10" -v b="$g1" 'BEGIN { if (b > 0) printf "\n10,000 ÷ 1,000 nodes: %.2f×\n", a/b }'
