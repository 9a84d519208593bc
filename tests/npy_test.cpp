// Tests of .npy reading and writing: round trips, NumPy-exact headers, the
// other format versions, and one test per class of bad file.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#include <unistd.h>

#include "core/error.h"
#include "core/npy.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

Type scalar_type(ScalarKind k) {
  return Type::scalar(k);
}

// A scratch directory removed at the end of each test.
class NpyFiles : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("strata_npy_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  void write_bytes(const std::string& name, const std::string& bytes) const {
    std::ofstream(path(name), std::ios::binary) << bytes;
  }
  fs::path dir_;
};

// An array whose leaf bytes follow a simple pattern, valid for every kind.
Array patterned(const Type& elem, const Shape& shape) {
  Array a = Array::allocate(elem, shape);
  for (size_t l = 0; l < a.num_leaves(); ++l) {
    for (int64_t i = 0; i < a.size(); ++i) {
      Scalar v = dispatch_kind(a.leaf_kind(l), [&](auto tag) -> Scalar {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, bool>)
          return Scalar::make<bool>((i + int64_t(l)) % 3 == 0);
        else if constexpr (std::is_floating_point_v<T>)
          return Scalar::make<T>(T(i) * T(0.5) - T(l));
        else
          return Scalar::make<T>(T(i * 37 + int64_t(l) * 11 - 5));
      });
      a.write(l, i, v);
    }
  }
  return a;
}

std::string prefix_v1(size_t header_len) {
  std::string s("\x93NUMPY\x01\x00", 8);
  s += char(header_len & 0xff);
  s += char(header_len >> 8);
  return s;
}

// A complete v1.0 file with the given header dict text and data bytes.
std::string v1_file(const std::string& dict, const std::string& data) {
  std::string h = dict + "\n";
  return prefix_v1(h.size()) + h + data;
}

std::string le32(uint32_t v) {
  std::string s;
  for (int i = 0; i < 4; ++i)
    s += char((v >> (8 * i)) & 0xff);
  return s;
}

void expect_input_error(const std::string& bytes, const std::string& needle) {
  try {
    parse_npy(bytes, "x.npy");
    ADD_FAILURE() << "no error; expected one containing '" << needle << "'";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Input) << e.what();
    EXPECT_NE(e.message().find(needle), std::string::npos) << e.message();
    EXPECT_EQ(e.message().rfind("x.npy: ", 0), 0u) << e.message();
    EXPECT_EQ(e.message().find('\n'), std::string::npos) << e.message();
  }
}

TEST_F(NpyFiles, RoundTripsEveryScalarKindThroughAFile) {
  for (int k = 0; k < kNumScalarKinds; ++k) {
    auto kind = static_cast<ScalarKind>(k);
    Array a = patterned(scalar_type(kind), {7});
    std::string p = path(std::string(scalar_name(kind)) + ".npy");
    write_npy(p, a);
    Array b = read_npy(p);
    EXPECT_TRUE(identical(a, b)) << scalar_name(kind);
    EXPECT_EQ(encode_npy(a), encode_npy(b));
  }
}

TEST(Npy, RoundTripsSpecialFloatsBitwise) {
  Array a = Array::allocate(scalar_type(ScalarKind::F64), {5});
  double vals[] = {std::nan(""), -0.0, INFINITY, -INFINITY,
                   std::numeric_limits<double>::denorm_min()};
  for (int i = 0; i < 5; ++i)
    a.write(0, i, Scalar::make<double>(vals[i]));
  EXPECT_TRUE(identical(a, parse_npy(encode_npy(a), "mem")));
}

TEST(Npy, RoundTripsRanksZeroToFour) {
  for (const Shape& sh : {Shape{}, Shape{5}, Shape{2, 3}, Shape{2, 3, 4}, Shape{2, 1, 3, 2}}) {
    Array a = patterned(scalar_type(ScalarKind::I32), sh);
    Array b = parse_npy(encode_npy(a), "mem");
    EXPECT_TRUE(identical(a, b)) << shape_str(sh);
  }
}

TEST(Npy, RoundTripsZeroLengthDimensions) {
  for (const Shape& sh : {Shape{0}, Shape{2, 0, 3}, Shape{0, 0}}) {
    Array a =
        patterned(Type::tuple({scalar_type(ScalarKind::F32), scalar_type(ScalarKind::U8)}), sh);
    Array b = parse_npy(encode_npy(a), "mem");
    EXPECT_TRUE(identical(a, b)) << shape_str(sh);
    EXPECT_EQ(b.size(), 0);
  }
}

