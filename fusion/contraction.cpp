// The recogniser of fusion/contraction.h: the element function is evaluated
// abstractly, each value standing for a loop variable, an index of loop
// variables, or a read of a manifest array at such an index.
#include "fusion/contraction.h"

#include <map>
#include <string>
#include <variant>

#include "core/overload.h"

namespace strata {
namespace {

struct Unknown {};
struct LoopVar {
  int var;
};
struct LoopIndex {
  std::vector<int> vars;
};
struct ArrayRead {
  ContractionOperand operand;
};
using Value = std::variant<Unknown, LoopVar, LoopIndex, ArrayRead>;

class Abstract {
public:
  Abstract(const KernelGraph& g, const std::string& param, int rank) : g_(g) {
    LoopIndex all;
    for (int v = 0; v < rank; ++v)
      all.vars.push_back(v);
    env_[param] = all;
  }

  void bind(const std::string& name, Value v) { env_[name] = std::move(v); }

  Value eval(const Exp& e) {
    return std::visit(Overload{
                          [&](const ex::Var& x) -> Value {
                            auto it = env_.find(x.name);
                            return it == env_.end() ? Value{Unknown{}} : it->second;
                          },
                          [&](const ex::Let& x) -> Value {
                            auto saved = env_;
                            for (const ex::Binding& b : x.bindings) {
                              if (b.fn) return restore(saved, Unknown{});
                              env_[b.name] = eval(*b.value);
                            }
                            Value v = eval(*x.body);
                            return restore(saved, v);
                          },
                          [&](const ex::Proj& x) -> Value {
                            Value t = eval(*x.tuple);
                            auto* ix = std::get_if<LoopIndex>(&t);
                            if (!ix || x.index < 0 || size_t(x.index) >= ix->vars.size())
                              return Unknown{};
                            return LoopVar{ix->vars[size_t(x.index)]};
                          },
                          [&](const ex::Index& x) -> Value {
                            LoopIndex ix;
                            for (const ExpPtr& c : x.components) {
                              Value v = eval(*c);
                              auto* lv = std::get_if<LoopVar>(&v);
                              if (!lv) return Unknown{};
                              ix.vars.push_back(lv->var);
                            }
                            return ix;
                          },
                          [&](const ex::Read& x) -> Value {
                            auto* name = std::get_if<ac::Var>(&x.array->node);
                            if (!name) return Unknown{};
                            ArrayId id = g_.id_of(name->name);
                            Value v = eval(*x.index);
                            auto* ix = std::get_if<LoopIndex>(&v);
                            if (id < 0 || !ix || !distinct(ix->vars)) return Unknown{};
                            if (int(ix->vars.size()) != g_.arrays[size_t(id)].type.rank())
                              return Unknown{};
                            return ArrayRead{{id, ix->vars}};
                          },
                          [&](const auto&) -> Value { return Unknown{}; },
                      },
                      e.node);
  }

private:
  Value restore(std::map<std::string, Value>& saved, Value v) {
    env_.swap(saved);
    return v;
  }
  static bool distinct(const std::vector<int>& vars) {
    for (size_t a = 0; a < vars.size(); ++a)
      for (size_t b = a + 1; b < vars.size(); ++b)
        if (vars[a] == vars[b]) return false;
    return true;
  }

  const KernelGraph& g_;
  std::map<std::string, Value> env_;
};

// `e` is (op p0 p1) of the lambda's parameters named `first` and `second`, in that order.
bool is_binary_of(const Exp& e, Prim op, const std::string& first, const std::string& second) {
  auto* app = std::get_if<ex::PrimApp>(&e.node);
  if (!app || app->op != op || app->args.size() != 2) return false;
  auto* a = std::get_if<ex::Var>(&app->args[0]->node);
  auto* b = std::get_if<ex::Var>(&app->args[1]->node);
  return a && b && a->name == first && b->name == second;
}

} // namespace

std::optional<Contraction> find_contraction(const KernelGraph& g, const kn::Fold& fold) {
  const Type& elem = fold.input.type.elem();
  int rank = fold.input.type.rank();
  if (!elem.is_scalar() || rank < 2) return std::nullopt;
  ScalarKind kind = elem.scalar_kind();
  bool integer = kind == ScalarKind::I32 || kind == ScalarKind::I64;
  if (kind != ScalarKind::F32 && kind != ScalarKind::F64 && !integer) return std::nullopt;
  const Lambda& f = fold.f;
  if (f.params.size() != 2) return std::nullopt;
  const std::string &acc = f.params[0].name, &e = f.params[1].name;
  // Wrapping integer + gives the same bits in either operand order.
  if (!is_binary_of(*f.body, Prim::Add, acc, e) &&
      !(integer && is_binary_of(*f.body, Prim::Add, e, acc)))
    return std::nullopt;
  const Lambda& element = fold.input.elem;
  if (element.params.size() != 1) return std::nullopt;
  // The element: (* X Y), possibly under lets binding X and Y.
  Abstract abstract(g, element.params[0].name, rank);
  const Exp* body = element.body.get();
  while (auto* let = std::get_if<ex::Let>(&body->node)) {
    for (const ex::Binding& b : let->bindings) {
      if (b.fn) return std::nullopt;
      abstract.bind(b.name, abstract.eval(*b.value));
    }
    body = let->body.get();
  }
  auto* mul = std::get_if<ex::PrimApp>(&body->node);
  if (!mul || mul->op != Prim::Mul || mul->args.size() != 2) return std::nullopt;
  auto operand = [&](const Exp& a) -> std::optional<ContractionOperand> {
    Value v = abstract.eval(a);
    auto* read = std::get_if<ArrayRead>(&v);
    if (!read || g.arrays[size_t(read->operand.array)].type.elem() != elem) return std::nullopt;
    return read->operand;
  };
  auto x = operand(*mul->args[0]);
  auto y = operand(*mul->args[1]);
  if (!x || !y) return std::nullopt;
  return Contraction{kind, *x, *y};
}

} // namespace strata
