package n8nschema

import "strings"

// PlaceholderHost reports whether a host (a dependency) that only holds
// a place: a name
// reserved for examples (RFC 2606: example.com, .example, .test,
// .invalid), or a fill-in left for the reader (yourdomain.com,
// your-instance.app).
func PlaceholderHost(h string) bool {
	if h == "" {
		return false
	}
	h, _, _ = strings.Cut(h, ":")
	for _, d := range []string{".example.com", ".example.org", ".example.net", ".example"} {
		if h == d[1:] || strings.HasSuffix(h, d) { // the name or a subdomain
			return true
		}
	}
	if strings.HasSuffix(h, ".test") || strings.HasSuffix(h, ".invalid") || strings.ContainsAny(h, "<>[]") {
		return true
	}
	// A label that starts with "your" and a fill-in word; the words hold
	// no dot, so the text after "your" is read as far as the label goes.
	for i := 0; ; {
		j := strings.Index(h[i:], "your")
		if j < 0 {
			return false
		}
		i += j
		if i == 0 || h[i-1] == '.' {
			rest := h[i+len("your"):]
			for _, w := range []string{"-", "_", "domain", "site", "company", "instance", "server", "host", "n8n", "app", "api", "store", "shop", "url", "business", "website", "project", "org"} {
				if strings.HasPrefix(rest, w) {
					return true
				}
			}
		}
		i++
	}
}
