#!/usr/bin/env bash
# The engine as test oracle: run every case of testdata/engine in a real
# n8n against scripts/failserver (a loopback dependency that always fails
# and logs each request), then compare what n8n sent with what stormcheck
# says of the same workflow (scripts/oraclecheck: the audit's attempts, and
# simulate's attempts, count and offsets). Also imports and activates every
# workflow of testdata/examples. Prints the table of cases; exits 1 when a
# case differs or an example does not activate.
#
#   bash scripts/e2e-oracle.sh                          # n8n 2.8.4 (CI)
#   bash scripts/e2e-oracle.sh --n8n-version 2.41.1     # the documented job
#   bash scripts/e2e-oracle.sh --n8n-version 1.123.81
#   bash scripts/e2e-oracle.sh --run agent --table out.md --log requests.jsonl
#
# 2.8.4 installs with the machine's Node 20 as scripts/e2e-n8n.sh does.
# Newer versions want Node >= 22: the script installs Node 24 from npm (the
# node@24 package) beside n8n, installs n8n with --ignore-scripts and then
# builds only sqlite3 and isolated-vm (2.41.3's pinned packages are missing
# from the registry; 2.41.1 is the newest 2.x that installs). Installs go
# to ~/.cache/stormcheck/n8n-<version> and are reused.
#
# The case workflows call 127.0.0.1:25690 (and localhost:25690 for what
# must not fail), so failserver listens there: below 32768, outside Linux's
# ephemeral ports, which n8n's own outgoing connections (its task runner's)
# may hold. The n8n ports are below it for the same reason. Every wait is bounded; n8n
# and failserver are stopped by their PIDs.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

N8N_VERSION=2.8.4
run=""
table=""
keep_log=""
install_only=""
while [ $# -gt 0 ]; do
	case $1 in
	--n8n-version) N8N_VERSION=$2; shift 2 ;;
	--run) run=$2; shift 2 ;;
	--table) table=$2; shift 2 ;;
	--log) keep_log=$2; shift 2 ;;
	--install-only) install_only=1; shift ;;
	*) echo "usage: $0 [--n8n-version V] [--run SUBSTRING] [--table FILE] [--log FILE] [--install-only]" >&2; exit 2 ;;
	esac
done

cache=${STORMCHECK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/stormcheck}
n8n_dir=$cache/n8n-$N8N_VERSION
port=${E2E_ORACLE_PORT:-25700}
fail_addr=127.0.0.1:25690
work=$(mktemp -d)
pid=""
fs_pid=""

log() { printf 'oracle: %s\n' "$*" >&2; }
die() { log "FAIL: $*"; exit 1; }
stop() { # pid
	[ -n "$1" ] && kill -0 "$1" 2>/dev/null || return 0
	kill "$1" 2>/dev/null || true
	for _ in $(seq 1 30); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.5; done
	kill -9 "$1" 2>/dev/null || true
}
cleanup() { stop "$pid"; stop "$fs_pid"; rm -rf "$work"; }
trap cleanup EXIT

need() { command -v "$1" >/dev/null 2>&1; }
if ! need jq || ! need curl || ! need node; then
	log "installing jq, curl, nodejs, npm"
	apt-get update -qq && apt-get install -y -qq jq curl nodejs npm >/dev/null
fi

# Node 24 from npm for the versions whose engines want Node >= 22.
node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$N8N_VERSION" != 2.8.4 ] && [ "$node_major" -lt 22 ]; then
	node_dir=$cache/node-24
	if [ ! -x "$node_dir/node_modules/node/bin/node" ]; then
		log "installing Node 24 (npm package node@24) into $node_dir"
		mkdir -p "$node_dir"
		(cd "$node_dir" && timeout 600 npm install --no-audit --no-fund --loglevel=error node@24) || die "npm install node@24 failed"
	fi
	export PATH="$node_dir/node_modules/node/bin:$PATH"
	log "using $(node --version)"
fi

