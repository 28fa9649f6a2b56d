package analyze

import (
	"slices"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

func TestFixedTicks(t *testing.T) {
	const hour, day = 3_600_000, 86_400_000
	for _, c := range []struct {
		rule string
		want []int
		ok   bool
	}{
		// n8n fills in the defaults (hour and minute 0, Sunday) before the trigger reads them.
		{`[{"field": "weeks", "triggerAtDay": [1], "triggerAtHour": 8}]`, []int{day + 8*hour}, true},
		{`[{"field": "weeks"}]`, []int{0}, true},
		{`[{"triggerAtHour": 6, "triggerAtMinute": 30}]`, []int{6*hour + 1_800_000, day + 6*hour + 1_800_000, 2*day + 6*hour + 1_800_000,
			3*day + 6*hour + 1_800_000, 4*day + 6*hour + 1_800_000, 5*day + 6*hour + 1_800_000, 6*day + 6*hour + 1_800_000}, true},
		{`[{"field": "minutes", "minutesInterval": 5}]`, nil, false},
		{`[{"field": "cronExpression", "expression": "0 7 * * 1"}]`, nil, false},
		{`[{"field": "days", "triggerAtHour": "={{ 7 }}"}]`, nil, false},
	} {
		src := `{"nodes": [{"name": "S", "type": "n8n-nodes-base.scheduleTrigger", "typeVersion": 1.2, "position": [0, 0], "parameters": {"rule": {"interval": ` + c.rule + `}}}], "connections": {}}`
		f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(src)))
		got, ok := fixedTicks(f.Workflows[0].Nodes[0])
		if ok != c.ok || !slices.Equal(got, c.want) {
			t.Errorf("%s: got %v %v, want %v %v", c.rule, got, ok, c.want, c.ok)
		}
	}
}

func TestMergeSpansAroundTheWeek(t *testing.T) {
	got := mergeSpans([][2]int{{weekMS - 1000, weekMS + 5000}, {4000, 9000}, {20000, 30000}})
	want := [][2]int{{0, 9000}, {20000, 30000}, {weekMS - 1000, weekMS}}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
