//go:build !amd64 || purego

package grep

// hasSIMD is false: the portable finders run (finder.go).
const hasSIMD = false

func pairScan([]byte, int, int, *pairTable) int { panic("grep: no SIMD kernels on this platform") }

func pairScanNUL([]byte, int, int, *pairTable) int {
	panic("grep: no SIMD kernels on this platform")
}

func lastIndexByteAVX2([]byte, byte) int { panic("grep: no SIMD kernels on this platform") }

func dfaRun([]byte, int, uint, []int32, []byte) (int, uint) {
	panic("grep: no SIMD kernels on this platform")
}

func dfaRunLanes([]byte, int, uint, []int32, []byte, *[256][16]uint8) (int, uint) {
	panic("grep: no SIMD kernels on this platform")
}
