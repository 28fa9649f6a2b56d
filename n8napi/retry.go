package n8napi

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// run is the state of one listing (one Each call).
type run struct {
	c     *Client
	start time.Time
	end   time.Time // the effective deadline
	page  int
	// limit is the most one page may weigh: the per-page ceiling, or what
	// the listing's total ceiling leaves after the total read so far.
	limit, total int64
}

// outcome is what one attempt produced.
type outcome struct {
	body []byte
	// err is set when the attempt failed for good: no retry can help.
	err error
	// retry describes a transient failure ("HTTP 503 Service Unavailable",
	// "connection refused"), for the messages of later errors.
	retry      string
	status     int
	cause      error
	retryAfter time.Duration
	hasRA      bool
	byDeadline bool // the listing's context ended the attempt
}

// get fetches one page with bounded attempts, backoff and Retry-After, all
// inside ctx's deadline.
func (r *run) get(ctx context.Context, cursor string) ([]byte, error) {
	c := r.c
	u := c.listURL(cursor)
	var last outcome
	for attempt := 1; ; attempt++ {
		if ctx.Err() != nil {
			return nil, r.stopped(ctx, u, attempt-1, last)
		}
		o := r.try(ctx, u)
		if o.err != nil {
			if e, ok := o.err.(*Error); ok {
				e.Attempts = attempt
			}
			return nil, o.err
		}
		if o.retry == "" {
			return o.body, nil
		}
		if !o.byDeadline || last.retry == "" {
			last = o // keep the more telling earlier problem over "no response before the deadline"
		}
		if ctx.Err() != nil {
			return nil, r.stopped(ctx, u, attempt, last)
		}
		if attempt >= c.maxAttempts {
			return nil, r.exhausted(u, attempt, o)
		}

		remaining := time.Until(r.end)
		wait := c.backoff(attempt - 1)
		if o.hasRA {
			// The server said when; waiting less is what causes storms.
			if o.retryAfter > remaining {
				e := c.newError(KindRetryAfter, o.status, u, attempt, nil, fmt.Sprintf(
					"%s answered %s and asked to wait %s (Retry-After), but only %s are left before the deadline: try again later or allow more time",
					RedactURL(u), o.retry, secs(o.retryAfter), secs(remaining)))
				e.RetryAfter = o.retryAfter
				return nil, e
			}
			wait = o.retryAfter
		} else if wait >= remaining {
			// Sleeping into the deadline only delays the same answer.
			return nil, r.deadlineError(u, attempt, last, "the next attempt would start after it", nil)
		}
		if err := sleep(ctx, wait); err != nil {
			return nil, r.stopped(ctx, u, attempt, last)
		}
	}
}

// mib shows a byte count in MiB, rounded down.
func mib(n int64) string { return fmt.Sprintf("%d MiB", n>>20) }

