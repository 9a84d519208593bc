#include "python/src/convert.h"

#include <nanobind/ndarray.h>

#include <functional>
#include <memory>
#include <optional>
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

// What one leaf of a parameter must be: the parameter itself, or component
// `path` (e.g. "1" or "0.1") of a parameter with tuple elements.
struct LeafSpec {
  const Param& p;
  ScalarKind kind;
  std::string path;

  std::string expected() const {
    std::string what = "a C-contiguous " + std::string(numpy_dtype_name(kind)) + " array of rank " +
                       std::to_string(p.type.rank());
    return "parameter `" + p.name + "` is " + p.type.str() + ": " +
           (path.empty() ? what : "component " + path + " of its tuple of arrays is " + what);
  }
  [[noreturn]] void mismatch(const std::string& given, const std::string& hint = "") const {
    throw nb::type_error((expected() + ", given " + given + hint).c_str());
  }
};

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

namespace {

// One leaf read in place: its shape and a buffer that keeps `obj` alive.
std::pair<Shape, Buffer> borrow_leaf(const LeafSpec& spec, nb::handle obj) {
  Input a;
  ScalarKind k = spec.kind;
  if (!nb::try_cast(obj, a, /*convert=*/false))
    spec.mismatch("an object of type " + std::string(nb::str(obj.type().attr("__name__")).c_str()) +
                      " (not an array: no DLPack or buffer protocol)",
                  "; numpy.asarray(x, dtype=numpy." + std::string(numpy_dtype_name(k)) +
                      ") converts it");
  std::string given = "a " + dtype_text(a.dtype()) + " array of rank " + std::to_string(a.ndim());
  if (a.device_type() != nb::device::cpu::value) spec.mismatch(given + " on a device, not the CPU");
  if (a.dtype() != dlpack_of(k))
    spec.mismatch(given, "; strata.asarray(x, strata." + std::string(scalar_name(k)) +
                             ") converts it (a copy you ask for)");
  if (int(a.ndim()) != spec.p.type.rank()) spec.mismatch(given);
  if (!c_contiguous(a))
    spec.mismatch(given + " that is not C-contiguous",
                  "; numpy.ascontiguousarray(x) makes a contiguous copy");
  auto* data = static_cast<std::byte*>(const_cast<void*>(static_cast<const void*>(a.data())));
  if (reinterpret_cast<uintptr_t>(data) % scalar_size(k) != 0)
    spec.mismatch(given + " whose data is not aligned to its element size");
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
  return {shape, Buffer::borrow(data, bytes, std::move(owner))};
}

std::string shape_text(const Shape& s) {
  std::string out = "(";
  for (size_t d = 0; d < s.size(); ++d)
    out += (d ? ", " : "") + std::to_string(s[d]);
  return out + (s.size() == 1 ? ",)" : ")");
}

} // namespace

Array borrow_input(const Param& p, nb::handle obj) {
  const Type& elem = p.type.elem();
  if (elem.is_scalar()) {
    auto [shape, buffer] = borrow_leaf({p, elem.scalar_kind(), ""}, obj);
    return Array::from_leaves(elem, shape, {std::move(buffer)});
  }
  // A tuple element: a tuple of arrays nested as the element's tuples nest
  // (the form results of tuple elements come back in), one per leaf, all of
  // one shape.
  std::vector<Buffer> leaves;
  std::optional<Shape> shape;
  std::function<void(const Type&, nb::handle, const std::string&)> take =
      [&](const Type& t, nb::handle o, const std::string& path) {
        if (t.is_scalar()) {
          auto [s, buffer] = borrow_leaf({p, t.scalar_kind(), path}, o);
          if (shape && s != *shape)
            throw nb::type_error(("parameter `" + p.name + "` is " + p.type.str() +
                                  ": its component arrays must have one shape, component " + path +
                                  " has shape " + shape_text(s) + ", the first " +
                                  shape_text(*shape))
                                     .c_str());
          shape = s;
          leaves.push_back(std::move(buffer));
          return;
        }
        size_t n = t.elems().size();
        if (!nb::isinstance<nb::tuple>(o) || nb::len(o) != n)
          throw nb::type_error(("parameter `" + p.name + "` is " + p.type.str() + ": " +
                                (path.empty() ? "a tuple" : "component " + path + " is a tuple") +
                                " of " + std::to_string(n) + " arrays, one per component, given " +
                                (nb::isinstance<nb::tuple>(o)
                                     ? "a tuple of " + std::to_string(nb::len(o))
                                     : "an object of type " +
                                           std::string(nb::str(o.type().attr("__name__")).c_str())))
                                   .c_str());
        for (size_t i = 0; i < n; ++i)
          take(t.elems()[i], o[i],
               path.empty() ? std::to_string(i) : path + "." + std::to_string(i));
      };
  take(elem, obj, "");
  if (!shape)
    throw nb::type_error(("parameter `" + p.name + "` is " + p.type.str() +
                          ": an array of empty tuples is not passed from Python")
                             .c_str());
  return Array::from_leaves(elem, *shape, std::move(leaves));
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
