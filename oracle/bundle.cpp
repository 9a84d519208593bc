#include "oracle/bundle.h"

#include <fstream>
#include <map>
#include <sstream>
#include <unistd.h>

#include "core/atomic_file.h"
#include "core/check.h"
#include "core/error.h"
#include "core/json_string.h"
#include "core/npy.h"
#include "core/parser.h"
#include "oracle/explain_disagreement.h"
#include "oracle/registry.h"

namespace strata {
namespace fs = std::filesystem;
namespace {

// A flat JSON object: values are strings, booleans, numbers (kept as text) or arrays of strings.
struct Json {
  std::map<std::string, std::string> scalars;
  std::map<std::string, std::vector<std::string>> lists;
};

class JsonReader {
public:
  JsonReader(std::string text, std::string what) : s_(std::move(text)), what_(std::move(what)) {}

  Json object() {
    Json j;
    expect('{');
    if (peek() == '}') return ++i_, j;
    for (;;) {
      std::string key = string();
      expect(':');
      if (peek() == '[') {
        ++i_;
        std::vector<std::string>& list = j.lists[key];
        if (peek() == ']') {
          ++i_;
        } else {
          for (;;) {
            list.push_back(string());
            if (peek() == ',') {
              ++i_;
              continue;
            }
            expect(']');
            break;
          }
        }
      } else if (peek() == '"') {
        j.scalars[key] = string();
      } else {
        size_t start = i_;
        while (i_ < s_.size() && (std::isalnum((unsigned char)s_[i_]) || s_[i_] == '-' ||
                                  s_[i_] == '.' || s_[i_] == '+'))
          ++i_;
        if (start == i_) fail("expected a value");
        j.scalars[key] = s_.substr(start, i_ - start);
      }
      if (peek() == ',') {
        ++i_;
        continue;
      }
      expect('}');
      return j;
    }
  }

private:
  std::string s_, what_;
  size_t i_ = 0;

  [[noreturn]] void fail(const std::string& m) {
    throw Error(ErrorKind::Input, what_ + ": " + m + " at offset " + std::to_string(i_));
  }
  char peek() {
    while (i_ < s_.size() && std::isspace((unsigned char)s_[i_]))
      ++i_;
    return i_ < s_.size() ? s_[i_] : '\0';
  }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected `") + c + "`");
    ++i_;
  }
  std::string string() {
    expect('"');
    std::string out;
    while (i_ < s_.size() && s_[i_] != '"') {
      char c = s_[i_++];
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= s_.size()) break;
      char e = s_[i_++];
      switch (e) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'u':
        if (i_ + 4 > s_.size()) fail("bad escape");
        out += char(std::stoi(s_.substr(i_, 4), nullptr, 16));
        i_ += 4;
        break;
      default: out += e;
      }
    }
    expect('"');
    return out;
  }
};

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw Error(ErrorKind::Input, p.string() + ": cannot read");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

} // namespace

bool is_bundle(const fs::path& dir) {
  std::error_code ec;
  return fs::is_directory(dir, ec) && fs::is_regular_file(dir / "case.json", ec);
}

// DIR/explanation.txt: the oracle's evaluation of the first element the
// disagreement names (strata explain), when it names one.
void write_explanation(const fs::path& dir, const Bundle& b) {
  std::string tree;
  try {
    Program p = parse_program(b.program_text, (dir / "program.strata").string());
    check_program(p);
    tree = explain_disagreement(p, b.inputs, b.disagreement);
  } catch (const Error&) {
    return; // a program that does not check has no element to explain
  }
  if (tree.empty()) return;
  write_file_atomically((dir / "explanation.txt").string(), tree);
}

