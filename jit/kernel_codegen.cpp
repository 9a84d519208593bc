// The entry points of each kernel kind (jit/codegen.h), built with FnBuilder.
// The host (jit/kernels.cpp) decides the ranges and fills the aux slots; the
// slot layouts are written next to each entry below and mirrored there.
#include "core/error.h"
#include "core/overload.h"
#include "jit/fn_builder.h"
#include "jit/fold_codegen.h"
#include "jit/kernel_meta.h"
#include "jit/lane_codegen.h"
#include "jit/llvm_module.h"

namespace strata::jit {
namespace {

using llvm::Value;

class KernelCodegen {
public:
  KernelCodegen(const KernelGraph& g, const Kernel& k, const CodegenOptions& o, KernelCode& code)
      : g_(g), k_(k), o_(o), code_(code) {}

  void run() {
    std::visit(
        Overload{[&](const kn::Generate& x) { generate(x); }, [&](const kn::Fold& x) { fold(x); },
                 [&](const kn::FoldSeg& x) { foldseg(x); }, [&](const kn::Scan& x) { scan(x); },
                 [&](const kn::Permute& x) { permute(x); },
                 [&](const kn::Stencil& x) { stencil(x); }, [&](const kn::Loop&) {},
                 [&](const kn::Branch& x) { closed(*x.cond); }},
        k_.body);
  }

private:
  const KernelGraph& g_;
  const Kernel& k_;
  const CodegenOptions& o_;
  KernelCode& code_;

  // The module of part `part`, made on first use. Part 0 holds the entries
  // the host calls first; a second loop nest that is as large (a fold's chunk
  // entry, a stencil's edge runs) goes in part 1, compiled at the same time on
  // another thread.
  llvm::Module& mod(int part) {
    if (part < 0 || size_t(part) >= kMaxObjects) // a disk entry holds at most kMaxObjects
      throw Error(ErrorKind::Resource,
                  "jit: a kernel in more than " + std::to_string(kMaxObjects) + " parts");
    std::vector<ModulePart>& parts = code_.module->parts;
    while (int(parts.size()) <= part) {
      ModulePart p;
      p.context = std::make_unique<llvm::LLVMContext>();
      std::string name =
          code_.prefix + (parts.empty() ? "" : "_part" + std::to_string(parts.size()));
      p.module = std::make_unique<llvm::Module>(name, *p.context);
      parts.push_back(std::move(p));
    }
    return *parts[size_t(part)].module;
  }

  std::string entry_name(int index) const { return code_.prefix + "_" + std::to_string(index); }

  FnBuilder entry(int& index, int part = 0) {
    index = code_.entries++;
    return FnBuilder(mod(part), g_, code_, o_.checked, entry_name(index));
  }

  // A closed expression: its leaves into aux slots 0...
  void closed(const Exp& e) {
    if (code_.closed.count(&e)) return;
    int index;
    FnBuilder f = entry(index);
    f.run_once();
    f.store_slots(f.aux, 0, e.type, f.exp(e));
    f.finish();
    code_.closed[&e] = index;
  }

  void closed_parts(const Delayed& d) {
    closed(*d.shape);
    for (const Check& c : d.checks) {
      if (c.a) closed(*c.a);
      if (c.b) closed(*c.b);
    }
  }

  // Elements [begin, end) of `d` into array `target` (its table entry has the shape).
  void materialise(const Delayed& d, int target) {
    closed_parts(d);
    int index;
    FnBuilder f = entry(index);
    Val sh = f.shape(target, d.type.rank());
    // An element function with a `while`, lane-safe: W elements of a row at
    // a time in vectors (jit/lane_codegen.h), the rest of the row scalar.
    LanePlan lanes = d.type.rank() > 0 ? lane_plan(d.elem, o_.checked) : LanePlan{};
    if (lanes.width > 0) {
      f.for_rows(sh, f.begin, f.end, [&](const Val& outer, Value* j0, Value* j1, Value* p0) {
        lane_row(f, d.elem, d.type.elem(), target, lanes, outer, j0, j1, p0, [&](Value* j) {
          Val ix = outer;
          ix.push_back(j);
          f.store_elem(target, d.type.elem(), f.b.CreateAdd(p0, f.b.CreateSub(j, j0)),
                       f.apply(d.elem, {ix}));
        });
      });
    } else {
      f.for_positions(sh, f.begin, f.end, [&](const Val& ix, Value* pos) {
        f.store_elem(target, d.type.elem(), pos, f.apply(d.elem, {ix}));
      });
    }
    f.finish();
    code_.generate[&d] = index;
  }

