package analyze

import (
	"slices"
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// A form is a page a person fills in and submits, and then waits for the
// answer: the Webhook answers with what the run made (a Respond to
// Webhook node that answers with something, or the last node's output),
// and the request brings what a person types to a business: an e-mail
// address or phone number, and a name or a message (a lead form may ask
// for no name: e-mail, company and message). A later step of an order or
// a quote the person began (confirm, choose, pay) may ask for none of
// them: it brings the person's choices for their own order (where to
// deliver it, how to pay, how to receive it), and the run answers the
// request it refuses with a 4xx status the person reads (a bad option, a
// quote not found, one already confirmed). A service's event is answered
// on receipt, or names its kind (an event type) or signs itself (a
// signature header), and a form does neither; nor does a service refuse
// its own event with a 4xx, which it would take for a failed delivery.

// postsPersonForm reports whether a Webhook takes a form a person filled
// in, read once per webhook of the graph.
func (g *Graph) postsPersonForm(t *n8nschema.Node) bool {
	if g == nil || t.Type != n8nschema.TypeWebhook {
		return false
	}
	g.formOnce.Do(func() {
		g.formBy = map[*n8nschema.Node]bool{}
		reads := map[*n8nschema.Node]bool{} // readsPersonForm, by the first webhook of a class
		for _, tr := range g.Triggers() {
			if tr.Type != n8nschema.TypeWebhook {
				continue
			}
			r := g.sameFacts(tr)
			if r == tr {
				reads[tr] = readsPersonForm(g, g.walk(false, []*n8nschema.Node{tr}), tr)
			}
			g.formBy[tr] = reads[r] && noSender(g, tr) // SenderOf reads the name and path, which a class does not share
		}
	})
	if r, ok := g.formBy[t]; ok {
		return r
	}
	return postsPersonForm(g, g.walk(false, []*n8nschema.Node{t}), t) // not one of the graph's triggers
}

// postsPersonForm reports whether webhook t takes a form a person filled
// in: it answers with the run's result (responseMode "lastNode", or
// "responseNode" with a Respond to Webhook node that does not answer
// noData), the run reads an e-mail address or phone number and a name or
// a message from the request, or reads an order's choices (an address, a
// payment or delivery method) and answers a request it refuses with a 4xx
// (refusesRequest), and it reads no event type or signature header. The
// fields count by any path the run reads the request by: the body in an
// expression or in code ($json.body.email,
// $('Webhook').first().json.body.email, const {email} = $json.body), the
// item's own fields on a node the webhook feeds directly or through the
// webhook's name ($json.email: n8n's Webhook item holds the request under
// body, so the field is undefined there, but the request plainly brings
// it), and the query of a webhook that takes GET.
func postsPersonForm(g *Graph, reached Reach, t *n8nschema.Node) bool {
	return readsPersonForm(g, reached, t) && noSender(g, t)
}

// readsPersonForm is postsPersonForm but for the known service's signal
// (noSender).
func readsPersonForm(g *Graph, reached Reach, t *n8nschema.Node) bool {
	answers := false
	switch t.Params().Get("responseMode").Str() {
	case "lastNode":
		answers = true
	case "responseNode":
	default:
		return false
	}
	direct := map[*n8nschema.Node]bool{}
	for _, e := range g.Out(t) {
		if e.Type == ConnMain {
			direct[e.To] = true
		}
	}
	get := takesGet(t)
	var name, contact, typed, order, refuses, event bool
	for _, n := range reached.Nodes() {
		if n.Disabled {
			continue
		}
		if n.Type == n8nschema.TypeRespondToWebhook && n.Params().Get("respondWith").Str() != "noData" {
			answers = true
			refuses = refuses || refusesRequest(n)
		}
		for _, x := range g.paths(g.at(n)) {
			if event {
				break
			}
			requestFields(x, t, direct[n], get, func(f string) {
				switch formFields[f] {
				case fieldName:
					name = true
				case fieldContact:
					contact = true
				case fieldText:
					typed = true
				case fieldOrder:
					order = true
				case fieldEvent:
					event = true
				}
			})
		}
	}
	if !answers || event || !(contact && (name || typed) || order && refuses) {
		return false
	}
	// A signature header says a service signs its events: asked last, of
	// the few webhooks whose runs read a form's fields.
	for _, n := range reached.Nodes() {
		if !n.Disabled && slices.ContainsFunc(g.paths(g.at(n)), signatureHeaderRE.MatchString) {
			return false
		}
	}
	return true
}

// noSender reports that no known service's signal (a signature or event
// header, an event name, its payload) says a machine calls webhook t,
// whatever else its runs read: a shop's order carries the customer's name
// and e-mail too.
func noSender(g *Graph, t *n8nschema.Node) bool {
	key, _ := SenderOf(g, t)
	return key == ""
}

// requestFields calls fn with each field of t's request that x reads, as
// formFieldKey writes it.
func requestFields(x string, t *n8nschema.Node, direct, get bool, emit func(string)) {
	fn := func(f string) { emit(formFieldKey(f)) }
	// each reads a field and the field one object below it: a front end
	// may send its form's fields in one object ($json.body.context.email).
	each := func(re *lazyregexp.Regexp, s string) {
		for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
			fn(group(s, m, 1) + group(s, m, 2))
			if n := nestedFieldRE.FindStringSubmatch(s[m[1]:]); n != nil {
				fn(n[1])
			}
		}
	}
	expr := strings.Contains(x, "{{")
	switch {
	case expr && readsBody(x, t):
		each(requestFieldRE, x)
	case !expr && strings.Contains(x, "body"):
		// Code reads the body as json.body.email, or takes it apart:
		// const { name, email } = $json.body, or reads it by a list of
		// names: const required = ['name', 'email']; body[f].
		each(codeBodyRE, x)
		if bodyIndexRE.MatchString(x) {
			for _, l := range stringListRE.FindAllString(x, -1) {
				for _, m := range listItemRE.FindAllStringSubmatch(l, -1) {
					fn(m[1] + m[2])
				}
			}
		}
		for _, m := range destructureBodyRE.FindAllStringSubmatch(x, -1) {
			for _, part := range strings.Split(m[1], ",") {
				key, _, _ := strings.Cut(part, ":")
				fn(key)
			}
		}
	}
	if get {
		each(queryFieldRE, x)
	}
	item := func(s string) {
		for _, m := range itemOwnFieldRE.FindAllStringSubmatch(s, -1) {
			if f := m[1] + m[2]; !webhookItemKeys[formFieldKey(f)] {
				fn(f)
			}
		}
	}
	if direct {
		item(x)
	}
	if !strings.Contains(x, t.Name) {
		return // reads no field of t by its name
	}
	nodeRefs(x, func(name string, end int) {
		if name != t.Name {
			return
		}
		if r := refJSONRE.FindStringSubmatch(x[end:]); r != nil {
			if f := r[1] + r[2]; !webhookItemKeys[formFieldKey(f)] {
				fn(f)
			}
		}
	})
}

