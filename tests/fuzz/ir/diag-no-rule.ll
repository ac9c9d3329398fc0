; An active value reaching a call with no derivative rule: the diagnostic
; names the function, the instruction and the source location, and says
; how to proceed.

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
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "calls_opaque", scope: !1, file: !1, line: 1, type: !6, unit: !0)
!6 = !DISubroutineType(types: !{})
!8 = !DILocation(line: 3, column: 7, scope: !5)
