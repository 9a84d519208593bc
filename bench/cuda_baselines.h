// Hand-written CUDA baselines for the bench workloads (bench/workloads.h), as
// a CUDA programmer would write them with the vendor's libraries: CUB for
// reductions, scans and histograms, cuBLAS for the matrix product, plain
// kernels for the element-wise, stencil and n-body workloads
// (bench/cuda_baselines.cu). Plain C++ on this side (no CUDA types), so that
// the benchmark driver is compiled by the host compiler.
//
// Every baseline reads device inputs and writes device outputs, in the
// workload's parameter and result order, launched on the default stream
// (the caller times them with events). Sizes are the workload's size
// parameter n (a length, a side or a body count).
//
// Results: the kernels are compiled with --fmad=false, as the cuda engine's
// are (the language pins IEEE operations in the order written), so
// element-wise results equal the hand-written C++ ones; sums (CUB's tree
// order) differ by reassociation only, within the workload's rtol.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace strata::bench::cuda_baselines {

// A baseline: device input pointers, device output pointers, the size.
using DeviceBaseline = void (*)(const std::vector<const void*>& in, const std::vector<void*>& out,
                                int64_t n);

// The baseline of a workload, or nullptr when there is none.
DeviceBaseline find(const std::string& workload);

// What each baseline uses, for the report ("CUB DeviceReduce::Sum", ...).
std::string what(const std::string& workload);

// Whether a CUDA device can run the baselines; `why` says why not.
bool device_available(std::string& why);

// The device's name and memory bandwidth by its datasheet figures (bytes/s):
// 2 * memory clock * bus width.
std::string device_name();
double device_peak_bandwidth();

// Device memory, copies and timing, so that the driver needs no CUDA header.
void* device_alloc(size_t bytes);
void device_free(void* p);
void to_device(void* dst, const void* src, size_t bytes);
void to_host(void* dst, const void* src, size_t bytes);
void synchronize();
// Milliseconds of device time `body` takes (events around it, on the default
// stream).
double time_ms(const DeviceBaseline& f, const std::vector<const void*>& in,
               const std::vector<void*>& out, int64_t n);

} // namespace strata::bench::cuda_baselines
