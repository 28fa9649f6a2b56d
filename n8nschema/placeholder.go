package n8nschema

import "strings"

// PlaceholderHost reports whether a host (a dependency) that only holds
// a place: a name
// reserved for examples (RFC 2606: example.com, .example, .test,
// .invalid), or a fill-in left for the reader (yourdomain.com,
// your-instance.app, api.yourcourier.com: fillIn).
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
	for label := range strings.SplitSeq(h, ".") {
		if fillIn(label) {
			return true
		}
	}
	return false
}

// fillIn reports a host label left for the reader to fill in: "your"
// alone (your.nextcloud.com), or "your" and a word: a separator, a word
// of the fill-in list, or any run of three letters or more (yourcourier,
// yourshop, yourcompany). "yours" and "yourls" are words of their own, and
// a few real services are named so (realYour).
func fillIn(label string) bool {
	rest, ok := strings.CutPrefix(label, "your")
	if !ok {
		return false
	}
	if rest == "" {
		return true
	}
	for _, w := range []string{"-", "_", "n8n"} {
		if strings.HasPrefix(rest, w) {
			return true
		}
	}
	letters := 0
	for letters < len(rest) && rest[letters] >= 'a' && rest[letters] <= 'z' {
		letters++
	}
	return letters >= 3 && !realYour[label]
}

// realYour are hosts' labels that start with "your" and a word but name
// a real service: YourMembership's API (api.yourmembership.com), the
// YourStory news site and its feeds (yourstory.com).
var realYour = map[string]bool{"yourmembership": true, "yourstory": true}
