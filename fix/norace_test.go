//go:build !race

package fix

const raceEnabled = false
