; An existing target must have exactly the planned parameters (after an
; optional sret pointer) and a return the leaves fit.






; The declaration of the __enzyme entry point must be free for our use.

define double @f(double %x) {
  ret double %x
}

declare { double, double } @t_count(double)
declare { double, double } @t_type(double, float)
declare double @t_ret(double, double)
declare void @t_sret(ptr sret([3 x double]), double, double)
@t_var = global i32 0
declare { double, double } @t_vararg(double, double, ...)
declare double @__enzyme_autodiff_t_taken(...)
