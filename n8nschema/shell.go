package n8nschema

import (
	"path"
	"slices"
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
)

// The SSH node runs its command on the host and returns its output
// (nodes-base/nodes/Ssh/Ssh.node.ts, resource command, operation execute):
// what it changes is what the command does. ReadOnlyCommand reads that
// from the command's text, conservatively: a command is a read only when
// every statement of it is a known read-only command, with no output
// redirected to a file and no heredoc. Anything else (a script, an
// interpreter, a tool it does not know, a computed command) may write.

// readOnlyCommands are commands that only print what they read, whatever
// their arguments (checked further by readOnlyStatement where an argument
// makes one write: sed -i, sort -o, find -delete, awk's system()).
var readOnlyCommands = map[string]bool{
	"cat": true, "head": true, "tail": true, "ls": true, "df": true, "du": true, "free": true,
	"uptime": true, "uname": true, "hostname": true, "whoami": true, "id": true, "date": true,
	"ps": true, "top": true, "pgrep": true, "grep": true, "egrep": true, "fgrep": true,
	"awk": true, "gawk": true, "mawk": true, "sed": true, "cut": true, "sort": true, "uniq": true,
	"wc": true, "tr": true, "jq": true, "echo": true, "printf": true, "true": true, "false": true,
	"test": true, "[": true, "[[": true, "stat": true, "file": true, "which": true, "pwd": true,
	"cd": true, "nproc": true, "lscpu": true, "lsblk": true, "lsof": true, "netstat": true,
	"ss": true, "vmstat": true, "iostat": true, "mpstat": true, "sensors": true, "base64": true,
	"md5sum": true, "sha1sum": true, "sha256sum": true, "basename": true, "dirname": true,
	"realpath": true, "readlink": true, "find": true, "tac": true, "nl": true, "column": true,
	"ping": true, "nslookup": true, "dig": true, "getent": true, "who": true, "w": true,
	"last": true, "printenv": true, "exit": true, ":": true,
}

// readOnlySubcommands are tools that read at the listed subcommands (their
// first argument) and may write at any other.
var readOnlySubcommands = map[string][]string{
	"docker":         {"ps", "logs", "inspect", "images", "stats", "version", "info", "top", "port", "history"},
	"docker-compose": {"ps", "logs", "config", "images", "top", "version"},
	"systemctl":      {"status", "is-active", "is-enabled", "is-failed", "list-units", "list-unit-files", "list-timers", "show", "cat"},
	"git":            {"status", "log", "diff", "show", "rev-parse", "ls-files", "describe"},
	"kubectl":        {"get", "describe", "logs", "top", "version", "explain", "cluster-info"},
	"apt":            {"list", "show", "policy", "search"},
	"apt-cache":      {"policy", "show", "search", "madison"},
	"rclone":         {"ls", "lsf", "lsd", "lsl", "lsjson", "size", "about", "cat", "version", "listremotes", "tree"},
	"pm2":            {"list", "ls", "status", "jlist", "describe", "show"},
	"pct":            {"list", "status", "config"},
	"qm":             {"list", "status", "config"},
}

// dockerObjects are docker's object commands, read at ls, inspect and the
// like (docker container ls, docker compose ps).
var dockerObjects = map[string][]string{
	"container": {"ls", "list", "ps", "inspect", "logs", "stats", "top", "port"},
	"image":     {"ls", "list", "inspect", "history"},
	"volume":    {"ls", "list", "inspect"},
	"network":   {"ls", "list", "inspect"},
	"system":    {"df", "info"},
	"compose":   {"ps", "logs", "config", "images", "top", "ls", "version"},
}

// shellKeywords open or close a compound command; the words after them are
// a command of their own.
var shellKeywords = map[string]bool{
	"if": true, "then": true, "else": true, "elif": true, "fi": true, "do": true, "done": true,
	"while": true, "until": true, "!": true, "{": true, "}": true, "time": true,
}

// assignmentRE matches a variable assignment before a command (cid=…).
var assignmentRE = lazyregexp.New(`^[A-Za-z_][A-Za-z0-9_]*=`)

// exprRE matches an n8n expression inside the command.
var exprRE = lazyregexp.New(`\{\{[\s\S]*?\}\}`)

