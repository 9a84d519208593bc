// Adding a float to a double: no implicit conversions.
#include "frontend/frontend.h"
using namespace strata::fe;
auto f(Acc<Vector<float>> xs, Acc<Vector<double>> ds) {
  return zipWith([](Exp<float> x, Exp<double> d) { return x + d; }, xs, ds);
}