TEST_F(NpyFiles, RoundTripsNestedTuples) {
  Type inner = Type::tuple({scalar_type(ScalarKind::F32), scalar_type(ScalarKind::Bool)});
  Type elem = Type::tuple({scalar_type(ScalarKind::I64), inner, scalar_type(ScalarKind::U16)});
  for (const Shape& sh : {Shape{}, Shape{3}, Shape{4, 5}, Shape{2, 2, 2, 3}}) {
    Array a = patterned(elem, sh);
    write_npy(path("t.npy"), a);
    Array b = read_npy(path("t.npy"));
    EXPECT_EQ(b.elem_type(), elem);
    EXPECT_TRUE(identical(a, b)) << shape_str(sh);
  }
}

TEST(Npy, TupleRecordsAreInterleavedAndPacked) {
  Array a = Array::allocate(
      Type::tuple({scalar_type(ScalarKind::I16), scalar_type(ScalarKind::U8)}), {2});
  a.write(0, 0, Scalar::make<int16_t>(0x0102));
  a.write(1, 0, Scalar::make<uint8_t>(3));
  a.write(0, 1, Scalar::make<int16_t>(0x0405));
  a.write(1, 1, Scalar::make<uint8_t>(6));
  std::string bytes = encode_npy(a);
  EXPECT_EQ(bytes.substr(bytes.size() - 6), std::string("\x02\x01\x03\x05\x04\x06", 6));
  EXPECT_NE(bytes.find("'descr': [('f0', '<i2'), ('f1', '|u1')]"), std::string::npos);
}

TEST(Npy, WritesExactlyWhatNumPyWritesForArange3) {
  Array a = Array::allocate(scalar_type(ScalarKind::I32), {3});
  for (int i = 0; i < 3; ++i)
    a.write(0, i, Scalar::make<int32_t>(i));
  std::string expected = std::string("\x93NUMPY\x01\x00v\x00", 10) +
                         "{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }" +
                         std::string(60, ' ') + "\n" + std::string("\0\0\0\0\1\0\0\0\2\0\0\0", 12);
  EXPECT_EQ(encode_npy(a), expected);
  EXPECT_EQ((expected.size() - 12) % 64, 0u);
}

TEST(Npy, WritesExactlyWhatNumPyWritesForAScalarAndABoolMatrix) {
  Array s = Array::allocate(scalar_type(ScalarKind::F64), {});
  std::string expected = std::string("\x93NUMPY\x01\x00v\x00", 10) +
                         "{'descr': '<f8', 'fortran_order': False, 'shape': (), }" +
                         std::string(62, ' ') + "\n" + std::string(8, '\0');
  EXPECT_EQ(encode_npy(s), expected);

  Array b = Array::allocate(scalar_type(ScalarKind::Bool), {12, 3});
  std::string dict = "{'descr': '|b1', 'fortran_order': False, 'shape': (12, 3), }";
  std::string bytes = encode_npy(b);
  EXPECT_EQ(bytes.substr(10, dict.size() + 19), dict + std::string(19, ' '));
  EXPECT_EQ(bytes.size(), 128u + 36u);
}

TEST(Npy, WritesNestedStructuredDescr) {
  Type elem =
      Type::tuple({scalar_type(ScalarKind::I32),
                   Type::tuple({scalar_type(ScalarKind::F32), scalar_type(ScalarKind::Bool)})});
  std::string bytes = encode_npy(Array::allocate(elem, {2, 3}));
  std::string dict = "{'descr': [('f0', '<i4'), ('f1', [('f0', '<f4'), ('f1', '|b1')])], "
                     "'fortran_order': False, 'shape': (2, 3), }";
  EXPECT_EQ(bytes.substr(0, 10), std::string("\x93NUMPY\x01\x00\xb6\x00", 10));
  EXPECT_EQ(bytes.substr(10, dict.size()), dict);
  EXPECT_EQ(bytes.substr(191, 1), "\n");
  EXPECT_EQ(bytes.size(), 192u + 6 * 9);
}

TEST(Npy, WritesVersion2WhenTheHeaderIsTooLongForVersion1) {
  Type elem = Type::tuple(std::vector<Type>(5000, scalar_type(ScalarKind::U8)));
  Array a = patterned(elem, {2});
  std::string bytes = encode_npy(a);
  EXPECT_EQ(bytes[6], '\x02');
  EXPECT_EQ(bytes[7], '\x00');
  uint32_t hlen = 0;
  for (int i = 3; i >= 0; --i)
    hlen = hlen * 256 + static_cast<unsigned char>(bytes[8 + size_t(i)]);
  EXPECT_GT(hlen, 65535u);
  EXPECT_EQ((12 + hlen) % 64, 0u);
  EXPECT_TRUE(identical(a, parse_npy(bytes, "mem")));
}

