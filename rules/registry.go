// Package rules holds stormcheck's checks, one file per rule, registered in
// the explicit list below. Rules are pure: they read the model and the
// analysis and report through the pass.
package rules

import (
	"sync"

	"github.com/stormcheck/stormcheck/analyze"
)

// All returns every rule in ID order, with its documentation examples
// (examples.go). IDs are never reused: a retired rule stays here as a
// comment.
func All() []*analyze.Rule {
	rs := []*analyze.Rule{
		rs001,
		rs002,
		rs003,
		rs004,
		rs005,
		rs006,
		rs007,
		rs008,
		rs009,
		rs010,
		rs011,
		rs012,
		rs101,
		rs102,
		rs103,
		rs104,
		rs105,
		rs106,
		rs201,
		rs202,
		rs203,
		rs204,
		rs205,
		rs206,
		rs301,
		rs302,
		rs303,
		rs304,
		rs305,
		rs306,
		rs307,
		rs401,
		rs402,
		rs403,
		rs404,
		rs501,
		rs502,
		rs503,
		rs504,
		rs505,
		rs506,
	}
	withExamples.Do(func() {
		for _, r := range rs {
			r.ReadExamples = func() analyze.Examples { return examplesOf(r.ID) }
		}
	})
	return rs
}

var withExamples sync.Once
