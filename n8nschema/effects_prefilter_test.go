package n8nschema

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestIdempotencyKeyPrefilter: keys spelled through escapes or through
// letters that fold to ASCII are still found, and plain text without a
// key name is passed over.
func TestIdempotencyKeyPrefilter(t *testing.T) {
	tests := []struct {
		name, params, want string
	}{
		{"plain", `{"headerParameters":{"parameters":[{"name":"Idempotency-Key","value":"k"}]}}`, "Idempotency-Key"},
		{"escaped dash", `{"headerParameters":{"parameters":[{"name":"Idempotency\u002dKey","value":"k"}]}}`, "Idempotency-Key"},
		{"escaped letter", `{"headerParameters":{"parameters":[{"name":"\u0049dempotency-Key","value":"k"}]}}`, "Idempotency-Key"},
		{"long s folds to s", `{"headerParameters":{"parameters":[{"name":"PayPal-Requeſt-Id","value":"k"}]}}`, "PayPal-Request-Id"},
		{"kelvin sign folds to k", `{"headerParameters":{"parameters":[{"name":"Idempotency-` + "\u212a" + `ey","value":"k"}]}}`, "Idempotency-Key"},
		{"dotted capital I lowers to i", `{"headerParameters":{"parameters":[{"name":"` + "\u0130" + `dempotency-Key","value":"k"}]}}`, "Idempotency-Key"},
		{"escapes around the name", `{"headerParameters":{"parameters":[{"name":"\tidempotency-key\n","value":"k"}]}}`, "Idempotency-Key"},
		{"json body, escaped", `{"jsonBody":"{\"idempotency\u005fkey\": \"{{ $json.id }}\"}"}`, "idempotency_key"},
		{"no key", `{"headerParameters":{"parameters":[{"name":"Authorization","value":"k"}]},"jsonBody":"{\"a\\u0062\": 1}"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := node(t, `{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":`+tt.params+`}`)
			k, ok := IdempotencyKeyOf(n)
			if got := k.Name.Name; got != tt.want || ok != (tt.want != "") {
				t.Errorf("IdempotencyKeyOf = %q, %v; want %q", got, ok, tt.want)
			}
			if wk, wok := findKey(n); wk != k || wok != ok {
				t.Errorf("IdempotencyKeyOf = %+v, %v; the walk alone finds %+v, %v", k, ok, wk, wok)
			}
		})
	}
}

// TestKeyStems: every key name holds a stem in normKey form.
func TestKeyStems(t *testing.T) {
	for _, k := range keyNames {
		if !keyStems.mayHold(k.Name) {
			t.Errorf("key name %q holds none of keyStems", k.Name)
		}
	}
}

func TestStemsMayHold(t *testing.T) {
	tests := []struct {
		raw  string
		want bool
	}{
		{`{"a":"Idempotency_Key"}`, true},
		{`{"a":"no key here"}`, false},
		{`{"a":"\n\tIDEMPOTENCY-KEY"}`, true},
		{`{"a":"x\u0041"}`, true},                             // an escape may spell a letter
		{`{"a":"emoji ✅ only"}`, false},                       // other characters fold to no ASCII letter
		{"{\"a\":\"\u212a\"}", true},                          // Kelvin sign
		{strings.Repeat("x", 2040) + "idempotency-key", true}, // across a block boundary
		{strings.Repeat("x", 5000), false},
	}
	for _, tt := range tests {
		if got := keyStems.mayHold(tt.raw); got != tt.want {
			t.Errorf("mayHold(%.40q…) = %v, want %v", tt.raw, got, tt.want)
		}
	}
}

// TestHeartbeatPrefilter: message wording spelled through escapes or
// folding letters is still found.
func TestHeartbeatPrefilter(t *testing.T) {
	tests := []struct{ text, want string }{
		{`Batch 3 of 10 done`, "batch N of M"},
		{`\u0048eartbeat`, "heartbeat"},
		{`\"still running\"`, "still running"},
		{`weekly progreſs`, "progreſs"},
		{`nothing to see ✅`, ""},
	}
	for _, tt := range tests {
		n := node(t, `{"name":"a","type":"n8n-nodes-base.slack","typeVersion":2.2,"parameters":{"text":"`+tt.text+`"}}`)
		h, ok := HeartbeatOf(n)
		if h.Word != tt.want || ok != (tt.want != "") {
			t.Errorf("HeartbeatOf(text %q) = %q, %v; want %q", tt.text, h.Word, ok, tt.want)
		}
	}
}

