// The scopes of the type checker (core/check.cpp): small vectors of named
// entries searched from the back, so that inner bindings shadow outer ones.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace strata {

// Scopes are small vectors searched from the back, so inner bindings shadow outer ones.
template <class T> class Scope {
public:
  void push(const std::string& name, T value) { entries_.emplace_back(name, std::move(value)); }
  void pop(size_t n = 1) { entries_.resize(entries_.size() - n); }
  size_t depth() const { return entries_.size(); }
  const T* find(const std::string& name) const {
    for (auto it = entries_.rbegin(); it != entries_.rend(); ++it)
      if (it->first == name) return &it->second;
    return nullptr;
  }
  // The position of the innermost entry of that name, or -1.
  long position(const std::string& name) const {
    for (size_t i = entries_.size(); i > 0; --i)
      if (entries_[i - 1].first == name) return long(i - 1);
    return -1;
  }
  const std::string& name_at(size_t i) const { return entries_[i].first; }

private:
  std::vector<std::pair<std::string, T>> entries_;
};

} // namespace strata
