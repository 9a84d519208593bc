#include "bench/inputs.h"

#include <algorithm>
#include <cstring>

namespace strata::bench {

Array zeros_f32(Shape shape) {
  return Array::allocate(Type::scalar(ScalarKind::F32), std::move(shape));
}
Array zeros_i32(Shape shape) {
  return Array::allocate(Type::scalar(ScalarKind::I32), std::move(shape));
}

Array u01v(int64_t n, uint32_t seed, float scale, float off) {
  Array a = zeros_f32({n});
  float* p = a.leaf_data<float>(0);
  for (int64_t i = 0; i < n; ++i)
    p[i] = u01(uint32_t(i), seed) * scale + off;
  return a;
}

Array modv(int64_t n, uint32_t seed, uint32_t m) {
  Array a = zeros_i32({n});
  int32_t* p = a.leaf_data<int32_t>(0);
  for (int64_t i = 0; i < n; ++i)
    p[i] = mod(uint32_t(i), seed, m);
  return a;
}

Array modv_f32(int64_t n, uint32_t seed, uint32_t m, float off) {
  Array a = zeros_f32({n});
  float* p = a.leaf_data<float>(0);
  for (int64_t i = 0; i < n; ++i)
    p[i] = float(mod(uint32_t(i), seed, m)) + off;
  return a;
}

Array reshaped(const Array& a, Shape shape) {
  Array r = Array::allocate(a.elem_type(), std::move(shape));
  for (size_t l = 0; l < a.num_leaves(); ++l)
    std::memcpy(r.leaf(l).data(), a.leaf(l).data(), std::min(a.leaf(l).bytes(), r.leaf(l).bytes()));
  return r;
}

} // namespace strata::bench
