// Shared by the kernel-cache tests of the engines that cache compiled code
// (jit_cache_test.cpp, cuda_compile_test.cpp): running `strata` in a child
// process against a given cache directory, counting outcomes in its output or
// report, and damaging the entries on disk.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/cli_util.h"

namespace strata::test {

struct CachedRun {
  std::string out;    // stdout and stderr
  std::string report; // the --report JSON
};

// Runs `strata ARGS --report <tmp>/report<tag>.json` in a child process with
// STRATA_CACHE_DIR=cache_dir and expects it to succeed.
inline CachedRun run_with_cache_dir(const TempDir& tmp, const std::filesystem::path& cache_dir,
                                    const std::string& args, const std::string& tag) {
  std::string report = (tmp / ("report" + tag + ".json")).string();
  std::string out = (tmp / ("out" + tag)).string();
  std::string cmd = "env STRATA_CACHE_DIR=" + cache_dir.string() + " " +
                    std::string(STRATA_BINARY) + " " + args + " --report " + report + " >" + out +
                    " 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd << "\n" << slurp(out);
  return {slurp(out), slurp(report)};
}

// How often `what` occurs in `text`.
inline int count_of(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

// Cuts every file under `dir` to half its size; returns how many.
inline int truncate_entries(const std::filesystem::path& dir) {
  int n = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    if (e.is_regular_file()) {
      std::filesystem::resize_file(e.path(), std::filesystem::file_size(e.path()) / 2);
      ++n;
    }
  return n;
}

} // namespace strata::test
