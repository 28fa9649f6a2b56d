package analyze

import (
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// A calendar invitation is a message too: an event created in the owner's
// calendar with a guest makes the calendar service tell that guest, from
// the owner's account. Which nodes create such an event, where they take
// their guests from, and whether the service mails them:
//
//   - Google Calendar (and its tool) event create, n8n's default resource
//     and operation: each additionalFields.attendees entry, split at
//     commas, becomes an attendee of the body, and sendUpdates goes into
//     the query only when set (nodes-base/nodes/Google/Calendar/GoogleCalendar.node.js
//     L169-200; EventDescription.js: all, externalOnly or none, default
//     unset). Google's events.insert: sendUpdates "Whether to send
//     notifications about the creation of the new event. Note that some
//     emails might still be sent. The default is false." So only "all"
//     and "externalOnly" (or the older sendNotifications, passed on at
//     L177-179) mail the invitation; without them the event still lands
//     in the guest's Google Calendar, unmailed.
//   - Microsoft Outlook v2 (and its tool) event create: additionalFields.attendees.values[].email
//     becomes the event's attendees, posted to /calendars/{id}/events
//     (nodes-base/nodes/Microsoft/Outlook/v2/actions/event/create.operation.js,
//     helpers/utils.js L239-247). Microsoft Graph sends a meeting request
//     to every attendee of an event created in the organiser's calendar.
//   - An HTTP Request (or an agent's HTTP Request tool) that POSTs an
//     event with an attendees list to Graph (/me/events,
//     /users/{id}/events, /calendars/{id}/events: mailed) or to Google
//     Calendar's /calendar/v3/calendars/{id}/events (mailed only with
//     sendUpdates all or externalOnly in its query).

// calendarInvite reports a node that creates an event in the owner's
// calendar with attendees (ok): the values its attendees are read from
// (exprs: those that an expression, $fromAI or an HTTP Request tool's
// {placeholder} fills in), and whether the service mails them the
// invitation (mailed).
func calendarInvite(n *n8nschema.Node) (exprs []string, mailed, ok bool) {
	typ := strings.TrimSuffix(n.Type, "Tool")
	p := n.Params()
	switch {
	case typ == "n8n-nodes-base.googleCalendar":
		if _, op, _ := n8nschema.WriteOpConf(n); op != "event.create" {
			return nil, false, false
		}
		a := p.Get("additionalFields.attendees")
		if a.Kind() == n8nschema.String {
			exprs = append(exprs, a.Str())
		}
		for _, e := range a.ElemsSeq() {
			exprs = append(exprs, e.Str())
		}
		switch p.Get("additionalFields.sendUpdates").Str() {
		case "all", "externalOnly":
			mailed = true
		}
		mailed = mailed || p.Get("additionalFields.sendNotifications").True()
	case typ == "n8n-nodes-base.microsoftOutlook":
		if _, op, _ := n8nschema.WriteOpConf(n); op != "event.create" || n.TypeVersion < 2 {
			return nil, false, false
		}
		for _, e := range p.Get("additionalFields.attendees.values").ElemsSeq() {
			exprs = append(exprs, e.Get("email").Str())
		}
		mailed = true
	case n8nschema.IsHTTPRequest(n.Type):
		if n8nschema.HTTPMethod(n) != "POST" {
			return nil, false, false
		}
		u := strings.ToLower(strings.TrimSpace(strings.TrimPrefix(p.Get("url").Str(), "=")))
		host, path := hostOf(u), strings.TrimRight(pathOf(u), "/")
		switch {
		case host == "graph.microsoft.com" && strings.HasSuffix(path, "/events"):
			mailed = true
		case host == "www.googleapis.com" && strings.HasPrefix(path, "/calendar/v3/calendars/") && strings.HasSuffix(path, "/events"):
			mailed = googleSendsUpdates(n, u)
		default:
			return nil, false, false
		}
		exprs = httpAttendees(n)
	default:
		return nil, false, false
	}
	out := exprs[:0]
	for _, x := range exprs {
		if fromDataRE.MatchString(x) {
			out = append(out, x)
		}
	}
	return out, mailed, len(out) > 0
}

// googleSendsUpdates reports an HTTP call to Google Calendar's events
// whose query sets sendUpdates to all or externalOnly: in the URL, or as
// a query parameter (HTTP Request queryParameters.parameters, the HTTP
// Request tool's parametersQuery.values).
func googleSendsUpdates(n *n8nschema.Node, u string) bool {
	if strings.Contains(u, "sendupdates=all") || strings.Contains(u, "sendupdates=externalonly") {
		return true
	}
	for _, list := range []string{"queryParameters.parameters", "parametersQuery.values"} {
		for _, q := range n.Params().Get(list).ElemsSeq() {
			if q.Get("name").Str() == "sendUpdates" {
				switch strings.Trim(strings.TrimPrefix(q.Get("value").Str(), "="), " ") {
				case "all", "externalOnly":
					return true
				}
			}
		}
	}
	return false
}

// attendeeAddressRE finds an attendee's address in an event's JSON body:
// Graph's "address": "…" (under emailAddress), Google's "email": "…".
var attendeeAddressRE = lazyregexp.New(`(?i)["']?\b(address|email)["']?\s*:\s*("(?:[^"\\]|\\.)*"|'[^']*'|\{\{[\s\S]*?\}\}|\{[A-Za-z_]\w*\})`)

// httpAttendees returns the attendees an HTTP call's event body names: a
// body parameter named attendees (an HTTP Request tool's that the model
// fills in as its {placeholder}), or the addresses in the JSON body's
// attendees list (the whole list when it names none by key). It is the
// one reader of an event body's guests: RS307's calendarInvite and
// ConsequenceIn's invitesFromData.
func httpAttendees(n *n8nschema.Node) []string {
	var out []string
	p := n.Params()
	for _, b := range p.Get("bodyParameters.parameters").ElemsSeq() {
		if strings.EqualFold(b.Get("name").Str(), "attendees") {
			out = append(out, b.Get("value").Str())
		}
	}
	for _, b := range p.Get("parametersBody.values").ElemsSeq() {
		if name := b.Get("name").Str(); strings.EqualFold(name, "attendees") {
			// The HTTP Request tool's body parameter: the model gives it
			// unless its valueProvider is fieldValue (modelRequired by
			// default: @n8n/n8n-nodes-langchain/dist/nodes/tools/ToolHttpRequest/descriptions.js,
			// utils.js: entry.valueProvider.includes('model')).
			if vp := b.Get("valueProvider").Str(); vp == "" || strings.Contains(vp, "model") {
				out = append(out, "{"+name+"}")
			} else {
				out = append(out, b.Get("value").Str())
			}
		}
	}
	body := p.Get("jsonBody").Str()
	loc := attendeesRE.FindStringIndex(body)
	if loc == nil {
		return out
	}
	list := body[loc[1]:]
	if end := closeOf(list); end >= 0 {
		list = list[:end]
	}
	found := false
	for _, m := range attendeeAddressRE.FindAllStringSubmatch(list, -1) {
		out = append(out, strings.Trim(m[2], `"'`))
		found = true
	}
	if !found && strings.TrimSpace(list) != "" {
		out = append(out, strings.TrimSpace(list))
	}
	return out
}
