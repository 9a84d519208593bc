#include "jit/key.h"

#include <mutex>

#include "cache/kernel_cache.h"
#include "core/check.h"
#include "core/combiner.h"
#include "core/overload.h"
#include "core/printer.h"
#include "core/version.h"
#include "jit/kernel_meta.h"

namespace strata::jit {
namespace {

// ABI of the generated entry points (jit/abi.h) and of their aux slots: bump
// it whenever generated code changes meaning for the same kernel text, or
// changes enough that cached objects should not be reused (6-8: the lane path of
// generates with a `while`, jit/lane_codegen.h; 11: folds and scans in the
// declared order, jit/fold_codegen.h; 13: libmvec kernels prefer 512-bit vectors;
// 14: permute's chunk entry, jit/permute_kernel.cpp; 15: short chunks in an entry of
// their own, jit/kernel_builder.h chunk_entry, and their folds' and scans' run-once entries
// in part 2; 16: reads checked once per chunk, jit/chunk_reads.cpp; 17: and once
// per row of a fold, with its checked rows entry; 31: run-once parts emitted
// unoptimised, contractions' rows not in lanes, large lane steps in 2 chains;
// 32: each part's optimised and run-once objects from machines of their own,
// so entries stored by a process that had switched a machine to FastISel are
// not reused, jit/llvm_pipeline.h ObjectEmitter); 33: every float store of the
// canonical NaN (jit/prim_emit.h emit_canonical).
constexpr const char* kCodegenVersion = "jit-codegen-33";

// The canonical text of a kernel. Expressions are written by `node` below, a
// compact prefix form with the same content as the printer's (core/printer.h:
// forms, names, literals, types written in the program; not positions,
// checker types or a read's `origin`) that is several times cheaper to make
// than print_exp's laid-out text (it is made for every kernel of every
// compile, cache hits included). Strings are length-prefixed and every form
// is closed, so different trees give different texts.
class Text {
public:
  std::string out;

