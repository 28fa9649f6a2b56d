// Package n8napi lists the workflows of a live n8n instance through its
// public REST API, for auditing.
//
// A Client pages through GET {base}/api/v1/workflows?limit=250&cursor=…
// until nextCursor is null, absent or empty, sending the key in the
// X-N8N-API-KEY header, and hands each page's workflows over before it asks
// for the next one (Each), so that no more than one page is held. It obeys
// the rules stormcheck enforces on the workflows it audits:
//
//   - one total deadline (Options.Deadline) over the whole listing, waits
//     included, plus a per-attempt timeout;
//   - at most Options.MaxAttempts attempts per request;
//   - full-jitter exponential backoff between attempts:
//     sleep = rand(0, min(cap, base·2^retry));
//   - Retry-After (delta-seconds or HTTP-date) honoured when it fits in the
//     time left (it then replaces the backoff for that wait), and an
//     immediate error when it does not;
//   - retries only on network errors, timeouts and HTTP 429, 500, 502, 503,
//     504; never on other 4xx.
//
// Base URL forms: "https://host", "https://host/", "https://host/api/v1" and
// "https://host/api/v1/" all mean the same instance; a path prefix for an
// instance behind a reverse proxy ("https://host/n8n") is kept. The scheme
// must be http or https, and the URL must not carry credentials, a query or a
// fragment.
//
// The API key never appears in an error, a log line or a result: it is sent
// only in the request header, any echo of it in a response body is redacted
// before that body is quoted, and redirects to another host or from https to
// http are refused because net/http would forward the header to them.
//
// Every error Each returns of its own is an *Error whose Kind says what went
// wrong (key rejected, no API at that URL, not JSON, deadline, ...) and whose
// message says what to check.
//
// Findings on fetched workflows point at the editor's URL of the workflow
// (EditorURL); Host gives the HOST part (host[:port]) of a base URL.
package n8napi

