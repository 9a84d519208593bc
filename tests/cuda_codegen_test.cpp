// The cuda engine's code generator, verified without a GPU: the code of every
// example and of generated programs, fused and unfused, compiles with NVRTC
// straight to CUBIN (which runs ptxas) for sm_80 (the examples for sm_90
// too), and the PTX of the examples is assembled by the toolkit's ptxas. Any
// error fails. Under the sanitizers the examples' code is generated but not
// compiled again (the generated programs still go through NVRTC there).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "cuda/nvrtc_compile.h"
#include "cuda_test_util.h"
#include "tests/test_util.h"

namespace strata {
namespace {
using namespace cudatest;

constexpr int kGenerated = test::kUnderSanitizers ? 24 : 100;
constexpr size_t kBatch = 40; // programs per NVRTC call

void compile_batches(const std::vector<Unit>& us, int arch) {
  for (size_t first = 0; first < us.size(); first += kBatch) {
    std::string src = batch_source(us, first, first + kBatch);
    try {
      cuda::NvrtcOutput out = cuda::nvrtc_compile(src, arch, /*cubin=*/true);
      EXPECT_GT(out.image.size(), 0u);
    } catch (const Error& e) {
      ADD_FAILURE() << "sm_" << arch << ", programs " << first << ".." << first + kBatch
                    << " (first: " << us[first].c->name << "): " << e.what();
    }
  }
}

TEST(CudaCodegen, GeneratedCodeIsCanonical) {
  // The same program gives the same text (it is the cache key), and the text
  // holds no input sizes: two different inputs share it.
  std::vector<Case> cases = example_cases();
  ASSERT_FALSE(cases.empty());
  for (const Case& c : cases) {
    KernelGraph g1 = build_kernel_graph(*c.program, FusionOptions{true});
    KernelGraph g2 = build_kernel_graph(*c.program, FusionOptions{true});
    EXPECT_EQ(cuda::generate(g1).source, cuda::generate(g2).source) << c.name;
  }
}

TEST(CudaCodegen, ExamplesCompileWithNvrtcForSm80AndSm90) {
  std::vector<Case> cases = example_cases();
  std::vector<Unit> us = units(cases, "e");
  // Under the sanitizers the code is generated (the generator runs under
  // them) and NVRTC's wrapper is exercised by the generated programs below;
  // compiling the same text again there takes NVRTC minutes.
  if (test::kUnderSanitizers) GTEST_SKIP() << "compiled by the optimised build";
  for (int arch : {80, 90})
    compile_batches(us, arch);
}

TEST(CudaCodegen, ExamplesPtxAssemblesWithPtxas) {
  const char* ptxas = "/usr/local/cuda/bin/ptxas";
  if (!std::filesystem::exists(ptxas)) GTEST_SKIP() << "no " << ptxas;
  if (test::kUnderSanitizers) GTEST_SKIP() << "assembled by the optimised build";
  std::vector<Case> cases = example_cases();
  std::vector<Unit> us = units(cases, "e");
  auto dir =
      std::filesystem::temp_directory_path() / ("strata-ptxas-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (int arch : {80}) { // (the CUBIN test runs ptxas for sm_80 and sm_90 too)
    cuda::NvrtcOutput out = cuda::nvrtc_compile(batch_source(us, 0, us.size()), arch, false);
    auto ptx = dir / ("all_" + std::to_string(arch) + ".ptx");
    std::ofstream(ptx) << out.image.data();
    std::string cmd = std::string(ptxas) + " -arch=sm_" + std::to_string(arch) + " " +
                      ptx.string() + " -o " + (dir / "out.cubin").string() + " > " +
                      (dir / "log.txt").string() + " 2>&1";
    int rc = std::system(cmd.c_str());
    std::ifstream log(dir / "log.txt");
    std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
    EXPECT_EQ(rc, 0) << "ptxas sm_" << arch << ":\n" << text;
  }
  std::filesystem::remove_all(dir);
}

// Generated programs for sm_80 only: the code is the same text for every
// architecture, and the examples (every kernel kind) compile for sm_90 too.
TEST(CudaCodegen, GeneratedProgramsCompileWithNvrtcForSm80) {
  std::vector<Case> cases = generated_cases(kGenerated);
  std::vector<Unit> us = units(cases, "g");
  compile_batches(us, 80);
}

TEST(CudaCodegen, NvrtcErrorsCarryTheLog) {
  try {
    cuda::nvrtc_compile("this is not C++", 80, false);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("error"), std::string::npos) << e.what();
  }
}

} // namespace
} // namespace strata
