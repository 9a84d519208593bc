// Black-Scholes in C++: European call and put prices (twin of
// examples/blackscholes.strata), f32. The cumulative normal distribution is a
// C++ function called twice; each call is traced into the program.
#include "examples/cpp/example_util.h"

using namespace strata::fe;

// cnd(d), written in the same order of operations as the text form.
Exp<float> cnd(Exp<float> d) {
  auto k = 1.0f / (1.0f + 0.2316419f * abs(d));
  auto c = 0.3989422804014327f * exp(-0.5f * d * d) * k *
           (0.31938153f +
            k * (-0.356563782f + k * (1.781477937f + k * (-1.821255978f + k * 1.330274429f))));
  return cond(d > 0.0f, 1.0f - c, c);
}

auto blackscholes(Acc<Vector<float>> spot, Acc<Vector<float>> strike, Acc<Vector<float>> years) {
  auto prices = generate(shape(spot), [=](Exp<Ix<1>> i) {
    auto s = spot[i], k = strike[i], t = years[i];
    Exp<float> r = 0.02f, v = 0.3f;
    auto sqrtt = sqrt(t);
    auto d1 = (log(s / k) + (r + 0.5f * (v * v)) * t) / (v * sqrtt);
    auto d2 = d1 - v * sqrtt;
    auto cnd1 = cnd(d1), cnd2 = cnd(d2);
    auto e = exp(-r * t);
    auto ke = k * e;
    auto call = s * cnd1 - ke * cnd2;
    auto put = ke * (1.0f - cnd2) - s * (1.0f - cnd1);
    return tup(call, put);
  });
  using P = std::tuple<float, float>;
  return atuple(map([](Exp<P> p) { return get<0>(p); }, prices),
                map([](Exp<P> p) { return get<1>(p); }, prices));
}

int main(int argc, char** argv) {
  std::string root = argc > 1 ? argv[1] : ".";
  const strata::Engine& engine = *strata::find_engine("interp");
  auto ins = strata::example::inputs(root, "blackscholes", {"spot", "strike", "years"});
  auto compiled = strata::compile(engine, blackscholes);
  std::vector<strata::Array> results = compiled(ins[0], ins[1], ins[2]);
  return strata::example::compare_with_text(root, "blackscholes", compiled.ir(), results, ins);
}
