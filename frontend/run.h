// Tracing whole programs, compiling them once and running them (Accelerate's
// run and run1).
//
//   auto dotp = [](Acc<Vector<float>> xs, Acc<Vector<float>> ys) {
//     return fold([](auto a, auto b) { return a + b; }, 0.0f,
//                 zipWith([](auto x, auto y) { return x * y; }, xs, ys));
//   };
//   strata::Array r = strata::run(engine, dotp, xs, ys);   // trace, compile, run
//   auto f = strata::compile(engine, dotp);                // trace and compile once
//   for (...) r = f(xs, ys);                               // run many times
//
// `program(fn)` gives the IR (after sharing recovery) of a C++ function whose
// parameters are Acc handles; print it with print_program. Inputs may be
// strata::Array (shared, not copied), std::vector or std::span (copied once);
// their types and ranks are checked against the parameters at run time. The
// result is a strata::Array, or a std::vector of them for a tuple of arrays.
//
// Engine::compile is called exactly once per compile(); `compile_count()`
// counts the calls made by the front end, so tests can observe that running a
// compiled program never compiles it again. Deep programs are checked, compiled
// and run on a large stack (core/large_stack.h).
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/engine.h"
#include "frontend/collective.h"
#include "frontend/sharing.h"

namespace strata::fe {

// How many times the front end has called Engine::compile in this process.
uint64_t compile_count();

// A checked program compiled by an engine: the IR and the executable.
class CompiledProgram {
public:
  CompiledProgram(const Engine& engine, std::unique_ptr<OwnedProgram> program,
                  const CompileOptions& options);
  ~CompiledProgram();
  std::vector<strata::Array> run(const std::vector<strata::Array>& inputs) const;
  const Program& program() const { return owned_->program; }

private:
  std::unique_ptr<OwnedProgram> owned_;
  std::unique_ptr<Executable> executable_;
  bool deep_;
};

namespace detail {
template <class T> struct FnTraits : FnTraits<decltype(&T::operator())> {};
template <class C, class R, class... As> struct FnTraits<R (C::*)(As...) const> {
  using args = std::tuple<std::decay_t<As>...>;
};
template <class C, class R, class... As> struct FnTraits<R (C::*)(As...)> {
  using args = std::tuple<std::decay_t<As>...>;
};
template <class R, class... As> struct FnTraits<R (*)(As...)> {
  using args = std::tuple<std::decay_t<As>...>;
};
template <class R, class... As> struct FnTraits<R(As...)> {
  using args = std::tuple<std::decay_t<As>...>;
};

// Checks that the host value fits the parameter type and makes it an array.
strata::Array input_array(const strata::Array& a, const Type& expected, size_t position);
template <class T>
strata::Array input_array(std::span<const T> v, const Type& expected, size_t position) {
  return input_array(host_array(type_of<T>(), {int64_t(v.size())}, v.data(), v.size() * sizeof(T)),
                     expected, position);
}
template <class T>
strata::Array input_array(const std::vector<T>& v, const Type& expected, size_t position) {
  return input_array(std::span<const T>(v), expected, position);
}

std::unique_ptr<OwnedProgram> recover(const std::vector<Param>& params, const AccPtr& body);

template <class R> struct ResultOf;
template <class A> struct ResultOf<Acc<A>> {
  static constexpr bool single = ArrayType<A>;
  using type = std::conditional_t<single, strata::Array, std::vector<strata::Array>>;
  static type get(std::vector<strata::Array> r) {
    if constexpr (single)
      return std::move(r.at(0));
    else
      return r;
  }
};

template <class... Ps, class F>
std::unique_ptr<OwnedProgram> trace_program(F& fn, std::tuple<Ps...>*) {
  static_assert((IsAcc<Ps>::value && ...),
                "strata: the parameters of a program function must be Acc<...> handles");
  std::vector<Param> params;
  auto make = [&]<class P>(std::type_identity<P>) {
    std::string name = fresh_name();
    params.push_back(param(name, type_of<typename P::type>()));
    return P(node(ac::Var{name}));
  };
  std::tuple<Ps...> args{make(std::type_identity<Ps>{})...};
  using R = std::decay_t<decltype(std::apply(fn, args))>;
  static_assert(IsAcc<R>::value, "strata: a program function must return an Acc<...>");
  AccPtr body = std::apply(fn, args).node();
  return recover(params, body);
}
} // namespace detail

// The IR of a program function (parameters: Acc handles), after sharing recovery.
template <class F> std::unique_ptr<OwnedProgram> program(F fn) {
  using Args = typename detail::FnTraits<F>::args;
  return detail::trace_program(fn, static_cast<Args*>(nullptr));
}
// The IR of a closed array expression (a program without parameters).
template <class A> std::unique_ptr<OwnedProgram> program(const Acc<A>& body) {
  return detail::recover({}, body.node());
}

// A program compiled once by an engine, callable many times with host inputs.
template <class F> class Compiled {
  using Args = typename detail::FnTraits<F>::args;
  using Ret = std::decay_t<decltype(std::apply(std::declval<F&>(), std::declval<Args&>()))>;

public:
  using result_type = typename detail::ResultOf<Ret>::type;
  Compiled(const Engine& engine, F fn, const CompileOptions& options)
      : compiled_(std::make_shared<CompiledProgram>(
            engine, detail::trace_program(fn, static_cast<Args*>(nullptr)), options)) {}

  template <class... Ins> result_type operator()(const Ins&... inputs) const {
    static_assert(sizeof...(Ins) == std::tuple_size_v<Args>,
                  "strata: give one input per parameter of the program");
    return call(std::index_sequence_for<Ins...>{}, inputs...);
  }
  const Program& ir() const { return compiled_->program(); }

private:
  template <size_t... Is, class... Ins>
  result_type call(std::index_sequence<Is...>, const Ins&... inputs) const {
    const auto& params = compiled_->program().params;
    std::vector<strata::Array> arrays{detail::input_array(inputs, params[Is].type, Is)...};
    return detail::ResultOf<Ret>::get(compiled_->run(arrays));
  }
  std::shared_ptr<CompiledProgram> compiled_;
};

// Traces fn and compiles it once (Accelerate's run1).
template <class F>
Compiled<F> compile(const Engine& engine, F fn, const CompileOptions& options = {}) {
  return Compiled<F>(engine, std::move(fn), options);
}

// Traces, compiles and runs fn on the inputs once.
template <class F, class... Ins>
requires(!detail::IsAcc<F>::value) auto run(const Engine& engine, F fn, const Ins&... inputs) {
  return compile(engine, std::move(fn))(inputs...);
}
// Runs a closed array expression.
template <class A> auto run(const Engine& engine, const Acc<A>& body) {
  CompiledProgram c(engine, program(body), CompileOptions{});
  return detail::ResultOf<Acc<A>>::get(c.run({}));
}

} // namespace strata::fe

namespace strata {
using fe::compile;
using fe::run;
} // namespace strata
