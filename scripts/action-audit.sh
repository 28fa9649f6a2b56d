#!/usr/bin/env bash
# The audit step of the GitHub Action (action.yml), run in the
# working-directory input: annotations to the log (--format github), SARIF
# to a file, a Markdown summary to the step summary. The exit code goes to
# the step outputs for the last step, so the SARIF upload runs whatever the
# findings.
#
# PATHS, FAIL_ON, CONFIG, BASELINE, EXTRA (more flags) and SARIF are the
# Action's inputs; STORMCHECK is the binary (default: stormcheck on PATH).
set -uo pipefail

sarif=$SARIF
case "$sarif" in /*) ;; *) sarif="$PWD/$sarif" ;; esac
summary=${GITHUB_STEP_SUMMARY:-/dev/null}
args=(audit --fail-on "${FAIL_ON:-error}" --format "sarif=$sarif" --format github --format "markdown=$summary")
if [ -n "${CONFIG:-}" ]; then args+=(--config "$CONFIG"); fi
if [ -n "${BASELINE:-}" ]; then args+=(--baseline "$BASELINE"); fi
read -r -a extra <<<"${EXTRA:-}"
read -r -a paths <<<"${PATHS:-.}"
"${STORMCHECK:-stormcheck}" "${args[@]}" "${extra[@]}" "${paths[@]}"
code=$?
{
	echo "exit-code=$code"
	echo "sarif-file=$sarif"
} >>"${GITHUB_OUTPUT:-/dev/null}"
exit 0
