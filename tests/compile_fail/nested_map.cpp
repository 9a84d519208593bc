// A collective operation inside the function of another: nested data parallelism.
#include "frontend/frontend.h"
using namespace strata::fe;
auto f(Acc<Vector<float>> xs) {
  return map([=](Exp<float> x) { return map([=](Exp<float> y) { return x + y; }, xs); }, xs);
}