TEST(Npy, ReadsHandBuiltVersion2) {
  std::string h = "{'descr': '<u2', 'fortran_order': False, 'shape': (2,)}";
  h += std::string(64 - (12 + h.size() + 1) % 64, ' ') + "\n";
  std::string bytes = std::string("\x93NUMPY\x02\x00", 8) + le32(uint32_t(h.size())) + h +
                      std::string("\x01\x00\xff\xff", 4);
  Array a = parse_npy(bytes, "v2.npy");
  EXPECT_EQ(a.elem_type(), scalar_type(ScalarKind::U16));
  EXPECT_EQ(a.shape(), Shape{2});
  EXPECT_EQ(a.read(0, 0).get<uint16_t>(), 1);
  EXPECT_EQ(a.read(0, 1).get<uint16_t>(), 0xffff);
}

TEST(Npy, ReadsHandBuiltVersion3WithUtf8FieldNames) {
  std::string h = "{'descr': [('\xc3\xa9t\xc3\xa9', '<i4'), ('\xce\xbb', '<f8')], "
                  "'fortran_order': False, 'shape': (1,), }\n";
  std::string data = std::string("\x07\0\0\0", 4) + std::string("\0\0\0\0\0\0\xf8\x3f", 8);
  std::string bytes = std::string("\x93NUMPY\x03\x00", 8) + le32(uint32_t(h.size())) + h + data;
  Array a = parse_npy(bytes, "v3.npy");
  EXPECT_EQ(a.elem_type(),
            Type::tuple({scalar_type(ScalarKind::I32), scalar_type(ScalarKind::F64)}));
  EXPECT_EQ(a.read(0, 0).get<int32_t>(), 7);
  EXPECT_EQ(a.read(1, 0).get<double>(), 1.5);
}

TEST(Npy, ToleratesHeaderSpellings) {
  std::string data("\x01\0\x02\0\x03\0\x04\0\x05\0\x06\0", 12);
  for (std::string dict : {
           "{'shape': (2, 3), 'fortran_order': False, 'descr': '<i2'}",
           "{ \"descr\" : \"<i2\" , \"fortran_order\":False,'shape':(2,3,) ,}",
           "{'descr': '<i2', 'fortran_order': False, 'shape': (2L, 3L), }  \n  ",
           "{'descr': '<i2',\n 'fortran_order': False,\t'shape': (2, 3)}",
       }) {
    Array a = parse_npy(v1_file(dict, data), "x.npy");
    EXPECT_EQ(a.shape(), (Shape{2, 3})) << dict;
    EXPECT_EQ(a.read(0, 5).get<int16_t>(), 6) << dict;
  }
}

TEST(Npy, AcceptsOneByteOrdersAndNativeOrder) {
  for (std::string d : {"'=u1'", "'<u1'", "'|i1'", "'=b1'", "'=f4'", "'<b1'"}) {
    std::string dict = "{'descr': " + d + ", 'fortran_order': False, 'shape': (1,), }";
    size_t n = d.find("f4") != std::string::npos ? 4 : 1;
    EXPECT_NO_THROW(parse_npy(v1_file(dict, std::string(n, '\0')), "x.npy")) << d;
  }
}

TEST(Npy, FortranOrderIsAcceptedOnlyWhereTheLayoutIsTheSame) {
  auto file = [](const std::string& shape, size_t n) {
    return v1_file("{'descr': '|u1', 'fortran_order': True, 'shape': " + shape + ", }",
                   std::string(n, '\1'));
  };
  EXPECT_EQ(parse_npy(file("(4,)", 4), "x.npy").size(), 4);
  EXPECT_EQ(parse_npy(file("()", 1), "x.npy").size(), 1);
  EXPECT_EQ(parse_npy(file("(1, 4, 1)", 4), "x.npy").size(), 4);
  EXPECT_EQ(parse_npy(file("(3, 0)", 0), "x.npy").size(), 0);
  expect_input_error(file("(2, 3)", 6), "Fortran-order");
}

