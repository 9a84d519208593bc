// Kernel graph -> entries (codegen.h). Launch parameters (SLP::v) per kernel:
//   generate, stencil: v[0..R) the shape; t = element.
//   fold, scans, foldseg: v[0] rows, v[1] n (innermost extent), v[2] chunk
//     length C, v[3] chunks per row K (foldseg: v[2] number of segments),
//     v[4..4+R) the input shape, v[12] lane slots per chunk Ls.
//   permute: v[0..Rd) destination shape, v[8..8+Rs) source shape, v[16]
//     source size.
//   closed expressions: v[0] the address of the i64 words to write.
// The association order of folds and scans (core/reduction_order.h) is in
// the launch parameters only (C, K, Ls; the executor picks them from
// CompileOptions::order), so one generated kernel serves every order.
// Order keys (which error of a launch is reported): the row-major position
// of the element computed; combining steps add 2^62 to their scan-order
// position so element errors come first, as the interpreter builds a fused
// producer's array before folding it.
#include <functional>
#include <set>

#include "core/overload.h"
#include "cuda/codegen_scalar.h"
#include "cuda/prelude.h"

namespace strata::cuda {

namespace {

constexpr const char* kCombineKey = " + 4611686018427387904ll"; // 2^62

class KernelGen {
public:
  KernelGen(const KernelGraph& g, Generated& out) : g_(g), out_(out) {}

  std::string run() {
    for (const ManifestArray& a : g_.arrays)
      add_slot(a.type);
    block(g_.body);
    return body_;
  }

private:
  const KernelGraph& g_;
  Generated& out_;
  std::string body_;

  ArrayId add_slot(const Type& t) {
    out_.slots.push_back(t);
    out_.offsets.push_back(out_.table_words);
    out_.table_words += t.rank() + 1 + int(t.elem().leaves().size());
    return ArrayId(out_.slots.size()) - 1;
  }

  void block(const Block& b) {
    for (const Kernel& k : b)
      std::visit(Overload{[&](const kn::Generate& x) { generate(k, x); },
                          [&](const kn::Fold& x) { fold(k, x); },
                          [&](const kn::FoldSeg& x) { foldseg(k, x); },
                          [&](const kn::Scan& x) { scan(k, x); },
                          [&](const kn::Permute& x) { permute(k, x); },
                          [&](const kn::Stencil& x) { stencil(k, x); },
                          [&](const kn::Loop& x) {
                            block(x.cond);
                            block(x.body);
                          },
                          [&](const kn::Branch& x) {
                            closed(x.cond);
                            block(x.then_block);
                            block(x.else_block);
                          }},
                 k.body);
  }

  static void check_rank(int r, const SrcLoc& loc) {
    if (r > kMaxRank)
      throw Error(ErrorKind::Type, loc,
                  "the cuda engine supports arrays of rank up to " + std::to_string(kMaxRank));
  }

  // ---- entries
  std::string entry_name(const Kernel& k, const std::string& phase) {
    return out_.prefix + "_k" + std::to_string(k.id) + "_" + phase;
  }

  // Opens an entry function; the caller fills it through `s` and calls end().
  void begin(const std::string& name) {
    body_ += "static __host__ __device__ void " + name +
             "(const i64* T, SErr* E, i64 diag, SLP p, i64 t) {\n"
             "  SCtx c = {T, E, diag, t, false};\n"
             "  (void)p;\n";
    out_.entries.push_back(name);
  }
  void end(const std::string& name, std::string& code) {
    body_ += code;
    body_ += "}\nS_ENTRY(" + name + ")\n\n";
    code.clear();
  }

  // The index of position `pos` in the shape held in p.v[base..base+rank).
  static Val index_of(ScalarGen& s, const std::string& pos, int base, int rank) {
    Val ix{Type::index(rank), std::vector<std::string>(size_t(rank))};
    std::string rest = s.var(ScalarKind::I64, pos);
    for (int k = rank - 1; k >= 0; --k) {
      std::string n = "p.v[" + std::to_string(base + k) + "]";
      ix.leaves[size_t(k)] = s.var(ScalarKind::I64, n + " > 0 ? " + rest + " % " + n + " : 0");
      s.line(rest + " = " + n + " > 0 ? " + rest + " / " + n + " : 0;");
    }
    return ix;
  }

