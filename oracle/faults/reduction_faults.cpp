// Faults in reductions, scans and permute: operand order, the seed, the
// scan's offset and direction, segment boundaries, the combination of
// colliding writes and the `ignore` target.
#include <utility>

#include "core/ir_walk.h"
#include "core/parser.h"
#include "oracle/faults/catalog.h"

namespace strata::faults {

void add_reduction_faults(std::vector<Fault>& out) {
  out.push_back({"fold_operand_order",
                 "`fold`/`fold1` combine as (f x acc) instead of (f acc x): wrong on "
                 "non-commutative operators",
                 {},
                 [](Acc& a, RewriteContext&) -> std::optional<std::string> {
                   if (auto* f = std::get_if<ac::Fold>(&a.node))
                     std::swap(f->f.params[0].name, f->f.params[1].name);
                   return std::nullopt;
                 },
                 {},
                 false,
                 "(program () (fold (lambda ((a i64) (b i64)) a) 7 (use (array i64 (3) 1 2 3))))"});

  out.push_back(
      {"mpi_partials_out_of_order",
       "`fold`/`fold1` of rows split between two ranks combine the second rank's "
       "partial first (the row's second half, then its first half)",
       {},
       [](Acc& a, RewriteContext& c) -> std::optional<std::string> {
         auto* f = std::get_if<ac::Fold>(&a.node);
         if (!f) return {};
         int r = f->a->type.rank();
         std::string rr = std::to_string(r - 1);
         auto second_half_first = [&](const std::string& t, const std::string& i) {
           std::string n = "(proj " + rr + " (shape " + t + "))";
           return index_with_last(
               i, r, "(rem (+ (proj " + rr + " " + i + ") (quot " + n + " 2)) (max " + n + " 1))");
         };
         return fold_through_gather(
             *f, c, [](const std::string& t) { return "(shape " + t + ")"; }, second_half_first);
       },
       {},
       false,
       "(program () (fold (lambda ((a i64) (b i64)) (if (== b 0) a b)) 0 "
       "(use (array i64 (4) 1 0 2 0))))"});

  out.push_back({"fold_seed_twice",
                 "`fold` combines the seed into the result twice (once per partial result of a "
                 "two-way split)",
                 {},
                 [](Acc& a, RewriteContext& c) -> std::optional<std::string> {
                   auto* f = std::get_if<ac::Fold>(&a.node);
                   if (!f || !f->seed) return {};
                   std::string r = c.fresh(), x = c.fresh();
                   return "(alet ((" + r + " " + text(a) + ")) (map (lambda ((" + x + " " +
                          a.type.elem().str() + ")) " + apply_text(f->f, {text(*f->seed), x}, c) +
                          ") " + r + "))";
                 },
                 {},
                 false,
                 "(program () (fold (lambda ((a i64) (b i64)) (+ a b)) 10 "
                 "(use (array i64 (3) 1 2 3))))"});

  out.push_back({"scan_off_by_one",
                 "`scanl scanl1 scanr scanr1` write element i+1 at i (inclusive where exclusive is "
                 "meant; the last element repeats)",
                 {},
                 [](Acc& a, RewriteContext& c) -> std::optional<std::string> {
                   auto* s = std::get_if<ac::Scan>(&a.node);
                   if (!s || s->kind == ac::ScanKind::ScanlPrime) return {};
                   int r = a.type.rank();
                   std::string t = c.fresh(), i = c.fresh(), rr = std::to_string(r - 1);
                   std::string last = "(min (+ (proj " + rr + " " + i + ") 1) (- (proj " + rr +
                                      " (shape " + t + ")) 1))";
                   return "(alet ((" + t + " " + text(a) + ")) (backpermute (shape " + t +
                          ") (lambda ((" + i + " (ix " + std::to_string(r) + "))) " +
                          index_with_last(i, r, last) + ") " + t + "))";
                 },
                 {},
                 false,
                 "(program () (scanl (lambda ((a i64) (b i64)) (+ a b)) 0 "
                 "(use (array i64 (3) 1 2 3))))"});

  out.push_back({"scanr_direction",
                 "`scanr`/`scanr1` run left to right (as `scanl`/`scanl1`)",
                 {},
                 [](Acc& a, RewriteContext&) -> std::optional<std::string> {
                   auto* s = std::get_if<ac::Scan>(&a.node);
                   if (!s) return {};
                   if (s->kind == ac::ScanKind::Scanr)
                     s->kind = ac::ScanKind::Scanl;
                   else if (s->kind == ac::ScanKind::Scanr1)
                     s->kind = ac::ScanKind::Scanl1;
                   else
                     return {};
                   std::swap(s->f.params[0].name, s->f.params[1].name);
                   return std::nullopt;
                 },
                 {},
                 false,
                 "(program () (scanr (lambda ((a i64) (b i64)) (+ a b)) 0 "
                 "(use (array i64 (3) 1 2 3))))"});

  out.push_back({"foldseg_boundary",
                 "`foldseg`: the boundary between the first two segments is one element late",
                 {},
                 [](Acc& a, RewriteContext& c) -> std::optional<std::string> {
                   auto* f = std::get_if<ac::FoldSeg>(&a.node);
                   if (!f) return {};
                   std::string g = c.fresh(), j = c.fresh(), k = c.fresh();
                   std::string v = "(! " + g + " " + j + ")", second = "(! " + g + " (ix 1))";
                   f->segs = parse_acc(
                       "(alet ((" + g + " " + text(*f->segs) + ")) (generate (shape " + g +
                           ") (lambda ((" + j + " (ix 1))) (let ((" + k + " (proj 0 " + j +
                           "))) (if (and (== " + k + " 0) (> (size " + g + ") 1)) (if (> " +
                           second + " 0) (+ " + v + " 1) " + v + ") (if (and (== " + k + " 1) (> " +
                           second + " 0)) (- " + v + " 1) " + v + "))))))",
                       "faulty.strata");
                   return std::nullopt;
                 },
                 {},
                 false,
                 "(program () (foldseg (lambda ((a i64) (b i64)) (+ a b)) 0 "
                 "(use (array i64 (4) 1 2 3 4)) (use (array i64 (2) 2 2))))"});

  out.push_back({"permute_overwrites",
                 "`permute` stores each source element instead of combining it (a plain store "
                 "where an atomic update is needed)",
                 {},
                 [](Acc& a, RewriteContext&) -> std::optional<std::string> {
                   if (auto* p = std::get_if<ac::Permute>(&a.node))
                     p->combine.body = parse_exp(p->combine.params[0].name, "faulty.strata");
                   return std::nullopt;
                 },
                 {},
                 false,
                 "(program () (permute (lambda ((n i64) (o i64)) (+ n o)) (fill (ix 1) 1) "
                 "(lambda ((i (ix 1))) (ix 0)) (use (array i64 (2) 5 7))))"});

  out.push_back({"permute_ignores_ignore",
                 "`permute` does not test for `ignore`: those elements land at index 0",
                 {},
                 [](Acc& a, RewriteContext&) -> std::optional<std::string> {
                   auto* p = std::get_if<ac::Permute>(&a.node);
                   if (!p) return {};
                   std::function<void(Exp&)> fix = [&](Exp& e) {
                     if (auto* ig = std::get_if<ex::Ignore>(&e.node)) {
                       std::string s = "(ix";
                       for (int k = 0; k < ig->rank; ++k)
                         s += " 0";
                       e = std::move(*parse_exp(s + ")", "faulty.strata"));
                       return;
                     }
                     for_each_child(e, fix, [](Acc&) {});
                   };
                   fix(*p->target.body);
                   return std::nullopt;
                 },
                 {},
                 false,
                 "(program () (permute (lambda ((n i64) (o i64)) (+ n o)) (fill (ix 2) 0) "
                 "(lambda ((i (ix 1))) (if (== (proj 0 i) 0) (ignore 1) (ix 1))) "
                 "(use (array i64 (2) 5 7))))"});
}

} // namespace strata::faults
