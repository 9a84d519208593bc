#include <cstdio>

#include <boost/uuid/detail/sha1.hpp>

#include "cache/kernel_cache.h"
#include "cache/sha1_hex.h"

namespace strata::cache {

std::string sha1_hex(std::string_view bytes) {
  boost::uuids::detail::sha1 hash;
  hash.process_bytes(bytes.data(), bytes.size());
  boost::uuids::detail::sha1::digest_type digest;
  hash.get_digest(digest);
  char out[41];
  for (int i = 0; i < 5; ++i)
    std::snprintf(out + 8 * i, 9, "%08x", digest[i]);
  return std::string(out, 40);
}

KeyBuilder& KeyBuilder::add(std::string_view field) {
  fields_ += std::to_string(field.size());
  fields_ += ':';
  fields_ += field;
  return *this;
}

Key KeyBuilder::finish() const {
  return Key{sha1_hex(fields_)};
}

} // namespace strata::cache
