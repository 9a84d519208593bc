// mandelbrot in C++: escape-time counts on a 24 x 32 grid (twin of
// examples/mandelbrot.strata), f32 arithmetic in the same order, i32 counts.
#include "examples/cpp/example_util.h"

using namespace strata::fe;

using State = std::tuple<int32_t, float, float>; // (count, x, y)

auto mandelbrot() {
  return generate(ix(24, 32), [](Exp<Ix<2>> p) {
    auto cx = -2.0f + cast<float>(get<1>(p)) * (Exp<float>(3.0f) / 32.0f);
    auto cy = -1.5f + cast<float>(get<0>(p)) * (Exp<float>(3.0f) / 24.0f);
    auto escaped = while_(
        [](Exp<State> s) {
          auto x = get<1>(s), y = get<2>(s);
          return get<0>(s) < 255 && x * x + y * y <= 4.0f;
        },
        [=](Exp<State> s) {
          auto x = get<1>(s), y = get<2>(s);
          return tup(get<0>(s) + 1, x * x - y * y + cx, 2.0f * x * y + cy);
        },
        tup(int32_t(0), 0.0f, 0.0f));
    return get<0>(escaped);
  });
}

int main(int argc, char** argv) {
  std::string root = argc > 1 ? argv[1] : ".";
  const strata::Engine& engine = *strata::find_engine("interp");
  auto program = strata::fe::program(mandelbrot());
  strata::Array result = strata::run(engine, mandelbrot());
  return strata::example::compare_with_text(root, "mandelbrot", program->program, {result}, {});
}
