package analyze

// Walked is the number of nodes g's walks have visited.
func Walked(g *Graph) int64 { return g.walked.Load() }

// SetClassMin sets classMin, the webhooks a graph needs before they are
// put in classes, and returns the function that puts it back.
func SetClassMin(n int) func() {
	old := classMin
	classMin = n
	return func() { classMin = old }
}

// RunWalks is the number of times g's triggers' runs were walked.
func RunWalks(g *Graph) int32 { return g.runWalks.Load() }
