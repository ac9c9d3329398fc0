; A module the IR verifier rejects is one diagnostic, however many lines
; the verifier prints: the first line names the stage, the verifier's
; messages and the IR it quotes follow indented, no empty error lines,
; and no output is written.

;      CHECK:autodiff-opt: error: in the input module: the module is not valid IR (LLVM's verifier says):

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
