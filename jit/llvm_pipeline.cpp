#include "jit/llvm_pipeline.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/StandardInstrumentations.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/Utils/InjectTLIMappings.h>

#include "core/environment.h"

namespace strata::jit {
namespace {

// The pass pipeline of every kernel (docs/jit.md "Compile latency"): the
// function passes of O3 that these kernels need, one function at a time.
// Left out of O3: the module and CGSCC passes (kernel functions call nothing
// but libm: nothing to inline, no attributes worth inferring), SROA and
// mem2reg (the generated IR has no allocas), passes for code we never
// generate (coroutines, memcpy/DSE, speculative execution, control height
// reduction, loop distribution), the second runs of jump threading and value
// propagation, two of instcombine's seven runs, the partial/runtime unroller
// (it unrolled the scalar remainder of vectorised loops: more code to select
// instructions for, no faster), and loop load elimination and the first loop
// deletion, which changed the object code of none of 1576 kernel modules (the
// compile bench's and 150 fuzzed programs', docs/jit.md "Passes that change
// nothing"): a kernel's loops never read what an earlier iteration stored
// (outputs are never read back, accumulators live in registers) and always
// store. Kept: loop rotation, LICM, trivial and
// non-trivial unswitching (a row fold's invariant checks), indvars, loop
// idiom, full unrolling of constant-trip loops, GVN, the loop and SLP
// vectorisers, instcombine/simplifycfg around them. simplifycfg never sinks or
// hoists common instructions: sinking merged the failing checks' exits of a
// nested fold loop, after which the loop vectoriser could not count the
// inner loop's iterations. A part runs the loop and SLP vectorisers that
// `v` names (KernelBuilder::mod).
std::string kernel_pipeline(Vectorisers v) {
  const std::string sc = "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;"
                         "switch-range-to-icmp;no-switch-to-lookup;keep-loops;"
                         "no-hoist-common-insts;no-sink-common-insts;speculate-blocks;"
                         "simplify-cond-branch;no-speculate-unpredictables>";
  const std::string ic = "instcombine<max-iterations=1;no-use-loop-info;no-verify-fixpoint>";
  const std::string rotate = "loop-rotate<header-duplication;no-prepare-for-lto>";
  return "function(early-cse<memssa>," + sc + "," + ic +
         ",jump-threading,correlated-propagation,constraint-elimination,"
         "loop-mssa(loop-instsimplify,loop-simplifycfg,licm<no-allowspeculation>," +
         rotate + ",licm<allowspeculation>,simple-loop-unswitch<nontrivial;trivial>)," + sc + "," +
         ic + ",loop(loop-idiom,indvars,loop-unroll-full),gvn<>,sccp," + ic +
         ",adce,loop-mssa(licm<allowspeculation>)," + sc + ",loop(" + rotate + ",loop-deletion)," +
         (v.loops ? "loop-vectorize<no-interleave-forced-only;no-vectorize-forced-only;>,"
                    "infer-alignment,"
                  : "") +
         ic + "," + sc + (v.straight_line ? ",slp-vectorizer" : "") + ",vector-combine," + ic +
         ",loop-mssa(licm<allowspeculation>)," + sc + ")";
}

// LLVM options (process-wide, set once before the first compile) that give
// less code for the same vector loops, measured in docs/jit.md:
// - no vectorised epilogue after a vector loop: the scalar remainder runs
//   fewer than VF * interleave iterations per row or chunk;
// - no "injected" unswitching conditions (a copy of a row fold per order of
//   two extents);
// - non-trivial unswitching only of loops half the size LLVM's default
//   allows (unswitch-threshold 25, not 50): the checks that unswitching takes
//   out of a map's row loop or a fold's rows still go, and with them the
//   vectoriser still takes every loop it took (all the examples' kernels), but
//   a fold's chunk of tuples (n-body) or its contraction loops (matmul) are
//   no longer copied once per invariant check (a fifth and a seventh of their
//   compile);
// - no loop strength reduction in code generation (a third of instruction
//   selection and emission time here; run times unchanged on every bench
//   workload: x86 addressing takes base + index * scale as it is).
constexpr const char* kLlvmOptions[][2] = {
    {"enable-epilogue-vectorization", "false"},
    {"simple-loop-unswitch-inject-invariant-conditions", "false"},
    {"unswitch-threshold", "25"},
    {"disable-lsr", "true"},
};

// kLlvmOptions as command-line options (" -name=value ...").
std::string llvm_options_text() {
  std::string text;
  for (const auto& [name, value] : kLlvmOptions)
    text += std::string(" -") + name + "=" + value;
  return text;
}

// Sets kLlvmOptions unless the program already set them; says which it set.
std::string set_llvm_options() {
  std::string applied;
  llvm::StringMap<llvm::cl::Option*>& registered = llvm::cl::getRegisteredOptions();
  for (const auto& [name, value] : kLlvmOptions) {
    auto it = registered.find(name);
    if (it == registered.end() || it->second->getNumOccurrences() > 0) continue;
    if (!it->second->addOccurrence(0, name, value))
      applied += std::string(" ") + name + "=" + value;
  }
  return applied;
}

// STRATA_JIT_VECLIB=libmvec (docs/jit.md "Vector math library"): what clang's
// -fveclib=libmvec gives the TargetLibraryInfo, so that the loop vectoriser may
// call glibc's vector variants (_ZGV...) of the functions LLVM maps (exp log
// sin cos tan pow, f32 and f64). The generated calls are `nobuiltin` (LLVM
// must not rewrite them: jit/prim_emit.cpp), which also hides them from the
// vectoriser; the mapped ones lose it here, and those functions are
// unavailable to the TargetLibraryInfo instead, so that LLVM still neither
// folds nor rewrites them (`pow(2, x)` -> `exp2(x)`, `sin(-x)` -> `-sin(x)`,
// constant arguments): only the vector variants differ from the interpreter.
//
// On a target with AVX-512 the same functions' AVX-512 variants (_ZGVe: 16 x
// f32, 8 x f64, in glibc since 2.22, tan since 2.35) are added too: LLVM 19's
// list has only the SSE and AVX2 ones. glibc's libm-test-ulps gives them the
// same bounds (at most 3 ulps from the correctly rounded result: logf and
// powf 3, sin cos tan f64 2, the rest 1), so the 4-ulp contract holds.
void use_libmvec(llvm::Module& m, llvm::TargetLibraryInfoImpl& tlii, bool avx512) {
  tlii.addVectorizableFunctionsFromVecLib(llvm::TargetLibraryInfoImpl::LIBMVEC_X86,
                                          llvm::Triple(m.getTargetTriple()));
  if (avx512) {
    struct Variant {
      const char *scalar, *vector;
      unsigned lanes;
      const char* abi;
    };
    static const Variant variants[] = {
        {"expf", "_ZGVeN16v_expf", 16, "_ZGV_LLVM_N16v"},
        {"logf", "_ZGVeN16v_logf", 16, "_ZGV_LLVM_N16v"},
        {"sinf", "_ZGVeN16v_sinf", 16, "_ZGV_LLVM_N16v"},
        {"cosf", "_ZGVeN16v_cosf", 16, "_ZGV_LLVM_N16v"},
        {"tanf", "_ZGVeN16v_tanf", 16, "_ZGV_LLVM_N16v"},
        {"powf", "_ZGVeN16vv_powf", 16, "_ZGV_LLVM_N16vv"},
        {"exp", "_ZGVeN8v_exp", 8, "_ZGV_LLVM_N8v"},
        {"log", "_ZGVeN8v_log", 8, "_ZGV_LLVM_N8v"},
        {"sin", "_ZGVeN8v_sin", 8, "_ZGV_LLVM_N8v"},
        {"cos", "_ZGVeN8v_cos", 8, "_ZGV_LLVM_N8v"},
        {"tan", "_ZGVeN8v_tan", 8, "_ZGV_LLVM_N8v"},
        {"pow", "_ZGVeN8vv_pow", 8, "_ZGV_LLVM_N8vv"},
    };
    std::vector<llvm::VecDesc> descs;
    for (const Variant& v : variants)
      descs.emplace_back(v.scalar, v.vector, llvm::ElementCount::getFixed(v.lanes), false, v.abi);
    tlii.addVectorizableFunctions(descs);
  }
  for (llvm::Function& f : m) {
    if (!f.isDeclaration() || !tlii.isFunctionVectorizable(f.getName())) continue;
    llvm::LibFunc lib;
    if (tlii.getLibFunc(f.getName(), lib)) tlii.setUnavailable(lib);
    for (llvm::User* user : f.users()) {
      auto* call = llvm::dyn_cast<llvm::CallInst>(user);
      if (!call) continue;
      call->removeFnAttr(llvm::Attribute::NoBuiltin);
      // The target's tuning prefers 256-bit vectors (x86 CPUs from Skylake-X
      // on), which would keep such loops at the AVX2 variants, 8 x f32: a
      // function that calls a mapped library function prefers 512 bits, so
      // that its loops call the AVX-512 ones (blackscholes: 1.3x -> 1.15x of
      // the fast-math anchor, which runs 16 lanes too; docs/jit.md).
      if (avx512) call->getFunction()->addFnAttr("prefer-vector-width", "512");
    }
  }
}

// STRATA_JIT_DUMP=DIR: the IR of every module compiled (a miss) as
// DIR/<name>.ll after the pass pipeline, to check what the vectoriser did,
// and as DIR/<name>.in.ll before it (what `opt -passes=...` can be run on to
// time or change the pipeline: its `header` comment lines say which pipeline,
// LLVM options and target, scripts/jit-pipeline-passes reads them). DIR is
// made if missing; a dump that cannot be written is skipped (it is a
// debugging aid, never a reason to fail).
void dump(const llvm::Module& m, const std::string& name, const char* suffix,
          const std::string& header = "") {
  std::optional<std::string> dir = environment_dir("STRATA_JIT_DUMP");
  if (!dir) return;
  std::error_code ec;
  std::filesystem::create_directories(*dir, ec);
  std::string file = name.empty() ? m.getModuleIdentifier() : name;
  llvm::raw_fd_ostream os(*dir + "/" + file + suffix, ec);
  if (ec) return;
  os << header;
  m.print(os, nullptr);
}

} // namespace

std::string llvm_error_text(llvm::Error e) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << e;
  return os.str();
}

