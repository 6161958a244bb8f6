package glob_test

import (
	"fmt"

	"github.com/scoutkit/scout/internal/glob"
)

func ExampleCompile() {
	g, _ := glob.Compile("src/**/*.{go,md}")
	for _, p := range []string{"src/a.go", "src/x/y/README.md", "lib/a.go", "src/a.txt"} {
		fmt.Println(p, g.Match(p))
	}
	_, err := glob.Compile("{a,b")
	fmt.Println(err)
	// Output:
	// src/a.go true
	// src/x/y/README.md true
	// lib/a.go false
	// src/a.txt false
	// Invalid glob '{a,b': unclosed '{' — close it with '}' or remove it
}

func ExampleSplitFind() {
	for _, p := range []string{"*.ts", "src/*.ts", "src/app/**/*.tsx", "src/app"} {
		base, pattern, hasGlob := glob.SplitFind(p)
		fmt.Printf("%-18s base=%-8s pattern=%-10s glob=%v\n", p, base, pattern, hasGlob)
	}
	// Output:
	// *.ts               base=.        pattern=**/*.ts    glob=true
	// src/*.ts           base=src      pattern=*.ts       glob=true
	// src/app/**/*.tsx   base=src/app  pattern=**/*.tsx   glob=true
	// src/app            base=src/app  pattern=**/*       glob=false
}
