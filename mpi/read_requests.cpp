// Reads of arrays held in blocks at computed indices, by request and reply
// instead of gathering the whole arrays (docs/mpi.md, "Reads at computed
// indices"), for every plan that computes rows (run_rows): an unfused
// backpermute or gather, and such reads inside larger element expressions
// (a backpermute fused into a map or a fold's input, a lookup):
//  1. the *sites* are the reads (! A index) of an array A held in blocks,
//     not at the element's own index and not in a `while` or a function,
//     whose index reads no element of A;
//  2. every rank computes, for each of its rows and each site, whether the
//     element reads the site and at which index: the site's *request*, the
//     conditions it is under (`if` branches, the second operands of
//     `and`/`or`) and the `let` bindings it depends on, evaluated as the
//     element evaluates them (so nothing is computed that one machine does
//     not compute, and a read in a branch not taken is never requested);
//  3. it sends each index to the rank that holds that row, which replies
//     with the element's bytes: two all-to-all exchanges moving 8 bytes per
//     index component and the element itself, only between the ranks
//     concerned;
//  4. run_rows computes the element with each site read from the replies at
//     the element's own index (a generate whose element is one site alone
//     is its replies).
// An array the kernel needs whole elsewhere is not requested: its reads are
// served by the gathered copy. An index out of range, or an error computing
// the indices, makes the whole kernel decide the error, as on one machine.
#include <algorithm>
#include <cstring>
#include <map>

#include "core/ir_walk.h"
#include "mpi/agree.h"
#include "mpi/rank_runner.h"

namespace strata::mpi {
namespace {

const std::string kOwn = "mpi__own"; // the element's own index, in the final element

std::string fetched_name(size_t site) {
  return "mpi__fetched_" + std::to_string(site);
}

const std::string* array_var(const AccPtr& a) {
  const auto* v = a ? std::get_if<ac::Var>(&a->node) : nullptr;
  return v ? &v->name : nullptr;
}

// The variable names `e` mentions, bound inside it or not; whether it traces.
void mentioned(const Exp& e, Names& out, bool& traces) {
  if (const auto* v = std::get_if<ex::Var>(&e.node)) out.insert(v->name);
  if (std::holds_alternative<ex::Trace>(e.node)) traces = true;
  for_each_child(
      e, [&](const Exp& c) { mentioned(c, out, traces); }, [](const Acc&) {});
}

// A condition a site is under: the branch holding it runs when `cond`
// (as written) is `when`; `env_size`: the bindings in scope at `cond`.
struct Guard {
  ExpPtr cond;
  bool when = true;
  size_t env_size = 0;
};

// What a site's request computes: (tuple true index) where the element
// reads the site, else (tuple false (ix 0 ...)): the guards over it, each
// under the bindings it depends on, as the element evaluates them. Null when
// it traces (it would print twice); `kept`: how many bindings it keeps.
ExpPtr guarded_index(const std::vector<ex::Binding>& env, const std::vector<Guard>& path,
                     const ExpPtr& index, int rank, size_t& kept) {
  SrcLoc loc = index->loc;
  auto flag = [&](bool v) { return make_exp(ex::Const{Scalar::make<bool>(v)}, loc); };
  auto skipped = [&] {
    std::vector<ExpPtr> zeros;
    for (int c = 0; c < rank; ++c)
      zeros.push_back(make_exp(ex::Const{Scalar::make<int64_t>(0)}, loc));
    return make_exp(ex::Tuple{{flag(false), make_exp(ex::Index{std::move(zeros)}, loc)}}, loc);
  };
  ExpPtr e = make_exp(ex::Tuple{{flag(true), index}}, loc);
  Names need;
  bool traces = false;
  mentioned(*index, need, traces);
  kept = 0;
  // From the innermost branch out: its bindings, then the guard choosing it.
  size_t hi = env.size();
  for (size_t level = path.size() + 1; level-- > 0;) {
    size_t lo = level == 0 ? 0 : path[level - 1].env_size;
    std::vector<ex::Binding> bound;
    for (size_t j = hi; j-- > lo;) {
      if (!need.count(env[j].name)) continue;
      bound.insert(bound.begin(), env[j]);
      need.erase(env[j].name);
      if (env[j].value) mentioned(*env[j].value, need, traces);
      if (env[j].fn) mentioned(*env[j].fn->body, need, traces);
    }
    kept += bound.size();
    if (!bound.empty()) e = make_exp(ex::Let{std::move(bound), e}, loc);
    if (level > 0) {
      const Guard& g = path[level - 1];
      mentioned(*g.cond, need, traces);
      e = g.when ? make_exp(ex::If{g.cond, e, skipped()}, loc)
                 : make_exp(ex::If{g.cond, skipped(), e}, loc);
    }
    hi = lo;
  }
  return traces ? nullptr : e;
}

// The sites of one element (step 1) over the arrays `fetchable`, each
// replaced by (! mpi__fetched_<site> mpi__own).
class SiteFinder {
public:
  struct Site {
    std::string array;
    ExpPtr request;       // guarded_index
    size_t bindings = 0;  // how many bindings that keeps
    bool guarded = false; // under a condition
  };
  // `rank_of`: each fetchable array's rank.
  SiteFinder(const Names& fetchable, const std::map<std::string, int>& rank_of)
      : fetchable_(fetchable), rank_of_(rank_of) {}
  std::vector<Site> sites;

