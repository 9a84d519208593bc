// The summary table of `strata check`: one row per program, engine and fusion
// mode, saying whether the run agrees with the oracle (or the interpreter
// with the expected outputs), and how long its compile and its run took, apart.
#pragma once

#include <algorithm>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

namespace strata::tool {

class CheckTable {
public:
  // fusion: "on", "off" or "-"; agrees: "yes", "NO", "skip: why", ...;
  // compile and run: milliseconds, negative when there is none.
  void add(std::string program, std::string engine, std::string fusion, std::string agrees,
           double compile_ms, double run_ms) {
    rows_.push_back({std::move(program), std::move(engine), std::move(fusion), std::move(agrees),
                     milliseconds(compile_ms), milliseconds(run_ms)});
  }
  void print(std::ostream& out) const {
    std::vector<std::vector<std::string>> all{
        {"program", "engine", "fusion", "agrees", "compile", "run"}};
    all.insert(all.end(), rows_.begin(), rows_.end());
    const size_t columns = all.front().size();
    std::vector<size_t> width(columns, 0);
    for (const auto& r : all)
      for (size_t c = 0; c < columns; ++c)
        width[c] = std::max(width[c], r[c].size());
    for (const auto& r : all) {
      for (size_t c = 0; c < columns; ++c) {
        bool right = c >= 4;
        out << (c ? "  " : "") << (right ? std::right : std::left) << std::setw(int(width[c]))
            << r[c];
      }
      out << "\n";
    }
  }
  bool empty() const { return rows_.empty(); }

private:
  static std::string milliseconds(double ms) {
    if (ms < 0) return "-";
    std::ostringstream t;
    t << std::fixed << std::setprecision(ms < 10 ? 2 : 1) << ms << " ms";
    return t.str();
  }
  std::vector<std::vector<std::string>> rows_;
};

} // namespace strata::tool
