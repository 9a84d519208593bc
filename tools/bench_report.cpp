#include "tools/bench_report.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <iomanip>
#include <numeric>
#include <sstream>
#include <thread>

#include "core/atomic_file.h"
#include "core/json_string.h"

namespace strata::tool {
namespace {

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string fixed(double v, int digits) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << v;
  return s.str();
}

std::string ms_text(double ms) {
  if (ms >= 1000) return fixed(ms / 1000, 2) + " s";
  if (ms >= 1) return fixed(ms, ms < 10 ? 2 : 1) + " ms";
  return fixed(ms * 1000, ms * 1000 < 10 ? 2 : 1) + " us";
}

// A number as JSON (no NaN or infinity there: null).
std::string num(double v) {
  if (!std::isfinite(v)) return "null";
  std::ostringstream s;
  s << std::setprecision(17) << v;
  return s.str();
}

const BenchRow* interp_row(const BenchRun& run) {
  for (const BenchRow& r : run.rows)
    if (r.engine == "interp") return &r;
  return nullptr;
}

std::string times_text(double x) {
  return fixed(x, x < 10 ? 2 : x < 100 ? 1 : 0) + "x";
}

std::string speedup(const BenchRun& run, const BenchRow& r) {
  const BenchRow* i = interp_row(run);
  if (!i || i->runs.empty() || r.runs.empty() || r.median() <= 0) return "-";
  return times_text(i->median() / r.median());
}

std::string throughput(const BenchRow& r) {
  if (r.runs.empty() || r.median() <= 0 || r.bytes <= 0) return "-";
  double gbs = r.bytes / (r.median() * 1e-3) / 1e9;
  return fixed(gbs, gbs < 10 ? 2 : 1) + " GB/s";
}

std::string escape_xml(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else
      out += c;
  }
  return out;
}

} // namespace

double BenchRow::median() const {
  return median_of(runs);
}
double BenchRow::min() const {
  return runs.empty() ? 0 : *std::min_element(runs.begin(), runs.end());
}
double BenchRow::max() const {
  return runs.empty() ? 0 : *std::max_element(runs.begin(), runs.end());
}
std::string BenchRow::label() const {
  if (fusion == "-") return engine;
  return engine + (fusion == "on" ? " fused" : " unfused");
}

void print_bench_table(const BenchRun& run, std::ostream& out) {
  std::vector<std::vector<std::string>> rows{{"engine", "fusion", "compile", "median", "min", "max",
                                              "runs", "speed-up", "throughput", "verified"}};
  bool unstable = false;
  for (const BenchRow& r : run.rows) {
    unstable = unstable || (!r.runs.empty() && r.noisy());
    if (r.runs.empty()) {
      rows.push_back({r.engine, r.fusion, "-", "-", "-", "-", "0", "-", "-", r.verified});
      continue;
    }
    rows.push_back({r.engine, r.fusion, ms_text(r.compile_ms),
                    (r.noisy() ? "~" : "") + ms_text(r.median()), ms_text(r.min()),
                    ms_text(r.max()), std::to_string(r.runs.size()), speedup(run, r), throughput(r),
                    r.verified});
  }
  std::vector<size_t> width(rows[0].size(), 0);
  for (const auto& r : rows)
    for (size_t c = 0; c < r.size(); ++c)
      width[c] = std::max(width[c], r[c].size());
  for (const auto& r : rows) {
    for (size_t c = 0; c < r.size(); ++c) {
      bool right = c >= 2 && c <= 8, last = c + 1 == r.size();
      out << (c ? "  " : "") << (right ? std::right : std::left)
          << std::setw(last ? 0 : int(width[c])) << r[c];
    }
    out << "\n";
  }
  if (unstable)
    out << "~: noisy: the runs spread over 1.5x the fastest, or the median had not settled (the "
           "last half of the runs over 3% from the whole) when the time ran out; run on an idle "
           "machine or with a longer --min-time\n";
  // Fused against unfused, per engine: a difference is called only when the
  // two ranges of run times (min to max) do not overlap.
  for (const BenchRow& f : run.rows) {
    if (f.fusion != "on" || f.runs.empty()) continue;
    for (const BenchRow& u : run.rows) {
      if (u.engine != f.engine || u.fusion != "off" || u.runs.empty()) continue;
      out << f.engine << ": ";
      if (f.max() < u.min())
        out << "fused " << times_text(u.median() / f.median()) << " faster than unfused\n";
      else if (u.max() < f.min())
        out << "unfused " << times_text(f.median() / u.median()) << " faster than fused\n";
      else
        out << "fused and unfused within the noise (their run times overlap)\n";
    }
  }
}

