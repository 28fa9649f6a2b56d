package analyze

import (
	"slices"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

func TestAnswerSense(t *testing.T) {
	for _, tc := range []struct {
		left, right, op string
		sure, asked     bool
		want            senderSense
	}{
		{"={{ $json.active }}", "", "true", false, true, ownerIfTrue},
		{"={{ $json.active }}", "", "false", false, true, ownerIfFalse},
		{"={{ $json.user.id }}", "", "exists", false, false, ownerIfTrue}, // a table read's row
		{"={{ $json[\"plan\"] }}", "", "notExists", true, false, ownerIfFalse},
		// review28 item 2: a service answers a stranger's id with the same field ({"active": false})
		{"={{ $json.active }}", "", "exists", true, true, noSenderTest},
		{"={{ $json.active }}", "", "notEmpty", true, true, noSenderTest},
		{"={{ $json.status }}", "", "isNotEmpty", false, true, noSenderTest},
		{"={{ $json.plan }}", "", "notExists", true, true, noSenderTest},
		{"={{ $json.plan }}", "", "empty", true, true, noSenderTest},
		{"={{ $json.status }}", "active", "equals", false, true, ownerIfTrue},
		{"active", "={{ $json.status }}", "equals", false, true, ownerIfTrue},
		{"={{ $json.status }}", "active", "notEquals", false, true, ownerIfFalse},
		// review28 item 5: a 200 with {} for an unknown id is not false, nor 0: no test, sure or not
		{"={{ $json.active }}", "false", "equals", true, true, noSenderTest},
		{"={{ $json.credits }}", "0", "equals", true, true, noSenderTest},
		{"={{ $json.active }}", "false", "equals", false, true, noSenderTest},
		{"={{ $json.active }}", "false", "notEquals", false, true, noSenderTest},
		{"={{ $json.active }}", "false", "notEquals", true, true, noSenderTest},
		{"={{ $json.error }}", "", "notExists", false, false, noSenderTest}, // an error item's own field
		{"={{ $json.status }}", "={{ $json.plan }}", "equals", true, true, noSenderTest},
		{"={{ $('Telegram Trigger').item.json.message.text }}", "", "notEmpty", true, true, noSenderTest},
		{"={{ $json.active && $json.paid }}", "", "true", true, true, noSenderTest},
		{"={{ $json.chat_id }}", "", "exists", true, false, noSenderTest}, // the sender's id, not an answer
		{"={{ $json.count }}", "3", "gt", true, true, noSenderTest},
		{"={{ $json.credits }}", "1", "smaller", true, true, noSenderTest},
	} {
		if got := answerSense(tc.left, tc.right, tc.op, tc.sure, tc.asked); got != tc.want {
			t.Errorf("answerSense(%q, %q, %q, %v, %v) = %d, want %d", tc.left, tc.right, tc.op, tc.sure, tc.asked, got, tc.want)
		}
	}
}

func TestOwnerService(t *testing.T) {
	for host, want := range map[string]bool{
		"n8n-automations-liard.vercel.app": true,
		"backend.example-app.dev":          true,
		"api.telegram.org":                 false,
		"api.telegram.org.":                false, // review28 item 11: a trailing-dot name
		"api.openai.com":                   false,
		"sheets.googleapis.com":            false,
		"www.googleapis.com":               false,
		"slack.com":                        false,
		"api.notion.com":                   false,
	} {
		if got := ownerService(host); got != want {
			t.Errorf("ownerService(%q) = %v, want %v", host, got, want)
		}
	}
}

// TestV1DefaultOperation: If 1 stores no operation at its type's default,
// and a number's is smaller (IfV1.node.js): credits < 1 is no member's
// test, though credits = 1 would be (review28 item 6).
func TestV1DefaultOperation(t *testing.T) {
	for _, tc := range []struct {
		list, value2 string
		want         []int
	}{
		{"number", "1", nil},
		{"string", `"gold"`, []int{0}},
		{"boolean", "true", []int{0}},
		{"dateTime", `"2026-01-01"`, nil},
	} {
		src := `{"name":"x","nodes":[{"name":"If","type":"n8n-nodes-base.if","typeVersion":1,"position":[0,0],"parameters":{"conditions":{"` + tc.list + `":[{"value1":"={{ $json.plan }}","value2":` + tc.value2 + `}]}}}],"connections":{}}`
		f := n8nschema.Parse(n8nschema.NewSource("x.json", []byte(src)))
		n := f.Workflows[0].Nodes[0]
		got := senderBranch(n, func(l, r, op string) senderSense { return answerSense(l, r, op, true, true) })
		if !slices.Equal(got, tc.want) {
			t.Errorf("If 1 %s condition with no operation: member outputs %v, want %v", tc.list, got, tc.want)
		}
	}
}

// TestV1DefaultOperationElsewhere: a Switch 2 rule (dataType number by
// default) and If 1's status poll read a missing operation as n8n does.
func TestV1DefaultOperationElsewhere(t *testing.T) {
	sw := `{"name":"x","nodes":[{"name":"S","type":"n8n-nodes-base.switch","typeVersion":2,"position":[0,0],"parameters":{"value1":"={{ $json.message.from.id }}","rules":{"rules":[{"value2":123456789}]}}}],"connections":{}}`
	f := n8nschema.Parse(n8nschema.NewSource("x.json", []byte(sw)))
	if got := senderBranch(f.Workflows[0].Nodes[0], conditionSense); len(got) != 0 {
		t.Errorf("Switch 2, number rule with no operation (smaller): owner's outputs %v, want none", got)
	}
	sw = strings.Replace(sw, `"parameters":{"value1"`, `"parameters":{"dataType":"string","value1"`, 1)
	f = n8nschema.Parse(n8nschema.NewSource("x.json", []byte(sw)))
	if got := senderBranch(f.Workflows[0].Nodes[0], conditionSense); !slices.Equal(got, []int{0}) {
		t.Errorf("Switch 2, string rule with no operation (equal): owner's outputs %v, want [0]", got)
	}
	for op, want := range map[string]int{"": outOther, "equal": outAny} {
		c := `{"value1":"={{ $json.status }}","value2":3`
		if op != "" {
			c += `,"operation":"` + op + `"`
		}
		src := `{"name":"x","nodes":[{"name":"If","type":"n8n-nodes-base.if","typeVersion":1,"position":[0,0],"parameters":{"conditions":{"number":[` + c + `}]}}}],"connections":{}}`
		f := n8nschema.Parse(n8nschema.NewSource("x.json", []byte(src)))
		if got := v1Outcome(f.Workflows[0].Nodes[0].Params()); got.kind != want {
			t.Errorf("If 1 number status with operation %q: outcome %+v, want kind %d", op, got, want)
		}
	}
}
