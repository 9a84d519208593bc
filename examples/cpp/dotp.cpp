// dotp in C++: the dot product of two f32 vectors (twin of examples/dotp.strata).
#include "examples/cpp/example_util.h"

using namespace strata::fe;

// sum_i xs[i] * ys[i]: zipWith multiplies, fold (+) from 0 reduces to rank 0.
auto dotp(Acc<Vector<float>> xs, Acc<Vector<float>> ys) {
  return fold([](Exp<float> a, Exp<float> b) { return a + b; }, 0.0f,
              zipWith([](Exp<float> x, Exp<float> y) { return x * y; }, xs, ys));
}

int main(int argc, char** argv) {
  std::string root = argc > 1 ? argv[1] : ".";
  const strata::Engine& engine = *strata::find_engine("interp");
  auto ins = strata::example::inputs(root, "dotp", {"xs", "ys"});
  auto compiled = strata::compile(engine, dotp);
  strata::Array result = compiled(ins[0], ins[1]);
  return strata::example::compare_with_text(root, "dotp", compiled.ir(), {result}, ins);
}
