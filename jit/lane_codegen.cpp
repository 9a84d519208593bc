// The lane path (jit/lane_codegen.h): scalar code (core/ir.h Exp) as LLVM
// vector code over W lanes, each lane one element of a generate.
//
// Every operation below is the vector form of the scalar code generator's
// (jit/scalar_codegen.cpp, jit/prim_codegen.cpp) for the same form, so each
// lane computes exactly what the scalar code computes for its element: the
// primitives and casts are emitted by the same functions (jit/prim_emit.h) on
// vector operands, so the same IEEE operations in the same order, no
// fast-math flags, float min/max as compare-and-select with the NaN rule,
// float -> int casts through llvm.fptosi.sat / fptoui.sat, integer arithmetic
// wrapping, shift amounts masked, library functions called once per lane
// (nobuiltin). Control flow becomes masks: `if`, `and` and `or` evaluate both
// sides, each under the mask of the lanes that take it, and select; `while`
// loops while any lane of its mask is still running and replaces the state of
// running lanes only. No value here is poison (shifts are masked, float -> int
// casts saturate, divisors are never 0 or -1, gathers give 0 in inactive
// lanes), so lanes that compute garbage under a false mask are harmless. Reads
// load only active lanes (masked gathers); checked, an active lane out of
// range sends the group to the scalar path before anything of it is stored
// (Lanes::bails). Other forms that could fail a check never get here (Safety,
// lane_plan).
#include "jit/lane_codegen.h"
#include "core/check.h"

#include <algorithm>
#include <optional>
#include <set>

#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/MDBuilder.h>

#include "core/ir_walk.h"
#include "core/overload.h"
#include "core/prim.h"
#include "jit/prim_emit.h"
#include "jit/target_cpu.h"

namespace strata::jit {
namespace {

using llvm::Value;

// ------------------------------------------------------------ lane safety

// Whether an element function takes the lane path: every form supported here
// and none that can fail a check. Conservative: a form not listed is not safe.
struct Safety {
  bool checked = true;
  bool ok = true;
  bool has_while = false;
  bool reads = false; // reads an array element (checked: may leave for the scalar path)
  bool calls = false; // calls a library function (once per lane)
  int widest = 0;     // bits of the widest leaf of a `while` state
  int leaves = 0;     // leaves of the largest `while` state
  int step_ops = 0;   // operations in the `while` loops' conditions and steps
  int in_while = 0;   // depth of `while` loops around the node being walked

  void exp(const Exp& e) {
    if (ok) std::visit([&](const auto& n) { form(n); }, e.node);
  }
  void all(const std::vector<ExpPtr>& es) {
    for (const ExpPtr& e : es)
      exp(*e);
  }

