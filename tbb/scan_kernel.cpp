// scanl, scanl1, scanr, scanr1 and scanl' over the innermost dimension, in
// the association order the executable was compiled with
// (CompileOptions::order, core/reduction_order.h; Runtime::order).
//
// A right scan is a left scan in reverse element order combining g(acc, x) =
// f(x, acc), so one code path serves all five. Work is cut into segments,
// each scanned left to right by one lane, kBatch segments at a time:
// - rows the order does not chunk (shorter than scan_chunked_from, or every
//   row in the canonical order): a segment is a whole row, scanned exactly
//   in the interpreter's order;
// - chunked rows: a segment is a chunk of scan_chunk elements (scan order).
//   Phase 1 folds every chunk but the row's last by the chunk tree
//   (tbb/chunk_tree.h: chunk_lanes(order, elem, f) strided lanes folded by
//   halves, combining with g), all (row, chunk) units in parallel; phase 2
//   combines the totals in order into the carry each chunk starts from
//   (carry0 = the seed, or none; carry(j+1) = g(carry j, total j)); phase 3
//   scans every chunk left to right from its carry.
// The segments and the tree depend only on the row length and the order,
// never on the threads. Rows of at least kBatch elements scanned by a
// recognised operation take the typed path of tbb/scan_native.h instead,
// which runs the same order.
#include <optional>

#include "core/combiner.h"
#include "core/scan_layout.h"
#include "tbb/chunk_tree.h"
#include "tbb/kernels.h"
#include "tbb/scan_native.h"

namespace strata::tbbe {
namespace {

using ac::ScanKind;

struct ScanPlan {
  ScanKind kind;
  Shape shape;   // of the input
  int64_t n = 0; // input row length
  int64_t m = 0; // output row length
  bool right = false;
  bool seeded = false;
  Leaves seed;
};

struct Segment {
  int64_t row = 0;
  int64_t offset = 0; // first position, in scan order
  int64_t length = 0;
  std::optional<Leaves> carry; // the accumulator before the first element
};

class SegmentScanner {
public:
  SegmentScanner(Runtime& rt, const kn::Scan& s, const ScanPlan& p)
      : p_(p), elem_(rt.functions.of(s.input.elem)), ef_(elem_.registers(), rt.table),
        c_(rt.functions.of(s.f), rt.table, !p.right) {
    elem_.prepare(ef_);
  }

