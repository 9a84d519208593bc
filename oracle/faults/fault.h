// Seeded faults for the test-only faulty engine (issue 5, item 5).
//
// The differential harness must be shown to catch realistic engine bugs
// before any real engine exists. Each Fault describes one such bug as a small
// rewrite of the checked program (an IR node replaced by the text of what a
// buggy engine would compute: a swapped operand, a shifted scan, a boundary
// off by one) and/or a post-processing of the results (a dropped vector tail).
// The faulty engine (faulty_engine.h) runs the rewritten program on the
// kernel graph evaluator, fused or not, so each fault is one named, described
// and switchable bug. `example` is a parameterless program whose result the
// fault changes; the unit tests prove every fault live on it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/array.h"
#include "core/error.h"
#include "core/ir.h"
#include "core/reduction_order.h"

namespace strata::faults {

// Fresh variable names for rewrite templates (`_f0`, `_f1`, ...: the
// generator and users never start a name with `_f` followed by a digit).
struct RewriteContext {
  // The order the engine was asked to run: a fault in a chunked reduction
  // (segmented_restart_chunk_late) uses its chunks.
  ReductionOrder order = ReductionOrder::blocked();
  int counter = 0;
  std::string fresh() { return "_f" + std::to_string(counter++); }
};

// A rewrite sees a node whose children are already rewritten; the node and
// its direct children still carry their checked types. It either mutates the
// node in place and returns nullopt, or returns the text of a replacement
// expression of the same type (parsed, then type-checked with the program).
using ExpRewrite = std::function<std::optional<std::string>(Exp&, RewriteContext&)>;
using AccRewrite = std::function<std::optional<std::string>(Acc&, RewriteContext&)>;
using ResultFixup = std::function<void(std::vector<Array>&)>;
// The association order a buggy engine runs, given the one it declares.
using OrderFault = std::function<ReductionOrder(const ReductionOrder&)>;
// The error a buggy engine raises instead of a correct one.
using ErrorFault = std::function<Error(const Error&)>;

struct Fault {
  std::string name;        // "scan_off_by_one"; the engine is "faulty:<name>"
  std::string description; // one line: what the buggy engine does
  ExpRewrite exp;          // may be empty
  AccRewrite acc;          // may be empty
  ResultFixup results;     // may be empty
  bool fused_only = false; // a fusion bug: unfused runs are correct
  std::string example;     // a parameterless program the fault changes
  OrderFault order = {};   // may be empty: runs the declared order
  ErrorFault error = {};   // may be empty: errors unchanged
  // Whether the engine declares the order it runs (an illegal order the
  // oracle must refuse), rather than the one it was asked for.
  bool declares_its_order = false;
  // The order the example must be compiled with for the fault to show
  // (the faults of declared orders need chunks the example reaches).
  ReductionOrder example_order = ReductionOrder::blocked();
};

// Every fault, in a fixed order.
const std::vector<Fault>& all_faults();
// The fault of that name, or nullptr.
const Fault* find_fault(const std::string& name);

// The program with the fault applied for an engine asked to run `order`: a
// fresh, type-checked copy.
Program apply_fault(const Fault& fault, const Program& program,
                    const ReductionOrder& order = ReductionOrder::blocked());

// Helpers for rewrite templates (rewrite.cpp).
std::string text(const Exp& e);           // print_exp on one line
std::string text(const Acc& a);           // print_acc on one line
std::string lambda_text(const Lambda& f); // (lambda ((x T) ...) body)
std::string apply_text(const Lambda& f, const std::vector<std::string>& args, RewriteContext& c);
// (ix (proj 0 I) ... (proj r-2 I) LAST): index or shape I of rank r with its last component
// replaced.
std::string index_with_last(const std::string& i, int r, const std::string& last);
// The fold or fold1 `f` again, over its input (bound to a fresh array T) read
// through a gather: `(backpermute SHAPE (lambda ((I (ix R))) SOURCE) T)`, with
// SHAPE = shape(T) and SOURCE = source(T, I); R is the input's rank.
std::string fold_through_gather(
    const ac::Fold& f, RewriteContext& c,
    const std::function<std::string(const std::string&)>& shape,
    const std::function<std::string(const std::string&, const std::string&)>& source);
std::string literal_text(ScalarKind k, int64_t v); // 0 -> "0i32"
std::string min_text(ScalarKind k);                // smallest value, e.g. "-128i8"
std::string max_text(ScalarKind k);                // largest value, e.g. "127i8"

} // namespace strata::faults
