#include "fusion/checks.h"

#include "core/runtime_errors.h"

namespace strata {

void run_delayed_checks(const Delayed& d, const std::function<Index(const ExpPtr&)>& eval) {
  for (const Check& c : d.checks) {
    switch (c.kind) {
    case Check::Kind::NonNegative: check_extents(eval(c.a), c.op.name, c.op.loc); break;
    case Check::Kind::SameSize: {
      Index to = eval(c.a), from = eval(c.b);
      if (shape_size(to) != shape_size(from)) throw reshape_size_mismatch(from, to, c.op.loc);
      break;
    }
    case Check::Kind::InRange: {
      int64_t i = eval(c.a)[0], n = eval(c.b)[0];
      if (i < 0 || i >= n) throw slice_index_out_of_bounds(i, c.dim, n, c.op.loc);
      break;
    }
    }
  }
}

void rethrow_kernel_error(const Error& e, const Kernel& k) {
  if (e.kind() == ErrorKind::Resource && !e.loc().known() && !k.ops.empty())
    throw allocation_failed(e, k.ops.front().name, k.ops.front().loc);
  throw e;
}

} // namespace strata
