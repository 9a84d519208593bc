#include "fusion/cost.h"

#include "core/ir_walk.h"

namespace strata::fusion {

void cost(const Lambda& f, Cost& c) {
  cost(*f.body, c);
}
void cost(const Exp& e, Cost& c) {
  ++c.nodes;
  // A loop's body runs an unknown number of times: it is not counted, and it
  // makes the expression costly whatever its size. Arrays read are not code.
  if (std::holds_alternative<ex::While>(e.node)) {
    c.loops = true;
    return;
  }
  for_each_child(
      e, [&](const Exp& x) { cost(x, c); }, [](const Acc&) {});
}
} // namespace strata::fusion
