//go:build !linux

package cmd

import "os"

// listDir lists the folder at dir (clean) with os.ReadDir, in its order.
func listDir(dir string, _ *[]byte) ([]dirent, error) {
	des, err := os.ReadDir(dir)
	ents := make([]dirent, len(des))
	for i, d := range des {
		ents[i] = dirent{path: joinName(dir, []byte(d.Name())), typ: d.Type()}
	}
	return ents, err
}
