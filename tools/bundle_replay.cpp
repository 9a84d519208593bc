#include "tools/bundle_replay.h"

#include <chrono>
#include <iomanip>
#include <iostream>

#include "core/check.h"
#include "core/parser.h"
#include "oracle/bundle.h"
#include "oracle/faults/faulty_engine.h"
#include "tools/check_table.h"

namespace strata::tool {

namespace {

// replay_bundle (oracle/bundle.h), also for bundles of the test-only faulty
// engines that `strata fuzz --faults` writes.
DiffReport replay(const Bundle& b) {
  if (b.engine.rfind(faults::kFaultyPrefix, 0) != 0) return replay_bundle(b);
  const Engine* engine = faults::find_faulty_engine(b.engine);
  if (!engine)
    throw Error(ErrorKind::Usage, "the bundle names an unknown fault `" + b.engine + "`");
  Program p = parse_program(b.program_text, "program.strata");
  check_program(p);
  if (p.params.size() != b.inputs.size())
    throw Error(ErrorKind::Input, "the bundle's inputs do not match the program's parameters");
  return differential_check(p, b.inputs, *engine, b.options());
}

} // namespace

bool is_bundle_target(const std::string& target) {
  return is_bundle(target);
}

int replay_bundle_command(const std::string& dir) {
  Bundle b = read_bundle(dir);
  std::cout << "bundle " << dir << ": engine " << b.engine << ", fusion "
            << (b.fusion ? "on" : "off") << ", " << (b.checked ? "checked" : "unchecked")
            << ", order " << b.order.describe() << (b.seed.empty() ? "" : ", found with " + b.seed)
            << "\n";
  if (!b.disagreement.empty()) std::cout << "recorded: " << b.disagreement << "\n";
  auto start = std::chrono::steady_clock::now();
  DiffReport r = replay(b);
  double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  CheckTable table;
  // The replay is one differential check (the engine twice, the oracle once):
  // its compile and run are not timed apart.
  table.add(dir + "/program.strata", b.engine, b.fusion ? "on" : "off", r.agree ? "yes" : "NO", -1,
            -1);
  table.print(std::cout);
  std::cout << "replayed in " << std::fixed << std::setprecision(1) << ms << " ms\n";
  if (r.agree) {
    std::cout << "ok    " << b.engine << " and interp agree now\n";
    return 0;
  }
  std::cerr << "FAIL  " << r.disagreement << "\n";
  return 1;
}

} // namespace strata::tool