Pipeline Pipeline::from_environment() {
  Pipeline p;
  p.veclib = parse_veclib(environment_word("STRATA_JIT_VECLIB").value_or("").c_str());
  p.o3 = environment_word("STRATA_JIT_PIPELINE") == "O3";
  std::string options = p.o3 ? "" : set_llvm_options();
  p.description = (p.o3 ? std::string("O3") : kernel_pipeline({})) + "; options" + options;
  return p;
}

void prepare_for(llvm::Module& m, llvm::TargetMachine& tm) {
  m.setDataLayout(tm.createDataLayout());
  m.setTargetTriple(tm.getTargetTriple().str());
  std::string broken;
  llvm::raw_string_ostream os(broken);
  if (llvm::verifyModule(m, &os))
    throw Error(ErrorKind::Resource, "jit: generated code does not verify: " + os.str());
}

void Pipeline::optimise(llvm::Module& m, llvm::TargetMachine& tm, Veclib veclib, Vectorisers v,
                        const std::string& dump_name) const {
  prepare_for(m, tm);
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PipelineTuningOptions pto;
  pto.LoopVectorization = true;
  pto.SLPVectorization = true;
  // Entries marked optnone (FnBuilder::run_once) skip the pipeline.
  llvm::PassInstrumentationCallbacks pic;
  llvm::OptNoneInstrumentation optnone(false);
  optnone.registerCallbacks(pic);
  llvm::PassBuilder pb(&tm, pto, std::nullopt, &pic);
  llvm::TargetLibraryInfoImpl tlii(tm.getTargetTriple());
  if (veclib == Veclib::Libmvec)
    use_libmvec(m, tlii, tm.getTargetFeatureString().contains("+avx512f"));
  fam.registerPass([&] { return llvm::TargetLibraryAnalysis(tlii); });
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm;
  if (veclib == Veclib::Libmvec) // the calls' vector variants, as O3 marks them before vectorising
    mpm.addPass(llvm::createModuleToFunctionPassAdaptor(llvm::InjectTLIMappings()));
  const std::string passes = o3 ? "default<O3>" : kernel_pipeline(v);
  if (o3)
    mpm.addPass(pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3));
  else if (llvm::Error e = pb.parsePassPipeline(mpm, passes))
    throw Error(ErrorKind::Resource, "jit: pass pipeline: " + llvm_error_text(std::move(e)));
  if (environment_dir("STRATA_JIT_DUMP"))
    dump(m, dump_name, ".in.ll",
         "; strata pipeline: " + passes +
             "\n; strata llvm options:" + (o3 ? std::string() : llvm_options_text()) +
             "\n; strata target: " + tm.getTargetCPU().str() + "," +
             tm.getTargetFeatureString().str() +
             "\n; strata veclib: " + (veclib == Veclib::Libmvec ? "libmvec" : "none") + "\n");
  mpm.run(m, mam);
  dump(m, dump_name, ".ll");
}

