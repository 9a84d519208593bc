// The summary table of `strata check`: one row per program, engine and fusion
// mode, saying whether the run agrees with the oracle (or the interpreter
// with the expected outputs) and how long it took.
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
  // fusion: "on", "off" or "-"; agrees: "yes", "NO", "skip: why", ...
  void add(std::string program, std::string engine, std::string fusion, std::string agrees,
           double ms) {
    std::ostringstream t;
    t << std::fixed << std::setprecision(ms < 10 ? 2 : 1) << ms << " ms";
    rows_.push_back({std::move(program), std::move(engine), std::move(fusion), std::move(agrees),
                     ms < 0 ? "-" : t.str()});
  }
  void print(std::ostream& out) const {
    std::vector<std::vector<std::string>> all{{"program", "engine", "fusion", "agrees", "time"}};
    all.insert(all.end(), rows_.begin(), rows_.end());
    std::vector<size_t> width(5, 0);
    for (const auto& r : all)
      for (size_t c = 0; c < 5; ++c)
        width[c] = std::max(width[c], r[c].size());
    for (const auto& r : all) {
      for (size_t c = 0; c < 5; ++c) {
        bool right = c == 4;
        out << (c ? "  " : "") << (right ? std::right : std::left) << std::setw(int(width[c]))
            << r[c];
      }
      out << "\n";
    }
  }
  bool empty() const { return rows_.empty(); }

private:
  std::vector<std::vector<std::string>> rows_;
};

} // namespace strata::tool
