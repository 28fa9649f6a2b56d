package cmd

import (
	"io"
	"os"

	"github.com/mattn/go-isatty"
)

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// colorEnabled decides colour for --color auto|always|never, honouring
// NO_COLOR, CLICOLOR=0 and CLICOLOR_FORCE like cli/go-gh's term package,
// and FORCE_COLOR as ruff and Node do (set and not "0" or "false": on;
// CI systems set it to keep colour in their logs).
func colorEnabled(mode string, io *IO) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	if io.Getenv("CLICOLOR_FORCE") != "" && io.Getenv("CLICOLOR_FORCE") != "0" {
		return true
	}
	if f := io.Getenv("FORCE_COLOR"); f != "" && f != "0" && f != "false" {
		return true
	}
	if io.Getenv("NO_COLOR") != "" || io.Getenv("CLICOLOR") == "0" {
		return false
	}
	return io.OutIsTTY
}