import (
	"bytes"
	"cmp"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Defaults for Options fields left zero.
const (
	DefaultDeadline       = 2 * time.Minute
	DefaultMaxAttempts    = 4
	DefaultAttemptTimeout = 30 * time.Second

	// PageSize is the largest page the public API serves.
	PageSize = 250
	// MaxPages bounds one listing: 10,000 pages of 250 is 2.5 million
	// workflows, far beyond any real instance, so reaching it means a
	// misbehaving server.
	MaxPages = 10000
	// DefaultMaxTotalBytes bounds the bytes of one whole listing, every
	// page together: stormcheck writes fetched workflows to a temporary
	// file until they are audited, and a server sending large pages with
	// fresh cursors must not fill the disk. All 2,898 workflows of the
	// project's corpus weigh 41 MB.
	DefaultMaxTotalBytes = 512 << 20
	// MaxPageBytes bounds one page, hence one workflow: a page of 250
	// large workflows stays far below.
	MaxPageBytes = 512 << 20
)

const (
	apiPath      = "/api/v1"
	userAgent    = "stormcheck"
	maxErrorBody = 64 << 10 // enough to quote the start of an error page
	maxPrealloc  = 16 << 20 // the most an announced length reserves up front
	backoffBase  = 500 * time.Millisecond
	backoffCap   = 10 * time.Second
	redacted     = "[REDACTED]"
)

// Options configure a Client. Only BaseURL and APIKey are required.
type Options struct {
	// BaseURL is the instance URL, with or without a trailing "/api/v1".
	BaseURL string
	// APIKey is sent as X-N8N-API-KEY. Surrounding white space (a trailing
	// newline from a key file) is trimmed.
	APIKey string
	// Insecure skips TLS certificate verification. It applies only to the
	// client New builds, so it cannot be combined with HTTPClient.
	Insecure bool
	// HTTPClient replaces the default client (tests, proxies). Its
	// CheckRedirect is wrapped so the key never leaves the instance's host.
	HTTPClient *http.Client
	// Deadline bounds the whole listing, all pages, attempts and waits
	// included. Zero means DefaultDeadline.
	Deadline time.Duration
	// AttemptTimeout bounds one attempt (request and body), so one hung
	// connection cannot eat the whole deadline. Zero means
	// DefaultAttemptTimeout; it never extends past Deadline.
	AttemptTimeout time.Duration
	// MaxAttempts bounds the attempts per request, first one included. Zero
	// means DefaultMaxAttempts.
	MaxAttempts int
	// MaxTotalBytes bounds the response bodies of the whole listing
	// together. Zero means DefaultMaxTotalBytes.
	MaxTotalBytes int64
	// Progress, when set, is called after each page with the page number
	// (1-based) and the number of workflows fetched so far.
	Progress func(page, workflowsSoFar int)
}

// Client lists workflows from one n8n instance. It is safe for concurrent
// use once built.
type Client struct {
	base           *url.URL // instance URL without /api/v1, no trailing slash
	key            string
	http           *http.Client
	deadline       time.Duration
	attemptTimeout time.Duration
	maxAttempts    int
	progress       func(page, workflowsSoFar int)

	// Tuned down by tests; fixed in production.
	backoffBase time.Duration
	backoffCap  time.Duration
	maxPages    int
	maxTotal    int64
	jitter      func(n int64) int64 // uniform in [0, n)
}

// Workflow is one workflow as the API returned it.
type Workflow struct {
	ID   string
	Name string
	// Raw is the workflow object exactly as fetched: the bytes of its
	// element of the page's data array, so positions computed on it point
	// inside the workflow JSON as fetched.
	Raw []byte
	// Published reports whether the object carries an activeVersion with
	// nodes, i.e. a published version that production runs.
	Published bool
}

// New checks the options and builds a Client. It makes no request.
func New(opts Options) (*Client, error) {
	base, err := normalizeBase(opts.BaseURL)
	if err != nil {
		return nil, err
	}
	key := strings.TrimSpace(opts.APIKey)
	if key == "" {
		return nil, errors.New("no n8n API key: set N8N_API_KEY or pass --api-key-file")
	}
	if strings.IndexFunc(key, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
		// Never echo the key, not even to show where it is wrong.
		return nil, errors.New("the n8n API key contains control characters: check N8N_API_KEY")
	}
	if opts.Deadline < 0 || opts.AttemptTimeout < 0 || opts.MaxAttempts < 0 || opts.MaxTotalBytes < 0 {
		return nil, errors.New("n8n API client: negative deadline, attempt timeout or attempt count")
	}
	if opts.Insecure && opts.HTTPClient != nil {
		return nil, errors.New("n8n API client: Insecure cannot be combined with a custom HTTPClient")
	}

	var hc http.Client
	if opts.HTTPClient != nil {
		hc = *opts.HTTPClient // a shallow copy, so the caller's client is not modified
	} else {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		if opts.Insecure {
			// Only on explicit request, for instances with a private CA.
			tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true}
		}
		hc.Transport = tr
	}
	hc.CheckRedirect = keepKeyOnHost(hc.CheckRedirect)

	c := &Client{
		base:           base,
		key:            key,
		http:           &hc,
		deadline:       cmp.Or(opts.Deadline, DefaultDeadline),
		attemptTimeout: cmp.Or(opts.AttemptTimeout, DefaultAttemptTimeout),
		maxAttempts:    cmp.Or(opts.MaxAttempts, DefaultMaxAttempts),
		progress:       opts.Progress,
		backoffBase:    backoffBase,
		backoffCap:     backoffCap,
		maxPages:       MaxPages,
		maxTotal:       cmp.Or(opts.MaxTotalBytes, DefaultMaxTotalBytes),
		jitter:         rand.Int64N,
	}
	return c, nil
}

// String and GoString keep the key out of fmt output (%v, %+v, %#v), which
// would otherwise print unexported fields. Their value receivers cover a
// copied Client too.
func (c Client) String() string { return "n8napi.Client{" + c.base.String() + "}" }

