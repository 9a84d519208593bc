// Faults in the other collectives: stencil boundaries, gathers, replicate and
// slice specifications, loops, a fusion indexing bug and a vector tail.
#include <algorithm>
#include <cstring>
#include <functional>

#include "core/parser.h"
#include "oracle/faults/catalog.h"
#include "core/ir_walk.h"

namespace strata::faults {
namespace {

// The coordinate a buggy boundary reads, from the raw coordinate J and the
// extent N (texts of i64 expressions).
using Coordinate =
    std::function<std::string(const std::string& j, const std::string& n, RewriteContext& c)>;

// A stencil as the `generate` a buggy engine would run: every `(at nb o ...)`
// becomes a read of the array at the coordinates `coord` gives.
std::string lower_stencil(ac::Stencil& s, RewriteContext& c, const Coordinate& coord) {
  int r = s.a->type.rank();
  std::string a = c.fresh(), i = c.fresh(), nb = s.f.params[0].name;
  std::function<void(Exp&)> fix = [&](Exp& e) {
    if (auto* at = std::get_if<ex::At>(&e.node); at && at->window == nb) {
      std::string ix = "(ix";
      for (int k = 0; k < r; ++k) {
        std::string kk = std::to_string(k);
        ix += " " + coord("(+ (proj " + kk + " " + i + ") " +
                              std::to_string(at->offsets[size_t(k)]) + ")",
                          "(proj " + kk + " (shape " + a + "))", c);
      }
      e = std::move(*parse_exp("(! " + a + " " + ix + "))", "faulty.strata"));
      return;
    }
    for_each_child(e, fix, [](Acc&) {});
  };
  fix(*s.f.body);
  return "(alet ((" + a + " " + text(*s.a) + ")) (generate (shape " + a + ") (lambda ((" + i +
         " (ix " + std::to_string(r) + "))) " + text(*s.f.body) + ")))";
}

// Coordinates kept in range, so that a wrong boundary reads a wrong element
// rather than raising an error.
std::string in_range(const std::string& j, const std::string& n, RewriteContext& c,
                     const std::string& below, const std::string& above) {
  std::string jj = c.fresh(), nn = c.fresh();
  auto sub = [&](std::string t) {
    for (auto [from, to] : {std::pair{"J", jj}, std::pair{"N", nn}}) {
      size_t p;
      while ((p = t.find(from)) != std::string::npos)
        t.replace(p, 1, to);
    }
    return t;
  };
  return "(let ((" + jj + " " + j + ") (" + nn + " " + n + ")) (max 0 (min (- " + nn +
         " 1) (if (< " + jj + " 0) " + sub(below) + " (if (>= " + jj + " " + nn + ") " +
         sub(above) + " " + jj + ")))))";
}

AccRewrite stencil_fault(ac::BoundaryKind kind, std::string below, std::string above) {
  return [=](Acc& a, RewriteContext& c) -> std::optional<std::string> {
    auto* s = std::get_if<ac::Stencil>(&a.node);
    if (!s || s->boundary.kind != kind) return {};
    return lower_stencil(*s, c,
                         [&](const std::string& j, const std::string& n, RewriteContext& cc) {
                           return in_range(j, n, cc, below, above);
                         });
  };
}

// A copy of `a` (arrays share storage) with its last element zeroed.
Array without_last(const Array& a) {
  Array out = Array::allocate(a.elem_type(), a.shape());
  for (size_t l = 0; l < a.num_leaves(); ++l) {
    size_t bytes = scalar_size(a.leaf_kind(l)) * size_t(a.size());
    std::memcpy(out.leaf(l).data(), a.leaf(l).data(), bytes);
    out.write(l, a.size() - 1, Scalar::from_bytes(a.leaf_kind(l), "\0\0\0\0\0\0\0\0"));
  }
  return out;
}

} // namespace

void add_collective_faults(std::vector<Fault>& out) {
  out.push_back({"mirror_repeats_edge",
                 "`mirror` stencil boundary repeats the edge (-1 -> 0, n -> n-1)",
                 {},
                 stencil_fault(ac::BoundaryKind::Mirror, "(- (neg J) 1)", "(- (- (* 2 N) 1) J)"),
                 {},
                 false,
                 "(program () (stencil (3) mirror (lambda ((nb (window i64 1))) (at nb -1)) "
                 "(use (array i64 (3) 1 2 3))))"});

  out.push_back({"wrap_off_by_one",
                 "`wrap` stencil boundary reads n -> 1 instead of n -> 0",
                 {},
                 stencil_fault(ac::BoundaryKind::Wrap, "(+ N J)", "(+ (- J N) 1)"),
                 {},
                 false,
                 "(program () (stencil (3) wrap (lambda ((nb (window i64 1))) (at nb 1)) "
                 "(use (array i64 (3) 1 2 3))))"});

  out.push_back({"constant_boundary_clamps",
                 "`(constant e)` stencil boundary reads the nearest edge element instead of e",
                 {},
                 [](Acc& a, RewriteContext&) -> std::optional<std::string> {
                   auto* s = std::get_if<ac::Stencil>(&a.node);
                   if (s && s->boundary.kind == ac::BoundaryKind::Constant)
                     s->boundary = ac::Boundary{ac::BoundaryKind::Clamp, nullptr};
                   return std::nullopt;
                 },
                 {},
                 false,
                 "(program () (stencil (3) (constant 0) (lambda ((nb (window i64 1))) (at nb 1)) "
                 "(use (array i64 (3) 1 2 3))))"});

  out.push_back({"backpermute_index_transposed",
                 "`backpermute` from a rank >= 2 array reads its index components in reverse "
                 "order (a transposed gather)",
                 {},
                 [](Acc& a, RewriteContext& c) -> std::optional<std::string> {
                   auto* b = std::get_if<ac::Backpermute>(&a.node);
                   if (!b || b->a->type.rank() < 2) return {};
                   int r = b->a->type.rank();
                   std::string t = c.fresh(), ix = "(ix";
                   for (int k = r - 1; k >= 0; --k)
                     ix += " (proj " + std::to_string(k) + " " + t + ")";
                   b->source_index.body = parse_exp(
                       "(let ((" + t + " " + text(*b->source_index.body) + ")) " + ix + "))",
                       "faulty.strata");
                   return std::nullopt;
                 },
                 {},
                 false,
                 "(program () (backpermute (ix 1) (lambda ((i (ix 1))) (ix 0 1)) "
                 "(use (array i64 (2 2) 1 2 3 4))))"});

  out.push_back({"replicate_spec_reversed",
                 "`replicate` reads its specification innermost first",
                 {},
                 [](Acc& a, RewriteContext&) -> std::optional<std::string> {
                   if (auto* r = std::get_if<ac::Replicate>(&a.node))
                     std::reverse(r->spec.begin(), r->spec.end());
                   return std::nullopt;
                 },
                 {},
                 false,
                 "(program () (replicate (spec 2 all) (use (array i64 (3) 1 2 3))))"});

  out.push_back({"slice_spec_reversed",
                 "`slice` reads its specification innermost first",
                 {},
                 [](Acc& a, RewriteContext&) -> std::optional<std::string> {
                   if (auto* s = std::get_if<ac::Slice>(&a.node))
                     std::reverse(s->spec.begin(), s->spec.end());
                   return std::nullopt;
                 },
                 {},
                 false,
                 "(program () (slice (use (array i64 (2 3) 1 2 3 4 5 6)) (spec 1 all)))"});

  out.push_back({"awhile_extra_iteration",
                 "`awhile` runs its body once more after the condition turns false",
                 {},
                 [](Acc& a, RewriteContext& c) -> std::optional<std::string> {
                   auto* w = std::get_if<ac::Awhile>(&a.node);
                   if (!w) return {};
                   std::string t = c.fresh();
                   return "(alet ((" + t + " " + text(a) + ")) (alet ((" + w->body.params[0].name +
                          " " + t + ")) " + text(*w->body.body) + "))";
                 },
                 {},
                 false,
                 "(program () (awhile (lambda ((s (array i64 0))) (map (lambda ((x i64)) (< x 3)) "
                 "s)) (lambda ((s (array i64 0))) (map (lambda ((x i64)) (+ x 1)) s)) "
                 "(unit 0)))"});

  out.push_back(
      {"fused_zipwith_linear_read",
       "fusion: `zipwith` reads its second producer at the row-major position of the "
       "result shape, not of the producer's own shape (fused runs only)",
       {},
       [](Acc& a, RewriteContext& c) -> std::optional<std::string> {
         auto* z = std::get_if<ac::ZipWith>(&a.node);
         int r = a.type.rank();
         if (!z || r < 2) return {};
         std::string x = c.fresh(), y = c.fresh(), i = c.fresh(), u = c.fresh(), v = c.fresh(),
                     sh = "(ix";
         for (int k = 0; k < r; ++k) {
           std::string kk = std::to_string(k);
           sh += " (min (proj " + kk + " (shape " + x + ")) (proj " + kk + " (shape " + y + ")))";
         }
         sh += ")";
         return "(alet ((" + x + " " + text(*z->a) + ") (" + y + " " + text(*z->b) +
                ")) (generate " + sh + " (lambda ((" + i + " (ix " + std::to_string(r) +
                "))) (let ((" + u + " (! " + x + " " + i + ")) (" + v + " (!! " + y +
                " (to-index " + sh + " " + i + ")))) " + apply_text(z->f, {u, v}, c) + "))))";
       },
       {},
       true,
       "(program () (zipwith (lambda ((a i64) (b i64)) (+ a b)) "
       "(use (array i64 (2 2) 1 2 3 4)) (use (array i64 (2 3) 10 20 30 40 50 60))))"});

  out.push_back({"vector_tail_dropped",
                 "the last element of a result whose size is not a multiple of the vector width "
                 "(8) is never written (stays 0)",
                 {},
                 {},
                 [](std::vector<Array>& results) {
                   for (Array& r : results)
                     if (r.rank() >= 1 && r.size() % 8 != 0) r = without_last(r);
                 },
                 false,
                 "(program () (map (lambda ((x i64)) (+ x 1)) (use (array i64 (3) 1 2 3))))"});
}

} // namespace strata::faults
