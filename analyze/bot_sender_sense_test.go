package analyze

import "testing"

// TestConditionSense: which outcome of a test of the sender only the
// owner's message takes (senderSense), by operation and by the way the
// test is written.
func TestConditionSense(t *testing.T) {
	const chat = "={{ $json.message.chat.id }}"
	for _, tc := range []struct {
		left, right, op string
		want            senderSense
	}{
		{chat, "123456789", "equals", ownerIfTrue},
		{chat, "123456789", "", ownerIfTrue}, // n8n's default operation
		{chat, "123456789", "equal", ownerIfTrue},
		{"123456789", chat, "contains", ownerIfTrue},
		{chat, "^1234567$", "regex", ownerIfTrue},
		{chat, "123456789", "notEquals", ownerIfFalse},
		{chat, "123456789", "notEqual", ownerIfFalse},
		{chat, "123456789", "notContains", ownerIfFalse},
		{chat, "123456789", "notRegex", ownerIfFalse},
		{chat, "", "equals", ownerIfTrue},                    // a template's blank for the owner's id
		{chat, "", "notEquals", noSenderTest},                // anyone's id is not blank
		{chat, "", "exists", noSenderTest},                   // every update has a chat
		{chat, "0", "gt", noSenderTest},                      // not a test of who
		{chat, "={{ $json.owner }}", "equals", noSenderTest}, // a field of the item, not fixed
		{"={{ $json.message.text }}", "/start", "equals", noSenderTest},
		{"={{ $json.message.chat.id === 123456789 }}", "", "true", ownerIfTrue},
		{"={{ $json.message.chat.id === 123456789 }}", "", "false", ownerIfFalse},
		{"={{ $json.message.chat.id !== 123456789 }}", "", "true", ownerIfFalse},
		{"={{ $json.message.chat.id === 123456789 }}", "false", "equals", ownerIfFalse},
		{"={{ ['123456789'].includes($json.message.chat.id) }}", "", "true", ownerIfTrue},
		{"={{ !['123456789'].includes($json.message.chat.id) }}", "", "true", ownerIfFalse},
	} {
		if got := conditionSense(tc.left, tc.right, tc.op); got != tc.want {
			t.Errorf("conditionSense(%q, %q, %q) = %d, want %d", tc.left, tc.right, tc.op, got, tc.want)
		}
	}
}

// TestConditionsSense: "and" keeps strangers off the true way when one
// condition is the owner's test, "or" only when every one is; the false
// way is the mirror.
func TestConditionsSense(t *testing.T) {
	T, F, N := ownerIfTrue, ownerIfFalse, noSenderTest
	for _, tc := range []struct {
		senses       []senderSense
		or           bool
		wantT, wantF bool
	}{
		{[]senderSense{T}, false, true, false},
		{[]senderSense{T}, true, true, false},
		{[]senderSense{F}, false, false, true},
		{[]senderSense{T, N}, false, true, false},
		{[]senderSense{T, N}, true, false, false},
		{[]senderSense{T, T}, true, true, false},
		{[]senderSense{F, N}, false, false, false},
		{[]senderSense{F, N}, true, false, true},
		{nil, false, false, false},
	} {
		gt, gf := conditionsSense(tc.senses, tc.or)
		if gt != tc.wantT || gf != tc.wantF {
			t.Errorf("conditionsSense(%v, or=%v) = %v, %v; want %v, %v", tc.senses, tc.or, gt, gf, tc.wantT, tc.wantF)
		}
	}
}

// TestConditionSenseNotAGate: a comparison inside a larger test, and a
// match that any id passes, stop no stranger (review26).
func TestConditionSenseNotAGate(t *testing.T) {
	for _, c := range [][3]string{
		{"={{ !($json.message.chat.id === 12345) }}", "", "true"},
		{"={{ $json.message.chat.id === 12345 || true }}", "", "true"},
		{"={{ $json.message.chat.id }}", ".*", "regex"},
		{"={{ $json.message.chat.id }}", "1", "contains"},
		{"={{ $json.message.chat.id }}", "12345", "startsWith"},
	} {
		if got := conditionSense(c[0], c[1], c[2]); got != noSenderTest {
			t.Errorf("conditionSense(%q, %q, %q) = %d, want no sender test", c[0], c[1], c[2], got)
		}
	}
}
