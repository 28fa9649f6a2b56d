package n8nschema

import (
	"slices"
	"strings"
	"testing"
)

// TestEndsAsNode compares Connection.Ends, the nodes the parse kept, with
// w.Node of the connection's names for every connection of the fixtures
// and corpora, and for connections made by hand.
func TestEndsAsNode(t *testing.T) {
	kept := 0
	each := func(p string, b []byte) {
		for _, w := range Parse(NewSource(p, b)).Workflows {
			for i := range w.Connections {
				c := &w.Connections[i]
				from, to := c.Ends(w)
				if from != w.Node(c.From) || to != w.Node(c.To) {
					t.Fatalf("%s: connection %q → %q: Ends %p %p, Node %p %p", p, c.From, c.To, from, to, w.Node(c.From), w.Node(c.To))
				}
				if c.to != nil {
					kept++
				}
			}
		}
	}
	for _, root := range []string{"../rules/testdata", "../rules/examples", "../testdata", "../analyze/testdata"} {
		eachJSONFile(t, root, each)
	}
	for _, set := range []string{"n8n-real", "n8n-more", "n8n-fresh"} {
		eachCorpusFile(t, set, each)
	}
	if kept == 0 {
		t.Fatal("the parse kept no connection's nodes")
	}
	w := Parse(NewSource("w.json", []byte(`{"nodes":[{"name":"A","type":"n8n-nodes-base.set"},{"name":"B","type":"n8n-nodes-base.set"}],"connections":{}}`))).Workflows[0]
	for _, c := range []Connection{{From: "A", To: "B"}, {From: "B", To: "nowhere"}, {}} {
		if from, to := c.Ends(w); from != w.Node(c.From) || to != w.Node(c.To) {
			t.Fatalf("by hand %q → %q: Ends %v %v", c.From, c.To, from, to)
		}
	}
}

// TestMissingVersionGiven compares MissingVersion, which reads
// TypeVersions once and asks MissingVersionGiven, with the reading it
// replaced, for every fixture and corpus node at releases on both sides of
// 2.41 and at versions the node's type holds and does not.
func TestMissingVersionGiven(t *testing.T) {
	old := func(n *Node, v Version) ([]float64, bool) {
		if n.TypeVersion <= 0 || v.Compare(Version{2, 41, 0}) < 0 {
			return nil, false
		}
		vs, ok := versionedTypes[n.Type]
		if !ok && strings.HasSuffix(n.Type, "Tool") {
			vs, ok = versionedTypes[strings.TrimSuffix(n.Type, "Tool")]
		}
		if !ok || slices.Contains(vs, n.TypeVersion) {
			return nil, false
		}
		return vs, true
	}
	missing := 0
	check := func(where string, n *Node) {
		t.Helper()
		for _, v := range []Version{{1, 123, 0}, {2, 40, 9}, {2, 41, 0}, {2, 41, 1}, {3, 0, 0}} {
			want, wantOK := old(n, v)
			got, ok := MissingVersion(n, v)
			vs, versioned := TypeVersions(n.Type)
			given, givenOK := MissingVersionGiven(vs, versioned, n, v)
			if ok != wantOK || !slices.Equal(got, want) || givenOK != wantOK || !slices.Equal(given, want) {
				t.Fatalf("%s: %q v%v at %v: MissingVersion %v %v, Given %v %v, want %v %v", where, n.Type, n.TypeVersion, v, got, ok, given, givenOK, want, wantOK)
			}
			if ok {
				missing++
			}
		}
	}
	eachFixtureNode(t, check)
	for _, n := range []*Node{
		{Type: "n8n-nodes-base.airtable", TypeVersion: 4},
		{Type: "n8n-nodes-base.airtable", TypeVersion: 2},
		{Type: "n8n-nodes-base.airtableTool", TypeVersion: 4},
		{Type: "n8n-nodes-base.airtable", TypeVersion: 0},
		{Type: "n8n-nodes-base.set", TypeVersion: 99},
		{Type: "", TypeVersion: 1},
	} {
		check("by hand", n)
	}
	if missing == 0 {
		t.Fatal("no node at a version its type lacks")
	}
}
