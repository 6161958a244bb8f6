package main

import "testing"

func TestSearchOMPCommand(t *testing.T) {
	runOMPRows(t, []ompRow{
		{[]string{"call", "search", `{"pattern": "^# Package ", "paths": "omp://"}`}, 0, "success", "# omp://docs/packages.md\n", "call search omp:// searches every document"},
		{[]string{"call", "search", `{"pattern": "x", "paths": ["omp://docs/*.md"]}`}, 1, "error", "Glob patterns are not supported for internal URLs", "call search refuses a glob in an internal URL: exit 1"},
		{[]string{"search", "-c", "--sort", "path", "^# (Scout$|Package )", "omp://"}, 0, "", "omp://README.md:1\nomp://docs/packages.md:4\n", "scout search -c counts per document"},
		{[]string{"search", "x", "omp://nope"}, 1, "", "Available: omp://README.md", "scout search of a missing document: exit 1, the list on stderr"},
	})
}
