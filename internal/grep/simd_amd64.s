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