void write_bench_json(const BenchRun& run, const std::string& path) {
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  std::time_t now = std::time(nullptr);
  char date[64];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S+00:00", std::gmtime(&now));
  std::ostringstream j;
  j << "{\n  \"context\": {\n"
    << "    \"date\": " << json_string(date) << ",\n"
    << "    \"host_name\": " << json_string(host) << ",\n"
    << "    \"executable\": " << json_string("strata bench " + run.program) << ",\n"
    << "    \"num_cpus\": " << std::thread::hardware_concurrency() << ",\n"
    << "    \"mhz_per_cpu\": 0,\n    \"cpu_scaling_enabled\": false,\n"
    << "    \"caches\": [],\n    \"load_avg\": [],\n"
    << "    \"library_build_type\": \"release\",\n"
    << "    \"strata_inputs\": " << json_string(run.inputs) << ",\n"
    << "    \"strata_threads\": " << run.threads << "\n  },\n  \"benchmarks\": [";
  bool first = true;
  int family = 0;
  auto entry = [&](const std::string& name, const std::string& run_name, const std::string& type,
                   const std::string& aggregate, int reps, int index, double real, double cpu,
                   double bytes) {
    j << (first ? "\n" : ",\n") << "    {\"name\": " << json_string(name)
      << ", \"family_index\": " << family << ", \"per_family_instance_index\": 0"
      << ", \"run_name\": " << json_string(run_name) << ", \"run_type\": \"" << type << "\"";
    if (!aggregate.empty()) j << ", \"aggregate_name\": \"" << aggregate << "\"";
    j << ", \"repetitions\": " << reps << ", \"repetition_index\": " << index
      << ", \"threads\": 1, \"iterations\": 1, \"real_time\": " << num(real * 1e3)
      << ", \"cpu_time\": " << num(cpu * 1e3) << ", \"time_unit\": \"us\"";
    if (bytes > 0 && real > 0) j << ", \"bytes_per_second\": " << num(bytes / (real * 1e-3));
    j << "}";
    first = false;
  };
  for (const BenchRow& r : run.rows) {
    if (r.runs.empty()) continue;
    std::string name = run.program + "/" + r.engine +
                       (r.fusion == "-"    ? ""
                        : r.fusion == "on" ? "/fused"
                                           : "/unfused");
    int reps = int(r.runs.size());
    entry(name + "/compile", name + "/compile", "iteration", "", 1, 0, r.compile_ms, r.compile_ms,
          0);
    ++family;
    for (int i = 0; i < reps; ++i)
      entry(name, name, "iteration", "", reps, i, r.runs[size_t(i)], r.cpu[size_t(i)], r.bytes);
    auto mean = [](const std::vector<double>& v) {
      return std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
    };
    auto stddev = [&](const std::vector<double>& v) {
      if (v.size() < 2) return 0.0;
      double m = mean(v), s = 0;
      for (double x : v)
        s += (x - m) * (x - m);
      return std::sqrt(s / double(v.size() - 1));
    };
    entry(name + "_mean", name, "aggregate", "mean", reps, 0, mean(r.runs), mean(r.cpu), r.bytes);
    entry(name + "_median", name, "aggregate", "median", reps, 0, r.median(), median_of(r.cpu),
          r.bytes);
    entry(name + "_stddev", name, "aggregate", "stddev", reps, 0, stddev(r.runs), stddev(r.cpu), 0);
    ++family;
  }
  j << "\n  ]\n}\n";
  AtomicFile f(path);
  f.write(j.str());
  f.commit();
}

