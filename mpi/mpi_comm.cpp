// The mpi engine's transport between processes: MPI's C API on
// MPI_COMM_WORLD (Open MPI from Debian's packages).
//
// MPI is initialised on first use with MPI_THREAD_FUNNELED (only the thread
// that runs the engine calls MPI; oneTBB's workers never do) and finalised
// at exit. Errors keep MPI's default handler (MPI_ERRORS_ARE_FATAL): a rank
// that dies makes mpirun stop the job and name that rank, instead of leaving
// the others waiting.
#include <mpi.h>

#include <climits>
#include <cstdlib>

#include "core/error.h"
#include "mpi/comm.h"

namespace strata::mpi {
namespace {

class WorldComm final : public Comm {
public:
  WorldComm() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  // The others may be waiting in a collective this rank will never reach:
  // end the whole job (mpirun names this rank).
  void abandon() override { MPI_Abort(MPI_COMM_WORLD, 1); }

  std::vector<Bytes> alltoall(std::vector<Bytes> out) override {
    size_t n = size_t(size_);
    std::vector<int> send_counts(n), recv_counts(n), send_displs(n), recv_displs(n);
    uint64_t sent = 0;
    for (size_t d = 0; d < n; ++d) {
      size_t bytes = int(d) == rank_ ? 0 : out[d].size();
      send_counts[d] = fits(bytes);
      sent += bytes;
    }
    MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
    Bytes send, recv;
    uint64_t total_in = 0;
    for (size_t d = 0; d < n; ++d) {
      send_displs[d] = fits(send.size());
      if (int(d) != rank_) send.insert(send.end(), out[d].begin(), out[d].end());
      recv_displs[d] = fits(total_in);
      total_in += uint64_t(recv_counts[d]);
    }
    recv.resize(size_t(total_in));
    MPI_Alltoallv(send.data(), send_counts.data(), send_displs.data(), MPI_BYTE, recv.data(),
                  recv_counts.data(), recv_displs.data(), MPI_BYTE, MPI_COMM_WORLD);
    std::vector<Bytes> in(n);
    for (size_t s = 0; s < n; ++s) {
      if (int(s) == rank_) {
        in[s] = std::move(out[s]);
        continue;
      }
      auto* b = recv.data() + recv_displs[s];
      in[s].assign(b, b + recv_counts[s]);
    }
    count(sent, total_in);
    return in;
  }

private:
  int rank_ = 0, size_ = 1;

  // MPI counts and displacements are ints: a message past 2 GiB is refused
  // with a clear error (every rank reaches the same check for the same data).
  static int fits(uint64_t bytes) {
    if (bytes > uint64_t(INT_MAX))
      throw Error(ErrorKind::Resource,
                  "mpi: one exchange of " + std::to_string(bytes) +
                      " bytes is over MPI's 2 GiB count limit; use more ranks");
    return int(bytes);
  }
};

void finalize() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

} // namespace

Comm* world_comm() {
  if (!launch_from_environment().launched) return nullptr;
  static WorldComm* comm = [] {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized) {
      int provided = 0;
      MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
      std::atexit(finalize);
    }
    return new WorldComm(); // lives until exit, after MPI_Finalize is registered
  }();
  return comm;
}

} // namespace strata::mpi