if [ ! -x "$n8n_dir/node_modules/.bin/n8n" ]; then
	log "installing n8n@$N8N_VERSION into $n8n_dir (takes minutes the first time)"
	mkdir -p "$n8n_dir"
	cat >"$n8n_dir/package.json" <<JSON
{ "name": "stormcheck-e2e-n8n", "private": true,
  "dependencies": { "n8n": "$N8N_VERSION" },
  "overrides": { "xlsx": "0.18.5" } }
JSON
	start=$(date +%s)
	if [ "$N8N_VERSION" = 2.8.4 ]; then
		(cd "$n8n_dir" && timeout 1500 npm install --no-audit --no-fund --loglevel=error) || die "npm install n8n failed"
	else
		(cd "$n8n_dir" && timeout 1500 npm install --no-audit --no-fund --loglevel=error --ignore-scripts &&
			timeout 900 npm rebuild sqlite3 isolated-vm) || die "npm install n8n failed"
	fi
	log "n8n installed in $(( $(date +%s) - start )) s"
fi
n8n=$n8n_dir/node_modules/.bin/n8n
# The node table is generated from the newest release (scripts/gencatalog),
# which CI installs this way to check it.
[ -z "$install_only" ] || exit 0

export N8N_USER_FOLDER=$work/n8n-home
export N8N_PORT=$port N8N_LISTEN_ADDRESS=127.0.0.1 N8N_RUNNERS_BROKER_PORT=$((port + 1))
export DB_TYPE=sqlite N8N_DIAGNOSTICS_ENABLED=false N8N_VERSION_NOTIFICATIONS_ENABLED=false
export N8N_TEMPLATES_ENABLED=false N8N_PERSONALIZATION_ENABLED=false N8N_SECURE_COOKIE=false
export N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS=false N8N_RUNNERS_ENABLED=false
mkdir -p "$N8N_USER_FOLDER"
base=http://127.0.0.1:$port
t_start=$(date +%s)

log "building stormcheck, failserver and oraclecheck"
go build -o "$work/stormcheck" .
go build -o "$work/failserver" ./scripts/failserver
go build -o "$work/oraclecheck" ./scripts/oraclecheck

