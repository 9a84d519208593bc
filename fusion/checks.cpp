#include "fusion/checks.h"

#include "core/runtime_errors.h"

namespace strata {

// The InRange checks of one slice, from `first`: they follow each other in
// d.checks (fusion/fuse.cpp) and name the same operation.
static size_t in_range_run(const std::vector<Check>& checks, size_t first) {
  size_t end = first;
  while (end < checks.size() && checks[end].kind == Check::Kind::InRange &&
         checks[end].op.loc.str() == checks[first].op.loc.str() &&
         checks[end].op.name == checks[first].op.name)
    ++end;
  return end;
}

void run_delayed_checks(const Delayed& d, const std::function<Index(const ExpPtr&)>& eval) {
  for (size_t at = 0; at < d.checks.size();) {
    const Check& c = d.checks[at];
    switch (c.kind) {
    case Check::Kind::NonNegative: check_extents(eval(c.a), c.op.name, c.op.loc); break;
    case Check::Kind::SameSize: {
      Index to = eval(c.a), from = eval(c.b);
      if (shape_size(to) != shape_size(from)) throw reshape_size_mismatch(from, to, c.op.loc);
      break;
    }
    case Check::Kind::InRange: {
      // A slice's spec entries are all evaluated before any is checked, as
      // the interpreter does (docs/language.md, Errors: shape expressions,
      // then the checks on the shape).
      size_t end = in_range_run(d.checks, at);
      std::vector<int64_t> index, extent;
      for (size_t k = at; k < end; ++k)
        index.push_back(eval(d.checks[k].a)[0]);
      for (size_t k = at; k < end; ++k)
        extent.push_back(eval(d.checks[k].b)[0]);
      for (size_t k = at; k < end; ++k) {
        int64_t i = index[k - at], n = extent[k - at];
        if (i < 0 || i >= n)
          throw slice_index_out_of_bounds(i, d.checks[k].dim, n, d.checks[k].op.loc);
      }
      at = end;
      continue;
    }
    }
    ++at;
  }
}

void rethrow_kernel_error(const Error& e, const Kernel& k) {
  if (e.kind() == ErrorKind::Resource && !e.loc().known() && !k.ops.empty())
    throw allocation_failed(e, k.ops.front().name, k.ops.front().loc);
  throw e;
}

} // namespace strata
