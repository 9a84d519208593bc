#include "interpreter/interp_engine.h"

#include "interpreter/interpreter.h"

namespace strata {
namespace {

class InterpExecutable final : public Executable {
public:
  explicit InterpExecutable(const Program& program) : program_(program) {}
  std::vector<Array> run(const std::vector<Array>& inputs) override {
    return interpret(program_, inputs);
  }

private:
  const Program& program_;
};

class InterpEngine final : public Engine {
public:
  std::string name() const override { return "interp"; }
  bool available(std::string&) const override { return true; }
  std::unique_ptr<Executable> compile(const Program& program,
                                      const CompileOptions& options) const override {
    require_no_target(options, name());
    return std::make_unique<InterpExecutable>(program);
  }
};

} // namespace

std::unique_ptr<Engine> make_interp_engine() {
  return std::make_unique<InterpEngine>();
}

} // namespace strata
