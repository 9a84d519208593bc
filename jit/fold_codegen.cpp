// Folds as LLVM IR (jit/fold_codegen.h): the chunk total of the declared
// order (core/reduction_order.h), lane for lane, with no fast-math flag.
#include "jit/fold_codegen.h"

#include <algorithm>

#include "core/combiner.h"
#include "core/error.h"
#include "jit/lane_codegen.h"

namespace strata::jit {
namespace {

using llvm::Value;

Val combine(FnBuilder& f, const Lambda& fn, bool swapped, const Val& acc, const Val& x) {
  return swapped ? f.apply(fn, {x, acc}) : f.apply(fn, {acc, x});
}

// `lanes` accumulators of type `t` in memory, one array per leaf (allocas of
// the entry block).
class LaneArray {
public:
  LaneArray(FnBuilder& f, const Type& t, int lanes) : f_(f) {
    llvm::IRBuilder<> ab(&f.fn->getEntryBlock(), f.fn->getEntryBlock().begin());
    for (ScalarKind k : t.leaves()) {
      types_.push_back(reg_type(f.ctx, k));
      leaves_.push_back(ab.CreateAlloca(llvm::ArrayType::get(types_.back(), uint64_t(lanes))));
    }
  }
  Val load(Value* k) {
    Val v;
    for (size_t l = 0; l < leaves_.size(); ++l)
      v.push_back(f_.b.CreateLoad(types_[l], ptr(l, k)));
    return v;
  }
  void store(Value* k, const Val& v) {
    for (size_t l = 0; l < leaves_.size(); ++l)
      f_.b.CreateStore(v[l], ptr(l, k));
  }

private:
  FnBuilder& f_;
  std::vector<llvm::Type*> types_;
  std::vector<llvm::AllocaInst*> leaves_;

