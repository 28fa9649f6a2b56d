//go:build race

package fix

// raceEnabled: the race detector runs the code 5 to 10 times slower, and
// unevenly, so timed tests skip.
const raceEnabled = true
