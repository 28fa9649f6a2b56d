package analyze

// unionFind joins indexes 0..n-1 into groups; a group's root is its
// smallest index, so groups come out in the order of their first member.
type unionFind []int

func newUnionFind(n int) unionFind {
	u := make(unionFind, n)
	for i := range u {
		u[i] = i
	}
	return u
}

func (u unionFind) find(i int) int {
	for u[i] != i {
		u[i] = u[u[i]]
		i = u[i]
	}
	return i
}

func (u unionFind) union(i, j int) {
	a, b := u.find(i), u.find(j)
	if a > b {
		a, b = b, a
	}
	u[b] = a
}
