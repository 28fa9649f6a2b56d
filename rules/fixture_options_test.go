package rules

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/analyze"
)

// fixtureOptions returns the analysis options of a fixture: the defaults,
// overridden by the JSON object in <fixture>.options beside it when there
// is one (field names of analyze.Options: {"Items": 100, "SpendCaps":
// [{"Provider": "openai", "USD": 20, "Period": "day"}]}). Rules that read
// configuration (spend caps, prices, in-flight limits) need it.
func fixtureOptions(t *testing.T, path string) analyze.Options {
	t.Helper()
	opts := analyze.DefaultOptions()
	b, err := os.ReadFile(strings.TrimSuffix(path, ".json") + ".options")
	if os.IsNotExist(err) {
		return opts
	}
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&opts); err != nil {
		t.Fatalf("%s.options: %v", strings.TrimSuffix(path, ".json"), err)
	}
	return opts
}