// refusesRequest reports a Respond to Webhook node that answers with a
// client error other than an authentication refusal: a 4xx response code
// (options.responseCode, the status it sends: nodes-base/dist/nodes/
// RespondToWebhook/RespondToWebhook.node.js, statusCode =
// options.responseCode || 200), or one the run computes (an expression),
// as a run that answers each refusal with its own status does.
func refusesRequest(n *n8nschema.Node) bool {
	v := n.Params().Get("options").Get("responseCode")
	if s := strings.TrimSpace(v.Str()); strings.HasPrefix(s, "=") {
		return strings.Contains(s, "{{")
	}
	c, ok := v.Num()
	// 401 and 403 answer a missing or wrong token: a check any caller
	// meets, a service's signed event included, not a person's choice.
	return ok && c >= 400 && c < 500 && c != 401 && c != 403
}

// takesGet reports whether a Webhook answers GET (alone or among its
// methods), whose fields come in the query.
func takesGet(t *n8nschema.Node) bool {
	v, ok := t.Param("httpMethod")
	if !ok {
		return true // GET by default
	}
	if strings.EqualFold(v.Str(), "GET") {
		return true
	}
	for _, e := range v.ElemsSeq() {
		if strings.EqualFold(e.Str(), "GET") {
			return true
		}
	}
	return false
}

