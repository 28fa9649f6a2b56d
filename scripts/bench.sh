#!/usr/bin/env bash
# Times `stormcheck audit --format json --fail-on never` over the real corpus
# beside `cat` and `jq -c .` over the same bytes and the npm linter flowlint
# (0.7.0, `flowlint scan DIR --format json`), in alternating runs, and prints
# one table of medians (wall and CPU), peak RSS (/usr/bin/time -v's "Maximum
# resident set size") and ratios. Then it times a generated 10,000-node
# workflow against its 1,000-node sibling and checks the goals of issue 7.
#
# Never run by `go test`; run it by hand: bash scripts/bench.sh [RUNS]
# (RUNS defaults to 5, at least 3). It installs what it lacks: jq, GNU time
# and npm through apt-get, flowlint into $STORMCHECK_CACHE (default
# ~/.cache/stormcheck). Environment: CORPUS, SEED_WORKFLOW, STORMCHECK_CACHE.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
if [ "$runs" -lt 3 ]; then
	echo "bench: at least 3 runs, for medians" >&2
	exit 2
fi
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

# measure NAME: one run of cmds[NAME]; appends "wall cpu rss_kib" to
# $res/NAME, cpu being user + sys seconds of the command and its children.
res=$work/results
mkdir -p "$res"
# Wall time comes from date (nanoseconds; time -v rounds to 10 ms, too
# coarse for the 1,000-node workflow), CPU and RSS from time -v.
measure() {
	local t0 t1
	t0=$(date +%s%N)
	/usr/bin/time -v -o "$res/.t" bash -c "${cmds[$1]}" || true
	t1=$(date +%s%N)
	awk -F': ' -v ns=$((t1 - t0)) '
		/User time/ { user = $2 } /System time/ { sys = $2 } /Maximum resident set size/ { rss = $2 }
		END { printf "%.3f %.3f %d\n", ns / 1e9, user + sys, rss }' "$res/.t" >>"$res/$1"
}
# median COLUMN FILE
median() { cut -d' ' -f"$1" "$2" | sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
peak() { cut -d' ' -f3 "$1" | sort -n | tail -1 | awk '{printf "%.1f", $1/1024}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a/b; else print "-" }'; }

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
echo "corpus: $nfiles files, $bytes bytes; $runs alternating runs each"
echo "machine: $(nproc) cores ($cpu), $(go version | cut -d' ' -f3-), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
for name in "${order[@]}"; do measure "$name" >/dev/null 2>&1; done # warm the page cache
for name in "${order[@]}"; do : >"$res/$name"; done
for _ in $(seq 1 "$runs"); do
	for name in "${order[@]}"; do measure "$name"; done
done

sc_wall=$(median 1 "$res/stormcheck")
sc_cpu=$(median 2 "$res/stormcheck")
printf '\n| command | median wall (s) | median CPU user+sys (s) | peak RSS (MiB) | stormcheck ÷ it, wall | stormcheck ÷ it, CPU |\n|---|---:|---:|---:|---:|---:|\n'
for name in "${order[@]}"; do
	w=$(median 1 "$res/$name")
	c=$(median 2 "$res/$name")
	printf '| %s | %s | %s | %s | %s | %s |\n' "$name" "$w" "$c" "$(peak "$res/$name")" "$(ratio "$sc_wall" "$w")" "$(ratio "$sc_cpu" "$c")"
done

# Growth: a 10,000-node workflow against its 1,000-node sibling.
seed=${SEED_WORKFLOW:-$corpus/Zie619__n8n-workflows/workflows/Wait/1282_Wait_Code_Import_Webhook.json}
go run ./scripts/genworkflow -from "$seed" -nodes 1000 -o "$work/gen1k.json"
go run ./scripts/genworkflow -from "$seed" -nodes 10000 -o "$work/gen10k.json"
cmds[gen1k]="'$sc' audit --format json --fail-on never '$work/gen1k.json' >/dev/null"
cmds[gen10k]="'$sc' audit --format json --fail-on never '$work/gen10k.json' >/dev/null"
: >"$res/gen1k"
: >"$res/gen10k"
for _ in $(seq 1 "$runs"); do measure gen1k; measure gen10k; done
printf '\n| generated workflow | median wall (s) | median CPU user+sys (s) | peak RSS (MiB) |\n|---|---:|---:|---:|\n'
for name in gen1k gen10k; do
	printf '| %s | %s | %s | %s |\n' "$name" "$(median 1 "$res/$name")" "$(median 2 "$res/$name")" "$(peak "$res/$name")"
done
g_wall=$(ratio "$(median 1 "$res/gen10k")" "$(median 1 "$res/gen1k")")
g_cpu=$(ratio "$(median 2 "$res/gen10k")" "$(median 2 "$res/gen1k")")

# The goals of issue 7, from this run's medians.
goal() { # description, value, limit
	awk -v d="$1" -v v="$2" -v l="$3" 'BEGIN { printf "- %s: %s (goal ≤ %s): %s\n", d, v, l, (v + 0 <= l + 0) ? "met" : "missed" }'
}
printf '\nGoals:\n'
goal "stormcheck ÷ flowlint, wall" "$(ratio "$sc_wall" "$(median 1 "$res/flowlint")")" 0.10
goal "stormcheck ÷ cat, wall" "$(ratio "$sc_wall" "$(median 1 "$res/cat")")" 2
goal "stormcheck peak RSS on the corpus, MiB" "$(peak "$res/stormcheck")" 50
goal "10,000 ÷ 1,000 nodes, wall" "$g_wall" 10.5
echo "  (10,000 ÷ 1,000 nodes, CPU: ${g_cpu}×)"