  void generate(const kn::Generate& x) { materialise(x.body, k_.outputs[0]); }

  static Val load_shape(FnBuilder& f, int rank) {
    Val sh;
    for (int d = 0; d < rank; ++d)
      sh.push_back(f.b.CreateLoad(f.b.getInt64Ty(), f.slot_ptr(f.aux, d)));
    return sh;
  }

  static Val with(Val outer, Value* j) {
    outer.push_back(j);
    return outer;
  }

  // aux[0..L) := f(aux[0..L), aux[L..2L)), or f(aux[L..2L), aux[0..L)) swapped.
  void combine(const Lambda& fn, const Type& t, bool swapped, int& index) {
    FnBuilder f = entry(index);
    f.run_once();
    int leaves = int(t.leaves().size());
    Val acc = f.load_slots(f.aux, 0, t), x = f.load_slots(f.aux, leaves, t);
    f.store_slots(f.aux, 0, t, swapped ? f.apply(fn, {x, acc}) : f.apply(fn, {acc, x}));
    f.finish();
  }

  // The lanes of a chunk under the declared order (core/reduction_order.h).
  int lanes(const Type& t) const { return fold_lanes(o_.order, t); }

  // fold rows [begin, end): aux = shape (R), seed (L); each row left to right.
  // fold chunk [begin, end) of positions in one row: aux = shape (R); its
  // total (fold_codegen.h chunk_total) at R.
  void fold(const kn::Fold& x) {
    closed_parts(x.input);
    if (x.seed) closed(*x.seed);
    const Type& t = x.input.type.elem();
    int rank = x.input.type.rank();
    int out = k_.outputs[0];
    {
      FnBuilder f = entry(code_.main);
      Val sh = load_shape(f, rank);
      Val outer(sh.begin(), sh.end() - 1);
      Value* n = sh.back();
      f.for_range(f.begin, f.end, [&](Value* r) {
        Val oix = f.from_linear(outer, r);
        auto elem = [&](Value* j) { return f.apply(x.input.elem, {with(oix, j)}); };
        Val init = x.seed ? f.load_slots(f.aux, rank, t) : elem(f.i64(0));
        Val acc = fold_loop(f, f.i64(x.seed ? 0 : 1), n, init, [&](const Val& a, Value* j) {
          return f.apply(x.f, {a, elem(j)});
        });
        f.store_elem(out, t, r, acc);
      });
      f.finish();
    }
    {
      FnBuilder f = entry(code_.chunk, 1);
      Val sh = load_shape(f, rank);
      Val outer(sh.begin(), sh.end() - 1);
      Value* n = sh.back();
      Value* row = f.b.CreateUDiv(f.begin, n);
      Value* j0 = f.b.CreateSub(f.begin, f.b.CreateMul(row, n));
      Val oix = f.from_linear(outer, row);
      Val acc =
          chunk_total(f, t, x.f, false, lanes(t), f.b.CreateSub(f.end, f.begin), [&](Value* q) {
            return f.apply(x.input.elem, {with(oix, f.b.CreateAdd(j0, q))});
          });
      f.store_slots(f.aux, rank, t, acc);
      f.finish();
    }
    combine(x.f, t, false, code_.combine);
  }

