// Bitwise and on floats.
#include "frontend/frontend.h"
using namespace strata::fe;
auto f(Acc<Vector<float>> xs) {
  return map([](Exp<float> x) { return x & x; }, xs);
}
