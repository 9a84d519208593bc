// Shared by the C++ examples: run a C++ program and its text twin in
// examples/ on the interpreter with the same inputs and check that the results
// are bitwise identical, and that the C++ program's IR prints as text that
// parses back to the same IR.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "core/check.h"
#include "core/npy.h"
#include "core/parser.h"
#include "core/printer.h"
#include "frontend/frontend.h"
#include "interpreter/interpreter.h"
#include "oracle/registry.h"

namespace strata::example {

inline std::string read_text(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw std::runtime_error("cannot open " + path);
  std::string s;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;)
    s.append(buf, n);
  std::fclose(f);
  return s;
}

// The inputs of example `name` (examples/NAME/PARAM.npy, in parameter order).
inline std::vector<Array> inputs(const std::string& root, const std::string& name,
                                 const std::vector<std::string>& params) {
  std::vector<Array> out;
  for (const auto& p : params)
    out.push_back(read_npy(root + "/examples/" + name + "/" + p + ".npy"));
  return out;
}

// Compares the C++ program's results and IR with the text twin; returns the exit status.
inline int compare_with_text(const std::string& root, const std::string& name,
                             const Program& cpp_program, const std::vector<Array>& cpp_results,
                             const std::vector<Array>& ins) {
  Program text = parse_program(read_text(root + "/examples/" + name + ".strata"), name);
  check_program(text);
  std::vector<Array> expected = interpret(text, ins);
  int status = 0;
  if (expected.size() != cpp_results.size()) {
    std::printf("%s: %zu results, the text form gives %zu\n", name.c_str(), cpp_results.size(),
                expected.size());
    return 1;
  }
  for (size_t i = 0; i < expected.size(); ++i)
    if (!identical(expected[i], cpp_results[i])) {
      std::printf("%s: result %zu differs from the text form's\n", name.c_str(), i);
      status = 1;
    }
  std::string printed = print_program(cpp_program);
  if (!equal(parse_program(printed, name + ".cpp.strata"), cpp_program)) {
    std::printf("%s: the printed IR does not parse back to the same IR:\n%s", name.c_str(),
                printed.c_str());
    status = 1;
  }
  std::printf("%s", printed.c_str());
  if (status == 0) std::printf("%s: C++ and text give identical results: ok\n", name.c_str());
  return status;
}

} // namespace strata::example
