// Errors with source positions.
//
// Every failure a user can cause (bad text, ill-typed program, bad input file,
// out-of-range index at run time) is an `Error` with a kind, an optional
// `file:line:col`, and a one-line message; `what()` is the full line
// `file:line:col: error: message`, followed by an optional context the
// interpreter adds (", while computing element (4,2) of `generate` at ...").
// Differential testing compares the kind and the headline (`file:line:col:
// error: message`, built by core/runtime_errors.h, the same on every engine);
// the context is for people debugging a program, and only the interpreter,
// which evaluates the program as written, knows it.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

namespace strata {

struct CallSite;

struct SrcLoc {
  std::shared_ptr<const std::string> file; // null when unknown (e.g. C++ front end)
  int line = 0;                            // 1-based; 0 when unknown
  int col = 0;                             // 1-based
  // Set on the nodes of a function's body where the checker expanded a call:
  // the call it was expanded for (innermost first through `via->call.via`).
  std::shared_ptr<const CallSite> via = {};
  bool known() const { return line > 0; }
  std::string str() const; // "file:line:col", or "" when unknown
  // ", in `f` called at file:line:col" for each call the position is inside
  // (innermost first), or "" outside any function.
  std::string calls() const;
};

struct CallSite {
  std::string function;
  SrcLoc call;
};

enum class ErrorKind {
  Syntax,         // malformed program text
  Type,           // ill-typed program, nested data parallelism, unknown variable
  Bounds,         // index out of range (!, !!, backpermute, permute, slice)
  DivisionByZero, // quot rem div mod by zero
  Shape,          // reshape size mismatch, foldseg segments not matching, bad shape
  EmptyReduction, // fold1 over an empty row
  Input,          // bad .npy file, missing or mistyped parameter
  Usage,          // bad command line
  Resource,       // a shape too large to allocate
};

std::string_view error_kind_name(ErrorKind k);

class Error : public std::runtime_error {
public:
  Error(ErrorKind kind, SrcLoc loc, const std::string& message, const std::string& context = "");
  Error(ErrorKind kind, const std::string& message) : Error(kind, SrcLoc{}, message) {}
  ErrorKind kind() const { return kind_; }
  const SrcLoc& loc() const { return loc_; }
  const std::string& message() const { return message_; }
  const std::string& context() const { return context_; }
  // `file:line:col: error: message`, without the context.
  std::string headline() const;

private:
  ErrorKind kind_;
  SrcLoc loc_;
  std::string message_;
  std::string context_;
};

} // namespace strata
