// Scalar code generation: Exp IR -> CUDA C++ statements (internal to cuda/).
//
// A value is a list of C++ expressions, one per scalar leaf (tuples and
// indices are free). Statements go to a string; `if`, `and`, `or` and
// `while` become C++ control flow, so an untaken branch is never evaluated.
// Operations that can fail (integer division, reads, index conversions)
// report to the error slot through s_fail (prelude) and then yield a harmless
// value, so a failing thread runs on without undefined behaviour.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/runtime_errors.h"
#include "cuda/codegen.h"

namespace strata::cuda {

struct Val {
  Type type;
  std::vector<std::string> leaves;
};

// C++ type name of a scalar leaf in generated code ("i32", "f64", "bool").
std::string c_type(ScalarKind k);
// A literal of kind k in generated code, exact to the bit.
std::string c_literal(const Scalar& v);

// The window of a stencil function being generated.
struct WindowGen {
  std::string name;                // the window parameter's name
  std::vector<std::string> center; // index components of the element computed
  ArrayId array = -1;
  int boundary = 0; // s_boundary kind: 0 clamp, 1 mirror, 2 wrap, 3 constant
  Val constant;     // for a constant boundary
};

class ScalarGen {
public:
  ScalarGen(const KernelGraph& g, Generated& out, std::string& code, int indent)
      : g_(g), out_(out), code_(code), indent_(indent) {}

  // Binds the parameters to `args`, emits the body, returns its value.
  Val apply(const Lambda& f, const std::vector<Val>& args);
  Val exp(const Exp& e);
  // A new variable of kind k initialised to `init`.
  std::string var(ScalarKind k, const std::string& init);
  // Fresh variables holding a copy of v (so later assignments do not alias).
  Val copy(const Val& v);
  void assign(const Val& to, const Val& from);
  void line(const std::string& s);
  void open(const std::string& s); // "if (c) {" and indent
  void close(const std::string& s = "}");
  void otherwise(); // "} else {"
  std::string fresh();

  // Table accessors for array `id` (graph array or scratch slot).
  std::string shape_word(ArrayId id, int k) const;
  std::string size_word(ArrayId id) const;
  std::string leaf_ptr(ArrayId id, size_t leaf) const; // typed pointer expression
  // Writes v as element `pos` of array `id`.
  void store(ArrayId id, const std::string& pos, const Val& v);
  // Element `pos` of array `id` (no bounds check).
  Val load(ArrayId id, const std::string& pos);

  std::optional<WindowGen> window;

private:
  const KernelGraph& g_;
  Generated& out_;
  std::string& code_;
  int indent_;
  std::vector<std::pair<std::string, Val>> env_;
  int counter_ = 0;

  int site(ErrorSite s);
  ArrayId array_of(const Acc& a) const;
  Val prim(const ex::PrimApp& p, const Exp& e);
  Val cast(const Val& a, ScalarKind to);
  // `names`: the operation and the program's array name a bounds error gives.
  Val read(ArrayId id, const std::vector<std::string>& ix, const Exp& e, const ReadNames& names);
};

} // namespace strata::cuda
