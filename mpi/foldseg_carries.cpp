// A foldseg of one row held in blocks, from carries passed along the ranks:
// bitwise the foldseg one machine runs (docs/mpi.md, "Segmented folds of
// one row").
//
// foldseg folds every segment left to right from the seed under every order
// (docs/language.md), so a segment folded in pieces, each piece continuing
// from the accumulator the piece before it ended with (its *carry*), is the
// same fold, whoever folds each piece. So:
//  1. each rank computes its rows of the input (the rows plan); the segment
//     lengths come whole (8 bytes per segment);
//  2. each rank folds from the seed, in one foldseg on the local engine, the
//     segments that start in its rows, the last one cut at its rows' end
//     when it goes on past them: that one's accumulator is the carry the
//     rank passes to the next;
//  3. the carries go along the ranks in rounds of one small all-gather: a
//     rank whose rows lie inside one segment that began before them (a
//     *through* rank) continues the carry it receives over all its rows and
//     passes that on; one round, plus one per through rank in a chain;
//  4. a rank whose rows begin inside a segment that ends in them folds the
//     rest of that segment from the carry it received (a one-segment
//     foldseg whose seed is the carry);
//  5. a segment's value is made by the rank that holds its last element (an
//     empty segment's by the rank that holds its position, the last rank for
//     those at the row's end): ranges of segments in rank order, which move
//     to the output's blocks.
// Lengths that do not fit the row, and an error on any rank, make the whole
// kernel decide the error, as on one machine.
#include <algorithm>

#include "mpi/agree.h"
#include "mpi/rank_runner.h"