  void form(const ex::Const&) {}
  void form(const ex::Var&) {}
  void form(const ex::Let& l) {
    for (const auto& bd : l.bindings)
      exp(*bd.value);
    exp(*l.body);
  }
  void form(const ex::If& i) {
    exp(*i.cond);
    exp(*i.then_branch);
    exp(*i.else_branch);
  }
  void form(const ex::Tuple& t) { all(t.elems); }
  void form(const ex::Proj& p) { exp(*p.tuple); }
  void form(const ex::Index& ix) { all(ix.components); }
  void form(const ex::Cast& c) { exp(*c.arg); }
  void form(const ex::While& w) {
    has_while = true;
    std::vector<ScalarKind> kinds = w.init->type.leaves();
    leaves = std::max(leaves, int(kinds.size()));
    for (ScalarKind k : kinds)
      widest = std::max(widest, bit_width(k));
    exp(*w.init);
    ++in_while;
    exp(*w.cond.body);
    exp(*w.step.body);
    --in_while;
  }
  // Uniform values (the same in every lane): loaded once and splatted.
  void form(const ex::ShapeOf&) {}
  void form(const ex::SizeOf&) {}
  void form(const ex::The&) {}
  // Reads: masked gathers. Checked, a group in which an active lane's index
  // is out of range is run again on the scalar path (lane_row), which raises
  // the error.
  void form(const ex::Read& r) {
    reads = true;
    exp(*r.index);
  }
  void form(const ex::LinearRead& r) {
    reads = true;
    exp(*r.index);
  }
  // Can fail a check: the scalar path.
  void form(const ex::ToIndex& t) { // unchecked: arithmetic only
    if (checked) ok = false;
    exp(*t.shape);
    exp(*t.index);
  }
  void form(const ex::FromIndex&) { ok = false; }
  void form(const ex::At&) { ok = false; } // stencils only
  void form(const ex::Call&) { unexpanded_call({}); }
  void form(const ex::Ignore&) {}
  void form(const ex::Trace& t) { exp(*t.arg); }
  void form(const ex::PrimApp& p) {
    calls = calls || is_libm_function(p.op);
    if (in_while > 0) ++step_ops;
    switch (p.op) {
    case Prim::Quot:
    case Prim::Rem:
    case Prim::IDiv:
    case Prim::Mod:
      // Checked: a zero divisor fails. Unchecked: the divisor is replaced as
      // in the scalar code, nothing can fail.
      if (checked) ok = false;
      break;
    default: break;
    }
    all(p.args);
  }
};

// What the walk above finds in `f`'s body under `checked`.
Safety safety_of(const Lambda& f, bool checked) {
  Safety s;
  s.checked = checked;
  s.exp(*f.body);
  return s;
}

// Bits of the target's vector registers (jit/target_cpu.h: part of every
// cache key).
int target_vector_bits() {
  return target_cpu().vector_bits;
}

// ------------------------------------------------------------ lane code

class Lanes {
public:
  Lanes(FnBuilder& f, unsigned width) : f_(f), b_(f.b), ctx_(f.ctx), w_(width) {}

  // `f` applied to `args` in the lanes of `mask` (<W x i1>).
  // The outermost call's mask is the run's lanes (at least one active).
  Val apply(const Lambda& fn, const std::vector<Val>& args, Value* mask) {
    Value* saved = mask_;
    mask_ = mask;
    if (!run_) run_ = mask;
    Val r = scope_.apply(fn, args, [&](const Exp& x) { return exp(x); });
    mask_ = saved;
    return r;
  }

  Value* all_lanes() { return splat(b_.getTrue()); }

  // Blocks, left open, that must run the group again on the scalar path (an
  // active lane failed a check there).
  std::vector<llvm::BasicBlock*> bails;

private:
  FnBuilder& f_;
  llvm::IRBuilder<>& b_;
  llvm::LLVMContext& ctx_;
  unsigned w_;
  Value* mask_ = nullptr;
  Value* run_ = nullptr; // the lanes the caller runs
  Scope scope_;

  Value* splat(Value* v) {
    if (auto* c = llvm::dyn_cast<llvm::Constant>(v))
      return llvm::ConstantVector::getSplat(llvm::ElementCount::getFixed(w_), c);
    return b_.CreateVectorSplat(w_, v);
  }

  Val splat_all(const Val& v) {
    Val out;
    for (Value* x : v)
      out.push_back(splat(x));
    return out;
  }

  // `e` in the lanes of `mask`.
  Val under(Value* mask, const Exp& e) {
    Value* saved = mask_;
    mask_ = mask;
    Val r = exp(e);
    mask_ = saved;
    return r;
  }

  Val exp(const Exp& e) {
    return std::visit([&](const auto& n) { return form(n, e); }, e.node);
  }

  // ---------------------------------------------------------- forms
  Val form(const ex::Const& c, const Exp&) { return {splat(scalar_constant(ctx_, c.value))}; }

  Val form(const ex::Var& v, const Exp& e) { return scope_.lookup(v, e); }

  Val form(const ex::Let& l, const Exp&) {
    return scope_.let(l, [&](const Exp& x) { return exp(x); });
  }

  // Both sides, each in the lanes that take it, then a select.
  Val form(const ex::If& i, const Exp&) {
    Value* c = exp(*i.cond)[0];
    Val t = under(b_.CreateAnd(mask_, c), *i.then_branch);
    Val f = under(b_.CreateAnd(mask_, b_.CreateNot(c)), *i.else_branch);
    Val out;
    for (size_t l = 0; l < t.size(); ++l)
      out.push_back(b_.CreateSelect(c, t[l], f[l]));
    return out;
  }

