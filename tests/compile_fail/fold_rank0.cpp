// fold over a rank-0 array: there is no innermost dimension to reduce.
#include "frontend/frontend.h"
using namespace strata::fe;
auto f(Acc<Scalar<float>> s) {
  return fold([](Exp<float> a, Exp<float> b) { return a + b; }, 0.0f, s);
}