  static Val element(ScalarGen& s, const Delayed& d, const std::string& pos, int base) {
    return s.apply(d.elem, {index_of(s, pos, base, d.type.rank())});
  }

  void delayed(const Delayed& d, const SrcLoc& loc) {
    check_rank(d.type.rank(), loc);
    closed(d.shape);
    for (const Check& c : d.checks) {
      closed(c.a);
      if (c.b) closed(c.b);
    }
  }

  // `value`: write the leaves as i64 words (shapes, checks, conditions);
  // without it the expression is evaluated for its errors only (a seed, whose
  // float leaves must not be converted to i64) and the words are zero.
  void closed(const ExpPtr& e, bool value = true) {
    if (!e || out_.closed.count(e.get())) return;
    std::string name = out_.prefix + "_c" + std::to_string(out_.closed.size());
    out_.closed[e.get()] = name;
    std::string code;
    begin(name);
    ScalarGen s(g_, out_, code, 1);
    Val v = s.exp(*e);
    for (size_t l = 0; l < v.leaves.size(); ++l)
      s.line("((i64*)(uptr)p.v[0])[" + std::to_string(l) +
             "] = " + (value ? "(i64)" + v.leaves[l] : "0; (void)" + v.leaves[l]) + ";");
    end(name, code);
  }

  KernelEntries& entries(const Kernel& k) {
    KernelEntries& e = out_.kernels[k.id];
    e.prefix = out_.prefix + "_k" + std::to_string(k.id);
    return e;
  }

  // ---- generate
  void generate(const Kernel& k, const kn::Generate& x) {
    delayed(x.body, k.ops.back().loc);
    entries(k);
    std::string name = entry_name(k, "elem"), code;
    begin(name);
    ScalarGen s(g_, out_, code, 1);
    Val v = element(s, x.body, "t", 0);
    s.store(k.outputs[0], "t", v);
    end(name, code);
  }

  // ---- lanes and chunk totals (core/reduction_order.h), shared by folds and scans.
  // Row r's chunk i of C elements (p.v[2]) starts at scan-order position
  // i * C; p.v[12] = Ls = min(lanes, C) lane slots per chunk in `lanes`.
  // `x(q)` is the element at scan-order position q, `phys(q)` its position
  // in the row; `g` combines (acc, x).
  struct Reduce {
    const Delayed& input;
    std::function<std::string(const std::string&)> phys;
    std::function<Val(ScalarGen&, const Val&, const Val&)> g;
    bool scan = false; // the last chunk of a scan row has no total (its elements are only read)
  };

  // lanes: work item ((row, chunk), lane k) folds the chunk's elements k,
  // k + Ls, k + 2 Ls, ... in order into lanes[t] (consecutive lanes read
  // consecutive elements).
  void lanes_entry(const Kernel& k, const Reduce& r, ArrayId lanes) {
    std::string name = entry_name(k, "lanes"), code;
    begin(name);
    ScalarGen s(g_, out_, code, 1);
    s.line("i64 Ls = p.v[12], lane = t % Ls, rc = t / Ls;");
    s.line("i64 row = rc / p.v[3], chunk = rc % p.v[3], lo = chunk * p.v[2];");
    s.line("i64 hi = lo + p.v[2] < p.v[1] ? lo + p.v[2] : p.v[1];");
    s.line("i64 base = row * p.v[1];");
    s.line("if (lo + lane >= hi) return;");
    if (r.scan) {
      // The interpreter builds a fused producer whole before scanning: read
      // the last chunk too, so that its element errors come before combining ones.
      s.open("if (chunk == p.v[3] - 1) {");
      s.open("for (i64 j = lo + lane; j < hi && !c.failed; j += Ls) {");
      s.line("c.key = base + " + r.phys("j") + ";");
      element(s, r.input, "base + " + r.phys("j"), 4);
      s.close();
      s.line("return;");
      s.close();
    }
    s.line("i64 j = lo + lane;");
    s.line("c.key = base + " + r.phys("j") + ";");
    Val acc = s.copy(element(s, r.input, "base + " + r.phys("j"), 4));
    s.open("for (j = lo + lane + Ls; j < hi && !c.failed; j += Ls) {");
    s.line("c.key = base + " + r.phys("j") + ";");
    Val e = element(s, r.input, "base + " + r.phys("j"), 4);
    s.line(std::string("c.key = base + j") + kCombineKey + ";");
    s.assign(acc, s.copy(r.g(s, acc, e)));
    s.close();
    s.store(lanes, "t", acc);
    end(name, code);
  }

