package n8napi

import (
	"fmt"
	"time"
)

// Kind classifies an Error so callers can react (exit code, hint) without
// matching message text.
type Kind int

const (
	// KindNetwork: no HTTP response (connection, TLS, DNS, timeout), after
	// the retries a transient failure deserves.
	KindNetwork Kind = iota + 1
	// KindAuth: HTTP 401 or 403, the key was rejected.
	KindAuth
	// KindNotFound: HTTP 404, no public API at that URL.
	KindNotFound
	// KindStatus: any other unexpected status, including a retryable one
	// that persisted through every attempt.
	KindStatus
	// KindBadResponse: the body is not JSON or not a workflow list.
	KindBadResponse
	// KindRetryAfter: the server asked to wait longer than the deadline
	// leaves.
	KindRetryAfter
	// KindDeadline: the total deadline passed.
	KindDeadline
	// KindCanceled: the caller's context was canceled.
	KindCanceled
	// KindPaging: the server's cursors loop or never end.
	KindPaging
	// KindTooLarge: the listing passed its total size ceiling.
	KindTooLarge
)

var kindNames = [...]string{
	KindNetwork:     "network",
	KindAuth:        "auth",
	KindNotFound:    "not-found",
	KindStatus:      "status",
	KindBadResponse: "bad-response",
	KindRetryAfter:  "retry-after",
	KindDeadline:    "deadline",
	KindCanceled:    "canceled",
	KindPaging:      "paging",
	KindTooLarge:    "too-large",
}

func (k Kind) String() string {
	if k > 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Error is every error Each returns of its own. Its message is complete and safe to
// print: it never holds the API key, and URLs in it are redacted.
type Error struct {
	Kind Kind
	// Status is the last HTTP status seen, 0 when there was no response.
	Status int
	// URL is the request URL, redacted (see RedactURL).
	URL string
	// Attempts is the number of attempts made for the failing request.
	Attempts int
	// RetryAfter is the wait the server asked for, when it matters.
	RetryAfter time.Duration
	// Err is the underlying cause, if any (a network error, a context
	// error, a JSON syntax error).
	Err error

	msg string
}

func (e *Error) Error() string { return e.msg }

func (e *Error) Unwrap() error { return e.Err }

func (c *Client) newError(kind Kind, status int, url string, attempts int, cause error, msg string) *Error {
	return &Error{
		Kind:     kind,
		Status:   status,
		URL:      RedactURL(url),
		Attempts: attempts,
		Err:      cause,
		msg:      c.redact(msg),
	}
}

// secs formats a duration the way messages show it: "0.3s", "1.5s", "30s",
// "120s".
func secs(d time.Duration) string {
	d = max(d, 0).Round(100 * time.Millisecond)
	if d >= 10*time.Second || d%time.Second == 0 {
		return fmt.Sprintf("%ds", int64(d.Round(time.Second)/time.Second))
	}
	return fmt.Sprintf("%.1fs", d.Seconds())
}
