#!/usr/bin/env bash
# Installs the stormcheck release binary for the GitHub Action (action.yml),
# verified against the release's checksums.txt: no Go toolchain, no build,
# when the ref has a release.
#
# VERSION     the version input: a release tag (v1.2.3), or a major or minor
#             tag (v1, v1.2) that resolves to its newest release.
# ACTION_REF  the Action's own ref, used when VERSION is empty; default: the
#             folder the runner checked the Action out to,
#             .../_actions/OWNER/REPO/REF (github.action_ref is empty in some
#             composite-action steps: actions/runner#2525).
#
# When the Action's own ref has no release binary (a commit SHA, a branch, a
# tag not released), nothing is installed and "build=true" goes to the step
# outputs: the next steps build stormcheck from the Action's checkout, which
# is that ref's source (action-build.sh). A version asked for by the input
# must be a release: its source is not what the runner checked out.
# Overridable for tests: STORMCHECK_REPO (owner/name), STORMCHECK_DOWNLOAD_URL
# (release downloads), STORMCHECK_API_URL (the GitHub API), INSTALL_DIR.
set -euo pipefail

repo=${STORMCHECK_REPO:-stormcheck/stormcheck}
download=${STORMCHECK_DOWNLOAD_URL:-https://github.com/$repo/releases/download}
api=${STORMCHECK_API_URL:-https://api.github.com}
dir=${INSTALL_DIR:-${RUNNER_TEMP:-/tmp}/stormcheck-bin}
version=${VERSION:-}
own=false # the version is the Action's own ref: its checkout can be built
if [ -z "$version" ]; then
	own=true
	version=${ACTION_REF:-}
	if [ -z "$version" ] && [ -n "${GITHUB_ACTION_PATH:-}" ]; then
		version=$(basename "$GITHUB_ACTION_PATH")
	fi
fi

die() { echo "stormcheck install: $*" >&2; exit 1; }
# build hands over to action-build.sh when the version is the Action's own
# ref; else it fails with the reason.
build() {
	if [ "$own" != true ]; then
		die "$*: the version input takes a release tag (leave it empty to use the Action's own ref)"
	fi
	echo "stormcheck install: $*; building the Action's own checkout ($version) instead"
	# The Go its go.mod names, for actions/setup-go (github.action_path is
	# unreliable in composite actions: actions/runner#2517; the step's
	# GITHUB_ACTION_PATH is not).
	gov=$(awk '$1 == "go" { print $2; exit }' "${GITHUB_ACTION_PATH:-.}/go.mod" 2>/dev/null || true)
	{
		echo "build=true"
		echo "go-version=${gov:-stable}"
	} >>"${GITHUB_OUTPUT:-/dev/null}"
	exit 0
}
fetch() { curl --fail --silent --show-error --location --retry 3 --max-time 60 "$@"; }

semver='^v[0-9]+\.[0-9]+\.[0-9]+$'
if [[ ! $version =~ $semver ]]; then
	if [[ $version =~ ^v[0-9]+(\.[0-9]+)?$ ]]; then
		# A moving tag (uses: stormcheck/stormcheck@v1): its newest release.
		tags=$(fetch "$api/repos/$repo/releases?per_page=100" | grep -o '"tag_name": *"[^"]*"' | sed 's/.*"\([^"]*\)"$/\1/') ||
			die "cannot list the releases of $repo"
		resolved=$(printf '%s\n' $tags | grep -E "$semver" | awk -v p="$version." 'index($0, p) == 1' | sort -V | tail -n 1 || true)
		[ -n "$resolved" ] || build "no release matches $version"
		version=$resolved
	else
		build "version \"$version\" is not a release tag"
	fi
fi

case "${RUNNER_OS:-$(uname -s)}" in
Linux) os=linux ;;
macOS | Darwin) os=darwin ;;
Windows | MINGW* | MSYS*) os=windows ;;
*) die "unsupported OS ${RUNNER_OS:-$(uname -s)}" ;;
esac
case "${RUNNER_ARCH:-$(uname -m)}" in
X64 | x86_64 | amd64) arch=amd64 ;;
ARM64 | aarch64 | arm64) arch=arm64 ;;
*) die "unsupported architecture ${RUNNER_ARCH:-$(uname -m)}" ;;
esac
ext=tar.gz
[ "$os" = windows ] && ext=zip
archive="stormcheck_${version#v}_${os}_${arch}.$ext"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fetch --output "$tmp/$archive" "$download/$version/$archive" || build "cannot download $archive of $version"
fetch --output "$tmp/checksums.txt" "$download/$version/checksums.txt" || build "cannot download checksums.txt of $version"
want=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1 }' "$tmp/checksums.txt")
[ -n "$want" ] || die "checksums.txt of $version does not list $archive"
if command -v sha256sum >/dev/null; then
	got=$(sha256sum "$tmp/$archive" | awk '{ print $1 }')
else
	got=$(shasum -a 256 "$tmp/$archive" | awk '{ print $1 }')
fi
[ "$got" = "$want" ] || die "checksum mismatch for $archive: got $got, want $want"

mkdir -p "$dir"
if [ "$ext" = zip ]; then
	unzip -q -o "$tmp/$archive" stormcheck.exe -d "$dir"
else
	tar -xzf "$tmp/$archive" -C "$dir" stormcheck
fi
if [ -n "${GITHUB_PATH:-}" ]; then
	echo "$dir" >>"$GITHUB_PATH"
fi
echo "stormcheck $version installed in $dir"
