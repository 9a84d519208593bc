// An array whose elements are arrays: nested data parallelism.
#include "frontend/frontend.h"
using namespace strata::fe;
void f(Acc<Vector<Vector<float>>> xs) {
  (void)xs;
}