TEST(Npy, SkipsNumPyPaddingFields) {
  std::string dict = "{'descr': [('a', '|u1'), ('', '|V3'), ('b', '<i4')], "
                     "'fortran_order': False, 'shape': (2,), }";
  std::string data("\x09\xaa\xaa\xaa\x01\0\0\0\x0a\xbb\xbb\xbb\x02\0\0\0", 16);
  Array a = parse_npy(v1_file(dict, data), "x.npy");
  EXPECT_EQ(a.elem_type(),
            Type::tuple({scalar_type(ScalarKind::U8), scalar_type(ScalarKind::I32)}));
  EXPECT_EQ(a.read(0, 1).get<uint8_t>(), 10);
  EXPECT_EQ(a.read(1, 1).get<int32_t>(), 2);
}

TEST(Npy, RejectsBadMagic) {
  expect_input_error("PK\x03\x04 this is a zip", "not a .npy file (bad magic)");
  expect_input_error("", "not a .npy file");
}

TEST(Npy, RejectsUnsupportedVersions) {
  expect_input_error(std::string("\x93NUMPY\x04\x00\x10\x00", 10), "unsupported .npy version 4.0");
  expect_input_error(std::string("\x93NUMPY\x01\x01\x10\x00", 10), "unsupported .npy version 1.1");
}

TEST(Npy, RejectsTruncatedHeaders) {
  expect_input_error(std::string("\x93NUM", 4), "truncated header");
  expect_input_error(std::string("\x93NUMPY\x01", 7), "truncated header");
  expect_input_error(std::string("\x93NUMPY\x02\x00\x10\x00", 10), "truncated header");
  expect_input_error(prefix_v1(500) + "{'descr': '<i4', ", "truncated header");
  std::string huge = std::string("\x93NUMPY\x02\x00", 8) + le32(0xffffffffu) + "{}";
  expect_input_error(huge, "truncated header");
}

TEST(Npy, RejectsTruncatedDataAndTrailingBytes) {
  std::string dict = "{'descr': '<i4', 'fortran_order': False, 'shape': (1000,), }";
  expect_input_error(v1_file(dict, std::string(12, '\0')),
                     "truncated data: expected 4000 bytes, found 12");
  std::string small = "{'descr': '<i4', 'fortran_order': False, 'shape': (1,), }";
  expect_input_error(v1_file(small, std::string(6, '\0')), "2 unexpected bytes after the data");
}

TEST(Npy, LyingShapeIsRejectedBeforeAllocating) {
  uint64_t before = Buffer::allocation_count();
  std::string dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (1000000, 1000000), }";
  expect_input_error(v1_file(dict, "12345678"), "truncated data");
  std::string overflow =
      "{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }";
  expect_input_error(v1_file(overflow, ""), "too many");
  std::string bytes_overflow =
      "{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904,), }";
  expect_input_error(v1_file(bytes_overflow, ""), "too many bytes");
  EXPECT_EQ(Buffer::allocation_count(), before);
}

TEST(Npy, RejectsUnsupportedDtypes) {
  for (std::string d : {"<c8", "<f2", "|O", "<U5", "|S3", "<M8[ns]", "i4", "|i4", "|V8"}) {
    std::string dict = "{'descr': '" + d + "', 'fortran_order': False, 'shape': (), }";
    expect_input_error(v1_file(dict, std::string(8, '\0')), "unsupported dtype '" + d + "'");
  }
}

TEST(Npy, RejectsBigEndian) {
  std::string dict = "{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }";
  expect_input_error(v1_file(dict, "abcd"), "big-endian dtype '>f4' not supported");
  std::string field =
      "{'descr': [('x', '<i4'), ('y', '>i8')], 'fortran_order': False, 'shape': (), }";
  expect_input_error(v1_file(field, std::string(12, '\0')), "big-endian dtype '>i8'");
}

TEST(Npy, RejectsInvalidBoolBytes) {
  std::string dict = "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }";
  expect_input_error(v1_file(dict, std::string("\1\0\2", 3)),
                     "invalid bool byte 0x02 at element 2");
  std::string rec =
      "{'descr': [('f0', '|b1'), ('f1', '|u1')], 'fortran_order': False, 'shape': (1,), }";
  expect_input_error(v1_file(rec, std::string("\xff\0", 2)), "invalid bool byte");
}

