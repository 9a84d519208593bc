#include "cuda/executor.h"

#include <cstring>

#include "core/overload.h"
#include "core/runtime_errors.h"
#include "fusion/checks.h"
#include "fusion/graph_run.h"

namespace strata::cuda {

// ------------------------------------------------------------------ pool
Pool::~Pool() {
  for (auto& [size, address] : free_)
    backend_.free(address);
}

std::shared_ptr<uint64_t> Pool::get(size_t bytes) {
  bytes = (std::max<size_t>(bytes, 1) + 255) / 256 * 256;
  uint64_t address = 0;
  auto it = free_.find(bytes);
  if (it != free_.end()) {
    address = it->second;
    free_.erase(it);
  } else {
    address = backend_.alloc(bytes);
    ++allocations_;
  }
  std::weak_ptr<Pool*> alive = alive_;
  Backend* backend = &backend_;
  return std::shared_ptr<uint64_t>(new uint64_t(address), [alive, backend, bytes](uint64_t* a) {
    if (auto p = alive.lock())
      (*p)->free_.emplace(bytes, *a);
    else
      backend->free(*a);
    delete a;
  });
}

namespace {

// An array in backend memory: its shape and one buffer per leaf.
struct DevArray {
  Shape shape;
  std::vector<std::shared_ptr<uint64_t>> leaves;
};

class Run {
public:
  Run(const KernelGraph& g, const Generated& code, Backend& b, Pool& pool,
      const ReductionOrder& order)
      : g_(g), code_(code), b_(b), pool_(pool), order_(order), arrays_(code.slots.size()),
        table_(size_t(code.table_words), 0) {
    table_dev_ = pool_.get(table_.size() * 8);
    error_dev_ = pool_.get(sizeof(ErrorWords));
    words_dev_ = pool_.get(64 * 8);
    reset_error();
  }

  std::vector<Array> run(const std::vector<Array>& inputs) {
    return run_kernel_graph(g_, inputs, *this);
  }

  // The runner's part (fusion/graph_run.h): arrays live in backend memory.
  // awhile: a loop's condition and `next` arrays are let go as soon as they
  // are read, so the previous state's buffers go back to the pool and the
  // next body's outputs take them (double buffering without allocation per
  // iteration).
  using Value = DevArray;
  DevArray bind_input(const Array& a) { return upload(a); }
  DevArray get(ArrayId id) const { return arrays_[size_t(id)]; }
  Array result(ArrayId id) { return download(id); }
  void drop(ArrayId id) { arrays_[size_t(id)] = {}; }
  bool loop_continues(ArrayId cond) {
    bool go = false;
    b_.download(&go, *arrays_[size_t(cond)].leaves[0], 1);
    return go;
  }
  bool condition(const Kernel&, const kn::Branch& b) { return eval(*b.cond).at(0) != 0; }
  void compute(const Kernel& k) {
    std::visit(Overload{[&](const kn::Generate& x) { generate(k, x); },
                        [&](const kn::Fold& x) { fold(k, x); },
                        [&](const kn::FoldSeg& x) { foldseg(k, x); },
                        [&](const kn::Scan& x) { scan(k, x); },
                        [&](const kn::Permute& x) { permute(k, x); },
                        [&](const kn::Stencil& x) { stencil(k, x); }, [&](const kn::Loop&) {},
                        [&](const kn::Branch&) {}},
               k.body);
  }
  void set(ArrayId id, DevArray a) {
    const Type& t = slot_type(id);
    int o = code_.offsets[size_t(id)];
    for (int k = 0; k < t.rank(); ++k)
      table_[size_t(o + k)] = a.shape[size_t(k)];
    table_[size_t(o + t.rank())] = shape_size(a.shape);
    for (size_t l = 0; l < a.leaves.size(); ++l)
      table_[size_t(o + t.rank() + 1) + l] = int64_t(*a.leaves[l]);
    arrays_[size_t(id)] = std::move(a);
    table_dirty_ = true;
  }

private:
  const KernelGraph& g_;
  const Generated& code_;
  Backend& b_;
  Pool& pool_;
  ReductionOrder order_;
  std::vector<DevArray> arrays_;
  std::vector<int64_t> table_;
  bool table_dirty_ = true;
  std::shared_ptr<uint64_t> table_dev_, error_dev_, words_dev_;

