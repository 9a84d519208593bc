// jit generate: one entry writes elements [begin, end) of the result in
// row-major order, each from its index alone (jit/kernel_builder.cpp
// materialise: a row's elements W at a time in vectors where the element
// function allows, jit/lane_codegen.h). The host runs the entry on chunks of
// kGrain positions in parallel.
//
// A generate that is a leaf view of another kernel's result
// (fusion/leaf_view.h: a map taking one component of a tuple array) shares
// that array's leaves instead.
//
// Deterministic: every element is computed from its index alone, written
// once; chunks are by position, never by thread; after failures the error of
// the lowest failing chunk is raised, which is the first failing element
// (each entry stops at its first).
#include "jit/kernel_builder.h"
#include "jit/kernel_slots.h"
#include "jit/kernels.h"

namespace strata::jit {

using llvm::Value;
using namespace host;

// ------------------------------------------------------------ entry points

void KernelBuilder::generate(const kn::Generate& x) {
  materialise(x.body, k_.outputs[0]);
}

// ------------------------------------------------------------ host

void run_generate(Runtime& rt, const CompiledKernel& c, const Kernel& k, const kn::Generate& g) {
  Shape sh = rt.prepare(c, g.body);
  // A projection of another kernel's result at the element's own index:
  // that array's leaves, shared (fusion/leaf_view.h).
  if (const std::optional<LeafView>& view = c.view) {
    const Array& source = rt.get(view->array);
    if (source.shape() == sh) {
      std::vector<Buffer> leaves;
      for (size_t l = 0; l < view->leaves; ++l)
        leaves.push_back(source.leaf(view->first_leaf + l));
      rt.set(k.outputs[0], Array::from_leaves(g.body.type.elem(), sh, std::move(leaves)));
      return;
    }
  }
  rt.set(k.outputs[0], result_array(rt, g.body.type.elem(), sh));
  rt.parallel(c, c.code.generate.at(&g.body), rt.get(k.outputs[0]).size(), kGrain, nullptr);
}

} // namespace strata::jit
