//go:build !purego

#include "textflag.h"

// func pairScan(data []byte, from, end int, t *pairTable) int
//
// For each block of 32 start positions p, p+1, ..., p+31 (p from from, in
// steps of 32, while p < end), and each literal of t, loads 32 bytes at
// p+o1 and p+o2, ORs in the fold masks and compares with the wanted
// bytes; returns the first start where both bytes of some literal match,
// or -1-p with p the first block start at or after end.
TEXT ·pairScan(SB), NOSPLIT, $0-56
	MOVQ data_base+0(FP), SI
	MOVQ from+24(FP), DX
	MOVQ end+32(FP), CX
	MOVQ t+40(FP), R8
	MOVQ 0(R8), R9          // number of literals
	LEAQ 8(R8), R8          // &t.lits[0]
	CMPQ R9, $1
	JNE  block

	// One literal: its vectors stay in registers.
	MOVQ    0(R8), AX       // o1
	MOVQ    8(R8), BX       // o2
	VMOVDQU 16(R8), Y3      // c1
	VMOVDQU 48(R8), Y4      // m1
	VMOVDQU 80(R8), Y5      // c2
	VMOVDQU 112(R8), Y6     // m2
	ADDQ    SI, AX
	ADDQ    SI, BX

one:
	CMPQ     DX, CX
	JGE      done
	VMOVDQU  (AX)(DX*1), Y1
	VMOVDQU  (BX)(DX*1), Y2
	VPOR     Y4, Y1, Y1
	VPCMPEQB Y3, Y1, Y1
	VPOR     Y6, Y2, Y2
	VPCMPEQB Y5, Y2, Y2
	VPAND    Y1, Y2, Y1
	VPMOVMSKB Y1, R10
	TESTL    R10, R10
	JNZ      found
	ADDQ     $32, DX
	JMP      one

block:
	CMPQ  DX, CX
	JGE   done
	VPXOR Y0, Y0, Y0
	MOVQ  R8, R10
	MOVQ  R9, R11

lit:
	MOVQ     0(R10), AX
	MOVQ     8(R10), BX
	ADDQ     DX, AX
	ADDQ     DX, BX
	VMOVDQU  (SI)(AX*1), Y1
	VMOVDQU  (SI)(BX*1), Y2
	VPOR     48(R10), Y1, Y1
	VPCMPEQB 16(R10), Y1, Y1
	VPOR     112(R10), Y2, Y2
	VPCMPEQB 80(R10), Y2, Y2
	VPAND    Y1, Y2, Y1
	VPOR     Y1, Y0, Y0
	ADDQ     $144, R10
	DECQ     R11
	JNZ      lit

	VPMOVMSKB Y0, R10
	TESTL     R10, R10
	JNZ       found
	ADDQ      $32, DX
	JMP       block

found:
	BSFL R10, R10
	ADDQ DX, R10
	MOVQ R10, ret+48(FP)
	VZEROUPPER
	RET

done:
	NOTQ DX
	MOVQ DX, ret+48(FP)
	VZEROUPPER
	RET

// func pairScanNUL(data []byte, from, end int, t *pairTable) int
//
// pairScan that also stops at a NUL byte: for each block of 32 start
// positions it returns the first position p+i where both bytes of some
// literal match or data[p+i] is NUL, or -1-p with p the first block start
// at or after end, every byte of data[from:p] being then free of NUL. One
// literal is tested 64 positions at a time (without the fold masks when
// it has none; the NUL test on the bytewise minimum of both blocks), and
// a block that holds a hit is gone over again 32 positions at a time.
TEXT ·pairScanNUL(SB), NOSPLIT, $0-56
	MOVQ  data_base+0(FP), SI
	MOVQ  from+24(FP), DX
	MOVQ  end+32(FP), CX
	MOVQ  t+40(FP), R8
	MOVQ  0(R8), R9         // number of literals
	LEAQ  8(R8), R8         // &t.lits[0]
	VPXOR Y15, Y15, Y15     // zero, for the NUL test
	CMPQ  R9, $1
	JNE   nblock

	MOVQ    0(R8), AX
	MOVQ    8(R8), BX
	VMOVDQU 16(R8), Y3
	VMOVDQU 48(R8), Y4
	VMOVDQU 80(R8), Y5
	VMOVDQU 112(R8), Y6
	ADDQ    SI, AX
	ADDQ    SI, BX
	LEAQ    -32(CX), R12    // two blocks at a time while p+32 < end
	VPOR    Y4, Y6, Y7
	VPTEST  Y7, Y7
	JNZ     fold2

