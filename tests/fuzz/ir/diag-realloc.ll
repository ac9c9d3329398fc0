; realloc in reverse mode needs the size of the memory it moves: memory
; that was not allocated in the differentiated function (an argument here)
; is a diagnostic naming the function and the call, and no output.


declare ptr @realloc(ptr, i64)
declare void @free(ptr)

define double @grow(ptr %p) {
  %q = call ptr @realloc(ptr %p, i64 32)
  %v = load double, ptr %q
  %w = fmul double %v, %v
  store double %w, ptr %q
  ret double %w
}

declare void @__enzyme_autodiff(...)
@enzyme_dup = external global i32

define void @caller(ptr %p, ptr %dp) {
  call void (...) @__enzyme_autodiff(ptr @grow, ptr @enzyme_dup, ptr %p, ptr %dp)
  ret void
}