TEST(Npy, RejectsMalformedHeaders) {
  std::string data(4, '\0');
  auto bad = [&](const std::string& dict, const std::string& needle) {
    expect_input_error(v1_file(dict, data), needle);
  };
  bad("{'descr': '<i4', 'shape': (1,), }", "missing key 'fortran_order'");
  bad("{'descr': '<i4', 'fortran_order': False, 'shape': (1,), 'extra': 1}",
      "unexpected key 'extra'");
  bad("{'descr': '<i4', 'descr': '<i4', 'fortran_order': False, 'shape': (1,)}", "duplicate key");
  bad("['descr', '<i4']", "not a dict");
  bad("{'descr': '<i4', 'fortran_order': 0, 'shape': (1,), }",
      "'fortran_order' must be True or False");
  bad("{'descr': '<i4', 'fortran_order': False, 'shape': (1), }", "'shape' must be a tuple");
  bad("{'descr': '<i4', 'fortran_order': False, 'shape': ('1',), }", "tuple of integers");
  bad("{'descr': '<i4', 'fortran_order': False, 'shape': (-1,), }", "negative dimension");
  bad("{'descr': '<i4', 'fortran_order': False, 'shape': (1,), ", "malformed header");
  bad("{'descr': '<i4', 'fortran_order': Fals, 'shape': (1,)}", "unexpected word 'Fals'");
  bad("{'descr': '<i4 , 'fortran_order': False, 'shape': (1,)}", "malformed header");
  bad("{'descr': '<i4', 'fortran_order': False, 'shape': (99999999999999999999,)}",
      "integer too large");
  bad("{'descr': 4, 'fortran_order': False, 'shape': (1,)}", "'descr' must be");
  bad("{'descr': '<i4', 'fortran_order': False, 'shape': (1,)} junk",
      "unexpected text after the dict");
  bad(std::string(5000, '[') + std::string(5000, ']'), "nesting too deep");
}

TEST(Npy, RejectsUnsupportedStructuredForms) {
  auto bad = [&](const std::string& descr, const std::string& needle) {
    expect_input_error(v1_file("{'descr': " + descr + ", 'fortran_order': False, 'shape': ()}",
                               std::string(4, '\0')),
                       needle);
  };
  bad("{'names': ['a'], 'formats': ['<i4'], 'offsets': [0], 'itemsize': 4}", "dict-form dtype");
  bad("[('a', '<i4', (2,))]", "subarray field 'a' not supported");
  bad("[]", "no fields (unit tuple element) not supported");
  bad("[(('title', 'a'), '<i4')]", "field names must be strings");
  bad("[('a',)]", "(name, dtype) pair");
}

TEST_F(NpyFiles, ReportsMissingAndUnreadableFiles) {
  try {
    read_npy(path("missing.npy"));
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Input);
    EXPECT_NE(e.message().find("missing.npy: cannot open"), std::string::npos) << e.message();
  }
  try {
    read_npy(dir_.string());
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Input);
    EXPECT_NE(e.message().find("is a directory"), std::string::npos) << e.message();
  }
  EXPECT_THROW(
      write_npy(path("no/such/dir/x.npy"), Array::allocate(scalar_type(ScalarKind::I8), {1})),
      Error);
}

TEST_F(NpyFiles, FileErrorsNameTheFile) {
  std::string dict = "{'descr': '<i4', 'fortran_order': False, 'shape': (1000,), }";
  write_bytes("short.npy", v1_file(dict, std::string(12, '\0')));
  try {
    read_npy(path("short.npy"));
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Input);
    EXPECT_EQ(e.message(), path("short.npy") + ": truncated data: expected 4000 bytes, found 12");
  }
  write_bytes("bad.npy", "hello");
  EXPECT_THROW(read_npy(path("bad.npy")), Error);
  write_bytes("bool.npy",
              v1_file("{'descr': [('a', '|b1')], 'fortran_order': False, 'shape': (2,)}",
                      std::string("\1\3", 2)));
  EXPECT_THROW(read_npy(path("bool.npy")), Error);
}

TEST_F(NpyFiles, ReadsLargeTupleArraysInChunks) {
  Type elem = Type::tuple({scalar_type(ScalarKind::F64), scalar_type(ScalarKind::I8)});
  Array a = patterned(elem, {300000});
  write_npy(path("big.npy"), a);
  EXPECT_TRUE(identical(a, read_npy(path("big.npy"))));
  EXPECT_EQ(fs::file_size(path("big.npy")), encode_npy(a).size());
}

TEST(Npy, RejectsUnitTuplesOnWrite) {
  EXPECT_THROW(encode_npy(Array::allocate(Type::tuple({}), {3})), Error);
  Type nested = Type::tuple({scalar_type(ScalarKind::I32), Type::tuple({})});
  try {
    encode_npy(Array::allocate(nested, {3}));
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Input);
    EXPECT_NE(e.message().find("unit tuples"), std::string::npos) << e.message();
  }
}

} // namespace
} // namespace strata
