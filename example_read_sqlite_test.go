//go:build cgo

package scout_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"

	_ "github.com/mattn/go-sqlite3"

	"github.com/scoutkit/scout"
)

func ExampleReadResult_sqlite() {
	dir, _ := os.MkdirTemp("", "scout-example")
	defer os.RemoveAll(dir)
	db, _ := sql.Open("sqlite3", filepath.Join(dir, "app.db"))
	db.Exec("CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT NOT NULL, avatar BLOB)")
	db.Exec("INSERT INTO users VALUES (1, 'ada', x'89504e47'), (2, 'bob', NULL)")
	db.Close()

	r := scout.Reader{Workspace: scout.Workspace{Root: dir}}
	view := func(path string) *scout.SQLiteView {
		res, err := r.Read(context.Background(), scout.ReadRequest{Path: path})
		if err != nil {
			fmt.Println(err)
			return nil
		}
		return res.SQLite
	}
	// The database alone lists its tables with their row counts.
	for _, t := range view("app.db").Tables {
		fmt.Println(t.Name, t.Rows)
	}
	// A table gives its schema and first rows.
	s := view("app.db:users").Schema
	for _, c := range s.Columns {
		fmt.Println(c.Name, c.Type, c.PrimaryKey, c.NotNull)
	}
	// A row by key: typed values; a BLOB is its size.
	row := view("app.db:users:1").Rows
	for i, v := range row.Rows[0] {
		fmt.Println(row.Columns[i], v.Type, v.Int, v.Text, v.Size)
	}
	// A page of rows says where the next one starts.
	page := view("app.db:users?limit=1")
	fmt.Println(len(page.Rows.Rows), page.Rows.More, page.Next)
	// Output:
	// users 2
	// id INTEGER 1 false
	// name TEXT 0 true
	// avatar BLOB 0 false
	// id integer 1  0
	// name text 0 ada 0
	// avatar blob 0  4
	// 1 true :users?limit=1&offset=1
}
