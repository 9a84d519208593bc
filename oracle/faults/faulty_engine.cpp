#include "oracle/faults/faulty_engine.h"

#include <stdexcept>

#include "core/error.h"
#include "oracle/graph_eval.h"
#include "oracle/registry.h"

namespace strata::faults {
namespace {

class FaultyExecutable : public Executable {
public:
  FaultyExecutable(std::unique_ptr<Program> program, std::unique_ptr<Executable> inner,
                   std::unique_ptr<Executable> original, const Fault& fault)
      : program_(std::move(program)), inner_(std::move(inner)), original_(std::move(original)),
        fault_(fault) {}
  std::vector<Array> run(const std::vector<Array>& inputs) override {
    std::vector<Array> results;
    try {
      results = inner_->run(inputs);
    } catch (const Error& e) {
      Error raised = same_error_of_original(e, inputs);
      if (fault_.error) throw fault_.error(raised);
      throw raised;
    }
    if (fault_.results) fault_.results(results);
    return results;
  }
  // What it declares: the order it was asked for, whatever it ran.
  ReductionOrder reduction_order() const override { return declared_; }
  void declare(const ReductionOrder& order) { declared_ = order; }

private:
  // The rewritten program is printed and parsed again, so its positions are
  // not the user's: an error that the correct program raises too (same kind
  // and message) is reported with the correct program's position, so that a
  // fault is caught by what it changes, never by where the rewrite put it.
  Error same_error_of_original(const Error& e, const std::vector<Array>& inputs) const {
    try {
      (void)original_->run(inputs);
    } catch (const Error& o) {
      if (o.kind() == e.kind() && o.message() == e.message()) return o;
    }
    return e;
  }

  std::unique_ptr<Program> program_; // the rewritten program the inner executable runs
  std::unique_ptr<Executable> inner_;
  std::unique_ptr<Executable> original_; // the unchanged program, same options
  const Fault& fault_;
  ReductionOrder declared_;
};

class FaultyEngine : public Engine {
public:
  explicit FaultyEngine(const Fault& fault) : fault_(fault), graph_(make_graph_engine()) {}
  std::string name() const override { return kFaultyPrefix + fault_.name; }
  bool available(std::string&) const override { return true; }
  std::unique_ptr<Executable> compile(const Program& program,
                                      const CompileOptions& options) const override {
    bool active = options.fusion || !fault_.fused_only;
    std::unique_ptr<Program> rewritten;
    if (active) {
      try {
        rewritten = std::make_unique<Program>(apply_fault(fault_, program, options.order));
      } catch (const Error& e) {
        // Not a strata::Error: a broken fault must not pass for a caught one.
        throw std::logic_error("fault " + fault_.name + " made an invalid program: " + e.what());
      }
    } else {
      rewritten = std::make_unique<Program>(program);
    }
    CompileOptions run = options;
    if (active && fault_.order) run.order = fault_.order(options.order);
    auto inner = graph_->compile(*rewritten, run);
    auto original = graph_->compile(program, options);
    auto exe = std::make_unique<FaultyExecutable>(std::move(rewritten), std::move(inner),
                                                  std::move(original), fault_);
    exe->declare(active && fault_.declares_its_order ? run.order : options.order);
    return exe;
  }

private:
  const Fault& fault_;
  std::unique_ptr<Engine> graph_;
};

} // namespace

std::unique_ptr<Engine> make_faulty_engine(const Fault& fault) {
  return std::make_unique<FaultyEngine>(fault);
}

std::vector<const Engine*> all_faulty_engines() {
  static const std::vector<std::unique_ptr<Engine>> owned = [] {
    std::vector<std::unique_ptr<Engine>> v;
    for (const Fault& f : all_faults())
      v.push_back(make_faulty_engine(f));
    return v;
  }();
  std::vector<const Engine*> out;
  for (const auto& e : owned)
    out.push_back(e.get());
  return out;
}

const Engine* find_faulty_engine(const std::string& name) {
  for (const Engine* e : all_faulty_engines())
    if (e->name() == name) return e;
  return nullptr;
}

const Engine* find_any_engine(const std::string& name) {
  if (const Engine* e = find_engine(name)) return e;
  return find_faulty_engine(name);
}

} // namespace strata::faults
