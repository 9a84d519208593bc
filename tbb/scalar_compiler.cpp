#include "tbb/scalar_compiler.h"
#include "core/check.h"

#include <algorithm>
#include <set>

#include "core/boundary.h"
#include "core/runtime_errors.h"
#include "tbb/batch_ops.h"
#include "tbb/gather.h"

namespace strata::tbbe {

// Every register holds `lanes` 8-byte values, rounded up to whole cache lines
// plus three more, so that registers do not all map to the same L1 sets.
Frame::Frame(int registers, const ArrayTable& arrays, int lanes)
    : lanes_(std::clamp(lanes, 1, kBatch)), stride_((size_t(lanes_) * 8 + 63) / 64 * 64 + 3 * 64),
      data_(new std::byte[size_t(std::max(registers, 1)) * stride_]),
      regs_(new std::byte*[size_t(std::max(registers, 1))]), arrays_(arrays) {
  for (int r = 0; r < std::max(registers, 1); ++r)
    own(r);
}

namespace {

// Splits the selected lanes by a bool register into those where it is true and false.
void partition(const Selection& s, const bool* cond, uint16_t* yes, int& n_yes, uint16_t* no,
               int& n_no) {
  n_yes = n_no = 0;
  for_each_lane(s, [&](int i) {
    if (cond[i])
      yes[n_yes++] = uint16_t(i);
    else
      no[n_no++] = uint16_t(i);
  });
}

Index lane_index(Frame& f, const std::vector<int>& regs, int lane) {
  Index ix(regs.size());
  for (size_t k = 0; k < regs.size(); ++k)
    ix[k] = f.reg<int64_t>(regs[k])[lane];
  return ix;
}

// Copies element `pos` of every leaf of `a` into lane `lane` of the registers.
void gather(Frame& f, const Array& a, const std::vector<int>& out, int64_t pos, int lane) {
  for (size_t l = 0; l < out.size(); ++l) {
    size_t size = scalar_size(a.leaf_kind(l));
    std::memcpy(f.reg<std::byte>(out[l]) + size_t(lane) * size,
                a.leaf(l).data() + size_t(pos) * size, size);
  }
}

// Lanes of `regs` := the elements at positions `pos` of every leaf of `a`.
// Consecutive positions point the registers into the array (no copy);
// others are gathered into the frame's own storage.
void load(Frame& f, const Array& a, const std::vector<int>& regs,
          const std::vector<GatherFn>& gathers, const std::vector<size_t>& sizes,
          const int64_t* pos, const Selection& s, bool consecutive) {
  if (s.count == 0) return;
  for (size_t l = 0; l < regs.size(); ++l) {
    if (consecutive) {
      f.alias(regs[l], a.leaf(l).data() + size_t(pos[0]) * sizes[l]);
    } else {
      f.own(regs[l]);
      gathers[l](a.leaf(l).data(), pos, f.reg<std::byte>(regs[l]), s, false);
    }
  }
}

// The row-major position in `sh` of lane `lane` of the index registers `ix`.
int64_t lane_position(Frame& f, const std::vector<int>& ix, const Shape& sh, int lane) {
  int64_t p = 0;
  for (size_t k = 0; k < ix.size(); ++k)
    p = p * sh[k] + f.reg<int64_t>(ix[k])[lane];
  return p;
}

// With Frame::index_run and a dense selection, the index registers `ix` hold
// one run of a row: lanes 0..count-1 are in bounds of `sh` exactly when lane 0
// and the last lane are (outer components are equal across lanes, the
// innermost one counts up).
bool run_in_bounds(Frame& f, const std::vector<int>& ix, const Shape& sh, int count) {
  for (size_t k = 0; k < ix.size(); ++k) {
    int64_t first = f.reg<int64_t>(ix[k])[0];
    if (first < 0 || first >= sh[k]) return false;
  }
  return ix.empty() || f.reg<int64_t>(ix.back())[count - 1] < sh.back();
}

} // namespace

class ScalarCompiler {
public:
  ScalarCompiler(ScalarFunction& fn, const ArrayScope& arrays,
                 const std::optional<WindowInfo>& window)
      : fn_(fn), arrays_(arrays), window_(window) {}

