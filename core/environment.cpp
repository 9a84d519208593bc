#include "core/environment.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <system_error>

#include "core/error.h"

namespace strata {

const std::vector<EnvironmentVariable>& environment_variables() {
  static const std::vector<EnvironmentVariable> table = {
      {"STRATA_MEMORY_LIMIT", "BYTES (2G, 512M, ...)",
       "the most array memory a run may hold (default: the machine's available memory)",
       EnvValue::Bytes},
      {"STRATA_CACHE",
       "off",
       "turns the kernel cache on disk off (jit, cuda)",
       EnvValue::Word,
       {"off", "0", "on", "1"}},
      {"STRATA_CACHE_DIR", "DIR",
       "the kernel cache on disk (default $XDG_CACHE_HOME/strata, else ~/.cache/strata)",
       EnvValue::Dir},
      {"STRATA_CACHE_MAX_MB", "N", "the disk cache's size bound in MiB (default 512)",
       EnvValue::Count},
      {"STRATA_MEMORY_CACHE_ENTRIES", "N",
       "compiled kernels each engine keeps in memory (default 1024)", EnvValue::Count},
      {"STRATA_MEMORY_CACHE_MB", "N", "their bytes, in MiB (default 256)", EnvValue::Count},
      {"STRATA_JIT_VECLIB",
       "none|libmvec",
       "libmvec: every jit compile uses fast math, as --math fast (default none: each "
       "compile's --math)",
       EnvValue::Word,
       {"none", "libmvec"}},
      {"STRATA_JIT_TIERS",
       "tiered|optimised|quick",
       "tiered (default): a missed jit kernel runs a quick compile first, then its optimised "
       "code once a background thread has it; optimised: wait for it; quick: never optimise",
       EnvValue::Word,
       {"tiered", "optimised", "quick"}},
      {"STRATA_JIT_PIPELINE",
       "O3",
       "the jit runs LLVM's O3 pipeline instead of its own",
       EnvValue::Word,
       {"O3"}},
      {"STRATA_JIT_DUMP", "DIR",
       "the jit writes the LLVM IR of every kernel it compiles into DIR (made if missing)",
       EnvValue::Dir},
      {"STRATA_JIT_CPU", "NAME[,FEATURES]",
       "the jit compiles for this CPU instead of the machine's, and runs nothing (for measuring "
       "compile cost under valgrind)"},
      {"STRATA_MPI_MIN_BLOCK_BYTES", "BYTES",
       "mpi: arrays smaller than this stay whole on every rank (default 64K; 0: all in blocks)",
       EnvValue::Bytes},
      {"STRATA_COUNTEREXAMPLES", "DIR",
       "strata_properties: where failing cases are saved (default ./counterexamples)",
       EnvValue::Dir},
  };
  return table;
}

std::optional<uint64_t> parse_bytes(const std::string& text) {
  size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits])))
    ++digits;
  if (digits == 0) return std::nullopt;
  std::string suffix = text.substr(digits);
  auto is = [&](const char* unit) {
    return suffix.size() == 1 && std::toupper(suffix[0]) == *unit;
  };
  int shift = suffix.empty() ? 0 : is("K") ? 10 : is("M") ? 20 : is("G") ? 30 : -1;
  if (shift < 0) return std::nullopt;
  errno = 0;
  unsigned long long n = std::strtoull(text.substr(0, digits).c_str(), nullptr, 10);
  if (errno == ERANGE || n > (std::numeric_limits<uint64_t>::max() >> shift)) return std::nullopt;
  return uint64_t(n) << shift;
}

namespace {

const EnvironmentVariable& entry(const char* name) {
  for (const EnvironmentVariable& v : environment_variables())
    if (std::string_view(v.name) == name) return v;
  throw std::logic_error(std::string(name) + " is not in core/environment.cpp's table");
}

Error bad_value(const EnvironmentVariable& v, const std::string& value, const std::string& why) {
  return Error(ErrorKind::Usage, std::string(v.name) + "=" + value + ": " + why);
}

// The value if set and well-formed for its kind; throws otherwise.
std::optional<std::string> checked(const EnvironmentVariable& v) {
  const char* raw = std::getenv(v.name);
  if (!raw || !*raw) return std::nullopt;
  std::string value = raw;
  switch (v.kind) {
  case EnvValue::Bytes:
    if (!parse_bytes(value))
      throw bad_value(v, value,
                      "expected a whole number of bytes, optionally with K, M or G "
                      "(1048576, 64K, 512M, 2G)");
    break;
  case EnvValue::Count:
    if (!parse_bytes(value) || !std::isdigit(static_cast<unsigned char>(value.back())))
      throw bad_value(v, value, "expected a non-negative whole number");
    break;
  case EnvValue::Word:
    for (const char* w : v.accepted)
      if (value == w) return value;
    throw unknown_environment_value(v.name, value);
  case EnvValue::Dir: {
    std::error_code ec;
    if (std::filesystem::exists(value, ec) && !std::filesystem::is_directory(value, ec))
      throw bad_value(v, value, "exists and is not a directory");
    break;
  }
  case EnvValue::Text: break;
  }
  return value;
}

std::optional<std::string> read_as(const char* name, EnvValue kind) {
  const EnvironmentVariable& v = entry(name);
  if (v.kind != kind)
    throw std::logic_error(std::string(name) + " is not read as its table's kind says");
  return checked(v);
}

} // namespace

std::optional<uint64_t> environment_bytes(const char* name) {
  auto value = read_as(name, EnvValue::Bytes);
  return value ? parse_bytes(*value) : std::nullopt;
}

std::optional<uint64_t> environment_count(const char* name) {
  auto value = read_as(name, EnvValue::Count);
  return value ? parse_bytes(*value) : std::nullopt;
}

std::optional<std::string> environment_word(const char* name) {
  return read_as(name, EnvValue::Word);
}

std::optional<std::string> environment_dir(const char* name) {
  return read_as(name, EnvValue::Dir);
}

std::optional<std::string> environment_text(const char* name) {
  return read_as(name, EnvValue::Text);
}

Error unknown_environment_value(const char* name, const std::string& value) {
  const EnvironmentVariable& v = entry(name);
  std::string list;
  for (const char* w : v.accepted)
    list += std::string(list.empty() ? "" : ", ") + w;
  return bad_value(v, value, "unknown value (accepted: " + list + ")");
}

void check_environment() {
  for (const EnvironmentVariable& v : environment_variables())
    (void)checked(v);
}

} // namespace strata
