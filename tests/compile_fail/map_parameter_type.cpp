// A function over i32 mapped over an array of f32.
#include "frontend/frontend.h"
using namespace strata::fe;
auto f(Acc<Vector<float>> xs) {
  return map([](Exp<int32_t> x) { return x + 1; }, xs);
}
