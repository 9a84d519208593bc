// libFuzzer target: the parser (core/parser.h).
//
// Feeds the input bytes, as program text, to parse_program, and to parse_exp,
// parse_acc and parse_type (each reads one form alone). When parse_program
// accepts the text, the printer's documented round trip (core/printer.h) is
// checked too: print_program must read back to an equal program (core/ir.h's
// `equal`), and printing that program again must give the same text.
//
// Expected, not a finding: strata::Error (a syntax error for malformed text).
// A finding: a crash, an AddressSanitizer or UBSan report, any other exception
// escaping (it aborts), a hang past -timeout, memory past -rss_limit_mb, or a
// failed round trip (reported on stderr, then abort()).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/error.h"
#include "core/ir.h"
#include "core/parser.h"
#include "core/printer.h"

namespace {

const std::string kFile = "fuzz.strata";

[[noreturn]] void finding(const char* what, const std::string& text) {
  std::fprintf(stderr, "parse_target: %s\n--- printed ---\n%s\n---\n", what, text.c_str());
  std::abort();
}

template <class F> void expect_error_or_success(F&& f) {
  try {
    f();
  } catch (const strata::Error&) {
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);

  expect_error_or_success([&] { (void)strata::parse_exp(text, kFile); });
  expect_error_or_success([&] { (void)strata::parse_acc(text, kFile); });
  expect_error_or_success([&] { (void)strata::parse_type(text, kFile); });

  strata::Program p;
  try {
    p = strata::parse_program(text, kFile);
  } catch (const strata::Error&) {
    return 0;
  }
  std::string printed = strata::print_program(p);
  strata::Program q;
  try {
    q = strata::parse_program(printed, kFile);
  } catch (const strata::Error& e) {
    finding((std::string("the printed program does not parse: ") + e.what()).c_str(), printed);
  }
  if (!strata::equal(p, q)) finding("the printed program reads back different", printed);
  if (strata::print_program(q) != printed) finding("printing is not idempotent", printed);
  return 0;
}
