// The typed IR of Strata programs (docs/language.md, Exp and Acc).
//
// Two syntactic classes, as in Accelerate: `Exp` nodes compute one scalar (or
// tuple) value, `Acc` nodes compute whole arrays. Each class is a variant of
// one plain struct per form, so every pass is a `std::visit` with one case per
// form. Nodes carry their source position and, after type checking, their type.
// The C++ front end and the text parser both build this IR.
#pragma once

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "core/array.h"
#include "core/error.h"
#include "core/prim.h"
#include "core/types.h"

namespace strata {

struct Exp;
struct Acc;
using ExpPtr = std::shared_ptr<Exp>;
using AccPtr = std::shared_ptr<Acc>;

// `typed` is false when the text omits the type (`(lambda (a b) ...)`): the
// checker infers it and the printer leaves it out again.
struct Param {
  std::string name;
  Type type;
  SrcLoc loc;
  bool typed = true;
};

// A scalar function, e.g. `(lambda ((a f32) (b f32)) (+ a b))`. `written_as`
// is set when the text named a function instead (`+`, `sq`): then the
// params are untyped and the body applies that function to them.
struct Lambda {
  std::vector<Param> params;
  ExpPtr body;
  SrcLoc loc;
  std::string written_as = {};
};

// An array function (the two functions of `awhile`).
struct ALambda {
  std::vector<Param> params;
  AccPtr body;
  SrcLoc loc;
};

// An operand of a call: an array, a scalar or a function (exactly one is
// set); or, for `stencil2`, a window's sizes, or a boundary (`boundary` >= 0
// is an ac::BoundaryKind, `scalar` then holds a constant boundary's value).
struct Operand {
  AccPtr array;
  ExpPtr scalar;
  std::shared_ptr<Lambda> fn;
  std::vector<int64_t> window = {};
  int boundary = -1;
};

// ---------------------------------------------------------------- scalar forms
namespace ex {
struct Const { Scalar value; };
struct Var { std::string name; };
struct Binding { std::string name; ExpPtr value; SrcLoc loc; std::shared_ptr<Lambda> fn = {}; }; // value or (f (lambda ...))
struct Let { std::vector<Binding> bindings; ExpPtr body; };       // sequential
struct If { ExpPtr cond, then_branch, else_branch; };
struct Tuple { std::vector<ExpPtr> elems; };
struct Proj { int index; ExpPtr tuple; };
struct Index { std::vector<ExpPtr> components; };                 // (ix e ...)
struct Cast { ScalarKind target; ExpPtr arg; };
struct While { Lambda cond, step; ExpPtr init; };
struct ShapeOf { AccPtr array; };                                 // (shape A)
struct SizeOf { AccPtr array; };                                  // (size A)
// `origin`, when set, is the operation that a bounds error names instead of
// `!` / `!!` / `to-index`: fusion turns a fused `backpermute` into such a read.
// `source`, when set, is the program's name for the array that fusion renamed
// to a manifest name (`a3`): bounds errors name the array by it, as the
// interpreter does. Neither is part of the text form: the printer drops them
// and `equal` ignores them.
struct Read { AccPtr array; ExpPtr index; std::string origin = {}, source = {}; };       // (! A ix)
struct LinearRead { AccPtr array; ExpPtr index; std::string origin = {}, source = {}; }; // (!! A i)
struct The { AccPtr array; };                                     // (the A)
struct ToIndex { ExpPtr shape, index; std::string origin = {}; };  // (to-index sh ix)
struct FromIndex { ExpPtr shape, index; };                        // (from-index sh i)
struct Ignore { int rank; };                                      // (ignore R)
struct Trace { std::string label; ExpPtr arg; };                  // (trace "l" e)
struct PrimApp { Prim op; std::vector<ExpPtr> args; };            // (op e ...)
struct At { std::string window; std::vector<int64_t> offsets; };  // (at nb o ...)
// (f e ...): a `define`d or `let`-bound function, or a scalar form of
// core/sugar.h. Only the parser makes it; the checker replaces it by its
// expansion (core/expand.h), so engines never see one.
struct Call { std::string name; std::vector<Operand> args; };
} // namespace ex

using ExpNode = std::variant<ex::Const, ex::Var, ex::Let, ex::If, ex::Tuple, ex::Proj, ex::Index,
                             ex::Cast, ex::While, ex::ShapeOf, ex::SizeOf, ex::Read,
                             ex::LinearRead, ex::The, ex::ToIndex, ex::FromIndex, ex::Ignore,
                             ex::Trace, ex::PrimApp, ex::At, ex::Call>;

struct Exp {
  ExpNode node;
  SrcLoc loc;
  Type type; // set by the type checker
};

// ----------------------------------------------------------------- array forms
namespace ac {
struct Var { std::string name; };
struct Binding { std::string name; AccPtr value; SrcLoc loc; };
struct Alet { std::vector<Binding> bindings; AccPtr body; };      // sequential
struct ATuple { std::vector<AccPtr> elems; };
struct AProj { int index; AccPtr tuple; };
struct Use { Array value; };
struct Unit { ExpPtr value; };
struct Generate { ExpPtr shape; Lambda f; };
struct Fill { ExpPtr shape; ExpPtr value; };
struct Map { Lambda f; AccPtr a; };
struct ZipWith { Lambda f; AccPtr a, b; };
struct Fold { Lambda f; ExpPtr seed; AccPtr a; };                 // seed null: fold1
struct FoldSeg { Lambda f; ExpPtr seed; AccPtr a, segs; };

enum class ScanKind { Scanl, Scanl1, Scanr, Scanr1, ScanlPrime };
struct Scan { ScanKind kind; Lambda f; ExpPtr seed; AccPtr a; }; // seed null for *1
struct Permute { Lambda combine; AccPtr defaults; Lambda target; AccPtr source; };
struct Backpermute { ExpPtr shape; Lambda source_index; AccPtr a; };
struct Reshape { ExpPtr shape; AccPtr a; };

// One entry of a replicate/slice spec: `all`, or an i64 expression.
struct SpecItem { ExpPtr extent; bool is_all() const { return extent == nullptr; } };
struct Replicate { std::vector<SpecItem> spec; AccPtr a; };
struct Slice { AccPtr a; std::vector<SpecItem> spec; };

enum class BoundaryKind { Clamp, Mirror, Wrap, Constant };
struct Boundary { BoundaryKind kind = BoundaryKind::Clamp; ExpPtr constant; };
struct Stencil { std::vector<int64_t> window; Boundary boundary; Lambda f; AccPtr a; };
struct Awhile { ALambda cond, body; AccPtr init; };
struct ATrace { std::string label; AccPtr a; };
struct ACond { ExpPtr cond; AccPtr then_branch, else_branch; };
// (f a ...): an `adefine`d function or an array form of core/sugar.h; replaced
// by its expansion when checked, like ex::Call.
struct Call { std::string name; std::vector<Operand> args; };
} // namespace ac

using AccNode = std::variant<ac::Var, ac::Alet, ac::ATuple, ac::AProj, ac::Use, ac::Unit,
                             ac::Generate, ac::Fill, ac::Map, ac::ZipWith, ac::Fold,
                             ac::FoldSeg, ac::Scan, ac::Permute, ac::Backpermute, ac::Reshape,
                             ac::Replicate, ac::Slice, ac::Stencil, ac::Awhile, ac::ATrace,
                             ac::ACond, ac::Call>;

struct Acc {
  AccNode node;
  SrcLoc loc;
  Type type; // set by the type checker
};

// A named function written before the program: `(define (f (x T) ...) e)`,
// a scalar function (`scalar_body`), or `(adefine (f (xs (array E R)) (n T)
// ...) a)`, an array function (`array_body`). A scalar parameter may omit its
// type (inferred at each call); an array parameter must give it.
struct Define {
  std::string name;
  std::vector<Param> params;
  ExpPtr scalar_body;
  AccPtr array_body;
  SrcLoc loc;
};

struct Program {
  std::vector<Define> defines; // in the order written; each sees only the ones before
  std::vector<Param> params;   // array-typed parameters
  AccPtr body;
  SrcLoc loc;
  Type result;          // set by the type checker
  bool checked = false; // set by the type checker; engines run only checked programs
};

inline ExpPtr make_exp(ExpNode node, SrcLoc loc = {}) {
  return std::make_shared<Exp>(Exp{std::move(node), std::move(loc), Type{}});
}
inline AccPtr make_acc(AccNode node, SrcLoc loc = {}) {
  return std::make_shared<Acc>(Acc{std::move(node), std::move(loc), Type{}});
}

// The keyword of a form as written in the text ("generate", "scanl'", "!", ...).
std::string_view form_name(const ExpNode& n);
std::string_view form_name(const AccNode& n);
std::string_view scan_name(ac::ScanKind k);

// Structural equality: same forms, names, literals (bitwise), types written in
// the program and nesting. Source positions and checker-assigned types are ignored.
bool equal(const Program& a, const Program& b);
bool equal(const Exp& a, const Exp& b);
bool equal(const Acc& a, const Acc& b);

} // namespace strata
