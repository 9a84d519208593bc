#include "oracle/gen/coverage.h"

#include <cstdio>
#include <variant>

#include "core/combiner.h"
#include "core/ir_walk.h"
#include "core/overload.h"
#include "core/sugar.h"

namespace strata::gen {
namespace {

const char* const kExpForms[] = {"literal",    "variable", "let",   "if",    "tuple",
                                 "proj",       "ix",       "cast",  "while", "shape",
                                 "size",       "!",        "!!",    "the",   "to-index",
                                 "from-index", "ignore",   "trace", "at"};
const char* const kAccForms[] = {
    "variable",  "alet",  "atuple",  "aproj",  "use",     "unit",        "generate",
    "fill",      "map",   "zipwith", "fold",   "fold1",   "foldseg",     "scanl",
    "scanl1",    "scanr", "scanr1",  "scanl'", "permute", "backpermute", "reshape",
    "replicate", "slice", "stencil", "awhile", "atrace",  "acond"};
const char* const kBoundaries[] = {"clamp", "mirror", "wrap", "constant"};

bool parsed_define(const Program& p, const std::string& name) {
  for (const Define& d : p.defines)
    if (d.name == name) return true;
  return false;
}

void add_type(std::set<std::string>& out, const Type& t) {
  for (ScalarKind k : t.leaves())
    out.insert("type:" + std::string(scalar_name(k)));
}

} // namespace

std::set<std::string> features(Program& p) {
  std::set<std::string> out;
  auto on_exp = [&](Exp& e) {
    if (const auto* prim = std::get_if<ex::PrimApp>(&e.node))
      out.insert("prim:" + std::string(prim_name(prim->op)));
    else
      out.insert("exp:" + std::string(form_name(e.node)));
  };
  auto on_acc = [&](Acc& a) {
    out.insert("acc:" + std::string(form_name(a.node)));
    if (const auto* s = std::get_if<ac::Stencil>(&a.node))
      out.insert("boundary:" + std::string(kBoundaries[int(s->boundary.kind)]));
    if (const auto* r = std::get_if<ac::Replicate>(&a.node))
      for (const auto& item : r->spec)
        out.insert(item.is_all() ? "spec:all" : "spec:extent");
    if (const auto* s = std::get_if<ac::Slice>(&a.node))
      for (const auto& item : s->spec)
        out.insert(item.is_all() ? "spec:all" : "spec:extent");
    // Reductions whose function does not commute: engines must run them in
    // contiguous runs (docs/language.md, Legal orders), and over tuples.
    auto reduced_by = [&](const Lambda& f, const Acc& input) {
      if (commutes(f)) return;
      out.insert("combiner:non-commutative");
      if (input.type.is_array() && input.type.elem().is_tuple())
        out.insert("combiner:non-commutative-tuple");
    };
    if (const auto* f = std::get_if<ac::Fold>(&a.node)) reduced_by(f->f, *f->a);
    if (const auto* s = std::get_if<ac::Scan>(&a.node)) reduced_by(s->f, *s->a);
    if (const auto* s = std::get_if<ac::FoldSeg>(&a.node)) reduced_by(s->f, *s->a);
    if (a.type.is_array()) {
      out.insert("rank:" + std::to_string(a.type.rank()));
      add_type(out, a.type.elem());
    }
  };
  walk_nodes(*p.body, on_exp, on_acc);
  return out;
}

std::set<std::string> surface_features(Program& parsed) {
  std::set<std::string> out;
  for (const Define& d : parsed.defines)
    out.insert(d.array_body ? "fn:adefine" : "fn:define");
  auto lambda = [&](const Lambda& f) {
    if (!f.written_as.empty()) out.insert("fn:by-name");
    for (const Param& p : f.params)
      if (!p.typed && f.written_as.empty()) out.insert("param:inferred");
  };
  auto operands = [&](const std::vector<Operand>& ops) {
    for (const Operand& o : ops)
      if (o.fn) lambda(*o.fn);
  };
  auto on_exp = [&](Exp& e) {
    std::visit(Overload{[&](const ex::Call& c) {
                          if (c.name == "for") out.insert("sugar:for");
                          operands(c.args);
                        },
                        [&](const ex::Let& l) {
                          for (const ex::Binding& b : l.bindings)
                            if (b.fn) {
                              out.insert("fn:let");
                              lambda(*b.fn);
                            }
                        },
                        [&](const ex::While& w) {
                          lambda(w.cond);
                          lambda(w.step);
                        },
                        [](const auto&) {}},
               e.node);
  };
  auto on_acc = [&](Acc& a) {
    std::visit(Overload{[&](const ac::Call& c) {
                          if (!parsed_define(parsed, c.name)) out.insert("sugar:" + c.name);
                          operands(c.args);
                        },
                        [&](const auto& n) {
                          if constexpr (requires { n.f; }) lambda(n.f);
                          if constexpr (requires { n.combine; }) {
                            lambda(n.combine);
                            lambda(n.target);
                          }
                          if constexpr (requires { n.source_index; }) lambda(n.source_index);
                        }},
               a.node);
  };
  walk_nodes(*parsed.body, on_exp, on_acc);
  for (Define& d : parsed.defines) {
    if (d.array_body) walk_nodes(*d.array_body, on_exp, on_acc);
    if (d.scalar_body) {
      // a scalar body: walk it through a unit around it
      Acc holder{ac::Unit{d.scalar_body}, {}, {}};
      walk_nodes(holder, on_exp, on_acc);
    }
  }
  return out;
}

std::vector<std::string> required_features() {
  std::vector<std::string> keys;
  for (const char* f : kExpForms)
    keys.push_back(std::string("exp:") + f);
  for (int i = 0; i < kNumPrims; ++i)
    keys.push_back("prim:" + std::string(prim_name(Prim(i))));
  for (const char* f : kAccForms)
    keys.push_back(std::string("acc:") + f);
  for (const char* b : kBoundaries)
    keys.push_back(std::string("boundary:") + b);
  keys.push_back("spec:all");
  keys.push_back("spec:extent");
  for (int k = 0; k < kNumScalarKinds; ++k)
    keys.push_back("type:" + std::string(scalar_name(ScalarKind(k))));
  for (int r = 0; r <= 3; ++r)
    keys.push_back("rank:" + std::to_string(r));
  for (std::string_view f : sugar_names())
    keys.push_back("sugar:" + std::string(f));
  for (const char* f : {"fn:define", "fn:adefine", "fn:let", "fn:by-name", "param:inferred"})
    keys.push_back(f);
  keys.push_back("combiner:non-commutative");
  keys.push_back("combiner:non-commutative-tuple");
  return keys;
}

std::vector<std::string> CoverageReport::missing() const {
  std::vector<std::string> out;
  for (const std::string& k : required_features()) {
    auto it = programs_with.find(k);
    if (it == programs_with.end() || it->second == 0) out.push_back(k);
  }
  return out;
}

std::string CoverageReport::table() const {
  std::string s = "coverage over " + std::to_string(programs) + " generated programs (" +
                  std::to_string(runtime_errors) + " raised a run-time error)\n";
  char line[160];
  for (const std::string& k : required_features()) {
    auto it = programs_with.find(k);
    int64_t n = it == programs_with.end() ? 0 : it->second;
    std::snprintf(line, sizeof line, "  %-22s %8lld  %6.2f%%%s\n", k.c_str(), (long long)n,
                  programs ? 100.0 * double(n) / double(programs) : 0.0, n == 0 ? "  MISSING" : "");
    s += line;
  }
  return s;
}

} // namespace strata::gen
