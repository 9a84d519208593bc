#include "oracle/order_judge.h"

#include <functional>
#include <limits>
#include <random>

#include "core/combiner.h"
#include "core/ir_walk.h"
#include "core/sexp.h"
#include "interpreter/interpreter.h"
#include "interpreter/value.h"

namespace strata {
namespace {

// A fold or scan of the program: its form, function, element type and place.
struct Reduction {
  const Acc* acc;
  const Lambda* f;
  Type elem;
  bool scan;
};

std::vector<Reduction> reductions(const Program& program) {
  std::vector<Reduction> out;
  std::function<void(const Exp&)> fe;
  std::function<void(const Acc&)> fa;
  fe = [&](const Exp& e) { for_each_child(e, fe, fa); };
  fa = [&](const Acc& a) {
    if (const auto* f = std::get_if<ac::Fold>(&a.node))
      out.push_back({&a, &f->f, f->a->type.elem(), false});
    else if (const auto* s = std::get_if<ac::Scan>(&a.node))
      out.push_back({&a, &s->f, s->a->type.elem(), true});
    for_each_child(a, fe, fa);
  };
  if (program.body) fa(*program.body);
  return out;
}

bool exact(const Type& elem) {
  for (ScalarKind k : elem.leaves())
    if (is_float(k)) return false;
  return true;
}

std::string where(const Reduction& r) {
  return "`" + std::string(form_name(r.acc->node)) + "`" +
         (r.acc->loc.known() ? " at " + r.acc->loc.str() : "");
}

// Values of one scalar kind to try: small numbers first (`small_only`),
// where a counterexample is easiest to read, then the edges and random bits.
Scalar candidate(ScalarKind k, std::mt19937_64& rng, bool small_only) {
  static const int64_t small[] = {0, 1, -1, 2, 3, -2, 5, 7, 100};
  uint64_t pick = rng() % (small_only ? std::size(small) : 16);
  return dispatch_kind(k, [&](auto tag) -> Scalar {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, bool>) {
      return Scalar::make<bool>(rng() & 1);
    } else if (pick < std::size(small)) {
      return Scalar::make<T>(static_cast<T>(small[pick]));
    } else if (pick == 9) {
      return Scalar::make<T>(std::numeric_limits<T>::min());
    } else if (pick == 10) {
      return Scalar::make<T>(std::numeric_limits<T>::max());
    } else {
      uint64_t bits = rng();
      T v;
      std::memcpy(&v, &bits, sizeof(T));
      return Scalar::make<T>(v);
    }
  });
}

Value candidate(const Type& t, std::mt19937_64& rng, bool small_only) {
  if (t.is_scalar()) return Value(candidate(t.scalar_kind(), rng, small_only));
  std::vector<Value> elems;
  for (const Type& e : t.elems())
    elems.push_back(candidate(e, rng, small_only));
  return Value::tuple(std::move(elems));
}

bool identical(const Value& a, const Value& b) {
  if (a.is_tuple != b.is_tuple) return false;
  if (!a.is_tuple) return a.scalar.identical(b.scalar);
  if (a.elems.size() != b.elems.size()) return false;
  for (size_t i = 0; i < a.elems.size(); ++i)
    if (!identical(a.elems[i], b.elems[i])) return false;
  return true;
}

// Three values for which f(f(a, b), c) and f(a, f(b, c)) differ, as the
// report's text; nullopt when none is found (or f reads anything but its
// parameters).
std::optional<std::string> counterexample(const Lambda& f, const Type& elem) {
  std::mt19937_64 rng(0x5eed);
  for (int attempt = 0; attempt < 20000; ++attempt) {
    bool small_only = attempt < 5000;
    Value a = candidate(elem, rng, small_only), b = candidate(elem, rng, small_only),
          c = candidate(elem, rng, small_only);
    try {
      Value left = apply_function(f, apply_function(f, a, b), c);
      Value right = apply_function(f, a, apply_function(f, b, c));
      if (!identical(left, right))
        return "f(f(a, b), c) = " + value_str(left) + " but f(a, f(b, c)) = " + value_str(right) +
               " for a = " + value_str(a) + ", b = " + value_str(b) + ", c = " + value_str(c);
    } catch (const Error&) {
      if (attempt == 0) return std::nullopt; // it reads more than its parameters, or always fails
    }
  }
  return std::nullopt;
}

} // namespace

std::optional<std::string> illegal_grouping(const Program& program, const ReductionOrder& order) {
  if (order.striding != Striding::every_function) return std::nullopt;
  for (const Reduction& r : reductions(program)) {
    bool chunked = r.scan ? order.scan_chunked_from > 0 : order.fold_chunked_from > 0;
    if (chunked && fold_lanes(order, r.elem) > 1 && !commutes(*r.f))
      return "the declared order (" + order.describe() + ") folds the chunks of " + where(r) +
             " in strided lanes, which swap operands, but its function does not provably "
             "commute (docs/language.md, Legal orders)";
  }
  return std::nullopt;
}

bool judged_against_canonical(const Program& program, const ReductionOrder& order) {
  if (order.is_canonical()) return false;
  std::vector<Reduction> rs = reductions(program);
  if (rs.empty()) return false;
  for (const Reduction& r : rs)
    if (!exact(r.elem)) return false;
  return true;
}

std::string not_associative(const Program& program, const ReductionOrder& order) {
  std::string suspects;
  for (const Reduction& r : reductions(program)) {
    if (commutes(*r.f)) continue; // on exact types: + * min max band bor bxor and or
    if (auto shown = counterexample(*r.f, r.elem))
      return "the function of " + where(r) + " is not associative: " + *shown +
             "; its results depend on the association order (this one's differ from the "
             "canonical order's)";
    suspects += (suspects.empty() ? "" : ", ") + where(r);
  }
  return "the results in the " + order.describe() +
         " order differ from the canonical order's although every fold and scan is exact: "
         "the function of " +
         (suspects.empty() ? std::string("a reduction") : suspects) +
         " is not associative (no three values found that show it)";
}

} // namespace strata
