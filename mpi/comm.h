// How the ranks of the mpi engine exchange data (docs/mpi.md).
//
// One collective, an all-to-all of byte vectors, carried either by MPI
// between the processes that mpirun started, or by shared memory between
// threads of one process (the `mpi:P` engines that tests and the fuzzer run:
// the same engine code with another transport). Every rank calls every
// collective in the same order: the engine's protocol guarantees it (a rank
// that fails keeps taking part until the failure is agreed, mpi/agree.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/launch.h"

namespace strata::mpi {

using Bytes = std::vector<std::byte>;

class Comm {
public:
  virtual ~Comm() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Rank r gives out[d] for every rank d (out.size() == size(), out[r] is
  // kept, not sent); returns what each rank s gave this one, by s. Throws
  // Error(Resource) naming a rank that left instead of hanging.
  virtual std::vector<Bytes> alltoall(std::vector<Bytes> out) = 0;
  // This rank is leaving because of an error the protocol could not agree
  // on (a bug): the others' collectives fail instead of waiting for it.
  virtual void abandon() {}

  // The same bytes to every rank; returns every rank's, by rank.
  std::vector<Bytes> allgather(const Bytes& mine);
  // Bytes this rank sent to and received from other ranks so far.
  uint64_t sent_bytes() const { return sent_; }
  uint64_t received_bytes() const { return received_; }

protected:
  void count(uint64_t sent, uint64_t received) {
    sent_ += sent;
    received_ += received;
  }

private:
  uint64_t sent_ = 0, received_ = 0;
};

// `ranks` ranks as threads of this process: element r is rank r's.
std::vector<std::unique_ptr<Comm>> make_thread_comms(int ranks);

// MPI_COMM_WORLD of the processes mpirun started (MPI initialised on first
// use, finalised at exit); null when this process was not started by a
// launcher. Throws Error(Usage) when it was but this build has no MPI.
Comm* world_comm();

} // namespace strata::mpi
