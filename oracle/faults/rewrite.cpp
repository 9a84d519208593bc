// Applying a fault: a fresh copy of the program, rewritten bottom-up, checked.
#include <limits>

#include "core/check.h"
#include "core/expand.h"
#include "core/ir_walk.h"
#include "core/parser.h"
#include "core/printer.h"
#include "oracle/faults/fault.h"

namespace strata::faults {

Program apply_fault(const Fault& fault, const Program& program, const ReductionOrder& order) {
  // A deep copy, not the program printed and parsed again: positions, the
  // calls an error happened in and the forms a bounds error names (those of
  // the everyday forms' expansions) stay the user's, so that a fault changes
  // only what it says it changes. The definitions are left behind: the
  // checked body holds their expansions.
  require_checked(program);
  Program copy;
  copy.params = program.params;
  copy.body = clone_at(program.body, nullptr);
  copy.loc = program.loc;
  RewriteContext ctx;
  ctx.order = order;
  std::function<void(Exp&)> on_exp;
  std::function<void(Acc&)> on_acc;
  on_exp = [&](Exp& e) {
    for_each_child(e, on_exp, on_acc);
    if (!fault.exp) return;
    if (auto t = fault.exp(e, ctx)) {
      Type type = e.type;
      ExpPtr replacement = parse_exp(*t, "faulty.strata");
      e = std::move(*replacement);
      e.type = type;
    }
  };
  on_acc = [&](Acc& a) {
    for_each_child(a, on_exp, on_acc);
    if (!fault.acc) return;
    if (auto t = fault.acc(a, ctx)) {
      Type type = a.type;
      AccPtr replacement = parse_acc(*t, "faulty.strata");
      a = std::move(*replacement);
      a.type = type;
    }
  };
  on_acc(*copy.body);
  check_program(copy);
  return copy;
}

std::string text(const Exp& e) {
  return print_exp(e);
}

std::string text(const Acc& a) {
  return print_acc(a);
}

std::string lambda_text(const Lambda& f) {
  std::string s = "(lambda (";
  for (size_t i = 0; i < f.params.size(); ++i)
    s += (i ? " (" : "(") + f.params[i].name + " " + f.params[i].type.str() + ")";
  return s + ") " + text(*f.body) + ")";
}

std::string apply_text(const Lambda& f, const std::vector<std::string>& args, RewriteContext& c) {
  // Arguments are bound to fresh names first, so that an argument mentioning
  // a parameter's name is not captured by the sequential `let`.
  std::string outer = "(let (", inner = "(let (";
  for (size_t i = 0; i < args.size(); ++i) {
    std::string tmp = c.fresh();
    outer += "(" + tmp + " " + args[i] + ") ";
    inner += "(" + f.params[i].name + " " + tmp + ") ";
  }
  return outer + ") " + inner + ") " + text(*f.body) + "))";
}

std::string index_with_last(const std::string& i, int r, const std::string& last) {
  std::string s = "(ix";
  for (int k = 0; k + 1 < r; ++k)
    s += " (proj " + std::to_string(k) + " " + i + ")";
  return s + " " + last + ")";
}

std::string fold_through_gather(
    const ac::Fold& f, RewriteContext& c,
    const std::function<std::string(const std::string&)>& shape,
    const std::function<std::string(const std::string&, const std::string&)>& source) {
  int r = f.a->type.rank();
  std::string t = c.fresh(), i = c.fresh();
  std::string input = "(backpermute " + shape(t) + " (lambda ((" + i + " (ix " + std::to_string(r) +
                      "))) " + source(t, i) + ") " + t + ")";
  std::string seed = f.seed ? " " + text(*f.seed) : "";
  return "(alet ((" + t + " " + text(*f.a) + ")) (" + (f.seed ? "fold " : "fold1 ") +
         lambda_text(f.f) + seed + " " + input + "))";
}

std::string literal_text(ScalarKind k, int64_t v) {
  return dispatch_kind(k, [&](auto tag) {
    using T = decltype(tag);
    return format_literal(Scalar::make(static_cast<T>(v)));
  });
}

std::string min_text(ScalarKind k) {
  return dispatch_kind(k, [&](auto tag) {
    using T = decltype(tag);
    return format_literal(Scalar::make(std::numeric_limits<T>::lowest()));
  });
}

std::string max_text(ScalarKind k) {
  return dispatch_kind(k, [&](auto tag) {
    using T = decltype(tag);
    return format_literal(Scalar::make(std::numeric_limits<T>::max()));
  });
}

const Fault* find_fault(const std::string& name) {
  for (const Fault& f : all_faults())
    if (f.name == name) return &f;
  return nullptr;
}

} // namespace strata::faults