  // foldseg units [begin, end) (row * nsegs + segment): aux = shape (R),
  // offsets pointer, lengths pointer, nsegs, seed (L).
  void foldseg(const kn::FoldSeg& x) {
    closed_parts(x.input);
    closed(*x.seed);
    const Type& t = x.input.type.elem();
    int rank = x.input.type.rank();
    FnBuilder f = entry(code_.main);
    llvm::IRBuilder<>& b = f.b;
    Val sh = load_shape(f, rank);
    Val outer(sh.begin(), sh.end() - 1);
    llvm::Type* ptr = llvm::PointerType::getUnqual(f.ctx);
    Value* offsets = b.CreateLoad(ptr, f.slot_ptr(f.aux, rank));
    Value* lengths = b.CreateLoad(ptr, f.slot_ptr(f.aux, rank + 1));
    Value* nsegs = b.CreateLoad(b.getInt64Ty(), f.slot_ptr(f.aux, rank + 2));
    Val seed = f.load_slots(f.aux, rank + 3, t);
    f.for_range(f.begin, f.end, [&](Value* u) {
      Value* row = b.CreateUDiv(u, nsegs);
      Value* s = b.CreateURem(u, nsegs);
      Value* off = b.CreateLoad(b.getInt64Ty(), b.CreateGEP(b.getInt64Ty(), offsets, s));
      Value* len = b.CreateLoad(b.getInt64Ty(), b.CreateGEP(b.getInt64Ty(), lengths, s));
      Val oix = f.from_linear(outer, row);
      Val acc = fold_loop(f, f.i64(0), len, seed, [&](const Val& a, Value* q) {
        return f.apply(x.f, {a, f.apply(x.input.elem, {with(oix, b.CreateAdd(off, q))})});
      });
      f.store_elem(k_.outputs[0], t, u, acc);
    });
    f.finish();
  }