  const Type& slot_type(ArrayId id) const { return code_.slots[size_t(id)]; }

  // ---- arrays and the table
  DevArray allocate(ArrayId id, const Shape& shape) {
    DevArray a;
    a.shape = shape;
    int64_t n = shape_size(shape);
    for (ScalarKind k : slot_type(id).elem().leaves())
      a.leaves.push_back(pool_.get(size_t(n) * scalar_size(k)));
    return a;
  }

  DevArray upload(const Array& a) {
    DevArray d;
    d.shape = a.shape();
    for (size_t l = 0; l < a.num_leaves(); ++l) {
      size_t bytes = size_t(a.size()) * scalar_size(a.leaf_kind(l));
      d.leaves.push_back(pool_.get(bytes));
      if (bytes) b_.upload(*d.leaves.back(), a.leaf(l).data(), bytes);
    }
    return d;
  }

  Array download(ArrayId id) {
    const DevArray& d = arrays_[size_t(id)];
    Array a = Array::allocate(slot_type(id).elem(), d.shape);
    for (size_t l = 0; l < a.num_leaves(); ++l) {
      size_t bytes = size_t(a.size()) * scalar_size(a.leaf_kind(l));
      if (bytes) b_.download(a.leaf(l).data(), *d.leaves[l], bytes);
    }
    return a;
  }

  // ---- launches and errors
  void reset_error() {
    ErrorWords e;
    b_.upload(*error_dev_, &e, sizeof e);
  }

  void launch(const std::string& phase_name, const LaunchParams& p, int64_t n,
              const std::function<void()>& replay = {}) {
    if (n <= 0) return;
    if (table_dirty_) {
      b_.upload(*table_dev_, table_.data(), table_.size() * 8);
      table_dirty_ = false;
    }
    b_.launch(phase_name, *table_dev_, *error_dev_, -1, p, n);
    uint64_t first = 0;
    b_.download(&first, *error_dev_, 8);
    if (first == ~uint64_t(0)) return;
    // Diagnose: run again so that only the first failing element writes its operands.
    if (replay) replay();
    b_.launch(phase_name, *table_dev_, *error_dev_, int64_t(first), p, n);
    ErrorWords e;
    b_.download(&e, *error_dev_, sizeof e);
    reset_error();
    throw error_of(e);
  }

  Error error_of(const ErrorWords& e) const {
    const ErrorSite& s = code_.sites.at(size_t(e.site));
    auto words = [&](int from, int count) { return Index(e.v + from, e.v + from + count); };
    switch (s.kind) {
    case ErrorSite::Kind::Division: {
      auto scalar = [&](int64_t bits) {
        return dispatch_kind(s.type, [&](auto tag) {
          using T = decltype(tag);
          return Scalar::make<T>(T(bits));
        });
      };
      return division_by_zero(s.op, scalar(e.v[0]), scalar(e.v[1]), s.loc);
    }
    case ErrorSite::Kind::Read:
      return index_out_of_bounds(words(0, s.rank), arrays_[size_t(s.array_id)].shape, s.opname,
                                 s.array, s.loc);
    case ErrorSite::Kind::LinearRead:
      return linear_index_out_of_bounds(e.v[0], arrays_[size_t(s.array_id)].shape, s.opname,
                                        s.array, s.loc);
    case ErrorSite::Kind::ToIndex:
      return to_index_out_of_bounds(words(s.rank, s.rank), words(0, s.rank), s.opname, s.loc);
    case ErrorSite::Kind::FromIndex:
      return from_index_out_of_bounds(e.v[s.rank], words(0, s.rank), s.loc);
    case ErrorSite::Kind::PermuteTarget:
      return permute_target_out_of_bounds(words(0, s.rank), arrays_[size_t(s.array_id)].shape,
                                          from_linear(permute_source_, int64_t(e.first)), s.loc);
    }
    return Error(ErrorKind::Resource, s.loc, "unknown error site");
  }
  Shape permute_source_;

