// The distributed engine on MPI (docs/mpi.md).
//
// Every rank runs the program's kernel graph (fusion/graph_run.h). Arrays of
// rank >= 1 and at least MpiOptions::min_block_bytes are held in blocks of
// rows (mpi/blocks.h); others whole on every rank. A kernel that keeps rows
// apart (generate, and fold and scans over rank >= 2) runs on each rank for
// its own rows, reading aligned blocks in place and gathering whatever else
// it reads; every other kernel runs whole on every rank after gathering its
// inputs. Each rank runs its programs on a local engine (jit where built,
// else tbb), in the order the executable declares, so that results are
// bitwise the same for any number of ranks and equal to the local engine's.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/engine.h"
#include "mpi/comm.h"

namespace strata {

struct MpiOptions {
  // Outputs smaller than this stay whole on every rank (0: every array of
  // rank >= 1 is held in blocks, as the tests ask so that small programs
  // reach every path).
  int64_t min_block_bytes = 1 << 16;

  // The defaults, with STRATA_MPI_MIN_BLOCK_BYTES (bytes, or with a K, M or G
  // suffix) when set; Error(Usage) when it is not such a number.
  static MpiOptions from_environment();
};

// `mpi`: the processes mpirun started, or this process alone (P = 1) when
// it was not started by a launcher; MpiOptions::from_environment() at each
// compile.
std::unique_ptr<Engine> make_mpi_engine(const Engine& local);
// `mpi:P`: P ranks as threads of this process exchanging through shared
// memory: the same engine over another transport, for the tests and the
// fuzzer. Every rank's results must be identical (checked on every run).
std::unique_ptr<Engine> make_mpi_threads_engine(const Engine& local, int ranks,
                                                MpiOptions options = {});

// Rank 0's `mine` on every process of the launch (mpirun), `mine` itself
// without one: a decision the processes of a campaign take together
// (CampaignOptions::agree). When the processes are at different places
// `where` (out of step: an engine bug), says so and ends the job.
bool agree_with_rank0(bool mine, uint64_t where);

// Executable::kernel_exchange of every rank of this process, for an
// executable of an mpi engine (the ranks of
// this process: one for `mpi`, P for `mpi:P`); empty for any other.
std::vector<std::map<int, KernelExchange>> mpi_traffic(const Executable& e);

} // namespace strata