// TestIdempotencyKeyPrefilterCorpus: on every node of the three corpora
// the prefilters pass over only nodes and strings where the full search
// finds nothing, and mayHoldKey passes a node only where a search of the
// whole parameters' text would (it reads a part of that text).
func TestIdempotencyKeyPrefilterCorpus(t *testing.T) {
	for _, corpus := range []string{"n8n-real", "n8n-more", "n8n-fresh"} {
		nodes, skipped, found := 0, 0, 0
		eachCorpusFile(t, corpus, func(p string, src []byte) {
			for _, w := range Parse(NewSource(p, src)).Workflows {
				for _, n := range w.Nodes {
					nodes++
					n.Params().Scalars(func(v Value) bool {
						if s := v.Str(); heartbeatWords.MatchString(s) && !mayHeartbeat(s) {
							t.Errorf("%s: node %q: the prefilter passes over heartbeat wording in %q", p, n.Name, s)
						}
						return true
					})
					k, ok := findKey(n)
					if k.Name.Name != "" {
						found++
					}
					if mayHoldKey(n.Params()) {
						if !keyStems.mayHold(n.Params().Raw()) {
							t.Errorf("%s: node %q: mayHoldKey passes a node whose text holds no stem", p, n.Name)
						}
						continue
					}
					skipped++
					if ok || k.Name.Name != "" {
						t.Errorf("%s: node %q: the prefilter passes over key %q", p, n.Name, k.Name.Name)
					}
				}
			}
		})
		if skipped == 0 || skipped == nodes {
			t.Errorf("%s: the prefilter passed over %d of %d nodes", corpus, skipped, nodes)
		}
		t.Logf("%s: %d nodes, %d passed over, %d with a key", corpus, nodes, skipped, found)
	}
}

