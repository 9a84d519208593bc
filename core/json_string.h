// A string as a JSON string literal (quotes, escapes, control characters as
// \uXXXX). Shared by the fusion report and the counterexample bundles, which
// write their small JSON files by hand.
#pragma once

#include <string>

namespace strata {

std::string json_string(const std::string& s);

} // namespace strata
