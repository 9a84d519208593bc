#include "tools/program_files.h"

#include <fstream>
#include <map>
#include <sstream>

#include "core/check.h"
#include "core/npy.h"
#include "core/npy_rows.h"
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

void check_param_type(const Param& param, const fs::path& file, const Type& t, const Shape& shape) {
  if (t != param.type)
    throw Error(ErrorKind::Input, file.string() + ": parameter `" + param.name + "` expects " +
                                      param.type.str() + ", but the file holds " + t.str() +
                                      " of shape " + shape_str(shape));
}

Array load_param(const Param& param, const fs::path& file) {
  Array a = read_npy(file.string());
  check_param_type(param, file, a.type(), a.shape());
  return a;
}

fs::path example_dir(const fs::path& program_path) {
  fs::path dir = program_path;
  return dir.replace_extension("");
}
} // namespace

std::vector<std::string> input_files(const Program& program,
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
  std::vector<std::string> paths;
  for (const Param& p : program.params) {
    auto it = files.find(p.name);
    if (it == files.end())
      throw Error(ErrorKind::Input, p.loc,
                  "missing input for parameter `" + p.name + "` " + p.type.str() + "; pass " +
                      p.name + "=FILE.npy");
    paths.push_back(it->second);
  }
  return paths;
}

std::vector<std::string> sibling_input_files(const Program& program, const fs::path& program_path) {
  std::vector<std::string> paths;
  for (const Param& p : program.params) {
    fs::path file = example_dir(program_path) / (p.name + ".npy");
    if (!fs::exists(file))
      throw Error(ErrorKind::Input, p.loc,
                  "missing input for parameter `" + p.name + "`: no " + file.string() + " and no " +
                      p.name + "=FILE.npy given");
    paths.push_back(file.string());
  }
  return paths;
}

std::vector<Array> read_inputs(const Program& program, const std::vector<std::string>& files) {
  std::vector<Array> inputs;
  for (size_t i = 0; i < files.size(); ++i)
    inputs.push_back(load_param(program.params.at(i), files[i]));
  return inputs;
}

std::vector<NpyRowsReader> open_inputs_by_rows(const Program& program,
                                               const std::vector<std::string>& files) {
  std::vector<NpyRowsReader> inputs;
  for (size_t i = 0; i < files.size(); ++i) {
    NpyRowsReader r(files[i]);
    check_param_type(program.params.at(i), files[i], r.type(), r.shape());
    inputs.push_back(std::move(r));
  }
  return inputs;
}

std::vector<Array> load_inputs(const Program& program,
                               const std::vector<std::string>& assignments) {
  return read_inputs(program, input_files(program, assignments));
}

std::vector<Array> load_sibling_inputs(const Program& program, const fs::path& program_path) {
  return read_inputs(program, sibling_input_files(program, program_path));
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

std::vector<std::string> result_paths(size_t count, const std::string& out) {
  std::vector<std::string> paths;
  if (count == 1) {
    paths.push_back(out);
  } else {
    fs::path base(out);
    std::string ext = base.extension() == ".npy" ? ".npy" : "";
    fs::path stem = ext.empty() ? base : base.replace_extension("");
    for (size_t i = 0; i < count; ++i)
      paths.push_back(stem.string() + "." + std::to_string(i) + ".npy");
  }
  return paths;
}

std::vector<std::string> write_results(const std::vector<Array>& results, const std::string& out) {
  std::vector<std::string> paths = result_paths(results.size(), out);
  if (secondary) return paths;   // rank 0 writes them
  write_npy_set(paths, results); // all replaced, or none
  return paths;
}

} // namespace strata::tool