  void compile(const Lambda& f) {
    for (const Param& p : f.params) {
      Operand o = window_ && p.type.is_window() ? fresh(Type::index(p.type.rank())) : fresh(p.type);
      if (window_ && p.type.is_window())
        center_ = o.regs;
      else
        env_.emplace_back(p.name, o);
      fn_.params_.push_back(o);
    }
    if (window_ && window_->boundary.kind == ac::BoundaryKind::Constant)
      boundary_value_ = exp(*window_->boundary.constant, fn_.init_);
    // The result gets registers of its own: callers copy it into parameter
    // registers (acc := f(acc, x)), which must not alias it.
    // Only a result that shares a register with a parameter needs the copy
    // (`(tuple b a)` copied leaf by leaf into `a` would overwrite it); any
    // other result is read as it is, saving a pass per batch.
    Operand body = exp(*f.body, fn_.code_);
    bool aliases = false;
    for (const Operand& p : fn_.params_)
      for (int r : p.regs)
        aliases = aliases || std::find(body.regs.begin(), body.regs.end(), r) != body.regs.end();
    fn_.result_ = aliases ? fresh_copy(body, fn_.code_) : body;
    // A stencil's centre is used by its window reads only; any other
    // function's index parameter must be used by reads at it and nothing else.
    fn_.lazy_index_ = !fn_.params_.empty() && param_uses_ == param_reads_ && !aliases;
    if (last_binary_ && last_binary_->position + 1 == fn_.code_.instrs.size() &&
        fn_.result_.regs == std::vector<int>{last_binary_->out}) {
      fn_.tail_ = last_binary_->op;
      fn_.head_.instrs.assign(fn_.code_.instrs.begin(), fn_.code_.instrs.end() - 1);
    }
    const std::vector<int>& res = fn_.result_.regs;
    for (int r : res)
      fn_.result_in_place_.push_back(computed_regs_.count(r) > 0 &&
                                     std::count(res.begin(), res.end(), r) == 1);
  }

private:
  ScalarFunction& fn_;
  const ArrayScope& arrays_;
  std::optional<WindowInfo> window_;
  std::vector<std::pair<std::string, Operand>> env_;
  std::vector<int> center_;     // stencil: the index of the element being computed
  Operand boundary_value_;      // stencil: the `constant` boundary value
  std::set<int> constant_regs_; // registers written once per frame (literals)
  std::set<int> computed_regs_; // see computed()
  struct LastBinary {           // the latest fusable (+ a b) / (* a b) of the top-level code
    ScalarFunction::TailBinary op;
    size_t position;
    int out;
  };
  std::optional<LastBinary> last_binary_;
  int param_uses_ = 0;  // references to the first parameter
  int param_reads_ = 0; // of which reads at exactly it (`(! xs i)`)

  int new_reg() { return fn_.registers_++; }

  // Registers that only instructions of the function's code write, every
  // selected lane of every run (results of primitives, casts, if, while and
  // copies): such a result register may point at the kernel's output.
  Operand computed(Operand o) {
    computed_regs_.insert(o.regs.begin(), o.regs.end());
    return o;
  }

  static bool shares_register(const std::vector<int>& a, const std::vector<int>& b) {
    for (int r : a)
      if (std::find(b.begin(), b.end(), r) != b.end()) return true;
    return false;
  }

  Operand fresh(const Type& t) {
    Operand o{t, {}};
    for (size_t i = 0; i < t.leaves().size(); ++i)
      o.regs.push_back(new_reg());
    return o;
  }

  Operand constant(const Scalar& v) {
    Operand o = fresh(Type::scalar(v.kind()));
    fn_.init_.instrs.push_back(fill_instr(v, o.regs[0]));
    constant_regs_.insert(o.regs[0]);
    return o;
  }

  Operand fresh_copy(const Operand& from, Code& code) {
    Operand to = computed(fresh(from.type));
    copy(code, from, to);
    return to;
  }

  void copy(Code& code, const Operand& from, const Operand& to) {
    std::vector<ScalarKind> kinds = from.type.leaves();
    for (size_t l = 0; l < kinds.size(); ++l)
      code.instrs.push_back(copy_instr(kinds[l], from.regs[l], to.regs[l]));
  }

