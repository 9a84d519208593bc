#include "jit/target_cpu.h"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <optional>
#include <vector>

#include <llvm/ADT/StringMap.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/TargetParser/Triple.h>

#include "core/environment.h"
#include "core/error.h"

namespace strata::jit {
namespace {

// The host's features as LLVM detects them, "+name" or "-name", sorted (the
// detection's own order is a hash map's).
std::string host_features() {
  std::vector<std::string> features;
  for (const auto& f : llvm::sys::getHostCPUFeatures())
    features.push_back((f.second ? "+" : "-") + f.first().str());
  std::sort(features.begin(), features.end());
  std::string out;
  for (const std::string& f : features)
    out += (out.empty() ? "" : ",") + f;
  return out;
}

// `t` with its vector_bits, or Error(Usage) when LLVM does not know its CPU
// or one of its features (checked first: LLVM would only warn and go on).
TargetCpu with_vector_bits(TargetCpu t, const std::string& spec) {
  std::string why;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(t.triple, why);
  if (!target) throw Error(ErrorKind::Resource, "jit: no LLVM target for " + t.triple + ": " + why);
  auto unknown = [&](const std::string& what) {
    return Error(ErrorKind::Usage,
                 "STRATA_JIT_CPU=" + spec + ": " + what + " LLVM does not know for " + t.triple);
  };
  std::unique_ptr<llvm::MCSubtargetInfo> generic(target->createMCSubtargetInfo(t.triple, "", ""));
  if (!generic || !generic->isCPUStringValid(t.name)) throw unknown("'" + t.name + "' is a CPU");
  llvm::SmallVector<llvm::StringRef, 64> features;
  if (!t.host)
    llvm::StringRef(t.features).split(features, ',', -1, false); // the host's: LLVM's own
  for (llvm::StringRef f : features) {
    llvm::StringRef name = f.drop_front(f.starts_with("+") || f.starts_with("-") ? 1 : 0);
    bool known = false;
    for (const llvm::SubtargetFeatureKV& kv : generic->getAllProcessorFeatures())
      known = known || name == kv.Key;
    if (!known) throw unknown("'" + f.str() + "' is a feature");
  }
  std::unique_ptr<llvm::MCSubtargetInfo> sti(
      target->createMCSubtargetInfo(t.triple, t.name, t.features));
  t.vector_bits = sti->checkFeatures("+avx512f") ? 512 : sti->checkFeatures("+avx") ? 256 : 128;
  return t;
}

// The host's CPU as LLVM detects it, without its vector_bits.
TargetCpu host_cpu() {
  llvm::InitializeNativeTarget();
  TargetCpu t;
  t.triple = llvm::sys::getProcessTriple();
  t.name = llvm::sys::getHostCPUName().str();
  t.features = host_features();
  return t;
}

TargetCpu read_target_cpu() {
  if (std::optional<std::string> named = environment_text("STRATA_JIT_CPU"))
    return named_cpu(*named);
  TargetCpu t = host_cpu();
  return with_vector_bits(t, t.name);
}

} // namespace

const TargetCpu& target_cpu() {
  struct Read {
    std::optional<TargetCpu> cpu;
    std::optional<Error> error;
  };
  static const Read read = [] {
    Read r;
    try {
      r.cpu = read_target_cpu();
    } catch (const Error& e) {
      r.error = e;
    }
    return r;
  }();
  if (read.error) throw *read.error;
  return *read.cpu;
}

TargetCpu named_cpu(const std::string& spec) {
  llvm::InitializeNativeTarget();
  TargetCpu t;
  t.triple = llvm::sys::getProcessTriple();
  size_t comma = spec.find(',');
  t.name = spec.substr(0, comma);
  t.features = comma == std::string::npos ? "" : spec.substr(comma + 1);
  t.host = false;
  return with_vector_bits(t, spec);
}

std::string host_cpu_spec() {
  TargetCpu t = host_cpu();
  return t.name + "," + t.features;
}

} // namespace strata::jit