  // The element's body with its sites replaced; `alone`: the body is one
  // unguarded site under `let`s whose every binding its index uses.
  ExpPtr element(const ExpPtr& body, const std::string& own, bool& alone) {
    std::vector<ex::Binding> env;
    ExpPtr out = visit(body, env, Names{own}, {});
    size_t outermost = 0;
    const Exp* e = out.get();
    while (const auto* l = std::get_if<ex::Let>(&e->node)) {
      outermost += l->bindings.size();
      e = l->body.get();
    }
    const auto* r = std::get_if<ex::Read>(&e->node);
    alone = r && sites.size() == 1 && *array_var(r->array) == fetched_name(0) &&
            !sites[0].guarded && sites[0].bindings == outermost;
    return out;
  }

private:
  const Names& fetchable_;
  const std::map<std::string, int>& rank_of_;

  // `aligned`: the names holding the element's own index here.
  static void alias(const ex::Binding& b, Names& aligned) {
    const auto* v = b.value ? std::get_if<ex::Var>(&b.value->node) : nullptr;
    if (v && aligned.count(v->name))
      aligned.insert(b.name);
    else
      aligned.erase(b.name);
  }

  bool candidate(const ex::Read& r, const Names& aligned) const {
    const std::string* a = array_var(r.array);
    if (!a || !fetchable_.count(*a)) return false;
    const auto* v = std::get_if<ex::Var>(&r.index->node);
    if (v && aligned.count(v->name)) return false; // aligned: the block serves it
    return needs_whole(r.index, Names{*a}).empty();
  }

