#include "jit/tiered_code.h"

#include "jit/lljit_host.h"

namespace strata::jit {

std::shared_ptr<TieredCode> TieredCode::final_code(std::shared_ptr<const ResidentCode> optimised) {
  return std::make_shared<TieredCode>(std::move(optimised), true);
}

std::shared_ptr<TieredCode> TieredCode::quick(std::shared_ptr<const ResidentCode> quick) {
  return std::make_shared<TieredCode>(std::move(quick), false);
}

TieredCode::TieredCode(std::shared_ptr<const ResidentCode> first, bool final)
    : first_(std::move(first)), current_(first_->entries.data()), bytes_(first_->bytes),
      final_(final), quick_first_(!final) {
  if (final) optimised_ = first_;
}

void TieredCode::upgrade(std::shared_ptr<const ResidentCode> optimised) {
  std::lock_guard lock(mutex_);
  if (final_) return;
  optimised_ = std::move(optimised);
  bytes_ += optimised_->bytes;
  current_.store(optimised_->entries.data(), std::memory_order_release);
  final_ = true;
  settled_.notify_all();
}

void TieredCode::keep_quick(std::string why) {
  std::lock_guard lock(mutex_);
  if (final_) return;
  quick_reason_ = std::move(why);
  final_ = true;
  settled_.notify_all();
}

std::string TieredCode::wait() const {
  std::unique_lock lock(mutex_);
  settled_.wait(lock, [&] { return final_; });
  return optimised_ ? std::string() : quick_reason_;
}

const std::string& TieredCode::meta() const {
  return first_->meta; // the same in both tiers: they come from the same IR
}

uint64_t TieredCode::bytes() const {
  return bytes_.load();
}

} // namespace strata::jit