// The files of a bundle in `dir` (which exists).
static void write_bundle_files(const fs::path& dir, const Bundle& b) {
  fs::create_directories(dir / "inputs");
  write_file_atomically((dir / "program.strata").string(), b.program_text);
  for (size_t i = 0; i < b.inputs.size(); ++i)
    write_npy((dir / "inputs" / (b.input_names[i] + ".npy")).string(), b.inputs[i]);
  std::ostringstream out;
  out << "{\n  \"program\": \"program.strata\",\n  \"engine\": " << json_string(b.engine)
      << ",\n  \"fusion\": " << (b.fusion ? "true" : "false")
      << ",\n  \"checked\": " << (b.checked ? "true" : "false")
      << ",\n  \"order\": " << json_string(b.order.spec())
      << ",\n  \"math\": " << json_string(math_mode_name(b.math))
      << ",\n  \"seed\": " << json_string(b.seed) << ",\n  \"size\": " << b.size
      << ",\n  \"inputs\": [";
  for (size_t i = 0; i < b.input_names.size(); ++i)
    out << (i ? ", " : "") << json_string(b.input_names[i]);
  out << "],\n  \"disagreement\": " << json_string(b.disagreement) << "\n}\n";
  write_file_atomically((dir / "case.json").string(), out.str());
  write_explanation(dir, b);
}

// Written whole in a directory beside `dir`, then renamed to it: an
// interrupted write (an error, Ctrl-C) never leaves a bundle without its
// case.json or inputs where `strata check` would find it.
void write_bundle(const fs::path& dir, const Bundle& b) {
  fs::path temp = dir;
  temp += ".tmp-" + std::to_string(::getpid());
  fs::remove_all(temp);
  try {
    write_bundle_files(temp, b);
    fs::remove_all(dir);
    fs::rename(temp, dir);
  } catch (const fs::filesystem_error& e) {
    std::error_code ec;
    fs::remove_all(temp, ec);
    throw Error(ErrorKind::Input,
                dir.string() + ": cannot write the bundle: " + e.code().message());
  } catch (...) {
    std::error_code ec;
    fs::remove_all(temp, ec);
    throw;
  }
}

Bundle read_bundle(const fs::path& dir) {
  fs::path json_path = dir / "case.json";
  Json j = JsonReader(read_file(json_path), json_path.string()).object();
  auto text = [&](const std::string& key, const std::string& fallback) {
    auto it = j.scalars.find(key);
    return it == j.scalars.end() ? fallback : it->second;
  };
  Bundle b;
  b.engine = text("engine", "interp");
  b.fusion = text("fusion", "true") == "true";
  b.checked = text("checked", "true") == "true";
  try {
    b.order = ReductionOrder::parse(text("order", "blocked"), json_path.string() + ": order");
  } catch (const Error& e) {
    throw Error(ErrorKind::Input, e.message());
  }
  std::string math = text("math", "exact");
  std::optional<MathMode> mode = parse_math_mode(math);
  if (!mode)
    throw Error(ErrorKind::Input,
                json_path.string() + ": math: `" + math + "` is not a mode (exact, fast)");
  b.math = *mode;
  b.seed = text("seed", "");
  b.size = std::atoi(text("size", "0").c_str());
  b.disagreement = text("disagreement", "");
  b.program_text = read_file(dir / text("program", "program.strata"));
  for (const std::string& name : j.lists["inputs"]) {
    b.input_names.push_back(name);
    b.inputs.push_back(read_npy((dir / "inputs" / (name + ".npy")).string()));
  }
  return b;
}

DiffReport replay_bundle(const Bundle& b) {
  Program p = parse_program(b.program_text, "program.strata");
  check_program(p);
  const Engine* engine = find_engine(b.engine);
  if (!engine)
    throw Error(ErrorKind::Usage, "the bundle names engine `" + b.engine +
                                      "`, not in this build (available: " + engine_names() + ")");
  std::string why;
  if (!engine->available(why))
    throw Error(ErrorKind::Usage, "engine `" + b.engine + "` is not available here: " + why);
  if (p.params.size() != b.inputs.size())
    throw Error(ErrorKind::Input, "the bundle has " + std::to_string(b.inputs.size()) +
                                      " input(s), the program takes " +
                                      std::to_string(p.params.size()));
  return differential_check(p, b.inputs, *engine, b.options());
}

} // namespace strata
