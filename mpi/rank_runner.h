// One rank's part of every kernel of a kernel graph (docs/mpi.md): the
// runner of fusion/graph_run.h for the mpi engine. Each plan is a file:
// rows and whole kernels (rank_runner.cpp), folds to one value from
// per-rank partials (fold_partials.cpp), left scans of one row from chunk
// carries (scan_carries.cpp), segmented folds of one row from carries
// passed along the ranks (foldseg_carries.cpp), stencils with halos (stencil_halo.cpp),
// permutes combined in order along the ranks (permute_in_order.cpp) or at
// the ranks that hold their targets (permute_at_owners.cpp),
// and, within every plan that computes rows, reads at computed indices by
// request and reply (read_requests.cpp).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/engine.h"
#include "fusion/kernel_graph.h"
#include "mpi/agree.h"
#include "mpi/blocks.h"
#include "mpi/comm.h"
#include "mpi/engine.h"
#include "mpi/local_programs.h"

namespace strata::mpi {

// A program on the local engine, compiled once per key.
struct Compiled {
  Program program;
  std::unique_ptr<Executable> exe;
};

// The state of one rank's executable that outlives a run: its graph, the
// programs compiled for it and the last run's traffic.
struct RankState {
  const Engine& local;
  CompileOptions options;
  MpiOptions mpi;
  KernelGraph graph;
  std::map<std::string, std::unique_ptr<Compiled>> programs;
  std::map<int, KernelExchange> traffic;
};

Array i64_array(int64_t v);
Array index_array(const Shape& s);

class RankRunner {
public:
  RankRunner(RankState& s, Comm& comm) : s_(s), g_(s.graph), comm_(comm) {}

  // The runner's part (fusion/graph_run.h).
  using Value = Held;
  Held bind_input(const Array& a) const { return hold(a); }
  void set(ArrayId id, Held v);
  Held get(ArrayId id) const { return vals_.at(id); }
  void drop(ArrayId id);
  bool loop_continues(ArrayId id);
  bool condition(const Kernel& k, const kn::Branch& b);
  void compute(const Kernel& k);

private:
  using Extra = std::vector<std::pair<std::string, Array>>;
  RankState& s_;
  const KernelGraph& g_;
  Comm& comm_;
  std::map<ArrayId, Held> vals_;
  std::map<ArrayId, Array> whole_;     // gathered copies of arrays held in blocks
  std::string plan_;                   // how the kernel in compute() ran
  std::vector<std::string> gathered_;  // the arrays it gathered
  std::vector<std::string> requested_; // the arrays it read by request and reply

  const std::string& name(ArrayId id) const { return g_.arrays[size_t(id)].name; }
  // The name a plan shows: the program's, where fusion renamed the array.
  const std::string& shown(ArrayId id) const {
    const ManifestArray& m = g_.arrays[size_t(id)];
    return m.source_name.empty() ? m.name : m.source_name;
  }
  Held hold(const Array& a) const;
  // The whole array: held whole, or gathered before (gather()).
  const Array& whole(ArrayId id) const;
  Names held_blocks(const std::vector<ArrayId>& ids) const;

  // Collectives: every rank calls them in the same order.
  // Every rank sends its rows of each array to every other.
  void gather(const std::vector<ArrayId>& ids);
  // Gathers the arrays of `reads` named in `need`; returns the blocks left.
  Names gather_for(const std::vector<ArrayId>& reads, const Names& need);
  // gather_for what a reduction's function and seed read other than through
  // shape and size (run_rows has gathered it already: no exchange).
  Names function_blocks(const std::vector<ArrayId>& reads, const Lambda& f, const ExpPtr& seed);
  // Rows want[d] of the array held in blocks as `h`, for every rank d (the
  // same list on every rank): each rank sends the rows of its block that
  // others want; returns this rank's, want[rank()].
  Array fetch_rows(const Held& h, const std::vector<Rows>& want);
  // The same for an array of `global` shape of which rank s holds rows
  // have[s] in `local` (disjoint ranges in rank order, the same lists on
  // every rank).
  Array fetch_rows(const Array& local, const Shape& global, const std::vector<Rows>& have,
                   const std::vector<Rows>& want);
  // The ranges of `n` rows that start a chunk of `chunk` rows in each rank's
  // block, through the end of that chunk (fold_partials, scan_carries). With
  // `from_end`, rows are counted from the last (a right scan's order: rank
  // d's block of rows [lo, hi) is [n - hi, n - lo) in that count) and the
  // ranges are in that count.
  std::vector<Rows> chunk_aligned(int64_t n, int64_t chunk, bool from_end = false) const;

  // Local work: runs `body` on the local engine as a program whose
  // parameters are the arrays `reads` (those in `blocks` as this rank's
  // rows, with their global shape and size; the others whole) and `extra`,
  // compiled once per key (with `order` instead of the executable's when given).
  std::vector<Array> run(const std::string& key, const Kernel& k, const std::vector<ArrayId>& reads,
                         const Names& blocks, const Extra& extra,
                         const std::function<AccPtr()>& body,
                         const ReductionOrder* order = nullptr);
  Array eval(const Kernel& k, const std::string& tag, const ExpPtr& e,
             const std::vector<ArrayId>& reads, const Names& blocks);
  void run_checks(const Kernel& k, const Delayed& d, const std::vector<ArrayId>& reads,
                  const Names& blocks);

