// cuda scans (scanl scanl1 scanl' scanr scanr1), along each row, in the
// association order the executable declares (core/reduction_order.h):
// - rows not chunked: `scan`, one work item per row from the seed (or the
//   first element);
// - chunked rows: every chunk's total but each row's last by the shared
//   `lanes` and `tree` entries (right scans with f's operands swapped), then
//   `carry` (one work item per row: the carries left to right), then `scan`
//   (one work item per chunk, scanning it from its carry; the last chunk
//   gives the row's total).
//
// Deterministic: the chunks and lanes depend on the row length and the
// declared order only; each work item writes its own positions, and the
// carries are combined in order by one work item per row; the oracle replays
// the same order.
#include "core/scan_layout.h"
#include "cuda/kernel_gen.h"
#include "cuda/kernel_run.h"

namespace strata::cuda {

// ------------------------------------------------------------ entries

void KernelGen::scan(const Kernel& k, const kn::Scan& x) {
  const SrcLoc& loc = k.ops.back().loc;
  delayed(x.input, loc);
  closed(x.seed, false); // evaluated first by the executor when rows are chunked
  check_rank(x.input.type.rank() + 1, loc);
  KernelEntries& ke = entries(k);
  const Type& elem = x.input.type.elem();
  ArrayId lanes = add_slot(Type::array(elem, 1));
  ArrayId carry = add_slot(Type::array(elem, 1));
  ke.scratch = {lanes, carry};
  bool right = scans_from_the_right(x.kind);
  bool seeded = x.seed != nullptr;
  // physical position of scan-order position j
  auto phys = [right](const std::string& j) { return right ? "(S_N - 1 - " + j + ")" : j; };
  auto combine = [&](ScalarGen& s, const Val& acc, const Val& e) {
    return right ? s.apply(x.f, {e, acc}) : s.apply(x.f, {acc, e});
  };
  Reduce r{x.input, phys, combine, true};
  lanes_entry(k, r, lanes);
  tree_entry(k, r, lanes);
  std::string code;
  {
    std::string name = entry_name(k, "carry");
    begin(name);
    ScalarGen s(g_, out_, code, 1);
    s.line("i64 base = t * S_CHUNKS;");
    s.line(std::string("c.key = t * S_N") + kCombineKey + ";");
    Val acc;
    if (seeded) {
      acc = s.copy(s.exp(*x.seed));
      s.open("for (i64 j = 1; j < S_CHUNKS && !c.failed; ++j) {");
      s.assign(acc, s.copy(combine(s, acc, s.load(lanes, "(base + j - 1) * S_LANE_SLOTS"))));
    } else {
      acc = s.copy(s.load(lanes, "base * S_LANE_SLOTS"));
      s.store(carry, "base + 1", acc);
      s.open("for (i64 j = 2; j < S_CHUNKS && !c.failed; ++j) {");
      s.assign(acc, s.copy(combine(s, acc, s.load(lanes, "(base + j - 1) * S_LANE_SLOTS"))));
    }
    s.store(carry, "base + j", acc);
    s.close();
    end(name, code);
  }
  {
    std::string name = entry_name(k, "scan");
    begin(name);
    ScalarGen s(g_, out_, code, 1);
    ArrayId out = k.outputs[0];
    s.line("i64 row = t / S_CHUNKS, chunk = t % S_CHUNKS, lo = chunk * S_CHUNK;");
    s.line("i64 hi = lo + S_CHUNK < S_N ? lo + S_CHUNK : S_N;");
    s.line("i64 base = row * S_N, n = S_N;");
    s.line("(void)n;");
    s.line(std::string("c.key = base + lo") + kCombineKey + ";");
    Val acc{elem, {}};
    for (ScalarKind kd : elem.leaves())
      acc.leaves.push_back(s.var(kd, "(" + c_type(kd) + ")0"));
    s.line("bool have = chunk > 0;");
    s.open("if (chunk > 0) {");
    s.assign(acc, s.load(carry, "t"));
    if (seeded) {
      s.otherwise();
      s.assign(acc, s.exp(*x.seed));
      s.line("have = true;");
      // the seed's own slot
      if (x.kind == ac::ScanKind::Scanl) s.store(out, "row * (n + 1)", acc);
      if (x.kind == ac::ScanKind::Scanr) s.store(out, "row * (n + 1) + n", acc);
      if (x.kind == ac::ScanKind::ScanlPrime) {
        s.open("if (n > 0) {");
        s.store(out, "base", acc);
        s.close();
      }
    }
    s.close();
    s.open("for (i64 j = lo; j < hi && !c.failed; ++j) {");
    s.line("c.key = base + " + phys("j") + ";");
    Val e = element(s, x.input, "base + " + phys("j"), words::row_shape);
    s.line(std::string("c.key = base + j") + kCombineKey + ";");
    s.open("if (have) {");
    s.assign(acc, s.copy(combine(s, acc, e)));
    s.otherwise();
    s.assign(acc, e);
    s.line("have = true;");
    s.close();
    switch (x.kind) {
    case ac::ScanKind::Scanl: s.store(out, "row * (n + 1) + j + 1", acc); break;
    case ac::ScanKind::Scanl1: s.store(out, "base + j", acc); break;
    case ac::ScanKind::Scanr: s.store(out, "row * (n + 1) + (n - 1 - j)", acc); break;
    case ac::ScanKind::Scanr1: s.store(out, "base + (n - 1 - j)", acc); break;
    case ac::ScanKind::ScanlPrime: // the accumulator after position j, as the interpreter
      s.open("if (j + 1 < n) {");
      s.store(out, "base + j + 1", acc);
      s.close();
      break;
    }
    s.close();
    if (x.kind == ac::ScanKind::ScanlPrime) {
      s.open("if (chunk == S_CHUNKS - 1) {");
      s.store(k.outputs[1], "row", acc);
      s.close();
    }
    end(name, code);
  }
}

// ------------------------------------------------------------ host

void Run::scan(const Kernel& k, const kn::Scan& x) {
  Shape sh = prepare(x.input);
  int64_t n = sh.back();
  Shape outer(sh.begin(), sh.end() - 1);
  int64_t rows = shape_size(outer);
  Shape result = sh;
  result.back() = scan_output_extent(x.kind, n);
  set(k.outputs[0], allocate(k.outputs[0], result));
  if (x.kind == ac::ScanKind::ScanlPrime) set(k.outputs[1], allocate(k.outputs[1], outer));
  ArrayId lanes = scratch(k, 0), carry = scratch(k, 1);
  LaunchParams p = row_params(sh, rows, n, 1);
  if (order_.scan_chunked(n) && n > order_.scan_chunk) {
    if (x.seed && rows > 0) eval(*x.seed); // before any element, as in fold
    p = chunked_params(sh, rows, order_.scan_chunk, x.input.type.elem(), x.f);
    chunk_totals(k, lanes, p); // all but each row's last chunk
    set(carry, allocate(carry, {rows * p.v[words::chunks]}));
    launch(entry(k, "carry"), p, rows);
  }
  launch(entry(k, "scan"), p, rows * p.v[words::chunks]);
  arrays_[size_t(lanes)] = {};
  arrays_[size_t(carry)] = {};
}

} // namespace strata::cuda
