//go:build cgo

package summary

const cgoEnabled = true
