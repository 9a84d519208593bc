// A scalar expression whose value is an array.
#include "frontend/frontend.h"
using namespace strata::fe;
void f(Exp<Vector<float>> e) {
  (void)e;
}