  // The manifest array behind an array variable of kernel code.
  std::pair<int, std::string> array_of(const Acc& a) {
    const std::string& name = std::get<ac::Var>(a.node).name;
    auto it = arrays_.find(name);
    if (it == arrays_.end())
      throw Error(ErrorKind::Type, a.loc, "kernel code reads unknown array `" + name + "`");
    return {it->second.first, name};
  }

  // ------------------------------------------------------------------ forms
  Operand exp(const Exp& e, Code& code) {
    return std::visit([&](const auto& n) { return form(n, e, code); }, e.node);
  }

  Operand form(const ex::Const& c, const Exp&, Code&) { return constant(c.value); }

  Operand form(const ex::Var& v, const Exp& e, Code&) {
    Operand o = lookup(v.name, e);
    if (!fn_.params_.empty() && shares_register(o.regs, fn_.params_[0].regs)) ++param_uses_;
    return o;
  }

  Operand lookup(const std::string& name, const Exp& e) {
    for (auto it = env_.rbegin(); it != env_.rend(); ++it)
      if (it->first == name) return it->second;
    throw Error(ErrorKind::Type, e.loc, "kernel code reads unknown variable `" + name + "`");
  }

  Operand form(const ex::Let& l, const Exp&, Code& code) {
    size_t depth = env_.size();
    for (const auto& b : l.bindings) {
      // A binding to a variable (fusion's `(let ((j i)) (! xs j))`) is only a
      // new name: its uses are counted where the name is used.
      const auto* alias = std::get_if<ex::Var>(&b.value->node);
      Operand v = alias ? lookup(alias->name, *b.value) : exp(*b.value, code);
      env_.emplace_back(b.name, v);
    }
    Operand r = exp(*l.body, code);
    env_.resize(depth);
    return r;
  }

  Operand form(const ex::If& i, const Exp& e, Code& code) {
    Operand cond = exp(*i.cond, code);
    auto then_code = std::make_shared<Code>(), else_code = std::make_shared<Code>();
    Operand t = exp(*i.then_branch, *then_code);
    Operand f = exp(*i.else_branch, *else_code);
    Operand out = computed(fresh(e.type));
    copy(*then_code, t, out);
    copy(*else_code, f, out);
    code.instrs.push_back(branch(cond.regs[0], then_code, else_code));
    return out;
  }

  // Runs `yes` on the lanes where `cond` holds and `no` on the others.
  Instr branch(int cond, std::shared_ptr<Code> yes, std::shared_ptr<Code> no) {
    int yes_lanes = new_reg(), no_lanes = new_reg();
    return [=](Frame& f, const Selection& s) {
      uint16_t* y = f.reg<uint16_t>(yes_lanes);
      uint16_t* n = f.reg<uint16_t>(no_lanes);
      int ny, nn;
      partition(s, f.reg<bool>(cond), y, ny, n, nn);
      if (ny) yes->run(f, Selection{y, ny});
      if (nn) no->run(f, Selection{n, nn});
    };
  }

  Operand form(const ex::Tuple& t, const Exp& e, Code& code) {
    Operand out{e.type, {}};
    for (const auto& x : t.elems) {
      Operand o = exp(*x, code);
      out.regs.insert(out.regs.end(), o.regs.begin(), o.regs.end());
    }
    return out;
  }

  Operand form(const ex::Proj& p, const Exp& e, Code& code) {
    Operand t = exp(*p.tuple, code);
    size_t first = 0;
    for (int k = 0; k < p.index; ++k)
      first += t.type.elems()[size_t(k)].leaves().size();
    size_t n = e.type.leaves().size();
    return Operand{
        e.type, std::vector<int>(t.regs.begin() + long(first), t.regs.begin() + long(first + n))};
  }

  Operand form(const ex::Index& ix, const Exp& e, Code& code) {
    Operand out{e.type, {}};
    for (const auto& c : ix.components)
      out.regs.push_back(exp(*c, code).regs[0]);
    return out;
  }