// ReadOnlyCommand reports whether a shell command only reads: split into
// its statements (;, &&, ||, |, &, newlines, $( ) and ( )), each is a
// command readOnlyStatement knows as a read, and nothing is written to a
// file (> or >> other than to /dev/null or another descriptor) or fed by a
// heredoc. An n8n expression counts as an argument; a command word it
// gives is not known.
func ReadOnlyCommand(cmd string) bool {
	cmd = strings.TrimPrefix(cmd, "=")
	cmd = exprRE.ReplaceAllString(cmd, "{{x}}")
	if strings.TrimSpace(cmd) == "" || strings.Contains(cmd, "<<") {
		return false
	}
	var stmts []string
	var cur strings.Builder
	cut := func() {
		stmts = append(stmts, cur.String())
		cur.Reset()
	}
	var quote byte // ' or " while inside quotes
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			}
		case quote == '"':
			switch c {
			case '"':
				quote = 0
			case '`':
				return false // a command inside a string: not read
			case '$':
				if i+1 < len(cmd) && cmd[i+1] == '(' {
					return false
				}
			case '\\':
				cur.WriteByte(c)
				i++
				if i < len(cmd) {
					cur.WriteByte(cmd[i])
				}
				continue
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && (i == 0 || strings.ContainsRune(" \t\n;&|(", rune(cmd[i-1]))):
			for i < len(cmd) && cmd[i] != '\n' {
				i++ // a comment
			}
			cut()
			continue
		case c == '>':
			j := i + 1
			if j < len(cmd) && cmd[j] == '&' {
				i = j // 2>&1: to another descriptor
				continue
			}
			if j < len(cmd) && cmd[j] == '>' {
				j++
			}
			for j < len(cmd) && (cmd[j] == ' ' || cmd[j] == '\t') {
				j++
			}
			if !strings.HasPrefix(cmd[j:], "/dev/null") {
				return false // output written to a file
			}
			i = j + len("/dev/null") - 1
			continue
		case c == ';' || c == '|' || c == '&' || c == '\n' || c == '(' || c == ')' || c == '`':
			cut()
			continue
		case c == '$' && i+1 < len(cmd) && cmd[i+1] == '(':
			cut()
			i++
			continue
		}
		cur.WriteByte(c)
	}
	if quote != 0 {
		return false
	}
	cut()
	for _, st := range stmts {
		if !readOnlyStatement(strings.Fields(st)) {
			return false
		}
	}
	return true
}

// readOnlyStatement reports whether one simple command only reads.
func readOnlyStatement(w []string) bool {
	for len(w) > 0 && (shellKeywords[w[0]] || assignmentRE.MatchString(w[0]) || w[0] == "sudo") {
		w = w[1:]
	}
	if len(w) == 0 {
		return true
	}
	if w[0] == "for" || w[0] == "select" {
		return true // the loop's words are data
	}
	name := path.Base(w[0])
	args := w[1:]
	if slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "--output") }) {
		return false // written to a file
	}
	if subs, ok := readOnlySubcommands[name]; ok {
		if len(args) == 0 {
			return false
		}
		if name == "docker" {
			if objs, ok := dockerObjects[args[0]]; ok {
				return len(args) > 1 && slices.Contains(objs, args[1])
			}
		}
		return slices.Contains(subs, args[0])
	}
	if name == "service" {
		return len(args) == 2 && args[1] == "status"
	}
	if !readOnlyCommands[name] {
		return false
	}
	for _, a := range args {
		switch name {
		case "date":
			if a == "-s" || strings.HasPrefix(a, "--set") {
				return false // sets the clock
			}
		case "hostname":
			if !strings.HasPrefix(a, "-") {
				return false // sets the host name
			}
		case "sed":
			if strings.HasPrefix(a, "-i") || strings.HasPrefix(a, "--in-place") {
				return false
			}
		case "sort":
			if strings.HasPrefix(a, "-o") || strings.HasPrefix(a, "--output") {
				return false
			}
		case "find":
			switch a {
			case "-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls":
				return false
			}
		case "awk", "gawk", "mawk":
			// A program may print to a file or run a command.
			if strings.Contains(a, ">") || strings.Contains(a, "system") {
				return false
			}
		}
	}
	return true
}