  // scan positions [begin, end) of one row: aux = shape (R), row, write flag,
  // has-accumulator flag, accumulator (L) — read at the start, written at the end.
  void scan(const kn::Scan& x) {
    closed_parts(x.input);
    if (x.seed) closed(*x.seed);
    const Type& t = x.input.type.elem();
    int rank = x.input.type.rank();
    bool right = x.kind == ac::ScanKind::Scanr || x.kind == ac::ScanKind::Scanr1;
    int out = k_.outputs[0];
    FnBuilder f = entry(code_.main);
    llvm::IRBuilder<>& b = f.b;
    Val sh = load_shape(f, rank);
    Val outer(sh.begin(), sh.end() - 1);
    Value* n = sh.back();
    Value* row = b.CreateLoad(b.getInt64Ty(), f.slot_ptr(f.aux, rank));
    Value* write =
        b.CreateICmpNE(b.CreateLoad(b.getInt64Ty(), f.slot_ptr(f.aux, rank + 1)), f.i64(0));
    Value* has0 = f.load_mem(f.slot_ptr(f.aux, rank + 2), ScalarKind::Bool);
    Val acc0 = f.load_slots(f.aux, rank + 3, t);
    bool plus_one = x.kind == ac::ScanKind::Scanl || x.kind == ac::ScanKind::Scanr;
    Value* m = plus_one ? b.CreateAdd(n, f.i64(1)) : n;
    Val oix = f.from_linear(outer, row);
    // Position q: its element, and the store of `value` where the scan kind
    // writes one.
    auto element = [&](Value* q) {
      Value* j = right ? b.CreateSub(b.CreateSub(n, f.i64(1)), q) : q;
      return f.apply(x.input.elem, {with(oix, j)});
    };
    auto store = [&](Value* q, const Val& value) {
      Value* pos = nullptr;
      Value* cond = write;
      switch (x.kind) {
      case ac::ScanKind::Scanl: pos = b.CreateAdd(q, f.i64(1)); break;
      case ac::ScanKind::ScanlPrime:
        pos = b.CreateAdd(q, f.i64(1));
        cond = b.CreateAnd(cond, b.CreateICmpSLT(pos, n));
        break;
      case ac::ScanKind::Scanl1: pos = q; break;
      case ac::ScanKind::Scanr:
      case ac::ScanKind::Scanr1: pos = b.CreateSub(b.CreateSub(n, f.i64(1)), q); break;
      }
      llvm::BasicBlock* yes = llvm::BasicBlock::Create(f.ctx, "scan_store", f.fn);
      llvm::BasicBlock* after = llvm::BasicBlock::Create(f.ctx, "scan_next", f.fn);
      b.CreateCondBr(cond, yes, after);
      b.SetInsertPoint(yes);
      f.store_elem(out, t, b.CreateAdd(b.CreateMul(row, m), pos), value);
      b.CreateBr(after);
      b.SetInsertPoint(after);
    };
    // Without an accumulator yet (scanl1/scanr1 from the row's start), the
    // first position is peeled: acc := its element. The loop then always
    // combines, with no per-element test of the flag.
    llvm::BasicBlock* pre = b.GetInsertBlock();
    llvm::BasicBlock* first = llvm::BasicBlock::Create(f.ctx, "scan_first", f.fn);
    llvm::BasicBlock* rest = llvm::BasicBlock::Create(f.ctx, "scan_rest", f.fn);
    b.CreateCondBr(b.CreateAnd(b.CreateNot(has0), b.CreateICmpSLT(f.begin, f.end)), first, rest);
    b.SetInsertPoint(first);
    Val v0 = element(f.begin);
    store(f.begin, v0);
    Value* begin1 = b.CreateAdd(f.begin, f.i64(1));
    llvm::BasicBlock* first_end = b.GetInsertBlock();
    b.CreateBr(rest);
    b.SetInsertPoint(rest);
    Val init;
    for (size_t l = 0; l < acc0.size(); ++l) {
      llvm::PHINode* phi = b.CreatePHI(acc0[l]->getType(), 2);
      phi->addIncoming(acc0[l], pre);
      phi->addIncoming(v0[l], first_end);
      init.push_back(phi);
    }
    llvm::PHINode* q0 = b.CreatePHI(b.getInt64Ty(), 2);
    q0->addIncoming(f.begin, pre);
    q0->addIncoming(begin1, first_end);
    llvm::PHINode* has = b.CreatePHI(b.getInt1Ty(), 2);
    has->addIncoming(has0, pre);
    has->addIncoming(b.getTrue(), first_end);
    Val acc = fold_loop(f, q0, f.end, init, [&](const Val& a, Value* q) {
      Val v = element(q);
      Val next = right ? f.apply(x.f, {v, a}) : f.apply(x.f, {a, v});
      store(q, next);
      return next;
    });
    f.store_mem(f.slot_ptr(f.aux, rank + 2), ScalarKind::Bool, has);
    f.store_slots(f.aux, rank + 3, t, acc);
    f.finish();
    scan_chunk(x, right);
    combine(x.f, t, false, code_.combine);
    combine(x.f, t, true, code_.combine_swapped);
  }

  // The total of scan positions [begin, end) of one row (a chunk of a long
  // row, fold_codegen.h chunk_total, combining with g(acc, x) = f(x, acc) for
  // right scans): aux = shape (R), row; the total at R + 1.
  void scan_chunk(const kn::Scan& x, bool right) {
    const Type& t = x.input.type.elem();
    int rank = x.input.type.rank();
    FnBuilder f = entry(code_.chunk, 1);
    llvm::IRBuilder<>& b = f.b;
    Val sh = load_shape(f, rank);
    Val outer(sh.begin(), sh.end() - 1);
    Value* n = sh.back();
    Val oix = f.from_linear(outer, b.CreateLoad(b.getInt64Ty(), f.slot_ptr(f.aux, rank)));
    Val acc = chunk_total(f, t, x.f, right, lanes(t), b.CreateSub(f.end, f.begin), [&](Value* q) {
      Value* p = b.CreateAdd(f.begin, q);
      Value* j = right ? b.CreateSub(b.CreateSub(n, f.i64(1)), p) : p;
      return f.apply(x.input.elem, {with(oix, j)});
    });
    f.store_slots(f.aux, rank + 1, t, acc);
    f.finish();
  }

