#include "core/error.h"

namespace strata {

std::string SrcLoc::str() const {
  if (!known()) return file ? *file : "";
  return (file ? *file : std::string("<input>")) + ":" + std::to_string(line) + ":" +
         std::to_string(col);
}

std::string SrcLoc::calls() const {
  std::string out;
  for (const CallSite* c = via.get(); c; c = c->call.via.get())
    out += ", in `" + c->function + "` called at " + c->call.str();
  return out;
}

std::string_view error_kind_name(ErrorKind k) {
  switch (k) {
  case ErrorKind::Syntax: return "syntax";
  case ErrorKind::Type: return "type";
  case ErrorKind::Bounds: return "bounds";
  case ErrorKind::DivisionByZero: return "division-by-zero";
  case ErrorKind::Shape: return "shape";
  case ErrorKind::EmptyReduction: return "empty-reduction";
  case ErrorKind::Input: return "input";
  case ErrorKind::Usage: return "usage";
  case ErrorKind::Resource: return "resource";
  }
  return "unknown";
}

namespace {
std::string full_line(const SrcLoc& loc, const std::string& message) {
  std::string where = loc.str();
  return (where.empty() ? "" : where + ": ") + "error: " + message + loc.calls();
}
} // namespace

Error::Error(ErrorKind kind, SrcLoc loc, const std::string& message, const std::string& context)
    : std::runtime_error(full_line(loc, message) + context), kind_(kind), loc_(std::move(loc)),
      message_(message), context_(context) {}

std::string Error::headline() const {
  return full_line(loc_, message_);
}

} // namespace strata