// webhookItemKeys are the keys of the item a Webhook node makes
// (nodes-base/nodes/Webhook/Webhook.node.ts): the request's parts, not its
// fields.
var webhookItemKeys = map[string]bool{"body": true, "headers": true, "params": true, "query": true, "webhookurl": true, "executionmode": true}

// The patterns below spell a field's name [_\p{L}]+(?:\p{N}+[_\p{L}]*)*,
// the names [\p{L}_][\p{L}\p{N}_]* spells: a class of letters and numbers
// merges their two Unicode tables and sorts ~800 ranges each time the
// pattern is parsed (~0.8 M instructions, three parses for a pattern with
// a lead). TestFieldNamesAsClass compares the two spellings.
var (
	// requestFieldRE matches a field read from a request body in an
	// expression: body.email, body["phone"], body['first_name'].
	requestFieldRE = lazyregexp.New(`\bbody(?:\.([_\p{L}]+(?:\p{N}+[_\p{L}]*)*)|\[\s*["']([^"']+)["']\s*\])`)
	// codeBodyRE matches a body field read in code: json.body.email,
	// json["body"]["email"].
	codeBodyRE = lazyregexp.New(`\bjson\s*(?:\.\s*body|\[\s*["']body["']\s*\])\s*(?:\.\s*([_\p{L}]+(?:\p{N}+[_\p{L}]*)*)|\[\s*["']([^"']+)["']\s*\])`)
	// destructureBodyRE matches the names taken apart from the body in
	// code: const { name, email } = $json.body.
	destructureBodyRE = lazyregexp.New(`\{([\w\s,:]+)\}\s*=\s*[\w$.()\[\]'"\s]*\bjson\s*(?:\.\s*body|\[\s*["']body["']\s*\])\s*(?:;|\n|\|\||$)`)
	// queryFieldRE matches a field read from a request's query.
	queryFieldRE = lazyregexp.New(`\bjson\s*(?:\.\s*query|\[\s*["']query["']\s*\])\s*(?:\.\s*([_\p{L}]+(?:\p{N}+[_\p{L}]*)*)|\[\s*["']([^"']+)["']\s*\])`)
	// nestedFieldRE matches, after a field read, the field one object
	// below it: .email after body.context.
	nestedFieldRE = lazyregexp.New(`^\s*\.\s*([_\p{L}]+(?:\p{N}+[_\p{L}]*)*)`)
	// bodyIndexRE matches a read of the body by a variable's value in
	// code: json.body[f], after readPaths has written a variable bound to
	// the body as its path.
	bodyIndexRE = lazyregexp.New(`\bjson\s*\.\s*body\s*\[\s*[A-Za-z_$]`)
	// stringListRE matches a literal list of two or more strings:
	// ['name', 'email', 'phone'].
	stringListRE = lazyregexp.New(`\[\s*(?:(?:"[^"\n]{1,40}"|'[^'\n]{1,40}')\s*,\s*)+(?:"[^"\n]{1,40}"|'[^'\n]{1,40}')\s*,?\s*\]`)
	// listItemRE matches one string of such a list.
	listItemRE = lazyregexp.New(`"([^"\n]*)"|'([^'\n]*)'`)
	// itemOwnFieldRE matches a field of the item a node receives:
	// $json.email, $input.first().json.email, $input.item.json["email"].
	itemOwnFieldRE = lazyregexp.New(`(?:\$json|\$input\s*\.\s*(?:first\(\s*\)|last\(\s*\)|item)\s*\.\s*json)\s*(?:\.\s*([_\p{L}]+(?:\p{N}+[_\p{L}]*)*)|\[\s*["']([^"']+)["']\s*\])`)
	// refJSONRE matches, after $('Webhook'), a field of its item:
	// .item.json.email, .first().json["email"].
	refJSONRE = lazyregexp.New(`^\s*\.\s*(?:item|first\(\s*\)|last\(\s*\)|all\(\s*\)\s*\[\s*\d+\s*\])\s*\.\s*json\s*(?:\.\s*([_\p{L}]+(?:\p{N}+[_\p{L}]*)*)|\[\s*["']([^"']+)["']\s*\])`)
)

