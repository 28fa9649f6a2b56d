package report

import "regexp"

// Secrets never reach a report: a snippet or message that quotes a
// credential-like value shows a placeholder instead.
var secretPatterns = []*regexp.Regexp{
	// Authorization: Bearer xxx / Basic xxx
	regexp.MustCompile(`(?i)((?:bearer|basic|token)\s+)[A-Za-z0-9._~+/=-]{8,}`),
	// "x-api-key": "…", "api_key": "…", "token": "…" and friends as JSON members.
	regexp.MustCompile(`(?i)("(?:[a-z0-9_-]*(?:api[_-]?key|apikey|token|secret|password|passwd|authorization|auth)[a-z0-9_-]*)"\s*:\s*")[^"]{4,}(")`),
	// {"name": "Authorization", "value": "…"} header and query parameter pairs.
	regexp.MustCompile(`(?i)("name"\s*:\s*"(?:[a-z0-9_-]*(?:api[_-]?key|apikey|token|secret|password|authorization|auth)[a-z0-9_-]*)"\s*,\s*"value"\s*:\s*")[^"]{4,}(")`),
	// key=… in URL queries.
	regexp.MustCompile(`(?i)([?&](?:[a-z0-9_-]*(?:key|token|secret|password|sig|signature)[a-z0-9_-]*)=)[^&"'\s]{4,}`),
	// user:password@ in URLs.
	regexp.MustCompile(`(://[^/:@\s"]+:)[^@/\s"]+(@)`),
	// Long token-looking strings with well-known prefixes.
	regexp.MustCompile(`\b(?:sk-[A-Za-z0-9_-]{16,}|sk_live_[A-Za-z0-9]{16,}|rk_live_[A-Za-z0-9]{16,}|xox[abposr]-[A-Za-z0-9-]{10,}|gh[pousr]_[A-Za-z0-9]{20,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,}|eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,})\b`),
}

const redacted = "[REDACTED]"

// Redact replaces credential-like values in s.
func Redact(s string) string {
	for i, re := range secretPatterns {
		switch i {
		case len(secretPatterns) - 1:
			s = re.ReplaceAllString(s, redacted)
		case 1, 2, 4:
			s = re.ReplaceAllString(s, "${1}"+redacted+"${2}")
		default:
			s = re.ReplaceAllString(s, "${1}"+redacted)
		}
	}
	return s
}
