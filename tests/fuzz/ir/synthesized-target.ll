; Without a target in the module, lowering creates it: parameters named and
; typed as planned (a pointer's shadow has the pointer's type, the seed the
; return's), the return type made of the leaves, and the source's code
; generation attributes copied so both can be inlined alike.

define float @f(ptr %p, float %a, i32 %n) #0 {
  %v = load float, ptr %p
  %m = fmul float %v, %a
  ret float %m
}

; Two floats come back packed in one register, as C returns them.

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" "target-cpu"="x86-64" "target-features"="+sse2" }
