#include "core/reduction_order.h"

#include <sstream>

#include "core/error.h"
#include "core/scalar.h"

namespace strata {

namespace {
constexpr const char* kStridedAll = "strided-all";
}

std::string ReductionOrder::describe() const {
  if (is_canonical()) return "canonical";
  return "blocked(fold >= " + std::to_string(fold_chunked_from) + " in chunks of " +
         std::to_string(fold_chunk) + ", scan >= " + std::to_string(scan_chunked_from) +
         " in chunks of " + std::to_string(scan_chunk) + ", " + std::to_string(lane_bytes) +
         "-byte lanes" +
         (striding == Striding::every_function ? ", strided for every function" : "") + ")";
}

std::string ReductionOrder::spec() const {
  return std::to_string(fold_chunked_from) + "," + std::to_string(fold_chunk) + "," +
         std::to_string(scan_chunked_from) + "," + std::to_string(scan_chunk) + "," +
         std::to_string(lane_bytes) +
         (striding == Striding::every_function ? std::string(",") + kStridedAll : "");
}

ReductionOrder ReductionOrder::parse(const std::string& text, const std::string& what) {
  if (text == "canonical") return canonical();
  if (text == "blocked") return blocked();
  if (text == "small") return small();
  std::vector<int64_t> v;
  std::istringstream in(text);
  std::string part;
  Striding striding = Striding::commutative;
  while (std::getline(in, part, ',')) {
    if (v.size() == 5 && part == kStridedAll) {
      striding = Striding::every_function;
      continue;
    }
    try {
      size_t used = 0;
      v.push_back(std::stoll(part, &used));
      if (used != part.size() || v.back() < 0) v.clear();
    } catch (const std::exception&) {
      v.clear();
    }
    if (v.empty()) break;
  }
  bool ok = v.size() == 5 && v[4] >= 1 && v[4] <= 4096 && (v[0] == 0 || v[1] >= 1) &&
            (v[2] == 0 || v[3] >= 1);
  if (!ok)
    throw Error(ErrorKind::Usage,
                what + ": `" + text +
                    "` is not a reduction order (canonical, blocked, small, or five numbers: "
                    "fold_chunked_from,fold_chunk,scan_chunked_from,scan_chunk,lane_bytes)");
  return ReductionOrder{v[0], v[1], v[2], v[3], int(v[4]), striding};
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