  Operand form(const ex::Cast& c, const Exp& e, Code& code) {
    Operand a = exp(*c.arg, code);
    Operand out = computed(fresh(e.type));
    code.instrs.push_back(cast_instr(a.type.scalar_kind(), c.target, a.regs[0], out.regs[0]));
    return out;
  }

  // while: state := init; repeat on the lanes whose condition holds:
  // state := step(state); lanes leave the loop one by one.
  Operand form(const ex::While& w, const Exp& e, Code& code) {
    Operand init = exp(*w.init, code);
    Operand state = computed(fresh(e.type));
    copy(code, init, state);
    auto cond_code = std::make_shared<Code>(), step_code = std::make_shared<Code>();
    env_.emplace_back(w.cond.params[0].name, state);
    int cond = exp(*w.cond.body, *cond_code).regs[0];
    env_.pop_back();
    env_.emplace_back(w.step.params[0].name, state);
    // The next state is built apart and then copied, all components at once:
    // (tuple (+ i 1) i) must read the old i.
    Operand next = fresh_copy(exp(*w.step.body, *step_code), *step_code);
    env_.pop_back();
    copy(*step_code, next, state);
    int active_a = new_reg(), active_b = new_reg(), done = new_reg();
    code.instrs.push_back([=](Frame& f, const Selection& s) {
      uint16_t* active = f.reg<uint16_t>(active_a);
      uint16_t* spare = f.reg<uint16_t>(active_b);
      uint16_t* finished = f.reg<uint16_t>(done);
      Selection current = s;
      for (;;) {
        cond_code->run(f, current);
        int n_active, n_done;
        partition(current, f.reg<bool>(cond), spare, n_active, finished, n_done);
        if (n_active == 0) return;
        std::swap(active, spare);
        current = Selection{active, n_active};
        step_code->run(f, current);
      }
    });
    return state;
  }

  Operand form(const ex::ShapeOf& s, const Exp& e, Code&) {
    int id = array_of(*s.array).first;
    Operand out = fresh(e.type);
    fn_.init_.instrs.push_back([id, regs = out.regs](Frame& f, const Selection&) {
      const Shape& sh = f.array(id).shape();
      for (size_t k = 0; k < regs.size(); ++k)
        std::fill_n(f.reg<int64_t>(regs[k]), f.lanes(), sh[k]);
    });
    return out;
  }

  Operand form(const ex::SizeOf& s, const Exp& e, Code&) {
    int id = array_of(*s.array).first;
    Operand out = fresh(e.type);
    fn_.init_.instrs.push_back([id, r = out.regs[0]](Frame& f, const Selection&) {
      std::fill_n(f.reg<int64_t>(r), f.lanes(), f.array(id).size());
    });
    return out;
  }

  Operand form(const ex::The& t, const Exp& e, Code&) {
    int id = array_of(*t.array).first;
    Operand out = fresh(e.type);
    fn_.init_.instrs.push_back([id, regs = out.regs](Frame& f, const Selection&) {
      for (int lane = 0; lane < f.lanes(); ++lane)
        gather(f, f.array(id), regs, 0, lane);
    });
    return out;
  }

  // The element kinds of the manifest array behind an array variable.
  std::vector<ScalarKind> leaf_kinds_of(const Acc& a) {
    const std::string& name = std::get<ac::Var>(a.node).name;
    return arrays_.at(name).second.elem().leaves();
  }

  static std::vector<GatherFn> gathers_of(const std::vector<ScalarKind>& kinds) {
    std::vector<GatherFn> g;
    for (ScalarKind k : kinds)
      g.push_back(gather_fn(k));
    return g;
  }