  // `env`: the bindings of the `let`s around `e`; `path`: the conditions
  // under which the element evaluates `e` (sites are never below another
  // binder: `while` and `let`-bound functions are not visited).
  ExpPtr visit(const ExpPtr& e, std::vector<ex::Binding>& env, const Names& aligned,
               const std::vector<Guard>& path) {
    if (!e) return e;
    if (const auto* r = std::get_if<ex::Read>(&e->node); r && candidate(*r, aligned)) {
      Site s{*array_var(r->array), nullptr, 0, !path.empty()};
      s.request = guarded_index(env, path, r->index, rank_of_.at(s.array), s.bindings);
      if (s.request) {
        sites.push_back(std::move(s));
        auto fetched = make_acc(ac::Var{fetched_name(sites.size() - 1)}, e->loc);
        return make_exp(ex::Read{fetched, make_exp(ex::Var{kOwn}, e->loc)}, e->loc);
      }
    }
    auto c = std::make_shared<Exp>(*e);
    auto under = [&](const ExpPtr& cond, bool when) {
      std::vector<Guard> p = path;
      p.push_back(Guard{cond, when, env.size()});
      return p;
    };
    if (std::holds_alternative<ex::While>(c->node)) return c;
    if (auto* n = std::get_if<ex::If>(&c->node)) {
      const ExpPtr& cond = std::get<ex::If>(e->node).cond; // as written
      n->cond = visit(n->cond, env, aligned, path);
      n->then_branch = visit(n->then_branch, env, aligned, under(cond, true));
      n->else_branch = visit(n->else_branch, env, aligned, under(cond, false));
    } else if (auto* p = std::get_if<ex::PrimApp>(&c->node);
               p && (p->op == Prim::And || p->op == Prim::Or) && p->args.size() == 2) {
      const ExpPtr& first = std::get<ex::PrimApp>(e->node).args[0];
      p->args[0] = visit(p->args[0], env, aligned, path);
      p->args[1] = visit(p->args[1], env, aligned, under(first, p->op == Prim::And));
    } else if (auto* l = std::get_if<ex::Let>(&c->node)) {
      size_t depth = env.size();
      Names al = aligned;
      for (ex::Binding& b : l->bindings) {
        ex::Binding written = b; // as written: a request using it recomputes it
        if (b.value) b.value = visit(b.value, env, al, path);
        env.push_back(written);
        alias(written, al);
      }
      l->body = visit(l->body, env, al, path);
      env.resize(depth);
    } else {
      // Every other form: its children, in the same scope and under the same
      // conditions (the only other binders, `while` and functions bound by
      // `let`, are not visited).
      for_each_child_slot(
          *c, [&](ExpPtr& x) { x = visit(x, env, aligned, path); }, [](AccPtr&) {});
    }
    return c;
  }
};

} // namespace

bool RankRunner::request_reads(const Kernel& k, const Delayed& d,
                               const std::vector<const Lambda*>& fns,
                               const std::vector<ExpPtr>& exps, const RowsRun& rows,
                               const std::string& key, Requested& got) {
  std::vector<ArrayId> reads = array_reads(g_, k);
  const std::string& own = d.elem.params.at(0).name;
  Names fetchable;
  std::map<std::string, int> rank_of;
  for (ArrayId id : reads)
    if (vals_.at(id).block && !whole_.count(id)) {
      fetchable.insert(name(id));
      rank_of[name(id)] = int(vals_.at(id).global.size());
    }
  // 1. The sites, over the arrays that neither the element with its sites
  // read from the replies nor the sites' indices need whole.
  Delayed where = d; // the indices, one per site
  std::vector<SiteFinder::Site> sites;
  for (;;) {
    if (fetchable.empty()) return true;
    SiteFinder find(fetchable, rank_of);
    got.element = d;
    bool alone = false;
    ExpPtr body = find.element(d.elem.body, own, alone);
    if (find.sites.empty()) return true;
    got.element.elem.body = make_exp(
        ex::Let{{ex::Binding{kOwn, make_exp(ex::Var{own}), d.elem.loc}}, body}, d.elem.loc);
    std::vector<ExpPtr> indices;
    for (const SiteFinder::Site& s : find.sites)
      indices.push_back(s.request);
    where.elem.body = indices.size() == 1 ? indices[0] : make_exp(ex::Tuple{indices});
    Names need = rows_need(k, got.element, fns, exps, rows.n);
    for (const std::string& a : rows_need(k, where, {}, {}, rows.n))
      need.insert(a);
    bool dropped = false;
    for (const std::string& a : need)
      dropped = fetchable.erase(a) > 0 || dropped;
    if (dropped) continue;
    sites = std::move(find.sites);
    got.alone = alone;
    break;
  }
  // 2. The index each of this rank's elements reads at each site.
  RowsRun r = rows;
  rows_local(k, where, {}, {}, [](AccPtr g, const Names&) { return g; }, r, key + " indices", {});
  if (r.failed) return false;
  // 3. Requests to the ranks that hold the rows, in element order, site
  // after site: to rank s, for each site, the offsets in s's block (after
  // their count, when there are several sites).
  int ranks = comm_.size();
  const Array& at = r.results[0];
  int64_t count = at.size();
  struct Fetch {
    const Held* src;
    size_t first_leaf = 0;                     // of its flag in `at`, then its index
    std::vector<std::vector<int64_t>> asked;   // per owner
    std::vector<std::pair<int, int64_t>> from; // per element: owner (-1: none), position
    std::vector<size_t> leaf;                  // bytes per element, per leaf
    size_t element = 0;
  };
  std::vector<Fetch> fetch;
  size_t leaf = 0;
  bool out_of_range = false;
  for (const SiteFinder::Site& s : sites) {
    Fetch f;
    f.src = &vals_.at(g_.id_of(s.array));
    const Shape& shape = f.src->global;
    f.first_leaf = leaf;
    leaf += 1 + shape.size();
    f.asked.resize(size_t(ranks));
    f.from.assign(size_t(count), {-1, 0});
    int64_t row = 1;
    for (size_t c = 1; c < shape.size(); ++c)
      row *= shape[c];
    const auto* reads_it = at.leaf_data<uint8_t>(f.first_leaf);
    for (int64_t e = 0; e < count && !out_of_range; ++e) {
      if (!reads_it[e]) continue; // the element does not read this site
      int64_t offset = 0;
      for (size_t c = 0; c < shape.size(); ++c) {
        int64_t v = at.leaf_data<int64_t>(f.first_leaf + 1 + c)[e];
        if (v < 0 || v >= shape[c]) out_of_range = true;
        offset = c == 0 ? 0 : offset * shape[c] + v;
      }
      if (out_of_range) break;
      int64_t i0 = at.leaf_data<int64_t>(f.first_leaf + 1)[e];
      int owner = owner_of_row(shape[0], ranks, i0);
      offset += (i0 - block_rows(shape[0], ranks, owner).lo) * row;
      f.from[size_t(e)] = {owner, int64_t(f.asked[size_t(owner)].size())};
      f.asked[size_t(owner)].push_back(offset);
    }
    for (size_t l = 0; l < f.src->local.num_leaves(); ++l)
      f.element += f.leaf.emplace_back(Array::leaf_bytes(Shape{1}, f.src->local.leaf_kind(l)));
    fetch.push_back(std::move(f));
  }
  if (part_failed([&] {
        if (out_of_range) throw Error(ErrorKind::Bounds, "an index out of range");
      }))
    return false;
  // Requests only where they move fewer bytes in all than gathering the
  // arrays would (every rank's block to every other): a request costs its
  // index and the element, so gathering is cheaper when most reads are of
  // other ranks' rows and P is small.
  uint64_t mine = 0, gathering = 0;
  Names counted;
  for (size_t c = 0; c < fetch.size(); ++c) {
    const Fetch& f = fetch[c];
    for (int s = 0; s < ranks; ++s)
      if (s != comm_.rank())
        mine += f.asked[size_t(s)].size() * (8 * f.src->global.size() + f.element);
    if (counted.insert(sites[c].array).second)
      gathering += uint64_t(ranks - 1) * bytes_of(f.src->local.elem_type(), f.src->global);
  }
  uint64_t requesting = 0;
  for (const Bytes& b : comm_.allgather(pack_i64s({int64_t(mine)})))
    requesting += uint64_t(unpack_i64s(b)[0]);
  if (requesting > gathering) {
    got = Requested{};
    return true;
  }
  auto append = [](Bytes& b, const void* p, size_t n) {
    const auto* c = static_cast<const std::byte*>(p);
    b.insert(b.end(), c, c + n);
  };
  std::vector<Bytes> requests(static_cast<size_t>(ranks));
  for (int s = 0; s < ranks; ++s)
    for (const Fetch& f : fetch) {
      const std::vector<int64_t>& q = f.asked[size_t(s)];
      int64_t n = int64_t(q.size());
      if (fetch.size() > 1) append(requests[size_t(s)], &n, sizeof n);
      append(requests[size_t(s)], q.data(), q.size() * sizeof(int64_t));
    }
  std::vector<Bytes> wanted = comm_.alltoall(std::move(requests));
  // Replies: for each site, each requested element's leaves one after the
  // other.
  std::vector<Bytes> replies(static_cast<size_t>(ranks));
  for (int s = 0; s < ranks; ++s) {
    const std::byte* q = wanted[size_t(s)].data();
    for (const Fetch& f : fetch) {
      int64_t n = int64_t(wanted[size_t(s)].size() / sizeof n);
      if (fetch.size() > 1) {
        std::memcpy(&n, q, sizeof n);
        q += sizeof n;
      }
      for (int64_t i = 0; i < n; ++i, q += sizeof(int64_t)) {
        int64_t offset;
        std::memcpy(&offset, q, sizeof offset);
        for (size_t l = 0; l < f.leaf.size(); ++l)
          append(replies[size_t(s)], f.src->local.leaf(l).data() + size_t(offset) * f.leaf[l],
                 f.leaf[l]);
      }
    }
  }
  std::vector<Bytes> replied = comm_.alltoall(std::move(replies));
  Shape local = at.shape();
  bool failed = part_failed([&] {
    std::vector<size_t> read(size_t(ranks), 0); // bytes of got[s] taken by earlier sites
    for (size_t c = 0; c < fetch.size(); ++c) {
      const Fetch& f = fetch[c];
      Array out = Array::allocate(f.src->local.elem_type(), local); // zeros where not read
      for (int64_t e = 0; e < count; ++e) {
        auto [owner, pos] = f.from[size_t(e)];
        if (owner < 0) continue;
        const std::byte* p =
            replied[size_t(owner)].data() + read[size_t(owner)] + size_t(pos) * f.element;
        for (size_t l = 0; l < f.leaf.size(); p += f.leaf[l], ++l)
          std::memcpy(out.leaf(l).data() + size_t(e) * f.leaf[l], p, f.leaf[l]);
      }
      for (int s = 0; s < ranks; ++s)
        read[size_t(s)] += f.asked[size_t(s)].size() * f.element;
      got.fetched.emplace_back(fetched_name(c), out);
    }
  });
  if (failed) return false;
  for (const SiteFinder::Site& s : sites) {
    const std::string& a = shown(g_.id_of(s.array));
    if (std::find(requested_.begin(), requested_.end(), a) == requested_.end())
      requested_.push_back(a);
  }
  return true;
}

} // namespace strata::mpi
