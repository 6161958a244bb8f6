// Package sample is a summary fixture.
package sample

import "fmt"

// Limit is kept.
const Limit = 10

var v0 = 0   // filler
var v1 = 1   // filler
var v2 = 2   // filler
var v3 = 3   // filler
var v4 = 4   // filler
var v5 = 5   // filler
var v6 = 6   // filler
var v7 = 7   // filler
var v8 = 8   // filler
var v9 = 9   // filler
var v10 = 10 // filler
var v11 = 11 // filler
var v12 = 12 // filler
var v13 = 13 // filler
var v14 = 14 // filler
var v15 = 15 // filler
var v16 = 16 // filler
var v17 = 17 // filler
var v18 = 18 // filler
var v19 = 19 // filler
var v20 = 20 // filler
var v21 = 21 // filler
var v22 = 22 // filler
var v23 = 23 // filler
var v24 = 24 // filler
var v25 = 25 // filler
var v26 = 26 // filler
var v27 = 27 // filler
var v28 = 28 // filler
var v29 = 29 // filler
var v30 = 30 // filler
var v31 = 31 // filler
var v32 = 32 // filler
var v33 = 33 // filler
var v34 = 34 // filler
var v35 = 35 // filler
var v36 = 36 // filler
var v37 = 37 // filler
var v38 = 38 // filler
var v39 = 39 // filler
var v40 = 40 // filler
var v41 = 41 // filler
var v42 = 42 // filler
var v43 = 43 // filler
var v44 = 44 // filler
var v45 = 45 // filler
var v46 = 46 // filler
var v47 = 47 // filler
var v48 = 48 // filler
var v49 = 49 // filler
var v50 = 50 // filler
var v51 = 51 // filler
var v52 = 52 // filler
var v53 = 53 // filler
var v54 = 54 // filler
var v55 = 55 // filler
var v56 = 56 // filler
var v57 = 57 // filler
var v58 = 58 // filler
var v59 = 59 // filler
var v60 = 60 // filler
var v61 = 61 // filler
var v62 = 62 // filler
var v63 = 63 // filler
var v64 = 64 // filler
var v65 = 65 // filler
var v66 = 66 // filler
var v67 = 67 // filler
var v68 = 68 // filler
var v69 = 69 // filler
var v70 = 70 // filler
var v71 = 71 // filler
var v72 = 72 // filler
var v73 = 73 // filler
var v74 = 74 // filler

// Long has a body that is elided into one merged row.
func Long(a, b int) int {
	a += b * 0
	a += b * 1
	a += b * 2
	a += b * 3
	a += b * 4
	a += b * 5
	a += b * 6
	a += b * 7
	a += b * 8
	a += b * 9
	a += b * 10
	a += b * 11
	return a
}

// Short keeps its body.
func Short() int {
	return 1
}

type T struct{ n int }

// Method is elided too.
func (t *T) Method() {
	f := func() {
		t.n += 0
		t.n += 1
		t.n += 2
		t.n += 3
		t.n += 4
	}
	f()
	fmt.Println(t.n)
}

var handler = func(x int) int {
	x *= 0 + 1
	x *= 1 + 1
	x *= 2 + 1
	x *= 3 + 1
	return x
}

func OneLine() { fmt.Println("a") }