  // tree: work item (row, chunk) folds its used = min(Ls, chunk length)
  // lanes by halves, an odd middle lane waiting a level; the total is left
  // in the chunk's first lane slot. In place: a diagnosing launch replays `lanes` first.
  void tree_entry(const Kernel& k, const Reduce& r, ArrayId lanes) {
    std::string name = entry_name(k, "tree"), code;
    begin(name);
    ScalarGen s(g_, out_, code, 1);
    s.line("i64 Ls = p.v[12], row = t / p.v[3], chunk = t % p.v[3], lo = chunk * p.v[2];");
    s.line("i64 hi = lo + p.v[2] < p.v[1] ? lo + p.v[2] : p.v[1];");
    if (r.scan) s.line("if (chunk == p.v[3] - 1) return;");
    s.line("i64 at = t * Ls, count = hi - lo < Ls ? hi - lo : Ls;");
    s.line(std::string("c.key = row * p.v[1] + lo") + kCombineKey + ";");
    s.open("while (count > 1 && !c.failed) {");
    s.line("i64 half = count / 2, rest = count - half;");
    s.open("for (i64 l = 0; l < half && !c.failed; ++l) {");
    Val a = s.load(lanes, "at + l"), b = s.load(lanes, "at + rest + l");
    s.store(lanes, "at + l", r.g(s, a, b));
    s.close();
    s.line("count = rest;");
    s.close();
    end(name, code);
  }

  // ---- fold, fold1
  void fold(const Kernel& k, const kn::Fold& x) {
    const SrcLoc& loc = k.ops.back().loc;
    delayed(x.input, loc);
    closed(x.seed, false); // evaluated first by the executor when rows are chunked
    check_rank(x.input.type.rank() + 1, loc);
    KernelEntries& ke = entries(k);
    ArrayId lanes = add_slot(Type::array(x.input.type.elem(), 1));
    ke.scratch = {lanes};
    ArrayId out = k.outputs[0];
    std::string code;
    // rows: one work item per row, left to right
    {
      std::string name = entry_name(k, "rows");
      begin(name);
      ScalarGen s(g_, out_, code, 1);
      s.line("i64 base = t * p.v[1];");
      s.line("c.key = base;");
      Val acc;
      std::string first = "0";
      if (x.seed) {
        acc = s.copy(s.exp(*x.seed));
      } else {
        acc = s.copy(element(s, x.input, "base", 4));
        first = "1";
      }
      s.open("for (i64 j = " + first + "; j < p.v[1] && !c.failed; ++j) {");
      s.line("c.key = base + j;");
      Val e = element(s, x.input, "base + j", 4);
      s.line(std::string("c.key = base + j") + kCombineKey + ";");
      s.assign(acc, s.copy(s.apply(x.f, {acc, e})));
      s.close();
      s.store(out, "t", acc);
      end(name, code);
    }
    Reduce r{x.input, [](const std::string& q) { return q; },
             [&](ScalarGen& s, const Val& a, const Val& e) {
               return s.apply(x.f, {a, e});
             }};
    lanes_entry(k, r, lanes);
    tree_entry(k, r, lanes);
    // finish: work item per row combines its chunk totals in order, from the seed
    {
      std::string name = entry_name(k, "finish");
      begin(name);
      ScalarGen s(g_, out_, code, 1);
      s.line("i64 base = t * p.v[3];");
      s.line(std::string("c.key = t * p.v[1]") + kCombineKey + ";");
      Val acc;
      std::string first = "0";
      if (x.seed) {
        acc = s.copy(s.exp(*x.seed));
      } else {
        acc = s.copy(s.load(lanes, "base * p.v[12]"));
        first = "1";
      }
      s.open("for (i64 j = " + first + "; j < p.v[3] && !c.failed; ++j) {");
      s.line(std::string("c.key = t * p.v[1] + j * p.v[2]") + kCombineKey + ";");
      Val e = s.load(lanes, "(base + j) * p.v[12]");
      s.assign(acc, s.copy(s.apply(x.f, {acc, e})));
      s.close();
      s.store(out, "t", acc);
      end(name, code);
    }
  }

