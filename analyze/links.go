package analyze

import (
	"cmp"
	"slices"
	"strings"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// Links is what the first pass keeps of a parsed file so that calls between
// workflows can be grouped without holding the file: for each workflow, the
// keys the call index finds it by and the keys its calls look up: ids,
// webhook keys, and names, which a call's cached callee name finds when no
// workflow has the id it calls (callIndex.resolveName).
type Links struct {
	Workflows []WorkflowLinks
}

// WorkflowLinks are one workflow's keys, each list sorted without repeats.
// The strings are copies: links hold no source alive.
type WorkflowLinks struct {
	// ID is the workflow's id ("" when it has none); Name its name.
	ID, Name string
	// Label is the file name of a workflow with neither id nor name alone
	// in its file (fileLabel): a call's cached name it carries makes RS005
	// name the file.
	Label string
	// Hooks are the webhook keys its Webhook nodes are served under.
	Hooks []string
	// IDRefs are the literal workflow ids it names: Execute Workflow, Call
	// Workflow Tool, the n8n node, settings.errorWorkflow.
	IDRefs []string
	// HookRefs are the webhook paths its HTTP requests call.
	HookRefs []string
	// NamedRefs are the IDRefs whose call caches the callee's name, with
	// that name.
	NamedRefs []NamedRef
}

// NamedRef is a workflow id a call names and the callee name it caches.
type NamedRef struct{ ID, Name string }

// Calls says whether a workflow of the file calls one by its id or a
// webhook: only such a file can join a group it holds no callee of.
func (l Links) Calls() bool {
	for _, w := range l.Workflows {
		if len(w.IDRefs) > 0 || len(w.HookRefs) > 0 {
			return true
		}
	}
	return false
}

// LinksOf reads a file's links with the code buildCalls resolves calls by
// (servedHooks, nodeCall, errorWorkflowCall), so the two cannot drift.
func LinksOf(f *n8nschema.File) Links {
	var l Links
	if len(f.Workflows) > 0 {
		l.Workflows = make([]WorkflowLinks, 0, len(f.Workflows))
	}
	for _, w := range f.Workflows {
		wl := WorkflowLinks{ID: strings.Clone(w.ID), Name: strings.Clone(w.Name), Label: strings.Clone(fileLabel(w))}
		servedHooks(w, func(_ *n8nschema.Node, key string) { wl.Hooks = append(wl.Hooks, strings.Clone(key)) })
		add := func(k lookup) {
			switch {
			case k.id != "":
				wl.IDRefs = append(wl.IDRefs, strings.Clone(k.id))
				if k.name != "" {
					wl.NamedRefs = append(wl.NamedRefs, NamedRef{strings.Clone(k.id), strings.Clone(k.name)})
				}
			case k.hook != "":
				wl.HookRefs = append(wl.HookRefs, strings.Clone(k.hook))
			}
		}
		for _, n := range w.Nodes {
			if c, k := nodeCall(w, n); c != nil {
				add(k)
			}
		}
		if c, k := errorWorkflowCall(w); c != nil {
			add(k)
		}
		for _, s := range []*[]string{&wl.Hooks, &wl.IDRefs, &wl.HookRefs} {
			slices.Sort(*s)
			*s = slices.Clip(slices.Compact(*s))
		}
		slices.SortFunc(wl.NamedRefs, func(a, b NamedRef) int {
			return cmp.Or(strings.Compare(a.ID, b.ID), strings.Compare(a.Name, b.Name))
		})
		wl.NamedRefs = slices.Clip(slices.Compact(wl.NamedRefs))
		l.Workflows = append(l.Workflows, wl)
	}
	return l
}

// Components groups the files of a set (given by their links, in set
// order) so that Build over one group's files gives its workflows exactly
// what Build over the whole set gives: the same calls, operations and
// findings of every rule that is not set-wide (RunSet). A reference joins its file
// with every file that holds a workflow it could resolve to (every
// workflow with that id, every one serving that webhook key, and when no
// workflow has the id, every one bearing the name the call caches, and
// when none bears it, every one whose file label carries it), so that
// the pick among several and "not in the set" come out the same. Each
// group lists file indexes in ascending order; groups are ordered by their
// first file.
func Components(links []Links) [][]int {
	parent := make([]int32, len(links))
	for i := range parent {
		parent[i] = int32(i)
	}
	find := func(i int32) int32 {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	union := func(a, b int32) {
		a, b = find(a), find(b)
		if a < b {
			parent[b] = a
		} else if b < a {
			parent[a] = b
		}
	}
	// Holders of a key are joined only when something refers to it: copies
	// of one workflow that nothing calls stay apart.
	byID, byHook, byName, byLabel := map[string][]int32{}, map[string][]int32{}, map[string][]int32{}, map[string][]int32{}
	for fi, l := range links {
		for _, w := range l.Workflows {
			labelKeys(w.Label, func(k string) { byLabel[k] = appendNew(byLabel[k], int32(fi)) })
			if w.ID != "" && !n8nschema.FillInID(w.ID) { // a redacted export's fill-in is no id
				byID[w.ID] = appendNew(byID[w.ID], int32(fi))
			}
			if w.Name != "" {
				byName[w.Name] = appendNew(byName[w.Name], int32(fi))
			}
			for _, k := range w.Hooks {
				byHook[k] = appendNew(byHook[k], int32(fi))
			}
		}
	}
	refer := func(m map[string][]int32, k string, fi int32) {
		hs := m[k]
		if len(hs) == 0 {
			return
		}
		union(hs[0], fi)
		for _, h := range hs[1:] {
			union(hs[0], h)
		}
		m[k] = hs[:1] // joined: the first stands for all from now on
	}
	for fi, l := range links {
		for _, w := range l.Workflows {
			for _, k := range w.IDRefs {
				refer(byID, k, int32(fi))
			}
			for _, k := range w.HookRefs {
				refer(byHook, k, int32(fi))
			}
			for _, k := range w.NamedRefs {
				if len(byID[k.ID]) == 0 {
					if len(byName[k.Name]) > 0 {
						refer(byName, k.Name, int32(fi))
					} else {
						refer(byLabel, labelKey(k.Name), int32(fi))
					}
				}
			}
		}
	}
	var groups [][]int
	at := make(map[int32]int, len(links))
	for fi := range links {
		r := find(int32(fi))
		gi, ok := at[r]
		if !ok {
			gi = len(groups)
			at[r] = gi
			groups = append(groups, nil)
		}
		groups[gi] = append(groups[gi], fi)
	}
	return groups
}

// appendNew appends a file index unless it is already the last.
func appendNew(s []int32, fi int32) []int32 {
	if n := len(s); n > 0 && s[n-1] == fi {
		return s
	}
	return append(s, fi)
}
