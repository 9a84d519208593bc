// Compiling and running front-end programs (see run.h).
#include "frontend/run.h"

#include <atomic>
#include <cstring>

#include "core/check.h"
#include "core/large_stack.h"

namespace strata::fe {
namespace {
std::atomic<uint64_t> g_compiles{0};
// Programs nested deeper than this are checked, run and freed on a large stack.
constexpr int kDeep = 200;
} // namespace

uint64_t compile_count() {
  return g_compiles.load(std::memory_order_relaxed);
}

CompiledProgram::CompiledProgram(const Engine& engine, std::unique_ptr<OwnedProgram> program,
                                 const CompileOptions& options)
    : owned_(std::move(program)), deep_(owned_->depth > kDeep) {
  auto build = [&] {
    check_program(owned_->program);
    g_compiles.fetch_add(1, std::memory_order_relaxed);
    executable_ = engine.compile(owned_->program, options);
  };
  if (deep_)
    with_large_stack(build);
  else
    build();
}

CompiledProgram::~CompiledProgram() {
  // The executable may refer to the program: free it first.
  executable_.reset();
  owned_.reset();
}

std::vector<strata::Array> CompiledProgram::run(const std::vector<strata::Array>& inputs) const {
  if (deep_) return with_large_stack([&] { return executable_->run(inputs); });
  return executable_->run(inputs);
}

namespace detail {

std::unique_ptr<OwnedProgram> recover(const std::vector<Param>& params, const AccPtr& body) {
  // The rebuild recurses once per level of the result; graphs from C++ loops
  // can be thousands of levels deep, so it always runs on a large stack.
  return with_large_stack([&] { return recover_sharing(params, body); });
}

strata::Array host_array(const Type& elem, const Shape& shape, const void* data, size_t bytes) {
  strata::Array a = strata::Array::allocate(elem, shape);
  if (a.num_leaves() != 1 || a.leaf(0).bytes() != bytes)
    throw Error(ErrorKind::Input, "host data of " + std::to_string(bytes) +
                                      " bytes does not fill an array of shape " + shape_str(shape) +
                                      " of " + elem.str());
  if (bytes) std::memcpy(a.leaf(0).data(), data, bytes);
  return a;
}

void check_host_array(const strata::Array& a, const Type& expected, const char* what) {
  if (a.type() != expected)
    throw Error(ErrorKind::Input, std::string(what) + ": expected an array of type " +
                                      expected.str() + ", found " + a.type().str());
}

strata::Array input_array(const strata::Array& a, const Type& expected, size_t position) {
  check_host_array(a, expected, ("input " + std::to_string(position)).c_str());
  return a;
}

} // namespace detail
} // namespace strata::fe