void write_bench_svg(const BenchRun& run, const std::string& path) {
  std::vector<const BenchRow*> rows;
  for (const BenchRow& r : run.rows)
    if (!r.runs.empty()) rows.push_back(&r);
  const double left = 150, right = 110, top = 50, bar = 22, gap = 10, width = 760;
  double height = top + double(rows.size()) * (bar + gap) + 50;
  double lo = 1e300, hi = 0;
  for (const BenchRow* r : rows) {
    lo = std::min(lo, std::max(r->min(), 1e-6));
    hi = std::max(hi, r->max());
  }
  if (rows.empty()) lo = hi = 1;
  // Whole decades around every time, so that the axis is read in 10s.
  double d0 = std::floor(std::log10(lo)), d1 = std::ceil(std::log10(hi));
  if (d1 <= d0) d1 = d0 + 1;
  double plot = width - left - right;
  auto x = [&](double ms) {
    return left + (std::log10(std::max(ms, 1e-6)) - d0) / (d1 - d0) * plot;
  };
  std::ostringstream s;
  s << std::fixed << std::setprecision(1);
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
    << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
    << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    << "<text x=\"" << left << "\" y=\"20\" font-size=\"14\">" << escape_xml(run.program)
    << ": run time per engine (median; whiskers min to max; log scale)</text>\n"
    << "<text x=\"" << left << "\" y=\"36\" fill=\"#555\">inputs " << escape_xml(run.inputs)
    << "</text>\n";
  double axis = top + double(rows.size()) * (bar + gap);
  for (double d = d0; d <= d1; ++d) {
    double px = x(std::pow(10, d));
    s << "<line x1=\"" << px << "\" y1=\"" << top - 4 << "\" x2=\"" << px << "\" y2=\"" << axis
      << "\" stroke=\"#ddd\"/>\n<text x=\"" << px << "\" y=\"" << axis + 16
      << "\" text-anchor=\"middle\">" << ms_text(std::pow(10, d)) << "</text>\n";
  }
  for (size_t i = 0; i < rows.size(); ++i) {
    const BenchRow& r = *rows[i];
    double y = top + double(i) * (bar + gap);
    const char* colour = r.engine == "interp" ? "#999" : r.fusion == "off" ? "#9ecae1" : "#3182bd";
    s << "<text x=\"" << left - 8 << "\" y=\"" << y + bar * 0.7 << "\" text-anchor=\"end\">"
      << escape_xml(r.label()) << "</text>\n"
      << "<rect x=\"" << left << "\" y=\"" << y << "\" width=\""
      << std::max(1.0, x(r.median()) - left) << "\" height=\"" << bar << "\" fill=\"" << colour
      << "\"/>\n"
      << "<line x1=\"" << x(r.min()) << "\" y1=\"" << y + bar / 2 << "\" x2=\"" << x(r.max())
      << "\" y2=\"" << y + bar / 2 << "\" stroke=\"black\"/>\n";
    for (double w : {r.min(), r.max()})
      s << "<line x1=\"" << x(w) << "\" y1=\"" << y + 5 << "\" x2=\"" << x(w) << "\" y2=\""
        << y + bar - 5 << "\" stroke=\"black\"/>\n";
    s << "<text x=\"" << width - right + 6 << "\" y=\"" << y + bar * 0.7 << "\">"
      << ms_text(r.median()) << " " << speedup(run, r) << "</text>\n";
  }
  s << "<text x=\"" << left << "\" y=\"" << height - 8
    << "\" fill=\"#555\">dark: fused, light: unfused, grey: the interpreter</text>\n</svg>\n";
  AtomicFile f(path);
  f.write(s.str());
  f.commit();
}

} // namespace strata::tool