// GoString implements fmt.GoStringer; see String.
func (c Client) GoString() string { return c.String() }

// String shows the options with the key redacted, for the same reason.
func (o Options) String() string {
	key := ""
	if o.APIKey != "" {
		key = redacted
	}
	return fmt.Sprintf("n8napi.Options{BaseURL:%q APIKey:%s Insecure:%v Deadline:%v AttemptTimeout:%v MaxAttempts:%d}",
		RedactURL(o.BaseURL), key, o.Insecure, o.Deadline, o.AttemptTimeout, o.MaxAttempts)
}

// GoString implements fmt.GoStringer; see String.
func (o Options) GoString() string { return o.String() }

// BaseURL returns the normalised instance URL, without /api/v1 and without a
// trailing slash.
func (c *Client) BaseURL() string { return c.base.String() }

// keepKeyOnHost refuses redirects that would carry the key elsewhere.
// net/http strips Authorization and Cookie on a cross-host redirect but
// copies every other header, X-N8N-API-KEY included.
func keepKeyOnHost(next func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		first := via[0].URL
		if !strings.EqualFold(req.URL.Host, first.Host) {
			return &redirectError{"refusing to follow a redirect to another host (" + RedactURL(req.URL.String()) + "): the API key would be sent there"}
		}
		if first.Scheme == "https" && req.URL.Scheme != "https" {
			return &redirectError{"refusing to follow a redirect from https to " + RedactURL(req.URL.String()) + ": the API key would be sent in clear text"}
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return &redirectError{"stopped after 10 redirects"}
		}
		return nil
	}
}

// normalizeBase accepts the documented BaseURL forms and returns the instance
// URL without /api/v1 and trailing slashes.
func normalizeBase(raw string) (*url.URL, error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return nil, errors.New("no n8n URL: pass --n8n-url https://your-instance")
	}
	u, err := url.Parse(s)
	if err != nil {
		// url.Parse quotes the input, which may hold credentials.
		return nil, errors.New("the n8n URL does not parse: pass --n8n-url https://your-instance")
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("the n8n URL %q must start with https:// or http:// and name a host", RedactURL(s))
	}
	if u.User != nil {
		return nil, errors.New("the n8n URL must not carry credentials: pass the API key through N8N_API_KEY")
	}
	if u.RawQuery != "" || u.Fragment != "" || u.ForceQuery {
		return nil, fmt.Errorf("the n8n URL %q must not carry a query or fragment", RedactURL(s))
	}
	p := strings.TrimRight(u.Path, "/")
	p = strings.TrimSuffix(p, apiPath)
	p = strings.TrimRight(p, "/")
	u.Path, u.RawPath = p, ""
	u.Host = strings.ToLower(u.Host)
	u.Scheme = strings.ToLower(u.Scheme)
	return u, nil
}

// EditorURL is where the instance's editor opens a workflow,
// BASE/workflow/ID (the base as New takes it, without /api/v1), which
// findings on fetched workflows name; "" when the base does not parse.
func EditorURL(baseURL, id string) string {
	u, err := normalizeBase(baseURL)
	if err != nil {
		return ""
	}
	return u.String() + "/workflow/" + url.PathEscape(id)
}

// Host returns host[:port] of an instance URL in any form New accepts (a
// missing scheme is read as https), for building n8n://HOST/workflow/ID
// locations. It returns "" when the URL names no host.
func Host(baseURL string) string {
	s := strings.TrimSpace(baseURL)
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Host)
}

// RedactURL returns u without credentials, query or fragment, for messages:
// tokens are often passed in URLs, and a cursor only adds noise.
func RedactURL(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Opaque != "" {
		// Cut the query and fragment, then any userinfo, by hand.
		if i := strings.IndexAny(u, "?#"); i >= 0 {
			u = u[:i]
		}
		if at := strings.LastIndex(u, "@"); at >= 0 {
			start := 0
			if i := strings.Index(u, "://"); i >= 0 && i < at {
				start = i + len("://")
			}
			u = u[:start] + u[at+1:]
		}
		return u
	}
	p.User = nil
	p.RawQuery, p.ForceQuery, p.Fragment, p.RawFragment = "", false, "", ""
	return p.String()
}