  // A closed expression's scalar leaves as 64-bit words (zero for one generated
  // for its errors only: a seed, cuda/codegen_kernels.cpp).
  std::vector<int64_t> eval(const Exp& e) {
    LaunchParams p;
    p.v[0] = int64_t(*words_dev_);
    launch(code_.closed.at(&e), p, 1);
    std::vector<int64_t> w(e.type.leaves().size());
    if (!w.empty()) b_.download(w.data(), *words_dev_, w.size() * 8);
    return w;
  }

  Shape prepare(const Delayed& d) {
    run_delayed_checks(d, [&](const ExpPtr& e) { return Index(eval(*e)); });
    return eval(*d.shape);
  }

  std::string entry(const Kernel& k, const char* phase) const {
    return code_.kernels.at(k.id).prefix + "_" + phase;
  }
  ArrayId scratch(const Kernel& k, size_t i) const { return code_.kernels.at(k.id).scratch[i]; }

  static void put_shape(LaunchParams& p, int base, const Shape& sh) {
    for (size_t k = 0; k < sh.size(); ++k)
      p.v[size_t(base) + k] = sh[k];
  }

  // ---- kernels
  void generate(const Kernel& k, const kn::Generate& x) {
    Shape sh = prepare(x.body);
    set(k.outputs[0], allocate(k.outputs[0], sh));
    LaunchParams p;
    put_shape(p, 0, sh);
    launch(entry(k, "elem"), p, shape_size(sh));
  }

  // rows, n and the input shape in p.v[0], v[1], v[4..]
  static LaunchParams row_params(const Shape& sh, int64_t rows, int64_t chunk, int64_t chunks) {
    LaunchParams p;
    p.v[0] = rows;
    p.v[1] = sh.back();
    p.v[2] = chunk;
    p.v[3] = chunks;
    put_shape(p, 4, sh);
    return p;
  }

  // A chunked row's chunks (C elements, K per row, core/reduction_order.h)
  // and lane slots per chunk Ls = min(lanes, C), in p.v[2], v[3], v[12].
  LaunchParams chunked_params(const Shape& sh, int64_t rows, int64_t chunk, const Type& elem) {
    int64_t n = sh.back();
    LaunchParams p = row_params(sh, rows, chunk, (n + chunk - 1) / chunk);
    p.v[12] = std::min<int64_t>(fold_lanes(order_, elem), chunk);
    return p;
  }

  // Every chunk's lanes, then each chunk's lane tree (in place in `lanes`:
  // a diagnosing tree launch replays the lanes first).
  void chunk_totals(const Kernel& k, ArrayId lanes, const LaunchParams& p) {
    int64_t items = p.v[0] * p.v[3];
    set(lanes, allocate(lanes, {items * p.v[12]}));
    launch(entry(k, "lanes"), p, items * p.v[12]);
    launch(entry(k, "tree"), p, items,
           [&] { b_.launch(entry(k, "lanes"), *table_dev_, *error_dev_, -1, p, items * p.v[12]); });
  }

  void fold(const Kernel& k, const kn::Fold& x) {
    Shape sh = prepare(x.input);
    int64_t n = sh.back();
    Shape outer(sh.begin(), sh.end() - 1);
    int64_t rows = shape_size(outer);
    if (!x.seed && n == 0 && rows > 0) throw fold1_empty_row(sh, k.ops.back().loc);
    set(k.outputs[0], allocate(k.outputs[0], outer));
    if (!order_.fold_chunked(n)) {
      launch(entry(k, "rows"), row_params(sh, rows, n, 1), rows);
      return;
    }
    // The seed before any element (docs/language.md, Errors): a row's work
    // item evaluates it first, but the chunks' lanes run before any row's.
    if (x.seed && rows > 0) eval(*x.seed);
    LaunchParams p = chunked_params(sh, rows, order_.fold_chunk, x.input.type.elem());
    ArrayId lanes = scratch(k, 0);
    chunk_totals(k, lanes, p);
    launch(entry(k, "finish"), p, rows);
    arrays_[size_t(lanes)] = {};
  }