exact2:
	CMPQ     DX, R12
	JGE      none
	VMOVDQU  (SI)(DX*1), Y0
	VPMINUB  32(SI)(DX*1), Y0, Y0
	VPCMPEQB Y15, Y0, Y0
	VPCMPEQB (AX)(DX*1), Y3, Y1
	VPCMPEQB (BX)(DX*1), Y5, Y2
	VPAND    Y1, Y2, Y1
	VPCMPEQB 32(AX)(DX*1), Y3, Y8
	VPCMPEQB 32(BX)(DX*1), Y5, Y9
	VPAND    Y8, Y9, Y8
	VPOR     Y1, Y8, Y8
	VPOR     Y0, Y8, Y8
	VPTEST   Y8, Y8
	JNZ      none           // a hit in these 64: find it 32 at a time
	ADDQ     $64, DX
	JMP      exact2

fold2:
	CMPQ     DX, R12
	JGE      none
	VMOVDQU  (SI)(DX*1), Y0
	VPMINUB  32(SI)(DX*1), Y0, Y0
	VPCMPEQB Y15, Y0, Y0
	VPOR     (AX)(DX*1), Y4, Y1
	VPCMPEQB Y3, Y1, Y1
	VPOR     (BX)(DX*1), Y6, Y2
	VPCMPEQB Y5, Y2, Y2
	VPAND    Y1, Y2, Y1
	VPOR     32(AX)(DX*1), Y4, Y8
	VPCMPEQB Y3, Y8, Y8
	VPOR     32(BX)(DX*1), Y6, Y9
	VPCMPEQB Y5, Y9, Y9
	VPAND    Y8, Y9, Y8
	VPOR     Y1, Y8, Y8
	VPOR     Y0, Y8, Y8
	VPTEST   Y8, Y8
	JNZ      none
	ADDQ     $64, DX
	JMP      fold2

none:
	CMPQ      DX, CX
	JGE       ndone
	VPCMPEQB  (SI)(DX*1), Y15, Y0
	VMOVDQU   (AX)(DX*1), Y1
	VMOVDQU   (BX)(DX*1), Y2
	VPOR      Y4, Y1, Y1
	VPCMPEQB  Y3, Y1, Y1
	VPOR      Y6, Y2, Y2
	VPCMPEQB  Y5, Y2, Y2
	VPAND     Y1, Y2, Y1
	VPOR      Y1, Y0, Y0
	VPMOVMSKB Y0, R10
	TESTL     R10, R10
	JNZ       nfound
	ADDQ      $32, DX
	JMP       none

nblock:
	CMPQ     DX, CX
	JGE      ndone
	VPCMPEQB (SI)(DX*1), Y15, Y0
	MOVQ     R8, R10
	MOVQ     R9, R11

nlit:
	MOVQ     0(R10), AX
	MOVQ     8(R10), BX
	ADDQ     DX, AX
	ADDQ     DX, BX
	VMOVDQU  (SI)(AX*1), Y1
	VMOVDQU  (SI)(BX*1), Y2
	VPOR     48(R10), Y1, Y1
	VPCMPEQB 16(R10), Y1, Y1
	VPOR     112(R10), Y2, Y2
	VPCMPEQB 80(R10), Y2, Y2
	VPAND    Y1, Y2, Y1
	VPOR     Y1, Y0, Y0
	ADDQ     $144, R10
	DECQ     R11
	JNZ      nlit

	VPMOVMSKB Y0, R10
	TESTL     R10, R10
	JNZ       nfound
	ADDQ      $32, DX
	JMP       nblock

nfound:
	BSFL R10, R10
	ADDQ DX, R10
	MOVQ R10, ret+48(FP)
	VZEROUPPER
	RET

ndone:
	NOTQ DX
	MOVQ DX, ret+48(FP)
	VZEROUPPER
	RET

// func lastIndexByteAVX2(b []byte, c byte) int
TEXT ·lastIndexByteAVX2(SB), NOSPLIT, $0-40
	MOVQ         b_base+0(FP), SI
	MOVQ         b_len+8(FP), DX
	MOVBLZX      c+24(FP), R8
	MOVQ         R8, X0
	VPBROADCASTB X0, Y0

back:
	CMPQ      DX, $32
	JL        tail
	SUBQ      $32, DX
	VMOVDQU   (SI)(DX*1), Y1
	VPCMPEQB  Y0, Y1, Y1
	VPMOVMSKB Y1, AX
	TESTL     AX, AX
	JZ        back
	BSRL      AX, AX
	ADDQ      DX, AX
	MOVQ      AX, ret+32(FP)
	VZEROUPPER
	RET

tail:
	TESTQ DX, DX
	JZ    none
	DECQ  DX
	MOVBLZX (SI)(DX*1), AX
	CMPQ  AX, R8
	JNE   tail
	MOVQ  DX, ret+32(FP)
	VZEROUPPER
	RET

