// zipWith over arrays of different ranks.
#include "frontend/frontend.h"
using namespace strata::fe;
auto f(Acc<Vector<float>> xs, Acc<Matrix<float>> m) {
  return zipWith([](Exp<float> x, Exp<float> y) { return x * y; }, xs, m);
}