// Each lists the instance's workflows page by page and calls fn with every
// workflow of a page, in the server's order, before it asks for the next
// page: a caller that writes each workflow out and lets it go holds no more
// than one page. A workflow listed again (offset paging repeats an element
// when workflows are created during the listing) is skipped: the first copy
// fetched wins. Each stops at fn's first error and returns it as it is;
// every other error it returns is an *Error.
func (c *Client) Each(ctx context.Context, fn func(Workflow) error) error {
	r := &run{c: c, start: time.Now()}
	ctx, cancel := context.WithTimeout(ctx, c.deadline)
	defer cancel()
	r.end = deadlineOf(ctx) // the caller's deadline may come first

	seen := map[string]bool{}  // cursors already requested
	given := map[string]bool{} // ids already handed to fn
	cursor := ""
	var total int64 // bytes of the pages read so far
	fetched := 0    // workflows listed so far, repeats included
	for page := 1; ; page++ {
		if page > c.maxPages {
			return c.newError(KindPaging, 0, c.listURL(""), 0, nil,
				fmt.Sprintf("stopped after %d pages of workflows from %s: the server keeps returning a next cursor", c.maxPages, c.apiURL()))
		}
		r.page = page
		// A page may use what the listing has left, and no more.
		r.limit, r.total = min(MaxPageBytes, c.maxTotal-total), total
		body, err := r.get(ctx, cursor)
		if err != nil {
			return err
		}
		total += int64(len(body))
		wfs, next, err := c.decodePage(body, page)
		if err != nil {
			return err
		}
		fetched += len(wfs)
		for i := range wfs {
			if given[wfs[i].ID] {
				continue
			}
			given[wfs[i].ID] = true
			if err := fn(wfs[i]); err != nil {
				return err
			}
			wfs[i].Raw = nil // handed over: gone as soon as fn lets it go
		}
		if c.progress != nil {
			c.progress(page, fetched)
		}
		if next == "" {
			return nil
		}
		if seen[next] || next == cursor {
			return c.newError(KindPaging, 0, c.listURL(""), 0, nil,
				fmt.Sprintf("%s returned a cursor it had already returned (page %d): stopping instead of looping forever", RedactURL(c.listURL("")), page))
		}
		seen[next] = true
		cursor = next
	}
}

