#include "tools/program_files.h"

#include <fstream>
#include <map>
#include <sstream>

#include "core/check.h"
#include "core/npy.h"
#include "core/parser.h"

namespace strata::tool {
namespace fs = std::filesystem;

std::string read_program_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorKind::Input, path.string() + ": cannot open program file");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Program load_program(const fs::path& path) {
  Program p = parse_program(read_program_text(path), path.string());
  check_program(p);
  return p;
}

namespace {
std::string param_list(const Program& program) {
  std::string s;
  for (const Param& p : program.params)
    s += (s.empty() ? "" : ", ") + p.name;
  return s.empty() ? "(none)" : s;
}

Array load_param(const Param& param, const fs::path& file) {
  Array a = read_npy(file.string());
  if (a.type() != param.type)
    throw Error(ErrorKind::Input, file.string() + ": parameter `" + param.name + "` expects " +
                                      param.type.str() + ", but the file holds " + a.type().str() +
                                      " of shape " + shape_str(a.shape()));
  return a;
}
} // namespace

std::vector<Array> load_inputs(const Program& program,
                               const std::vector<std::string>& assignments) {
  std::map<std::string, std::string> files;
  for (const std::string& arg : assignments) {
    auto eq = arg.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == arg.size())
      throw Error(ErrorKind::Usage, "expected an input as NAME=FILE.npy, found `" + arg + "`");
    std::string name = arg.substr(0, eq);
    bool known = false;
    for (const Param& p : program.params)
      known |= p.name == name;
    if (!known)
      throw Error(ErrorKind::Input, "unknown parameter `" + name +
                                        "`; the program's parameters are " + param_list(program));
    if (!files.emplace(name, arg.substr(eq + 1)).second)
      throw Error(ErrorKind::Input, "parameter `" + name + "` given twice");
  }
  std::vector<Array> inputs;
  for (const Param& p : program.params) {
    auto it = files.find(p.name);
    if (it == files.end())
      throw Error(ErrorKind::Input, p.loc,
                  "missing input for parameter `" + p.name + "` " + p.type.str() + "; pass " +
                      p.name + "=FILE.npy");
    inputs.push_back(load_param(p, it->second));
  }
  return inputs;
}

static fs::path example_dir(const fs::path& program_path) {
  fs::path dir = program_path;
  return dir.replace_extension("");
}

std::vector<Array> load_sibling_inputs(const Program& program, const fs::path& program_path) {
  std::vector<Array> inputs;
  for (const Param& p : program.params) {
    fs::path file = example_dir(program_path) / (p.name + ".npy");
    if (!fs::exists(file))
      throw Error(ErrorKind::Input, p.loc,
                  "missing input for parameter `" + p.name + "`: no " + file.string() + " and no " +
                      p.name + "=FILE.npy given");
    inputs.push_back(load_param(p, file));
  }
  return inputs;
}

std::optional<std::vector<Array>> load_expected(const fs::path& program_path, size_t count) {
  fs::path dir = example_dir(program_path);
  std::vector<Array> expected;
  if (fs::exists(dir / "expected.npy")) {
    expected.push_back(read_npy((dir / "expected.npy").string()));
  } else {
    for (size_t i = 0; fs::exists(dir / ("expected." + std::to_string(i) + ".npy")); ++i)
      expected.push_back(read_npy((dir / ("expected." + std::to_string(i) + ".npy")).string()));
  }
  if (expected.empty()) return std::nullopt;
  if (expected.size() != count)
    throw Error(ErrorKind::Input, dir.string() + ": " + std::to_string(expected.size()) +
                                      " expected result file(s) for a program with " +
                                      std::to_string(count) + " result(s)");
  return expected;
}

namespace {
bool secondary = false;
}
void set_secondary_rank() {
  secondary = true;
}
bool secondary_rank() {
  return secondary;
}

std::vector<std::string> write_results(const std::vector<Array>& results, const std::string& out) {
  std::vector<std::string> paths;
  if (results.size() == 1) {
    paths.push_back(out);
  } else {
    fs::path base(out);
    std::string ext = base.extension() == ".npy" ? ".npy" : "";
    fs::path stem = ext.empty() ? base : base.replace_extension("");
    for (size_t i = 0; i < results.size(); ++i)
      paths.push_back(stem.string() + "." + std::to_string(i) + ".npy");
  }
  if (secondary) return paths; // rank 0 writes them
  for (size_t i = 0; i < results.size(); ++i)
    write_npy(paths[i], results[i]);
  return paths;
}

} // namespace strata::tool
