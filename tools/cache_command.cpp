// strata cache stats|clear [--dir DIR]: what the kernel cache holds on disk,
// and emptying it (cache/kernel_cache.h). Built only with an engine that
// caches kernels (jit, cuda).
#include <iomanip>
#include <iostream>

#include "cache/kernel_cache.h"
#include "core/error.h"
#include "tools/commands.h"
#include "tools/options.h"

namespace strata::tool {

int cache_command(const Args& args) {
  po::options_description options(
      "usage: strata cache stats|clear [--dir DIR]\n\n"
      "The on-disk kernel cache of the jit and cuda engines: `stats` shows its\n"
      "directory, entries and size per engine, `clear` empties it. The directory is\n"
      "STRATA_CACHE_DIR, else $XDG_CACHE_HOME/strata, else ~/.cache/strata;\n"
      "STRATA_CACHE=off turns the cache off; STRATA_CACHE_MAX_MB bounds its size.\n\noptions");
  options.add_options()("dir", po::value<std::string>(), "the cache directory");
  ParsedArgs parsed = parse_args(args, options);
  if (parsed.help) {
    std::cout << options << "\n";
    return 0;
  }
  if (parsed.positional.size() != 1 ||
      (parsed.positional[0] != "stats" && parsed.positional[0] != "clear"))
    throw Error(ErrorKind::Usage, "cache: expected `stats` or `clear`");
  cache::DiskOptions disk = cache::disk_options_from_environment();
  if (parsed.vars.count("dir")) {
    disk.dir = parsed.vars["dir"].as<std::string>();
    disk.enabled = true;
  }
  if (disk.dir.empty())
    throw Error(ErrorKind::Usage, "cache: no cache directory (set HOME or --dir)");
  if (parsed.positional[0] == "clear") {
    uint64_t removed = cache::disk_clear(disk);
    std::cout << "removed " << removed << " entries from " << disk.dir.string() << "\n";
    return 0;
  }
  cache::DiskStats stats = cache::disk_stats(disk);
  auto mib = [](uint64_t bytes) { return double(bytes) / double(1 << 20); };
  std::cout << std::fixed << std::setprecision(2) << "directory: " << disk.dir.string()
            << (disk.enabled ? "" : " (off: STRATA_CACHE=off)") << "\n"
            << "entries:   " << stats.entries << "\n"
            << "size:      " << mib(stats.bytes) << " MiB of " << mib(disk.max_bytes)
            << " MiB allowed\n";
  for (const auto& [engine, counts] : stats.by_engine)
    std::cout << "  " << engine << ": " << counts.first << " entries, " << mib(counts.second)
              << " MiB\n";
  return 0;
}

} // namespace strata::tool
