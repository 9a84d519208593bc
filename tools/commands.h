// The subcommands of the `strata` program. Each takes the arguments after its
// name and returns the exit code: 0 success, 1 program or input error, 2 usage
// error. Usage errors are thrown as Error(ErrorKind::Usage); main() maps errors
// to exit codes and prints them.
#pragma once

#include <string>
#include <vector>

#include "core/array.h"
#include "core/ir.h"

namespace strata::tool {

using Args = std::vector<std::string>;

int run_command(const Args& args);
int check_command(const Args& args);
int fmt_command(const Args& args);
int dot_command(const Args& args);
int explain_command(const Args& args);
int fuzz_command(const Args& args);
// Property-tests a program on generated inputs (test_command.cpp).
int test_command(const Args& args);
// Times a program on every engine (bench_command.cpp).
int bench_command(const Args& args);
// Compile without running; cuda --arch sm_XX needs no GPU (compile_command.cpp).
int compile_command(const Args& args);
// Only in builds with a kernel cache (STRATA_HAVE_CACHE).
int cache_command(const Args& args);

// For `check`: given compare_all's description of the first difference
// ("[result K: ]element (I,J): ..."), the oracle's explanation of that element
// as indented text ready for stderr; "" when the difference names no element
// (a shape or type mismatch). Counterexample bundles are to store the same
// tree, through explain_element (interpreter/explain.h).
std::string explain_difference(const Program& program, const std::vector<Array>& inputs,
                               const std::string& difference);

} // namespace strata::tool
