#include "core/reduction_order.h"

#include "core/scalar.h"

namespace strata {

std::string ReductionOrder::describe() const {
  if (is_canonical()) return "canonical";
  return "blocked(fold >= " + std::to_string(fold_chunked_from) + " in chunks of " +
         std::to_string(fold_chunk) + ", scan >= " + std::to_string(scan_chunked_from) +
         " in chunks of " + std::to_string(scan_chunk) + ", " + std::to_string(lane_bytes) +
         "-byte lanes)";
}

int fold_lanes(const ReductionOrder& order, const Type& elem) {
  size_t bytes = 0;
  for (ScalarKind k : elem.leaves())
    bytes += scalar_size(k);
  int lanes = 1;
  while (bytes > 0 && size_t(lanes) * 2 * bytes <= size_t(order.lane_bytes))
    lanes *= 2;
  return lanes;
}

} // namespace strata
