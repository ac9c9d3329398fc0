; A module the IR verifier rejects is one diagnostic, however many lines
; the verifier prints: the first line names the stage, the verifier's
; messages and the IR it quotes follow indented, no empty error lines,
; and no output is written.
; RUN: rm -f %t.out.ll
; RUN: not %autodiff-opt %s -o %t.out.ll 2>&1 \
; RUN:   | FileCheck %s --match-full-lines --strict-whitespace
; RUN: not test -e %t.out.ll

;      CHECK:autodiff-opt: error: in the input module: the module is not valid IR (LLVM's verifier says):
; CHECK-NEXT:  Instruction does not dominate all uses!
; CHECK-NEXT:    %b = add i32 1, 1
; CHECK-NEXT:    %a = add i32 %b, 1
; CHECK-NEXT:  Instruction does not dominate all uses!
; CHECK-NEXT:    %c = add i32 %x, 1
; CHECK-NEXT:    %a = add i32 %c, 1
; CHECK-NOT:{{.}}

define i32 @h() {
  %a = add i32 %b, 1
  %b = add i32 1, 1
  ret i32 %a
}

define i32 @g(i32 %x) {
  %a = add i32 %c, 1
  %c = add i32 %x, 1
  ret i32 %a
}
