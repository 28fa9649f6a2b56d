package n8nschema

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// buildScript runs n8n's own mapConnectionsByDestination, which new
// Workflow() calls, on the connections of each file named in argv and
// prints "throws" or "builds" per file; then "walks" or "walkthrows" for
// getChildNodes run from each enabled Webhook v2+ and Form Trigger, as
// those nodes do on every request ("walks" when there is none).
const buildScript = `
const wf = require(process.argv[1]);
for (const f of process.argv.slice(2)) {
  const w = JSON.parse(require('fs').readFileSync(f, 'utf8'));
  let out;
  try { wf.mapConnectionsByDestination(w.connections); out = 'builds'; } catch (e) { out = 'throws'; }
  let walk = 'walks';
  for (const n of w.nodes || []) {
    if (!n || n.disabled || !(n.type === 'n8n-nodes-base.webhook' && n.typeVersion >= 2 || n.type === 'n8n-nodes-base.formTrigger')) continue;
    try { wf.Workflow.prototype.getConnectedNodes.call(wf.Workflow.prototype, w.connections, n.name); } catch (e) { walk = 'walkthrows'; }
  }
  console.log(out + '/' + walk);
}`

// TestConnectionsThatStopTheBuild holds the parser to n8n: a connection
// problem says n8n cannot build the workflow exactly when n8n-workflow's
// mapConnectionsByDestination throws on the file, for every RS003
// fixture, in each installed release. It skips when Node 24 or n8n is not
// installed (scripts/e2e-oracle.sh installs them).
func TestConnectionsThatStopTheBuild(t *testing.T) {
	cache := os.Getenv("STORMCHECK_CACHE")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache", "stormcheck")
	}
	node := filepath.Join(cache, "node-24", "node_modules", "node", "bin", "node")
	if _, err := os.Stat(node); err != nil {
		t.Skipf("Node 24 is not installed in %s: %v", cache, err)
	}
	files, err := filepath.Glob(filepath.Join("..", "rules", "testdata", "RS003", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no RS003 fixtures: %v", err)
	}
	ran := 0
	for _, v := range []string{"1.123.81", "2.8.4", "2.41.1"} {
		pkg := filepath.Join(cache, "n8n-"+v, "node_modules", "n8n-workflow")
		if _, err := os.Stat(pkg); err != nil {
			continue
		}
		ran++
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		out, err := exec.CommandContext(ctx, node, append([]string{"-e", buildScript, pkg}, files...)...).Output()
		cancel()
		if err != nil {
			t.Fatalf("n8n %s: %v", v, err)
		}
		got := strings.Fields(string(out))
		if len(got) != len(files) {
			t.Fatalf("n8n %s: %d answers for %d files: %q", v, len(got), len(files), out)
		}
		for i, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			says, walk := false, false
			for _, w := range Parse(NewSource(f, src)).Workflows {
				for _, p := range w.Problems {
					says = says || p.Fatal && strings.Contains(p.Message, "cannot build the workflow")
					walk = walk || p.Fatal && strings.Contains(p.Message, "lists the nodes after it on every request")
				}
			}
			build, walks, _ := strings.Cut(got[i], "/")
			if says != (build == "throws") {
				t.Errorf("n8n %s %s: n8n %s, stormcheck says it cannot build: %v", v, filepath.Base(f), build, says)
			}
			if !says && walk != (walks == "walkthrows") {
				t.Errorf("n8n %s %s: n8n's walk from the webhooks %s, stormcheck says it throws: %v", v, filepath.Base(f), walks, walk)
			}
		}
	}
	if ran == 0 {
		t.Skip("no n8n release is installed (scripts/e2e-oracle.sh installs one)")
	}
}
