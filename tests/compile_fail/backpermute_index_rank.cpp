// backpermute's function must return an index of the source array's rank.
#include "frontend/frontend.h"
using namespace strata::fe;
auto f(Acc<Matrix<float>> m) {
  return backpermute(
      ix(3), [](Exp<Ix<1>> i) { return i; }, m);
}
