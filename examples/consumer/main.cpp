// A program that uses an installed Strata: a dot product written with the C++
// front end, compiled once and run on the interpreter and on the best engine
// available on this machine, and compared.
#include <cstdio>
#include <string>
#include <vector>

#include "frontend/frontend.h"
#include "oracle/registry.h"

using namespace strata::fe;

auto dotp(Acc<Vector<float>> xs, Acc<Vector<float>> ys) {
  return fold([](Exp<float> a, Exp<float> b) { return a + b; }, 0.0f,
              zipWith([](Exp<float> x, Exp<float> y) { return x * y; }, xs, ys));
}

int main() {
  std::vector<float> xs = {1, 2, 3, 4}, ys = {0.5f, 0.5f, 0.5f, 0.5f};

  // The last engine in the registry that can run here (the registry lists the
  // interpreter first, then the engines this Strata was built with).
  const strata::Engine* best = nullptr;
  for (const strata::Engine* e : strata::all_engines()) {
    std::string why;
    if (e->available(why)) best = e;
  }
  auto on_interp = strata::compile(*strata::find_engine("interp"), dotp);
  auto on_best = strata::compile(*best, dotp);
  float oracle = on_interp(xs, ys).leaf_data<float>(0)[0];
  float fast = on_best(xs, ys).leaf_data<float>(0)[0];
  std::printf("interp: %g\n%s: %g\n", double(oracle), best->name().c_str(), double(fast));
  return oracle == 5.0f && fast == oracle ? 0 : 1;
}
