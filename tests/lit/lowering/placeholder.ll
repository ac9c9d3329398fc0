; A placeholder definition (as rustc's #[autodiff] macro emits) has its body
; replaced. The linkage stays; attributes that described the old body
; (noinline, optnone, memory, noreturn, readnone parameters, ...) go; the
; new call gets the placeholder's last debug location.
; RUN: %autodiff-opt %s --stop-after-lowering -S \
; RUN:   --autodiff 'f=autodiff_reverse(d_f, Duplicated, Active)' \
; RUN:   --autodiff 'f=autodiff_forward(f_f, Dual, Dual)' \
; RUN:   | FileCheck %s

define double @f(ptr %x) !dbg !5 {
  %v = load double, ptr %x, !dbg !9
  %m = fmul double %v, %v, !dbg !9
  ret double %m, !dbg !9
}

; CHECK:       define internal double @d_f(ptr noundef %x, ptr noundef %dx, double %dret) #[[D_ATTRS:[0-9]+]] !dbg [[D_SP:![0-9]+]] {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[R:%.*]] = call double (...) @__enzyme_autodiff_d_f(ptr @f, ptr @enzyme_primal_return, ptr @enzyme_seed, double %dret, ptr @enzyme_dup, ptr %x, ptr %dx), !dbg [[LOC:![0-9]+]]
; CHECK-NEXT:    ret double [[R]], !dbg [[LOC]]
; CHECK-NEXT:  }
define internal double @d_f(ptr noundef readnone captures(none) %x, ptr noundef readonly %dx, double %dret) #0 !dbg !10 {
entry:
  %c = fcmp olt double %dret, 0.0, !dbg !11
  br i1 %c, label %a, label %b, !dbg !11
a:
  call void @llvm.trap(), !dbg !11
  unreachable, !dbg !11
b:
  ret double 0.0, !dbg !12
}

; Placeholders may already have callers, which stay.
; CHECK-LABEL: define double @use(
; CHECK:         call double @d_f(ptr %x, ptr %dx, double 1.000000e+00)
define double @use(ptr %x, ptr %dx) {
  %r = call double @d_f(ptr %x, ptr %dx, double 1.0)
  ret double %r
}

; CHECK:       define linkonce_odr { double, double } @f_f(ptr %x, ptr %dx) #[[F_ATTRS:[0-9]+]] {
; CHECK:         call { double, double } (...) @__enzyme_fwddiff_f_f(ptr @f, ptr @enzyme_primal_return, ptr @enzyme_dup, ptr %x, ptr %dx)
define linkonce_odr { double, double } @f_f(ptr %x, ptr %dx) #1 {
  ret { double, double } zeroinitializer
}

declare void @llvm.trap()

; CHECK: attributes #[[D_ATTRS]] = { uwtable }
; CHECK: attributes #[[F_ATTRS]] = { alwaysinline }
attributes #0 = { noinline optnone nounwind memory(none) willreturn uwtable }
attributes #1 = { alwaysinline nounwind }

; CHECK: [[D_SP]] = distinct !DISubprogram(name: "d_f"
; CHECK: [[LOC]] = !DILocation(line: 21, column: 3, scope: [[D_SP]])

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "hand", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "placeholder.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!9 = !DILocation(line: 2, column: 10, scope: !5)
!10 = distinct !DISubprogram(name: "d_f", scope: !1, file: !1, line: 20, type: !6, scopeLine: 20, spFlags: DISPFlagDefinition, unit: !0)
!11 = !DILocation(line: 20, column: 7, scope: !10)
!12 = !DILocation(line: 21, column: 3, scope: !10)
