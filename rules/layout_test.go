package rules

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// ruleFileRE names a rule's own file: rs101_attempt_budget.go.
var ruleFileRE = regexp.MustCompile(`^rs\d{3}_[a-z0-9_]+\.go$`)

// TestRuleFilesHoldOnlyTheirRule fails when a function, variable or
// constant declared in one rule's file is used by another file: a helper
// that several rules share belongs in a file named for its topic
// (operations.go, loops.go, paths.go, endpoints.go, spend.go, wording.go),
// where a reader looks for it.
func TestRuleFilesHoldOnlyTheirRule(t *testing.T) {
	fset := token.NewFileSet()
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]*ast.File{}
	declaredIn := map[string]string{} // name → rule file
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files[p] = f
		if !ruleFileRE.MatchString(p) {
			continue
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					declaredIn[d.Name.Name] = p
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.ValueSpec:
						for _, n := range s.Names {
							declaredIn[n.Name] = p
						}
					case *ast.TypeSpec:
						declaredIn[s.Name.Name] = p
					}
				}
			}
		}
	}
	var leaks []string
	for p, f := range files {
		if p == "registry.go" {
			continue // lists each rule's own rsNNN
		}
		fields := map[*ast.Ident]bool{} // x.name: a field or method, not a declaration here
		ast.Inspect(f, func(n ast.Node) bool {
			if s, ok := n.(*ast.SelectorExpr); ok {
				fields[s.Sel] = true
			}
			return true
		})
		ast.Inspect(f, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok || fields[id] {
				return true
			}
			// id.Obj is nil for a name declared in another file.
			if home, ok := declaredIn[id.Name]; ok && home != p && id.Obj == nil {
				leaks = append(leaks, id.Name+" (declared in "+home+") is used in "+p)
			}
			return true
		})
	}
	sort.Strings(leaks)
	for i, l := range leaks {
		if i == 0 || leaks[i-1] != l {
			t.Errorf("%s: move it to a topic file", l)
		}
	}
}
