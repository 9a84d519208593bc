// Running the `strata` binary from tests: exit code, stdout and stderr.
#pragma once

#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace strata::test {

struct CliResult {
  int exit_code;
  std::string out, err;
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A fresh temporary directory per test, removed at the end of the test.
class TempDir {
public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "strata-test-XXXXXX").string();
    path_ = mkdtemp(tmpl.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
  // Writes a file into the directory and returns its path.
  std::string write(const std::string& name, const std::string& content) const {
    std::ofstream(path_ / name, std::ios::binary) << content;
    return (path_ / name).string();
  }

private:
  std::filesystem::path path_;
};

// Runs `strata ARGS` (ARGS already shell-quoted) with the environment
// variables `env` ("NAME=VALUE ...", or empty) set, and captures everything.
inline CliResult run_cli_env(const std::string& env, const std::string& args) {
  TempDir dir;
  std::string cmd = (env.empty() ? "" : "env " + env + " ") + std::string(STRATA_BINARY) + " " +
                    args + " >" + (dir / "out").string() + " 2>" + (dir / "err").string();
  int status = std::system(cmd.c_str());
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return {code, slurp(dir / "out"), slurp(dir / "err")};
}

// Runs `strata ARGS` (ARGS already shell-quoted) and captures everything.
inline CliResult run_cli(const std::string& args) {
  return run_cli_env("", args);
}

inline std::string source_path(const std::string& rel) {
  return std::string(STRATA_SOURCE_DIR) + "/" + rel;
}

// The example programs (examples/*.strata), sorted by name.
inline std::vector<std::filesystem::path> example_programs() {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(source_path("examples")))
    if (e.path().extension() == ".strata") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

} // namespace strata::test
