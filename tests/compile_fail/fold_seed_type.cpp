// A fold seed of another element type.
#include "frontend/frontend.h"
using namespace strata::fe;
auto f(Acc<Vector<int32_t>> xs) {
  return fold([](Exp<int32_t> a, Exp<int32_t> b) { return a + b; }, 0.5, xs);
}
