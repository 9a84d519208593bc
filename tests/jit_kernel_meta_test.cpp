// The metadata stored with a jit kernel's object (jit/kernel_meta.h): it
// rebuilds exactly the code description that building the IR gives, takes
// locations and names from the kernel being loaded (they are not in the cache
// key), and damaged metadata is never taken for good.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <span>

#include "fusion/fuse.h"
#include "fusion/graph_run.h"
#include "jit/codegen.h"
#include "jit/kernel_meta.h"
#include "tests/fusion_programs.h"
#include "tests/test_util.h"

namespace strata::test {
namespace {

// Every kernel with code of its own (all but awhile's), in graph order.
void for_each_coded_kernel(const Block& b, const std::function<void(const Kernel&)>& f) {
  for_each_kernel(b, [&](const Kernel& k) {
    if (!std::holds_alternative<kn::Loop>(k.body)) f(k);
  });
}

int temp_of(const KernelGraph& g, const Kernel& k) {
  return int(g.arrays.size()) + k.id;
}

jit::KernelCode build(const KernelGraph& g, const Kernel& k) {
  jit::KernelCode code =
      jit::generate_kernel_code(g, k, jit::CodegenOptions{true, temp_of(g, k)}, "strata_meta");
  code.module.reset();
  return code;
}

// Every program of the fusion tests and every failing body of the error tests.
std::vector<std::string> programs() {
  std::vector<std::string> out;
  for (const FusionCase& c : fusion_cases())
    out.push_back(fusion_program(c));
  // Folds of float rows and segments run in lanes (KernelCode::row_lanes).
  out.push_back("(program ((m (array f32 2)) (segs (array i64 1)))"
                " (atuple (fold (lambda ((a f32) (b f32)) (- a b)) 0f32 m)"
                "  (foldseg (lambda ((a f32) (b f32)) (+ a b)) 0f32 m segs)))");
  for (const char* body : failing_bodies())
    out.push_back(std::string("(program ((xs (array i64 1))) ") + body + ")");
  return out;
}

std::string loc_str(const SrcLoc& l) {
  return l.str();
}

// `got` (decoded) describes the same code as `want` (built), pointers included.
void expect_same_code(const jit::KernelCode& got, const jit::KernelCode& want,
                      const std::string& what) {
  EXPECT_EQ(got.prefix, want.prefix) << what;
  EXPECT_EQ(got.entries, want.entries) << what;
  EXPECT_EQ(got.main, want.main) << what;
  EXPECT_EQ(got.chunk, want.chunk) << what;
  EXPECT_EQ(got.combine, want.combine) << what;
  EXPECT_EQ(got.combine_swapped, want.combine_swapped) << what;
  EXPECT_EQ(got.edges, want.edges) << what;
  EXPECT_EQ(got.targets, want.targets) << what;
  EXPECT_EQ(got.row_lanes, want.row_lanes) << what;
  EXPECT_EQ(got.closed, want.closed) << what;
  EXPECT_EQ(got.generate, want.generate) << what;
  ASSERT_EQ(got.sites.size(), want.sites.size()) << what;
  for (size_t i = 0; i < got.sites.size(); ++i) {
    const jit::Site &a = got.sites[i], &b = want.sites[i];
    std::string at = what + ", site " + std::to_string(i);
    EXPECT_EQ(int(a.kind), int(b.kind)) << at;
    EXPECT_EQ(loc_str(a.loc), loc_str(b.loc)) << at;
    EXPECT_EQ(a.exp, b.exp) << at;
    EXPECT_EQ(int(a.op), int(b.op)) << at;
    EXPECT_EQ(int(a.operand), int(b.operand)) << at;
    EXPECT_EQ(a.name, b.name) << at;
    EXPECT_EQ(a.array, b.array) << at;
    EXPECT_EQ(a.array_id, b.array_id) << at;
    EXPECT_EQ(a.source_id, b.source_id) << at;
    EXPECT_EQ(a.rank, b.rank) << at;
  }
}

TEST(JitKernelMeta, RebuildsWhatTheIRBuildGives) {
  int kernels = 0, sites = 0, in_lanes = 0;
  for (const std::string& text : programs()) {
    Program p = parse_and_check(text);
    for (bool fused : {true, false}) {
      KernelGraph g = build_kernel_graph(p, FusionOptions{fused});
      for_each_coded_kernel(g.body, [&](const Kernel& k) {
        std::string what =
            text + (fused ? " fused" : " unfused") + ", kernel " + std::to_string(k.id);
        jit::KernelCode want = build(g, k);
        std::string meta = jit::encode_kernel_meta(g, k, want);
        jit::KernelCode got;
        ASSERT_EQ(jit::decode_kernel_meta(meta, g, k, temp_of(g, k), want.prefix, got),
                  jit::MetaResult::Ok)
            << what;
        expect_same_code(got, want, what);
        ++kernels;
        in_lanes += want.row_lanes > 0;
        sites += int(want.sites.size());
      });
    }
  }
  EXPECT_GT(kernels, 100);
  EXPECT_GT(sites, 20);
  EXPECT_GE(in_lanes, 4); // the fold and the foldseg, fused and unfused
}

// The same kernel text from another program (here: shifted by three lines)
// has the same cache key; its errors must name its own positions (and
// operations: a fused `backpermute` among the failing bodies names itself).
TEST(JitKernelMeta, LocationsAndNamesComeFromTheKernelLoaded) {
  int compared = 0;
  for (const char* body : failing_bodies()) {
    std::string text = std::string("(program ((xs (array i64 1))) ") + body + ")";
    Program p1 = parse_and_check(text);
    Program p2 = parse_and_check("; another program\n\n\n   " + text);
    KernelGraph g1 = build_kernel_graph(p1, FusionOptions{true});
    KernelGraph g2 = build_kernel_graph(p2, FusionOptions{true});
    std::vector<const Kernel*> k2;
    for_each_coded_kernel(g2.body, [&](const Kernel& k) { k2.push_back(&k); });
    size_t i = 0;
    for_each_coded_kernel(g1.body, [&](const Kernel& k) {
      ASSERT_LT(i, k2.size());
      const Kernel& other = *k2[i++];
      std::string meta = jit::encode_kernel_meta(g1, k, build(g1, k));
      jit::KernelCode want = build(g2, other), got;
      ASSERT_EQ(jit::decode_kernel_meta(meta, g2, other, temp_of(g2, other), want.prefix, got),
                jit::MetaResult::Ok)
          << body;
      expect_same_code(got, want, body);
      for (const jit::Site& s : got.sites) {
        // The program's one line, after three (or none: made by fusion).
        EXPECT_TRUE(s.loc.line == 4 || !s.loc.known()) << body;
        compared += s.loc.line == 4;
      }
    });
  }
  EXPECT_GT(compared, 10);
}

// A kernel with checks of several kinds (read, division, to-index).
struct Sample {
  Program p = parse_and_check(
      "(program ((xs (array i64 1))) (fold (lambda ((a i64) (b i64)) (quot a b)) 1 (generate "
      "(ix 4 (size xs)) (lambda ((i (ix 2))) (+ (! xs (ix (proj 1 i))) (to-index (ix 4) (ix "
      "(proj 0 i))))))))");
  KernelGraph g = build_kernel_graph(p, FusionOptions{true});
  const Kernel& k = g.body.front();
  jit::KernelCode code = build(g, k);
  std::string meta = jit::encode_kernel_meta(g, k, code);

