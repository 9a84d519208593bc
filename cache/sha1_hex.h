// SHA-1 of a byte string as 40 hex digits: kernel cache keys and entry
// checksums (not a security boundary: the cache directory is the user's own).
#pragma once

#include <string>
#include <string_view>

namespace strata::cache {

std::string sha1_hex(std::string_view bytes);

} // namespace strata::cache
