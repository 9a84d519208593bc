#include "cuda/kernel_gen.h"

#include "core/overload.h"
#include "cuda/prelude.h"
#include "fusion/graph_run.h"

namespace strata::cuda {

std::string KernelGen::run() {
  for (const ManifestArray& a : g_.arrays)
    add_slot(a.type);
  block(g_.body);
  return body_;
}

ArrayId KernelGen::add_slot(const Type& t) {
  out_.slots.push_back(t);
  out_.offsets.push_back(out_.table_words);
  out_.table_words += t.rank() + 1 + int(t.elem().leaves().size());
  return ArrayId(out_.slots.size()) - 1;
}

void KernelGen::block(const Block& b) {
  for_each_kernel(b, [&](const Kernel& k) {
    std::visit(Overload{[&](const kn::Generate& x) { generate(k, x); },
                        [&](const kn::Fold& x) { fold(k, x); },
                        [&](const kn::FoldSeg& x) { foldseg(k, x); },
                        [&](const kn::Scan& x) { scan(k, x); },
                        [&](const kn::Permute& x) { permute(k, x); },
                        [&](const kn::Stencil& x) { stencil(k, x); },
                        [&](const kn::Loop&) {}, // its blocks: for_each_kernel
                        [&](const kn::Branch& x) { closed(x.cond); }},
               k.body);
  });
}

void KernelGen::check_rank(int r, const SrcLoc& loc) {
  if (r > kMaxRank)
    throw Error(ErrorKind::Type, loc,
                "the cuda engine supports arrays of rank up to " + std::to_string(kMaxRank));
}

void KernelGen::begin(const std::string& name) {
  body_ += "static __host__ __device__ void " + name +
           "(const i64* T, SErr* E, i64 diag, SLP p, i64 t) {\n"
           "  SCtx c = {T, E, diag, t, false};\n"
           "  (void)p;\n";
  out_.entries.push_back(name);
}

void KernelGen::end(const std::string& name, std::string& code) {
  body_ += code;
  body_ += "}\nS_ENTRY(" + name + ")\n\n";
  code.clear();
}

Val KernelGen::index_of(ScalarGen& s, const std::string& pos, int base, int rank) {
  Val ix{Type::index(rank), std::vector<std::string>(size_t(rank))};
  std::string rest = s.var(ScalarKind::I64, pos);
  for (int k = rank - 1; k >= 0; --k) {
    std::string n = word(base + k);
    ix.leaves[size_t(k)] = s.var(ScalarKind::I64, n + " > 0 ? " + rest + " % " + n + " : 0");
    s.line(rest + " = " + n + " > 0 ? " + rest + " / " + n + " : 0;");
  }
  return ix;
}

void KernelGen::delayed(const Delayed& d, const SrcLoc& loc) {
  check_rank(d.type.rank(), loc);
  closed(d.shape);
  for (const Check& c : d.checks) {
    closed(c.a);
    if (c.b) closed(c.b);
  }
}

void KernelGen::closed(const ExpPtr& e, bool value) {
  if (!e || out_.closed.count(e.get())) return;
  std::string name = out_.prefix + "_c" + std::to_string(out_.closed.size());
  out_.closed[e.get()] = name;
  std::string code;
  begin(name);
  ScalarGen s(g_, out_, code, 1);
  Val v = s.exp(*e);
  for (size_t l = 0; l < v.leaves.size(); ++l)
    s.line("((i64*)(uptr)S_OUT_WORDS)[" + std::to_string(l) +
           "] = " + (value ? "(i64)" + v.leaves[l] : "0; (void)" + v.leaves[l]) + ";");
  end(name, code);
}

KernelEntries& KernelGen::entries(const Kernel& k) {
  KernelEntries& e = out_.kernels[k.id];
  e.prefix = out_.prefix + "_k" + std::to_string(k.id);
  return e;
}

void KernelGen::lanes_entry(const Kernel& k, const Reduce& r, ArrayId lanes) {
  std::string name = entry_name(k, "lanes"), code;
  begin(name);
  ScalarGen s(g_, out_, code, 1);
  s.line("i64 Ls = S_LANE_SLOTS, lane = t % Ls, rc = t / Ls;");
  s.line("i64 row = rc / S_CHUNKS, chunk = rc % S_CHUNKS, lo = chunk * S_CHUNK;");
  s.line("i64 hi = lo + S_CHUNK < S_N ? lo + S_CHUNK : S_N;");
  s.line("i64 base = row * S_N;");
  s.line("if (lo + lane >= hi) return;");
  if (r.scan) {
    // The interpreter builds a fused producer whole before scanning: read
    // the last chunk too, so that its element errors come before combining ones.
    s.open("if (chunk == S_CHUNKS - 1) {");
    s.open("for (i64 j = lo + lane; j < hi && !c.failed; j += Ls) {");
    s.line("c.key = base + " + r.phys("j") + ";");
    element(s, r.input, "base + " + r.phys("j"), words::row_shape);
    s.close();
    s.line("return;");
    s.close();
  }
  s.line("i64 j = lo + lane;");
  s.line("c.key = base + " + r.phys("j") + ";");
  Val acc = s.copy(element(s, r.input, "base + " + r.phys("j"), words::row_shape));
  s.open("for (j = lo + lane + Ls; j < hi && !c.failed; j += Ls) {");
  s.line("c.key = base + " + r.phys("j") + ";");
  Val e = element(s, r.input, "base + " + r.phys("j"), words::row_shape);
  s.line(std::string("c.key = base + j") + kCombineKey + ";");
  s.assign(acc, s.copy(r.g(s, acc, e)));
  s.close();
  s.store(lanes, "t", acc);
  end(name, code);
}

void KernelGen::tree_entry(const Kernel& k, const Reduce& r, ArrayId lanes) {
  std::string name = entry_name(k, "tree"), code;
  begin(name);
  ScalarGen s(g_, out_, code, 1);
  s.line("i64 Ls = S_LANE_SLOTS, row = t / S_CHUNKS, chunk = t % S_CHUNKS, lo = chunk * S_CHUNK;");
  s.line("i64 hi = lo + S_CHUNK < S_N ? lo + S_CHUNK : S_N;");
  if (r.scan) s.line("if (chunk == S_CHUNKS - 1) return;");
  s.line("i64 at = t * Ls, count = hi - lo < Ls ? hi - lo : Ls;");
  s.line(std::string("c.key = row * S_N + lo") + kCombineKey + ";");
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
