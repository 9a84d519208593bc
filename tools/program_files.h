// Loading what the command line names: program files, `name=file.npy` inputs,
// the example-directory convention, and writing results.
//
// Convention for a program PATH/NAME.strata: when no inputs are given on the
// command line, each parameter P is read from PATH/NAME/P.npy, and the
// expected result (if present) is PATH/NAME/expected.npy, or
// expected.0.npy, expected.1.npy, ... for a tuple of results.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/array.h"
#include "core/ir.h"
#include "core/npy_rows.h"

namespace strata::tool {

// The text of a program file; Error(Input) naming it when it cannot be read.
std::string read_program_text(const std::filesystem::path& path);

// Reads, parses and type-checks a program file (Error with file:line:col on failure).
Program load_program(const std::filesystem::path& path);

// The input files named by `name=file.npy` arguments, in parameter order.
// Unknown, repeated or missing parameters are ErrorKind::Input errors naming
// the parameter.
std::vector<std::string> input_files(const Program& program,
                                     const std::vector<std::string>& assignments);
// The input files of the example directory next to the program (see above).
std::vector<std::string> sibling_input_files(const Program& program,
                                             const std::filesystem::path& program_path);
// The files (in parameter order) read whole, or opened for reading by rows
// (an engine that reads by rows, core/npy_rows.h); a file of another type
// than its parameter's is an ErrorKind::Input error.
std::vector<Array> read_inputs(const Program& program, const std::vector<std::string>& files);
std::vector<NpyRowsReader> open_inputs_by_rows(const Program& program,
                                               const std::vector<std::string>& files);

// Inputs from `name=file.npy` arguments, in parameter order. Unknown, repeated
// or missing parameters are ErrorKind::Input errors naming the parameter.
std::vector<Array> load_inputs(const Program& program, const std::vector<std::string>& assignments);

// Inputs from the example directory next to the program (see above).
std::vector<Array> load_sibling_inputs(const Program& program,
                                       const std::filesystem::path& program_path);

// The expected results next to the program, or nullopt when there are none.
std::optional<std::vector<Array>> load_expected(const std::filesystem::path& program_path,
                                                size_t count);

// The files results go to: one array to `out`, several to out.0.npy,
// out.1.npy, ...
std::vector<std::string> result_paths(size_t count, const std::string& out);
// Writes results to result_paths; returns the paths written.
// Under a launcher (mpirun) every rank runs the command, and only rank 0
// writes result files; main() marks the other ranks.
void set_secondary_rank();
bool secondary_rank();

std::vector<std::string> write_results(const std::vector<Array>& results, const std::string& out);

} // namespace strata::tool
