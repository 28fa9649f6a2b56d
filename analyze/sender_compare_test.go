package analyze

import (
	"math/rand"
	"regexp"
	"strings"
	"testing"
)

// TestSenderTesterAsRegexp: senderTestRE's MatchString answers as its
// whole pattern does, on hand-picked texts and on random strings of the
// pattern's pieces.
func TestSenderTesterAsRegexp(t *testing.T) {
	re := regexp.MustCompile(senderTestRE.String())
	cases := []string{
		"chatId === 123456789", `String(message.from.id) !== "12345"`, `"12345" == chat_id`, "ALLOWED.includes(chatId)",
		"state[chatId].status === \"READY\"", "if (msg.chat.id != 42) return", "const x = 1", "", "c",
		"userId == 'abc'", "USER_ID === 'abcd'", "messages[0].from == 'x1234'", "wa_id!=='+4915'", "INCLUDES( wa_id",
		"x.Includes(['a',\"b\"].user_number", "12345 === from.id", "+123456'  != $json.chat_id", "uſer_id === 'abc'",
		"teleGRAM_id\n==\n'abc'", "chat ?. username.toString()) === 'xyz'", "whatsappNumber === '123'",
		"sender_id===abc", "fromid == 12", "from_number == 123", "chat_idx == 123",
		// The third form after a failed try at an earlier includes(: one
		// inside its list is skipped, one after white space is not.
		"includes(includes( chat_id", "a.includes(b.includes(chatId)", "includes(x)includes(user_id",
		"includes(a includes(chat_id)", "INCLUDES(\nincludes(\twa_id", "includes(includes(includes(x) chat_id",
		// The second form at a digit run inside a word or after a quote.
		"x12345 == chat_id", "'0123456789'==chat_id", "+99999 !== a.b(user_id)", "1234 5678901 == from_id",
	}
	for _, c := range cases {
		if got, want := senderTestRE.MatchString(c), re.MatchString(c); got != want {
			t.Errorf("MatchString(%q) = %v, the pattern %v", c, got, want)
		}
	}
	pieces := []string{
		"chat", "CHAT", "from", "From", "messages", "MESSAGES", "wa_id", "user", "User", "sender", "telegram", "whatsapp",
		"includes(", "INCLUDES(", "includes", ".includes(", "includes( ", "_", "id", "ID", "number", "username", "?", ".", "[", "]", "0", " ", "\n", "\t",
		"==", "===", "!=", "!==", "=", "!", "'", `"`, "+", "12345", "123456789", "1234", "9", ".toString()", ")", "(", "$",
		"abc", "x", "@", "-", "ſ", "K", "é", "json", ";", "k", "s", "u", "c", "f", "i", "t", "w", "m",
	}
	r := rand.New(rand.NewSource(1))
	matched := 0
	for range 300000 {
		var b strings.Builder
		for range r.Intn(16) {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		s := b.String()
		got, want := senderTestRE.MatchString(s), re.MatchString(s)
		if got != want {
			t.Fatalf("MatchString(%q) = %v, the pattern %v", s, got, want)
		}
		if want {
			matched++
		}
	}
	if matched < 1000 {
		t.Fatalf("only %d random strings matched: the test reads too few matches", matched)
	}
}
