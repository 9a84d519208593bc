#include "fusion/element_abstraction.h"

#include "core/overload.h"

namespace strata::abstract {
namespace {

bool distinct(const std::vector<int>& vars) {
  for (size_t a = 0; a < vars.size(); ++a)
    for (size_t b = a + 1; b < vars.size(); ++b)
      if (vars[a] == vars[b]) return false;
  return true;
}

} // namespace

ElementAbstraction::ElementAbstraction(const KernelGraph& g, const std::string& param, int rank)
    : g_(g) {
  LoopIndex all;
  for (int v = 0; v < rank; ++v)
    all.vars.push_back(v);
  env_[param] = all;
}

Value ElementAbstraction::eval(const Exp& e) {
  return std::visit(Overload{
                        [&](const ex::Var& x) -> Value {
                          auto it = env_.find(x.name);
                          return it == env_.end() ? Value{Unknown{}} : it->second;
                        },
                        [&](const ex::Let& x) -> Value {
                          auto saved = env_;
                          Value v = Unknown{};
                          bool functions = false;
                          for (const ex::Binding& b : x.bindings) {
                            if (b.fn) {
                              functions = true;
                              break;
                            }
                            Value bound = eval(*b.value);
                            bound_.push_back(bound);
                            env_[b.name] = std::move(bound);
                          }
                          if (!functions) v = eval(*x.body);
                          env_.swap(saved);
                          return v;
                        },
                        [&](const ex::Proj& x) -> Value {
                          Value t = eval(*x.tuple);
                          if (auto* ix = std::get_if<LoopIndex>(&t)) {
                            if (x.index < 0 || size_t(x.index) >= ix->vars.size()) return Unknown{};
                            return LoopVar{ix->vars[size_t(x.index)]};
                          }
                          if (auto* read = std::get_if<ArrayRead>(&t)) {
                            if (!read->type.is_tuple() || x.index < 0 ||
                                size_t(x.index) >= read->type.elems().size())
                              return Unknown{};
                            ArrayRead part = *read;
                            for (int k = 0; k < x.index; ++k)
                              part.first_leaf += read->type.elems()[size_t(k)].leaves().size();
                            part.type = read->type.elems()[size_t(x.index)];
                            part.leaf_count = part.type.leaves().size();
                            return part;
                          }
                          return Unknown{};
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
                          const Type& t = g_.arrays[size_t(id)].type;
                          if (int(ix->vars.size()) != t.rank()) return Unknown{};
                          return ArrayRead{id, ix->vars, t.elem(), 0, t.elem().leaves().size()};
                        },
                        [&](const auto&) -> Value { return Unknown{}; },
                    },
                    e.node);
}

bool ElementAbstraction::bindings_within(std::initializer_list<const ArrayRead*> reads) const {
  for (const Value& v : bound_) {
    if (std::holds_alternative<LoopVar>(v) || std::holds_alternative<LoopIndex>(v)) continue;
    auto* read = std::get_if<ArrayRead>(&v);
    if (!read) return false;
    bool among = false;
    for (const ArrayRead* r : reads)
      among = among || (r->array == read->array && r->vars == read->vars);
    if (!among) return false;
  }
  return true;
}

} // namespace strata::abstract
