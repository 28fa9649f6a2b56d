package main

import (
	"slices"
	"strings"
	"unicode"
)

// Operation kinds as the table writes them: what running the operation
// once more does outside n8n. "" is a read (or work inside n8n).
const (
	kindCreate  = "c" // a second record, file or post
	kindSend    = "s" // a second message, mail or call
	kindUpdate  = "u" // sets state again: repeating it leaves the same state
	kindDelete  = "d" // removes: repeating it finds nothing more to remove
	kindExecute = "x" // runs something remote whose effect the name does not say
)

// verbKinds maps the leading verb of an operation's action ("Create a
// draft", "Send a message") to its kind. Verbs not listed read: get,
// search, list, download, analyze, convert, generate, ...
var verbKinds = map[string]string{
	"create": kindCreate, "add": kindCreate, "insert": kindCreate, "upload": kindCreate, "append": kindCreate,
	"copy": kindCreate, "duplicate": kindCreate, "clone": kindCreate, "book": kindCreate, "register": kindCreate,
	"invite": kindCreate, "reinvite": kindCreate, "replicate": kindCreate, "retweet": kindCreate, "like": kindCreate,
	"react": kindCreate, "commit": kindCreate, "ship": kindCreate, "track": kindCreate, "submit": kindCreate,
	"push": kindCreate, "share": kindCreate, "charge": kindCreate, "refund": kindCreate,
	"capture": kindCreate, "pay": kindCreate, "transfer": kindCreate, "subscribe": kindCreate, "resubscribe": kindCreate,
	"log": kindCreate, "import": kindCreate, "write": kindCreate,

	"send": kindSend, "post": kindSend, "reply": kindSend, "resend": kindSend, "email": kindSend,
	"make": kindSend, "dispatch": kindSend, "auto-dispatch": kindSend, "call": kindSend, "notify": kindSend,

	"update": kindUpdate, "upsert": kindUpdate, "set": kindUpdate, "edit": kindUpdate, "rename": kindUpdate,
	"change": kindUpdate, "move": kindUpdate, "archive": kindUpdate, "unarchive": kindUpdate, "archive/unarchive": kindUpdate,
	"mark": kindUpdate, "enable": kindUpdate, "disable": kindUpdate, "pin": kindUpdate, "unpin": kindUpdate,
	"close": kindUpdate, "reopen": kindUpdate, "lock": kindUpdate, "cancel": kindUpdate, "pause": kindUpdate,
	"resume": kindUpdate, "restart": kindUpdate, "restore": kindUpdate, "approve": kindUpdate, "disapprove": kindUpdate,
	"mute": kindUpdate, "resolve": kindUpdate, "complete": kindUpdate, "turn": kindUpdate, "replace": kindUpdate,
	"apply": kindUpdate, "promote": kindUpdate, "merge": kindUpdate, "activate": kindUpdate, "deactivate": kindUpdate,
	"renew": kindUpdate, "rate": kindUpdate, "reschedule": kindUpdate, "recover": kindUpdate, "untrash": kindUpdate,
	"publish": kindUpdate, "unpublish": kindUpdate, "join": kindUpdate, "leave": kindUpdate, "kick": kindUpdate, "shutdown": kindUpdate,
	"stop": kindUpdate, "start": kindUpdate, "void": kindUpdate, "terminate": kindUpdate, "install": kindUpdate,
	"add/remove": kindUpdate, "quiet": kindUpdate, "switch": kindUpdate, "save": kindUpdate, "redeploy": kindUpdate,
	"assign": kindUpdate, "unassign": kindUpdate, "open": kindUpdate, "increment": kindUpdate, "decrement": kindUpdate,
	"retry": kindUpdate, "skip": kindUpdate, "answer": kindUpdate, "unlock": kindUpdate,

	"delete": kindDelete, "remove": kindDelete, "clear": kindDelete, "trash": kindDelete, "drop": kindDelete,
	"unsubscribe": kindDelete, "pop": kindDelete, "purge": kindDelete, "truncate": kindDelete, "unlike": kindDelete,

	"incr": kindCreate, "execute": kindExecute, "run": kindExecute, "invoke": kindExecute, "trigger": kindExecute,
}

// readVerbs lead actions that read; an action led by a verb in neither
// list ("Atomically increment a key", "Convert text to voice") is
// classified by the operation value instead ("incr", "send").
var readVerbs = map[string]bool{
	"get": true, "search": true, "list": true, "download": true, "return": true, "returns": true, "read": true,
	"query": true, "lookup": true, "look": true, "find": true, "retrieve": true, "fetch": true, "fetches": true,
	"check": true, "perform": true, "verify": true, "validate": true, "analyze": true, "extract": true, "generate": true,
	"message": true, "classify": true, "transcribe": true, "translate": true, "summarize": true, "count": true,
}

// generations are operations whose action says "create" but that ask a
// model for an answer and store nothing: OpenAI's legacy text completion,
// moderation and image generation (nodes/OpenAi/*Description.ts).
var generations = []string{"create a completion", "create a moderation", "create an image"}

// idempotentOps set state even though they start with a creating verb.
var idempotentOps = []string{"upsert", "appendOrUpdate", "createOrUpdate", "createUpdate", "addLabel", "addTag", "addToList"}

// kind classifies an operation by its value and action ("Create or update a
// contact" updates; "Send a message" sends).
func kind(node, value, action, name string) string {
	for _, p := range idempotentOps {
		if strings.HasPrefix(value, p) {
			return kindUpdate
		}
	}
	phrase := strings.ToLower(action)
	if phrase == "" {
		phrase = strings.ToLower(name)
	}
	if strings.Contains(phrase, " or update") || strings.Contains(phrase, "upsert") {
		return kindUpdate
	}
	if node == "openAi" && slices.Contains(generations, phrase) {
		return ""
	}
	verb, _, _ := strings.Cut(phrase, " ")
	verb = strings.TrimFunc(verb, func(r rune) bool { return !unicode.IsLetter(r) && r != '/' && r != '-' })
	if verb == "publish" && strings.Contains(phrase, "message") {
		return kindSend // "Publish a message to a topic", not "Publish a workflow"
	}
	if readVerbs[verb] {
		// "Find and update documents" (MongoDB's findOneAndUpdate) does
		// what its second verb does.
		if _, rest, ok := strings.Cut(phrase, " and "); ok {
			second, _, _ := strings.Cut(rest, " ")
			if k := verbKinds[second]; k != "" {
				return k
			}
		}
	}
	if k, ok := verbKinds[verb]; ok || readVerbs[verb] {
		return k
	}
	return verbKinds[firstWord(value)]
}

// firstWord is the leading camelCase word of an operation value, lower case.
func firstWord(s string) string {
	for i, r := range s {
		if i > 0 && unicode.IsUpper(r) {
			return strings.ToLower(s[:i])
		}
	}
	return strings.ToLower(s)
}
