; A module with current debug info and a malformed module flag (behaviour
; 3, "require", with an integer where a metadata pair belongs): LLVM's
; reader upgrades the debug info as it finishes parsing, finds the module
; broken, and calls report_fatal_error, which aborted autodiff-opt (and
; would abort a host process through the C API; found by fuzz_ir). The
; tools now parse with that upgrade off and upgrade the debug info
; themselves once the module verifies: one diagnostic, no output.
; RUN: not %autodiff-opt %s -o %t.out.ll 2>&1 | FileCheck %s
; RUN: not test -e %t.out.ll
; CHECK: autodiff-opt: error: in the input module: the module is not valid IR (LLVM's verifier says):
; CHECK-NEXT: invalid value for 'require' module flag (expected metadata pair)
; CHECK-NOT: LLVM ERROR

@global = global double 0.0
declare double @opaque_math(double)
declare double @__enzyme_fwddiff(...)

define double @calls_opaque(double %x) !dbg !5 {
  %y = call double @opaque_math(double %x), !dbg !8
  ret double %y
}

define double @d1(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @calls_opaque, double %x, double 1.0)
  ret double %r
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "t", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.c", directory: "/tmp")
!3 = !{i32 3, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "calls_opaque", scope: !1, file: !1, line: 1, type: !6, unit: !0)
!6 = !DISubroutineType(types: !{})
!8 = !DILocation(line: 3, column: 7, scope: !5)
