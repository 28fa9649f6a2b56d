package rules

import (
	"fmt"
	"slices"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

var rs204 = &analyze.Rule{
	ID:    "RS204",
	Name:  "repeat-run-duplicates",
	Title: "every run creates again what the last run created",
	Doc: `A schedule that reads every record of a store (a sheet, a table, a base, a database, a CRM) and creates a
record for each does the same work on every run: the rows read yesterday are read again today and created again.
Nothing is retried, so the attempt chain and RS201 cannot see it, yet every run after the first leaves a
duplicate of everything. The same holds for a trigger on a file's change (Google Drive Trigger on "file updated",
the Local File Trigger) that inserts all of the file's chunks into a vector store: each edit adds a second copy of
every chunk, billed again as embeddings, and retrieval returns the copies. n8n keeps no memory between executions
unless asked: the Remove Duplicates node's "Remove Items Processed in Previous Executions" operation
(nodes-base/nodes/Transform/RemoveDuplicates/v2/RemoveDuplicatesV2.description.ts) drops items whose key an
earlier execution saw; an upsert (appendOrUpdate, upsert, create-or-update) re-applies the same state. The rule
stays silent when anything may pick the new records: a filter, condition, WHERE, lookup, sort or limit on the read;
an If, Switch, Filter, Code, Merge, Compare Datasets, Remove Duplicates, Limit or sub-workflow between the read and
the write; a lookup in a store before the write; an update or delete back on the store read (rows marked or taken
off, as a queue); anything on the way that deletes or clears (the target emptied before it is filled), and a
vector store's own clear option. A write that records what the run found is a log, not a duplicate: it (or a write
before it, such as a dated backup folder) stamps the time ($now), or a call that fetches fresh data per record
lies between (a status check). So is a contact added to a list keyed by e-mail address (Mailchimp refuses a member that exists; Mautic, ActiveCampaign and Brevo update
it). Messages are left out: a schedule that mails every row is usually the point of the schedule. Severity
follows what a duplicate costs: an error for an order, invoice, deal or ticket; a warning for a second record.`,
	Fix:        "Drop what earlier runs handled (Remove Duplicates: Remove Items Processed in Previous Executions, on the row's id), read only new rows, or upsert on a key",
	FixDoc:     "None: a dedupe step needs the field that names a record, and an upsert the target's key column, which only the owner knows.",
	Severity:   analyze.Warning,
	Confidence: analyze.Medium,
	Tags:       []string{"writes", "schedules"},
	Run: func(pass *analyze.Pass) {
		w := pass.Workflow
		g := pass.Set.Graph(w)
		ops := liveOps(pass)
		done := map[*n8nschema.Node]bool{}
		// Triggers whose runs overlap are read together (GroupByReach): one
		// walk per group keeps a workflow of many chained schedules linear,
		// and a finding names the group's first trigger.
		var schedules, files []*n8nschema.Node
		for _, t := range g.Triggers() {
			switch {
			case t.Disabled:
			case analyze.OnClock(t):
				schedules = append(schedules, t)
			case analyze.FileChangeTrigger(t):
				files = append(files, t)
			}
		}
		// A schedule's run repeats a write after a read of a whole store:
		// the reads are found once, and the schedules grouped only when
		// there is one (most workflows have none).
		var stores []*n8nschema.Node
		if len(schedules) > 0 && slices.ContainsFunc(ops, madeWrite) {
			for _, n := range g.Nodes {
				if analyze.ReadsWholeStore(n) {
					stores = append(stores, n)
				}
			}
		}
		if len(stores) == 0 {
			schedules = nil
		}
		// What comes after a dedupe across executions, or after a node that
		// empties a target, is created once.
		createdOnce := func(n *n8nschema.Node) bool { return analyze.DedupesAcrossExecutions(n) || analyze.Clears(n) }
		for _, grp := range analyze.GroupByReach(g, schedules) {
			t, reach := grp.Triggers[0], grp.Reach
			var reads []*n8nschema.Node
			for _, n := range stores {
				if reach.Has(n) {
					reads = append(reads, n)
				}
			}
			if len(reads) == 0 {
				continue
			}
			marked := analyze.MarkedTypes(g, reach)
			reads = slices.DeleteFunc(reads, func(n *n8nschema.Node) bool { return marked[n.Type] })
			if len(reads) == 0 {
				continue
			}
			from := analyze.Unsifted(g, reads)
			// What runs after a mark is walked for once a write after a
			// read asks it (most groups have none).
			var after, logged, fresh map[*n8nschema.Node]bool
			for _, op := range ops {
				read := from[op.Node]
				if read == nil || read == op.Node || !madeWrite(op) || g.IsSubNode(op.Node) || done[op.Node] {
					continue
				}
				if after == nil {
					after = analyze.Behind(g, reach, grp.Triggers, createdOnce)
				}
				if after[op.Node] {
					continue
				}
				eff := analyze.ConsequenceOf(op.Node)
				if eff.Message || eff.Consequence != analyze.SecondRecord && eff.Consequence != analyze.Harm {
					continue
				}
				if logged == nil {
					// A write after a time-stamped write, or after a call that
					// fetches fresh data per record, records this run's findings.
					logged = analyze.Behind(g, reach, grp.Triggers, analyze.Stamps)
					readOnce := map[*n8nschema.Node]bool{}
					for _, op := range ops {
						if !op.Write && !op.Paid && from[op.Node] != nil && from[op.Node] != op.Node {
							readOnce[op.Node] = true
						}
					}
					fresh = analyze.Behind(g, reach, grp.Triggers, func(n *n8nschema.Node) bool { return readOnce[n] })
				}
				if logged[op.Node] || fresh[op.Node] || analyze.Stamps(op.Node) || analyze.KeyedByAddress(op.Node) {
					continue
				}
				done[op.Node] = true
				sev, _ := duplicateSeverity(eff, true) // every run repeats it
				pass.Report(analyze.Diagnostic{Node: op.Node, Pos: op.Node.Pos, Severity: sev, Detail: "schedule",
					Message: fmt.Sprintf("schedule %q runs node %q, which reads every record with no filter, and node %q creates one for each on every run, with nothing that drops the records earlier runs handled: each run after the first leaves %s per record",
						t.Name, read.Name, op.Node.Name, eff.Duplicate),
					Chain: op.Factors})
			}
		}
		for _, grp := range analyze.GroupByReach(g, files) {
			t, reach := grp.Triggers[0], grp.Reach
			after := analyze.Behind(g, reach, grp.Triggers, createdOnce)
			for _, n := range g.Nodes {
				if done[n] || !reach.Has(n) || !analyze.VectorInsert(n) || after[n] {
					continue
				}
				done[n] = true
				pass.Report(analyze.Diagnostic{Node: n, Pos: n.Pos, Detail: "file",
					Message: fmt.Sprintf("trigger %q runs on every change of the file and node %q inserts all of its chunks again, with nothing that removes the old ones first: each edit adds a second copy of every chunk, and its embeddings are billed again",
						t.Name, n.Name)})
			}
		}
	},
}
