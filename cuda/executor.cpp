#include "cuda/executor.h"

#include <cstring>

#include "core/combiner.h"
#include "core/overload.h"
#include "core/runtime_errors.h"
#include "cuda/kernel_run.h"
#include "fusion/checks.h"
#include "fusion/graph_run.h"

namespace strata::cuda {

// ------------------------------------------------------------------ pool
Pool::~Pool() {
  for (auto& [size, address] : free_)
    backend_.free(address);
}

std::shared_ptr<uint64_t> Pool::get(size_t bytes) {
  if (bytes > (size_t(1) << 62)) throw Buffer::out_of_memory_error(bytes, "device memory");
  bytes = (std::max<size_t>(bytes, 1) + 255) / 256 * 256;
  uint64_t address = 0;
  auto it = free_.find(bytes);
  if (it != free_.end()) {
    address = it->second;
    free_.erase(it);
  } else {
    try {
      address = backend_.alloc(bytes);
    } catch (const Error& e) {
      if (!Buffer::out_of_memory(e) || free_.empty()) throw;
      // Give the buffers kept for reuse back to the device and try once more.
      for (auto& [size, kept] : free_)
        backend_.free(kept);
      free_.clear();
      address = backend_.alloc(bytes);
    }
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

Run::Run(const KernelGraph& g, const Generated& code, Backend& b, Pool& pool,
         const ReductionOrder& order)
    : g_(g), code_(code), b_(b), pool_(pool), order_(order), arrays_(code.slots.size()),
      table_(size_t(code.table_words), 0) {
  table_dev_ = pool_.get(table_.size() * 8);
  error_dev_ = pool_.get(sizeof(ErrorWords));
  words_dev_ = pool_.get(64 * 8);
  reset_error();
}

std::vector<Array> Run::run(const std::vector<Array>& inputs, KernelTimes* times) {
  return run_kernel_graph(g_, inputs, *this, times);
}

bool Run::loop_continues(ArrayId cond) {
  bool go = false;
  b_.download(&go, *arrays_[size_t(cond)].leaves[0], 1);
  return go;
}

void Run::compute(const Kernel& k) {
  std::visit(
      Overload{[&](const kn::Generate& x) { generate(k, x); },
               [&](const kn::Fold& x) { fold(k, x); }, [&](const kn::FoldSeg& x) { foldseg(k, x); },
               [&](const kn::Scan& x) { scan(k, x); }, [&](const kn::Permute& x) { permute(k, x); },
               [&](const kn::Stencil& x) { stencil(k, x); }, [&](const kn::Loop&) {},
               [&](const kn::Branch&) {}},
      k.body);
}

void Run::set(ArrayId id, DevArray a) {
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

DevArray Run::allocate(ArrayId id, const Shape& shape) {
  DevArray a;
  a.shape = shape;
  for (ScalarKind k : slot_type(id).elem().leaves())
    a.leaves.push_back(pool_.get(Array::leaf_bytes(shape, k)));
  return a;
}

DevArray Run::upload(const Array& a) {
  DevArray d;
  d.shape = a.shape();
  for (size_t l = 0; l < a.num_leaves(); ++l) {
    size_t bytes = size_t(a.size()) * scalar_size(a.leaf_kind(l));
    d.leaves.push_back(pool_.get(bytes));
    if (bytes) b_.upload(*d.leaves.back(), a.leaf(l).data(), bytes);
  }
  return d;
}

Array Run::download(ArrayId id) {
  const DevArray& d = arrays_[size_t(id)];
  Array a = Array::allocate(slot_type(id).elem(), d.shape);
  for (size_t l = 0; l < a.num_leaves(); ++l) {
    size_t bytes = size_t(a.size()) * scalar_size(a.leaf_kind(l));
    if (bytes) b_.download(a.leaf(l).data(), *d.leaves[l], bytes);
  }
  return a;
}

void Run::reset_error() {
  ErrorWords e;
  b_.upload(*error_dev_, &e, sizeof e);
}

void Run::launch(const std::string& phase_name, const LaunchParams& p, int64_t n,
                 const std::function<void()>& replay) {
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

Error Run::error_of(const ErrorWords& e) const {
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
    return linear_index_out_of_bounds(e.v[0], arrays_[size_t(s.array_id)].shape, s.opname, s.array,
                                      s.loc);
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

std::vector<int64_t> Run::eval(const Exp& e) {
  LaunchParams p;
  p.v[words::out_words] = int64_t(*words_dev_);
  launch(code_.closed.at(&e), p, 1);
  std::vector<int64_t> w(e.type.leaves().size());
  if (!w.empty()) b_.download(w.data(), *words_dev_, w.size() * 8);
  return w;
}

Shape Run::prepare(const Delayed& d) {
  run_delayed_checks(d, [&](const ExpPtr& e) { return Index(eval(*e)); });
  return eval(*d.shape);
}

void Run::put_shape(LaunchParams& p, int base, const Shape& sh) {
  for (size_t k = 0; k < sh.size(); ++k)
    p.v[size_t(base) + k] = sh[k];
}

LaunchParams Run::row_params(const Shape& sh, int64_t rows, int64_t chunk, int64_t chunks) {
  LaunchParams p;
  p.v[words::rows] = rows;
  p.v[words::n] = sh.back();
  p.v[words::chunk] = chunk;
  p.v[words::chunks] = chunks;
  put_shape(p, words::row_shape, sh);
  return p;
}

LaunchParams Run::chunked_params(const Shape& sh, int64_t rows, int64_t chunk, const Type& elem,
                                 const Lambda& f) {
  int64_t n = sh.back();
  LaunchParams p = row_params(sh, rows, chunk, (n + chunk - 1) / chunk);
  p.v[words::lane_slots] = std::min<int64_t>(chunk_lanes(order_, elem, f), chunk);
  return p;
}

void Run::chunk_totals(const Kernel& k, ArrayId lanes, const LaunchParams& p) {
  int64_t items = p.v[words::rows] * p.v[words::chunks];
  int64_t lane_items = items * p.v[words::lane_slots];
  set(lanes, allocate(lanes, {lane_items}));
  launch(entry(k, "lanes"), p, lane_items);
  launch(entry(k, "tree"), p, items,
         [&] { b_.launch(entry(k, "lanes"), *table_dev_, *error_dev_, -1, p, lane_items); });
}

std::vector<Array> run_graph(const KernelGraph& g, const Generated& code, Backend& backend,
                             Pool& pool, const std::vector<Array>& inputs,
                             const ReductionOrder& order, KernelTimes* times) {
  if ((order.fold_chunked_from > 0 && order.fold_chunk < 1) ||
      (order.scan_chunked_from > 0 && order.scan_chunk < 1) || order.lane_bytes < 1)
    throw Error(ErrorKind::Usage, SrcLoc{},
                "cuda engine: chunks and lanes of a reduction order must be at least 1 (" +
                    order.describe() + ")");
  return Run(g, code, backend, pool, order).run(inputs, times);
}

} // namespace strata::cuda