  // ---- foldseg
  void foldseg(const Kernel& k, const kn::FoldSeg& x) {
    const SrcLoc& loc = k.ops.back().loc;
    delayed(x.input, loc);
    KernelEntries& ke = entries(k);
    ArrayId offsets = add_slot(Type::array(Type::scalar(ScalarKind::I64), 1));
    ArrayId status = add_slot(Type::array(Type::scalar(ScalarKind::I64), 1));
    ke.scratch = {offsets, status};
    std::string code;
    {
      std::string name = entry_name(k, "prep");
      begin(name);
      ScalarGen s(g_, out_, code, 1);
      std::string len = s.leaf_ptr(x.segs, 0), off = s.leaf_ptr(offsets, 0);
      std::string st = s.leaf_ptr(status, 0);
      s.line("i64 total = 0, bad = -1, bad_len = 0;");
      s.open("for (i64 j = 0; j < p.v[2]; ++j) {");
      s.line("i64 l = " + len + "[j];");
      s.line("if (l < 0 && bad < 0) { bad = j; bad_len = l; }");
      s.line(off + "[j] = total;");
      s.line("if (total >= 0 && l >= 0 && total <= 9223372036854775807ll - l) total += l;");
      s.line("else total = -1;");
      s.close();
      s.line(st + "[0] = bad; " + st + "[1] = bad_len; " + st + "[2] = total;");
      end(name, code);
    }
    {
      std::string name = entry_name(k, "segs");
      begin(name);
      ScalarGen s(g_, out_, code, 1);
      s.line("i64 row = t / p.v[2], seg = t % p.v[2];");
      s.line("i64 lo = " + s.leaf_ptr(offsets, 0) + "[seg], hi = lo + " + s.leaf_ptr(x.segs, 0) +
             "[seg];");
      s.line("i64 base = row * p.v[1];");
      s.line(std::string("c.key = base + lo") + kCombineKey + ";");
      Val acc = s.copy(s.exp(*x.seed));
      s.open("for (i64 j = lo; j < hi && !c.failed; ++j) {");
      s.line("c.key = base + j;");
      Val e = element(s, x.input, "base + j", 4);
      s.line(std::string("c.key = base + j") + kCombineKey + ";");
      s.assign(acc, s.copy(s.apply(x.f, {acc, e})));
      s.close();
      s.store(k.outputs[0], "t", acc);
      end(name, code);
    }
  }

