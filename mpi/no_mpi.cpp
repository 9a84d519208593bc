// world_comm() in a build without MPI: running under a launcher is refused
// with the reason instead of every rank silently computing alone.
#include "core/error.h"
#include "mpi/comm.h"

namespace strata::mpi {

Comm* world_comm() {
  if (!launch_from_environment().launched) return nullptr;
  throw Error(ErrorKind::Usage, "this strata was built without MPI (Debian: libopenmpi-dev), "
                                "so the mpi engine cannot run under mpirun");
}

} // namespace strata::mpi