  // Scans (or, with out == nullptr, only folds) up to kBatch segments, one per
  // lane. Returns the accumulator of each segment after its last element.
  // Nothing is allocated per element.
  std::vector<Leaves> run(const std::vector<Segment>& segs, Array* out) {
    int count = int(segs.size());
    int64_t longest = 0;
    for (const Segment& s : segs)
      longest = std::max(longest, s.length);
    const std::vector<int>& ix = elem_.params()[0].regs;
    for (int lane = 0; lane < count; ++lane) {
      const Segment& seg = segs[size_t(lane)];
      if (seg.carry) write_lane(c_.frame(), c_.acc().regs, lane, *seg.carry);
      // The outer index components of the row, fixed for the whole segment.
      int64_t rest = seg.row;
      for (size_t k = ix.size(); k-- > 1;) {
        ef_.reg<int64_t>(ix[k - 1])[lane] = rest % p_.shape[k - 1];
        rest /= p_.shape[k - 1];
      }
    }
    const std::vector<size_t>& sizes = c_.sizes();
    const std::vector<int>& res = elem_.result().regs;
    std::vector<std::byte*> out_data;
    if (out)
      for (size_t l = 0; l < sizes.size(); ++l)
        out_data.push_back(out->leaf(l).data());
    for (int64_t q = 0; q < longest; ++q) {
      int active = 0;
      for (int lane = 0; lane < count; ++lane)
        if (q < segs[size_t(lane)].length) lanes_[size_t(active++)] = uint16_t(lane);
      Selection s = active == count ? Selection::dense(count) : Selection{lanes_, active};
      if (!ix.empty()) {
        int64_t* last = ef_.reg<int64_t>(ix.back());
        int64_t base = ix.size() == 1 ? 1 : 0; // rank 1: the position is the whole index
        for_each_lane(s, [&](int lane) {
          const Segment& seg = segs[size_t(lane)];
          int64_t r = seg.offset + q;
          last[lane] = (p_.right ? p_.n - 1 - r : r) + base * seg.row * p_.n;
        });
      }
      elem_.run(ef_, s);
      // Lanes that start here take the element itself; the others combine.
      Selection combine = s;
      if (q == 0) {
        int n = 0;
        for_each_lane(s, [&](int lane) {
          if (segs[size_t(lane)].carry) {
            copy_lane(ef_, res, lane, c_.frame(), c_.x().regs, lane, sizes);
            combine_[n++] = uint16_t(lane);
          } else {
            copy_lane(ef_, res, lane, c_.frame(), c_.acc().regs, lane, sizes);
          }
        });
        combine = Selection{combine_, n};
      } else {
        for (size_t l = 0; l < sizes.size(); ++l) {
          const std::byte* from = ef_.reg<std::byte>(res[l]);
          std::byte* to = c_.frame().reg<std::byte>(c_.x().regs[l]);
          if (s.is_dense())
            std::memcpy(to, from, size_t(s.count) * sizes[l]);
          else
            for_each_lane(s, [&](int lane) { copy_slot(from, lane, to, lane, sizes[l]); });
        }
      }
      if (combine.count > 0) c_.step(combine);
      if (out)
        for (size_t l = 0; l < sizes.size(); ++l) {
          const std::byte* acc = c_.frame().reg<std::byte>(c_.acc().regs[l]);
          for_each_lane(s, [&](int lane) {
            const Segment& seg = segs[size_t(lane)];
            int64_t pos = scan_output_after(p_.kind, p_.n, seg.offset + q);
            if (pos >= 0)
              copy_slot(acc + size_t(lane) * sizes[l], 0,
                        out_data[l] + size_t(seg.row * p_.m + pos) * sizes[l], 0, sizes[l]);
          });
        }
    }
    std::vector<Leaves> after;
    for (int lane = 0; lane < count; ++lane)
      after.push_back(read_lane(c_.frame(), c_.acc(), lane));
    return after;
  }

private:
  const ScanPlan& p_;
  const ScalarFunction& elem_;
  Frame ef_;
  Combiner c_;
  uint16_t lanes_[kBatch];
  uint16_t combine_[kBatch];
};

// Runs segment batches in parallel; on an error, again one segment at a time in order.
std::vector<Leaves> scan_segments(Runtime& rt, const kn::Scan& s, const ScanPlan& p,
                                  const std::vector<Segment>& segs, Array* out) {
  std::vector<Leaves> after(segs.size());
  int64_t batches = (int64_t(segs.size()) + kBatch - 1) / kBatch;
  parallel_ranges(batches, 1, [&](int64_t begin, int64_t end) {
    for (int64_t b = begin; b < end; ++b) {
      size_t first = size_t(b * kBatch), last = std::min(segs.size(), first + kBatch);
      std::vector<Segment> batch(segs.begin() + long(first), segs.begin() + long(last));
      std::vector<Leaves> r;
      try {
        r = SegmentScanner(rt, s, p).run(batch, out);
      } catch (const Error&) {
        for (const Segment& one : batch)
          SegmentScanner(rt, s, p).run({one}, out);
        throw;
      }
      std::copy(r.begin(), r.end(), after.begin() + long(first));
    }
  });
  return after;
}

// Phase 1 of a chunked scan: the total of every chunk but each row's last, by
// the chunk tree, (row, chunk) units in parallel in order. The last chunk's
// elements are only computed (with several rows, its errors come before
// those of the next row), its total never: its combinations are not part of
// the declared order.
std::vector<Leaves> chunk_totals(Runtime& rt, const kn::Scan& s, const ScanPlan& p,
                                 const std::vector<Segment>& plain, int64_t chunks,
                                 const ReductionOrder& order) {
  std::vector<Leaves> totals(plain.size());
  int64_t lanes = chunk_lanes(order, s.input.type.elem(), s.f);
  int64_t rows = int64_t(plain.size()) / chunks;
  parallel_ranges(int64_t(plain.size()), 1, [&](int64_t begin, int64_t end) {
    ChunkTree tree(rt, rt.functions.of(s.input.elem), p.shape, rt.functions.of(s.f), !p.right,
                   lanes);
    for (int64_t u = begin; u < end; ++u) {
      const Segment& seg = plain[size_t(u)];
      int64_t first = seg.row * p.n + (p.right ? p.n - 1 - seg.offset : seg.offset);
      if (u % chunks < chunks - 1)
        totals[size_t(u)] = tree.total(first, seg.length, p.right);
      else if (rows > 1)
        tree.check_elements(first, seg.length, p.right);
    }
  });
  return totals;
}

} // namespace

void run_scan(Runtime& rt, const Kernel& k, const kn::Scan& s) {
  ScanPlan p;
  p.kind = s.kind;
  p.shape = rt.prepare(s.input);
  p.n = p.shape.back();
  p.right = scans_from_the_right(s.kind);
  p.seeded = s.seed != nullptr;
  p.m = scan_output_extent(s.kind, p.n);
  Shape outer(p.shape.begin(), p.shape.end() - 1);
  int64_t rows = shape_size(outer);
  Type elem = s.input.type.elem();
  Shape out_shape = outer;
  out_shape.push_back(p.m);
  Array out = rt.allocate(k.outputs[0], elem, out_shape);
  Array totals = s.kind == ScanKind::ScanlPrime ? rt.allocate(k.outputs[1], elem, outer) : Array();
  // The seed is evaluated only when the result is non-empty (it has rows),
  // after the results are allocated and before any element (docs/language.md, Errors).
  if (p.seeded && rows > 0) p.seed = rt.eval(*s.seed);
  if (rows == 0) { // nothing to compute
    rt.set(k.outputs[0], std::move(out));
    if (s.kind == ScanKind::ScanlPrime) rt.set(k.outputs[1], std::move(totals));
    return;
  }

  std::optional<Leaves> seed;
  if (p.seeded) seed = p.seed;
  std::vector<Segment> segs;
  std::vector<Leaves> finals(static_cast<size_t>(rows));
  std::optional<NativeFold> native = recognise_fold(s.f);
  // A native float scan runs the declared order when its lanes are the
  // order's, or when the rows are not chunked (no lanes at all).
  if (native && !native_runs(rt.order, *native) && rt.order.scan_chunked(p.n)) native.reset();
  ReductionOrder order = native ? native_order(rt.order, *native) : rt.order;
  int64_t chunk = order.scan_chunked(p.n) ? order.scan_chunk : std::max<int64_t>(p.n, 1);
  if (native && p.n >= kBatch) {
    NativeScan ns{s.kind, p.shape, p.n, p.m, p.right, std::nullopt, *native, &s.input.elem, chunk};
    if (p.seeded) ns.seed = p.seed[0];
    std::vector<Scalar> last = scan_native(rt, ns, out);
    for (int64_t r = 0; r < rows; ++r)
      finals[size_t(r)] = Leaves{last[size_t(r)]};
  } else if (!order.scan_chunked(p.n)) {
    for (int64_t r = 0; r < rows; ++r)
      segs.push_back(Segment{r, 0, p.n, seed});
    std::vector<Leaves> after = scan_segments(rt, s, p, segs, &out);
    for (int64_t r = 0; r < rows; ++r)
      finals[size_t(r)] = p.n > 0 || !seed ? after[size_t(r)] : *seed;
  } else {
    int64_t chunks = (p.n + chunk - 1) / chunk;
    std::vector<Segment> plain;
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < chunks; ++c)
        plain.push_back(Segment{r, c * chunk, std::min(chunk, p.n - c * chunk), std::nullopt});
    std::vector<Leaves> totals_of = chunk_totals(rt, s, p, plain, chunks, order); // phase 1
    // Phase 2: the value each chunk starts from, in order.
    Combiner c(rt.functions.of(s.f), rt.table, !p.right);
    for (int64_t r = 0; r < rows; ++r) {
      std::optional<Leaves> carry = seed;
      for (int64_t ch = 0; ch < chunks; ++ch) {
        Segment& seg = plain[size_t(r * chunks + ch)];
        seg.carry = carry;
        if (ch + 1 == chunks) break; // the last chunk's total is not needed
        const Leaves& total = totals_of[size_t(r * chunks + ch)];
        if (!carry) {
          carry = total;
        } else {
          write_lane(c.frame(), c.acc().regs, 0, *carry);
          write_lane(c.frame(), c.x().regs, 0, total);
          c.step(Selection::dense(1));
          carry = read_lane(c.frame(), c.acc(), 0);
        }
      }
    }
    // Phase 3; the last accumulators are the rows' totals.
    std::vector<Leaves> after = scan_segments(rt, s, p, plain, &out);
    for (int64_t r = 0; r < rows; ++r)
      finals[size_t(r)] = after[size_t(r * chunks + chunks - 1)];
  }
  // The seed's own place: scanl starts with it, scanr ends with it, scanl' starts with it.
  if (int64_t pos = scan_seed_output(s.kind, p.n); p.seeded && pos >= 0)
    for (int64_t r = 0; r < rows; ++r)
      for (size_t l = 0; l < out.num_leaves(); ++l)
        out.write(l, r * p.m + pos, p.seed[l]);
  if (s.kind == ScanKind::ScanlPrime)
    for (int64_t r = 0; r < rows; ++r)
      for (size_t l = 0; l < totals.num_leaves(); ++l)
        totals.write(l, r, finals[size_t(r)][l]);
  rt.set(k.outputs[0], std::move(out));
  if (s.kind == ScanKind::ScanlPrime) rt.set(k.outputs[1], std::move(totals));
}

} // namespace strata::tbbe
