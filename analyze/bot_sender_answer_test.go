package analyze

import "testing"

func TestAnswerSense(t *testing.T) {
	for _, tc := range []struct {
		left, right, op string
		sure            bool
		want            senderSense
	}{
		{"={{ $json.active }}", "", "true", false, ownerIfTrue},
		{"={{ $json.active }}", "", "false", false, ownerIfFalse},
		{"={{ $json.user.id }}", "", "exists", false, ownerIfTrue},
		{"={{ $json[\"plan\"] }}", "", "notExists", true, ownerIfFalse},
		{"={{ $json.status }}", "active", "equals", false, ownerIfTrue},
		{"active", "={{ $json.status }}", "equals", false, ownerIfTrue},
		{"={{ $json.status }}", "active", "notEquals", false, ownerIfFalse},
		{"={{ $json.active }}", "false", "equals", true, ownerIfFalse},
		{"={{ $json.active }}", "false", "equals", false, noSenderTest},    // a missing field is not false
		{"={{ $json.active }}", "false", "notEquals", false, noSenderTest}, // nor equal to it
		{"={{ $json.active }}", "false", "notEquals", true, ownerIfTrue},
		{"={{ $json.error }}", "", "notExists", false, noSenderTest}, // an error item's own field
		{"={{ $json.status }}", "={{ $json.plan }}", "equals", true, noSenderTest},
		{"={{ $('Telegram Trigger').item.json.message.text }}", "", "notEmpty", true, noSenderTest},
		{"={{ $json.active && $json.paid }}", "", "true", true, noSenderTest},
		{"={{ $json.chat_id }}", "", "exists", true, noSenderTest}, // the sender's id, not an answer
		{"={{ $json.count }}", "3", "gt", true, noSenderTest},
	} {
		if got := answerSense(tc.left, tc.right, tc.op, tc.sure); got != tc.want {
			t.Errorf("answerSense(%q, %q, %q, %v) = %d, want %d", tc.left, tc.right, tc.op, tc.sure, got, tc.want)
		}
	}
}

func TestOwnerService(t *testing.T) {
	for host, want := range map[string]bool{
		"n8n-automations-liard.vercel.app": true,
		"backend.example-app.dev":          true,
		"api.telegram.org":                 false,
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
