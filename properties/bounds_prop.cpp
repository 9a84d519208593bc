// The bounded evaluation (interpreter/bounds.h) is sound on random programs:
// the canonical, blocked and small orders all lie inside the bounds of any
// order, and the bounds' points are the interpreter's results. A scan whose
// sums are shifted by one element falls outside.
#include <rapidcheck.h>

#include "core/check.h"
#include "core/parser.h"
#include "interpreter/bounds.h"
#include "interpreter/interpreter.h"
#include "oracle/bounded_compare.h"
#include "oracle/generator_rc.h"
#include "properties/property.h"

namespace strata {
namespace {

TEST(Bounds, EveryOrderLiesInsideTheAnyOrderBounds) {
  prop::check(300, [](const GeneratedCase& c) {
    Program p = c.checked();
    std::vector<Array> canonical;
    try {
      canonical = interpret(p, c.inputs);
    } catch (const Error&) {
      RC_DISCARD("the oracle raises");
    }
    auto bounds = bound_program(p, c.inputs, Freedoms{true, ReductionOrder::canonical(), 0});
    RC_ASSERT(bounds.size() == canonical.size());
    for (size_t i = 0; i < bounds.size(); ++i)
      RC_ASSERT(identical(bounds[i].value, canonical[i]));
    bool bounded = false;
    for (const ReductionOrder& order : {ReductionOrder::blocked(), ReductionOrder::small()}) {
      InterpreterOptions options;
      options.order = order;
      std::vector<Array> other;
      try {
        other = interpret(p, c.inputs, options);
      } catch (const Error&) {
        continue; // another order may take another branch into an error
      }
      for (size_t i = 0; i < bounds.size(); ++i) {
        BoundedComparison r = compare_with_bounds(bounds[i], other[i]);
        // Only an undetermined element may differ, and it is reported.
        RC_ASSERT(r.failures == r.counts.not_compared);
        bounded = bounded || r.counts.bounded > 0;
      }
    }
    RC_CLASSIFY(bounded, "some element under a bound");
  });
}

TEST(Bounds, ShiftedScanIsOutsideTheBounds) {
  prop::check(200, [] {
    std::vector<double> v =
        *rc::gen::suchThat(rc::gen::container<std::vector<double>>(rc::gen::map(
                               rc::gen::inRange(1, 1000000), [](int k) { return k / 1024.0; })),
                           [](const std::vector<double>& x) { return x.size() >= 2; });
    Program p = parse_program(
        "(program ((xs (array f64 1))) (scanl1 (lambda ((a f64) (b f64)) (+ a b)) xs))", "s");
    check_program(p);
    Array xs = Array::allocate(Type::scalar(ScalarKind::F64), {int64_t(v.size())});
    for (size_t i = 0; i < v.size(); ++i)
      xs.write(0, int64_t(i), Scalar::make(v[i]));
    auto bounds = bound_program(p, {xs}, Freedoms::numpy());
    Array shifted = Array::allocate(Type::scalar(ScalarKind::F64), {int64_t(v.size())});
    for (int64_t i = 0; i < xs.size(); ++i)
      shifted.write(0, i, i == 0 ? Scalar::make(0.0) : bounds[0].value.read(0, i - 1));
    RC_ASSERT(compare_with_bounds(bounds[0], bounds[0].value).ok());
    RC_ASSERT(!compare_with_bounds(bounds[0], shifted).ok());
  });
}

} // namespace
} // namespace strata