  // xs[ix]: row-major positions of the selected lanes (bounds-checked in one
  // pass), then one typed gather per leaf, a contiguous copy when the
  // positions are consecutive.
  Operand form(const ex::Read& r, const Exp& e, Code& code) {
    int id = array_of(*r.array).first;
    std::vector<ScalarKind> kinds = leaf_kinds_of(*r.array);
    std::vector<GatherFn> gathers = gathers_of(kinds);
    std::vector<size_t> sizes = leaf_sizes(kinds);
    std::vector<int> ix = exp(*r.index, code).regs;
    // Reading at exactly the function's index parameter (`(! xs i)` in a
    // map, zipwith or fold after fusion): in an index run, the lanes are one
    // run of consecutive elements, checked and addressed from two lanes.
    bool at_parameter = !fn_.params_.empty() && !ix.empty() && fn_.params_[0].regs == ix;
    if (at_parameter) ++param_reads_;
    Operand out = fresh(e.type);
    int pos_reg = new_reg();
    SrcLoc loc = e.loc;
    auto [op, name] = read_names(r); // the fused operation and the program's array name
    code.instrs.push_back([=, regs = out.regs](Frame& f, const Selection& s) {
      const Array& a = f.array(id);
      const Shape& sh = a.shape();
      if (at_parameter && f.index_run() && s.is_dense() && s.count > 0 &&
          run_in_bounds(f, ix, sh, s.count)) {
        int64_t first = lane_position(f, ix, sh, 0);
        load(f, a, regs, gathers, sizes, &first, s, true);
        return;
      }
      if (at_parameter) f.need_index();
      const int64_t* pos;
      bool bad = false, consecutive = false;
      if (ix.size() == 1) {
        pos = f.reg<int64_t>(ix[0]);
        consecutive = s.is_dense() && consecutive_positions(pos, s.count);
        bad = any_out_of_range(pos, s, consecutive, sh[0]);
      } else {
        int64_t* p = f.reg<int64_t>(pos_reg);
        for_each_lane(s, [&](int i) { p[i] = 0; });
        int64_t bits = 0; // sign bit: some component out of range (see any_out_of_range)
        for (size_t k = 0; k < ix.size(); ++k) {
          const int64_t* c = f.reg<int64_t>(ix[k]);
          int64_t n = sh[k], last = n - 1;
          if (s.is_dense())
            for (int i = 0; i < s.count; ++i) {
              bits |= c[i] | (last - c[i]);
              p[i] = p[i] * n + c[i];
            }
          else
            for_each_lane(s, [&](int i) {
              bits |= c[i] | (last - c[i]);
              p[i] = p[i] * n + c[i];
            });
        }
        bad = bits < 0;
        pos = p;
        consecutive = !bad && s.is_dense() && consecutive_positions(pos, s.count);
      }
      if (bad)
        for_each_lane(s, [&](int lane) {
          for (size_t k = 0; k < ix.size(); ++k) {
            int64_t i = f.reg<int64_t>(ix[k])[lane];
            if (i < 0 || i >= sh[k])
              throw index_out_of_bounds(lane_index(f, ix, lane), sh, op, name, loc);
          }
        });
      load(f, a, regs, gathers, sizes, pos, s, consecutive);
    });
    return out;
  }

  Operand form(const ex::LinearRead& r, const Exp& e, Code& code) {
    int id = array_of(*r.array).first;
    std::vector<ScalarKind> kinds = leaf_kinds_of(*r.array);
    std::vector<GatherFn> gathers = gathers_of(kinds);
    std::vector<size_t> sizes = leaf_sizes(kinds);
    int i_reg = exp(*r.index, code).regs[0];
    Operand out = fresh(e.type);
    SrcLoc loc = e.loc;
    auto [op, name] = read_names(r);
    code.instrs.push_back([=, regs = out.regs](Frame& f, const Selection& s) {
      const Array& a = f.array(id);
      const int64_t* pos = f.reg<int64_t>(i_reg);
      bool consecutive = s.is_dense() && consecutive_positions(pos, s.count);
      if (any_out_of_range(pos, s, consecutive, a.size()))
        for_each_lane(s, [&](int lane) {
          int64_t i = pos[lane];
          if (i < 0 || i >= a.size()) throw linear_index_out_of_bounds(i, a.shape(), op, name, loc);
        });
      load(f, a, regs, gathers, sizes, pos, s, consecutive);
    });
    return out;
  }

