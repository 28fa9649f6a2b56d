//go:build linux

// Command benchtime runs a command once and prints its wall time, its CPU
// time (user + system, with the children it waited for) and its peak RSS,
// for scripts/bench.sh. It starts the command itself and takes the figures
// from wait4, as time(1) does, so that no shell starts inside the time:
// bench.sh timed `time -v bash -c '...'`, whose bash and time added ~14 ms
// to every command (measured on a program that only starts: 6.6 ms alone,
// 21 ms so timed), 6 % of an audit of n8n-real and 0.6 % of flowlint's.
//
//	benchtime [-in FILE] [-any-exit] -- COMMAND [ARG...]
//
// prints "WALL_SECONDS CPU_SECONDS MAXRSS_KIB" and exits 1 when the command
// fails (exits non-zero, unless -any-exit, or cannot start). The command's
// output goes to /dev/null; its input is FILE, or /dev/null. Linux only,
// like bench.sh.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func main() {
	in := flag.String("in", "", "the command's standard input (default /dev/null)")
	anyExit := flag.Bool("any-exit", false, "a non-zero exit is no failure (jq and flowlint exit 1 on findings)")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: benchtime [-in FILE] [-any-exit] -- COMMAND [ARG...]")
		os.Exit(2)
	}
	if err := run(*in, *anyExit, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "benchtime:", err)
		os.Exit(1)
	}
}

func run(in string, anyExit bool, argv []string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	if in != "" {
		f, err := os.Open(in)
		if err != nil {
			return err
		}
		defer f.Close()
		cmd.Stdin = f
	}
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	var exit *exec.ExitError
	if err != nil && !(anyExit && errors.As(err, &exit)) {
		return fmt.Errorf("%s: %w", argv[0], err)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return errors.New("no resource usage on this system")
	}
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	fmt.Printf("%.4f %.4f %d\n", wall.Seconds(), cpu.Seconds(), ru.Maxrss) // Maxrss: KiB on Linux
	return nil
}