// TestMayHoldKeyReadsWhatFindKeyReads: mayHoldKey searches only the
// members findKey reads (a "name" at any depth, a key ending in ".name",
// a JSON text parameter), and every one of those, however its key is
// spelled; a key name anywhere else is passed over, as findKey passes
// over it.
func TestMayHoldKeyReadsWhatFindKeyReads(t *testing.T) {
	for _, name := range jsonFieldParams {
		if !keyReadAt(name) {
			t.Errorf("keyReadAt(%q) = false: findKey reads that JSON text parameter", name)
		}
	}
	tests := []struct {
		name, params string
		want         bool
	}{
		{"a name in a list", `{"sendHeaders":true,"headerParameters":{"parameters":[{"name":"Idempotency-Key","value":"={{ $json.id }}"}]}}`, true},
		{"a name at the top", `{"name":"Idempotency-Key","value":"k"}`, true},
		{"a name deep in an array", `{"a":[[{"b":[{"name":"PayPal-Request-Id","value":"k"}]}]]}`, true},
		{"a key ending in .name", `{"options":{"header.name":"Idempotency-Key","header.value":"k"}}`, true},
		{"an escaped name key", `{"headerParameters":{"parameters":[{"na\u006de":"Idempotency-Key","value":"k"}]}}`, true},
		{"an escaped letter in the name", `{"headerParameters":{"parameters":[{"name":"\u0049dempotency-Key","value":"k"}]}}`, true},
		{"a JSON body", `{"sendBody":true,"specifyBody":"json","jsonBody":"={\"idempotency_key\": \"{{ $json.id }}\"}"}`, true},
		{"a v1 JSON header text", `{"jsonParameters":true,"headerParametersJson":"{\"Idempotency-Key\": \"k\"}"}`, true},
		{"a body text", `{"body":"{\"client_token\": \"k\"}"}`, true},
		{"after a long value", `{"text":"` + strings.Repeat("idempotency ", 200) + `","headerParameters":{"parameters":[{"name":"Idempotency-Key","value":"k"}]}}`, true},
		// A key name findKey does not read: as a value, in another
		// member's key, in a text that is no JSON parameter, in a name
		// that is no member's (an array's element).
		{"as a value", `{"headerParameters":{"parameters":[{"name":"Authorization","value":"Idempotency-Key"}]}}`, false},
		{"as a member's key", `{"options":{"Idempotency-Key":"k"}}`, false},
		{"in a prompt", `{"text":"send an Idempotency-Key header","displayName":"idempotency"}`, false},
		{"in a names list", `{"names":["Idempotency-Key"],"name":["Idempotency-Key"]}`, false},
		{"a key ending in name", `{"fieldname":"Idempotency-Key","nickname":"Idempotency-Key"}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := node(t, `{"name":"a","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":`+tt.params+`}`)
			if got := mayHoldKey(n.Params()); got != tt.want {
				t.Errorf("mayHoldKey = %v, want %v", got, tt.want)
			}
			if !keyStems.mayHold(n.Params().Raw()) {
				t.Fatalf("the fixture's text holds no stem (fix the test)")
			}
			// Each member mayHoldKey must read names a key findKey finds.
			if k, _ := findKey(n); (k.Name.Name != "") != tt.want {
				t.Errorf("findKey finds %q (fix the test)", k.Name.Name)
			}
		})
	}
}

// TestRPCStems: every alternative of rpcPathWords starts with a stem, and
// on every URL of the corpus the prefilter passes over no match.
func TestRPCStems(t *testing.T) {
	paths := []string{"/search", "/query", "/lookup", "/find", "/validate", "/verify", "/check", "/status",
		"/screenshot", "/render", "/preview", "/extract", "/scrape", "/crawl", "/parse", "/convert", "/translate",
		"/transcribe", "/transcriptions", "/classify", "/detect", "/analyse", "/analyze", "/summarise", "/summarize",
		"/completion", "/completions", "/embedding", "/embeddings", "/chat", "/answer", "/predict", "/inference", "/estimate",
		"/quote", "/calculate", "/token", "/oauth", "/oauth2", "/login", "/auth", "/text-to-speech", "/speech-to-text",
		"/tts", "/remix", "/upscale", "/describe", "/ocr", "/re-rank", "/rerank", "/rank", "/score", "/moderation",
		"/moderations", "/tokenise", "/tokenize", "/compress", "/resize", "/thumbnail", "/images/generations",
		"/images/edits", "/images/variations", "/session/1/url", "/session/x/execute/sync", "/SEARCH", "/ſearch",
		"/Token"}
	for _, p := range paths {
		u := "https://api.example.com/v1" + p
		if !rpcPathWords.MatchString(u) {
			t.Errorf("%s: rpcPathWords does not match (fix the test)", u)
		}
		if !rpcStems.mayHold(u) {
			t.Errorf("%s: rpcStems passes over a match", u)
		}
	}
	urls, skipped := 0, 0
	eachCorpusFile(t, "n8n-real", func(p string, src []byte) {
		for _, w := range Parse(NewSource(p, src)).Workflows {
			for _, n := range w.Nodes {
				u := strings.ToLower(paramStr(n, "url"))
				if u == "" {
					continue
				}
				urls++
				if rpcStems.mayHold(u) {
					continue
				}
				skipped++
				if rpcPathWords.MatchString(u) {
					t.Errorf("%s: node %q: rpcStems passes over %q", p, n.Name, u)
				}
			}
		}
	})
	if skipped == 0 || skipped == urls {
		t.Errorf("the prefilter passed over %d of %d URLs", skipped, urls)
	}
}

// heartbeatWordAll is HeartbeatWord as it was: every match of the whole
// text, the first that is not "in progress".
func heartbeatWordAll(s string) string {
	for _, m := range heartbeatWords.FindAllStringIndex(s, -1) {
		if w, ok := heartbeatMatch(s, m[0], m[1]); ok {
			return w
		}
	}
	return ""
}

// TestHeartbeatWordFrom: HeartbeatWord starts its search near the first
// stem and stops at the first match; it finds what a search of the whole
// text finds, on words that touch, "in progress" first, wording that
// starts before its stem, and every string of the corpus.
func TestHeartbeatWordFrom(t *testing.T) {
	for _, s := range []string{
		"i'm alive", "xi'm alive", "x i'm alive", "im alive", "I'M ALIVE now", "keepalive", "xkeepalive", "-keep-alive",
		"in progress, then progress", "in progress", "abc_progress", "progress_x", "status update", "still running",
		"batch 3 of 4", "rebatch 3 of 4", "mybatch {{ $x }} / 2", "heart", "ſtill running", "\\u0068eartbeat heartbeat",
		"done; heartbeats", strings.Repeat("word ", 300) + "still alive", "statusupdate status ping",
	} {
		if got, want := HeartbeatWord(s), heartbeatWordAll(s); got != want {
			t.Errorf("HeartbeatWord(%q) = %q, the whole search %q", s, got, want)
		}
	}
	eachCorpusFile(t, "n8n-real", func(p string, src []byte) {
		for _, w := range Parse(NewSource(p, src)).Workflows {
			for _, n := range w.Nodes {
				for _, s := range []string{n.Name, n.Notes} {
					if got, want := HeartbeatWord(s), heartbeatWordAll(s); got != want {
						t.Errorf("%s: HeartbeatWord(%q) = %q, the whole search %q", p, s, got, want)
					}
				}
				n.Params().Scalars(func(v Value) bool {
					if s := v.Str(); HeartbeatWord(s) != heartbeatWordAll(s) {
						t.Errorf("%s: node %q: HeartbeatWord(%.60q…) = %q, the whole search %q", p, n.Name, s, HeartbeatWord(s), heartbeatWordAll(s))
					}
					return true
				})
			}
		}
	})
}

// TestStemsIndexFilter: the four-byte filter (read every byte or every
// stride bytes) finds what trying every byte
// finds, for every set of stems, on generated text dense in stems spelled
// every way foldByte reads them (cases, '_' for '-', cut short at the end
// of the text, escapes, characters outside ASCII) and on the corpus's
// parameters.
func TestStemsIndexFilter(t *testing.T) {
	sets := map[string]*stems{"key": keyStems, "heartbeat": heartbeatStems, "rpc": rpcStems}
	byBytes := map[string]*stems{} // each set without the filter: every byte that may start a word is tried
	for name, s := range sets {
		if s.quads == nil {
			t.Fatalf("%s stems: no filter (a word shorter than four bytes?)", name)
		}
		plain := *s
		plain.quads = nil
		byBytes[name] = &plain
	}
	check := func(raw string) {
		t.Helper()
		for name, s := range sets {
			at, exact := s.index(raw)
			wantAt, wantExact := byBytes[name].index(raw)
			if at != wantAt || exact != wantExact {
				t.Fatalf("%s stems, %q: index = %d, %v; every byte tried: %d, %v", name, raw, at, exact, wantAt, wantExact)
			}
		}
	}
	var pieces []string
	for _, s := range sets {
		for _, w := range s.words {
			pieces = append(pieces, w, strings.ToUpper(w), strings.ReplaceAll(w, "-", "_"), w[:len(w)-1], w[1:])
		}
	}
	pieces = append(pieces, " ", "a", "x", "\\u0068", "\\n", "\u212a", "\u017f", "\u0130", "é", "\\", "_", "-", "/", "\"")
	rng := rand.New(rand.NewPCG(1, 2))
	found := 0
	for range 50000 {
		var b strings.Builder
		for range 1 + rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		raw := b.String()
		check(raw)
		if at, exact := heartbeatStems.index(raw); at >= 0 && exact {
			found++
		}
	}
	if found == 0 {
		t.Fatal("no generated text held a heartbeat stem: the test tries nothing")
	}
	eachCorpusFile(t, "n8n-real", func(p string, src []byte) {
		for _, w := range Parse(NewSource(p, src)).Workflows {
			for _, n := range w.Nodes {
				check(n.Params().Raw())
				check(n.Name)
			}
		}
	})
}
