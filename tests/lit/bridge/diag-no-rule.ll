; An active value reaching a call with no derivative rule: the diagnostic
; names the function, the instruction and the source location, and says
; how to proceed.
; RUN: not %autodiff-opt %s -o /dev/null 2>&1 | FileCheck %s

@global = global double 0.0
declare double @opaque_math(double)
declare double @__enzyme_fwddiff(...)

define double @calls_opaque(double %x) !dbg !5 {
  %y = call double @opaque_math(double %x), !dbg !8
  ret double %y
}
; CHECK: autodiff-opt: error: in function `calls_opaque` (while generating `fwddiffe_calls_opaque`), call to `opaque_math` at t.c:3:7: no derivative rule for call to `opaque_math`, which receives active values; if it cannot affect derivatives, mark it inactive (the "enzyme_inactive" attribute or __enzyme_inactivefn), or give its definition to the module, or register a custom derivative (__enzyme_register_derivative_opaque_math){{$}}
; CHECK-NEXT: {{^}}  instruction: %y = call double @opaque_math(double %x){{$}}

define double @d1(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @calls_opaque, double %x, double 1.0)
  ret double %r
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "t", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.c", directory: "/tmp")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "calls_opaque", scope: !1, file: !1, line: 1, type: !6, unit: !0)
!6 = !DISubroutineType(types: !{})
!8 = !DILocation(line: 3, column: 7, scope: !5)
