// The cuda engine as the registry sees it: registered under "cuda", and on a
// machine without a driver or a GPU unavailable with a message saying why
// (so `strata check` and the properties skip it instead of failing).
#include <gtest/gtest.h>

#include "cuda/engine.h"
#include "oracle/registry.h"

namespace strata {
namespace {

TEST(CudaEngine, IsRegisteredAndSaysWhyItIsUnavailable) {
  const Engine* e = find_engine("cuda");
  ASSERT_NE(e, nullptr);
  std::string why;
  if (e->available(why)) GTEST_SKIP() << "a CUDA device is present";
  EXPECT_TRUE(why == "no CUDA device" || why.find("no CUDA driver") == 0 ||
              why.find("CUDA driver too old") == 0 || why.find("no CUDA device") == 0)
      << why;
}

} // namespace
} // namespace strata
