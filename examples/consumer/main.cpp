// A program that uses an installed Strata: a dot product, checked, run on the
// interpreter and on the best engine available on this machine, and compared.
#include <cstdio>

#include "core/check.h"
#include "core/parser.h"
#include "oracle/registry.h"

int main() {
  using namespace strata;
  Program dotp = parse_program(R"((program ((xs (array f32 1)) (ys (array f32 1)))
      (fold (lambda ((a f32) (b f32)) (+ a b)) 0f32
            (zipwith (lambda ((x f32) (y f32)) (* x y)) xs ys))))",
                               "dotp.strata");
  check_program(dotp);

  Array xs = Array::allocate(Type::scalar(ScalarKind::F32), {4});
  Array ys = Array::allocate(Type::scalar(ScalarKind::F32), {4});
  for (int64_t i = 0; i < 4; ++i) {
    xs.leaf_data<float>(0)[i] = float(i + 1); // 1 2 3 4
    ys.leaf_data<float>(0)[i] = 0.5f;
  }

  // The interpreter first, then the last available engine in the registry.
  const Engine* best = nullptr;
  for (const Engine* e : all_engines()) {
    std::string why;
    if (e->available(why)) best = e;
  }
  float oracle = find_engine("interp")->compile(dotp, {})->run({xs, ys})[0].leaf_data<float>(0)[0];
  float fast = best->compile(dotp, {})->run({xs, ys})[0].leaf_data<float>(0)[0];
  std::printf("interp: %g\n%s: %g\n", double(oracle), best->name().c_str(), double(fast));
  return oracle == 5.0f && fast == oracle ? 0 : 1;
}
