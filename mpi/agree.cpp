#include "mpi/agree.h"

#include <cstring>

namespace strata::mpi {
namespace {

void put(Bytes& b, const std::string& s) {
  uint64_t n = s.size();
  auto* p = reinterpret_cast<const std::byte*>(&n);
  b.insert(b.end(), p, p + sizeof n);
  auto* q = reinterpret_cast<const std::byte*>(s.data());
  b.insert(b.end(), q, q + s.size());
}

std::string take(const Bytes& b, size_t& at) {
  uint64_t n = 0;
  if (at + sizeof n > b.size()) return "";
  std::memcpy(&n, b.data() + at, sizeof n);
  at += sizeof n;
  if (at + n > b.size()) return "";
  std::string s(reinterpret_cast<const char*>(b.data() + at), size_t(n));
  at += size_t(n);
  return s;
}

// A position and the calls it is inside (SrcLoc::via), innermost first.
void put_loc(Bytes& b, const SrcLoc& loc) {
  put(b, loc.file ? *loc.file : "");
  put(b, std::to_string(loc.line));
  put(b, std::to_string(loc.col));
  put(b, loc.via ? "1" : "0");
  if (!loc.via) return;
  put(b, loc.via->function);
  put_loc(b, loc.via->call);
}

SrcLoc take_loc(const Bytes& b, size_t& at) {
  SrcLoc loc;
  std::string file = take(b, at);
  if (!file.empty()) loc.file = std::make_shared<const std::string>(file);
  loc.line = std::stoi(take(b, at));
  loc.col = std::stoi(take(b, at));
  if (take(b, at) == "1") {
    std::string function = take(b, at);
    loc.via = std::make_shared<const CallSite>(CallSite{function, take_loc(b, at)});
  }
  return loc;
}

} // namespace

Bytes encode_error(const Error& e) {
  Bytes b;
  put(b, std::to_string(int(e.kind())));
  put_loc(b, e.loc());
  put(b, e.message());
  put(b, e.context());
  return b;
}

Error decode_error(const Bytes& b) try {
  size_t at = 0;
  auto kind = ErrorKind(std::stoi(take(b, at)));
  SrcLoc loc = take_loc(b, at);
  std::string message = take(b, at);
  std::string context = take(b, at);
  return Error(kind, loc, message, context);
} catch (const std::exception&) {
  // Not an error this code encoded: a rank is in another collective.
  return Error(ErrorKind::Resource,
               "mpi: a rank sent what is not an error: the ranks are out of step (an engine bug)");
}

void throw_failure(Comm& comm, int rank, std::exception_ptr mine, const Bytes& error) {
  if (rank == comm.rank() && mine) std::rethrow_exception(mine);
  throw decode_error(error);
}

} // namespace strata::mpi
