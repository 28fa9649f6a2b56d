package cmd

import (
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/stormcheck/stormcheck/report"
)

var updateRemote = flag.Bool("update-remote", false, "rewrite the golden reports of audit --n8n-url")

// serveElements serves the given workflow objects as the public API does,
// perPage to a page, the cursor being the index of the page's first one.
// atPage, when set, runs before page n (1-based) is served.
func serveElements(t *testing.T, elems []string, perPage int, atPage func(n int)) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-N8N-API-KEY") != testAPIKey || r.URL.Path != "/api/v1/workflows" {
			http.NotFound(w, r)
			return
		}
		start := 0
		fmt.Sscan(r.URL.Query().Get("cursor"), &start)
		if atPage != nil {
			atPage(start/perPage + 1)
		}
		end := min(start+perPage, len(elems))
		next := "null"
		if end < len(elems) {
			next = fmt.Sprintf(`"%d"`, end)
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"data":[%s],"nextCursor":%s}`, strings.Join(elems[start:end], ","), next)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// privateTemp points TMPDIR at a fresh folder, so that a test sees every
// spool a run makes and what is left of it.
func privateTemp(t *testing.T) string {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	return dir
}

func entries(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range des {
		names = append(names, de.Name())
	}
	return names
}

var keyEnv = map[string]string{"N8N_API_KEY": testAPIKey}

// The examples served in three pages give the report the code before the
// spool gave (testdata/remote, written by it), in every format, host aside.
func TestAuditN8nURLSameReport(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/examples/*.json")
	if len(paths) < 5 {
		t.Fatalf("found %d examples", len(paths))
	}
	var elems []string
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		elems = append(elems, string(b))
	}
	srv := serveElements(t, elems, 3, nil)
	host := strings.TrimPrefix(srv.URL, "http://")
	for _, format := range report.Formats {
		t.Run(format, func(t *testing.T) {
			code, out, errOut := runWith(t, keyEnv, "audit", "--n8n-url", srv.URL, "--format", format, "--fail-on", "never")
			if code != ExitOK || errOut != "" {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			out = strings.ReplaceAll(out, host, "HOST")
			if format == "gitlab" { // hashed with the file's name, the port in it
				out = regexp.MustCompile(`"fingerprint": "[0-9a-f]+"`).ReplaceAllString(out, `"fingerprint": "…"`)
			}
			golden := filepath.Join("testdata", "remote", "examples."+format)
			if *updateRemote {
				os.MkdirAll(filepath.Dir(golden), 0o755)
				if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), out); diff != "" {
				t.Errorf("%s (-want +got):\n%s", golden, diff)
			}
		})
	}
}

// Each page is in the spool before the next is asked for, and the spool is
// never seen in TMPDIR: it is unlinked as soon as it is made, and read
// through its descriptor (Linux shows it in /proc/self/fd).
func TestAuditN8nURLSpoolsPageByPage(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("finds the unlinked spool through /proc/self/fd")
	}
	tmp := privateTemp(t)
	const pages, perPage = 8, 5
	var elems []string
	for i := range pages * perPage {
		elems = append(elems, fmt.Sprintf(`{"id":"w%03d","name":"W %d","nodes":[],"connections":{}}`, i, i))
	}
	var mu sync.Mutex
	var problems []string
	srv := serveElements(t, elems, perPage, func(n int) {
		mu.Lock()
		defer mu.Unlock()
		if left := entries(t, tmp); left != nil {
			problems = append(problems, fmt.Sprintf("page %d: TMPDIR holds %v", n, left))
		}
		spools := openSpools(t, tmp)
		if len(spools) != 1 {
			problems = append(problems, fmt.Sprintf("page %d: %d spools open", n, len(spools)))
			return
		}
		want := int64(len(strings.Join(elems[:(n-1)*perPage], "")))
		if st := spools[0]; st.Size() != want || st.Mode().Perm() != 0o600 {
			problems = append(problems, fmt.Sprintf("page %d asked for with %d bytes spooled (mode %v), want %d (0600)", n, st.Size(), st.Mode(), want))
		}
	})
	code, out, errOut := runWith(t, keyEnv, "audit", "--n8n-url", srv.URL, "--format", "json", "--fail-on", "never")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if problems != nil {
		t.Errorf("%s", strings.Join(problems, "\n"))
	}
	var doc struct{ Workflows []struct{ File string } }
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Workflows) != pages*perPage {
		t.Errorf("%d workflows in the report, want %d", len(doc.Workflows), pages*perPage)
	}
	if left := openSpools(t, tmp); left != nil {
		t.Errorf("%d spools still open after the run", len(left))
	}
}

// openSpools stats the files this process holds open below dir.
func openSpools(t *testing.T, dir string) []os.FileInfo {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	var out []os.FileInfo
	for _, fd := range fds {
		p := filepath.Join("/proc/self/fd", fd.Name())
		if target, err := os.Readlink(p); err == nil && strings.HasPrefix(target, dir+string(filepath.Separator)) {
			if st, err := os.Stat(p); err == nil {
				out = append(out, st)
			}
		}
	}
	return out
}

// A listing that fails half-way leaves no spool behind, and says why as
// it did.
func TestAuditN8nURLFailureRemovesSpool(t *testing.T) {
	tmp := privateTemp(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Query().Get("cursor") == "" {
			fmt.Fprint(w, `{"data":[{"id":"a","nodes":[],"connections":{}}],"nextCursor":"2"}`)
			return
		}
		fmt.Fprint(w, `{"data":[{"id":"b"`) // cut short
	}))
	defer srv.Close()
	code, out, errOut := runWith(t, keyEnv, "audit", "--n8n-url", srv.URL)
	want := "(page 2) returned a body that is not valid JSON (unexpected end of JSON input)"
	if code != ExitFailure || out != "" || !strings.Contains(errOut, want) {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 3 saying %q", code, out, errOut, want)
	}
	if left := entries(t, tmp); left != nil {
		t.Errorf("left in TMPDIR after the failed run: %v", left)
	}
	if runtime.GOOS == "linux" {
		if left := openSpools(t, tmp); left != nil {
			t.Errorf("%d spools still open after the failed run", len(left))
		}
	}
}

// Ids are the server's text: "../", a NUL, a path or a name longer than
// a file system allows must neither escape the spool nor fail the run, and
// the report names each workflow by its id as before.
func TestAuditN8nURLHostileIDs(t *testing.T) {
	tmp := privateTemp(t)
	long := strings.Repeat("L", 5000)
	ids := []string{"../../escape", "a\x00b", "/etc/passwd", long, "..", ".", "x/../../y"}
	var elems []string
	for _, id := range ids {
		b, _ := json.Marshal(id)
		elems = append(elems, `{"id":`+string(b)+`,"name":"n","nodes":[{"id":"1","name":"Start","type":"n8n-nodes-base.manualTrigger","typeVersion":1,"position":[0,0],"parameters":{}}],"connections":{"Start":{"main":[[{"node":"Missing","type":"main","index":0}]]}}}`)
	}
	srv := serveElements(t, elems, 3, nil)
	code, out, errOut := runWith(t, keyEnv, "audit", "--n8n-url", srv.URL, "--format", "json", "--fail-on", "never")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Findings []struct{ Rule, File string }
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	host := strings.TrimPrefix(srv.URL, "http://")
	got := map[string]bool{}
	for _, f := range doc.Findings {
		if f.Rule == "RS003" {
			// The id is one path segment of the editor's URL, escaped.
			id, err := url.PathUnescape(strings.TrimPrefix(f.File, "http://"+host+"/workflow/"))
			if err != nil || strings.Contains(strings.TrimPrefix(f.File, "http://"+host+"/workflow/"), "/") {
				t.Errorf("%q: the id is not one escaped path segment", f.File)
			}
			got[id] = true
		}
	}
	for _, id := range ids {
		if !got[id] {
			t.Errorf("no RS003 finding on the workflow with id %.40q", id)
		}
	}
	if left := entries(t, tmp); left != nil {
		t.Errorf("left in TMPDIR after the run: %v", left)
	}
	parent := filepath.Dir(tmp)
	for _, p := range []string{filepath.Join(parent, "escape"), filepath.Join(parent, "y"), filepath.Join(tmp, "y")} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s was written outside the spool", p)
		}
	}
}

// The live heap while pages arrive stays near one page, whatever the
// number of pages: a page is let go once it is spooled. (Not parallel:
// the heap is the process's.)
func TestAuditN8nURLHoldsOnePage(t *testing.T) {
	privateTemp(t)
	const pages, perPage = 12, 100
	pageBytes := uint64(perPage * len(benchPad))
	var mu sync.Mutex
	var base, most uint64
	var at int
	srv := servePages(pages*perPage, perPage, func(n int) {
		h := liveHeap()
		mu.Lock()
		defer mu.Unlock()
		if n == 1 {
			base = h
		} else if h > base && h-base > most {
			most, at = h-base, n
		}
	})
	defer srv.Close()
	r := remoteOptions{URL: srv.URL}
	cio := &IO{Err: &strings.Builder{}, Getenv: func(k string) string { return keyEnv[k] }}
	defer cio.end()
	ins, err := remoteInputs(&r, cio)
	if err != nil {
		t.Fatal(err)
	}
	if len(ins) != pages*perPage {
		t.Fatalf("%d inputs, want %d", len(ins), pages*perPage)
	}
	t.Logf("live heap grew by at most %d KB (before page %d); a page is %d KB", most>>10, at, pageBytes>>10)
	// Held, the listing would be 11 pages by the last one.
	if most > pageBytes {
		t.Errorf("live heap grew by %d KB (before page %d), more than a page (%d KB)", most>>10, at, pageBytes>>10)
	}
	src, err := ins[len(ins)-1].Read(defaultMaxFileSize)
	if err != nil || !strings.Contains(string(src), `"id":"w01199"`) {
		t.Errorf("last input reads %d bytes, %v", len(src), err)
	}
}

// A fetched workflow is bounded by --max-file-size like a file: larger, it
// is an RS001 finding and the run exits 3 once the others are reported.
func TestAuditN8nURLMaxFileSize(t *testing.T) {
	small := `{"id":"small","name":"s","nodes":[{"id":"1","name":"Start","type":"n8n-nodes-base.manualTrigger","typeVersion":1,"position":[0,0],"parameters":{}}],"connections":{"Start":{"main":[[{"node":"Missing","type":"main","index":0}]]}}}`
	big := `{"id":"big","name":"b","nodes":[],"connections":{},"pad":"` + strings.Repeat("x", 8<<10) + `"}`
	srv := serveElements(t, []string{big, small}, 1, nil)
	code, out, errOut := runWith(t, keyEnv, "audit", "--n8n-url", srv.URL, "--format", "json", "--fail-on", "never", "--max-file-size", "4KiB")
	host := strings.TrimPrefix(srv.URL, "http://")
	if code != ExitFailure || !strings.Contains(errOut, "1 input could not be read: http://"+host+"/workflow/big (larger than --max-file-size") {
		t.Errorf("exit %d, stderr %q; want exit 3 naming the big workflow", code, errOut)
	}
	var doc struct {
		Findings []struct{ Rule, File, Message string }
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range doc.Findings {
		got = append(got, strings.TrimPrefix(f.File, "http://"+host+"/workflow/")+" "+f.Rule+" "+f.Message)
	}
	want := []string{
		"big RS001 not read: larger than --max-file-size (4 KiB)",
		`small RS003 connection from "Start" goes to node "Missing", which does not exist; n8n 2.41.1 will not import the workflow from the CLI or the API (its workflow structure check) and its editor drops the connection at import, so the run does not go on from "Start" along it; older n8n (2.8.4) imports it, and then, as a workflow stored before the upgrade does, fails every execution in which "Start" runs ("Destination node not found", thrown when it looks for the next node); only a manual trigger's runs reach it: the person who clicked sees the run fail or stop`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}