  // permute: defaults into the result, source values into the temporary;
  // targets of source positions [begin, end) into the i64 buffer at aux[0]
  // (-1: ignored); then combine positions [begin, end) in order.
  void permute(const kn::Permute& x) {
    int out = k_.outputs[0], src = o_.temp_id;
    materialise(x.defaults, out);
    materialise(x.source, src);
    const Type& t = x.defaults.type.elem();
    int rd = x.defaults.type.rank(), rs = x.source.type.rank();
    if (rd + 1 > kPayloadSlots)
      throw Error(ErrorKind::Type, k_.ops.back().loc,
                  "jit: permute of rank above 15 is not supported");
    {
      FnBuilder f = entry(code_.targets);
      llvm::IRBuilder<>& b = f.b;
      Value* buf = b.CreateLoad(llvm::PointerType::getUnqual(f.ctx), f.slot_ptr(f.aux, 0));
      Val ssh = f.shape(src, rs), dsh = f.shape(out, rd);
      f.for_positions(ssh, f.begin, f.end, [&](const Val& ix, Value* pos) {
        Val target = f.apply(x.target, {ix});
        Value* ignored = rd > 0 ? b.getTrue() : b.getFalse();
        Value* outside = b.getFalse();
        for (int d = 0; d < rd; ++d) {
          ignored = b.CreateAnd(ignored, b.CreateICmpEQ(target[size_t(d)], f.i64(-1)));
          outside = b.CreateOr(outside, b.CreateICmpUGE(target[size_t(d)], dsh[size_t(d)]));
        }
        if (o_.checked) {
          Site s{Site::Kind::PermuteTarget, k_.ops.back().loc};
          s.array_id = out;
          s.source_id = src;
          s.rank = rd;
          Val payload = target;
          payload.push_back(pos);
          f.fail_if(b.CreateAnd(b.CreateNot(ignored), outside), s, payload);
        }
        Value* lin = b.CreateSelect(ignored, f.i64(-1), f.to_linear(dsh, target));
        b.CreateStore(lin, b.CreateGEP(b.getInt64Ty(), buf, pos));
      });
      f.finish();
    }
    {
      FnBuilder f = entry(code_.main);
      llvm::IRBuilder<>& b = f.b;
      Value* buf = b.CreateLoad(llvm::PointerType::getUnqual(f.ctx), f.slot_ptr(f.aux, 0));
      f.for_range(f.begin, f.end, [&](Value* i) {
        Value* tgt = b.CreateLoad(b.getInt64Ty(), b.CreateGEP(b.getInt64Ty(), buf, i));
        llvm::BasicBlock* yes = llvm::BasicBlock::Create(f.ctx, "combine", f.fn);
        llvm::BasicBlock* next = llvm::BasicBlock::Create(f.ctx, "combine_next", f.fn);
        b.CreateCondBr(b.CreateICmpSGE(tgt, f.i64(0)), yes, next);
        b.SetInsertPoint(yes);
        Val nv = f.load_elem(src, t, i), old = f.load_elem(out, t, tgt);
        f.store_elem(out, t, tgt, f.apply(x.combine, {nv, old}));
        b.CreateBr(next);
        b.SetInsertPoint(next);
      });
      f.finish();
    }
  }

