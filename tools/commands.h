// The subcommands of the `strata` program. Each takes the arguments after its
// name and returns the exit code: 0 success, 1 program or input error, 2 usage
// error. Usage errors are thrown as Error(ErrorKind::Usage); main() maps errors
// to exit codes and prints them.
#pragma once

#include <string>
#include <vector>

namespace strata::tool {

using Args = std::vector<std::string>;

int run_command(const Args& args);
int check_command(const Args& args);
int fmt_command(const Args& args);
int dot_command(const Args& args);

} // namespace strata::tool
