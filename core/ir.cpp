#include "core/ir.h"

#include "core/overload.h"

namespace strata {
std::string_view scan_name(ac::ScanKind k) {
  switch (k) {
  case ac::ScanKind::Scanl: return "scanl";
  case ac::ScanKind::Scanl1: return "scanl1";
  case ac::ScanKind::Scanr: return "scanr";
  case ac::ScanKind::Scanr1: return "scanr1";
  case ac::ScanKind::ScanlPrime: return "scanl'";
  }
  return "scan";
}

std::string_view form_name(const ExpNode& n) {
  return std::visit(Overload{[](const ex::Const&) { return std::string_view("literal"); },
                             [](const ex::Var&) { return std::string_view("variable"); },
                             [](const ex::Let&) { return std::string_view("let"); },
                             [](const ex::If&) { return std::string_view("if"); },
                             [](const ex::Tuple&) { return std::string_view("tuple"); },
                             [](const ex::Proj&) { return std::string_view("proj"); },
                             [](const ex::Index&) { return std::string_view("ix"); },
                             [](const ex::Cast&) { return std::string_view("cast"); },
                             [](const ex::While&) { return std::string_view("while"); },
                             [](const ex::ShapeOf&) { return std::string_view("shape"); },
                             [](const ex::SizeOf&) { return std::string_view("size"); },
                             [](const ex::Read&) { return std::string_view("!"); },
                             [](const ex::LinearRead&) { return std::string_view("!!"); },
                             [](const ex::The&) { return std::string_view("the"); },
                             [](const ex::ToIndex&) { return std::string_view("to-index"); },
                             [](const ex::FromIndex&) { return std::string_view("from-index"); },
                             [](const ex::Ignore&) { return std::string_view("ignore"); },
                             [](const ex::Trace&) { return std::string_view("trace"); },
                             [](const ex::PrimApp& p) { return prim_name(p.op); },
                             [](const ex::At&) { return std::string_view("at"); },
                             [](const ex::Call& c) { return std::string_view(c.name); }},
                    n);
}

std::string_view form_name(const AccNode& n) {
  return std::visit(
      Overload{[](const ac::Var&) { return std::string_view("variable"); },
               [](const ac::Alet&) { return std::string_view("alet"); },
               [](const ac::ATuple&) { return std::string_view("atuple"); },
               [](const ac::AProj&) { return std::string_view("aproj"); },
               [](const ac::Use&) { return std::string_view("use"); },
               [](const ac::Unit&) { return std::string_view("unit"); },
               [](const ac::Generate&) { return std::string_view("generate"); },
               [](const ac::Fill&) { return std::string_view("fill"); },
               [](const ac::Map&) { return std::string_view("map"); },
               [](const ac::ZipWith&) { return std::string_view("zipwith"); },
               [](const ac::Fold& f) { return std::string_view(f.seed ? "fold" : "fold1"); },
               [](const ac::FoldSeg&) { return std::string_view("foldseg"); },
               [](const ac::Scan& s) { return scan_name(s.kind); },
               [](const ac::Permute&) { return std::string_view("permute"); },
               [](const ac::Backpermute&) { return std::string_view("backpermute"); },
               [](const ac::Reshape&) { return std::string_view("reshape"); },
               [](const ac::Replicate&) { return std::string_view("replicate"); },
               [](const ac::Slice&) { return std::string_view("slice"); },
               [](const ac::Stencil&) { return std::string_view("stencil"); },
               [](const ac::Awhile&) { return std::string_view("awhile"); },
               [](const ac::ATrace&) { return std::string_view("atrace"); },
               [](const ac::ACond&) { return std::string_view("acond"); },
               [](const ac::Call& c) { return std::string_view(c.name); }},
      n);
}

} // namespace strata
