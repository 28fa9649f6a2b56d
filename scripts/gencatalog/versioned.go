package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

var (
	versionedClassRE = regexp.MustCompile(`extends n8n_workflow_1\.VersionedNodeType \{`)
	baseNameRE       = regexp.MustCompile(`name: '([^']+)'`)
	nodeVersionsRE   = regexp.MustCompile(`(?s)nodeVersions = \{(.*?)\};`)
	versionKeyRE     = regexp.MustCompile(`(?m)^\s*([0-9]+(?:\.[0-9]+)?):`)
)

// versionedTypes reads the package's VersionedNodeType classes (their
// compiled .node.js) and returns, by node name, the versions their
// nodeVersions map holds: the only versions n8n can build such a node at
// (n8n-workflow dist/cjs/versioned-node-type.js getNodeType throws
// NodeVersionNotFoundError for another). nodes.json is not enough: a class
// may serve a version no description lists (the AI Agent's 2.3). A class
// whose name or map the patterns do not find is left out.
func versionedTypes(modules, pkg string) (map[string][]float64, error) {
	out := map[string][]float64{}
	root := filepath.Join(modules, pkg, "dist", "nodes")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".node.js") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		src := string(b)
		if !versionedClassRE.MatchString(src) {
			return nil
		}
		name, m := baseNameRE.FindStringSubmatch(src), nodeVersionsRE.FindStringSubmatch(src)
		if name == nil || m == nil {
			return nil
		}
		var vs []float64
		for _, k := range versionKeyRE.FindAllStringSubmatch(m[1], -1) {
			v, err := strconv.ParseFloat(k[1], 64)
			if err != nil {
				return err
			}
			vs = append(vs, v)
		}
		if len(vs) > 0 {
			slices.Sort(vs)
			out[name[1]] = slices.Compact(vs)
		}
		return nil
	})
	return out, err
}