// CompareIDs orders workflow ids: numeric ones (older instances use "998",
// "1000") by value and first, everything else as strings.
func CompareIDs(a, b string) int {
	an, bn := isDigits(a), isDigits(b)
	switch {
	case an && bn:
		a, b = strings.TrimLeft(a, "0"), strings.TrimLeft(b, "0")
		if c := cmp.Compare(len(a), len(b)); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	case an:
		return -1
	case bn:
		return 1
	}
	return strings.Compare(a, b)
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func (c *Client) apiURL() string { return c.base.String() + apiPath }

// listURL builds one page's URL; url.Values escapes the base64 cursor
// ('+', '/', '=').
func (c *Client) listURL(cursor string) string {
	q := url.Values{"limit": {fmt.Sprint(PageSize)}}
	if cursor != "" {
		q.Set("cursor", cursor)
	}
	return c.apiURL() + "/workflows?" + q.Encode()
}

// page is the shape of GET /api/v1/workflows.
type page struct {
	Data       *[]json.RawMessage `json:"data"`
	NextCursor json.RawMessage    `json:"nextCursor"`
}

// element holds the fields of one workflow we read; the rest stays in Raw.
type element struct {
	ID            json.RawMessage `json:"id"`
	Name          json.RawMessage `json:"name"`
	ActiveVersion *struct {
		Nodes json.RawMessage `json:"nodes"`
	} `json:"activeVersion"`
}

func (c *Client) decodePage(body []byte, pageNo int) ([]Workflow, string, error) {
	u := c.listURL("")
	bad := func(format string, args ...any) error {
		return c.newError(KindBadResponse, http.StatusOK, u, 0, nil,
			fmt.Sprintf("%s (page %d) is not an n8n workflow list: ", RedactURL(u), pageNo)+fmt.Sprintf(format, args...))
	}
	var p page
	if err := json.Unmarshal(body, &p); err != nil {
		return nil, "", c.newError(KindBadResponse, http.StatusOK, u, 0, err,
			fmt.Sprintf("%s (page %d) returned a body that is not valid JSON (%v): %s", RedactURL(u), pageNo, err, c.snippet(body)))
	}
	if p.Data == nil {
		return nil, "", bad("no \"data\" array in %s", c.snippet(body))
	}
	var next string
	switch nc := bytes.TrimSpace(p.NextCursor); {
	case len(nc) == 0 || string(nc) == "null":
	case nc[0] == '"':
		if err := json.Unmarshal(nc, &next); err != nil {
			return nil, "", bad("bad nextCursor: %v", err)
		}
	default:
		return nil, "", bad("nextCursor is neither a string nor null")
	}

	wfs := make([]Workflow, 0, len(*p.Data))
	for i, raw := range *p.Data {
		if len(raw) == 0 || raw[0] != '{' {
			return nil, "", bad("data[%d] is not an object", i)
		}
		var e element
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil, "", bad("data[%d]: %v", i, err)
		}
		id := scalar(e.ID)
		if id == "" {
			return nil, "", bad("data[%d] has no id", i)
		}
		published := false
		if e.ActiveVersion != nil {
			n := bytes.TrimSpace(e.ActiveVersion.Nodes)
			published = len(n) > 0 && n[0] == '['
		}
		wfs = append(wfs, Workflow{
			ID:        id,
			Name:      scalar(e.Name),
			Raw:       raw, // json.Unmarshal gave each element its own copy
			Published: published,
		})
	}
	return wfs, next, nil
}

// scalar reads a JSON string or number as text; anything else is "".
func scalar(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '"':
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		var n json.Number
		if json.Unmarshal(raw, &n) == nil {
			return n.String()
		}
	}
	return ""
}

// redact removes the key from text that came from the server.
func (c *Client) redact(s string) string {
	if c.key == "" {
		return s
	}
	return strings.ReplaceAll(s, c.key, redacted)
}

// snippet quotes the start of a body for an error message: at most 60
// runes, control characters replaced, the key redacted.
func (c *Client) snippet(body []byte) string {
	s := c.redact(string(bytes.TrimSpace(body)))
	if s == "" {
		return "an empty body"
	}
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n == 60 {
			b.WriteString("…")
			break
		}
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			r = ' '
		case r < 0x20 || r == 0x7f || r == 0xfffd:
			r = '?'
		}
		b.WriteRune(r)
		n++
	}
	// Redact again: truncation cannot reveal the key, but a key split by
	// the rewriting above could; this keeps the rule simple to check.
	return fmt.Sprintf("%q", c.redact(b.String()))
}

// readBody reads at most limit bytes and reports whether there was more.
// size is the length the response announced (-1 when unknown): the buffer
// starts there, bounded by limit, so a page is read into one allocation of
// its size where io.ReadAll would double its way up to twice that. The
// announcement is the server's word, not bytes: past maxPrealloc the buffer
// grows as bytes come, so a header cannot make a run allocate 512 MiB.
func readBody(r io.Reader, limit, size int64) ([]byte, bool, error) {
	b := make([]byte, 0, min(max(size, 511), limit, maxPrealloc)+1)
	r = io.LimitReader(r, limit+1)
	for {
		if len(b) == cap(b) {
			// Double, but never past limit+1 (append could round up).
			nb := make([]byte, len(b), min(2*int64(cap(b)), limit+1))
			copy(nb, b)
			b = nb
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			if int64(len(b)) > limit {
				return b[:limit], true, err
			}
			return b, false, err
		}
	}
}