  // ---- scans: chunk totals by the lane tree, carries per row, then every
  // chunk scanned from its carry (p.v[3] == 1: the row from the seed)
  void scan(const Kernel& k, const kn::Scan& x) {
    const SrcLoc& loc = k.ops.back().loc;
    delayed(x.input, loc);
    closed(x.seed, false); // evaluated first by the executor when rows are chunked
    check_rank(x.input.type.rank() + 1, loc);
    KernelEntries& ke = entries(k);
    const Type& elem = x.input.type.elem();
    ArrayId lanes = add_slot(Type::array(elem, 1));
    ArrayId carry = add_slot(Type::array(elem, 1));
    ke.scratch = {lanes, carry};
    bool right = x.kind == ac::ScanKind::Scanr || x.kind == ac::ScanKind::Scanr1;
    bool seeded = x.seed != nullptr;
    // physical position of scan-order position j
    auto phys = [right](const std::string& j) { return right ? "(p.v[1] - 1 - " + j + ")" : j; };
    auto combine = [&](ScalarGen& s, const Val& acc, const Val& e) {
      return right ? s.apply(x.f, {e, acc}) : s.apply(x.f, {acc, e});
    };
    Reduce r{x.input, phys, combine, true};
    lanes_entry(k, r, lanes);
    tree_entry(k, r, lanes);
    std::string code;
    {
      std::string name = entry_name(k, "carry");
      begin(name);
      ScalarGen s(g_, out_, code, 1);
      s.line("i64 base = t * p.v[3];");
      s.line(std::string("c.key = t * p.v[1]") + kCombineKey + ";");
      Val acc;
      if (seeded) {
        acc = s.copy(s.exp(*x.seed));
        s.open("for (i64 j = 1; j < p.v[3] && !c.failed; ++j) {");
        s.assign(acc, s.copy(combine(s, acc, s.load(lanes, "(base + j - 1) * p.v[12]"))));
      } else {
        acc = s.copy(s.load(lanes, "base * p.v[12]"));
        s.store(carry, "base + 1", acc);
        s.open("for (i64 j = 2; j < p.v[3] && !c.failed; ++j) {");
        s.assign(acc, s.copy(combine(s, acc, s.load(lanes, "(base + j - 1) * p.v[12]"))));
      }
      s.store(carry, "base + j", acc);
      s.close();
      end(name, code);
    }
    {
      std::string name = entry_name(k, "scan");
      begin(name);
      ScalarGen s(g_, out_, code, 1);
      ArrayId out = k.outputs[0];
      s.line("i64 row = t / p.v[3], chunk = t % p.v[3], lo = chunk * p.v[2];");
      s.line("i64 hi = lo + p.v[2] < p.v[1] ? lo + p.v[2] : p.v[1];");
      s.line("i64 base = row * p.v[1], n = p.v[1];");
      s.line("(void)n;");
      s.line(std::string("c.key = base + lo") + kCombineKey + ";");
      Val acc{elem, {}};
      for (ScalarKind kd : elem.leaves())
        acc.leaves.push_back(s.var(kd, "(" + c_type(kd) + ")0"));
      s.line("bool have = chunk > 0;");
      s.open("if (chunk > 0) {");
      s.assign(acc, s.load(carry, "t"));
      if (seeded) {
        s.otherwise();
        s.assign(acc, s.exp(*x.seed));
        s.line("have = true;");
        // the seed's own slot
        if (x.kind == ac::ScanKind::Scanl) s.store(out, "row * (n + 1)", acc);
        if (x.kind == ac::ScanKind::Scanr) s.store(out, "row * (n + 1) + n", acc);
        if (x.kind == ac::ScanKind::ScanlPrime) {
          s.open("if (n > 0) {");
          s.store(out, "base", acc);
          s.close();
        }
      }
      s.close();
      s.open("for (i64 j = lo; j < hi && !c.failed; ++j) {");
      s.line("c.key = base + " + phys("j") + ";");
      Val e = element(s, x.input, "base + " + phys("j"), 4);
      s.line(std::string("c.key = base + j") + kCombineKey + ";");
      s.open("if (have) {");
      s.assign(acc, s.copy(combine(s, acc, e)));
      s.otherwise();
      s.assign(acc, e);
      s.line("have = true;");
      s.close();
      switch (x.kind) {
      case ac::ScanKind::Scanl: s.store(out, "row * (n + 1) + j + 1", acc); break;
      case ac::ScanKind::Scanl1: s.store(out, "base + j", acc); break;
      case ac::ScanKind::Scanr: s.store(out, "row * (n + 1) + (n - 1 - j)", acc); break;
      case ac::ScanKind::Scanr1: s.store(out, "base + (n - 1 - j)", acc); break;
      case ac::ScanKind::ScanlPrime: // the accumulator after position j, as the interpreter
        s.open("if (j + 1 < n) {");
        s.store(out, "base + j + 1", acc);
        s.close();
        break;
      }
      s.close();
      if (x.kind == ac::ScanKind::ScanlPrime) {
        s.open("if (chunk == p.v[3] - 1) {");
        s.store(k.outputs[1], "row", acc);
        s.close();
      }
      end(name, code);
    }
  }