  Operand form(const ex::ToIndex& t, const Exp& e, Code& code) {
    std::vector<int> sh = exp(*t.shape, code).regs, ix = exp(*t.index, code).regs;
    Operand out = fresh(e.type);
    SrcLoc loc = e.loc;
    std::string op = to_index_op(t);
    code.instrs.push_back([=, o = out.regs[0]](Frame& f, const Selection& s) {
      for_each_lane(s, [&](int lane) {
        Index shape = lane_index(f, sh, lane), index = lane_index(f, ix, lane);
        if (!in_bounds(shape, index)) throw to_index_out_of_bounds(index, shape, op, loc);
        f.reg<int64_t>(o)[lane] = to_linear(shape, index);
      });
    });
    return out;
  }

  Operand form(const ex::FromIndex& fi, const Exp& e, Code& code) {
    std::vector<int> sh = exp(*fi.shape, code).regs;
    int i_reg = exp(*fi.index, code).regs[0];
    Operand out = fresh(e.type);
    SrcLoc loc = e.loc;
    code.instrs.push_back([=, regs = out.regs](Frame& f, const Selection& s) {
      for_each_lane(s, [&](int lane) {
        Index shape = lane_index(f, sh, lane);
        int64_t i = f.reg<int64_t>(i_reg)[lane];
        if (i < 0 || i >= shape_size(shape)) throw from_index_out_of_bounds(i, shape, loc);
        Index ix = from_linear(shape, i);
        for (size_t k = 0; k < regs.size(); ++k)
          f.reg<int64_t>(regs[k])[lane] = ix[k];
      });
    });
    return out;
  }

  Operand form(const ex::Ignore& i, const Exp& e, Code&) {
    Operand out{e.type, {}};
    for (int k = 0; k < i.rank; ++k)
      out.regs.push_back(constant(Scalar::make<int64_t>(-1)).regs[0]);
    return out;
  }

  Operand form(const ex::Trace& t, const Exp&, Code& code) { return exp(*t.arg, code); }

  Operand form(const ex::PrimApp& p, const Exp& e, Code& code) {
    if (p.op == Prim::And || p.op == Prim::Or) return short_circuit(p, e, code);
    Operand a = exp(*p.args[0], code);
    Operand b = p.args.size() > 1 ? exp(*p.args[1], code) : a;
    Operand out = computed(fresh(e.type));
    unsigned constants = (constant_regs_.count(a.regs[0]) ? kFirstConstant : kNoConstant) |
                         (constant_regs_.count(b.regs[0]) ? kSecondConstant : kNoConstant);
    code.instrs.push_back(prim_instr(p.op, a.type.scalar_kind(), a.regs[0], b.regs[0], out.regs[0],
                                     e.loc, constants));
    bool fusable = (p.op == Prim::Add || p.op == Prim::Mul) && p.args.size() == 2 &&
                   constants == kNoConstant && a.type.scalar_kind() != ScalarKind::Bool;
    if (fusable && &code == &fn_.code_)
      last_binary_ =
          LastBinary{ScalarFunction::TailBinary{p.op, a.type.scalar_kind(), a.regs[0], b.regs[0]},
                     fn_.code_.instrs.size() - 1, out.regs[0]};
    return out;
  }

  // (and a b) = (if a b false); (or a b) = (if a true b).
  Operand short_circuit(const ex::PrimApp& p, const Exp& e, Code& code) {
    Operand a = exp(*p.args[0], code);
    Operand out = computed(fresh(e.type));
    auto rhs = std::make_shared<Code>(), fixed = std::make_shared<Code>();
    copy(*rhs, exp(*p.args[1], *rhs), out);
    copy(*fixed, constant(Scalar::make(p.op == Prim::Or)), out);
    code.instrs.push_back(p.op == Prim::And ? branch(a.regs[0], rhs, fixed)
                                            : branch(a.regs[0], fixed, rhs));
    return out;
  }

  // A window read: the neighbour at `offsets` of the element being computed.
  // Interior code (whole window inside) computes positions in one typed pass
  // and gathers (a contiguous copy for a run of consecutive centres); border
  // code applies the boundary per lane.
  Operand form(const ex::Call&, const Exp& e, Code&) { unexpanded_call(e.loc); }

