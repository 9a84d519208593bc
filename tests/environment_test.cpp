// The environment variables in one place (core/environment.h): every
// STRATA_* name the sources read is in the table and on docs/environment.md,
// and `strata --help` lists each with the engines of this build.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <set>
#include <string>

#include "core/environment.h"
#include "oracle/registry.h"
#include "tests/cli_util.h"

namespace strata::test {
namespace {
namespace fs = std::filesystem;

std::set<std::string> table_names() {
  std::set<std::string> names;
  for (const EnvironmentVariable& v : environment_variables())
    names.insert(v.name);
  return names;
}

TEST(Environment, EveryVariableTheSourcesReadIsInTheTableAndTheDocs) {
  // A quoted STRATA_ name in the library, engines, command and properties:
  // the name of a variable they read (or name in a message about it).
  const std::regex quoted("\"(STRATA_[A-Z0-9_]+)");
  std::set<std::string> read;
  for (const char* dir : {"core", "cache", "interpreter", "fusion", "parallel", "tbb", "jit",
                          "cuda", "oracle", "tools", "frontend", "properties"}) {
    if (!fs::exists(source_path(dir))) continue;
    for (const auto& e : fs::recursive_directory_iterator(source_path(dir))) {
      std::string ext = e.path().extension().string();
      if (ext != ".cpp" && ext != ".h") continue;
      std::string text = slurp(e.path());
      for (std::sregex_iterator it(text.begin(), text.end(), quoted), end; it != end; ++it)
        read.insert((*it)[1].str());
    }
  }
  EXPECT_GE(read.size(), 8u);
  std::set<std::string> table = table_names();
  for (const std::string& name : read)
    EXPECT_EQ(table.count(name), 1u) << name << " is read but not in core/environment.cpp";
  std::string docs = slurp(source_path("docs/environment.md"));
  for (const std::string& name : table)
    EXPECT_NE(docs.find("`" + name + "`"), std::string::npos)
        << name << " is not described in docs/environment.md";
}

TEST(Environment, HelpListsEveryVariableAndEngine) {
  CliResult r = run_cli("--help");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const std::string& name : table_names())
    EXPECT_NE(r.out.find("  " + name + "="), std::string::npos) << name << "\n" << r.out;
  for (const Engine* e : all_engines())
    EXPECT_NE(r.out.find(e->name()), std::string::npos) << e->name();
  CliResult run = run_cli("run --help");
  EXPECT_NE(run.out.find("engine to run on: " + engine_names()), std::string::npos) << run.out;
}

} // namespace
} // namespace strata::test