none:
	MOVQ $-1, ret+32(FP)
	VZEROUPPER
	RET

// func dfaRun(data []byte, i int, s uint, trans []int32, skip []byte) (int, uint)
//
// The line DFA's per-byte loop (dfa.run): steps s through trans from
// data[i] while the transition is a state (> 0), and after a self-loop
// skips the bytes that keep s, 32 at a time, by its skip tables: a byte
// stays if the shuffles of its low and high nibbles share a bit. Returns
// where it stopped and the state there.
TEXT ·dfaRun(SB), NOSPLIT, $0-104
	MOVQ         data_base+0(FP), SI
	MOVQ         data_len+8(FP), CX
	MOVQ         i+24(FP), DX
	MOVQ         s+32(FP), R8
	MOVQ         trans_base+40(FP), DI
	MOVQ         skip_base+64(FP), R9
	MOVQ         $0x0f, AX
	MOVQ         AX, X3
	VPBROADCASTB X3, Y3
	VPXOR        Y0, Y0, Y0

step:
	CMPQ    DX, CX
	JGE     done
	MOVBQZX (SI)(DX*1), AX
	ORQ     R8, AX
	MOVLQSX (DI)(AX*4), AX
	TESTQ   AX, AX
	JLE     done
	INCQ    DX
	CMPQ    AX, R8
	MOVQ    AX, R8
	JNE     step

	// A self-loop: skip the bytes that keep s.
	MOVQ           R8, R10
	SHRQ           $3, R10
	ADDQ           R9, R10
	VBROADCASTI128 (R10), Y1
	VBROADCASTI128 16(R10), Y2

block:
	LEAQ      32(DX), AX
	CMPQ      AX, CX
	JGT       tail
	VMOVDQU   (SI)(DX*1), Y4
	VPSRLW    $4, Y4, Y5
	VPAND     Y3, Y4, Y4
	VPAND     Y3, Y5, Y5
	VPSHUFB   Y4, Y1, Y4
	VPSHUFB   Y5, Y2, Y5
	VPAND     Y4, Y5, Y4
	VPCMPEQB  Y0, Y4, Y4
	VPMOVMSKB Y4, AX
	TESTL     AX, AX
	JNZ       found
	ADDQ      $32, DX
	JMP       block

found:
	TZCNTL AX, AX
	ADDQ   AX, DX
	JMP    step

tail:
	CMPQ    DX, CX
	JGE     done
	MOVBQZX (SI)(DX*1), AX
	MOVQ    AX, BX
	ANDQ    $15, AX
	SHRQ    $4, BX
	MOVB    (R10)(AX*1), AX
	ANDB    16(R10)(BX*1), AX
	JZ      step
	INCQ    DX
	JMP     tail

done:
	MOVQ DX, ret+88(FP)
	MOVQ R8, ret1+96(FP)
	VZEROUPPER
	RET

// func dfaRunLanes(data []byte, i int, s uint, trans []int32, skip []byte, lanes *[256][16]uint8) (int, uint)
//
// dfaRun for a DFA whose states all have an index below 16. Where at
// least 16 of the next 32 bytes keep s (its skip tables), it skips them;
// otherwise it steps the next 16 bytes with the state's index in byte 0
// of X6, one shuffle per byte (X6[0] = lanes[b][X6[0]]): a dependency of
// one cycle from byte to byte instead of a table load. A block that ends
// in lane 0 (it met a transition that is not a cached state) is stepped
// again byte by byte through trans, which stops there.
TEXT ·dfaRunLanes(SB), NOSPLIT, $0-112
	MOVQ data_base+0(FP), SI
	MOVQ data_len+8(FP), CX
	MOVQ i+24(FP), DX
	MOVQ s+32(FP), R8
	MOVQ trans_base+40(FP), DI
	MOVQ skip_base+64(FP), R9
	MOVQ lanes+88(FP), R11
	MOVQ         $0x0f, AX
	MOVQ         AX, X3
	VPBROADCASTB X3, Y3
	VPXOR        Y0, Y0, Y0

block:
	LEAQ 32(DX), R12
	CMPQ R12, CX
	JGT  tail
	MOVQ           R8, R10
	SHRQ           $3, R10
	ADDQ           R9, R10
	VBROADCASTI128 (R10), Y1
	VBROADCASTI128 16(R10), Y2
	VMOVDQU        (SI)(DX*1), Y4
	VPSRLW         $4, Y4, Y5
	VPAND          Y3, Y4, Y4
	VPAND          Y3, Y5, Y5
	VPSHUFB        Y4, Y1, Y4
	VPSHUFB        Y5, Y2, Y5
	VPAND          Y4, Y5, Y4
	VPCMPEQB       Y0, Y4, Y4
	VPMOVMSKB      Y4, AX
	TESTL          AX, AX
	JZ             all
	TZCNTL         AX, AX
	CMPL           AX, $16
	JLT            lanes
	ADDQ           AX, DX
	JMP            block