  Val form(const ex::Tuple& t, const Exp&) {
    return concat_leaves(t.elems, [&](const Exp& x) { return exp(x); });
  }

  Val form(const ex::Proj& p, const Exp& e) { return proj_leaves(p, e, exp(*p.tuple)); }

  Val form(const ex::Index& ix, const Exp&) {
    return concat_leaves(ix.components, [&](const Exp& x) { return exp(x); });
  }

  Val form(const ex::Cast& c, const Exp&) {
    return {emit_cast(b_, exp(*c.arg)[0], c.arg->type.scalar_kind(), c.target)};
  }

  // (while cond step init) over the lanes of the mask: the loop runs while
  // any of them still holds its condition; those lanes (`go`) take the next
  // state, the others keep theirs, so each lane ends with the state at which
  // its own condition first failed, after the scalar loop's steps exactly.
  Val form(const ex::While& w, const Exp&) {
    Val init = exp(*w.init);
    llvm::BasicBlock* pre = b_.GetInsertBlock();
    llvm::BasicBlock* head = llvm::BasicBlock::Create(ctx_, "lanes_while", f_.fn);
    llvm::BasicBlock* step = llvm::BasicBlock::Create(ctx_, "lanes_while_step", f_.fn);
    llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx_, "lanes_while_done", f_.fn);
    b_.CreateBr(head);
    b_.SetInsertPoint(head);
    llvm::PHINode* active = b_.CreatePHI(mask_->getType(), 2);
    active->addIncoming(mask_, pre);
    std::vector<llvm::PHINode*> phis;
    Val state;
    for (Value* v : init) {
      phis.push_back(b_.CreatePHI(v->getType(), 2));
      phis.back()->addIncoming(v, pre);
      state.push_back(phis.back());
    }
    Value* c = apply(w.cond, {state}, active)[0];
    Value* go = b_.CreateAnd(active, c);
    b_.CreateCondBr(b_.CreateOrReduce(go), step, done);
    b_.SetInsertPoint(step);
    Val next = apply(w.step, {state}, go);
    for (size_t l = 0; l < phis.size(); ++l)
      phis[l]->addIncoming(b_.CreateSelect(go, next[l], state[l]), b_.GetInsertBlock());
    active->addIncoming(go, b_.GetInsertBlock());
    b_.CreateBr(head);
    b_.SetInsertPoint(done);
    return state;
  }

  Val form(const ex::ShapeOf& s, const Exp&) {
    int id = f_.array_id(*s.array);
    return splat_all(f_.shape(id, f_.graph.arrays[size_t(id)].type.rank()));
  }

  Val form(const ex::SizeOf& s, const Exp&) { return {splat(f_.size(f_.array_id(*s.array)))}; }

  Val form(const ex::The& t, const Exp&) {
    int id = f_.array_id(*t.array);
    return splat_all(f_.load_elem(id, f_.graph.arrays[size_t(id)].type.elem(), f_.i64(0)));
  }

  Val form(const ex::Ignore& i, const Exp&) { return Val(size_t(i.rank), splat(f_.i64(-1))); }

  Val form(const ex::Trace& t, const Exp&) { return exp(*t.arg); }

  Val form(const ex::ToIndex& t, const Exp& e) {
    if (f_.checked) return unsafe(e);
    Val sh = exp(*t.shape), ix = exp(*t.index);
    Value* pos = splat(f_.i64(0));
    for (size_t d = 0; d < sh.size(); ++d)
      pos = b_.CreateAdd(b_.CreateMul(pos, sh[d]), ix[d]);
    return {pos};
  }

  // Leaves the lane code for the scalar path (a bail block) when `bad` holds
  // in an active lane.
  void bail_if(Value* bad) { leave_if(b_.CreateOrReduce(b_.CreateAnd(mask_, bad))); }

