#include "fusion/report.h"

#include <cstdio>
#include <sstream>

#include "core/json_string.h"

namespace strata {
namespace {

std::string ms(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6f", v);
  return buf;
}

} // namespace

std::string phases_text(const std::vector<PhaseTimes>& engines) {
  std::ostringstream out;
  for (const PhaseTimes& e : engines) {
    out << "phases (" << e.engine << "):";
    bool first = true;
    for (const auto& [name, v] : e.phases) {
      size_t dot = name.find('.');
      // A part whose parent phase is there is printed with it.
      if (dot != std::string::npos && e.ms_of(name.substr(0, dot)) >= 0) continue;
      out << (first ? " " : ", ") << name << " " << ms(v) << " ms";
      first = false;
      bool any = false;
      for (const auto& [part, pv] : e.phases) {
        if (part.size() <= name.size() + 1 || part.compare(0, name.size() + 1, name + ".") != 0)
          continue;
        out << (any ? ", " : " [") << part.substr(name.size() + 1) << " " << ms(pv) << " ms";
        any = true;
      }
      if (any) out << "]";
    }
    out << "; total " << ms(e.total_ms()) << " ms";
    if (e.wall_ms >= 0) out << "; wall " << ms(e.wall_ms) << " ms";
    out << "\n";
  }
  return out.str();
}

std::string exchange_text(const KernelGraph& graph, const std::map<int, KernelTiming>& kernels) {
  std::ostringstream out;
  bool any = false;
  for (const Kernel* k : compute_kernels(graph)) {
    auto it = kernels.find(k->id);
    if (it == kernels.end() || !it->second.exchange) continue;
    const KernelExchange& x = *it->second.exchange;
    out << (any ? "; " : "exchange (this process's ranks): ") << "kernel " << k->id << " "
        << kernel_kind_name(*k) << ": " << x.plan << ", sent " << x.sent << " B, received "
        << x.received << " B";
    any = true;
  }
  if (any) out << "\n";
  return out.str();
}

std::string report_json(const std::string& program, const KernelGraph& graph,
                        const std::vector<PhaseTimes>& engines,
                        const std::map<int, KernelTiming>& kernels) {
  std::ostringstream out;
  out << "{\n  \"program\": " << json_string(program)
      << ",\n  \"fused\": " << (graph.fused ? "true" : "false")
      << ",\n  \"kernel_count\": " << count_kernels(graph) << ",\n  \"engines\": [";
  for (size_t e = 0; e < engines.size(); ++e) {
    out << (e ? "," : "") << "\n    {\"engine\": " << json_string(engines[e].engine)
        << ", \"total_ms\": " << ms(engines[e].total_ms())
        << ", \"wall_ms\": " << (engines[e].wall_ms >= 0 ? ms(engines[e].wall_ms) : "null")
        << ", \"phases\": [";
    for (size_t i = 0; i < engines[e].phases.size(); ++i)
      out << (i ? ", " : "") << "{\"phase\": " << json_string(engines[e].phases[i].first)
          << ", \"ms\": " << ms(engines[e].phases[i].second) << "}";
    out << "]}";
  }
  out << "\n  ],\n  \"kernels\": [";
  bool first = true;
  for (const Kernel* k : compute_kernels(graph)) {
    out << (first ? "" : ",") << "\n    {\"id\": " << k->id
        << ", \"kind\": " << json_string(std::string(kernel_kind_name(*k))) << ", \"ops\": [";
    first = false;
    for (size_t i = 0; i < k->ops.size(); ++i) {
      const SourceOp& op = k->ops[i];
      out << (i ? ", " : "") << "{\"op\": " << json_string(op.name) << ", \"line\": " << op.loc.line
          << ", \"col\": " << op.loc.col << ", \"at\": " << json_string(op.loc.str()) << "}";
    }
    out << "], \"outputs\": [";
    for (size_t i = 0; i < k->outputs.size(); ++i)
      out << (i ? ", " : "") << json_string(graph.arrays[size_t(k->outputs[i])].name);
    auto it = kernels.find(k->id);
    KernelTiming t = it == kernels.end() ? KernelTiming{} : it->second;
    out << "], \"compile_ms\": " << ms(t.compile_ms) << ", \"cache\": " << json_string(t.cache)
        << ", \"run_ms\": " << (t.run_ms ? ms(*t.run_ms) : "null");
    if (t.exchange)
      out << ", \"exchange\": {\"plan\": " << json_string(t.exchange->plan)
          << ", \"sent_bytes\": " << t.exchange->sent
          << ", \"received_bytes\": " << t.exchange->received << "}";
    out << "}";
  }
  out << "\n  ]\n}\n";
  return out.str();
}

} // namespace strata
