#include "fusion/checks.h"

namespace strata {

void run_delayed_checks(const Delayed& d, const std::function<Index(const ExpPtr&)>& eval) {
  auto quoted = [](const std::string& s) { return "`" + s + "`"; };
  for (const Check& c : d.checks) {
    switch (c.kind) {
    case Check::Kind::NonNegative: {
      Index sh = eval(c.a);
      for (int64_t x : sh)
        if (x < 0)
          throw Error(ErrorKind::Shape, c.op.loc,
                      "negative extent in shape " + shape_str(sh) + " of " + quoted(c.op.name));
      break;
    }
    case Check::Kind::SameSize: {
      Index to = eval(c.a), from = eval(c.b);
      if (shape_size(to) != shape_size(from))
        throw Error(ErrorKind::Shape, c.op.loc,
                    "reshape from shape " + shape_str(from) + " (" +
                        std::to_string(shape_size(from)) + " elements) to shape " + shape_str(to) +
                        " (" + std::to_string(shape_size(to)) + " elements): sizes differ");
      break;
    }
    case Check::Kind::InRange: {
      int64_t i = eval(c.a)[0], n = eval(c.b)[0];
      if (i < 0 || i >= n)
        throw Error(ErrorKind::Bounds, c.op.loc,
                    "slice index " + std::to_string(i) + " out of bounds for dimension " +
                        std::to_string(c.dim) + " (extent " + std::to_string(n) + ") in " +
                        quoted(c.op.name));
      break;
    }
    }
  }
}

} // namespace strata
