//go:build !purego

package grep

import "golang.org/x/sys/cpu"

// hasSIMD reports whether the AVX2 kernels of simd_amd64.s can run.
var hasSIMD = cpu.X86.HasAVX2

// pairScan: see simd_amd64.s.
//
//go:noescape
func pairScan(data []byte, from, end int, t *pairTable) int

// pairScanNUL: see simd_amd64.s.
//
//go:noescape
func pairScanNUL(data []byte, from, end int, t *pairTable) int

// lastIndexByteAVX2 is bytes.LastIndexByte, 32 bytes at a time.
//
//go:noescape
func lastIndexByteAVX2(b []byte, c byte) int

// dfaRun is the loop of dfa.run for a DFA of 16 states or more: see
// simd_amd64.s.
//
//go:noescape
func dfaRun(data []byte, i int, s uint, trans []int32, skip []byte) (int, uint)

// dfaRunLanes is the loop of dfa.run for a DFA of fewer than 16 states:
// see simd_amd64.s.
//
//go:noescape
func dfaRunLanes(data []byte, i int, s uint, trans []int32, skip []byte, lanes *[256][16]uint8) (int, uint)
