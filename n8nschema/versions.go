package n8nschema

import (
	"fmt"
	"strconv"
	"strings"
)

// Version is an n8n release, as `n8n --version` prints it ("2.8.4").
type Version struct{ Major, Minor, Patch int }

// ParseVersion reads "2.8.4", "v2.8.4" or "2.8" (patch 0).
func ParseVersion(s string) (Version, error) {
	parts := strings.Split(strings.TrimPrefix(strings.TrimSpace(s), "v"), ".")
	if len(parts) < 2 || len(parts) > 3 {
		return Version{}, fmt.Errorf("%q: want an n8n version like 2.8.4", s)
	}
	var n [3]int
	for i, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 || v > 1_000_000 || p != strconv.Itoa(v) {
			return Version{}, fmt.Errorf("%q: want an n8n version like 2.8.4", s)
		}
		n[i] = v
	}
	return Version{n[0], n[1], n[2]}, nil
}

func (v Version) String() string { return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch) }

// Compare is -1, 0 or 1 as v is older than, the same as or newer than w.
func (v Version) Compare(w Version) int {
	for _, d := range [3]int{v.Major - w.Major, v.Minor - w.Minor, v.Patch - w.Patch} {
		if d != 0 {
			return max(-1, min(1, d))
		}
	}
	return 0
}

// KnownVersions are the n8n releases whose installed code and engine the
// facts were checked against, oldest first: the retry layers in
// testdata/engine were run in each (docs/n8n-facts.md).
var KnownVersions = []Version{{1, 123, 81}, {2, 8, 4}, {2, 41, 1}}

// NewestKnown is the version the facts default to when none is given.
func NewestKnown() Version { return KnownVersions[len(KnownVersions)-1] }

// Every fact in the catalog holds for every known version: the three
// sent the same requests in each engine case (testdata/engine). A fact
// that differs between versions gets the range it holds for next to it,
// keyed by these versions, with the newest known as the default.

// AgentV3ToolErrorsToModel says whether an AI Agent v3 hands a tool's
// failure (after the tool's own retries) back to its model, which may call
// the tool again, as Agent v2 does, rather than ending the execution.
// Observed in the engine (testdata/engine/tool-agent-v3.json): n8n 2.41.1
// hands it back (30 tool attempts and 10 model calls); 2.8.4 and 1.123.81
// end the execution (3 tool attempts, 1 model call). Releases between
// 2.8.4 and 2.41.1 were not run: they are taken to end it.
func AgentV3ToolErrorsToModel(v Version) bool {
	return v.Compare(Version{2, 41, 1}) >= 0
}

// Checked says whether the facts were checked on v's release line: v is
// no older than the oldest known minor release. Older releases may differ
// in ways nothing here says (the chat-model layer came with LangChain 1.x).
func Checked(v Version) bool {
	return v.Compare(Version{KnownVersions[0].Major, KnownVersions[0].Minor, 0}) >= 0
}
