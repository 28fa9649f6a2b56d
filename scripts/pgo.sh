#!/usr/bin/env bash
# Regenerates default.pgo, the CPU profile that `go build` of the main
# package reads for profile-guided optimisation (Go 1.21+, -pgo=auto):
# ten audits of ../shared/corpus/n8n-real with the JSON report, in one
# process, with the collector set as main.go sets it. Run it after changes
# that move the hot paths (a release regenerates it); the gain measured is
# in docs/performance.md.
#
# Usage: bash scripts/pgo.sh [RUNS]   (default 10)
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${SHARED:-../shared}/corpus/n8n-real
[ -d "$corpus" ] || { echo "pgo: $corpus not found" >&2; exit 2; }
runs=${1:-10}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/pgoprofile" ./scripts/pgoprofile
# main.go's collector settings (GOGC=170, a 100 MiB soft limit).
GOGC=170 GOMEMLIMIT=100MiB "$work/pgoprofile" -o "$work/default.pgo" -n "$runs" \
	audit "$corpus" --format json --fail-on never
mv "$work/default.pgo" default.pgo
echo "pgo: default.pgo from $runs audits of $corpus ($(wc -c <default.pgo) bytes)"