// try makes one attempt, bounded by the attempt timeout.
func (r *run) try(ctx context.Context, u string) outcome {
	c := r.c
	actx, cancel := context.WithTimeout(ctx, c.attemptTimeout)
	defer cancel()

	req, err := http.NewRequestWithContext(actx, http.MethodGet, u, nil)
	if err != nil {
		return outcome{err: c.newError(KindNetwork, 0, u, 0, err, fmt.Sprintf("cannot build a request for %s", RedactURL(u)))}
	}
	req.Header.Set("X-N8N-API-KEY", c.key)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", userAgent)

	resp, err := c.http.Do(req)
	if err != nil {
		return r.networkFailure(ctx, actx, u, err)
	}
	defer resp.Body.Close()

	switch s := resp.StatusCode; {
	case s >= 200 && s < 300:
		body, tooBig, err := readBody(resp.Body, r.limit, resp.ContentLength)
		if err != nil {
			return r.networkFailure(ctx, actx, u, err)
		}
		if tooBig && r.limit < MaxPageBytes {
			return outcome{err: c.newError(KindTooLarge, s, u, 0, nil, fmt.Sprintf(
				"the workflows listed from %s pass %s after %d pages (%s so far): stopping; that is far more than a real instance holds, so check that --n8n-url is an n8n",
				RedactURL(c.apiURL()), mib(c.maxTotal), r.page, mib(r.total+int64(len(body)))))}
		}
		if tooBig {
			return outcome{err: c.newError(KindBadResponse, s, u, 0, nil, fmt.Sprintf(
				"%s (page %d) returned more than %d MiB: not an n8n workflow page", RedactURL(u), r.page, MaxPageBytes>>20))}
		}
		if ct := resp.Header.Get("Content-Type"); !isJSONType(ct) {
			return outcome{err: c.newError(KindBadResponse, s, u, 0, nil, fmt.Sprintf(
				"%s returned %s instead of JSON (HTTP %d): %s; check --n8n-url: a proxy, login or maintenance page may be answering instead of n8n",
				RedactURL(u), quoteHeader(ct), s, c.snippet(body)))}
		}
		return outcome{body: body, status: s}

	case s == http.StatusUnauthorized || s == http.StatusForbidden:
		return outcome{err: c.newError(KindAuth, s, u, 0, nil, fmt.Sprintf(
			"the API key was rejected (HTTP %d): check N8N_API_KEY and that the key has the workflow:list and workflow:read scopes", s))}

	case s == http.StatusNotFound:
		return outcome{err: c.newError(KindNotFound, s, u, 0, nil, fmt.Sprintf(
			"no n8n public API at %s (HTTP 404): check --n8n-url (the instance URL, without /api/v1) and that the public API is enabled",
			RedactURL(c.apiURL())))}

	case retryableStatus(s):
		body, _, _ := readBody(resp.Body, maxErrorBody, resp.ContentLength) // only quoted; a short read is fine
		o := outcome{retry: statusText(s), status: s}
		o.retryAfter, o.hasRA = parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
		if len(body) > 0 {
			o.retry += ": " + c.serverMessage(body)
		}
		return o

	default:
		body, _, _ := readBody(resp.Body, maxErrorBody, resp.ContentLength)
		return outcome{err: c.newError(KindStatus, s, u, 0, nil, fmt.Sprintf(
			"%s answered %s: %s", RedactURL(u), statusText(s), c.serverMessage(body)))}
	}
}

// networkFailure classifies an error that left no usable response.
func (r *run) networkFailure(ctx, actx context.Context, u string, err error) outcome {
	c := r.c
	if ctx.Err() != nil {
		// The listing's deadline or the caller: get reports it.
		return outcome{retry: "no response before the deadline", cause: err, byDeadline: true}
	}
	if actx.Err() != nil {
		return outcome{retry: fmt.Sprintf("no response within %s (attempt timeout)", secs(c.attemptTimeout)), cause: err}
	}
	// url.Error carries the full URL (cursor included); keep only the cause.
	cause := err
	var ue *url.Error
	if errors.As(err, &ue) {
		cause = ue.Err
	}
	text := c.redact(cause.Error())
	if permanentNetError(cause) {
		return outcome{err: c.newError(KindNetwork, 0, u, 0, cause, fmt.Sprintf(
			"cannot reach the n8n API at %s: %s", RedactURL(c.apiURL()), text))}
	}
	return outcome{retry: text, cause: cause}
}

// permanentNetError reports failures that the same request will meet again:
// a certificate the client does not trust, a name that does not resolve, a
// redirect we refused, TLS spoken to a plain-HTTP port or the other way.
func permanentNetError(err error) bool {
	var (
		cv   *tls.CertificateVerificationError
		ua   x509.UnknownAuthorityError
		he   x509.HostnameError
		ci   x509.CertificateInvalidError
		rh   tls.RecordHeaderError
		dns  *net.DNSError
		redi *redirectError
	)
	switch {
	case errors.As(err, &cv), errors.As(err, &ua), errors.As(err, &he), errors.As(err, &ci),
		errors.As(err, &rh), errors.As(err, &redi):
		return true
	case errors.As(err, &dns):
		return dns.IsNotFound
	}
	return strings.Contains(err.Error(), "server gave HTTP response to HTTPS client")
}

// redirectError is what keepKeyOnHost returns, so the refusal is not retried.
type redirectError struct{ msg string }

func (e *redirectError) Error() string { return e.msg }