  // Leaves the lane code for the scalar path when `any` (i1) holds.
  void leave_if(Value* any) {
    llvm::BasicBlock* bail = llvm::BasicBlock::Create(ctx_, "lanes_bail", f_.fn);
    llvm::BasicBlock* ok = llvm::BasicBlock::Create(ctx_, "lanes_ok", f_.fn);
    llvm::MDBuilder md(ctx_);
    b_.CreateCondBr(any, bail, ok, md.createBranchWeights(1, 1 << 20));
    bails.push_back(bail);
    b_.SetInsertPoint(ok);
  }

  // Whether the code runs in every lane the caller runs (no `if`, `and`,
  // `or` or `while` masks it): only then may a read be checked once per run
  // (FnBuilder::check_per_chunk), as it runs for every element, and a read
  // the same in every lane load once (some lane is active).
  bool every_lane() const { return mask_ == run_; }

  // The scalars of an index whose components are the same in every lane
  // (splats), read under every lane: such a read loads once. Empty otherwise.
  std::optional<Val> uniform_index(const Val& ix) const {
    if (!every_lane()) return std::nullopt;
    Val out;
    for (Value* v : ix) {
      Value* s = llvm::getSplatValue(v);
      if (!s) return std::nullopt;
      out.push_back(s);
    }
    return out;
  }

  // Each leaf of `array`'s elements in the active lanes, zero in the others
  // (never loaded: their positions may be anything): at positions `at`
  // (<W x i64>, a masked gather), or, `consecutive`, at [at, at + W) (one
  // masked vector load; a plain load under all lanes).
  Val load_lanes(int array, const Type& elem, Value* at, bool consecutive) {
    Val out;
    std::vector<ScalarKind> kinds = elem.leaves();
    for (size_t l = 0; l < kinds.size(); ++l) {
      llvm::Type* mt = mem_type(ctx_, kinds[l]);
      llvm::Type* vt = llvm::FixedVectorType::get(mt, w_);
      Value* ptr = b_.CreateGEP(mt, f_.leaf_ptr(array, l), at);
      llvm::Align align(scalar_size(kinds[l]));
      Value* zero = llvm::Constant::getNullValue(vt);
      Value* v = consecutive ? b_.CreateMaskedLoad(vt, ptr, align, mask_, zero)
                             : b_.CreateMaskedGather(vt, ptr, align, mask_, zero);
      out.push_back(kinds[l] == ScalarKind::Bool ? b_.CreateICmpNE(v, zero) : v);
    }
    return out;
  }

  // `s` where `v` is splat(s) + <0, 1, ..., W-1> (lane k at position s + k,
  // as the lanes' own innermost index is built), or splat(a) plus such a
  // value (s = a + its start: an offset from a chunk's lanes); null
  // otherwise.
  Value* consecutive(Value* v) {
    auto* add = llvm::dyn_cast<llvm::BinaryOperator>(v);
    if (!add || add->getOpcode() != llvm::Instruction::Add) return nullptr;
    for (unsigned k = 0; k < 2; ++k) {
      Value* s = llvm::getSplatValue(add->getOperand(1 - k));
      if (!s) continue;
      if (auto* c = llvm::dyn_cast<llvm::ConstantDataVector>(add->getOperand(k))) {
        bool iota = true;
        for (unsigned l = 0; l < c->getNumElements(); ++l)
          iota = iota && c->getElementAsInteger(l) == l;
        if (iota) return s;
      } else if (Value* start = consecutive(add->getOperand(k))) {
        return b_.CreateAdd(s, start);
      }
    }
    return nullptr;
  }

  // The position of lane 0 where the index `ix` reads consecutive positions
  // (its innermost component consecutive, the others uniform) of an array of
  // shape `sh`; null otherwise.
  Value* consecutive_position(const Val& ix, const Val& sh) {
    if (ix.empty()) return nullptr;
    Val first;
    for (size_t d = 0; d + 1 < ix.size(); ++d) {
      first.push_back(llvm::getSplatValue(ix[d]));
      if (!first.back()) return nullptr;
    }
    first.push_back(consecutive(ix.back()));
    if (!first.back()) return nullptr;
    return f_.to_linear(sh, first);
  }