  jit::MetaResult decode(std::string_view m) const {
    jit::KernelCode out;
    return jit::decode_kernel_meta(m, g, k, temp_of(g, k), "strata_meta", out);
  }
};

TEST(JitKernelMeta, DamagedMetadataIsNeverOk) {
  Sample s;
  ASSERT_GE(s.code.sites.size(), 3u);
  ASSERT_EQ(s.decode(s.meta), jit::MetaResult::Ok);
  for (size_t n = 0; n < s.meta.size(); ++n)
    EXPECT_EQ(s.decode(std::string_view(s.meta).substr(0, n)), jit::MetaResult::Corrupt) << n;
  EXPECT_EQ(s.decode(s.meta + std::string(8, '\0')), jit::MetaResult::Corrupt);
  // Each 8-byte field set to values out of every range: never Ok (and, under
  // the sanitizers, no read outside the kernel's tables).
  for (size_t at = 0; at + 8 <= s.meta.size(); at += 8)
    for (int64_t v : {int64_t(-7), int64_t(1) << 40, INT64_MIN, INT64_MAX}) {
      std::string m = s.meta;
      std::memcpy(m.data() + at, &v, sizeof(v));
      EXPECT_NE(s.decode(m), jit::MetaResult::Ok) << "field " << at / 8 << " = " << v;
    }
  // Another kernel's metadata (its walk has another length).
  Program other = parse_and_check("(program ((xs (array i64 1))) (map (lambda ((x i64)) (+ x "
                                  "1)) xs))");
  KernelGraph g2 = build_kernel_graph(other, FusionOptions{true});
  EXPECT_EQ(s.decode(jit::encode_kernel_meta(g2, g2.body.front(), build(g2, g2.body.front()))),
            jit::MetaResult::Corrupt);
}

// A site whose expression is not one of the kernel's cannot be stored by
// position: the loader is told to build the IR for the site table.
TEST(JitKernelMeta, SitesWithoutAnExpressionAreUnbound) {
  Sample s;
  jit::KernelCode code = s.code;
  code.sites[0].exp = nullptr;
  EXPECT_EQ(s.decode(jit::encode_kernel_meta(s.g, s.k, code)), jit::MetaResult::Unbound);
}

TEST(JitKernelMeta, EntriesPackObjectsAndMetadata) {
  std::string part0 = "\x7f"
                      "ELF object bytes",
              part1 = "\x7f"
                      "ELF part 1";
  std::vector<char> payload = jit::pack_entry("meta", {part0, part1});
  std::string_view meta;
  std::vector<std::span<const char>> objs;
  ASSERT_TRUE(jit::unpack_entry(payload, meta, objs));
  EXPECT_EQ(meta, "meta");
  ASSERT_EQ(objs.size(), 2u);
  EXPECT_EQ(std::string(objs[0].begin(), objs[0].end()), part0);
  EXPECT_EQ(std::string(objs[1].begin(), objs[1].end()), part1);
  // Every truncation, and a byte too many.
  for (size_t n = 0; n < payload.size(); ++n)
    EXPECT_FALSE(jit::unpack_entry(std::span<const char>(payload).first(n), meta, objs)) << n;
  std::vector<char> longer = payload;
  longer.push_back('x');
  EXPECT_FALSE(jit::unpack_entry(longer, meta, objs));
  std::vector<char> other = payload;
  other[7] = char(other[7] + 1); // another version
  EXPECT_FALSE(jit::unpack_entry(other, meta, objs));
  EXPECT_FALSE(jit::unpack_entry(std::span<const char>(part0.data(), part0.size()), meta, objs));
  // No objects, an empty object, too many objects.
  EXPECT_FALSE(jit::unpack_entry(jit::pack_entry("meta", {}), meta, objs));
  EXPECT_FALSE(jit::unpack_entry(jit::pack_entry("meta", {part0, std::string_view()}), meta, objs));
  std::vector<std::span<const char>> many(jit::kMaxObjects + 1, std::span<const char>(part1));
  EXPECT_FALSE(jit::unpack_entry(jit::pack_entry("meta", many), meta, objs));
  many.pop_back();
  EXPECT_TRUE(jit::unpack_entry(jit::pack_entry("meta", many), meta, objs));
}

} // namespace
} // namespace strata::test
