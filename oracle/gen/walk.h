// Visiting the direct sub-expressions of an IR node (scalar and array), for
// passes that only need to reach every node: coverage counts, mutations, the
// tolerance analysis' reference search. Function bodies are children too.
#pragma once

#include <functional>

#include "core/ir.h"

namespace strata::gen {

using ExpVisitor = std::function<void(Exp&)>;
using AccVisitor = std::function<void(Acc&)>;

void for_each_child(Exp& e, const ExpVisitor& on_exp, const AccVisitor& on_acc);
void for_each_child(Acc& a, const ExpVisitor& on_exp, const AccVisitor& on_acc);

// Calls the visitors on `a` and every node below it, parents first.
void walk(Acc& a, const ExpVisitor& on_exp, const AccVisitor& on_acc);

} // namespace strata::gen