namespace strata::mpi {
namespace {

AccPtr var(const std::string& n) {
  return make_acc(ac::Var{n});
}

// Segment starts: start[s] of segment s, start[K] = n; empty when the
// lengths do not fit a row of n elements (a negative length, or a sum other
// than n: foldseg's shape error).
std::vector<int64_t> segment_starts(const Array& lengths, int64_t n) {
  int64_t k = lengths.size();
  std::vector<int64_t> start(static_cast<size_t>(k) + 1, 0);
  for (int64_t s = 0; s < k; ++s) {
    int64_t l = lengths.read(0, s).get<int64_t>();
    if (l < 0 || l > n - start[size_t(s)]) return {};
    start[size_t(s) + 1] = start[size_t(s)] + l;
  }
  if (start.back() != n) return {};
  return start;
}

// What one rank folds and makes (step 2 to 5), from the segment starts.
struct Part {
  Rows rows;            // its rows of the input
  int64_t s_lo = 0;     // the segments that start in its rows,
  int64_t s_hi = 0;     //   [s_lo, s_hi), folded from the seed
  bool in = false;      // its rows begin inside a segment begun before
  bool out = false;     // the last segment goes on past its rows
  bool through = false; // in, out, and no segment starts in its rows
  Rows made;            // the segments whose values it makes
  int64_t head_end = 0; // with `in`: where that segment ends
};

Part part_of(const std::vector<int64_t>& start, int64_t n, int ranks, int d) {
  int64_t k = int64_t(start.size()) - 1;
  // The first segment that starts at or after position p.
  auto first_at = [&](int64_t p) {
    return int64_t(std::lower_bound(start.begin(), start.begin() + k, p) - start.begin());
  };
  // Whether position p < n lies inside a segment that starts before it.
  auto inside = [&](int64_t p) {
    int64_t s = first_at(p);
    return s == k || start[size_t(s)] > p;
  };
  Part t;
  t.rows = block_rows(n, ranks, d);
  t.s_lo = first_at(t.rows.lo);
  t.s_hi = d == ranks - 1 ? k : first_at(t.rows.hi); // the last rank: those at n too
  bool rows = t.rows.count() > 0;
  t.in = rows && t.rows.lo > 0 && inside(t.rows.lo);
  t.out = rows && t.rows.hi < n && inside(t.rows.hi);
  t.through = t.in && t.out && t.s_lo == t.s_hi;
  if (t.in) t.head_end = t.s_lo < k ? start[size_t(t.s_lo)] : n;
  int64_t first = t.in && !t.through ? t.s_lo - 1 : t.s_lo;
  t.made = t.through ? Rows{t.s_lo - 1, t.s_lo - 1} : Rows{first, t.s_hi - (t.out ? 1 : 0)};
  return t;
}

// A rank's carry in the rounds of step 3: none to pass, not yet known (a
// through rank waiting for its left neighbour's), known, or failed.
enum class Carry : uint8_t { None, Pending, Known, Failed };

} // namespace

bool RankRunner::foldseg_carries(const Kernel& k, const kn::FoldSeg& fs) {
  if (fs.input.type.rank() != 1 || comm_.size() == 1) return false;
  RowsRun r;
  if (!run_rows(
          k, fs.input, {&fs.f}, {fs.seed}, [](AccPtr g, const Names&) { return g; }, r))
    return false;
  if (r.failed) {
    after_failure(k, false);
    return true;
  }
  int ranks = comm_.size(), me = comm_.rank();
  int64_t n = r.n;
  // run_rows gathered the lengths whole (the same on every rank).
  std::vector<int64_t> start = segment_starts(whole(fs.segs), n);
  if (start.empty()) {
    after_failure(k, false); // the interpreter's shape error
    return true;
  }
  int64_t segments = int64_t(start.size()) - 1;
  std::vector<Part> parts;
  for (int d = 0; d < ranks; ++d)
    parts.push_back(part_of(start, n, ranks, d));
  const Part& mine = parts[size_t(me)];
  const Array& rows = r.results[0];
  auto piece = [&](int64_t from, int64_t to) {
    return row_block(rows, Rows{from - mine.rows.lo, to - mine.rows.lo});
  };
  auto lengths = [](const std::vector<int64_t>& v) {
    Array a = Array::allocate(Type::scalar(ScalarKind::I64), Shape{int64_t(v.size())}, false);
    for (size_t i = 0; i < v.size(); ++i)
      a.write(0, int64_t(i), Scalar::make<int64_t>(v[i]));
    return a;
  };

  std::vector<ArrayId> reads = array_reads(g_, k);
  Names blocks = function_blocks(reads, fs.f, fs.seed);
  Lambda fn = localize(fs.f, blocks);
  ExpPtr seed = localize(fs.seed, blocks);
  const Type elem = fs.input.type.elem();
  // foldseg of `xs` cut into `segs` from the seed, or from `carry`.
  auto from_seed = [&](const Array& xs, const Array& segs) {
    return run("segments", k, reads, blocks, {{"mpi__xs", xs}, {"mpi__segs", segs}}, [&] {
      return make_acc(ac::FoldSeg{fn, seed, var("mpi__xs"), var("mpi__segs")});
    })[0];
  };
  auto from_carry = [&](const Array& carry, int64_t from, int64_t to) {
    return run(
        "from a carry", k, reads, blocks,
        {{"mpi__xs", piece(from, to)}, {"mpi__segs", lengths({to - from})}, {"mpi__carry", carry}},
        [&] {
          return make_acc(ac::FoldSeg{fn, make_exp(ex::The{var("mpi__carry")}), var("mpi__xs"),
                                      var("mpi__segs")});
        })[0];
  };

  // 2. The segments that start in this rank's rows, from the seed.
  Array local; // one value per segment [s_lo, s_hi)
  Array carry = Array::allocate(elem, Shape{}, false);
  Carry state = mine.through ? Carry::Pending : mine.out ? Carry::Known : Carry::None;
  if (mine.s_lo < mine.s_hi) {
    try {
      std::vector<int64_t> cut;
      for (int64_t s = mine.s_lo; s < mine.s_hi; ++s)
        cut.push_back(std::min(start[size_t(s) + 1], mine.rows.hi) - start[size_t(s)]);
      local = from_seed(piece(start[size_t(mine.s_lo)], mine.rows.hi), lengths(cut));
      if (mine.out) copy_elements(local, local.size() - 1, carry, 0, 1);
    } catch (const std::exception&) {
      state = Carry::Failed;
    }
  }
  // 3. The carries along the ranks, a round for each through rank waiting.
  std::vector<Bytes> states;
  for (;;) {
    Bytes said{std::byte(state)};
    if (state == Carry::Known) {
      Bytes b = pack(carry);
      said.insert(said.end(), b.begin(), b.end());
    }
    states = comm_.allgather(said);
    auto is = [&](int d, Carry c) { return states[size_t(d)].at(0) == std::byte(c); };
    bool failed = false, pending = false;
    for (int d = 0; d < ranks; ++d) {
      failed = failed || is(d, Carry::Failed);
      pending = pending || is(d, Carry::Pending);
    }
    if (failed) {
      after_failure(k, false);
      return true;
    }
    if (!pending) break;
    if (state == Carry::Pending && is(me - 1, Carry::Known)) {
      try {
        Bytes in(states[size_t(me) - 1].begin() + 1, states[size_t(me) - 1].end());
        carry = from_carry(unpack(elem, Shape{}, in), mine.rows.lo, mine.rows.hi);
        carry = view_as(carry, Shape{});
        state = Carry::Known;
      } catch (const std::exception&) {
        state = Carry::Failed;
      }
    }
  }
  // 4, 5. The segment that began before this rank's rows, from the carry
  // received, then the values this rank makes, in segment order.
  Array made;
  bool failed = failed_anywhere(comm_, [&] {
    made = Array::allocate(elem, Shape{mine.made.count()}, false);
    int64_t at = 0;
    if (mine.in && !mine.through) {
      Bytes in(states[size_t(me) - 1].begin() + 1, states[size_t(me) - 1].end());
      Array head = from_carry(unpack(elem, Shape{}, in), mine.rows.lo, mine.head_end);
      copy_elements(head, 0, made, at++, 1);
    }
    if (mine.made.count() > at) copy_elements(local, 0, made, at, mine.made.count() - at);
  });
  if (failed) {
    after_failure(k, false);
    return true;
  }
  std::vector<Rows> have, want;
  bool in_blocks = held_in_blocks(elem, Shape{segments}, ranks, s_.mpi.min_block_bytes);
  for (int d = 0; d < ranks; ++d) {
    have.push_back(parts[size_t(d)].made);
    want.push_back(in_blocks ? block_rows(segments, ranks, d) : Rows{0, segments});
  }
  Array result = fetch_rows(made, Shape{segments}, have, want);
  plan_ = "segments with carries";
  set(k.outputs[0], in_blocks ? Held{result, true, Shape{segments}} : hold(result));
  return true;
}

} // namespace strata::mpi
