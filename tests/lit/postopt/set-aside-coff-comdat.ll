; COFF comdats with data-dependent selection (`largest`, as MSVC's vftables
; use, and `exactmatch`) in a module whose unreached functions are set
; aside: linking them back resolved the bitcode's comdat table again and
; failed ("GlobalVariable required for data dependent selection!", "ExactMatch
; violated!"). The comdats come back as they were.
; RUN: %autodiff-opt %s -O2 -S -o - | FileCheck %s
; CHECK: $g = comdat largest
; CHECK: $h = comdat exactmatch
; CHECK: @g = linkonce_odr global i32 7, comdat
; CHECK: @h = linkonce_odr global i32 8, comdat
; CHECK: define i32 @setaside()

target triple = "x86_64-pc-windows-msvc"

$g = comdat largest
$h = comdat exactmatch

@g = linkonce_odr global i32 7, comdat
@h = linkonce_odr global i32 8, comdat
@keep = global ptr @g

declare double @__enzyme_autodiff(ptr, ...)

define i32 @setaside() {
  %v = load i32, ptr @h
  ret i32 %v
}

define internal double @f(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

define double @grad(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}