  void exp(const ExpPtr& e) {
    if (e)
      node(*e);
    else
      out += '-';
    out += '\n';
  }
  void lambda(const Lambda& f) {
    out += "(lambda ";
    params(f.params);
    exp(f.body);
    out += ')';
  }
  void delayed(const Delayed& d) {
    out += "delayed " + d.type.str() + "\n";
    exp(d.shape);
    lambda(d.elem);
    for (const Check& c : d.checks) {
      out += "check " + std::to_string(int(c.kind)) + " " + std::to_string(c.dim) + "\n";
      exp(c.a);
      exp(c.b);
    }
  }

private:
  void str(std::string_view s) {
    out += std::to_string(s.size());
    out += ':';
    out += s;
  }
  void num(int64_t v) {
    out += std::to_string(v);
    out += ',';
  }
  void params(const std::vector<Param>& ps) {
    num(int64_t(ps.size()));
    for (const Param& p : ps) {
      str(p.name);
      str(p.type.str());
    }
  }
  void sub(const ExpPtr& e) {
    if (e)
      node(*e);
    else
      out += '-';
  }
  void subs(const std::vector<ExpPtr>& es) {
    num(int64_t(es.size()));
    for (const ExpPtr& e : es)
      sub(e);
  }
  void fn(const Lambda& f) {
    params(f.params);
    sub(f.body);
  }
  // Kernel code names manifest arrays by variable; anything else is printed.
  void acc(const AccPtr& a) {
    if (const auto* v = a ? std::get_if<ac::Var>(&a->node) : nullptr) {
      out += 'v';
      str(v->name);
    } else {
      out += 'a';
      str(a ? print_acc(*a) : "-");
    }
  }
  void node(const Exp& e) {
    out += '(';
    str(form_name(e.node));
    std::visit(Overload{[&](const ex::Const& c) {
                          // The value's bits: exact for every float, NaN payloads included.
                          str(scalar_name(c.value.kind()));
                          str(std::string_view(static_cast<const char*>(c.value.data()),
                                               scalar_size(c.value.kind())));
                        },
                        [&](const ex::Var& v) { str(v.name); },
                        [&](const ex::Let& x) {
                          num(int64_t(x.bindings.size()));
                          for (const ex::Binding& b : x.bindings) {
                            str(b.name);
                            sub(b.value);
                          }
                          sub(x.body);
                        },
                        [&](const ex::If& x) {
                          sub(x.cond);
                          sub(x.then_branch);
                          sub(x.else_branch);
                        },
                        [&](const ex::Tuple& x) { subs(x.elems); },
                        [&](const ex::Proj& x) {
                          num(x.index);
                          sub(x.tuple);
                        },
                        [&](const ex::Index& x) { subs(x.components); },
                        [&](const ex::Cast& x) {
                          str(scalar_name(x.target));
                          sub(x.arg);
                        },
                        [&](const ex::While& x) {
                          fn(x.cond);
                          fn(x.step);
                          sub(x.init);
                        },
                        [&](const ex::ShapeOf& x) { acc(x.array); },
                        [&](const ex::SizeOf& x) { acc(x.array); },
                        [&](const ex::Read& x) {
                          acc(x.array);
                          sub(x.index);
                        },
                        [&](const ex::LinearRead& x) {
                          acc(x.array);
                          sub(x.index);
                        },
                        [&](const ex::The& x) { acc(x.array); },
                        [&](const ex::ToIndex& x) {
                          sub(x.shape);
                          sub(x.index);
                        },
                        [&](const ex::FromIndex& x) {
                          sub(x.shape);
                          sub(x.index);
                        },
                        [&](const ex::Ignore& x) { num(x.rank); },
                        [&](const ex::Trace& x) {
                          str(x.label);
                          sub(x.arg);
                        },
                        [&](const ex::PrimApp& x) {
                          str(prim_name(x.op));
                          subs(x.args);
                        },
                        [&](const ex::At& x) {
                          str(x.window);
                          num(int64_t(x.offsets.size()));
                          for (int64_t o : x.offsets)
                            num(o);
                        },
                        [&](const ex::Call&) { unexpanded_call(e.loc); }},
               e.node);
    out += ')';
  }
};

// A fold's or scan's association order: its parameters and the lanes of
// its chunk entry (jit/fold_codegen.h).
void reduction(Text& t, const ReductionOrder& order, const Type& elem, const Lambda& f) {
  t.out +=
      "order " + order.describe() + " lanes " + std::to_string(chunk_lanes(order, elem, f)) + "\n";
}

} // namespace

std::string kernel_text(const KernelGraph& g, const Kernel& k, int temp_id,
                        const ReductionOrder& order) {
  Text t;
  t.out = std::string(kernel_kind_name(k)) + "\n";
  std::visit(Overload{[&](const kn::Generate& x) { t.delayed(x.body); },
                      [&](const kn::Fold& x) {
                        t.lambda(x.f);
                        t.exp(x.seed);
                        t.delayed(x.input);
                        reduction(t, order, x.input.type.elem(), x.f);
                      },
                      [&](const kn::FoldSeg& x) {
                        t.lambda(x.f);
                        t.exp(x.seed);
                        t.delayed(x.input);
                        t.out += "segs " + std::to_string(x.segs) + "\n";
                      },
                      [&](const kn::Scan& x) {
                        t.lambda(x.f);
                        t.exp(x.seed);
                        t.delayed(x.input);
                        reduction(t, order, x.input.type.elem(), x.f);
                      },
                      [&](const kn::Permute& x) {
                        t.lambda(x.combine);
                        t.delayed(x.defaults);
                        t.lambda(x.target);
                        t.delayed(x.source);
                        t.out += "temp " + std::to_string(temp_id) + "\n";
                      },
                      [&](const kn::Stencil& x) {
                        for (int64_t w : x.window)
                          t.out += std::to_string(w) + " ";
                        t.out += "boundary " + std::to_string(int(x.boundary.kind)) + "\n";
                        t.exp(x.boundary.constant);
                        t.lambda(x.f);
                        t.out += "input " + std::to_string(x.input) + "\n";
                      },
                      [&](const kn::Loop&) {}, [&](const kn::Branch& x) { t.exp(x.cond); }},
             k.body);
  // Arrays are baked in by table position and name; their types by leaf layout.
  for (ArrayId id : array_reads(g, k))
    t.out += "reads " + std::to_string(id) + " " + g.arrays[size_t(id)].name + " " +
             g.arrays[size_t(id)].type.str() + "\n";
  for (ArrayId id : k.outputs)
    t.out += "writes " + std::to_string(id) + " " + g.arrays[size_t(id)].type.str() + "\n";
  return t.out;
}

std::string kernel_key(const std::string& text, bool checked, const std::string& target) {
  // The target description is the same for every kernel of a process and
  // long (~3 KB: CPU features, the pass pipeline): hashed once per process
  // (by the backend's warm-up, jit/backend.cpp), then its digest goes into
  // each key (a disk hit's key costs the text only).
  static std::mutex mutex;
  static std::string last_target, last_digest;
  std::string target_digest;
  {
    std::lock_guard lock(mutex);
    if (last_digest.empty() || target != last_target) {
      last_target = target;
      last_digest = cache::KeyBuilder().add(target).finish().hex;
    }
    target_digest = last_digest;
  }
  return cache::KeyBuilder()
      .add(kCodegenVersion)
      .add("jit-entry-" + std::to_string(kKernelMetaVersion))
      .add(version())
      .add(target_digest)
      .add(checked ? "checked" : "unchecked")
      .add(text)
      .finish()
      .hex;
}

} // namespace strata::jit
