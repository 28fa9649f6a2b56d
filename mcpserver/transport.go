package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Stdio is MCP's stdio transport (one JSON-RPC message a line) on in and
// out, guarded: a line that is no JSON-RPC message, or one longer than a
// workflow of maxFileSize sent as text can be, gets a JSON-RPC error and
// the session goes on. The SDK's own transport ends the session on such a
// line, so a client's one bad write would end the server.
func Stdio(in io.Reader, out io.Writer, maxFileSize int64) mcp.Transport {
	w := &lockedWriter{w: out}
	return &mcp.IOTransport{
		Reader:        &guard{in: bufio.NewReaderSize(in, 64<<10), out: w, limit: lineLimit(maxFileSize)},
		Writer:        w,
		MaxLineLength: -1, // the guard bounds lines
	}
}

// lineLimit is the longest line read: a workflow of maxFileSize bytes as a
// JSON string, with its quotes and newlines escaped (twice its size at
// worst for a real export), and the request around it.
func lineLimit(maxFileSize int64) int {
	return int(min(2*maxFileSize+1<<20, math.MaxInt32))
}

// lockedWriter writes one message at a time: the SDK writes each in one
// call, and the guard its error replies.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }

// guard passes on the lines that are JSON-RPC messages and answers the
// others itself.
type guard struct {
	in      *bufio.Reader
	out     io.Writer
	limit   int
	pending []byte // the rest of the line being passed on
}

func (g *guard) Read(p []byte) (int, error) {
	for len(g.pending) == 0 {
		line, tooLong, err := g.line()
		if len(line) > 0 || tooLong {
			g.check(line, tooLong)
		}
		if err != nil && len(g.pending) == 0 {
			return 0, err
		}
	}
	n := copy(p, g.pending)
	g.pending = g.pending[n:]
	return n, nil
}

func (g *guard) Close() error { return nil }

// line reads the next line, without its end; tooLong says it passed the
// limit, and its bytes were dropped.
func (g *guard) line() (line []byte, tooLong bool, err error) {
	for {
		chunk, err := g.in.ReadSlice('\n')
		if !tooLong {
			line = append(line, chunk...)
			if len(line) > g.limit {
				line, tooLong = nil, true
			}
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return bytes.TrimSpace(line), tooLong, err
		}
	}
}

// check queues a line that is one JSON-RPC message, and answers any other.
func (g *guard) check(line []byte, tooLong bool) {
	switch {
	case tooLong:
		g.reply(nil, jsonrpc.CodeInvalidRequest, "message longer than the server reads: send smaller workflows, or raise stormcheck mcp --max-file-size")
	case !json.Valid(line):
		g.reply(nil, jsonrpc.CodeParseError, "parse error: not a JSON text")
	case line[0] != '{':
		g.reply(nil, jsonrpc.CodeInvalidRequest, "invalid request: want one JSON-RPC message, an object (batches are not supported)")
	default:
		if _, err := jsonrpc.DecodeMessage(line); err != nil {
			var m struct {
				ID json.RawMessage `json:"id"`
			}
			_ = json.Unmarshal(line, &m)
			g.reply(m.ID, jsonrpc.CodeInvalidRequest, "invalid request: not a JSON-RPC 2.0 message")
			return
		}
		g.pending = append(line, '\n')
	}
}

// reply writes a JSON-RPC error response; a request id that is no string
// or number is answered as null.
func (g *guard) reply(id json.RawMessage, code int64, msg string) {
	if len(id) == 0 || (id[0] != '"' && id[0] != '-' && (id[0] < '0' || id[0] > '9')) {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	_, _ = g.out.Write(append(b, '\n'))
}
