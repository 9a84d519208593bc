// The test-only faulty engine: "faulty:<fault>" runs a program with one seeded
// fault (oracle/faults/fault.h) on the kernel graph evaluator, fused or not.
//
// It exists to show that the differential harness catches realistic engine
// bugs (`strata fuzz --faults`, docs/testing.md). It is never in the
// registry's all_engines(): it is reached only by name through here.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/engine.h"
#include "oracle/faults/fault.h"

namespace strata::faults {

inline constexpr const char* kFaultyPrefix = "faulty:";

std::unique_ptr<Engine> make_faulty_engine(const Fault& fault);
// "faulty:scan_off_by_one" -> its engine (one instance per fault), or nullptr.
const Engine* find_faulty_engine(const std::string& name);
// One engine per fault, in all_faults() order.
std::vector<const Engine*> all_faulty_engines();
// A registered engine or a faulty one, by name; nullptr when neither.
const Engine* find_any_engine(const std::string& name);

} // namespace strata::faults
