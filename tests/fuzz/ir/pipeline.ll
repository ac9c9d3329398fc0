; The pipeline lowers first, then pre-optimizes: the source stays alive and
; un-vectorized and un-unrolled (as rustc's pre-AD optimization), even where
; it is inlined into an ordinary caller. --print-module-before shows the
; module right before differentiation.

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; With fast-math, plain -O3 would vectorize and unroll this loop.
define double @sum(ptr %x.0, i64 %x.1) {
entry:
  %empty = icmp eq i64 %x.1, 0
  br i1 %empty, label %exit, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %p = getelementptr inbounds double, ptr %x.0, i64 %i
  %v = load double, ptr %p
  %s.next = fadd fast double %s, %v
  %i.next = add nuw i64 %i, 1
  %done = icmp eq i64 %i.next, %x.1
  br i1 %done, label %exit, label %loop
exit:
  %r = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  ret double %r
}

define double @caller(ptr %x, i64 %n) {
  %r = call double @sum(ptr %x, i64 %n)
  ret double %r
}



