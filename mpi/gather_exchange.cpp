// A gather (an unfused backpermute, or one whose element is one read of an
// array held in blocks at a computed index) by request and reply instead
// of gathering the whole array (docs/mpi.md, "Gathers"):
//  1. every rank computes the index each of its output rows' elements reads
//     (the rows plan over the element's index expression);
//  2. it sends each index to the rank that holds that row, which replies
//     with the element's bytes: two all-to-all exchanges moving 8 bytes per
//     element and the element itself, only between the ranks concerned;
//  3. the replies, in order, are its rows of the result.
// An index out of range makes the whole kernel decide the error, as on one
// machine (after_failure).
#include <cstring>

#include "mpi/agree.h"
#include "mpi/rank_runner.h"

namespace strata::mpi {
namespace {

// The array read and the index expression when the element is
// (let (...) (! A index)) with neither the bindings nor the index reading
// A's elements.
std::pair<std::string, ExpPtr> single_read(const ExpPtr& body, std::vector<ex::Binding>& lets) {
  ExpPtr e = body;
  while (const auto* l = std::get_if<ex::Let>(&e->node)) {
    lets.insert(lets.end(), l->bindings.begin(), l->bindings.end());
    e = l->body;
  }
  const auto* r = std::get_if<ex::Read>(&e->node);
  const auto* v = r ? std::get_if<ac::Var>(&r->array->node) : nullptr;
  if (!v) return {"", nullptr};
  // Its shape and size may be read (the whole array's: local_programs.h).
  Names a{v->name};
  if (!needs_whole(r->index, a).empty()) return {"", nullptr};
  for (const ex::Binding& b : lets)
    if (!needs_whole(b.value, a).empty() || (b.fn && !needs_whole(*b.fn, a).empty()))
      return {"", nullptr};
  return {v->name, r->index};
}

} // namespace

bool RankRunner::gather_exchange(const Kernel& k, const Delayed& d) {
  if (comm_.size() == 1 || d.type.rank() < 1) return false;
  std::vector<ex::Binding> lets;
  auto [array, index] = single_read(d.elem.body, lets);
  if (array.empty()) return false;
  std::vector<ArrayId> reads = array_reads(g_, k);
  ArrayId source = -1;
  for (ArrayId id : reads)
    if (name(id) == array) source = id;
  if (source < 0 || !vals_.at(source).block || whole_.count(source)) return false;
  const Held& src = vals_.at(source);

  // 1. The index each of this rank's elements reads.
  Delayed where = d;
  where.elem.body = lets.empty() ? index : make_exp(ex::Let{lets, index});
  where.type = Type::array(Type::index(int(src.global.size())), d.type.rank());
  RowsRun r;
  if (!run_rows(
          k, where, {}, {}, [](AccPtr g, const Names&) { return g; }, r, "request indices"))
    return false;
  if (r.failed) {
    after_failure(k, false);
    return true;
  }
  // 2. Requests to the ranks that hold the rows, in element order.
  int ranks = comm_.size();
  const Array& at = r.results[0];
  int64_t count = at.size();
  int64_t row = 1;
  for (size_t c = 1; c < src.global.size(); ++c)
    row *= src.global[c];
  std::vector<std::vector<int64_t>> asked(
      static_cast<size_t>(ranks)); // offsets in the owner's block
  std::vector<std::pair<int, int64_t>> from(static_cast<size_t>(count)); // owner, position
  bool out_of_range = false;
  for (int64_t e = 0; e < count && !out_of_range; ++e) {
    int64_t offset = 0;
    for (size_t c = 0; c < src.global.size(); ++c) {
      int64_t v = at.leaf_data<int64_t>(c)[e];
      if (v < 0 || v >= src.global[c]) out_of_range = true;
      offset = c == 0 ? 0 : offset * src.global[c] + v;
    }
    if (out_of_range) break;
    int64_t i0 = at.leaf_data<int64_t>(0)[e];
    int owner = owner_of_row(src.global[0], ranks, i0);
    offset += (i0 - block_rows(src.global[0], ranks, owner).lo) * row;
    from[size_t(e)] = {owner, int64_t(asked[size_t(owner)].size())};
    asked[size_t(owner)].push_back(offset);
  }
  if (failed_anywhere(comm_, [&] {
        if (out_of_range) throw Error(ErrorKind::Bounds, "an index out of range");
      })) {
    after_failure(k, false);
    return true;
  }
  std::vector<Bytes> requests(static_cast<size_t>(ranks));
  for (int s = 0; s < ranks; ++s) {
    auto* p = reinterpret_cast<const std::byte*>(asked[size_t(s)].data());
    requests[size_t(s)].assign(p, p + asked[size_t(s)].size() * sizeof(int64_t));
  }
  std::vector<Bytes> wanted = comm_.alltoall(std::move(requests));
  // 3. Replies: each requested element's leaves, one after the other.
  std::vector<size_t> leaf(src.local.num_leaves());
  size_t element = 0;
  for (size_t l = 0; l < leaf.size(); ++l)
    element += leaf[l] = Array::leaf_bytes(Shape{1}, src.local.leaf_kind(l));
  std::vector<Bytes> replies(static_cast<size_t>(ranks));
  for (int s = 0; s < ranks; ++s) {
    const Bytes& q = wanted[size_t(s)];
    size_t n = q.size() / sizeof(int64_t);
    Bytes& out = replies[size_t(s)];
    out.resize(n * element);
    std::byte* w = out.data();
    for (size_t i = 0; i < n; ++i) {
      int64_t offset;
      std::memcpy(&offset, q.data() + i * sizeof offset, sizeof offset);
      for (size_t l = 0; l < leaf.size(); ++l, w += leaf[l - 1])
        std::memcpy(w, src.local.leaf(l).data() + size_t(offset) * leaf[l], leaf[l]);
    }
  }
  std::vector<Bytes> got = comm_.alltoall(std::move(replies));
  Shape local = at.shape();
  Array result = agreed(comm_, [&] {
    Array out = Array::allocate(src.local.elem_type(), local, false);
    for (int64_t e = 0; e < count; ++e) {
      auto [owner, pos] = from[size_t(e)];
      const std::byte* p = got[size_t(owner)].data() + size_t(pos) * element;
      for (size_t l = 0; l < leaf.size(); p += leaf[l], ++l)
        std::memcpy(out.leaf(l).data() + size_t(e) * leaf[l], p, leaf[l]);
    }
    return out;
  });
  plan_ = "rows by request and reply";
  Shape global = local;
  global[0] = r.n;
  set(k.outputs[0], Held{result, true, global});
  return true;
}

} // namespace strata::mpi
