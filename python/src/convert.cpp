#include "python/src/convert.h"

#include <nanobind/ndarray.h>

#include <functional>
#include <memory>
#include <string>

#include "core/error.h"

namespace strata::python {
namespace {

using Input = nb::ndarray<nb::ro>;

nb::dlpack::dtype dlpack_of(ScalarKind k) {
  auto code = [&] {
    switch (k) {
    case ScalarKind::Bool: return nb::dlpack::dtype_code::Bool;
    case ScalarKind::F32:
    case ScalarKind::F64: return nb::dlpack::dtype_code::Float;
    case ScalarKind::U8:
    case ScalarKind::U16:
    case ScalarKind::U32:
    case ScalarKind::U64: return nb::dlpack::dtype_code::UInt;
    default: return nb::dlpack::dtype_code::Int;
    }
  }();
  return {uint8_t(code), uint8_t(scalar_size(k) * 8), 1};
}

std::string dtype_text(nb::dlpack::dtype d) {
  switch (nb::dlpack::dtype_code(d.code)) {
  case nb::dlpack::dtype_code::Bool: return "bool";
  case nb::dlpack::dtype_code::Int: return "int" + std::to_string(d.bits);
  case nb::dlpack::dtype_code::UInt: return "uint" + std::to_string(d.bits);
  case nb::dlpack::dtype_code::Float: return "float" + std::to_string(d.bits);
  case nb::dlpack::dtype_code::Complex: return "complex" + std::to_string(d.bits);
  default: return "a dtype of code " + std::to_string(d.code);
  }
}

std::string expected(const Param& p) {
  return "parameter `" + p.name + "` is " + p.type.str() + ": a C-contiguous " +
         numpy_dtype_name(p.type.elem().scalar_kind()) + " array of rank " +
         std::to_string(p.type.rank());
}

[[noreturn]] void mismatch(const Param& p, const std::string& given, const std::string& hint = "") {
  throw nb::type_error((expected(p) + ", given " + given + hint).c_str());
}

bool c_contiguous(const Input& a) {
  int64_t stride = 1;
  for (size_t d = a.ndim(); d-- > 0;) {
    if (a.shape(d) != 1 && a.stride(d) != stride) return false;
    stride *= int64_t(a.shape(d));
  }
  return true;
}

} // namespace

const char* numpy_dtype_name(ScalarKind k) {
  switch (k) {
  case ScalarKind::Bool: return "bool";
  case ScalarKind::I8: return "int8";
  case ScalarKind::I16: return "int16";
  case ScalarKind::I32: return "int32";
  case ScalarKind::I64: return "int64";
  case ScalarKind::U8: return "uint8";
  case ScalarKind::U16: return "uint16";
  case ScalarKind::U32: return "uint32";
  case ScalarKind::U64: return "uint64";
  case ScalarKind::F32: return "float32";
  case ScalarKind::F64: return "float64";
  }
  return "?";
}

Array borrow_input(const Param& p, nb::handle obj) {
  if (!p.type.elem().is_scalar())
    throw nb::type_error(("parameter `" + p.name + "` is " + p.type.str() +
                          ": arrays of tuples are not passed from Python yet")
                             .c_str());
  Input a;
  if (!nb::try_cast(obj, a, /*convert=*/false))
    mismatch(p,
             "an object of type " + std::string(nb::str(obj.type().attr("__name__")).c_str()) +
                 " (not an array: no DLPack or buffer protocol)",
             "; numpy.asarray(x, dtype=numpy." +
                 std::string(numpy_dtype_name(p.type.elem().scalar_kind())) + ") converts it");
  ScalarKind k = p.type.elem().scalar_kind();
  std::string given = "a " + dtype_text(a.dtype()) + " array of rank " + std::to_string(a.ndim());
  if (a.device_type() != nb::device::cpu::value) mismatch(p, given + " on a device, not the CPU");
  if (a.dtype() != dlpack_of(k))
    mismatch(p, given,
             "; strata.asarray(x, strata." + std::string(scalar_name(k)) +
                 ") converts it (a copy you ask for)");
  if (int(a.ndim()) != p.type.rank()) mismatch(p, given);
  if (!c_contiguous(a))
    mismatch(p, given + " that is not C-contiguous",
             "; numpy.ascontiguousarray(x) makes a contiguous copy");
  auto* data = static_cast<std::byte*>(const_cast<void*>(static_cast<const void*>(a.data())));
  if (reinterpret_cast<uintptr_t>(data) % scalar_size(k) != 0)
    mismatch(p, given + " whose data is not aligned to its element size");
  Shape shape;
  for (size_t d = 0; d < a.ndim(); ++d)
    shape.push_back(int64_t(a.shape(d)));
  // The buffer keeps the Python object alive; releasing it needs the GIL,
  // which a result that outlives the call may not hold.
  auto owner = std::shared_ptr<const void>(obj.inc_ref().ptr(), [](const void* o) {
    nb::gil_scoped_acquire gil;
    nb::handle(static_cast<PyObject*>(const_cast<void*>(o))).dec_ref();
  });
  size_t bytes = Array::leaf_bytes(shape, k);
  return Array::from_leaves(p.type.elem(), shape, {Buffer::borrow(data, bytes, std::move(owner))});
}

nb::object to_python(const Array& a) {
  std::vector<size_t> shape(a.shape().begin(), a.shape().end());
  auto leaf = [&](size_t l) {
    auto* keep = new Buffer(a.leaf(l));
    nb::capsule owner(keep, [](void* p) noexcept { delete static_cast<Buffer*>(p); });
    return nb::cast(nb::ndarray<nb::numpy>(keep->data(), shape.size(), shape.data(), owner, nullptr,
                                           dlpack_of(a.leaf_kind(l))));
  };
  if (a.num_leaves() == 1 && a.elem_type().is_scalar()) return leaf(0);
  // A tuple element: the leaves nested as the element's tuples nest.
  size_t next = 0;
  std::function<nb::object(const Type&)> build = [&](const Type& t) -> nb::object {
    if (t.is_scalar()) return leaf(next++);
    nb::list items;
    for (const Type& e : t.elems())
      items.append(build(e));
    return nb::tuple(items);
  };
  return build(a.elem_type());
}

} // namespace strata::python
