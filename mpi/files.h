// Inputs read and results written by rows (docs/mpi.md, "Reading and
// writing in parallel"), and results gathered whole. Every function is a
// collective: every rank calls it with the same arguments but its own
// Held parts, and a failure on any rank is every rank's error (mpi/agree.h).
#pragma once

#include <string>
#include <vector>

#include "core/npy_rows.h"
#include "mpi/blocks.h"
#include "mpi/comm.h"

namespace strata::mpi {

// Each input as this rank holds it: its rows when it is held in blocks
// (held_in_blocks), else the whole of it, read from its file by this rank
// alone. A read error is the error of the first rank, in input order.
std::vector<Held> read_inputs(Comm& comm, const std::vector<NpyRowsReader>& files,
                              int64_t min_block_bytes);

// Result `index` whole on every rank, gathered from the ranks' rows; when
// it does not fit in this rank's memory (Buffer::memory_limit), a `resource`
// error that says so and suggests writing it in parallel (-o FILE.npy).
Array gather_result(Comm& comm, const Held& result, size_t index);

// Writes result i to paths[i] in parallel: rank 0 creates every file (a
// temporary beside it, core/npy_rows.h), each rank writes the rows it holds
// (rank 0 the results held whole), and once all have, rank 0 commits them.
// A failure anywhere leaves no file changed and no temporary.
void write_results(Comm& comm, const std::vector<Held>& results,
                   const std::vector<std::string>& paths);

} // namespace strata::mpi
