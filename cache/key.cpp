#include <cstdint>

#include <nettle/sha1.h>

#include "cache/kernel_cache.h"
#include "cache/sha1_hex.h"

namespace strata::cache {

// Nettle's SHA-1 uses the CPU's SHA instructions where it has them (~1 GB/s
// here, ~8x boost's byte-wise one): a disk hit hashes its key and its whole
// entry (docs/jit.md "Kernel cache").
std::string sha1_hex(std::string_view bytes) {
  sha1_ctx hash;
  sha1_init(&hash);
  sha1_update(&hash, bytes.size(), reinterpret_cast<const uint8_t*>(bytes.data()));
  uint8_t digest[SHA1_DIGEST_SIZE];
  sha1_digest(&hash, sizeof(digest), digest);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(2 * sizeof(digest), '0');
  for (size_t i = 0; i < sizeof(digest); ++i) {
    out[2 * i] = kHex[digest[i] >> 4];
    out[2 * i + 1] = kHex[digest[i] & 15];
  }
  return out;
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