// The kinds of field a request brings, as formFields names them.
const (
	fieldOther = iota
	fieldName
	fieldContact
	fieldText
	fieldOrder
	fieldEvent
)

// formFields are the fields of a contact or lead form, by kind: a
// person's name; an e-mail address or phone number; what a person writes
// to a business (a message, a company, a subject); what a person chooses
// for their own order (where to deliver it, how to pay, how to receive
// it); and the field a service's event names its kind by. Keys are written as formFieldKey
// writes a field read (first_name, firstName and "First Name" are
// firstname). English first, then the names people give the same fields in
// Spanish, Portuguese, French, German and Italian, and their abbreviations
// (cel, tel, mail): a form is a form in any language.
var formFields = func() map[string]int {
	m := map[string]int{}
	for _, k := range []struct {
		kind  int
		words string
	}{
		{fieldName, "name fullname firstname lastname yourname surname " +
			"nombre nombres nombrecompleto apellido apellidos " + // es
			"nome nomecompleto sobrenome " + // pt, it
			"nom prenom nomcomplet " + // fr
			"vorname nachname " + // de
			"cognome nominativo"}, // it
		{fieldContact, "email emailaddress youremail mail phone phonenumber telephone tel mobile whatsapp " +
			"correo correoelectronico telefono celular cel movil " + // es
			"telefone " + // pt
			"courriel portable " + // fr
			"telefon telefonnummer handy emailadresse " + // de
			"cellulare"}, // it
		{fieldText, "message yourmessage comment comments company companyname businessname subject inquiry enquiry question note notes " +
			"mensaje comentario comentarios empresa asunto consulta pregunta " + // es
			"mensagem assunto duvida pergunta " + // pt
			"commentaire entreprise societe sujet " + // fr
			"nachricht kommentar unternehmen betreff frage anfrage " + // de
			"messaggio commento azienda oggetto domanda richiesta"}, // it
		{fieldOrder, "address shippingaddress deliveryaddress streetaddress paymentmethod deliverymethod shippingmethod deliveryoption " +
			"direccion direcciondeenvio direccionenvio metodopago metododepago formapago formadepago mediopago mediodepago metodoenvio metododeenvio " + // es
			"endereco enderecoentrega formapagamento formadepagamento metodopagamento metododepagamento " + // pt
			"adresse adresselivraison modepaiement moyendepaiement modelivraison " + // fr, de
			"lieferadresse zahlungsart zahlungsmethode versandart " + // de
			"indirizzo indirizzospedizione metododipagamento metodospedizione"}, // it
		{fieldEvent, "event eventtype eventname topic triggerevent webhookevent notificationtype"},
	} {
		for _, w := range strings.Fields(k.words) {
			if _, dup := m[w]; dup {
				panic("formFields: " + w + " twice")
			}
			m[w] = k.kind
		}
	}
	return m
}()

// formFieldKey writes a field's name the one way formFields and
// webhookItemKeys hold it: lowercased, accents dropped (téléfono,
// teléfono), and no spaces, underscores, hyphens or dots (nombre
// completo, e-mail, first_name).
func formFieldKey(f string) string {
	f = strings.ToLower(strings.TrimSpace(f))
	var b strings.Builder
	b.Grow(len(f))
	for _, r := range f {
		switch r {
		case ' ', '_', '-', '.':
			continue
		case 'à', 'á', 'â', 'ã', 'ä', 'å':
			r = 'a'
		case 'ç':
			r = 'c'
		case 'è', 'é', 'ê', 'ë':
			r = 'e'
		case 'ì', 'í', 'î', 'ï':
			r = 'i'
		case 'ñ':
			r = 'n'
		case 'ò', 'ó', 'ô', 'õ', 'ö':
			r = 'o'
		case 'ù', 'ú', 'û', 'ü':
			r = 'u'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// signatureHeaderRE matches a signature header read from the request.
var signatureHeaderRE = lazyregexp.New(`(?i)headers\s*(?:\.\s*|\[\s*["'])[\w-]*(signature|hmac)`)
