; The object that warms up the jit's linker (jit/lljit_host.h, LljitHost::warm_up):
; compiled by llc at build time (jit/CMakeLists.txt) and linked once per process,
; so that a disk hit's first kernel does not pay JITLink's first use. Like a kernel,
; it has a loop, a constant pool, a constant table and a libm call; it is never run.
@table = internal constant [4 x double] [double 1.0, double 2.0, double 3.0, double 4.0]

declare double @exp(double)

define i32 @strata_warm_up_0(ptr %out, i64 %n) nounwind {
entry:
  %empty = icmp sle i64 %n, 0
  br i1 %empty, label %done, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %lane = and i64 %i, 3
  %p = getelementptr [4 x double], ptr @table, i64 0, i64 %lane
  %t = load double, ptr %p
  %x = fmul double %t, 0.5
  %e = call double @exp(double %x)
  %q = getelementptr double, ptr %out, i64 %i
  store double %e, ptr %q
  %next = add i64 %i, 1
  %more = icmp slt i64 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret i32 0
}
