package n8nschema

// Billing is who pays for a node's model calls, as its credential shows.
type Billing uint8

const (
	// BilledToKey: the owner's own credential, billed by the provider.
	BilledToKey Billing = iota
	// BilledToFreeCredits: n8n's free OpenAI API credits, a managed
	// openAiApi credential n8n creates under one fixed name (FreeAICreditsName).
	// The calls cost the owner nothing; once the allowance is used, n8n's
	// proxy refuses every call ("used all your free n8n AI credits").
	BilledToFreeCredits
	// BilledToGatewayCredits: n8n Cloud's Gateway credits, a credential
	// reference n8n marks __aiGatewayManaged: true. n8n bills each call
	// from the instance's prepaid balance, which the owner tops up.
	BilledToGatewayCredits
)

// FreeAICreditsName is the name n8n gives the free OpenAI credits
// credential (packages/cli/src/constants.ts FREE_AI_CREDITS_CREDENTIAL_NAME,
// created by createManagedCredential, which users cannot edit;
// docs/n8n-facts.md).
const FreeAICreditsName = "n8n free OpenAI API credits"

// BillingOf reads who pays for node n's calls from the credential
// references n8n writes on it: the __aiGatewayManaged flag, or the
// fixed name of the free credits credential on an openAiApi reference.
// Anything else is the owner's own key.
func BillingOf(n *Node) Billing {
	if n == nil || len(n.Credentials) == 0 {
		return BilledToKey
	}
	creds := n.Value.Get("credentials")
	for _, c := range n.Credentials {
		if creds.Get(c + ".__aiGatewayManaged").True() {
			return BilledToGatewayCredits
		}
	}
	if ref := creds.Get("openAiApi.name"); ref.Kind() == String && ref.Str() == FreeAICreditsName {
		return BilledToFreeCredits
	}
	return BilledToKey
}
