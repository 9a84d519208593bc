// cuda permute: `defaults` (work item per destination element), `source`
// (per source element: its value and its linear target, -1 for ignored,
// checked against the destination's shape), then `combine`: one work item
// combines the values into the destination in source order.
//
// Deterministic: the combining step runs in source order on one work item,
// so every target's values combine in the interpreter's order whatever the
// combining function; the parallel steps write each position once.
//
// Atomic variant: where the combiner is + min max band bor bxor on a 32- or
// 64-bit integer (core/combiner.h reorders_exactly: the same bits in every
// order), each `source` item combines its value into its target with an
// atomic update, and there is no `combine` step (a histogram is one pass).
// Such a combiner cannot fail, so the errors are the `source` step's, the
// same in both variants.
#include "cuda/kernel_gen.h"
#include "cuda/kernel_run.h"

#include "core/combiner.h"
#include "core/runtime_errors.h"

namespace strata::cuda {

std::optional<std::string> permute_atomic_update(const kn::Permute& x) {
  auto c = binary_combiner(x.combine);
  if (!c || !reorders_exactly(c->op, c->kind)) return std::nullopt;
  switch (c->kind) {
  case ScalarKind::I32:
  case ScalarKind::U32:
  case ScalarKind::I64:
  case ScalarKind::U64: break;
  default: return std::nullopt;
  }
  switch (c->op) {
  case Prim::Add: return "s_red_add";
  case Prim::Min: return "s_red_min";
  case Prim::Max: return "s_red_max";
  case Prim::BAnd: return "s_red_and";
  case Prim::BOr: return "s_red_or";
  case Prim::BXor: return "s_red_xor";
  default: return std::nullopt;
  }
}

// ------------------------------------------------------------ entries

void KernelGen::permute(const Kernel& k, const kn::Permute& x) {
  const SrcLoc& loc = k.ops.back().loc;
  delayed(x.defaults, loc);
  delayed(x.source, loc);
  KernelEntries& ke = entries(k);
  ArrayId targets = add_slot(Type::array(Type::scalar(ScalarKind::I64), 1));
  ArrayId values = add_slot(Type::array(x.source.type.elem(), 1));
  ke.scratch = {targets, values};
  ArrayId out = k.outputs[0];
  int rd = x.defaults.type.rank(), rs = x.source.type.rank();
  std::string code;
  {
    std::string name = entry_name(k, "defaults");
    begin(name);
    ScalarGen s(g_, out_, code, 1);
    s.store(out, "t", element(s, x.defaults, "t", words::shape));
    end(name, code);
  }
  {
    std::string name = entry_name(k, "source");
    begin(name);
    ScalarGen s(g_, out_, code, 1);
    Val ix = index_of(s, "t", words::source_shape, rs);
    Val tgt = s.apply(x.target, {ix});
    std::string pos = s.var(ScalarKind::I64, "0"),
                ignored = s.var(ScalarKind::Bool, rd > 0 ? "true" : "false");
    std::string ok = s.var(ScalarKind::Bool, "true");
    for (int d = 0; d < rd; ++d) {
      const std::string& i = tgt.leaves[size_t(d)];
      std::string n = word(words::destination_shape + d);
      s.line("if (" + i + " != -1) " + ignored + " = false;");
      s.line("if (" + i + " < 0 || " + i + " >= " + n + ") " + ok + " = false;");
      s.line(pos + " = " + pos + " * " + n + " + " + i + ";");
    }
    ErrorSite site;
    site.kind = ErrorSite::Kind::PermuteTarget;
    site.loc = loc;
    site.opname = "permute";
    site.array_id = out;
    site.rank = rd;
    out_.sites.push_back(site);
    int n = int(out_.sites.size()) - 1;
    s.open("if (!" + ignored + " && !" + ok + " && s_fail(c, " + std::to_string(n) + ")) {");
    for (int d = 0; d < rd; ++d)
      s.line("c.E->v[" + std::to_string(d) + "] = " + tgt.leaves[size_t(d)] + ";");
    s.close();
    if (auto update = permute_atomic_update(x)) {
      Val v = s.apply(x.source.elem, {ix});
      s.line("if (!c.failed && !" + ignored + " && " + ok + ") " + *update + "(" +
             s.leaf_ptr(out, 0) + " + " + pos + ", " + v.leaves[0] + ");");
      end(name, code);
      return;
    }
    s.line(s.leaf_ptr(targets, 0) + "[t] = " + ignored + " || !" + ok + " ? -1 : " + pos + ";");
    s.store(values, "t", s.apply(x.source.elem, {ix}));
    end(name, code);
  }
  {
    std::string name = entry_name(k, "combine");
    begin(name);
    ScalarGen s(g_, out_, code, 1);
    s.open("for (i64 i = 0; i < S_SOURCES && !c.failed; ++i) {");
    s.line("i64 at = " + s.leaf_ptr(targets, 0) + "[i];");
    s.line("if (at < 0) continue;");
    s.line(std::string("c.key = i") + kCombineKey + ";");
    Val old_v = s.load(out, "at"), new_v = s.load(values, "i");
    s.store(out, "at", s.apply(x.combine, {new_v, old_v}));
    s.close();
    end(name, code);
  }
}

// ------------------------------------------------------------ host

void Run::permute(const Kernel& k, const kn::Permute& x) {
  Shape dsh = prepare(x.defaults), ssh = prepare(x.source);
  int64_t n = shape_size(ssh);
  set(k.outputs[0], allocate(k.outputs[0], dsh));
  LaunchParams p;
  put_shape(p, words::destination_shape, dsh);
  put_shape(p, words::source_shape, ssh);
  p.v[words::sources] = n;
  permute_source_ = ssh;
  bool atomic = permute_atomic_update(x).has_value();
  if (!atomic) {
    ArrayId targets = scratch(k, 0), values = scratch(k, 1);
    set(targets, allocate(targets, {n}));
    set(values, allocate(values, {n}));
  }
  launch(entry(k, "defaults"), p, shape_size(dsh));
  launch(entry(k, "source"), p, n);
  if (atomic) return;
  // The combining step reads the output: a diagnosing run starts again from the defaults.
  launch(entry(k, "combine"), p, 1, [&] {
    b_.launch(entry(k, "defaults"), *table_dev_, *error_dev_, -1, p, shape_size(dsh));
  });
}

} // namespace strata::cuda
