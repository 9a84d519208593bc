// A stencil over a matrix with one window size.
#include "frontend/frontend.h"
using namespace strata::fe;
auto f(Acc<Matrix<float>> m) {
  return stencil<3>([](const Window<float, 2>& nb) { return nb(0, 0); }, boundary::clamp, m);
}
