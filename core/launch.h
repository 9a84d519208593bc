// Whether this process is one of several that a launcher (mpirun) started,
// and which: read from the launcher's environment variables. The mpi engine
// joins the others; the `strata` command lets rank 0 alone print and write.
#pragma once

namespace strata {

struct Launch {
  int rank = 0, size = 1;
  bool launched = false; // false: not started by a launcher ({0, 1})
};
// Open MPI's mpirun (OMPI_COMM_WORLD_RANK/SIZE), then the PMI variables of
// MPICH's and Slurm's launchers.
Launch launch_from_environment();

} // namespace strata
