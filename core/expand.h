// Expansion of calls (docs/language.md, Functions and Everyday forms): the
// pieces the type checker (core/check.cpp) replaces an ex::Call / ac::Call
// with. A call of a defined function becomes its body, copied with every
// position marked as inside that call (SrcLoc::via), so that errors name both
// the call and the definition; a sugar form (core/sugar.h) becomes the core
// forms below, built from its operands once they are checked. The names the
// expansions bind start with `_` and hold a `/` (`_take/a`), so they cannot
// capture a name of the program's.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/ir.h"

namespace strata {

std::shared_ptr<const CallSite> call_site(const std::string& function, const SrcLoc& call);

// A deep copy whose positions (nodes, lambdas, bindings) are inside `via`
// (a null `via` keeps them as they are).
ExpPtr clone_at(const ExpPtr& e, const std::shared_ptr<const CallSite>& via);
AccPtr clone_at(const AccPtr& a, const std::shared_ptr<const CallSite>& via);
Lambda clone_at(const Lambda& f, const std::shared_ptr<const CallSite>& via);

// `(let ((p v) ...) body)` applying `f` to the argument expressions (scalar
// code). A written parameter type must equal the argument's (`what` names the
// form in the message).
ExpPtr apply(const Lambda& f, std::vector<ExpPtr> args, const std::vector<Type>& arg_types,
             std::string_view what, const SrcLoc& loc);

// The core form of a sugar call, unchecked. `types` holds the checked type of
// each array and scalar operand (a function operand's entry is unused).
AccPtr expand_sugar(const ac::Call& c, const std::vector<Type>& types, const SrcLoc& loc);
ExpPtr expand_sugar(const ex::Call& c, const std::vector<Type>& types, const SrcLoc& loc);

} // namespace strata