  Operand form(const ex::At& at, const Exp& e, Code& code) {
    if (!window_) throw Error(ErrorKind::Type, e.loc, "`at` outside a stencil");
    Operand out = fresh(e.type);
    int id = window_->array;
    std::vector<ScalarKind> kinds = arrays_type(id).elem().leaves();
    std::vector<GatherFn> gathers = gathers_of(kinds);
    std::vector<size_t> sizes = leaf_sizes(kinds);
    bool interior = window_->interior;
    ac::BoundaryKind kind = window_->boundary.kind;
    std::vector<int64_t> offsets = at.offsets;
    int pos_reg = new_reg();
    code.instrs.push_back([=, regs = out.regs, center = center_,
                           constant = boundary_value_.regs](Frame& f, const Selection& s) {
      const Array& a = f.array(id);
      const Shape& sh = a.shape();
      int64_t* p = f.reg<int64_t>(pos_reg);
      if (interior && f.index_run() && s.is_dense() && s.count > 0) {
        // One run of a row, every window inside: the neighbours are consecutive.
        int64_t first = 0;
        for (size_t k = 0; k < offsets.size(); ++k)
          first = first * sh[k] + f.reg<int64_t>(center[k])[0] + offsets[k];
        load(f, a, regs, gathers, sizes, &first, s, true);
        return;
      }
      f.need_index();
      if (interior) {
        for_each_lane(s, [&](int i) { p[i] = 0; });
        for (size_t k = 0; k < offsets.size(); ++k) {
          const int64_t* c = f.reg<int64_t>(center[k]);
          int64_t n = sh[k], off = offsets[k];
          if (s.is_dense())
            for (int i = 0; i < s.count; ++i)
              p[i] = p[i] * n + c[i] + off;
          else
            for_each_lane(s, [&](int i) { p[i] = p[i] * n + c[i] + off; });
        }
        bool consecutive = s.is_dense() && consecutive_positions(p, s.count);
        load(f, a, regs, gathers, sizes, p, s, consecutive);
        return;
      }
      for (int r : regs) // border lanes are written one by one
        f.own(r);
      bool outside = false;
      for_each_lane(s, [&](int lane) {
        int64_t pos = 0;
        for (size_t k = 0; k < offsets.size(); ++k) {
          int64_t i =
              boundary_coordinate(kind, f.reg<int64_t>(center[k])[lane] + offsets[k], sh[k]);
          if (i < 0) { // outside, with a constant boundary
            pos = -1;
            outside = true;
            break;
          }
          pos = pos * sh[k] + i;
        }
        p[lane] = pos;
      });
      if (!outside) {
        for (size_t l = 0; l < regs.size(); ++l)
          gathers[l](a.leaf(l).data(), p, f.reg<std::byte>(regs[l]), s, false);
        return;
      }
      for (size_t l = 0; l < regs.size(); ++l) {
        const std::byte* data = a.leaf(l).data();
        const std::byte* cst = f.reg<std::byte>(constant[l]);
        std::byte* o = f.reg<std::byte>(regs[l]);
        for_each_lane(s, [&](int lane) {
          if (p[lane] < 0)
            copy_slot(cst, lane, o, lane, sizes[l]);
          else
            copy_slot(data + size_t(p[lane]) * sizes[l], 0, o + size_t(lane) * sizes[l], 0,
                      sizes[l]);
        });
      }
    });
    return out;
  }

  const Type& arrays_type(int id) {
    for (const auto& [name, entry] : arrays_)
      if (entry.first == id) return entry.second;
    throw Error(ErrorKind::Type, "kernel code reads an unknown array (internal error)");
  }
};

ScalarFunction compile_function(const Lambda& f, const ArrayScope& arrays,
                                const std::optional<WindowInfo>& window) {
  ScalarFunction fn;
  ScalarCompiler(fn, arrays, window).compile(f);
  return fn;
}

void run_lanes_in_order(const ScalarFunction& f, Frame& frame, int count, bool head_only) {
  auto run = [&](const Selection& s) { head_only ? f.run_head(frame, s) : f.run(frame, s); };
  try {
    run(Selection::dense(count));
  } catch (const Error&) {
    for (int lane = 0; lane < count; ++lane) {
      uint16_t l = uint16_t(lane);
      run(Selection{&l, 1});
    }
    throw; // unreachable in practice: some lane must fail again
  }
}

} // namespace strata::tbbe
