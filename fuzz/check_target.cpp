// libFuzzer target: the type checker (core/check.h), behind the parser.
//
// Feeds the input bytes, as program text, to parse_program and, when that
// accepts them, checks the program with check_program (which also expands
// every function call); a program the checker accepts must then pass
// require_checked.
//
// Expected, not a finding: strata::Error from either (a syntax or type
// error: most inputs are not programs). A finding: a crash, an
// AddressSanitizer or UBSan report, any other exception escaping (it aborts),
// a hang past -timeout or memory past -rss_limit_mb.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/check.h"
#include "core/error.h"
#include "core/ir.h"
#include "core/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string file = "fuzz.strata";
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    strata::Program p = strata::parse_program(text, file);
    strata::check_program(p);
    strata::require_checked(p);
  } catch (const strata::Error&) {
  }
  return 0;
}
