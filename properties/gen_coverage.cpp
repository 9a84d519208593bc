// strata_gen_coverage [--count N] [--seed S]: generates N programs (sizes
// cycling through 0-100), type-checks and interprets each, and prints how many
// programs use each form, primitive, boundary, element type and rank. Exits 1
// if any program is rejected by the type checker or any required feature is
// never generated. Registered with ctest as GeneratorCoverage.
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <set>

#include "interpreter/interpreter.h"
#include "oracle/gen/coverage.h"
#include "oracle/generator.h"

int main(int argc, char** argv) {
  using namespace strata;
  int64_t count = 10000;
  uint64_t seed = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--count"))
      count = std::atoll(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--seed"))
      seed = std::strtoull(argv[i + 1], nullptr, 10);
  }
  gen::CoverageReport report;
  std::map<std::string, int64_t> error_kinds;
  int rejected = 0;
  auto start = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < count; ++i) {
    GeneratedCase c = generate_case(seed + uint64_t(i), int(i % 101));
    Program p;
    try {
      p = c.checked();
    } catch (const Error& e) {
      if (++rejected <= 3)
        std::cerr << "generated program rejected: " << e.what() << "\n" << c.text << "\n";
      continue;
    }
    ++report.programs;
    std::set<std::string> fs = gen::features(p);
    Program parsed = c.parse();
    fs.merge(gen::surface_features(parsed));
    for (const std::string& f : fs)
      ++report.programs_with[f];
    try {
      interpret(p, c.inputs);
    } catch (const Error& e) {
      ++report.runtime_errors;
      ++error_kinds[std::string(error_kind_name(e.kind()))];
    }
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << report.table();
  std::cout << "run-time errors by kind:";
  for (const auto& [k, n] : error_kinds)
    std::cout << " " << k << "=" << n;
  std::cout << "\n"
            << count << " programs generated, checked and interpreted in " << secs << " s ("
            << double(count) / secs << " programs/s)\n";
  auto missing = report.missing();
  for (const std::string& m : missing)
    std::cerr << "never generated: " << m << "\n";
  if (rejected) std::cerr << rejected << " generated program(s) rejected by the checker\n";
  return missing.empty() && rejected == 0 ? 0 : 1;
}
