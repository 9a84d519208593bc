// `explain`: why does this output element have this value?
//
// A demand-driven evaluator of one element of a program's result. Starting
// from the output element it follows the program back to the input elements
// it read, and records the evaluation as a tree: every scalar sub-expression
// with its value, every array read with its index and value, every reduction
// summarised (length, seed, the partial results at the start and at the end of
// the row, the elements those steps read), loops by their first and last
// iterations, and permute by the source elements that land on the element.
//
// It is the interpreter's meaning, computed a second way: the primitives and
// casts are the interpreter's (interpreter/primitives.h), element reads and
// writes are value.h's, boundaries core/boundary.h's, and arrays it needs
// whole (a reduction's source, a loop's state) come from interpret_acc. Big
// trees are cut: at most `max_nodes` nodes, then "... N more" markers.
//
// `strata explain` prints these trees; `strata check` prints one for the first
// element where an engine and the oracle disagree, and the counterexample
// bundles of the differential harness are to store one too.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/array.h"
#include "core/ir.h"

namespace strata {

struct ExplainNode {
  std::string what;  // the expression or read, e.g. "(* x x)", "input `xs` (3)"
  std::string value; // its value as value_str writes it; empty for pure notes
  std::string with;  // the scalar variables it uses: "x = 1.5, y = 2"
  SrcLoc loc;        // where it is in the program, when known
  std::vector<ExplainNode> children;
  int64_t omitted = 0; // sub-evaluations left out of the tree ("... N more")
};

struct ExplainOptions {
  int64_t max_nodes = 600; // the whole tree; later sub-trees are cut to one line
  int edge = 2;            // steps shown at each end of a reduction or loop
};

enum class ExplainFormat { Text, Json };

// The tree for element `at` of result `result` (results flattened as
// interpret() returns them). Throws Error(Usage) for a result number or index
// out of range, and the program's own run-time error if it fails.
ExplainNode explain_tree(const Program& program, const std::vector<Array>& inputs, size_t result,
                         const Index& at, const ExplainOptions& options = {});

// Indented text, two spaces a level: `what = value  with x = 1, y = 2  @line:col`.
std::string render_text(const ExplainNode& tree);
// {"what": ..., "value": ..., "with": ..., "loc": "file:line:col", "omitted": N,
//  "children": [...]}
std::string render_json(const ExplainNode& tree);

// explain_tree rendered in the given format (what bundles and `check` store).
std::string explain_element(const Program& program, const std::vector<Array>& inputs, size_t result,
                            const Index& at, ExplainFormat format,
                            const ExplainOptions& options = {});

} // namespace strata
