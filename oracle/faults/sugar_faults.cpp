// Faults aimed at the collectives that are everyday forms (docs/language.md,
// Everyday forms): compaction (`filter`, `compact`), the segmented scans,
// `stencil2`, `gather` and `scatter`. A checked program holds each one as
// the core forms it expands to (core/expand.h), whose arrays and variables
// are named after the form (`_cp/o`: compaction offsets; `_sg/e`: segment
// edges). Each fault finds its form by those names and breaks it the way a
// native kernel for that form typically goes wrong, so the harness is shown
// to catch bugs in these forms however an engine runs them.
#include "core/parser.h"
#include "oracle/faults/catalog.h"

namespace strata::faults {
namespace {

bool is_var(const AccPtr& a, const std::string& name) {
  const auto* v = std::get_if<ac::Var>(&a->node);
  return v && v->name == name;
}

ExpPtr exp_of(const std::string& t) {
  return parse_exp(t, "faulty.strata");
}

// Compaction places kept element j at its exclusive prefix count `_cp/o`;
// the bug uses the inclusive count (one slot late) and drops the write that
// falls past the end: the first slot keeps its default, the last kept element
// is lost.
std::optional<std::string> compact_inclusive(Acc& a, RewriteContext& c) {
  auto* p = std::get_if<ac::Permute>(&a.node);
  if (!p || !is_var(p->source, "_cp/v") || p->target.params.size() != 1) return {};
  std::string i = p->target.params[0].name, at = c.fresh();
  p->target.body = exp_of("(let ((_cp/j (to-index (shape _cp/v) " + i + ")) (" + at +
                          " (+ (!! _cp/o _cp/j) 1))) (if (and (== (!! _cp/k _cp/j) 1) (< " + at +
                          " (the _cp/t))) (ix " + at + ") (ignore 1)))");
  return std::nullopt;
}

// Each segment's first (scanl) or last (scanr) position `_sg/e` one later:
// the head flags of an inclusive instead of exclusive scan of the lengths.
std::optional<std::string> segment_edge_late(Acc& a, RewriteContext& c) {
  auto* l = std::get_if<ac::Alet>(&a.node);
  if (!l) return {};
  for (ac::Binding& b : l->bindings) {
    if (b.name != "_sg/e") continue;
    std::string x = c.fresh(), big = max_text(ScalarKind::I64);
    b.value = parse_acc("(map (lambda ((" + x + " i64)) (if (< " + x + " " + big + ") (+ " + x +
                            " 1) " + x + ")) " + text(*b.value) + ")",
                        "faulty.strata");
  }
  return std::nullopt;
}

// A segment's restart one chunk late: in a row the engine cuts into chunks
// (a scan of at least scan_chunked_from elements), a segment that starts
// inside a chunk restarts only at the next chunk's first element, as when a
// chunk's carry is applied past the flag. A right scan counts its chunks from
// the row's end. Each edge `_sg/e` moves to that element (out of the row: no
// restart at all).
std::optional<std::string> segment_restart_chunk_late(Acc& a, RewriteContext& c) {
  auto* l = std::get_if<ac::Alet>(&a.node);
  if (!l || c.order.scan_chunked_from == 0 || l->bindings.empty() || l->bindings[0].name != "_sg/a")
    return {};
  int r = l->bindings[0].value->type.rank();
  std::string n = "(proj " + std::to_string(r - 1) + " (shape _sg/a))";
  std::string from = std::to_string(c.order.scan_chunked_from);
  std::string chunk = std::to_string(c.order.scan_chunk);
  auto late = [&](const std::string& y) { // y rounded up to a multiple of the chunk
    return "(* (+ (quot " + y + " " + chunk + ") 1) " + chunk + ")";
  };
  for (ac::Binding& b : l->bindings) {
    if (b.name != "_sg/e") continue;
    auto* edges = std::get_if<ac::FoldSeg>(&b.value->node);
    auto* pick = edges ? std::get_if<ex::PrimApp>(&edges->f.body->node) : nullptr;
    if (!pick) return {};
    bool left = pick->op == Prim::Min; // scanl1seg's first positions; scanr1seg's last ones
    std::string x = c.fresh(), y = c.fresh();
    std::string body = left ? "(if (and (>= " + n + " " + from + ") (and (< " + x + " " + n +
                                  ") (/= (rem " + x + " " + chunk + ") 0))) " + late(x) + " " + x +
                                  ")"
                            : "(let ((" + y + " (- (- " + n + " 1) " + x + "))) (if (and (>= " + n +
                                  " " + from + ") (and (>= " + x + " 0) (/= (rem " + y + " " +
                                  chunk + ") 0))) (- (- " + n + " 1) " + late(y) + ") " + x + "))";
    b.value = parse_acc("(map (lambda ((" + x + " i64)) " + body + ") " + text(*b.value) + ")",
                        "faulty.strata");
  }
  return std::nullopt;
}

// stencil2's result has the intersection of both shapes; the bug launches it
// over the first array's shape, reading the second through its boundary past
// its edge.
std::optional<std::string> stencil2_first_shape(Acc& a, RewriteContext&) {
  auto* l = std::get_if<ac::Alet>(&a.node);
  if (!l || l->bindings.empty() || l->bindings[0].name != "_s2/a") return {};
  if (auto* g = std::get_if<ac::Generate>(&l->body->node)) g->shape = exp_of("(shape _s2/a)");
  return std::nullopt;
}

// A negative gather index reads from the end (Python's a[-1]) instead of
// raising a bounds error; the read keeps the form it names.
std::optional<std::string> gather_wraps(Acc& a, RewriteContext& c) {
  auto* g = std::get_if<ac::Generate>(&a.node);
  if (!g || g->f.params.size() != 1 || g->f.params[0].name != "_gather/k") return {};
  auto* r = std::get_if<ex::Read>(&g->f.body->node);
  if (!r) return {};
  std::string k = c.fresh();
  r->index = exp_of("(let ((" + k + " (proj 0 " + text(*r->index) + "))) (ix (if (< " + k +
                    " 0) (+ " + k + " (proj 0 (shape _gather/a))) " + k + ")))");
  return std::nullopt;
}

// Where several sources hit one target the first in source order wins (a
// scatter whose writes land in reverse order), not the last.
std::optional<std::string> scatter_first_wins(Acc& a, RewriteContext& c) {
  auto* p = std::get_if<ac::Permute>(&a.node);
  if (!p || p->combine.params.empty() || p->combine.params[0].name != "_scatter/new") return {};
  std::string s = c.fresh(), q = c.fresh(), t = p->target.params[0].name;
  std::string last = "(- (proj 0 (shape " + s + ")) 1)";
  return "(alet ((" + s + " " + text(*p->source) + ")) (permute " + lambda_text(p->combine) + " " +
         text(*p->defaults) + " (lambda ((" + q + " (ix 1))) (let ((" + t + " (ix (- " + last +
         " (proj 0 " + q + "))))) " + text(*p->target.body) + ")) (backpermute (shape " + s +
         ") (lambda ((" + q + " (ix 1))) (ix (- " + last + " (proj 0 " + q + ")))) " + s + ")))";
}

} // namespace

void add_sugar_faults(std::vector<Fault>& out) {
  out.push_back({"compact_inclusive_offsets",
                 "`filter`/`compact` place each kept element at its inclusive count (one slot "
                 "late): the first slot keeps its default, the last kept element is dropped",
                 {},
                 compact_inclusive,
                 {},
                 false,
                 "(program () (filter (lambda (x) (> x 1)) (use (array i64 (4) 1 2 3 4))))"});

  out.push_back({"segscan_head_one_late",
                 "segmented scans mark each segment's first (scanl) or last (scanr) element one "
                 "position late, so a segment's edge element joins its neighbour",
                 {},
                 segment_edge_late,
                 {},
                 false,
                 "(program () (scanl1seg + (use (array i64 (4) 1 2 3 4)) "
                 "(use (array i64 (2) 2 2))))"});

  Fault late{"segscan_restart_chunk_late",
             "segmented scans restart a segment that begins inside a chunk only at the next "
             "chunk (a chunk's carry applied past the segment's flag)",
             {},
             segment_restart_chunk_late,
             {},
             false,
             "(program () (scanl1seg + (use (array i64 (4) 1 2 3 4)) "
             "(use (array i64 (2) 1 3))))"};
  late.example_order = ReductionOrder::small();
  out.push_back(late);

  out.push_back({"stencil2_first_shape",
                 "`stencil2` has the first array's shape instead of the intersection of both "
                 "(the second array is read through its boundary past its edge)",
                 {},
                 stencil2_first_shape,
                 {},
                 false,
                 "(program () (stencil2 (3) clamp (3) clamp (lambda (p q) (+ (at p -1) (at q 1))) "
                 "(use (array i64 (4) 1 2 3 4)) (use (array i64 (3) 10 20 30))))"});

  out.push_back({"gather_negative_wraps",
                 "`gather` reads a negative index from the end of the source (Python's a[-1]) "
                 "instead of raising a bounds error",
                 {},
                 gather_wraps,
                 {},
                 false,
                 "(program () (gather (use (array i64 (2) 0 -1)) (use (array i64 (3) 5 6 7))))"});

  out.push_back({"scatter_first_wins",
                 "`scatter`: where several sources hit one target the first in source order "
                 "wins, not the last",
                 {},
                 scatter_first_wins,
                 {},
                 false,
                 "(program () (scatter (use (array i64 (3) 0 1 0)) (use (array i64 (2) 0 0)) "
                 "(use (array i64 (3) 7 8 9))))"});
}

} // namespace strata::faults
