#include "mpi/comm.h"

namespace strata::mpi {

std::vector<Bytes> Comm::allgather(const Bytes& mine) {
  return alltoall(std::vector<Bytes>(size_t(size()), mine));
}

} // namespace strata::mpi