  Val form(const ex::Read& r, const Exp&) {
    int id = f_.array_id(*r.array);
    const Type& t = f_.graph.arrays[size_t(id)].type;
    Val ix = exp(*r.index);
    if (std::optional<Val> one = uniform_index(ix)) {
      Val sh = f_.shape(id, t.rank());
      if (f_.checked && !one->empty() && !f_.check_per_chunk(*one, sh)) {
        Value* bad = b_.getFalse();
        for (size_t k = 0; k < one->size(); ++k)
          bad = b_.CreateOr(bad, b_.CreateICmpUGE((*one)[k], sh[k]));
        leave_if(bad);
      }
      return splat_all(f_.load_elem(id, t.elem(), f_.to_linear(sh, *one)));
    }
    Val sh = splat_all(f_.shape(id, t.rank()));
    if (f_.checked && !ix.empty() &&
        !(every_lane() && f_.check_per_chunk(ix, f_.shape(id, t.rank())))) {
      Value* bad = splat(b_.getFalse());
      for (size_t k = 0; k < ix.size(); ++k)
        bad = b_.CreateOr(bad, b_.CreateICmpUGE(ix[k], sh[k])); // negative: huge unsigned
      bail_if(bad);
    }
    if (Value* first = consecutive_position(ix, f_.shape(id, t.rank())))
      return load_lanes(id, t.elem(), first, true);
    Value* pos = splat(f_.i64(0));
    for (size_t d = 0; d < ix.size(); ++d)
      pos = b_.CreateAdd(b_.CreateMul(pos, sh[d]), ix[d]);
    return load_lanes(id, t.elem(), pos, false);
  }

  Val form(const ex::LinearRead& r, const Exp&) {
    int id = f_.array_id(*r.array);
    Value* i = exp(*r.index)[0];
    if (std::optional<Val> one = uniform_index({i})) {
      if (f_.checked && !f_.check_per_chunk(*one, {f_.size(id)}))
        leave_if(b_.CreateICmpUGE((*one)[0], f_.size(id)));
      return splat_all(f_.load_elem(id, f_.graph.arrays[size_t(id)].type.elem(), (*one)[0]));
    }
    if (f_.checked && !(every_lane() && f_.check_per_chunk({i}, {f_.size(id)})))
      bail_if(b_.CreateICmpUGE(i, splat(f_.size(id))));
    if (Value* first = consecutive(i))
      return load_lanes(id, f_.graph.arrays[size_t(id)].type.elem(), first, true);
    return load_lanes(id, f_.graph.arrays[size_t(id)].type.elem(), i, false);
  }
  Val form(const ex::FromIndex&, const Exp& e) { return unsafe(e); }
  Val form(const ex::At&, const Exp& e) { return unsafe(e); }
  Val form(const ex::Call&, const Exp& e) { unexpanded_call(e.loc); }

  [[noreturn]] Val unsafe(const Exp& e) {
    throw Error(ErrorKind::Type, e.loc, "jit: internal: a form that is not lane-safe in lane code");
  }

  Val form(const ex::PrimApp& p, const Exp& e) { return {prim(p, e)}; }

  // The primitives: `and` and `or` under masks, the others as on the scalar
  // path (jit/prim_emit.h) on vectors. Integer division is unchecked here
  // (lane_plan): a divisor 0 or -1 is replaced as in the scalar code.
  Value* prim(const ex::PrimApp& p, const Exp& e) {
    if (p.op == Prim::And || p.op == Prim::Or) {
      // (and a b) = (if a b false), (or a b) = (if a true b): b in the lanes that need it.
      Value* a = exp(*p.args[0])[0];
      bool is_and = p.op == Prim::And;
      Value* r = under(b_.CreateAnd(mask_, is_and ? a : b_.CreateNot(a)), *p.args[1])[0];
      return is_and ? b_.CreateAnd(a, r) : b_.CreateOr(a, r);
    }
    ScalarKind k = p.args[0]->type.scalar_kind();
    Value* a = exp(*p.args[0])[0];
    Value* c = p.args.size() > 1 ? exp(*p.args[1])[0] : nullptr;
    if (Value* r = emit_prim(b_, p.op, k, a, c, {})) return r;
    throw Error(ErrorKind::Type, e.loc, "jit: unknown primitive");
  }
};

} // namespace