bool runs_once(const llvm::Module& m) {
  bool any = false;
  for (const llvm::Function& f : m) {
    if (f.isDeclaration()) continue;
    if (!f.hasOptNone()) return false;
    any = true;
  }
  return any;
}

struct ObjectEmitter::Codegen {
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream stream{buffer}; // unbuffered: writes go to `buffer`
  llvm::legacy::PassManager pm;
};

ObjectEmitter::ObjectEmitter(std::unique_ptr<llvm::TargetMachine> tm) : tm_(std::move(tm)) {}

ObjectEmitter::~ObjectEmitter() = default;

std::vector<char> ObjectEmitter::emit(llvm::Module& m) {
  if (!codegen_) {
    auto c = std::make_unique<Codegen>();
    if (tm_->addPassesToEmitFile(c->pm, c->stream, nullptr, llvm::CodeGenFileType::ObjectFile))
      throw Error(ErrorKind::Resource, "jit: the host target cannot emit object files");
    codegen_ = std::move(c);
  }
  // Each run starts from the passes' initialisation: the machine code
  // context, the streamer and the object writer are reset at the end of the
  // last (AsmPrinter::doFinalization), and the object is written from the
  // stream's start (JitPipeline.ObjectsDoNotDependOnEarlierCompiles).
  codegen_->buffer.clear();
  codegen_->pm.run(m);
  return std::vector<char>(codegen_->buffer.begin(), codegen_->buffer.end());
}

Veclib parse_veclib(const char* value) {
  if (!value || !*value || std::string_view(value) == "none") return Veclib::None;
  if (std::string_view(value) == "libmvec") return Veclib::Libmvec;
  throw unknown_environment_value("STRATA_JIT_VECLIB", value);
}

} // namespace strata::jit
