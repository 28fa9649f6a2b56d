package analyze

import "github.com/stormcheck/stormcheck/n8nschema"

// BilledService names the service that bills the owner's account per use
// for op's call (n8nschema.BilledService: an Apify Actor run, a Firecrawl
// scrape), when the call is made and bills someone: op is live and can be
// called as written (CannotCall, as the other spend checks ask), and an
// HTTP Request sends an account (n8nschema.SendsAccount): with no token,
// or a template's placeholder for one, the service refuses the call and
// bills nothing.
func BilledService(op *Operation) (string, bool) {
	if !op.Live || CannotCall(op) {
		return "", false
	}
	svc, ok := n8nschema.BilledService(op.Node)
	if !ok || n8nschema.IsHTTPRequest(op.Node.Type) && !n8nschema.SendsAccount(op.Node) {
		return "", false
	}
	return svc, true
}