all:
	MOVQ R12, DX
	JMP  block

lanes:
	LEAQ 16(DX), R12
	MOVQ R8, AX
	SHRQ $8, AX
	VMOVQ AX, X6
	MOVBLZX 0(SI)(DX*1), AX
	SHLQ    $4, AX
	VMOVDQU (R11)(AX*1), X1
	VPSHUFB X6, X1, X6
	MOVBLZX 1(SI)(DX*1), AX
	SHLQ    $4, AX
	VMOVDQU (R11)(AX*1), X1
	VPSHUFB X6, X1, X6
	MOVBLZX 2(SI)(DX*1), AX
	SHLQ    $4, AX
	VMOVDQU (R11)(AX*1), X1
	VPSHUFB X6, X1, X6
	MOVBLZX 3(SI)(DX*1), AX
	SHLQ    $4, AX
	VMOVDQU (R11)(AX*1), X1
	VPSHUFB X6, X1, X6
	MOVBLZX 4(SI)(DX*1), AX
	SHLQ    $4, AX
	VMOVDQU (R11)(AX*1), X1
	VPSHUFB X6, X1, X6
	MOVBLZX 5(SI)(DX*1), AX
	SHLQ    $4, AX
	VMOVDQU (R11)(AX*1), X1
	VPSHUFB X6, X1, X6
	MOVBLZX 6(SI)(DX*1), AX
	SHLQ    $4, AX
	VMOVDQU (R11)(AX*1), X1
	VPSHUFB X6, X1, X6
	MOVBLZX 7(SI)(DX*1), AX
	SHLQ    $4, AX
	VMOVDQU (R11)(AX*1), X1
	VPSHUFB X6, X1, X6
	MOVBLZX 8(SI)(DX*1), AX
	SHLQ    $4, AX
	VMOVDQU (R11)(AX*1), X1
	VPSHUFB X6, X1, X6
	MOVBLZX 9(SI)(DX*1), AX
	SHLQ    $4, AX
	VMOVDQU (R11)(AX*1), X1
	VPSHUFB X6, X1, X6
	MOVBLZX 10(SI)(DX*1), AX
	SHLQ    $4, AX
	VMOVDQU (R11)(AX*1), X1
	VPSHUFB X6, X1, X6
	MOVBLZX 11(SI)(DX*1), AX
	SHLQ    $4, AX
	VMOVDQU (R11)(AX*1), X1
	VPSHUFB X6, X1, X6
	MOVBLZX 12(SI)(DX*1), AX
	SHLQ    $4, AX
	VMOVDQU (R11)(AX*1), X1
	VPSHUFB X6, X1, X6
	MOVBLZX 13(SI)(DX*1), AX
	SHLQ    $4, AX
	VMOVDQU (R11)(AX*1), X1
	VPSHUFB X6, X1, X6
	MOVBLZX 14(SI)(DX*1), AX
	SHLQ    $4, AX
	VMOVDQU (R11)(AX*1), X1
	VPSHUFB X6, X1, X6
	MOVBLZX 15(SI)(DX*1), AX
	SHLQ    $4, AX
	VMOVDQU (R11)(AX*1), X1
	VPSHUFB X6, X1, X6
	VMOVQ   X6, AX
	MOVBLZX AL, AX
	TESTL   AX, AX
	JZ      bytes
	SHLQ    $8, AX
	MOVQ    AX, R8
	MOVQ    R12, DX
	JMP     block

bytes:
	// Step the block again byte by byte, to where the lane went to 0.
	CMPQ    DX, R12
	JGE     block
	MOVBQZX (SI)(DX*1), AX
	ORQ     R8, AX
	MOVLQSX (DI)(AX*4), AX
	TESTQ   AX, AX
	JLE     ldone
	INCQ    DX
	MOVQ    AX, R8
	JMP     bytes

tail:
	CMPQ    DX, CX
	JGE     ldone
	MOVBQZX (SI)(DX*1), AX
	ORQ     R8, AX
	MOVLQSX (DI)(AX*4), AX
	TESTQ   AX, AX
	JLE     ldone
	INCQ    DX
	MOVQ    AX, R8
	JMP     tail

ldone:
	MOVQ DX, ret+96(FP)
	MOVQ R8, ret1+104(FP)
	VZEROUPPER
	RET