  // stencil positions [begin, end) of the result (the input's shape). Each
  // run of a row is split into the parts near the edges, where reads go
  // through the boundary, and the interior (every outer index and the
  // innermost one at least the window's radius from the edges), where reads
  // are plain loads the loop vectoriser sees as consecutive: main computes
  // the interiors, `edges` (part 1) the rest.
  void stencil(const kn::Stencil& x) {
    int in = x.input, out = k_.outputs[0];
    int rank = g_.arrays[size_t(in)].type.rank();
    FnBuilder f = entry(code_.main);
    Window w;
    w.name = x.f.params[0].name;
    w.array = in;
    w.boundary = x.boundary;
    Val sh = f.shape(in, rank);
    const Type& t = g_.arrays[size_t(out)].type.elem();
    auto element = [&](FnBuilder& fb, const Val& ix, Value* pos, bool interior) {
      w.center = ix;
      w.interior = interior;
      fb.window = w;
      fb.store_elem(out, t, pos, fb.apply(x.f, {Val{}}));
    };
    if (rank == 0) {
      if (x.boundary.kind == ac::BoundaryKind::Constant) w.constant = f.exp(*x.boundary.constant);
      f.for_positions(sh, f.begin, f.end,
                      [&](const Val& ix, Value* pos) { element(f, ix, pos, false); });
      f.finish();
      return;
    }
    auto run = [&](FnBuilder& fb, const Val& outer, Value* j0, Value* p0, Value* lo, Value* hi,
                   bool interior) {
      fb.for_range(
          lo, hi,
          [&](Value* j) {
            Val ix = outer;
            ix.push_back(j);
            element(fb, ix, fb.b.CreateAdd(p0, fb.b.CreateSub(j, j0)), interior);
          },
          interior);
    };
    // The interior [mlo, mhi) of the run [j0, j1) of a row (empty: mlo = mhi
    // = j1): every index at least the window's radius from the edges.
    auto split = [&](FnBuilder& fb, const Val& shape, const Val& outer, Value* j0, Value* j1) {
      llvm::IRBuilder<>& ib = fb.b;
      auto radius = [&](int d) { return fb.i64(x.window[size_t(d)] / 2); };
      Value* inside = ib.getTrue();
      for (int d = 0; d + 1 < rank; ++d) {
        Value* o = outer[size_t(d)];
        Value* r = radius(d);
        inside = ib.CreateAnd(inside,
                              ib.CreateAnd(ib.CreateICmpSGE(o, r),
                                           ib.CreateICmpSLT(o, ib.CreateSub(shape[size_t(d)], r))));
      }
      Value* r = radius(rank - 1);
      Value* a = ib.CreateSelect(ib.CreateICmpSGT(j0, r), j0, r);
      Value* last = ib.CreateSub(shape.back(), r);
      Value* c = ib.CreateSelect(ib.CreateICmpSLT(j1, last), j1, last);
      Value* mid = ib.CreateAnd(inside, ib.CreateICmpSLT(a, c));
      return std::make_pair(ib.CreateSelect(mid, a, j1), ib.CreateSelect(mid, c, j1));
    };
    // This entry: the interiors of the rows of [begin, end), plain loads the
    // loop vectoriser sees as consecutive.
    f.for_rows(sh, f.begin, f.end, [&](const Val& outer, Value* j0, Value* j1, Value* p0) {
      auto [mlo, mhi] = split(f, sh, outer, j0, j1);
      run(f, outer, j0, p0, mlo, mhi, true);
    });
    f.finish();
    // The edge runs [j0, mlo) and [mhi, j1) of the same rows, reads through
    // the boundary: an entry of its own in part 1, compiled beside the
    // interiors (kernels.cpp runs both on each chunk, and element by element
    // in row-major order after a failure, so that the error is the first
    // element's, as in the interpreter).
    FnBuilder e = entry(code_.edges, 1);
    if (x.boundary.kind == ac::BoundaryKind::Constant) w.constant = e.exp(*x.boundary.constant);
    Val esh = e.shape(in, rank);
    e.for_rows(esh, e.begin, e.end, [&](const Val& outer, Value* j0, Value* j1, Value* p0) {
      auto [mlo, mhi] = split(e, esh, outer, j0, j1);
      // One loop over the two runs: one copy of the boundary code.
      e.for_range(
          e.i64(0), e.i64(2),
          [&](Value* part) {
            Value* first = e.b.CreateICmpEQ(part, e.i64(0));
            run(e, outer, j0, p0, e.b.CreateSelect(first, j0, mhi),
                e.b.CreateSelect(first, mlo, j1), false);
          },
          false);
    });
    e.finish();
  }
};

} // namespace

KernelCode generate_kernel_code(const KernelGraph& g, const Kernel& k, const CodegenOptions& o,
                                const std::string& prefix) {
  KernelCode code;
  code.prefix = prefix;
  code.module = std::make_shared<ModuleHandle>();
  KernelCodegen cg(g, k, o, code);
  cg.run();
  return code;
}

} // namespace strata::jit