// More operations than this in the `while` loops of an element function
// (Safety::step_ops) make a large step (lane_plan).
constexpr int kManyStepOps = 32;

LanePlan lane_plan(const Lambda& f, bool checked) {
  Safety s = safety_of(f, checked);
  if (!s.ok || !s.has_while) return {};
  int per_register = target_vector_bits() / std::max(32, s.widest);
  if (per_register < 2) return {};
  // A `while` step is a chain of dependent operations (latency-bound), so a
  // group spans up to 4 registers, independent chains that run interleaved,
  // as far as the registers hold them: about 2 per state leaf and 2 more per
  // chain, of 32 vector registers (AVX-512) or 16.
  int registers = target_vector_bits() >= 512 ? 32 : 16;
  // A step of many operations has independent work enough within one chain
  // to hide their latency (raytrace's 56: each sphere's distance test, three
  // coordinates at a time), and more chains only add register pressure: 2
  // chains run raytrace in 35 us against 43 with 4, and compile in 14 ms
  // against 20; mandelbrot's 14 operations keep 4 (2: 11.0 -> 13.5 ms).
  int chains = s.step_ops > kManyStepOps ? 2 : 4;
  while (chains > 1 && chains * (2 * s.leaves + 2) > registers)
    chains /= 2;
  return {per_register * chains, checked && s.reads};
}

bool lane_combiner(const Lambda& f, bool checked) {
  Safety s = safety_of(f, checked);
  return s.ok && !s.reads;
}

Val lanes_apply(FnBuilder& f, unsigned width, const Lambda& fn, const std::vector<Val>& args) {
  Lanes lanes(f, width);
  Val r = lanes.apply(fn, args, lanes.all_lanes());
  if (!lanes.bails.empty())
    throw Error(ErrorKind::Type, fn.body->loc, "jit: internal: a combiner that reads in lanes");
  return r;
}

Val lanes_apply_reading(FnBuilder& f, unsigned width, const Lambda& fn,
                        const std::vector<Val>& args, std::vector<llvm::BasicBlock*>& bails,
                        Value* mask) {
  Lanes lanes(f, width);
  Val r = lanes.apply(fn, args, mask ? mask : lanes.all_lanes());
  bails.insert(bails.end(), lanes.bails.begin(), lanes.bails.end());
  return r;
}

void store_lanes(FnBuilder& f, const Type& t, int target, Value* first, const Val& v, Value* mask) {
  std::vector<ScalarKind> kinds = t.leaves();
  for (size_t l = 0; l < kinds.size(); ++l) {
    auto* vt = llvm::cast<llvm::FixedVectorType>(v[l]->getType());
    llvm::Type* mt = mem_type(f.ctx, kinds[l]);
    Value* x = emit_canonical(f.b, kinds[l], v[l]);
    if (kinds[l] == ScalarKind::Bool)
      x = f.b.CreateZExt(x, llvm::FixedVectorType::get(mt, vt->getNumElements()));
    Value* at = f.b.CreateGEP(mt, f.leaf_ptr(target, l), first);
    llvm::Align align(scalar_size(kinds[l]));
    if (mask)
      f.b.CreateMaskedStore(x, at, align, mask);
    else
      f.b.CreateAlignedStore(x, at, align);
  }
}

