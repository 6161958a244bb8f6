// Command sqlitefloor is the least a Go program does to answer the db-page
// case of containers.sh: it opens a database read-only with the driver
// Scout uses, runs one query and prints the rows, with nothing else linked.
// Its time against the sqlite3 shell is the floor of a Go command-line
// tool on that driver. It is a development tool, not part of the library.
package main

import (
	"database/sql"
	"fmt"
	"os"
	"strings"

	_ "github.com/mattn/go-sqlite3"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: sqlitefloor DB QUERY")
		os.Exit(2)
	}
	db, err := sql.Open("sqlite3", "file:"+os.Args[1]+"?mode=ro")
	if err == nil {
		err = run(db, os.Args[2])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "sqlitefloor:", err)
		os.Exit(1)
	}
}

func run(db *sql.DB, q string) error {
	rows, err := db.Query(q)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var b strings.Builder
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		for i, v := range vals {
			if i > 0 {
				b.WriteString(" | ")
			}
			fmt.Fprint(&b, v)
		}
		b.WriteByte('\n')
	}
	os.Stdout.WriteString(b.String())
	return rows.Err()
}