# The cases (a file may hold a workflow and its sub-workflow or error
# workflow), in one array; each credential is made from its name, which
# is "oracle <base URL>" (the URL the model is pointed at).
cases=()
for f in "$repo"/testdata/engine/*.json; do
	c=$(basename "$f" .json)
	[ -z "$run" ] || [[ $c == *"$run"* ]] || continue
	grep -qP "^\Q$c\E\t" "$repo/testdata/engine/cases.tsv" || die "$c.json has no line in testdata/engine/cases.tsv"
	cases+=("$c")
done
[ ${#cases[@]} -gt 0 ] || die "no case matches --run $run"
files=()
for c in "${cases[@]}"; do files+=("$repo/testdata/engine/$c.json"); done
jq -s 'map(if type == "array" then .[] else . end)' "${files[@]}" >"$work/cases.json"
jq '[.[].nodes[] | .credentials // {} | to_entries[] | {id: .value.id, name: .value.name, type: .key,
	data: ((.value.name | ltrimstr("oracle ")) as $u
		| if .key == "googlePalmApi" then {apiKey: "oracle-local-key", host: $u}
		  elif .key == "zohoOAuth2Api" then {clientId: "oracle", clientSecret: "oracle",
			oauthTokenData: {access_token: "oracle-local-key", token_type: "Bearer", api_domain: $u}}
		  else {apiKey: "oracle-local-key", url: $u} end)}]
	| unique_by(.id)' "$work/cases.json" >"$work/credentials.json"

log "importing $(jq length "$work/credentials.json") credentials, ${#cases[@]} cases and testdata/examples"
if [ "$(jq length "$work/credentials.json")" -gt 0 ]; then
	timeout 300 "$n8n" import:credentials --input="$work/credentials.json" >"$work/import.log" 2>&1 \
		|| { cat "$work/import.log" >&2; die "n8n import:credentials failed"; }
fi
timeout 300 "$n8n" import:workflow --input="$work/cases.json" >>"$work/import.log" 2>&1 \
	|| { cat "$work/import.log" >&2; die "n8n import:workflow of the cases failed"; }
timeout 300 "$n8n" import:workflow --separate --input="$repo/testdata/examples" >>"$work/import.log" 2>&1 \
	|| { cat "$work/import.log" >&2; die "n8n import:workflow of testdata/examples failed"; }

log "starting n8n $N8N_VERSION on $base"
"$n8n" start >"$work/n8n.log" 2>&1 &
pid=$!
ready=""
for _ in $(seq 1 240); do
	kill -0 "$pid" 2>/dev/null || { tail -30 "$work/n8n.log" >&2; die "n8n exited"; }
	if curl -fsS --max-time 5 "$base/rest/settings" 2>/dev/null | jq -e . >/dev/null 2>&1; then ready=1; break; fi
	sleep 1
done
[ -n "$ready" ] || { tail -30 "$work/n8n.log" >&2; die "n8n not ready after 240 s"; }

jar=$work/cookies
curl -fsS --max-time 30 -c "$jar" -H 'Content-Type: application/json' \
	-d '{"email":"oracle@stormcheck.invalid","firstName":"Oracle","lastName":"Stormcheck","password":"Oracle-Stormcheck-9"}' \
	"$base/rest/owner/setup" >/dev/null || die "owner setup failed"
key=$(curl -fsS --max-time 30 -b "$jar" -H 'Content-Type: application/json' \
	-d '{"label":"stormcheck-oracle","scopes":["workflow:list","workflow:read","workflow:activate","workflow:deactivate","execution:list","execution:read"],"expiresAt":null}' \
	"$base/rest/api-keys" | jq -r '.data.rawApiKey')
[ -n "$key" ] && [ "$key" != null ] || die "no API key created"
api() { curl -sS --max-time 30 -H "X-N8N-API-KEY: $key" "$@"; }
for _ in $(seq 1 60); do
	code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 -H "X-N8N-API-KEY: $key" "$base/api/v1/workflows?limit=1")
	[ "$code" = 200 ] && break
	sleep 1
done
[ "$code" = 200 ] || die "public API not ready (HTTP $code)"

# Activate every workflow: a caller only after the sub-workflows it calls
# (n8n 2.x refuses to publish a caller of an unpublished sub-workflow), so
# in passes while one succeeds.
api "$base/api/v1/workflows?limit=250" | jq -r '.data[] | [.id, .name] | @tsv' >"$work/workflows.tsv"
cp "$work/workflows.tsv" "$work/inactive.tsv"
while [ -s "$work/inactive.tsv" ]; do
	: >"$work/still.tsv"
	while IFS=$'\t' read -r id name; do
		r=$(api -X POST "$base/api/v1/workflows/$id/activate")
		if [ "$(jq -r '.active // false' <<<"$r" 2>/dev/null)" = true ]; then continue; fi
		printf '%s\t%s\t%s\n' "$id" "$name" "$(jq -r '.message // .' <<<"$r" 2>/dev/null | tr '\t\n' '  ')" >>"$work/still.tsv"
	done < <(cut -f1,2 "$work/inactive.tsv")
	[ "$(wc -l <"$work/still.tsv")" -lt "$(wc -l <"$work/inactive.tsv")" ] || break
	cp "$work/still.tsv" "$work/inactive.tsv"
done
# n8n 1.x activates only workflows with a trigger that needs it; it runs
# sub-workflows and error workflows without (2.x publishes them too).
if [[ $N8N_VERSION == 1.* ]]; then
	grep -F 'has no node to start the workflow' "$work/still.tsv" | cut -f2 | sed 's/^/oracle: needs no activation in 1.x: /' >&2 || true
	grep -vF 'has no node to start the workflow' "$work/still.tsv" >"$work/still.1x" || true
	mv "$work/still.1x" "$work/still.tsv"
fi
inactive=$(cat "$work/still.tsv")
log "activated $(( $(wc -l <"$work/workflows.tsv") - $(wc -l <"$work/still.tsv") )) of $(wc -l <"$work/workflows.tsv") workflows"
# The examples are not run: deactivate them (a schedule could fire).
for f in "$repo"/testdata/examples/*.json; do
	id=$(jq -r '.id // empty' "$f")
	[ -n "$id" ] && api -X POST "$base/api/v1/workflows/$id/deactivate" >/dev/null || true
done

log "starting failserver on $fail_addr"
"$work/failserver" -addr "$fail_addr" -log "$work/requests.jsonl" -n8n "$base" -webhook-budget 39 2>"$work/failserver.log" &
fs_pid=$!
for _ in $(seq 1 50); do curl -s -o /dev/null --max-time 1 "http://$fail_addr/" && break; sleep 0.1; done
kill -0 "$fs_pid" 2>/dev/null || { cat "$work/failserver.log" >&2; die "failserver did not start (is $fail_addr taken?)"; }
running() { api "$base/api/v1/executions?status=running&limit=250" | jq '.data | length'; }
fire() { # cases... (0.2 s apart: 25 executions starting in the same instant
	# delay one another's first steps by seconds on a small machine)
	local fired=() c
	for c in "$@"; do
		curl -s -o /dev/null --max-time 30 -X POST -H 'Content-Type: application/json' -d '{}' "$base/webhook/oracle/$c" &
		fired+=($!)
		sleep 0.2
	done
	wait "${fired[@]}" || true
}
# The cases with several items (a self-restart that multiplies) go when
# the others have settled, so that their load does not shift the others'
# timings: the machine has few cores.
light=() heavy=()
for c in "${cases[@]}"; do
	if [ "$(awk -v c="$c" '$1 == c {print $3}' "$repo/testdata/engine/cases.tsv")" -gt 1 ]; then heavy+=("$c"); else light+=("$c"); fi
done
t_fire=$(date +%s)
log "firing ${#light[@]} webhooks"
[ ${#light[@]} -eq 0 ] || fire "${light[@]}"
if [ ${#heavy[@]} -gt 0 ]; then
	for _ in $(seq 1 60); do sleep 1; [ "$(running)" -le 1 ] && break; done
	log "firing ${#heavy[@]} more: ${heavy[*]}"
	fire "${heavy[@]}"
fi

# Done when no execution runs and nothing reached failserver for 10 s
# (the error workflow starts after its caller ends); at most 300 s.
quiet=0
last_size=-1
for _ in $(seq 1 300); do
	sleep 1
	size=$(wc -c <"$work/requests.jsonl")
	if [ "$size" = "$last_size" ] && [ "$(running)" = 0 ]; then quiet=$((quiet + 1)); else quiet=0; fi
	last_size=$size
	[ "$quiet" -ge 10 ] && break
done
[ "$quiet" -ge 10 ] || log "still running after 300 s: comparing what arrived"
log "n8n done in $(( $(date +%s) - t_fire )) s: $(wc -l <"$work/requests.jsonl") requests"

[ -z "$keep_log" ] || cp "$work/requests.jsonl" "$keep_log"
status=0
"$work/oraclecheck" -cases "$repo/testdata/engine" -log "$work/requests.jsonl" -stormcheck "$work/stormcheck" -run "$run" -n8n-version "$N8N_VERSION" >"$work/table.md" || status=$?
printf '\nn8n %s, %s\n\n' "$N8N_VERSION" "$(date -u +%F)"
cat "$work/table.md"
[ -z "$table" ] || { printf 'n8n %s\n\n' "$N8N_VERSION"; cat "$work/table.md"; } >"$table"
[ $status -le 1 ] || die "oraclecheck failed (exit $status)"
if [ -n "$inactive" ]; then
	log "workflows n8n refused to activate:"
	printf '%s\n' "$inactive" | cut -f2,3 | sed 's/^/  /' >&2
fi
log "total $(( $(date +%s) - t_start )) s"
[ $status -eq 0 ] || die "cases differ from what n8n sent (table above)"
[ -z "$inactive" ] || die "workflows that do not activate in n8n $N8N_VERSION"
log "ok"
