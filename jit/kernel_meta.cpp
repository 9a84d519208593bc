#include "jit/kernel_meta.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <unordered_map>

#include "core/ir_walk.h"
#include "core/overload.h"

namespace strata::jit {
namespace {

// Every occurrence of every Exp node of a kernel (pre-order) and every
// Delayed, in a fixed order: the kernel's fields as kernel_text prints them.
class Walk {
public:
  std::vector<const Exp*> nodes;
  std::vector<const Delayed*> delayed;

  explicit Walk(const Kernel& k) {
    std::visit(Overload{[&](const kn::Generate& x) { delayed_array(x.body); },
                        [&](const kn::Fold& x) {
                          lambda(x.f);
                          exp(x.seed);
                          delayed_array(x.input);
                        },
                        [&](const kn::FoldSeg& x) {
                          lambda(x.f);
                          exp(x.seed);
                          delayed_array(x.input);
                        },
                        [&](const kn::Scan& x) {
                          lambda(x.f);
                          exp(x.seed);
                          delayed_array(x.input);
                        },
                        [&](const kn::Permute& x) {
                          lambda(x.combine);
                          delayed_array(x.defaults);
                          lambda(x.target);
                          delayed_array(x.source);
                        },
                        [&](const kn::Stencil& x) {
                          exp(x.boundary.constant);
                          lambda(x.f);
                        },
                        [&](const kn::Loop&) {}, [&](const kn::Branch& x) { exp(x.cond); }},
               k.body);
  }

private:
  void exp(const ExpPtr& e) {
    if (e) node(*e);
  }
  void lambda(const Lambda& f) { exp(f.body); }
  void delayed_array(const Delayed& d) {
    delayed.push_back(&d);
    exp(d.shape);
    lambda(d.elem);
    for (const Check& c : d.checks) {
      exp(c.a);
      exp(c.b);
    }
  }
  void node(const Exp& e) {
    nodes.push_back(&e);
    // Kernel code names arrays by variable: array children are not walked.
    for_each_child(
        e, [&](const Exp& x) { node(x); }, [](const Acc&) {});
  }
};

class Writer {
public:
  std::string out;
  void i(int64_t v) { out.append(reinterpret_cast<const char*>(&v), sizeof(v)); }
};

// Reads int64s; any read past the end sets `ok` to false (and returns 0).
class Reader {
public:
  explicit Reader(std::string_view in) : in_(in) {}
  bool ok = true;
  int64_t i() {
    int64_t v = 0;
    if (in_.size() - at_ < sizeof(v)) {
      ok = false;
      return 0;
    }
    std::memcpy(&v, in_.data() + at_, sizeof(v));
    at_ += sizeof(v);
    return v;
  }
  size_t left() const { return (in_.size() - at_) / sizeof(int64_t); }
  bool done() const { return ok && at_ == in_.size(); }

private:
  std::string_view in_;
  size_t at_ = 0;
};

constexpr int64_t kMaxEntries = int64_t(1) << 20;

bool same_loc(const SrcLoc& a, const SrcLoc& b) {
  if (a.line != b.line || a.col != b.col) return false;
  if (!a.file || !b.file) return !a.file && !b.file;
  return *a.file == *b.file;
}

// The fields a site of this kind does not use are at their defaults, and
// the payload slots decode_error reads for it fit in JitError::payload (what
// codegen enforces when it makes the site).
bool fields_fit(Site::Kind kind, const Site& defaults, int64_t op, int64_t operand,
                int64_t array_id, int64_t source_id, int64_t rank) {
  bool reads = kind == Site::Kind::Read || kind == Site::Kind::LinearRead;
  if (kind != Site::Kind::PermuteTarget && (source_id != -1 || (!reads && array_id != -1)))
    return false;
  if (kind != Site::Kind::DivisionByZero &&
      (op != int64_t(defaults.op) || operand != int64_t(defaults.operand)))
    return false;
  if (rank < 0 || rank > kPayloadSlots) return false;
  switch (kind) {
  case Site::Kind::DivisionByZero:
  case Site::Kind::LinearRead: return rank == 0;
  case Site::Kind::Read: return rank <= kPayloadSlots;
  case Site::Kind::ToIndex: return 2 * rank <= kPayloadSlots;
  case Site::Kind::FromIndex:
  case Site::Kind::PermuteTarget: return rank + 1 <= kPayloadSlots;
  }
  return false;
}

std::string entry_magic() {
  char m[9];
  std::snprintf(m, sizeof(m), "SJITKM%02d", kKernelMetaVersion % 100);
  return std::string(m, 8);
}

} // namespace

std::string encode_kernel_meta(const KernelGraph&, const Kernel& k, const KernelCode& code) {
  Walk w(k);
  std::unordered_map<const Exp*, std::vector<int64_t>> where;
  for (size_t i = 0; i < w.nodes.size(); ++i)
    where[w.nodes[i]].push_back(int64_t(i));
  bool bound = true;
  Writer o;
  o.i(kKernelMetaVersion);
  o.i(int64_t(w.nodes.size()));
  o.i(int64_t(w.delayed.size()));
  for (int e : {code.entries, code.main, code.chunk, code.combine, code.combine_swapped,
                code.targets, code.edges})
    o.i(e);
  o.i(code.row_lanes);
  // Every position of each closed expression, in walk order.
  std::vector<std::pair<int64_t, int64_t>> closed;
  size_t closed_found = 0;
  for (const auto& [e, entry] : code.closed) {
    auto it = where.find(e);
    if (it == where.end()) continue;
    ++closed_found;
    for (int64_t pos : it->second)
      closed.emplace_back(pos, entry);
  }
  if (closed_found != code.closed.size()) bound = false;
  std::sort(closed.begin(), closed.end());
  o.i(int64_t(closed.size()));
  for (const auto& [pos, entry] : closed) {
    o.i(pos);
    o.i(entry);
  }
  std::vector<std::pair<int64_t, int64_t>> generate;
  for (size_t j = 0; j < w.delayed.size(); ++j) {
    auto it = code.generate.find(w.delayed[j]);
    if (it != code.generate.end()) generate.emplace_back(int64_t(j), it->second);
  }
  // A delayed array occurring twice would be ambiguous the same way.
  if (generate.size() != code.generate.size()) bound = false;
  o.i(int64_t(generate.size()));
  for (const auto& [pos, entry] : generate) {
    o.i(pos);
    o.i(entry);
  }
  o.i(int64_t(code.sites.size()));
  for (const Site& s : code.sites) {
    o.i(int64_t(s.kind));
    o.i(int64_t(s.op));
    o.i(int64_t(s.operand));
    o.i(s.array_id);
    o.i(s.source_id);
    o.i(s.rank);
    // No positions: a permute's target check (the kernel's last operation),
    // or a site whose expression is not one of the kernel's (unbound).
    auto it = s.exp ? where.find(s.exp) : where.end();
    if (it == where.end()) {
      if (s.exp || s.kind != Site::Kind::PermuteTarget) bound = false;
      o.i(0);
      continue;
    }
    o.i(int64_t(it->second.size()));
    for (int64_t pos : it->second)
      o.i(pos);
  }
  o.i(bound ? 1 : 0);
  return o.out;
}

MetaResult decode_kernel_meta(std::string_view meta, const KernelGraph& g, const Kernel& k,
                              int temp_id, const std::string& prefix, KernelCode& code) {
  Reader r(meta);
  if (r.i() != kKernelMetaVersion) return MetaResult::Corrupt;
  Walk w(k);
  int64_t nodes = int64_t(w.nodes.size()), delayed = int64_t(w.delayed.size());
  if (r.i() != nodes || r.i() != delayed) return MetaResult::Corrupt;
  KernelCode c;
  c.prefix = prefix;
  int64_t entries = r.i();
  if (entries < 1 || entries > kMaxEntries) return MetaResult::Corrupt;
  c.entries = int(entries);
  bool corrupt = false;
  auto entry = [&](bool optional) {
    int64_t v = r.i();
    if (optional && v == -1) return -1;
    if (v < 0 || v >= entries) corrupt = true;
    return int(v);
  };
  auto position = [&](int64_t count) {
    int64_t v = r.i();
    if (v < 0 || v >= count) corrupt = true;
    return corrupt ? 0 : v;
  };
  auto count = [&] {
    int64_t n = r.i();
    if (n < 0 || size_t(n) > r.left()) {
      corrupt = true;
      return int64_t(0);
    }
    return n;
  };
  c.main = entry(true);
  c.chunk = entry(true);
  c.combine = entry(true);
  c.combine_swapped = entry(true);
  c.targets = entry(true);
  c.edges = entry(true);
  int64_t row_lanes = r.i();
  if (row_lanes < 0 || row_lanes > 1024) corrupt = true;
  c.row_lanes = corrupt ? 0 : int(row_lanes);
  for (int64_t i = 0, n = count(); i < n && !corrupt; ++i) {
    int64_t pos = position(nodes);
    int e = entry(false);
    if (!corrupt) c.closed[w.nodes[size_t(pos)]] = e;
  }
  for (int64_t i = 0, n = count(); i < n && !corrupt; ++i) {
    int64_t pos = position(delayed);
    int e = entry(false);
    if (!corrupt) c.generate[w.delayed[size_t(pos)]] = e;
  }
  bool bound = true;
  auto table_id = [&](int64_t id) {
    return (id >= 0 && size_t(id) < g.arrays.size()) || (id == temp_id && id >= 0);
  };
  for (int64_t i = 0, n = count(); i < n && !corrupt; ++i) {
    int64_t kind = r.i(), op = r.i(), operand = r.i(), array_id = r.i(), source_id = r.i(),
            rank = r.i(), positions = count();
    if (kind < 0 || kind > int64_t(Site::Kind::PermuteTarget) || op < 0 || op >= kNumPrims ||
        operand < 0 || operand >= kNumScalarKinds || rank < 0 || array_id < -1 || source_id < -1 ||
        array_id > INT32_MAX || source_id > INT32_MAX ||
        !fields_fit(Site::Kind(kind), Site{Site::Kind(kind), SrcLoc{}}, op, operand, array_id,
                    source_id, rank))
      return MetaResult::Corrupt;
    Site s{Site::Kind(kind), SrcLoc{}};
    s.op = Prim(op);
    s.operand = ScalarKind(operand);
    s.array_id = int(array_id);
    s.source_id = int(source_id);
    s.rank = int(rank);
    // Reads' arrays are checked by describe_site (one of the graph's).
    if (s.kind == Site::Kind::Read && array_id >= 0 && size_t(array_id) < g.arrays.size() &&
        rank != g.arrays[size_t(array_id)].type.rank())
      return MetaResult::Corrupt;
    if (s.kind == Site::Kind::PermuteTarget) {
      if (positions != 0 || !std::holds_alternative<kn::Permute>(k.body) || k.ops.empty() ||
          !table_id(array_id) || !table_id(source_id))
        return MetaResult::Corrupt;
      s.loc = k.ops.back().loc;
    } else if (positions == 0) {
      bound = false;
    }
    for (int64_t p = 0; p < positions && !corrupt; ++p) {
      int64_t pos = position(nodes);
      if (corrupt) break;
      Site t = s;
      if (!describe_site(t, *w.nodes[size_t(pos)], g)) return MetaResult::Corrupt;
      if (p == 0)
        s = t;
      else if (!same_loc(t.loc, s.loc) || t.name != s.name)
        bound = false; // this kernel's nodes at those positions differ
    }
    c.sites.push_back(std::move(s));
  }
  int64_t stored_bound = r.i();
  if (corrupt || !r.done() || (stored_bound != 0 && stored_bound != 1)) return MetaResult::Corrupt;
  if (!bound || stored_bound == 0) return MetaResult::Unbound;
  code = std::move(c);
  return MetaResult::Ok;
}

std::vector<char> pack_entry(std::string_view meta,
                             const std::vector<std::span<const char>>& objects) {
  std::vector<char> out;
  auto put = [&](const void* data, size_t n) {
    const char* c = static_cast<const char*>(data);
    out.insert(out.end(), c, c + n);
  };
  auto put_u64 = [&](uint64_t v) { put(&v, sizeof(v)); };
  std::string magic = entry_magic();
  put(magic.data(), magic.size());
  put_u64(meta.size());
  put(meta.data(), meta.size());
  put_u64(objects.size());
  for (std::span<const char> o : objects) {
    put_u64(o.size());
    put(o.data(), o.size());
  }
  return out;
}

bool unpack_entry(std::span<const char> payload, std::string_view& meta,
                  std::vector<std::span<const char>>& objects) {
  objects.clear();
  std::string magic = entry_magic();
  if (payload.size() < magic.size() || std::memcmp(payload.data(), magic.data(), magic.size()) != 0)
    return false;
  std::span<const char> rest = payload.subspan(magic.size());
  auto take_u64 = [&](uint64_t& v) {
    if (rest.size() < sizeof(v)) return false;
    std::memcpy(&v, rest.data(), sizeof(v));
    rest = rest.subspan(sizeof(v));
    return true;
  };
  auto take = [&](uint64_t n, std::span<const char>& part) {
    if (n > rest.size()) return false;
    part = rest.first(size_t(n));
    rest = rest.subspan(size_t(n));
    return true;
  };
  uint64_t length = 0, count = 0;
  std::span<const char> m;
  if (!take_u64(length) || !take(length, m) || !take_u64(count)) return false;
  if (count == 0 || count > kMaxObjects) return false;
  for (uint64_t i = 0; i < count; ++i) {
    std::span<const char> o;
    if (!take_u64(length) || length == 0 || !take(length, o)) return false;
    objects.push_back(o);
  }
  if (!rest.empty()) return false;
  meta = std::string_view(m.data(), m.size());
  return true;
}

} // namespace strata::jit
