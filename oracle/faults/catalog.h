// The fault catalogue, split by kind of code; all_faults() joins the parts.
#pragma once

#include <vector>

#include "oracle/faults/fault.h"

namespace strata::faults {

void add_scalar_faults(std::vector<Fault>& out);     // scalar_faults.cpp
void add_reduction_faults(std::vector<Fault>& out);  // reduction_faults.cpp
void add_collective_faults(std::vector<Fault>& out); // collective_faults.cpp
void add_order_faults(std::vector<Fault>& out);      // order_faults.cpp
void add_sugar_faults(std::vector<Fault>& out);      // sugar_faults.cpp

} // namespace strata::faults
