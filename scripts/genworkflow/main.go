// Command genworkflow builds a large synthetic workflow for stress tests and
// benchmarks: copies of a real workflow's nodes, renamed and chained, with
// node retries on every external call, sub-workflow calls back into itself,
// and loop-back edges, up to an exact node count.
//
//	go run ./scripts/genworkflow -from ../shared/corpus/n8n-real/…/x.json -nodes 10000 -o big.json
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
)

func main() {
	from := flag.String("from", "", "a real workflow JSON file to copy nodes from")
	nodes := flag.Int("nodes", 1000, "exact number of nodes to generate")
	out := flag.String("o", "", "output file (default stdout)")
	flag.Parse()
	if err := run(*from, *nodes, *out); err != nil {
		fmt.Fprintln(os.Stderr, "genworkflow:", err)
		os.Exit(1)
	}
}

type node = map[string]any

func run(from string, n int, out string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	var wf struct {
		Nodes       []node                    `json:"nodes"`
		Connections map[string]map[string]any `json:"connections"`
	}
	if err := json.Unmarshal(b, &wf); err != nil {
		return fmt.Errorf("%s: %w", from, err)
	}
	var base []node
	for _, nd := range wf.Nodes {
		if t, _ := nd["type"].(string); t != "n8n-nodes-base.stickyNote" && nd["name"] != nil {
			base = append(base, nd)
		}
	}
	if len(base) == 0 {
		return fmt.Errorf("%s has no nodes to copy", from)
	}
	const id = "genStress0000001"
	var outNodes []node
	conns := map[string]map[string][][]map[string]any{}
	edge := func(from, to string) {
		c := conns[from]
		if c == nil {
			c = map[string][][]map[string]any{}
			conns[from] = c
		}
		if len(c["main"]) == 0 {
			c["main"] = [][]map[string]any{{}}
		}
		c["main"][0] = append(c["main"][0], map[string]any{"node": to, "type": "main", "index": 0})
	}
	have := map[string]bool{}
	for copyN := 0; len(outNodes) < n; copyN++ {
		rename := func(name string) string { return fmt.Sprintf("%s #%d", name, copyN) }
		first := ""
		for i, nd := range base {
			if len(outNodes) == n {
				break
			}
			c := make(node, len(nd))
			for k, v := range nd {
				c[k] = v
			}
			name := rename(nd["name"].(string))
			c["name"] = name
			c["id"] = fmt.Sprintf("gen-%d-%d", copyN, i)
			c["position"] = []int{i * 220, copyN * 300}
			t, _ := c["type"].(string)
			if strings.HasSuffix(t, ".httpRequest") || strings.Contains(t, "lmChat") || strings.HasSuffix(t, ".openAi") {
				c["retryOnFail"] = true
				c["maxTries"] = 3 + copyN%3
			}
			outNodes = append(outNodes, c)
			have[name] = true
			if first == "" && !strings.Contains(strings.ToLower(t), "trigger") {
				first = name
			}
		}
		// The copy's own edges, renamed; edges to nodes past the cut are dropped.
		for _, src := range slices.Sorted(maps.Keys(wf.Connections)) {
			main, _ := wf.Connections[src]["main"].([]any)
			for _, slot := range main {
				targets, _ := slot.([]any)
				for _, t := range targets {
					m, _ := t.(map[string]any)
					to, _ := m["node"].(string)
					if have[rename(src)] && have[rename(to)] {
						edge(rename(src), rename(to))
					}
				}
			}
		}
		if copyN > 0 && first != "" {
			prev := outNodes[len(outNodes)-1]["name"].(string)
			for i := len(outNodes) - 1; i >= 0; i-- {
				if name := outNodes[i]["name"].(string); strings.HasSuffix(name, fmt.Sprintf(" #%d", copyN-1)) {
					prev = name
					break
				}
			}
			edge(prev, first)
		}
		// Every tenth copy calls this workflow again with retries (a
		// self-trigger) and loops back to the previous copy (a cycle).
		if copyN%10 == 9 && len(outNodes) < n && first != "" {
			name := fmt.Sprintf("Call self #%d", copyN)
			outNodes = append(outNodes, node{
				"id": fmt.Sprintf("gen-%d-call", copyN), "name": name, "type": "n8n-nodes-base.executeWorkflow",
				"typeVersion": 1.2, "position": []int{0, copyN*300 + 150}, "retryOnFail": true, "maxTries": 3,
				"parameters": map[string]any{"workflowId": map[string]any{"__rl": true, "mode": "id", "value": id}},
			})
			have[name] = true
			edge(first, name)
			edge(name, rename(base[0]["name"].(string)))
		}
	}
	doc := map[string]any{
		"id": id, "name": fmt.Sprintf("Generated stress workflow (%d nodes)", n), "active": false,
		"nodes": outNodes, "connections": conns, "settings": map[string]any{"executionOrder": "v1"},
	}
	enc, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	enc = append(enc, '\n')
	if out == "" {
		_, err = os.Stdout.Write(enc)
		return err
	}
	return os.WriteFile(out, enc, 0o644)
}
