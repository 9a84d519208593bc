#include "jit/key.h"

#include "cache/kernel_cache.h"
#include "core/overload.h"
#include "core/printer.h"
#include "core/version.h"
#include "jit/kernel_meta.h"

namespace strata::jit {
namespace {

// ABI of the generated entry points (jit/abi.h) and of their aux slots: bump
// it whenever generated code changes meaning for the same kernel text, or
// changes enough that cached objects should not be reused (6-8: the lane path of
// generates with a `while`, jit/lane_codegen.h).
constexpr const char* kCodegenVersion = "jit-codegen-8";

class Text {
public:
  std::string out;

  void exp(const ExpPtr& e) {
    out += e ? print_exp(*e) : "-";
    out += '\n';
  }
  void lambda(const Lambda& f) {
    out += "(lambda (";
    for (const Param& p : f.params)
      out += "(" + p.name + " " + p.type.str() + ")";
    out += ") ";
    exp(f.body);
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
};

} // namespace

std::string kernel_text(const KernelGraph& g, const Kernel& k, int temp_id) {
  Text t;
  t.out = std::string(kernel_kind_name(k)) + "\n";
  std::visit(Overload{[&](const kn::Generate& x) { t.delayed(x.body); },
                      [&](const kn::Fold& x) {
                        t.lambda(x.f);
                        t.exp(x.seed);
                        t.delayed(x.input);
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
  return cache::KeyBuilder()
      .add(kCodegenVersion)
      .add("jit-entry-" + std::to_string(kKernelMetaVersion))
      .add(version())
      .add(target)
      .add(checked ? "checked" : "unchecked")
      .add(text)
      .finish()
      .hex;
}

} // namespace strata::jit
