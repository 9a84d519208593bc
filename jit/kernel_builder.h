// Code generation for one kernel of the kernel graph (jit/codegen.h
// generate_kernel_code): what every kernel kind's entry points are built
// from (modules by part, entries, closed expressions, materialising a
// delayed array, the combine entry), with the entry points of each kind
// defined in a file of its own beside its host driver:
//   jit/generate_kernel.cpp  jit/fold_kernel.cpp     jit/foldseg_kernel.cpp
//   jit/scan_kernel.cpp      jit/permute_kernel.cpp  jit/stencil_kernel.cpp
// Their aux slots are jit/kernel_slots.h. Only jit/*.cpp include this header
// (it includes LLVM's).
#pragma once

#include <string>

#include "jit/codegen.h"
#include "jit/fn_builder.h"
#include "jit/fold_codegen.h"
#include "jit/llvm_module.h"

namespace strata::jit {

class KernelBuilder {
public:
  KernelBuilder(const KernelGraph& g, const Kernel& k, const CodegenOptions& o, KernelCode& code)
      : g_(g), k_(k), o_(o), code_(code) {}

  // The entries of the kernel's kind.
  void run();

private:
  // One per kernel kind, each in jit/<kind>_kernel.cpp.
  void generate(const kn::Generate& x);
  void fold(const kn::Fold& x);
  void foldseg(const kn::FoldSeg& x);
  void scan(const kn::Scan& x);
  void scan_chunk(const kn::Scan& x, bool right);
  void permute(const kn::Permute& x);
  void stencil(const kn::Stencil& x);

  // The module of part `part`, made on first use. Part 0 holds the entries
  // the host calls first; a second loop nest that is as large (a fold's chunk
  // entry, a stencil's edge runs) goes in part 1, compiled at the same time on
  // another thread; a fold's or scan's run-once entries go in part 1 or 2
  // (run_once_part), and every fold's checked rows entry in part 2.
  llvm::Module& mod(int part);
  std::string entry_name(int index) const { return code_.prefix + "_" + std::to_string(index); }
  // ModulePart::dump_name of part `part`.
  std::string dump_name(size_t part) const;
  // ModulePart::vectorisers of part `part`.
  Vectorisers vectorisers(size_t part) const;
  // A new entry point in part `part`; its index into `index`.
  FnBuilder entry(int& index, int part = 0);
  // A closed expression: its leaves into aux slots 0...
  void closed(const Exp& e);
  // A delayed array's shape and checks as closed expressions.
  void closed_parts(const Delayed& d);
  // Elements [begin, end) of `d` into array `target` (its table entry has the shape).
  void materialise(const Delayed& d, int target);
  // The input's shape from aux slots [0, rank).
  static Val load_shape(FnBuilder& f, int rank);
  static Val with(Val outer, llvm::Value* j) {
    outer.push_back(j);
    return outer;
  }
  // The combine entry (jit/kernel_slots.h Combine).
  void combine(const Lambda& fn, const Type& t, bool swapped, int& index);
  // The lanes of a chunk under the declared order (core/reduction_order.h).
  int lanes(const Type& t, const Lambda& fn) const;
  // The chunk entry of a fold or scan (part 1, into code_.chunk):
  // `body(f, lengths)` computes a chunk's total with chunk_total and stores
  // it. Where short_chunks_apart holds for `t` and `fn`, chunks shorter than
  // the lanes go to an entry of their own that skips the pipeline
  // (run_once): they are rare (a row's last chunk, tiny orders), and the
  // vector code alone compiles in about four fifths of the time. So do the
  // chunks in which a read the chunk code checks once per chunk
  // (FnBuilder::chunk_reads) would fail: that entry checks every element.
  // Tuple folds and scans have it too, checked only, in part 2, for the
  // failing chunks alone.
  void chunk_entry(const Type& t, const Lambda& fn,
                   const std::function<void(FnBuilder&, ChunkLengths)>& body);
  // The part of a fold's or scan's run-once entries: 2 where the chunk
  // entry is vector code with its short chunks apart (short_chunks_apart),
  // so that neither the rows nor the chunks wait for those entries (floats:
  // a sixth less on the longer part, in instructions); else 1, with the
  // chunk entry (integers: both loop nests are small, a third part only
  // costs its set-up, and the rows entry is the longer part: sum_i32's 29.3
  // -> 26.7 M, scan_i32's 30.1 -> 27.5 M instructions).
  int run_once_part(const Type& t, const Lambda& fn) const;

  const KernelGraph& g_;
  const Kernel& k_;
  const CodegenOptions& o_;
  KernelCode& code_;
  // Where the run-once entries go (FnBuilder::run_once): part 0, or for a
  // fold or scan part 1 or 2 (run_once_part).
  int run_once_part_ = 0;
};

} // namespace strata::jit
