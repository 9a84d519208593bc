#include "oracle/faults/catalog.h"

namespace strata::faults {

const std::vector<Fault>& all_faults() {
  static const std::vector<Fault> faults = [] {
    std::vector<Fault> v;
    add_reduction_faults(v);
    add_collective_faults(v);
    add_scalar_faults(v);
    add_order_faults(v);
    add_sugar_faults(v);
    return v;
  }();
  return faults;
}

} // namespace strata::faults