  // The plans.
  // This rank's rows of `d` through `body` (given the rows' generate and
  // the blocks it reads in place), after the checks and gathers they need;
  // returns false (having done nothing else) when the kernel should run
  // whole: one rank, or an output under MpiOptions::min_block_bytes.
  struct RowsRun {
    int64_t n = 0; // the rows of the whole output
    Shape shape;   // the whole output's shape
    std::vector<Array> results;
    bool failed = false; // on some rank
  };
  // Reads at computed indices (sites) are fetched by request and reply
  // first (read_requests.cpp); with `reads_alone`, an
  // element that is one such read alone is its replies (`body` is then the
  // identity); `worth(n)` false (n: the rows of the output) runs the kernel
  // whole instead, before anything moves.
  bool run_rows(const Kernel& k, const Delayed& d, const std::vector<const Lambda*>& fns,
                const std::vector<ExpPtr>& exps,
                const std::function<AccPtr(AccPtr gen, const Names& blocks)>& body, RowsRun& out,
                const std::string& key = "rows", bool reads_alone = false,
                const std::function<bool(int64_t n)>& worth = {});
  // The arrays run_rows gathers for `d`'s rows (of n in all) and `fns`, `exps`.
  Names rows_need(const Kernel& k, const Delayed& d, const std::vector<const Lambda*>& fns,
                  const std::vector<ExpPtr>& exps, int64_t n) const;
  // The second half of run_rows: gathers what `d` needs and runs this rank's
  // rows (out.n, out.shape set); `aligned`: more arrays of this rank's rows,
  // which the element reads at its own index only.
  void rows_local(const Kernel& k, const Delayed& d, const std::vector<const Lambda*>& fns,
                  const std::vector<ExpPtr>& exps,
                  const std::function<AccPtr(AccPtr gen, const Names& blocks)>& body, RowsRun& out,
                  const std::string& key, const Extra& aligned);
  // The reads of `d` fetched by request and reply (read_requests.cpp).
  struct Requested {
    Delayed element;    // d, each site a read of its replies (with `fetched`)
    Extra fetched;      // the replies: an array of this rank's rows per site; none: no requests
    bool alone = false; // the element is one site alone
  };
  // False when some rank failed (an index out of range, an error computing
  // the indices): the whole kernel decides.
  bool request_reads(const Kernel& k, const Delayed& d, const std::vector<const Lambda*>& fns,
                     const std::vector<ExpPtr>& exps, const RowsRun& rows, const std::string& key,
                     Requested& got);
  void rows_kernel(const Kernel& k, const Delayed& d);
  void whole_kernel(const Kernel& k);
  // failed_anywhere(comm_, f), keeping the lowest failing rank's error as
  // part_error_ for after_failure.
  template <class F> bool part_failed(F&& f) {
    return failed_anywhere(comm_, std::forward<F>(f), &part_error_);
  }
  std::optional<Error> part_error_;
  // Runs the whole kernel after some rank's rows failed: raises the error one
  // machine raises, else (no error whole) keeps the whole results when
  // `recover` or when the part ran out of memory (a rank's part holds
  // arrays, such as its rows of a fused fold's input, that the whole kernel
  // need not), or reports an engine bug.
  void after_failure(const Kernel& k, bool recover);
  // The first half of fold_partials and scan_carries (fold_partials.cpp):
  // this rank's part of a reduction's long row, as the chunks of the fold's
  // (`scan`: the scan's) order that start in its rows (counted from the end
  // with `from_end`: a right scan's order), and the reduction's function and
  // seed reading the arrays as run_rows left them. False when the kernel
  // should run whole, or has (`decided`: its rows failed, the whole kernel
  // raised the error).
  struct LongRow {
    bool decided = false;   // the kernel ran (or raised) whole
    int64_t n = 0;          // the row's length
    std::vector<Rows> have; // per rank, the range of the row (chunk-aligned) it took
    Array mine;             // this rank's range, in the reduction's order
    Names blocks;           // the arrays the function and seed read as blocks
    Lambda fn;
    ExpPtr seed;
  };
  bool long_row(const Kernel& k, const Delayed& input, const Lambda& f, const ExpPtr& seed,
                bool scan, bool from_end, LongRow& out);
  bool fold_partials(const Kernel& k, const kn::Fold& f);
  bool stencil_halo(const Kernel& k, const kn::Stencil& st);
  bool scan_carries(const Kernel& k, const kn::Scan& sc);
  bool foldseg_carries(const Kernel& k, const kn::FoldSeg& fs);
  bool permute_in_order(const Kernel& k, const kn::Permute& p);
  bool permute_at_owners(const Kernel& k, const kn::Permute& p, const RowsRun& pairs,
                         const Index& out_shape);

  AccPtr ref(ArrayId id) const;
  AccPtr whole_body(const Kernel& k) const;
};

} // namespace strata::mpi
