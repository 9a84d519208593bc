// The type-directed program builder behind the random program generator.
//
// It writes program *text* (the canonical s-expression form), which is then
// parsed and checked like any user program: writing text keeps each rule a
// line or two, and the parser gives every node a source position, so run-time
// errors of generated programs name `file:line:col` as users' would.
//
// Generation is type-directed: `acc(elem, rank, depth)` returns an array
// expression of type (array elem rank) chosen among the forms that can produce
// one, `exp(type, scope, depth)` a scalar expression of that type. Depth
// budgets keep programs small; every decision comes from a Choices source, the
// first option being the simplest (see choices.h). Run-time errors are avoided
// by construction most of the time (guarded divisors, indices taken modulo the
// shape, a counter bounding every loop) and allowed on purpose in a small
// fraction of programs, since errors are compared too. Reductions use only
// associative operators: + * min max band bor bxor and the non-commutative
// first/last non-zero on integers (not for permute, whose combiner must
// commute), and or on bools, + min max on floats; integers are also reduced
// in monoids that do not commute (monoid_reduction). A rank-1 shape is
// sometimes several chunks of the small order long (5-40 elements), and one in
// a hundred is longer than every threshold of the blocked order.
#pragma once

#include <string>
#include <vector>

#include "core/types.h"
#include "oracle/gen/choices.h"

namespace strata::gen {

struct Limits {
  int acc_depth = 3; // nesting of collective operations
  int exp_depth = 2; // nesting of scalar operations inside one function
  int max_rank = 3;
  int error_percent = 2; // how often a guard is left out on purpose
  bool defines = true;   // calls of `define`d functions (the text must then carry them)
};

struct Named {
  std::string name;
  Type type;
};

// The scalar variables a scalar expression may use, and the stencil window in scope.
struct ExpScope {
  std::vector<Named> vars;
  const Named* window = nullptr;     // type (window E R)
  std::vector<int64_t> window_sizes; // of the enclosing stencil
};

class Builder {
public:
  Builder(Choices& c, Limits limits) : c_(c), lim_(limits) {}

  // ---- types
  ScalarKind scalar_kind();
  ScalarKind reducible_kind(); // scalar kinds with associative operators (all of them)
  Type elem_type();            // a scalar, sometimes a pair
  int rank(int lo = 0) { return c_.range(lo, lim_.max_rank); }

  // ---- array level; `arrays` is the array-variable scope
  std::string acc(const Type& elem, int rank, int depth);
  // The array variables in scope (program parameters, alet and awhile bindings).
  std::vector<Named>& arrays() { return arrays_; }

  // ---- scalar level
  std::string exp(const Type& t, ExpScope& s, int depth);
  // An expression evaluated at array level (shape, seed, condition): no scalar variables.
  std::string top_exp(const Type& t, int depth);
  std::string literal(ScalarKind k);
  // `(lambda ((x T) ...) body)` with a body of type `result`.
  std::string lambda(const std::vector<Type>& params, const Type& result, int depth);
  // The same, in parts: fresh parameter names, the body, the whole text.
  struct LambdaText {
    std::vector<std::string> names;
    std::string body, text;
  };
  LambdaText lambda_parts(const std::vector<Type>& params, const Type& result, int depth);
  // An associative combining function on k; `commutative` (permute's
  // combiners) excludes the non-commutative ones (first/last non-zero).
  std::string reduction_op(ScalarKind k, bool commutative = false);
  // A fold, scan or segmented reduction of integers lifted into a monoid that
  // does not commute (affine maps, 2x2 matrices, the first maximum with its
  // position, the segmented sum), projected back (monoid_gen.cpp).
  std::string monoid_reduction(const Type& elem, int rank, int depth);

  std::string fresh(const char* prefix) { return prefix + std::to_string(counter_++); }
  // The `define`s and `adefine`s the program's calls need, in order.
  const std::vector<std::string>& defines() const { return defines_; }
  Choices& choices() { return c_; }
  const Limits& limits() const { return lim_; }

private:
  // scalar helpers (exp_gen.cpp)
  std::string scalar_exp(ScalarKind k, ExpScope& s, int depth);
  std::string scalar_leaf(ScalarKind k, ExpScope& s);
  std::string tuple_exp(const Type& t, ExpScope& s, int depth);
  std::string bool_exp(ExpScope& s, int depth);
  std::string guarded_divide(const std::string& op, ScalarKind k, ExpScope& s, int depth);
  std::string loop_exp(const Type& t, ExpScope& s, int depth);
  std::string let_exp(const Type& t, ExpScope& s, int depth);
  std::string read_exp(const Type& t, ExpScope& s, int depth, bool linear);
  std::string index_exp(int rank, ExpScope& s, int depth);
  std::string in_range_index(const std::string& array, int rank, ExpScope& s, int depth);
  std::string component(const Type& from, const std::string& text, const Type& want);
  bool can_produce(const Type& from, const Type& want) const;
  const Named* pick_var(const std::vector<Named>& vars, const Type& want, bool allow_proj);

  // array helpers (acc_gen.cpp)
  std::string acc_leaf(const Type& elem, int rank);
  std::string use_literal(const Type& elem, int rank);
  std::string shape_exp(int rank);
  std::string extent_exp();
  std::string fold_like(const Type& elem, int rank, int depth);
  std::string scan_like(const Type& elem, int rank, int depth);
  std::string foldseg(const Type& elem, int rank, int depth);
  std::string permute(const Type& elem, int rank, int depth);
  std::string backpermute(const Type& elem, int rank, int depth);
  std::string reshape(const Type& elem, int rank, int depth);
  std::string replicate(const Type& elem, int rank, int depth);
  std::string slice(const Type& elem, int rank, int depth);
  std::string stencil(const Type& elem, int rank, int depth);
  std::string awhile(const Type& elem, int rank, int depth);
  std::string alet(const Type& elem, int rank, int depth);
  // the everyday forms and functions (sugar_gen.cpp)
  std::string sugar(const Type& elem, int rank, int depth);
  std::string segments(const std::string& n);
  std::string define_acc(const Type& elem, int rank, int depth);
  std::string define_exp(const Type& t, ExpScope& s, int depth);
  std::string let_function(const Type& t, ExpScope& s, int depth);
  // Binds `value` to a fresh array variable around body(name): `(alet ((t value)) body)`.
  template <class F> std::string with_array(const std::string& value, const Type& type, F body);

  Choices& c_;
  Limits lim_;
  std::vector<Named> arrays_;
  std::vector<std::string> defines_;
  int counter_ = 0;
};

template <class F>
std::string Builder::with_array(const std::string& value, const Type& type, F body) {
  std::string name = fresh("t");
  arrays_.push_back({name, type});
  std::string b = body(name);
  arrays_.pop_back();
  return "(alet ((" + name + " " + value + ")) " + b + ")";
}

} // namespace strata::gen
