// Reading a vector with a rank-2 index.
#include "frontend/frontend.h"
using namespace strata::fe;
auto f(Acc<Vector<float>> xs) {
  return generate(ix(3), [=](Exp<Ix<1>>) { return xs[ix(0, 1)]; });
}
