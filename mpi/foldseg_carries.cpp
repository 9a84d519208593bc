// A foldseg of one row held in blocks, from carries passed along the ranks:
// bitwise the foldseg one machine runs (docs/mpi.md, "Segmented folds of
// one row").
//
// foldseg folds every segment left to right from the seed under every order
// (docs/language.md), so a segment folded in pieces, each piece continuing
// from the accumulator the piece before it ended with (its *carry*), is the
// same fold, whoever folds each piece. So:
//  1. each rank computes its rows of the input (the rows plan) and learns
//     the segments it needs: those that overlap its rows (their starts, 8
//     bytes each, from the ranks that hold their lengths, after one sum per
//     rank to every rank tells each rank where its block of lengths starts);
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
#include <optional>

#include "mpi/agree.h"
#include "mpi/rank_runner.h"

namespace strata::mpi {
namespace {

AccPtr var(const std::string& n) {
  return make_acc(ac::Var{n});
}

Array i64s(const std::vector<int64_t>& v) {
  Array a = Array::allocate(Type::scalar(ScalarKind::I64), Shape{int64_t(v.size())}, false);
  for (size_t i = 0; i < v.size(); ++i)
    a.write(0, int64_t(i), Scalar::make<int64_t>(v[i]));
  return a;
}

// The segments a rank needs to fold its rows [lo, hi): those that overlap
// them, the empty ones at positions in them and, for the last rank, the
// empty ones at the row's end n. Of `count` consecutive segments with starts
// start[0..count] (start[count]: the last one's end), the range of those.
Rows segments_for(const int64_t* start, int64_t count, Rows rows, bool last_rank) {
  std::vector<int64_t> idx(static_cast<size_t>(count));
  for (int64_t s = 0; s < count; ++s)
    idx[size_t(s)] = s;
  // Both tests are monotone in s (starts and ends never decrease).
  auto before = [&](int64_t s) { return start[s + 1] <= rows.lo && start[s] < rows.lo; };
  auto lo = std::partition_point(idx.begin(), idx.end(), before) - idx.begin();
  if (last_rank) return Rows{lo, count};
  auto hi =
      std::partition_point(idx.begin(), idx.end(), [&](int64_t s) { return start[s] < rows.hi; }) -
      idx.begin();
  return Rows{lo, std::max(lo, int64_t(hi))};
}

// Consecutive segments first, first + 1, ... with their starts (start.back():
// the last one's end; one entry and no segment when empty).
struct Window {
  int64_t first = 0;
  std::vector<int64_t> start{0};
};

// What one rank folds and makes (step 2 to 5), from its window.
struct Part {
  Rows rows;            // its rows of the input
  int64_t s_lo = 0;     // the segments that start in its rows,
  int64_t s_hi = 0;     //   [s_lo, s_hi), folded from the seed
  bool in = false;      // its rows begin inside a segment begun before
  bool out = false;     // the last segment goes on past its rows
  bool through = false; // in, out, and no segment starts in its rows
  Rows made;            // the segments whose values it makes
  int64_t head_end = 0; // with `in`: where that segment ends
  int64_t start_at(const Window& w, int64_t s) const { return w.start[size_t(s - w.first)]; }
};

Part part_of(const Window& w, int64_t segments, int64_t n, int ranks, int d) {
  int64_t m = int64_t(w.start.size()) - 1;
  Part t;
  // The first segment that starts at or after position p.
  auto first_at = [&](int64_t p) {
    return w.first + (std::lower_bound(w.start.begin(), w.start.begin() + m, p) - w.start.begin());
  };
  // Whether position p < n lies inside a segment that starts before it.
  auto inside = [&](int64_t p) {
    int64_t s = first_at(p);
    return s == segments || t.start_at(w, s) > p;
  };
  t.rows = block_rows(n, ranks, d);
  bool rows = t.rows.count() > 0;
  if (m == 0 && !rows) return t; // no rows, no segment at the row's end
  t.s_lo = first_at(t.rows.lo);
  t.s_hi = d == ranks - 1 ? w.first + m : first_at(t.rows.hi); // the last: those at n too
  t.in = rows && t.rows.lo > 0 && inside(t.rows.lo);
  t.out = rows && t.rows.hi < n && inside(t.rows.hi);
  t.through = t.in && t.out && t.s_lo == t.s_hi;
  if (t.in) t.head_end = t.s_lo < segments ? t.start_at(w, t.s_lo) : n;
  int64_t first = t.in && !t.through ? t.s_lo - 1 : t.s_lo;
  t.made = t.through ? Rows{t.s_lo, t.s_lo} : Rows{first, t.s_hi - (t.out ? 1 : 0)};
  return t;
}

// The window of the rank `me` of `ranks` from the lengths held whole; none
// when they do not fit a row of n elements.
std::optional<Window> window_from_whole(const Array& lengths, int64_t n, int ranks, int me) {
  int64_t k = lengths.size();
  std::vector<int64_t> start(static_cast<size_t>(k) + 1, 0);
  for (int64_t s = 0; s < k; ++s) {
    int64_t l = lengths.read(0, s).get<int64_t>();
    if (l < 0 || l > n - start[size_t(s)]) return std::nullopt;
    start[size_t(s) + 1] = start[size_t(s)] + l;
  }
  if (start.back() != n) return std::nullopt;
  Rows r = segments_for(start.data(), k, block_rows(n, ranks, me), me == ranks - 1);
  Window w;
  w.first = r.lo;
  w.start.assign(start.begin() + r.lo, start.begin() + r.hi + 1);
  return w;
}

// The window of this rank from the lengths held in blocks: every rank learns
// where its block of segments starts (one sum per rank to every rank) and
// sends each rank the starts of the segments of its block in that rank's
// window (with the first one's index); none (on every rank) when the
// lengths do not fit a row of n elements.
std::optional<Window> window_from_blocks(Comm& comm, const Held& lengths, int64_t n) {
  int ranks = comm.size(), me = comm.rank();
  Rows mine = block_rows(lengths.global[0], ranks, me);
  std::vector<int64_t> start(static_cast<size_t>(mine.count()) + 1, 0);
  bool fits = true;
  for (int64_t s = 0; s < mine.count() && fits; ++s) {
    int64_t l = lengths.local.read(0, s).get<int64_t>();
    fits = l >= 0 && !__builtin_add_overflow(start[size_t(s)], l, &start[size_t(s) + 1]);
  }
  std::vector<Bytes> sums = comm.allgather(pack_i64s({fits ? start.back() : -1}));
  int64_t base = 0, total = 0;
  for (int r = 0; r < ranks; ++r) {
    int64_t v = unpack_i64s(sums[size_t(r)])[0];
    if (v < 0 || __builtin_add_overflow(total, v, &total)) return std::nullopt;
    if (r == me) base = total - v;
  }
  if (total != n) return std::nullopt;
  for (int64_t& x : start)
    x += base;
  std::vector<Bytes> out(static_cast<size_t>(ranks));
  for (int d = 0; d < ranks; ++d) {
    Rows r = segments_for(start.data(), mine.count(), block_rows(n, ranks, d), d == ranks - 1);
    if (r.count() == 0) continue;
    std::vector<int64_t> msg = {mine.lo + r.lo};
    msg.insert(msg.end(), start.begin() + r.lo, start.begin() + r.hi + 1);
    out[size_t(d)] = pack_i64s(msg);
  }
  Window w;
  bool any = false;
  for (const Bytes& b : comm.alltoall(std::move(out))) {
    if (b.empty()) continue;
    std::vector<int64_t> msg = unpack_i64s(b);
    if (!any) w = Window{msg[0], {msg[1]}};
    any = true;
    w.start.insert(w.start.end(), msg.begin() + 2, msg.end());
  }
  return w;
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
  const Held& lengths = vals_.at(fs.segs);
  int64_t segments = lengths.global.empty() ? lengths.local.size() : lengths.global[0];
  std::optional<Window> window = lengths.block && !whole_.count(fs.segs)
                                     ? window_from_blocks(comm_, lengths, n)
                                     : window_from_whole(whole(fs.segs), n, ranks, me);
  if (!window) {
    after_failure(k, false); // the interpreter's shape error
    return true;
  }
  const Window& w = *window;
  const Part mine = part_of(w, segments, n, ranks, me);
  auto start = [&](int64_t s) { return mine.start_at(w, s); };
  const Array& rows = r.results[0];
  auto piece = [&](int64_t from, int64_t to) {
    return row_block(rows, Rows{from - mine.rows.lo, to - mine.rows.lo});
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
        {{"mpi__xs", piece(from, to)}, {"mpi__segs", i64s({to - from})}, {"mpi__carry", carry}},
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
        cut.push_back(std::min(start(s + 1), mine.rows.hi) - start(s));
      local = from_seed(piece(start(mine.s_lo), mine.rows.hi), i64s(cut));
      if (mine.out) copy_elements(local, local.size() - 1, carry, 0, 1);
    } catch (const std::exception&) {
      state = Carry::Failed;
    }
  }
  // 3. The carries along the ranks, a round for each through rank waiting.
  // Each carry goes to every rank once, in the round it becomes known.
  Bytes left; // the previous rank's carry, once received
  bool have_left = false, sent = false;
  for (;;) {
    Bytes said{std::byte(state)};
    if (state == Carry::Known && !sent) {
      Bytes b = pack(carry);
      said.insert(said.end(), b.begin(), b.end());
      sent = true;
    }
    std::vector<Bytes> states = comm_.allgather(said);
    if (me > 0 && states[size_t(me) - 1].size() > 1) {
      left.assign(states[size_t(me) - 1].begin() + 1, states[size_t(me) - 1].end());
      have_left = true;
    }
    bool failed = false, pending = false;
    for (const Bytes& st : states) {
      failed = failed || st.at(0) == std::byte(Carry::Failed);
      pending = pending || st.at(0) == std::byte(Carry::Pending);
    }
    if (failed) {
      after_failure(k, false);
      return true;
    }
    if (!pending) break;
    if (state == Carry::Pending && have_left) {
      try {
        carry =
            view_as(from_carry(unpack(elem, Shape{}, left), mine.rows.lo, mine.rows.hi), Shape{});
        state = Carry::Known;
      } catch (const std::exception&) {
        state = Carry::Failed;
      }
    }
  }
  // 4, 5. The segment that began before this rank's rows, from the carry
  // received, then the values this rank makes, in segment order.
  Array made;
  bool failed = part_failed([&] {
    made = Array::allocate(elem, Shape{mine.made.count()}, false);
    int64_t at = 0;
    if (mine.in && !mine.through) {
      Array head = from_carry(unpack(elem, Shape{}, left), mine.rows.lo, mine.head_end);
      copy_elements(head, 0, made, at++, 1);
    }
    if (mine.made.count() > at) copy_elements(local, 0, made, at, mine.made.count() - at);
  });
  if (failed) {
    after_failure(k, false);
    return true;
  }
  // Which segments each rank made: one range per rank to every rank.
  std::vector<Rows> have, want;
  bool in_blocks = held_in_blocks(elem, Shape{segments}, ranks, s_.mpi.min_block_bytes);
  std::vector<Bytes> made_by = comm_.allgather(pack_i64s({mine.made.lo, mine.made.hi}));
  for (int d = 0; d < ranks; ++d) {
    std::vector<int64_t> m = unpack_i64s(made_by[size_t(d)]);
    have.push_back(Rows{m[0], m[1]});
    want.push_back(in_blocks ? block_rows(segments, ranks, d) : Rows{0, segments});
  }
  Array result = fetch_rows(made, Shape{segments}, have, want);
  plan_ = "segments with carries";
  set(k.outputs[0], in_blocks ? Held{result, true, Shape{segments}} : hold(result));
  return true;
}

} // namespace strata::mpi
