#include "fusion/dot.h"

#include <sstream>

namespace strata {
namespace {

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

std::string where(const SrcLoc& loc) {
  if (!loc.known()) return "";
  return std::to_string(loc.line) + ":" + std::to_string(loc.col);
}

class DotWriter {
public:
  explicit DotWriter(const KernelGraph& g) : g_(g), producer_(g.arrays.size()) {}

  std::string run(const std::string& title) {
    out_ << "digraph \"" << escape(title) << "\" {\n"
         << "  label=\"" << escape(title) << (g_.fused ? " (fused" : " (unfused") << ", "
         << count_kernels(g_) << " kernel(s))\";\n"
         << "  labelloc=t;\n  node [fontname=\"monospace\", fontsize=10];\n"
         << "  edge [fontname=\"monospace\", fontsize=9];\n";
    for (size_t i = 0; i < g_.arrays.size(); ++i) {
      const ManifestArray& a = g_.arrays[i];
      if (a.origin != ManifestArray::Origin::Input && a.origin != ManifestArray::Origin::Literal)
        continue;
      std::string what = a.origin == ManifestArray::Origin::Input
                             ? "input " + a.source_name
                             : "use " + shape_str(a.literal.shape());
      out_ << "  a" << i << " [shape=ellipse, label=\"" << escape(what + "\n" + a.type.str())
           << "\"];\n";
      producer_[i] = "a" + std::to_string(i);
    }
    block(g_.body, "  ");
    for (size_t r = 0; r < g_.outputs.size(); ++r) {
      out_ << "  r" << r << " [shape=doubleoctagon, label=\"result " << r << "\"];\n";
      edge(g_.outputs[r], "r" + std::to_string(r), "  ");
    }
    out_ << "}\n";
    return out_.str();
  }

private:
  const KernelGraph& g_;
  std::vector<std::string> producer_; // dot node that produces each array
  std::ostringstream out_;
  int cluster_ = 0;

  std::string array_label(ArrayId id) const {
    const ManifestArray& a = g_.arrays[size_t(id)];
    return a.name + (a.source_name.empty() ? "" : " (" + a.source_name + ")");
  }

  void edge(ArrayId id, const std::string& to, const std::string& indent,
            const std::string& style = "") {
    const std::string& from = producer_[size_t(id)];
    if (from.empty()) return;
    out_ << indent << from << " -> " << to << " [label=\"" << escape(array_label(id)) << "\""
         << style << "];\n";
  }

  void block(const Block& b, const std::string& indent) {
    for (const Kernel& k : b)
      kernel(k, indent);
  }

  void state_node(ArrayId id, const std::string& indent) {
    out_ << indent << "a" << id << " [shape=ellipse, style=dashed, label=\""
         << escape(array_label(id) + "\n" + g_.arrays[size_t(id)].type.str()) << "\"];\n";
    producer_[size_t(id)] = "a" + std::to_string(id);
  }

  void kernel(const Kernel& k, const std::string& indent) {
    std::string ops;
    for (const SourceOp& op : k.ops)
      ops += "\n" + op.name + (op.loc.known() ? "  " + where(op.loc) : "");
    if (const auto* loop = std::get_if<kn::Loop>(&k.body)) {
      std::string in = indent + "  ";
      out_ << indent << "subgraph cluster_" << cluster_++ << " {\n"
           << in << "style=dashed; label=\"" << escape("awhile" + ops) << "\";\n";
      for (size_t i = 0; i < loop->state.size(); ++i) {
        state_node(loop->state[i], in);
        edge(loop->init[i], "a" + std::to_string(loop->state[i]), in, ", style=dashed");
      }
      block(loop->cond, in);
      block(loop->body, in);
      for (size_t i = 0; i < loop->state.size(); ++i)
        edge(loop->next[i], "a" + std::to_string(loop->state[i]), in,
             ", style=dashed, constraint=false");
      out_ << indent << "}\n";
      for (size_t i = 0; i < k.outputs.size(); ++i)
        producer_[size_t(k.outputs[i])] = producer_[size_t(loop->state[i])];
      return;
    }
    if (const auto* br = std::get_if<kn::Branch>(&k.body)) {
      std::string in = indent + "  ";
      out_ << indent << "subgraph cluster_" << cluster_++ << " {\n"
           << in << "style=dashed; label=\"" << escape("acond" + ops) << "\";\n";
      for (ArrayId id : array_reads(g_, k))
        edge(id, "k" + std::to_string(k.id), in);
      out_ << in << "k" << k.id << " [shape=diamond, label=\"condition\"];\n";
      block(br->then_block, in);
      block(br->else_block, in);
      for (size_t i = 0; i < k.outputs.size(); ++i) {
        state_node(k.outputs[i], in);
        edge(br->then_results[i], "a" + std::to_string(k.outputs[i]), in,
             ", style=dashed, taillabel=\"then\"");
        edge(br->else_results[i], "a" + std::to_string(k.outputs[i]), in,
             ", style=dashed, taillabel=\"else\"");
      }
      out_ << indent << "}\n";
      return;
    }
    std::string name = "k" + std::to_string(k.id);
    out_ << indent << name << " [shape=box, label=\""
         << escape("kernel " + std::to_string(k.id) + ": " + std::string(kernel_kind_name(k)) + ops)
         << "\"];\n";
    for (ArrayId id : array_reads(g_, k))
      edge(id, name, indent);
    for (ArrayId id : k.outputs)
      producer_[size_t(id)] = name;
  }
};

} // namespace

std::string kernel_graph_dot(const KernelGraph& graph, const std::string& title) {
  return DotWriter(graph).run(title);
}

} // namespace strata
