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
// NO_COLOR, CLICOLOR=0 and CLICOLOR_FORCE like cli/go-gh's term package.
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
	if io.Getenv("NO_COLOR") != "" || io.Getenv("CLICOLOR") == "0" {
		return false
	}
	return io.OutIsTTY
}
