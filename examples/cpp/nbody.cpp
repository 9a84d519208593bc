// n-body in C++: gravitational accelerations of one step (twin of
// examples/nbody.strata), f32, softening 0.01, summed over j from 0 upwards.
#include "examples/cpp/example_util.h"

using namespace strata::fe;

using V3 = std::tuple<float, float, float>;

auto nbody(Acc<Vector<float>> x, Acc<Vector<float>> y, Acc<Vector<float>> z, Acc<Vector<float>> m) {
  auto n = size(x);
  // The (n, n) contributions of body j to body i, i outer and j inner.
  auto contributions = generate(ix(n, n), [=](Exp<Ix<2>> p) {
    auto i = ix(get<0>(p));
    auto j = ix(get<1>(p));
    auto dx = x[j] - x[i];
    auto dy = y[j] - y[i];
    auto dz = z[j] - z[i];
    auto r2 = dx * dx + dy * dy + dz * dz + 0.01f;
    auto w = m[j] / (r2 * sqrt(r2));
    return tup(dx * w, dy * w, dz * w);
  });
  auto add = [](Exp<V3> a, Exp<V3> b) {
    return tup(get<0>(a) + get<0>(b), get<1>(a) + get<1>(b), get<2>(a) + get<2>(b));
  };
  auto acc = fold(add, tup(0.0f, 0.0f, 0.0f), contributions);
  return atuple(map([](Exp<V3> t) { return get<0>(t); }, acc),
                map([](Exp<V3> t) { return get<1>(t); }, acc),
                map([](Exp<V3> t) { return get<2>(t); }, acc));
}

int main(int argc, char** argv) {
  std::string root = argc > 1 ? argv[1] : ".";
  const strata::Engine& engine = *strata::find_engine("interp");
  auto ins = strata::example::inputs(root, "nbody", {"x", "y", "z", "m"});
  auto compiled = strata::compile(engine, nbody);
  std::vector<strata::Array> results = compiled(ins[0], ins[1], ins[2], ins[3]);
  return strata::example::compare_with_text(root, "nbody", compiled.ir(), results, ins);
}