  Value* ptr(size_t l, Value* k) {
    return f_.b.CreateInBoundsGEP(leaves_[l]->getAllocatedType(), leaves_[l], {f_.i64(0), k});
  }
};

// The lanes in an array: any element type and combiner.
Val array_total(FnBuilder& f, const Type& t, const Lambda& fn, bool swapped, int lanes, Value* m,
                const std::function<Val(Value*)>& elem) {
  llvm::IRBuilder<>& b = f.b;
  LaneArray acc(f, t, lanes);
  Value* width = f.i64(lanes);
  Value* used = b.CreateSelect(b.CreateICmpSLT(m, width), m, width);
  // Group g (the last may be short): lane k takes element g * lanes + k,
  // group 0 starts the lanes. One copy of the element code.
  Value* groups = b.CreateUDiv(b.CreateAdd(m, f.i64(lanes - 1)), width);
  // Reads at positions affine in the element's are checked once per chunk,
  // ahead of the loops (jit/chunk_reads.cpp), where a checked entry takes
  // the chunks in which one fails.
  f.open_chunk_checks(m, [&] { return f.delegate_block(f.checked_entry); });
  f.for_range(
      f.i64(0), groups,
      [&](Value* g) {
        Value* first = b.CreateMul(g, width);
        Value* left = b.CreateSub(m, first);
        Value* count = b.CreateSelect(b.CreateICmpSLT(left, width), left, width);
        Value* starts = b.CreateICmpEQ(g, f.i64(0));
        f.for_range(f.i64(0), count, [&](Value* k) {
          Value* q = b.CreateAdd(first, k);
          f.chunk_element(q);
          Val x = elem(q);
          f.chunk_element(nullptr);
          llvm::BasicBlock* start = llvm::BasicBlock::Create(f.ctx, "lane_start", f.fn);
          llvm::BasicBlock* fold = llvm::BasicBlock::Create(f.ctx, "lane_fold", f.fn);
          llvm::BasicBlock* next = llvm::BasicBlock::Create(f.ctx, "lane_next", f.fn);
          b.CreateCondBr(starts, start, fold);
          b.SetInsertPoint(start);
          acc.store(k, x);
          b.CreateBr(next);
          b.SetInsertPoint(fold);
          acc.store(k, combine(f, fn, swapped, acc.load(k), x));
          b.CreateBr(next);
          b.SetInsertPoint(next);
        });
      },
      false);
  f.close_chunk_checks();
  // The halves: while count > 1, lane k (k < half) takes lane rest + k.
  llvm::BasicBlock* pre = b.GetInsertBlock();
  llvm::BasicBlock* level = llvm::BasicBlock::Create(f.ctx, "lane_tree", f.fn);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(f.ctx, "lane_tree_done", f.fn);
  b.CreateCondBr(b.CreateICmpSGT(used, f.i64(1)), level, done);
  b.SetInsertPoint(level);
  llvm::PHINode* count = b.CreatePHI(b.getInt64Ty(), 2);
  count->addIncoming(used, pre);
  Value* half = b.CreateLShr(count, f.i64(1));
  Value* rest = b.CreateSub(count, half);
  f.for_range(
      f.i64(0), half,
      [&](Value* k) {
        acc.store(k, combine(f, fn, swapped, acc.load(k), acc.load(b.CreateAdd(rest, k))));
      },
      false);
  count->addIncoming(rest, b.GetInsertBlock());
  b.CreateCondBr(b.CreateICmpSGT(rest, f.i64(1)), level, done);
  b.SetInsertPoint(done);
  return acc.load(f.i64(0));
}

// fn(acc, x) (fn(x, acc) when `swapped`) of two vectors of `w` lanes, lane
// by lane.
Value* vector_combine(FnBuilder& f, const Lambda& fn, bool swapped, unsigned w, Value* acc,
                      Value* x) {
  return lanes_apply(f, w, fn,
                     swapped ? std::vector<Val>{{x}, {acc}} : std::vector<Val>{{acc}, {x}})[0];
}

// The lanes of `v` (a vector of `lanes`, a power of two) by halves, lane k
// taking lane half + k, down to one: no lane waits.
Value* vector_halves(FnBuilder& f, const Lambda& fn, bool swapped, int lanes, Value* v) {
  for (int w = lanes / 2; w >= 1; w /= 2) {
    std::vector<int> lo, hi;
    for (int k = 0; k < w; ++k) {
      lo.push_back(k);
      hi.push_back(w + k);
    }
    Value* low = f.b.CreateShuffleVector(v, lo);
    Value* high = f.b.CreateShuffleVector(v, hi);
    v = vector_combine(f, fn, swapped, unsigned(w), low, high);
  }
  return f.b.CreateExtractElement(v, uint64_t(0));
}

// Bytes of elements the vector path computes at a time (several groups: the
// loop vectoriser's scalar remainder runs once per block, not per group).
constexpr int kBlockBytes = 2048;

// The lanes in one vector <lanes x T>, for m >= lanes (every lane used): the
// elements of a block of groups are computed by the scalar code into a
// buffer (a loop the loop vectoriser sees as element-wise), then each group
// is combined with the lanes as a vector by the lane code generator.
Val vector_total(FnBuilder& f, const Type& t, const Lambda& fn, bool swapped, int lanes, Value* m,
                 const std::function<Val(Value*)>& elem) {
  llvm::IRBuilder<>& b = f.b;
  llvm::Type* et = reg_type(f.ctx, t.scalar_kind());
  auto* vt = llvm::FixedVectorType::get(et, unsigned(lanes));
  int groups = std::max(1, kBlockBytes / (lanes * int(scalar_size(t.scalar_kind()))));
  int64_t block = int64_t(groups) * lanes;
  llvm::IRBuilder<> ab(&f.fn->getEntryBlock(), f.fn->getEntryBlock().begin());
  llvm::AllocaInst* buf = ab.CreateAlloca(llvm::ArrayType::get(et, uint64_t(block)));
  buf->setAlignment(llvm::Align(64));
  Value* width = f.i64(lanes);
  auto vcombine = [&](unsigned w, Value* acc, Value* x) {
    return vector_combine(f, fn, swapped, w, acc, x);
  };
  auto group = [&](Value* g) {
    return b.CreateAlignedLoad(vt, b.CreateInBoundsGEP(et, buf, b.CreateMul(g, width)),
                               llvm::Align(scalar_size(t.scalar_kind())));
  };
  Value* blocks = b.CreateUDiv(b.CreateAdd(m, f.i64(block - 1)), f.i64(block));
  // Reads at positions affine in the element's are checked once per chunk,
  // ahead of the loops (jit/chunk_reads.cpp).
  f.open_chunk_checks(m, [&] { return f.delegate_block(f.checked_entry); });
  // Group 0 starts the lanes (the first combine, with zeros, is never
  // selected); the last group may be short: lanes [0, left) take it.
  Value* acc = fold_loop(
      f, f.i64(0), blocks, {llvm::Constant::getNullValue(vt)}, [&](const Val& a, Value* k) {
        Value* start = b.CreateMul(k, f.i64(block));
        Value* left = b.CreateSub(m, start);
        Value* count = b.CreateSelect(b.CreateICmpSLT(left, f.i64(block)), left, f.i64(block));
        f.for_range(f.i64(0), count, [&](Value* i) {
          Value* q = b.CreateAdd(start, i);
          f.chunk_element(q);
          b.CreateStore(elem(q)[0], b.CreateInBoundsGEP(et, buf, i));
          f.chunk_element(nullptr);
        });
        Value* full = b.CreateUDiv(count, width);
        Value* acc = fold_loop(f, f.i64(0), full, a, [&](const Val& a2, Value* g) {
          Value* x = group(g);
          Value* first = b.CreateICmpEQ(b.CreateAdd(start, g), f.i64(0));
          return Val{b.CreateSelect(first, x, vcombine(unsigned(lanes), a2[0], x))};
        })[0];
        Value* rest = b.CreateSub(count, b.CreateMul(full, width));
        llvm::BasicBlock* pre = b.GetInsertBlock();
        llvm::BasicBlock* tail = llvm::BasicBlock::Create(f.ctx, "lane_tail", f.fn);
        llvm::BasicBlock* join = llvm::BasicBlock::Create(f.ctx, "lane_tail_done", f.fn);
        b.CreateCondBr(b.CreateICmpSGT(rest, f.i64(0)), tail, join);
        b.SetInsertPoint(tail);
        Value* mask = f.lanes_below(unsigned(lanes), rest);
        Value* taken = b.CreateSelect(mask, vcombine(unsigned(lanes), acc, group(full)), acc);
        llvm::BasicBlock* tail_end = b.GetInsertBlock();
        b.CreateBr(join);
        b.SetInsertPoint(join);
        llvm::PHINode* v = b.CreatePHI(vt, 2);
        v->addIncoming(acc, pre);
        v->addIncoming(taken, tail_end);
        return Val{v};
      })[0];
  f.close_chunk_checks();
  return {vector_halves(f, fn, swapped, lanes, acc)};
}

// The lanes in one vector <lanes x T>, for m >= lanes, with the element
// function itself in lane code (jit/lane_codegen.h chunk_in_lanes): group g
// computes elements [g * lanes, (g + 1) * lanes) at once,
// lane k element g * lanes + k (the last group's lanes past m masked off: they
// read nothing and keep their accumulator), and combines them into the
// lanes. The same lanes and steps as vector_total, without its staging
// buffer, and with one loop for LLVM to compile rather than a staging loop
// its vectoriser rewrites, a scalar remainder and the groups' loop.
Val lane_total(FnBuilder& f, const Type& t, const Lambda& fn, bool swapped, int lanes, Value* m,
               const ChunkElement& elem) {
  llvm::IRBuilder<>& b = f.b;
  unsigned w = unsigned(lanes);
  auto* vt = llvm::FixedVectorType::get(reg_type(f.ctx, t.scalar_kind()), w);
  Value* lane = f.lane_numbers(w);
  Value* groups = b.CreateUDiv(b.CreateAdd(m, f.i64(lanes - 1)), f.i64(lanes));
  std::vector<llvm::BasicBlock*> bails;
  // Reads at positions affine in the element's are checked once per chunk,
  // ahead of the loop (jit/chunk_reads.cpp); a read checked per element
  // that fails in an active lane hands the chunk over the same way, before
  // anything of it is stored.
  f.open_chunk_checks(m, [&] { return f.delegate_block(f.checked_entry); });
  Value* acc = fold_loop(
      f, f.i64(0), groups, {llvm::Constant::getNullValue(vt)}, [&](const Val& a, Value* g) {
        Value* first = b.CreateMul(g, f.i64(lanes));
        Value* q = b.CreateAdd(b.CreateVectorSplat(w, first), lane);
        Value* active = f.lanes_below(w, b.CreateSub(m, first));
        f.chunk_element(q);
        Value* x = lanes_apply_reading(f, w, *elem.fn, {elem.index(q)}, bails, active)[0];
        f.chunk_element(nullptr);
        // Group 0 starts the lanes (m >= lanes: all of them).
        Value* next = b.CreateSelect(active, vector_combine(f, fn, swapped, w, a[0], x), a[0]);
        return Val{b.CreateSelect(b.CreateICmpEQ(g, f.i64(0)), x, next)};
      })[0];
  f.close_chunk_checks();
  f.hand_over(bails, nullptr, elem.fn->body->loc, "chunk lanes");
  return {vector_halves(f, fn, swapped, lanes, acc)};
}

} // namespace

bool exactly_associative(const Lambda& fn, const Type& t) {
  if (!t.is_scalar() || !is_integral(t.scalar_kind())) return false;
  std::optional<BinaryCombiner> c = binary_combiner(fn);
  return c && reorders_exactly(c->op, c->kind);
}

int rows_in_lanes(const Lambda& elem, const Lambda& fn, const Type& t, bool checked) {
  return exactly_associative(fn, t) ? 0 : fold_row_lanes(elem, fn, t, checked);
}

void fold_rows_in_lanes(FnBuilder& f, const Lambda& elem, const Lambda& fn, const Type& t,
                        int target, int width, const Val& outer, Value* n, Value* r0, Value* r1,
                        const std::optional<Val>& seed) {
  llvm::IRBuilder<>& b = f.b;
  unsigned w = unsigned(width);
  llvm::BasicBlock* pre = b.GetInsertBlock();
  llvm::BasicBlock* loop = llvm::BasicBlock::Create(f.ctx, "row_lanes", f.fn);
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(f.ctx, "row_lanes_exit", f.fn);
  b.CreateCondBr(b.CreateICmpSLT(r0, r1), loop, exit);
  b.SetInsertPoint(loop);
  llvm::PHINode* r = b.CreatePHI(b.getInt64Ty(), 2);
  r->addIncoming(r0, pre);
  // Lane k holds row r + k, its outer index row-major in `outer`; the lanes
  // past r1 (in the last group only) are masked off: never read, never
  // stored, their indices never tested. One copy of the lane code for every
  // group, and no scalar rows.
  Value* lanes = f.lane_numbers(w);
  Value* rows = b.CreateAdd(b.CreateVectorSplat(w, r), lanes);
  Value* active = f.lanes_below(w, b.CreateSub(r1, r));
  Val oix = f.from_linear(outer, rows);
  // A read fails its check in an active lane: the checked rows entry, from
  // the group's first row on, raises the first error in element order
  // (nothing of the group was stored). Reads at positions affine in j are
  // checked once per group, every active lane (jit/chunk_reads.cpp).
  std::vector<llvm::BasicBlock*> bails;
  llvm::BasicBlock* fails = nullptr;
  auto failing = [&] {
    if (!fails) fails = llvm::BasicBlock::Create(f.ctx, "row_lanes_fail", f.fn);
    return fails;
  };
  f.open_chunk_checks(n, failing, active);
  auto element = [&](Value* j) {
    Val ix = oix;
    ix.push_back(b.CreateVectorSplat(w, j));
    return lanes_apply_reading(f, w, elem, {ix}, bails, active);
  };
  Val init;
  if (seed)
    for (Value* v : *seed)
      init.push_back(b.CreateVectorSplat(w, v));
  else
    init = element(f.i64(0));
  Val acc = fold_loop(f, f.i64(seed ? 0 : 1), n, init, [&](const Val& a, Value* j) {
    // The element, not the combiner, runs for every j of the rows.
    f.chunk_element(j);
    Val x = element(j);
    f.chunk_element(nullptr);
    return lanes_apply_reading(f, w, fn, {a, x}, bails);
  });
  f.close_chunk_checks();
  store_lanes(f, t, target, r, acc, active);
  Value* next = b.CreateAdd(r, f.i64(width));
  r->addIncoming(next, b.GetInsertBlock());
  leave_alone(f.ctx, b.CreateCondBr(b.CreateICmpSLT(next, r1), loop, exit));
  // The group's failing checks, once per group and per element, all from
  // the group's first row.
  if (fails) bails.push_back(fails);
  f.hand_over(bails, r, elem.body->loc, "rows in lanes");
  b.SetInsertPoint(exit);
}

Val fold_loop(FnBuilder& f, Value* lo, Value* hi, const Val& init,
              const std::function<Val(const Val&, Value*)>& step) {
  llvm::IRBuilder<>& b = f.b;
  llvm::BasicBlock* pre = b.GetInsertBlock();
  llvm::BasicBlock* loop = llvm::BasicBlock::Create(f.ctx, "fold", f.fn);
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(f.ctx, "fold_exit", f.fn);
  b.CreateCondBr(b.CreateICmpSLT(lo, hi), loop, exit);
  b.SetInsertPoint(loop);
  llvm::PHINode* j = b.CreatePHI(b.getInt64Ty(), 2);
  j->addIncoming(lo, pre);
  Val acc;
  std::vector<llvm::PHINode*> phis;
  for (Value* v : init) {
    phis.push_back(b.CreatePHI(v->getType(), 2));
    phis.back()->addIncoming(v, pre);
    acc.push_back(phis.back());
  }
  Val next = step(acc, j);
  llvm::BasicBlock* end = b.GetInsertBlock();
  for (size_t l = 0; l < phis.size(); ++l)
    phis[l]->addIncoming(next[l], end);
  Value* j1 = b.CreateAdd(j, f.i64(1));
  j->addIncoming(j1, end);
  b.CreateCondBr(b.CreateICmpSLT(j1, hi), loop, exit);
  b.SetInsertPoint(exit);
  Val out;
  for (size_t l = 0; l < init.size(); ++l) {
    llvm::PHINode* phi = b.CreatePHI(init[l]->getType(), 2);
    phi->addIncoming(init[l], pre);
    phi->addIncoming(next[l], end);
    out.push_back(phi);
  }
  return out;
}

bool short_chunks_apart(const Type& t, const Lambda& fn, int lanes, bool checked) {
  return !exactly_associative(fn, t) && lanes >= 2 && t.is_scalar() &&
         t.scalar_kind() != ScalarKind::Bool && lane_combiner(fn, checked);
}

Val chunk_total(FnBuilder& f, const Type& t, const Lambda& fn, bool swapped, int lanes, Value* m,
                const ChunkElement& element, ChunkLengths lengths) {
  auto elem = [&](Value* q) { return f.apply(*element.fn, {element.index(q)}); };
  if (exactly_associative(fn, t))
    return fold_loop(f, f.i64(1), m, elem(f.i64(0)), [&](const Val& acc, Value* q) {
      return combine(f, fn, swapped, acc, elem(q));
    });
  if (short_chunks_apart(t, fn, lanes, f.checked) && lengths == ChunkLengths::AtLeastLanes)
    return chunk_in_lanes(*element.fn, f.checked) ? lane_total(f, t, fn, swapped, lanes, m, element)
                                                  : vector_total(f, t, fn, swapped, lanes, m, elem);
  return array_total(f, t, fn, swapped, lanes, m, elem);
}

void foldseg_units_in_lanes(FnBuilder& f, const Lambda& elem, const Lambda& fn, const Type& t,
                            int target, int width, const Val& outer, Value* segments,
                            Value* offsets, Value* lengths, Value* u0, Value* u1, const Val& seed,
                            const std::function<void(Value*)>& scalar_unit) {
  llvm::IRBuilder<>& b = f.b;
  unsigned w = unsigned(width);
  Value* group = f.i64(width);
  llvm::Type* i64 = b.getInt64Ty();
  auto* vi64 = llvm::FixedVectorType::get(i64, w);
  // One copy of the scalar code, for the groups that go one unit at a time,
  // the units left and a failed group: `dispatch` takes units [u, u1) on
  // either path, a group of lanes or a scalar run [u, end) at a time.
  llvm::BasicBlock* pre = b.GetInsertBlock();
  llvm::BasicBlock* dispatch = llvm::BasicBlock::Create(f.ctx, "units", f.fn);
  llvm::BasicBlock* group_bb = llvm::BasicBlock::Create(f.ctx, "units_group", f.fn);
  llvm::BasicBlock* lanes = llvm::BasicBlock::Create(f.ctx, "units_lanes", f.fn);
  llvm::BasicBlock* scalar = llvm::BasicBlock::Create(f.ctx, "units_scalar", f.fn);
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(f.ctx, "units_exit", f.fn);
  b.CreateBr(dispatch);
  b.SetInsertPoint(dispatch);
  llvm::PHINode* u = b.CreatePHI(i64, 3);
  u->addIncoming(u0, pre);
  b.CreateCondBr(b.CreateICmpSGE(b.CreateSub(u1, u), group), group_bb, scalar);
  b.SetInsertPoint(scalar);
  llvm::PHINode* from = b.CreatePHI(i64, 3);
  llvm::PHINode* to = b.CreatePHI(i64, 3);
  from->addIncoming(u, dispatch);
  to->addIncoming(u1, dispatch);
  b.SetInsertPoint(group_bb);
  // Lane k holds unit u + k: its row and segment, the segment's start and length.
  Value* units = b.CreateAdd(b.CreateVectorSplat(w, u), f.lane_numbers(w));
  Value* nsegs = b.CreateVectorSplat(w, segments);
  Value* s = b.CreateURem(units, nsegs);
  Value* all = llvm::ConstantVector::getSplat(llvm::ElementCount::getFixed(w), b.getTrue());
  auto load = [&](Value* base) {
    return b.CreateMaskedGather(vi64, b.CreateGEP(i64, base, s), llvm::Align(8), all,
                                llvm::Constant::getNullValue(vi64));
  };
  Value* off = load(offsets);
  Value* len = load(lengths);
  // The lanes run as many steps as the longest segment: where that is more
  // than 4 times the mean, most lanes would idle, and the units go one at a
  // time instead (either way, the same bits).
  Value* longest = b.CreateIntrinsic(llvm::Intrinsic::vector_reduce_umax, {vi64}, {len});
  Value* total = b.CreateAddReduce(len);
  Value* end = b.CreateAdd(u, group);
  b.CreateCondBr(b.CreateICmpUGT(b.CreateMul(longest, group), b.CreateMul(total, f.i64(4))), scalar,
                 lanes);
  from->addIncoming(u, group_bb);
  to->addIncoming(end, group_bb);
  b.SetInsertPoint(lanes);
  Val oix = f.from_linear(outer, b.CreateUDiv(units, nsegs));
  Val init;
  for (Value* v : seed)
    init.push_back(b.CreateVectorSplat(w, v));
  std::vector<llvm::BasicBlock*> bails;
  Val acc = fold_loop(f, f.i64(0), longest, init, [&](const Val& a, Value* q) {
    Value* qs = b.CreateVectorSplat(w, q);
    Value* active = b.CreateICmpULT(qs, len);
    Val ix = oix;
    ix.push_back(b.CreateAdd(off, qs));
    Val x = lanes_apply_reading(f, w, elem, {ix}, bails, active);
    Val next = lanes_apply_reading(f, w, fn, {a, x}, bails, active);
    Val kept;
    for (size_t l = 0; l < next.size(); ++l)
      kept.push_back(b.CreateSelect(active, next[l], a[l]));
    return kept;
  });
  store_lanes(f, t, target, u, acc);
  u->addIncoming(end, b.GetInsertBlock());
  leave_alone(f.ctx, b.CreateBr(dispatch));
  // A read failed its check in an active lane: the scalar code from the
  // group's first unit on raises the error the scalar path raises.
  for (llvm::BasicBlock* bail : bails) {
    llvm::IRBuilder<>(bail).CreateBr(scalar);
    from->addIncoming(u, bail);
    to->addIncoming(u1, bail);
  }
  b.SetInsertPoint(scalar);
  f.for_range(from, to, scalar_unit, false);
  llvm::BasicBlock* scalar_end = b.GetInsertBlock();
  u->addIncoming(to, scalar_end);
  leave_alone(f.ctx, b.CreateCondBr(b.CreateICmpSLT(to, u1), dispatch, exit));
  b.SetInsertPoint(exit);
}

} // namespace strata::jit
