// cuda generate: one entry `elem`, work item t = the element at row-major
// position t of the result, computed from its index alone (launch words: the
// shape). The executor launches it on every element.
//
// Deterministic: every element is computed from its index and written once;
// of several failing elements the one with the smallest position is
// reported (the error slot's atomic min of order keys, then a diagnosing
// launch for that element alone), as in the interpreter.
#include "cuda/kernel_gen.h"
#include "cuda/kernel_run.h"

namespace strata::cuda {

// ------------------------------------------------------------ entries

void KernelGen::generate(const Kernel& k, const kn::Generate& x) {
  delayed(x.body, k.ops.back().loc);
  entries(k);
  std::string name = entry_name(k, "elem"), code;
  begin(name);
  ScalarGen s(g_, out_, code, 1);
  Val v = element(s, x.body, "t", words::shape);
  s.store(k.outputs[0], "t", v);
  end(name, code);
}

// ------------------------------------------------------------ host

void Run::generate(const Kernel& k, const kn::Generate& x) {
  Shape sh = prepare(x.body);
  set(k.outputs[0], allocate(k.outputs[0], sh));
  LaunchParams p;
  put_shape(p, words::shape, sh);
  launch(entry(k, "elem"), p, shape_size(sh));
}

} // namespace strata::cuda
