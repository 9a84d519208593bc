// Faults the old tolerance policy let through (issue 16): a float value
// after a fold off by a few ulp, one term dropped from a float sum, a fold
// whose chunks are not the ones the engine declares, a float permute that
// combines in another order, and an error with another message. Each passed
// a comparison by type only, a global or summation tolerance, or by error
// kind; the bitwise comparison against the replayed order catches them.
#include "core/parser.h"
#include "oracle/faults/catalog.h"

namespace strata::faults {
namespace {

bool is_float_scalar(const Type& t) {
  return t.is_scalar() &&
         (t.scalar_kind() == ScalarKind::F32 || t.scalar_kind() == ScalarKind::F64);
}

// "1.0000002f32" / "1.0000000000000004": 1 + 2 ulp of the type.
std::string two_ulps_above_one(ScalarKind k) {
  return k == ScalarKind::F32 ? "1.0000002f32" : "1.0000000000000004";
}

// "internal name" faults: the array named in a message becomes `a0`.
Error with_internal_names(const Error& e) {
  std::string m = e.message();
  size_t at = m.find("of `");
  if (at != std::string::npos) {
    size_t end = m.find('`', at + 4);
    if (end != std::string::npos) m = m.substr(0, at + 4) + "a0" + m.substr(end);
  } else if (m.rfind("division by zero", 0) == 0) {
    m = "integer " + m;
  }
  return Error(e.kind(), e.loc(), m, e.context());
}

} // namespace

void add_order_faults(std::vector<Fault>& out) {
  out.push_back(
      {"fold_result_off_by_ulps",
       "the result of a float `fold`/`fold1` is off by 2 ulp (a last combine in extended "
       "precision or with a fused multiply-add); the value then flows into further work",
       {},
       [](Acc& a, RewriteContext& c) -> std::optional<std::string> {
         if (!std::get_if<ac::Fold>(&a.node) || !is_float_scalar(a.type.elem())) return {};
         ScalarKind k = a.type.elem().scalar_kind();
         std::string x = c.fresh();
         return "(map (lambda ((" + x + " " + a.type.elem().str() + ")) (* " + x + " " +
                two_ulps_above_one(k) + ")) " + text(a) + ")";
       },
       {},
       false,
       "(program () (map (lambda ((x f32)) (* x 3f32)) "
       "(fold (lambda ((a f32) (b f32)) (+ a b)) 0f32 (use (array f32 (3) 0.1 0.2 0.3)))))"});

  out.push_back(
      {"sum_drops_last_term",
       "a float `fold`/`fold1` leaves out the last element of every row (a vector loop's "
       "remainder skipped)",
       {},
       [](Acc& a, RewriteContext& c) -> std::optional<std::string> {
         auto* f = std::get_if<ac::Fold>(&a.node);
         if (!f || !is_float_scalar(a.type.elem())) return {};
         int r = f->a->type.rank();
         auto shorter = [&](const std::string& t) { // each row without its last element
           std::string sh = "(shape " + t + ")";
           return index_with_last(sh, r,
                                  "(max 0 (- (proj " + std::to_string(r - 1) + " " + sh + ") 1))");
         };
         return fold_through_gather(*f, c, shorter,
                                    [](const std::string&, const std::string& i) { return i; });
       },
       {},
       false,
       "(program () (fold (lambda ((a f64) (b f64)) (+ a b)) 0.0 (use (array f64 (3) 1 2 3))))"});

  // Declared small: chunks of 4; run: chunks of 8.
  Fault chunks{"fold_chunks_misdeclared",
               "the engine folds chunks twice as long as the order it declares (its tree is not "
               "the declared one)",
               {},
               {},
               {},
               false,
               "(program () (fold (lambda ((a f64) (b f64)) (- a b)) 0.0 "
               "(use (array f64 (9) 1 2 3 4 5 6 7 8 9))))"};
  chunks.order = [](const ReductionOrder& declared) {
    ReductionOrder run = declared;
    run.fold_chunk *= 2;
    return run;
  };
  chunks.example_order = ReductionOrder::small();
  out.push_back(chunks);

  // Declared and run: strided lanes for a function that does not commute
  // (the engines' tree before docs/language.md "Legal orders"). Replay
  // agrees with it; the oracle's judgement of the order does not.
  Fault strided{"strided_lanes_any_function",
                "the engine folds the chunks of every fold and scan in strided lanes, also for a "
                "function that does not commute (forward fill: the last non-zero), and declares "
                "it",
                {},
                {},
                {},
                false,
                "(program () (fold (lambda ((a i64) (b i64)) (if (== b 0) a b)) 0 "
                "(use (array i64 (4) 0 2 1 0))))"};
  strided.order = [](const ReductionOrder& declared) {
    ReductionOrder run = declared;
    run.striding = Striding::every_function;
    return run;
  };
  strided.declares_its_order = true;
  strided.example_order = ReductionOrder::small();
  out.push_back(strided);

  out.push_back({"float_permute_reordered",
                 "a `permute` of floats combines its sources in reverse source order (a parallel "
                 "scatter whose order is not the declared one)",
                 {},
                 [](Acc& a, RewriteContext& c) -> std::optional<std::string> {
                   auto* p = std::get_if<ac::Permute>(&a.node);
                   if (!p) return {};
                   bool floats = false;
                   for (ScalarKind k : a.type.elem().leaves())
                     floats = floats || k == ScalarKind::F32 || k == ScalarKind::F64;
                   if (!floats) return {};
                   int r = p->source->type.rank();
                   std::string s = c.fresh(), i = c.fresh(), j = c.fresh();
                   auto reversed = [&](const std::string& ix) {
                     return "(from-index (shape " + s + ") (- (- (size " + s +
                            ") 1) (to-index (shape " + s + ") " + ix + ")))";
                   };
                   std::string rank = "(ix " + std::to_string(r) + ")";
                   return "(alet ((" + s + " " + text(*p->source) + ")) (permute " +
                          lambda_text(p->combine) + " " + text(*p->defaults) + " (lambda ((" + i +
                          " " + rank + ")) " + apply_text(p->target, {reversed(i)}, c) +
                          ") (backpermute (shape " + s + ") (lambda ((" + j + " " + rank + ")) " +
                          reversed(j) + ") " + s + ")))";
                 },
                 {},
                 false,
                 "(program () (permute (lambda ((n f32) (o f32)) (+ n o)) (fill (ix 1) 0f32) "
                 "(lambda ((i (ix 1))) (ix 0)) (use (array f32 (3) 1 100000000 -100000000))))"});

  Fault message{"error_message_differs",
                "run-time errors name arrays by internal names (`a0`) and say \"integer division "
                "by zero\": right kind, another message",
                {},
                {},
                {},
                false,
                "(program () (alet ((xs (use (array i64 (3) 1 2 3)))) "
                "(generate (ix 1) (lambda ((i (ix 1))) (! xs (ix 5))))))"};
  message.error = with_internal_names;
  out.push_back(message);
}

} // namespace strata::faults
