#include "mpi/files.h"

#include <optional>

#include "core/error.h"
#include "mpi/agree.h"

namespace strata::mpi {

std::vector<Held> read_inputs(Comm& comm, const std::vector<NpyRowsReader>& files,
                              int64_t min_block_bytes) {
  std::vector<Held> held;
  for (const NpyRowsReader& f : files)
    held.push_back(agreed(comm, [&] {
      if (!held_in_blocks(f.elem(), f.shape(), comm.size(), min_block_bytes))
        return Held{f.read_all(), false, f.shape()};
      Rows r = block_rows(f.rows(), comm.size(), comm.rank());
      return Held{f.read(r.lo, r.hi), true, f.shape()};
    }));
  return held;
}

Array gather_result(Comm& comm, const Held& result, size_t index) {
  if (!result.block) return result.local;
  // The parts received and the array assembled from them are both whole.
  size_t whole = bytes_of(result.local.elem_type(), result.global);
  agreed(comm, [&] {
    size_t limit = Buffer::memory_limit(), live = Buffer::live_bytes();
    size_t free = limit > live ? limit - live : 0;
    if (2 * whole > free)
      throw Error(ErrorKind::Resource,
                  "mpi: result " + std::to_string(index) + ", " +
                      Type::array(result.local.elem_type(), int(result.global.size())).str() +
                      " of shape " + shape_str(result.global) + " (" + std::to_string(whole) +
                      " bytes), does not fit in one rank's memory to be gathered (" +
                      std::to_string(free) + " bytes free of the memory limit): write it in " +
                      "parallel with -o FILE.npy (each rank writes its own rows)");
  });
  std::vector<Bytes> parts = comm.allgather(pack(result.local));
  return agreed(comm, [&] { return assemble(result.local.elem_type(), result.global, parts); });
}

void write_results(Comm& comm, const std::vector<Held>& results,
                   const std::vector<std::string>& paths) {
  if (paths.size() != results.size())
    throw Error(ErrorKind::Usage, std::to_string(paths.size()) + " output files for " +
                                      std::to_string(results.size()) + " results");
  auto type_of = [](const Held& h) { return h.local.elem_type(); };
  // Rank 0 creates the temporaries; their names go to every rank.
  std::vector<NpyRowsWriter> created;
  std::string names = agreed(comm, [&] {
    std::string n;
    if (comm.rank() != 0) return n;
    for (size_t i = 0; i < results.size(); ++i) {
      created.push_back(NpyRowsWriter::create(paths[i], type_of(results[i]), results[i].global));
      n += created.back().temp() + '\n';
    }
    return n;
  });
  std::vector<Bytes> all =
      comm.allgather(Bytes(reinterpret_cast<const std::byte*>(names.data()),
                           reinterpret_cast<const std::byte*>(names.data() + names.size())));
  std::string temps(reinterpret_cast<const char*>(all[0].data()), all[0].size());
  agreed(comm, [&] {
    size_t at = 0;
    for (size_t i = 0; i < results.size(); ++i) {
      size_t nl = temps.find('\n', at);
      std::string temp = temps.substr(at, nl - at);
      at = nl + 1;
      const Held& h = results[i];
      if (!h.block && comm.rank() != 0) continue;
      NpyRowsWriter w = NpyRowsWriter::open(paths[i], temp, type_of(h), h.global);
      w.write(h.block ? block_rows(h.global[0], comm.size(), comm.rank()).lo : 0, h.local);
    }
  });
  agreed(comm, [&] {
    for (NpyRowsWriter& w : created)
      w.commit();
  });
}

} // namespace strata::mpi