  void scan(const Kernel& k, const kn::Scan& x) {
    Shape sh = prepare(x.input);
    int64_t n = sh.back();
    Shape outer(sh.begin(), sh.end() - 1);
    int64_t rows = shape_size(outer);
    Shape result = sh;
    if (x.kind == ac::ScanKind::Scanl || x.kind == ac::ScanKind::Scanr) result.back() = n + 1;
    set(k.outputs[0], allocate(k.outputs[0], result));
    if (x.kind == ac::ScanKind::ScanlPrime) set(k.outputs[1], allocate(k.outputs[1], outer));
    ArrayId lanes = scratch(k, 0), carry = scratch(k, 1);
    LaunchParams p = row_params(sh, rows, n, 1);
    if (order_.scan_chunked(n) && n > order_.scan_chunk) {
      if (x.seed && rows > 0) eval(*x.seed); // before any element, as in fold
      p = chunked_params(sh, rows, order_.scan_chunk, x.input.type.elem());
      chunk_totals(k, lanes, p); // all but each row's last chunk
      set(carry, allocate(carry, {rows * p.v[3]}));
      launch(entry(k, "carry"), p, rows);
    }
    launch(entry(k, "scan"), p, rows * p.v[3]);
    arrays_[size_t(lanes)] = {};
    arrays_[size_t(carry)] = {};
  }

  void foldseg(const Kernel& k, const kn::FoldSeg& x) {
    Shape sh = prepare(x.input);
    const SrcLoc& loc = k.ops.back().loc;
    int64_t n = sh.back(), nsegs = shape_size(arrays_[size_t(x.segs)].shape);
    Shape outer(sh.begin(), sh.end() - 1);
    int64_t rows = shape_size(outer);
    ArrayId offsets = scratch(k, 0), status = scratch(k, 1);
    set(offsets, allocate(offsets, {nsegs}));
    set(status, allocate(status, {3}));
    LaunchParams p = row_params(sh, rows, nsegs, 1);
    launch(entry(k, "prep"), p, 1);
    int64_t st[3];
    b_.download(st, *arrays_[size_t(status)].leaves[0], sizeof st);
    if (st[0] >= 0) throw foldseg_negative_segment(st[0], st[1], loc);
    if (st[2] != n) throw foldseg_length_mismatch(st[2], sh, loc);
    Shape out = outer;
    out.push_back(nsegs);
    set(k.outputs[0], allocate(k.outputs[0], out));
    launch(entry(k, "segs"), p, rows * nsegs);
  }

  void permute(const Kernel& k, const kn::Permute& x) {
    Shape dsh = prepare(x.defaults), ssh = prepare(x.source);
    int64_t n = shape_size(ssh);
    set(k.outputs[0], allocate(k.outputs[0], dsh));
    ArrayId targets = scratch(k, 0), values = scratch(k, 1);
    set(targets, allocate(targets, {n}));
    set(values, allocate(values, {n}));
    LaunchParams p;
    put_shape(p, 0, dsh);
    put_shape(p, 8, ssh);
    p.v[16] = n;
    permute_source_ = ssh;
    launch(entry(k, "defaults"), p, shape_size(dsh));
    launch(entry(k, "source"), p, n);
    // The combining step reads the output: a diagnosing run starts again from the defaults.
    launch(entry(k, "combine"), p, 1, [&] {
      b_.launch(entry(k, "defaults"), *table_dev_, *error_dev_, -1, p, shape_size(dsh));
    });
  }

  void stencil(const Kernel& k, const kn::Stencil& x) {
    Shape sh = arrays_[size_t(x.input)].shape;
    set(k.outputs[0], allocate(k.outputs[0], sh));
    LaunchParams p;
    put_shape(p, 0, sh);
    launch(entry(k, "elem"), p, shape_size(sh));
  }
};

} // namespace

std::vector<Array> run_graph(const KernelGraph& g, const Generated& code, Backend& backend,
                             Pool& pool, const std::vector<Array>& inputs,
                             const ReductionOrder& order) {
  if ((order.fold_chunked_from > 0 && order.fold_chunk < 1) ||
      (order.scan_chunked_from > 0 && order.scan_chunk < 1) || order.lane_bytes < 1)
    throw Error(ErrorKind::Usage, SrcLoc{},
                "cuda engine: chunks and lanes of a reduction order must be at least 1 (" +
                    order.describe() + ")");
  return Run(g, code, backend, pool, order).run(inputs);
}

} // namespace strata::cuda
