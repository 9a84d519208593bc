// `Overload{f, g, ...}`: one callable from several lambdas, for std::visit.
#pragma once

namespace strata {
template <class... Fs> struct Overload : Fs... { using Fs::operator()...; };
template <class... Fs> Overload(Fs...) -> Overload<Fs...>;
} // namespace strata
