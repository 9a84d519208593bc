// Tests of .npy files read and written by rows (core/npy_rows.h): rows equal
// the same rows of the file read whole, only the rows asked for are read,
// writers of disjoint rows on several threads make exactly the bytes
// write_npy makes, and a failure leaves no file and no temporary; any
// engine's executable runs on such files (Executable::run_files' default).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/error.h"
#include "core/npy.h"
#include "core/npy_rows.h"
#include "oracle/registry.h"
#include "tests/cli_util.h"
#include "tests/test_util.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

class NpyRowsFiles : public ::testing::Test {
protected:
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::vector<std::string> names() const {
    std::vector<std::string> v;
    for (const auto& e : fs::directory_iterator(dir_.path()))
      v.push_back(e.path().filename().string());
    std::sort(v.begin(), v.end());
    return v;
  }
  test::TempDir dir_;
};

std::string file_bytes(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Element i of every leaf is a value made from i and the leaf (bools alternate).
Array numbered(const Type& elem, const Shape& shape) {
  Array a = Array::allocate(elem, shape);
  for (size_t l = 0; l < a.num_leaves(); ++l)
    for (int64_t i = 0; i < a.size(); ++i)
      a.write(l, i, dispatch_kind(a.leaf_kind(l), [&](auto tag) -> Scalar {
                using T = decltype(tag);
                if constexpr (std::is_same_v<T, bool>)
                  return Scalar::make<bool>(i % 3 == 1);
                else
                  return Scalar::make<T>(T(i * 7 + int64_t(l)));
              }));
  return a;
}

// Rows [lo, hi) of `a`, copied element by element.
Array slice(const Array& a, int64_t lo, int64_t hi) {
  Shape s = a.shape();
  s[0] = hi - lo;
  Array out = Array::allocate(a.elem_type(), s);
  int64_t row = a.size() / a.shape()[0];
  for (size_t l = 0; l < a.num_leaves(); ++l)
    for (int64_t i = 0; i < out.size(); ++i)
      out.write(l, i, a.read(l, lo * row + i));
  return out;
}

const Type kF32 = Type::scalar(ScalarKind::F32);
const Type kPair = Type::tuple({Type::scalar(ScalarKind::I16), Type::scalar(ScalarKind::F64)});
const Type kBool = Type::scalar(ScalarKind::Bool);

TEST_F(NpyRowsFiles, RowsAreTheRowsOfTheWholeFile) {
  for (const Type& elem : {kF32, kPair, kBool}) {
    Array a = numbered(elem, {7, 3, 2});
    write_npy(path("a.npy"), a);
    NpyRowsReader r(path("a.npy"));
    EXPECT_EQ(r.type(), a.type());
    EXPECT_EQ(r.shape(), a.shape());
    EXPECT_EQ(r.rows(), 7);
    for (auto [lo, hi] :
         std::vector<std::pair<int64_t, int64_t>>{{0, 7}, {0, 3}, {3, 7}, {5, 6}, {4, 4}})
      EXPECT_TRUE(identical(r.read(lo, hi), slice(a, lo, hi)))
          << elem.str() << " rows " << lo << ".." << hi;
    EXPECT_TRUE(identical(r.read_all(), a));
  }
}

TEST_F(NpyRowsFiles, OnlyTheRowsAskedForAreRead) {
  Array a = numbered(kPair, {1000, 4});
  write_npy(path("a.npy"), a);
  NpyRowsReader r(path("a.npy"));
  NpyRowsReader copy = r; // copies count together
  EXPECT_EQ(r.bytes_read(), 0u);
  (void)copy.read(100, 150);
  EXPECT_EQ(r.bytes_read(), 50u * 4 * 10); // 50 rows of 4 records of 10 bytes
}

TEST_F(NpyRowsFiles, ARankZeroArrayIsOneRow) {
  Array a = numbered(kPair, {});
  write_npy(path("s.npy"), a);
  NpyRowsReader r(path("s.npy"));
  EXPECT_EQ(r.rows(), 1);
  EXPECT_TRUE(identical(r.read(0, 1), a));
}

TEST_F(NpyRowsFiles, BadFilesAndRowsAreInputErrors) {
  auto input_error = [](auto&& f, const std::string& part) {
    try {
      f();
      ADD_FAILURE() << "no error; expected: " << part;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Input);
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  input_error([&] { NpyRowsReader r(path("missing.npy")); }, "missing.npy: cannot open");
  Array a = numbered(kF32, {10});
  std::string bytes = encode_npy(a);
  std::ofstream(path("short.npy"), std::ios::binary) << bytes.substr(0, bytes.size() - 4);
  input_error([&] { NpyRowsReader r(path("short.npy")); }, "truncated data");
  write_npy(path("a.npy"), a);
  NpyRowsReader r(path("a.npy"));
  input_error([&] { (void)r.read(4, 11); }, "rows [4, 11) are outside an array of shape (10)");
  // A bad bool byte is named by its element in the file, not in the rows read.
  Array b = numbered(kBool, {10});
  std::string bb = encode_npy(b);
  bb[bb.size() - 10 + 7] = char(2);
  std::ofstream(path("b.npy"), std::ios::binary) << bb;
  NpyRowsReader rb(path("b.npy"));
  EXPECT_NO_THROW((void)rb.read(0, 7));
  input_error([&] { (void)rb.read(5, 9); }, "invalid bool byte 0x02 at element 7");
}

TEST_F(NpyRowsFiles, WritersOfDisjointRowsMakeWriteNpysBytes) {
  for (const Type& elem : {kF32, kPair, kBool}) {
    Array a = numbered(elem, {11, 5});
    write_npy(path("whole.npy"), a);
    NpyRowsWriter w = NpyRowsWriter::create(path("rows.npy"), elem, a.shape());
    EXPECT_FALSE(fs::exists(path("rows.npy"))); // not before the commit
    std::vector<std::thread> threads;
    for (auto [lo, hi] : std::vector<std::pair<int64_t, int64_t>>{{0, 4}, {4, 8}, {8, 11}})
      threads.emplace_back([&, lo = lo, hi = hi] {
        NpyRowsWriter::open(path("rows.npy"), w.temp(), elem, a.shape())
            .write(lo, slice(a, lo, hi));
      });
    for (std::thread& t : threads)
      t.join();
    w.commit();
    EXPECT_EQ(file_bytes(path("rows.npy")), file_bytes(path("whole.npy"))) << elem.str();
    EXPECT_EQ(names(), (std::vector<std::string>{"rows.npy", "whole.npy"}));
    fs::remove(path("rows.npy"));
    fs::remove(path("whole.npy"));
  }
}

TEST_F(NpyRowsFiles, AWriterNotCommittedLeavesTheTargetAndNoTemporary) {
  std::ofstream(path("out.npy")) << "the user's file";
  {
    NpyRowsWriter w = NpyRowsWriter::create(path("out.npy"), kF32, {4});
    w.write(0, numbered(kF32, {2}));
    EXPECT_EQ(names().size(), 2u); // the target and the temporary
  }
  EXPECT_EQ(names(), std::vector<std::string>{"out.npy"});
  EXPECT_EQ(file_bytes(path("out.npy")), "the user's file");
}

TEST_F(NpyRowsFiles, WrongRowsAndUnwritablePlacesAreErrors) {
  NpyRowsWriter w = NpyRowsWriter::create(path("out.npy"), kF32, {4, 2});
  EXPECT_THROW(w.write(3, numbered(kF32, {2, 2})), Error);  // past the end
  EXPECT_THROW(w.write(0, numbered(kF32, {2, 3})), Error);  // another row shape
  EXPECT_THROW(w.write(0, numbered(kPair, {2, 2})), Error); // another type
  NpyRowsWriter other = NpyRowsWriter::open(path("out.npy"), w.temp(), kF32, {4, 2});
  EXPECT_THROW(other.commit(), Error); // only the creator commits
  EXPECT_THROW(NpyRowsWriter::create(path("no/such/dir/out.npy"), kF32, {4}), Error);
}

// Executable::run_files as every engine but mpi has it: the inputs read
// whole, the results returned, or written whole (by rank 0 of a launch,
// which a test process is) and none returned.
TEST_F(NpyRowsFiles, AnyExecutableRunsOnFilesReadWhole) {
  Program p = test::parse_and_check("(program ((xs (array f32 2)) (k (array i64 0)))\n"
                                    "  (atuple (map (lambda ((x f32)) (* x 2f32)) xs)\n"
                                    "          (map (lambda ((v i64)) (+ v 1)) k)))");
  Array xs = numbered(kF32, {3, 4});
  Array k = test::scalar_array<int64_t>(5);
  write_npy(path("xs.npy"), xs);
  write_npy(path("k.npy"), k);
  std::vector<NpyRowsReader> readers;
  readers.emplace_back(path("xs.npy"));
  readers.emplace_back(path("k.npy"));
  auto exe = find_engine("interp")->compile(p, CompileOptions{});
  std::vector<Array> want = exe->run({xs, k});
  std::vector<Array> got = exe->run_files(readers, {});
  ASSERT_EQ(got.size(), 2u);
  EXPECT_TRUE(identical(got[0], want[0]));
  EXPECT_TRUE(identical(got[1], want[1]));

  EXPECT_TRUE(exe->run_files(readers, {path("a.npy"), path("b.npy")}).empty());
  write_npy(path("want_a.npy"), want[0]);
  write_npy(path("want_b.npy"), want[1]);
  EXPECT_EQ(file_bytes(path("a.npy")), file_bytes(path("want_a.npy")));
  EXPECT_EQ(file_bytes(path("b.npy")), file_bytes(path("want_b.npy")));

  // One path for two results: a usage error, nothing written.
  try {
    exe->run_files(readers, {path("c.npy")});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_STREQ(e.what(), "error: 1 output files for 2 results");
  }
  EXPECT_FALSE(fs::exists(path("c.npy")));
}

} // namespace
} // namespace strata
