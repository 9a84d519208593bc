// Arrays over memory owned elsewhere (Buffer::borrow, Array::from_leaves):
// what the Python module hands the engines instead of copying NumPy arrays.
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "core/error.h"
#include "oracle/registry.h"
#include "tests/test_util.h"

namespace strata {
namespace {

TEST(ArrayBorrow, TheBufferKeepsItsOwnerAliveAndUsesItsMemory) {
  auto owner = std::make_shared<std::vector<double>>(std::vector<double>{1, 2, 3});
  std::weak_ptr<std::vector<double>> watch = owner;
  auto* data = reinterpret_cast<std::byte*>(owner->data());
  Array a = Array::from_leaves(Type::scalar(ScalarKind::F64), {3},
                               {Buffer::borrow(data, 3 * sizeof(double), owner)});
  owner.reset();
  EXPECT_FALSE(watch.expired()); // the array holds it
  EXPECT_EQ(a.leaf_data<double>(0), reinterpret_cast<double*>(data));
  EXPECT_EQ(a.read(0, 2).get<double>(), 3.0);
  a = Array();
  EXPECT_TRUE(watch.expired());
}

TEST(ArrayBorrow, BuffersMustFitTheShapeAndTheLeaves) {
  std::vector<int32_t> v(4);
  auto* data = reinterpret_cast<std::byte*>(v.data());
  auto none = std::shared_ptr<const void>();
  EXPECT_THROW(
      Array::from_leaves(Type::scalar(ScalarKind::I32), {5}, {Buffer::borrow(data, 16, none)}),
      Error);
  EXPECT_THROW(Array::from_leaves(Type::scalar(ScalarKind::I32), {4}, {}), Error);
  Array ok =
      Array::from_leaves(Type::scalar(ScalarKind::I32), {2, 2}, {Buffer::borrow(data, 16, none)});
  EXPECT_EQ(ok.size(), 4);
}

// Every engine reads a borrowed input and leaves it as it was, run after
// run (an engine reuses only storage it made itself).
TEST(ArrayBorrow, EnginesNeverWriteIntoABorrowedInput) {
  Program p = test::parse_and_check("(program ((xs (array i64 1))) (map (lambda (x) (* x 3)) xs))");
  std::vector<int64_t> v{1, 2, 3, 4, 5, 6, 7, 8, 9};
  auto* data = reinterpret_cast<std::byte*>(v.data());
  Array in = Array::from_leaves(Type::scalar(ScalarKind::I64), {9},
                                {Buffer::borrow(data, v.size() * 8, nullptr)});
  for (const Engine* e : all_engines()) {
    std::string why;
    if (!e->available(why)) continue;
    for (bool fusion : {true, false}) {
      CompileOptions o;
      o.fusion = fusion;
      auto exe = e->compile(p, o);
      for (int run = 0; run < 3; ++run) {
        std::vector<Array> out = exe->run({in});
        EXPECT_EQ(out[0].read(0, 8).get<int64_t>(), 27) << e->name();
      }
      for (int64_t i = 0; i < 9; ++i)
        EXPECT_EQ(v[size_t(i)], i + 1) << e->name();
    }
  }
}

} // namespace
} // namespace strata
