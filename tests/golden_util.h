// Golden-output files for the debugging tools (tests/golden/*.txt).
//
// A golden test compares text a command printed with a file checked into
// tests/golden/. Source paths in the text are made relative to the source
// tree first, so the files do not depend on where the tree lives. To accept
// new output, run the tests with STRATA_UPDATE_GOLDEN=1 and review the diff.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "tests/cli_util.h"

namespace strata::test {

// `text` with every "<source dir>/" removed.
inline std::string relative_paths(std::string text) {
  const std::string prefix = std::string(STRATA_SOURCE_DIR) + "/";
  for (size_t at = text.find(prefix); at != std::string::npos; at = text.find(prefix, at))
    text.erase(at, prefix.size());
  return text;
}

// Expects `actual` to equal tests/golden/NAME (or rewrites it, see above).
inline void expect_golden(const std::string& name, const std::string& actual) {
  const std::string path = source_path("tests/golden/" + name);
  const char* update = std::getenv("STRATA_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    std::ofstream(path, std::ios::binary) << actual;
    return;
  }
  EXPECT_EQ(slurp(path), actual) << "golden file " << path
                                 << " differs (STRATA_UPDATE_GOLDEN=1 rewrites it)";
}

} // namespace strata::test