func retryableStatus(s int) bool {
	switch s {
	case http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway,
		http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

func statusText(s int) string {
	if t := http.StatusText(s); t != "" {
		return fmt.Sprintf("HTTP %d %s", s, t)
	}
	return fmt.Sprintf("HTTP %d", s)
}

// serverMessage quotes n8n's {"message": "..."} when the body has one, and
// the start of the body otherwise.
func (c *Client) serverMessage(body []byte) string {
	var m struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &m) == nil && m.Message != "" {
		return c.snippet([]byte(m.Message))
	}
	return c.snippet(body)
}

func isJSONType(ct string) bool {
	if strings.TrimSpace(ct) == "" {
		return true // no claim either way: the JSON decoder decides
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return false
	}
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

// quoteHeader quotes a header value from the server, shortened.
func quoteHeader(v string) string {
	if v == "" {
		return "no Content-Type"
	}
	if r := []rune(v); len(r) > 60 {
		v = string(r[:60]) + "…"
	}
	return "Content-Type " + strconv.Quote(v)
}

// parseRetryAfter reads Retry-After as delta-seconds or an HTTP-date
// (RFC 9110 §10.2.3). A date in the past means no wait. ok is false when the
// header is absent or malformed, and backoff applies instead.
func parseRetryAfter(v string, now time.Time) (d time.Duration, ok bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if v[0] >= '0' && v[0] <= '9' {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			if errors.Is(err, strconv.ErrRange) {
				return 1 << 62, true // absurdly long, still "longer than any deadline"
			}
			return 0, false
		}
		const maxSecs = 1 << 32 // ~136 years: no overflow below
		if n > maxSecs {
			n = maxSecs
		}
		return time.Duration(n) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return max(t.Sub(now), 0), true
}

// backoff is full jitter: uniform in [0, min(cap, base·2^retry)].
func (c *Client) backoff(retry int) time.Duration {
	if c.backoffBase <= 0 {
		return 0
	}
	ceiling := c.backoffCap
	if retry < 32 {
		if d := c.backoffBase << retry; d > 0 && d < ceiling {
			ceiling = d
		}
	}
	return time.Duration(c.jitter(int64(ceiling) + 1))
}

func deadlineOf(ctx context.Context) time.Time {
	if d, ok := ctx.Deadline(); ok {
		return d
	}
	return time.Now().Add(1 << 62) // not reached: Each always sets one
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// stopped reports why the listing stopped once ctx is done.
func (r *run) stopped(ctx context.Context, u string, attempts int, last outcome) error {
	if errors.Is(ctx.Err(), context.Canceled) {
		return r.c.newError(KindCanceled, last.status, u, attempts, ctx.Err(), fmt.Sprintf(
			"listing workflows from %s was canceled (page %d)", RedactURL(r.c.apiURL()), r.page))
	}
	return r.deadlineError(u, attempts, last, "", ctx.Err())
}

func (r *run) deadlineError(u string, attempts int, last outcome, note string, cause error) error {
	c := r.c
	if cause == nil {
		cause = context.DeadlineExceeded
	}
	msg := fmt.Sprintf("gave up after %s (deadline %s) listing workflows from %s: page %d, %d of %d attempts made",
		secs(time.Since(r.start)), secs(r.end.Sub(r.start)), RedactURL(c.apiURL()), r.page, attempts, c.maxAttempts)
	if note != "" {
		msg += ", " + note
	}
	if last.retry != "" {
		msg += "; last problem: " + last.retry
	}
	return c.newError(KindDeadline, last.status, u, attempts, cause, msg)
}

// exhausted reports a transient failure that outlasted every attempt.
func (r *run) exhausted(u string, attempts int, last outcome) error {
	c := r.c
	if last.status == 0 {
		return c.newError(KindNetwork, 0, u, attempts, last.cause, fmt.Sprintf(
			"cannot reach the n8n API at %s after %d attempts: %s", RedactURL(c.apiURL()), attempts, last.retry))
	}
	return c.newError(KindStatus, last.status, u, attempts, last.cause, fmt.Sprintf(
		"%s kept failing after %d attempts: %s", RedactURL(u), attempts, last.retry))
}
