//go:build !cgo

package summary

const cgoEnabled = false
