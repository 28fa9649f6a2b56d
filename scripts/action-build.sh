#!/usr/bin/env bash
# Builds stormcheck from the Action's own checkout, for a ref with no release
# binary (action-install.sh wrote build=true; actions/setup-go put Go on the
# PATH). The runner fetches an Action as an archive, without .git, so the
# ref is stamped as the version: --version names what was built.
#
# ACTION_REF  the Action's ref (default: the folder name the runner checked
#             it out to); GITHUB_ACTION_PATH its checkout; INSTALL_DIR where
#             the binary goes.
set -euo pipefail

src=${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is the checkout to build}
dir=${INSTALL_DIR:-${RUNNER_TEMP:-/tmp}/stormcheck-bin}
ref=${ACTION_REF:-$(basename "$src")}
exe=stormcheck
case "${RUNNER_OS:-$(uname -s)}" in Windows | MINGW* | MSYS*) exe=stormcheck.exe ;; esac

mkdir -p "$dir"
(cd "$src" && go build -ldflags "-X github.com/stormcheck/stormcheck/cmd.version=$ref" -o "$dir/$exe" .)
if [ -n "${GITHUB_PATH:-}" ]; then
	echo "$dir" >>"$GITHUB_PATH"
fi
"$dir/$exe" --version
echo "stormcheck built from $ref in $dir"
