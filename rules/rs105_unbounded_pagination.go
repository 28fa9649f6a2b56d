package rules

import (
	"fmt"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
)

var rs105 = &analyze.Rule{
	ID:    "RS105",
	Name:  "unbounded-pagination",
	Title: "pagination has no page limit",
	Doc: `The HTTP Request node's pagination fetches pages until its completion test says stop (by default: an
empty response). Without "Limit Pages Fetched" nothing else bounds it (maxRequests, default 100, applies only
when limitPagesFetched is on;
packages/core/src/execution-engine/node-execution-context/utils/request-helper-functions.ts): an API that
keeps returning a next cursor, a page parameter it ignores, or a completion expression that never matches
makes the node request pages for ever, and a node retry starts over from the first page. The same holds for
pages fetched by a loop of nodes (a Set or Code node of the loop sets the page or cursor that the request of
the loop sends, and an If decides when to stop) with no counter that caps the passes; such a loop is fan-out,
so RS103 leaves it to this rule. Pagination that takes each next page from the response (the next URL it
returns, or a cursor read from it such as nextCursor or nextPageToken) ends when the data does and is a
note; so is a loop that sends a cursor or last id taken from the data rather than a number it steps, or that
requests the next-page link the last response gave (Facebook's Graph API returns paging.next and leaves it
out on the last page; HubSpot's paging.next.link, Microsoft Graph's @odata.nextLink alike). A page
number that n8n counts ($pageCount) is not: an API that ignores it answers the same page for
ever.
A node or loop that no trigger's run reaches is not reported (it never fetches a page), nor one behind a node
that fails on every run (RS010's facts): no run gets to it, and RS010 reports the node in front.`,
	Fix:        "Turn on Limit Pages Fetched in the pagination options and set Max Pages to the most pages the API can have",
	FixDoc:     "None: limiting pagination drops pages beyond the limit; only the author knows how many the data needs.",
	Severity:   analyze.Warning,
	Confidence: analyze.High,
	Tags:       []string{"loops", "fan-out"},
	Run: func(pass *analyze.Pass) {
		g := pass.Set.Graph(pass.Workflow)
		for _, n := range g.Nodes {
			if n.Disabled {
				continue
			}
			if !g.Reachable(n) {
				// No run gets there: nothing a trigger starts leads to it,
				// or a node before it fails on every run (RS010 reports it).
				continue
			}
			if _, unbounded := analyze.Pages(n); !unbounded {
				continue
			}
			p, _ := n.Param("options.pagination.pagination")
			until := p.Get("paginationCompleteWhen").Str()
			switch until {
			case "":
				until = "responseIsEmpty"
			case "other":
				// The completion test is the expression; say which.
				if x := strings.TrimPrefix(p.Get("completeExpression").Str(), "="); x != "" {
					until = x
				}
			}
			d := analyze.Diagnostic{Node: n, Pos: p.Pos(),
				Message: fmt.Sprintf("node %q paginates until %q with no page limit (limitPagesFetched is off)",
					n.Name, strings.TrimSpace(until))}
			if analyze.PagesFollowCursor(n) {
				// The API's next-page cursor ends it with the data.
				d.Severity, d.Detail = analyze.Note, "cursor"
			}
			pass.Report(d)
		}
		for _, l := range g.Loops {
			if !l.Paging || !g.Entered(l) {
				continue
			}
			n := l.Pager
			d := analyze.Diagnostic{Node: n, Pos: n.Pos, Detail: "loop", Confidence: analyze.Medium,
				Message: fmt.Sprintf("node %q fetches pages in a loop (%s) with no page limit: %q leads back to %q with the next page and no counter caps the passes",
					n.Name, loopPath(l.Nodes), l.Back.Name, l.Head.Name)}
			if l.PagingCursor {
				d.Severity = analyze.Note // the data's cursor ends it
			}
			pass.Report(d)
		}
	},
}