  // ---- permute: defaults, then targets and values in parallel, then one
  // work item combines in source order (deterministic for any combiner)
  void permute(const Kernel& k, const kn::Permute& x) {
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
      s.store(out, "t", element(s, x.defaults, "t", 0));
      end(name, code);
    }
    {
      std::string name = entry_name(k, "source");
      begin(name);
      ScalarGen s(g_, out_, code, 1);
      Val ix = index_of(s, "t", 8, rs);
      Val tgt = s.apply(x.target, {ix});
      std::string pos = s.var(ScalarKind::I64, "0"),
                  ignored = s.var(ScalarKind::Bool, rd > 0 ? "true" : "false");
      std::string ok = s.var(ScalarKind::Bool, "true");
      for (int d = 0; d < rd; ++d) {
        const std::string& i = tgt.leaves[size_t(d)];
        std::string n = "p.v[" + std::to_string(d) + "]";
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
      s.line(s.leaf_ptr(targets, 0) + "[t] = " + ignored + " || !" + ok + " ? -1 : " + pos + ";");
      s.store(values, "t", s.apply(x.source.elem, {ix}));
      end(name, code);
    }
    {
      std::string name = entry_name(k, "combine");
      begin(name);
      ScalarGen s(g_, out_, code, 1);
      s.open("for (i64 i = 0; i < p.v[16] && !c.failed; ++i) {");
      s.line("i64 at = " + s.leaf_ptr(targets, 0) + "[i];");
      s.line("if (at < 0) continue;");
      s.line(std::string("c.key = i") + kCombineKey + ";");
      Val old_v = s.load(out, "at"), new_v = s.load(values, "i");
      s.store(out, "at", s.apply(x.combine, {new_v, old_v}));
      s.close();
      end(name, code);
    }
  }

  // ---- stencil
  void stencil(const Kernel& k, const kn::Stencil& x) {
    check_rank(int(x.window.size()), k.ops.back().loc);
    entries(k);
    std::string name = entry_name(k, "elem"), code;
    begin(name);
    ScalarGen s(g_, out_, code, 1);
    int rank = int(x.window.size());
    WindowGen w;
    w.name = x.f.params[0].name;
    w.center = index_of(s, "t", 0, rank).leaves;
    w.array = x.input;
    switch (x.boundary.kind) {
    case ac::BoundaryKind::Clamp: w.boundary = 0; break;
    case ac::BoundaryKind::Mirror: w.boundary = 1; break;
    case ac::BoundaryKind::Wrap: w.boundary = 2; break;
    case ac::BoundaryKind::Constant:
      w.boundary = 3;
      w.constant = s.exp(*x.boundary.constant);
      break;
    }
    s.window = w;
    Val v = s.apply(x.f, {Val{x.f.params[0].type, {}}});
    s.store(k.outputs[0], "t", v);
    end(name, code);
  }
};

} // namespace

Generated generate(const KernelGraph& g, const std::string& prefix) {
  Generated out;
  out.prefix = prefix;
  std::string body = KernelGen(g, out).run();
  out.source = std::string(prelude());
  out.source += "\n// ---- program " + prefix + "\n";
  out.source += body;
  return out;
}

std::string without_prelude(const Generated& code) {
  return code.source.substr(prelude().size());
}

} // namespace strata::cuda
