#include "core/combiner.h"

namespace strata {
namespace {

// Is `e` the variable `name`, projected at `k` when k >= 0?
bool is_operand(const Exp& e, const std::string& name, int k) {
  if (k >= 0) {
    const auto* p = std::get_if<ex::Proj>(&e.node);
    return p && p->index == k && is_operand(*p->tuple, name, -1);
  }
  const auto* v = std::get_if<ex::Var>(&e.node);
  return v && v->name == name;
}

// `(op a b)` or `(op b a)` on component k (-1: the scalars themselves).
std::optional<Prim> component_op(const Exp& e, const std::string& a, const std::string& b, int k) {
  const auto* p = std::get_if<ex::PrimApp>(&e.node);
  if (!p || p->args.size() != 2) return std::nullopt;
  const Exp &x = *p->args[0], &y = *p->args[1];
  if ((is_operand(x, a, k) && is_operand(y, b, k)) || (is_operand(x, b, k) && is_operand(y, a, k)))
    return p->op;
  return std::nullopt;
}

} // namespace

std::optional<std::vector<Prim>> componentwise_ops(const Lambda& f) {
  if (f.params.size() != 2 || f.params[0].name == f.params[1].name) return std::nullopt;
  const std::string &a = f.params[0].name, &b = f.params[1].name;
  const Exp& body = *f.body;
  if (const auto* t = std::get_if<ex::Tuple>(&body.node)) {
    std::vector<Prim> ops;
    for (size_t k = 0; k < t->elems.size(); ++k) {
      auto op = component_op(*t->elems[k], a, b, int(k));
      if (!op || !t->elems[k]->type.is_scalar()) return std::nullopt;
      ops.push_back(*op);
    }
    return ops;
  }
  if (auto op = component_op(body, a, b, -1)) return std::vector<Prim>{*op};
  return std::nullopt;
}

std::optional<BinaryCombiner> binary_combiner(const Lambda& f) {
  if (f.params.size() != 2 || f.params[0].name == f.params[1].name) return std::nullopt;
  const Type& t = f.params[0].type;
  if (!t.is_scalar() || !(f.params[1].type == t)) return std::nullopt;
  std::optional<Prim> op = component_op(*f.body, f.params[0].name, f.params[1].name, -1);
  if (!op) return std::nullopt;
  return BinaryCombiner{*op, t.scalar_kind()};
}

bool reorders_exactly(Prim op, ScalarKind kind) {
  if (kind == ScalarKind::Bool) return op == Prim::And || op == Prim::Or;
  if (is_float(kind)) return false;
  switch (op) {
  case Prim::Add:
  case Prim::Mul:
  case Prim::Min:
  case Prim::Max:
  case Prim::BAnd:
  case Prim::BOr:
  case Prim::BXor: return true;
  default: return false;
  }
}

bool commutes(Prim op, ScalarKind kind) {
  if (reorders_exactly(op, kind)) return true;
  return is_float(kind) && (op == Prim::Add || op == Prim::Mul);
}

bool commutes(const Lambda& f) {
  if (f.params.size() != 2) return false;
  std::optional<std::vector<Prim>> ops = componentwise_ops(f);
  if (!ops) return false;
  std::vector<ScalarKind> kinds = f.params[0].type.leaves();
  if (!(f.params[1].type == f.params[0].type) || kinds.size() != ops->size()) return false;
  for (size_t k = 0; k < kinds.size(); ++k)
    if (!commutes((*ops)[k], kinds[k])) return false;
  return true;
}

int chunk_lanes(const ReductionOrder& order, const Type& elem, const Lambda& f) {
  if (order.striding == Striding::every_function || commutes(f)) return fold_lanes(order, elem);
  return 1;
}

bool order_free(Prim op, ScalarKind kind) {
  return reorders_exactly(op, kind) || (is_float(kind) && (op == Prim::Min || op == Prim::Max));
}

} // namespace strata