namespace {

// Whether every read of `f` (one parameter, an index) is at the element's
// own index (the parameter or a name bound to it, or their components in
// order) or at an index with no variable at all: in lanes of consecutive
// elements those are consecutive or uniform (vector loads, one load), never
// gathers.
bool reads_own_positions(const Lambda& f) {
  if (f.params.size() != 1) return false;
  std::set<std::string> own_names = {f.params[0].name};
  auto is_own = [&](const Exp& e) {
    auto* v = std::get_if<ex::Var>(&e.node);
    return v && own_names.count(v->name) > 0;
  };
  auto own = [&](const Exp& ix) {
    if (is_own(ix)) return true;
    auto* c = std::get_if<ex::Index>(&ix.node);
    if (!c) return false;
    for (size_t k = 0; k < c->components.size(); ++k) {
      auto* pr = std::get_if<ex::Proj>(&c->components[k]->node);
      if (!pr || pr->index != int(k) || !is_own(*pr->tuple)) return false;
    }
    return true;
  };
  std::function<bool(const Exp&)> has_var = [&](const Exp& e) {
    bool found = std::holds_alternative<ex::Var>(e.node);
    for_each_child(
        e, [&](const Exp& c) { found = found || has_var(c); }, [](const Acc&) {});
    return found;
  };
  bool ok = true;
  std::function<void(const Exp&)> visit = [&](const Exp& e) {
    if (auto* r = std::get_if<ex::Read>(&e.node))
      ok = ok && (own(*r->index) || !has_var(*r->index));
    if (auto* r = std::get_if<ex::LinearRead>(&e.node)) ok = ok && !has_var(*r->index);
    if (auto* l = std::get_if<ex::Let>(&e.node)) {
      // Sequential bindings: a name bound to the index (fusion's renamings)
      // is the index too; a name bound to anything else shadows it.
      std::set<std::string> outside = own_names;
      for (const ex::Binding& bd : l->bindings) {
        if (bd.value) visit(*bd.value);
        if (bd.fn) visit(*bd.fn->body);
        if (bd.value && !bd.fn && is_own(*bd.value))
          own_names.insert(bd.name);
        else
          own_names.erase(bd.name);
      }
      visit(*l->body);
      own_names = outside;
      return;
    }
    for_each_child(e, visit, [](const Acc&) {});
  };
  visit(*f.body);
  return ok;
}

} // namespace

bool chunk_in_lanes(const Lambda& f, bool checked) {
  Safety s = safety_of(f, checked);
  return s.ok && !s.calls && reads_own_positions(f);
}

int fold_row_lanes(const Lambda& elem, const Lambda& fn, const Type& t, bool checked) {
  Safety s = safety_of(elem, checked);
  if (!s.ok || !lane_combiner(fn, checked)) return 0;
  int widest = 32;
  for (ScalarKind k : t.leaves())
    widest = std::max(widest, bit_width(k));
  int per_register = target_vector_bits() / widest;
  return per_register >= 2 ? per_register : 0;
}

void lane_row(FnBuilder& f, const Lambda& elem, const Type& type, int target, const LanePlan& plan,
              const Val& outer, Value* j0, Value* j1, Value* p0) {
  llvm::IRBuilder<>& b = f.b;
  unsigned width = unsigned(plan.width);
  llvm::BasicBlock* pre = b.GetInsertBlock();
  llvm::BasicBlock* loop = llvm::BasicBlock::Create(f.ctx, "lanes", f.fn);
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(f.ctx, "lanes_exit", f.fn);
  b.CreateBr(loop);
  b.SetInsertPoint(loop);
  llvm::PHINode* j = b.CreatePHI(b.getInt64Ty(), 2);
  j->addIncoming(j0, pre);
  // The group's indices: the row's outer index in every lane, j + lane
  // innermost; lanes past the run's end are masked off (never stored, and
  // no `while` runs for them).
  Value* first = b.CreateAdd(p0, b.CreateSub(j, j0)); // the group's first position
  Value* lane = f.lane_numbers(width);
  Value* mask = f.lanes_below(width, b.CreateSub(j1, j));
  Lanes lanes(f, width);
  Val ix;
  for (Value* o : outer)
    ix.push_back(b.CreateVectorSplat(width, o));
  ix.push_back(b.CreateAdd(b.CreateVectorSplat(width, j), lane));
  Val v = lanes.apply(elem, {ix}, mask);
  store_lanes(f, type, target, first, v, mask);
  Value* next = b.CreateAdd(j, f.i64(plan.width));
  j->addIncoming(next, b.GetInsertBlock());
  leave_alone(f.ctx, b.CreateCondBr(b.CreateICmpSLT(next, j1), loop, exit));
  // A check failed in an active lane: the checked entry from the group's
  // first element on, which fails the same check (or an earlier one) at the
  // same element (or an earlier one) and raises the interpreter's error.
  // Nothing of the group was stored yet.
  f.hand_over(lanes.bails, first, elem.body->loc, "a generate's lanes");
  b.SetInsertPoint(exit);
}

} // namespace strata::jit
