#include "jit/kernel_builder.h"

#include <algorithm>
#include <filesystem>

#include "core/combiner.h"
#include "core/error.h"
#include "core/overload.h"
#include "jit/kernel_meta.h"
#include "jit/kernel_slots.h"
#include "jit/lane_codegen.h"
#include "jit/llvm_module.h"

namespace strata::jit {

using llvm::Value;

void KernelBuilder::run() {
  std::visit(
      Overload{[&](const kn::Generate& x) { generate(x); }, [&](const kn::Fold& x) { fold(x); },
               [&](const kn::FoldSeg& x) { foldseg(x); }, [&](const kn::Scan& x) { scan(x); },
               [&](const kn::Permute& x) { permute(x); }, [&](const kn::Stencil& x) { stencil(x); },
               [&](const kn::Loop&) {}, [&](const kn::Branch& x) { closed(*x.cond); }},
      k_.body);
}

llvm::Module& KernelBuilder::mod(int part) {
  if (part < 0 || size_t(part) >= kMaxObjects) // a disk entry holds at most kMaxObjects
    throw Error(ErrorKind::Resource,
                "jit: a kernel in more than " + std::to_string(kMaxObjects) + " parts");
  std::vector<ModulePart>& parts = code_.module->parts;
  while (int(parts.size()) <= part) {
    ModulePart p;
    p.context = std::make_unique<llvm::LLVMContext>();
    std::string name = code_.prefix + (parts.empty() ? "" : "_part" + std::to_string(parts.size()));
    p.module = std::make_unique<llvm::Module>(name, *p.context);
    p.dump_name = dump_name(parts.size());
    p.vectorisers = vectorisers(parts.size());
    parts.push_back(std::move(p));
  }
  return *parts[size_t(part)].module;
}

std::string KernelBuilder::dump_name(size_t part) const {
  std::string program = "program";
  if (!k_.ops.empty() && k_.ops.front().loc.file)
    program = std::filesystem::path(*k_.ops.front().loc.file).stem().string();
  std::string ops;
  for (const SourceOp& op : k_.ops)
    ops += (ops.empty() ? "" : "+") + op.name;
  if (ops.size() > 60) ops = ops.substr(0, 60) + "...";
  std::string key = code_.prefix.substr(std::min(code_.prefix.size(), size_t(8)), 8); // "strata_k"
  return program + ".k" + std::to_string(k_.id) + "." + ops +
         (part > 0 ? ".part" + std::to_string(part) : "") + "." + key;
}

// The SLP vectoriser packs straight-line scalar code into vectors: only the
// elements of generates and permutes (maps and fills fused in) have code it
// takes (blackscholes' and raytrace's element functions, kmeans' bins, in the
// examples). A fold's, scan's or stencil's loops are the loop vectoriser's or
// written in lanes; there SLP only paired a vector loop's scalar remainder
// (a stencil's) and cost up to a fifth of the part's pipeline. A stencil's
// edge runs (part 1) read through the boundary one element at a time: no
// vectoriser took them (docs/jit.md "Vectorisers by kernel").
Vectorisers KernelBuilder::vectorisers(size_t part) const {
  bool elements =
      std::holds_alternative<kn::Generate>(k_.body) || std::holds_alternative<kn::Permute>(k_.body);
  bool edges = std::holds_alternative<kn::Stencil>(k_.body) && part == 1;
  return Vectorisers{.loops = !edges, .straight_line = elements};
}

FnBuilder KernelBuilder::entry(int& index, int part) {
  index = code_.entries++;
  return FnBuilder(mod(part), g_, code_, o_.checked, entry_name(index));
}

void KernelBuilder::closed(const Exp& e) {
  if (code_.closed.count(&e)) return;
  int index;
  FnBuilder f = entry(index, run_once_part_);
  f.run_once();
  f.store_slots(f.aux, 0, e.type, f.exp(e));
  f.finish();
  code_.closed[&e] = index;
}

void KernelBuilder::closed_parts(const Delayed& d) {
  closed(*d.shape);
  for (const Check& c : d.checks) {
    if (c.a) closed(*c.a);
    if (c.b) closed(*c.b);
  }
}

void KernelBuilder::materialise(const Delayed& d, int target) {
  closed_parts(d);
  auto elements = [&](FnBuilder& f) {
    f.for_positions(f.shape(target, d.type.rank()), f.begin, f.end, [&](const Val& ix, Value* pos) {
      f.store_elem(target, d.type.elem(), pos, f.apply(d.elem, {ix}));
    });
  };
  // An element function with a `while`, lane-safe: W elements of a row at
  // a time in vectors (jit/lane_codegen.h), the last group of a row masked.
  // A group in which a read fails its check hands the rest of the chunk to
  // the elements one at a time, every check per element, run once (part 1:
  // compiled at the same time, no pipeline); only errors go there.
  LanePlan lanes = d.type.rank() > 0 ? lane_plan(d.elem, o_.checked) : LanePlan{};
  std::string checked;
  if (lanes.width > 0 && lanes.may_fail) {
    int index;
    FnBuilder f = entry(index, 1);
    f.run_once();
    elements(f);
    f.finish();
    checked = entry_name(index);
  }
  int index;
  FnBuilder f = entry(index);
  if (lanes.width > 0 && o_.quick_tier && !checked.empty()) {
    // The quick tier: the checked entry does the elements (CodegenOptions).
    f.delegate_if(f.b.getTrue(), checked);
  } else if (lanes.width > 0) {
    f.checked_entry = checked;
    Val sh = f.shape(target, d.type.rank());
    f.for_rows(sh, f.begin, f.end, [&](const Val& outer, Value* j0, Value* j1, Value* p0) {
      lane_row(f, d.elem, d.type.elem(), target, lanes, outer, j0, j1, p0);
    });
  } else {
    elements(f);
  }
  f.finish();
  code_.generate[&d] = index;
}

Val KernelBuilder::load_shape(FnBuilder& f, int rank) {
  Val sh;
  for (int d = 0; d < rank; ++d)
    sh.push_back(f.b.CreateLoad(f.b.getInt64Ty(), f.slot_ptr(f.aux, d)));
  return sh;
}

void KernelBuilder::combine(const Lambda& fn, const Type& t, bool swapped, int& index) {
  FnBuilder f = entry(index, run_once_part_);
  f.run_once();
  using slots::Combine;
  Val acc = f.load_slots(f.aux, Combine::accumulator, t);
  Val x = f.load_slots(f.aux, Combine::operand(t.leaves().size()), t);
  f.store_slots(f.aux, Combine::accumulator, t,
                swapped ? f.apply(fn, {x, acc}) : f.apply(fn, {acc, x}));
  f.finish();
}

int KernelBuilder::lanes(const Type& t, const Lambda& fn) const {
  return chunk_lanes(o_.order, t, fn);
}

int KernelBuilder::run_once_part(const Type& t, const Lambda& fn) const {
  return short_chunks_apart(t, fn, lanes(t, fn), o_.checked) ? 2 : 1;
}

void KernelBuilder::chunk_entry(const Type& t, const Lambda& fn,
                                const std::function<void(FnBuilder&, ChunkLengths)>& body) {
  int w = lanes(t, fn);
  // The chunks of any length with every check, run once: the chunks shorter
  // than the lanes, where the chunk code has them apart, and the chunks in
  // which a read checked once per chunk fails (jit/chunk_reads.cpp). Where
  // the chunk code takes any length with the lanes in memory (tuples), that
  // entry exists only checked, in part 2 (with the checked rows): n-body's
  // chunk part 72.8 -> 55.2 M instructions. Integers folded left to right
  // keep their checks per element (a loop LLVM vectorises as it likes): the
  // entry would cost more in part 2 than it saves (scan_i32: +4.7 M).
  bool apart = short_chunks_apart(t, fn, w, o_.checked);
  std::string checked;
  if (apart || (o_.checked && !exactly_associative(fn, t))) {
    int index;
    FnBuilder f = entry(index, apart ? run_once_part_ : 2);
    f.run_once();
    body(f, ChunkLengths::Any);
    f.finish();
    checked = entry_name(index);
  }
  FnBuilder f = entry(code_.chunk, 1);
  if (apart) f.delegate_if(f.b.CreateICmpSLT(f.b.CreateSub(f.end, f.begin), f.i64(w)), checked);
  f.checked_entry = checked;
  body(f, apart ? ChunkLengths::AtLeastLanes : ChunkLengths::Any);
  f.finish();
}

KernelCode generate_kernel_code(const KernelGraph& g, const Kernel& k, const CodegenOptions& o,
                                const std::string& prefix) {
  KernelCode code;
  code.prefix = prefix;
  code.module = std::make_shared<ModuleHandle>();
  KernelBuilder(g, k, o, code).run();
  return code;
}

} // namespace strata::jit
