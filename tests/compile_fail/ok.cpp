// Control: a well-typed program compiles with the same command as the
// compile-fail cases, so their failures come from the front end's checks.
#include "frontend/frontend.h"
using namespace strata::fe;
auto f(Acc<Vector<float>> xs, Acc<Vector<float>> ys) {
  return zipWith([](Exp<float> x, Exp<float> y) { return x * y; }, xs, ys);
}
