// cuda stencil: one entry `elem`, work item t = the result element at
// row-major position t, from the window around the same index of the input,
// reads outside going through the boundary (clamp, mirror, wrap or a
// constant; cuda/codegen_scalar.h WindowGen).
//
// Deterministic: every element is computed from the input alone and written
// once; the smallest failing position is reported.
#include "cuda/kernel_gen.h"
#include "cuda/kernel_run.h"

namespace strata::cuda {

// ------------------------------------------------------------ entries

void KernelGen::stencil(const Kernel& k, const kn::Stencil& x) {
  check_rank(int(x.window.size()), k.ops.back().loc);
  entries(k);
  std::string name = entry_name(k, "elem"), code;
  begin(name);
  ScalarGen s(g_, out_, code, 1);
  int rank = int(x.window.size());
  WindowGen w;
  w.name = x.f.params[0].name;
  w.center = index_of(s, "t", words::shape, rank).leaves;
  w.array = x.input;
  switch (x.boundary.kind) {
  case ac::BoundaryKind::Clamp: w.boundary = 0; break;
  case ac::BoundaryKind::Mirror: w.boundary = 1; break;
  case ac::BoundaryKind::Wrap: w.boundary = 2; break;
  case ac::BoundaryKind::Constant:
    w.boundary = 3;
    w.constant = s.exp(*x.boundary.constant);
    break;
  }
  s.window = w;
  Val v = s.apply(x.f, {Val{x.f.params[0].type, {}}});
  s.store(k.outputs[0], "t", v);
  end(name, code);
}

// ------------------------------------------------------------ host

void Run::stencil(const Kernel& k, const kn::Stencil& x) {
  Shape sh = arrays_[size_t(x.input)].shape;
  set(k.outputs[0], allocate(k.outputs[0], sh));
  LaunchParams p;
  put_shape(p, words::shape, sh);
  launch(entry(k, "elem"), p, shape_size(sh));
}

} // namespace strata::cuda
