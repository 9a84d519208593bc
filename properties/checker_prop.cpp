// Properties of the generator, the printer/parser and the type checker:
// every generated program type-checks; printing and parsing give back the
// same program; mutated programs are rejected with a strata::Error (or still
// accepted), never a crash; type-breaking IR mutations are type errors.
#include <gtest/gtest.h>

#include "core/check.h"
#include "core/ir_walk.h"
#include "core/parser.h"
#include "core/printer.h"
#include "oracle/generator_rc.h"
#include "properties/property.h"

namespace strata {
namespace {

TEST(Generator, CheckerAcceptsEveryGeneratedProgram) {
  prop::check(1000, [](const GeneratedCase& c) {
    try {
      Program p = c.checked();
      RC_ASSERT(p.params.size() == c.inputs.size());
      for (size_t i = 0; i < c.inputs.size(); ++i)
        RC_ASSERT(p.params[i].type == c.inputs[i].type());
    } catch (const Error& e) {
      RC_FAIL(std::string("rejected: ") + e.what());
    }
  });
}

TEST(TextForm, ParsePrintRoundTrip) {
  prop::check(1000, [](const GeneratedCase& c) {
    Program p = c.parse();
    std::string printed = print_program(p);
    Program again = parse_program(printed, "printed.strata");
    RC_ASSERT(equal(p, again));
    RC_ASSERT(print_program(again) == printed); // printing is idempotent
  });
}

// Tokens of program text: parens, string literals, atoms.
std::vector<std::string> tokens(const std::string& text) {
  std::vector<std::string> out;
  for (size_t i = 0; i < text.size();) {
    char ch = text[i];
    if (std::isspace((unsigned char)ch)) {
      ++i;
    } else if (ch == '(' || ch == ')') {
      out.emplace_back(1, ch);
      ++i;
    } else if (ch == '"') {
      size_t j = text.find('"', i + 1);
      j = j == std::string::npos ? text.size() : j + 1;
      out.push_back(text.substr(i, j - i));
      i = j;
    } else {
      size_t j = i;
      while (j < text.size() && !std::isspace((unsigned char)text[j]) && text[j] != '(' &&
             text[j] != ')')
        ++j;
      out.push_back(text.substr(i, j - i));
      i = j;
    }
  }
  return out;
}

TEST(TypeChecker, TextMutationsAreErrorsNotCrashes) {
  static const char* const strange[] = {"(",
                                        ")",
                                        "i32",
                                        "f64",
                                        "0",
                                        "-1",
                                        "1.5",
                                        "nan",
                                        "x0",
                                        "t0",
                                        "lambda",
                                        "ix",
                                        "(ix)",
                                        "\"s\"",
                                        "true",
                                        "all",
                                        "9999999999999999999999",
                                        "(tuple)",
                                        "array",
                                        "proj",
                                        "-0.0",
                                        "u8"};
  prop::check(1000, [](const GeneratedCase& c) {
    std::vector<std::string> toks = tokens(print_program(c.parse()));
    int mutations = *rc::gen::inRange(1, 4);
    for (int m = 0; m < mutations && !toks.empty(); ++m) {
      size_t i = size_t(*rc::gen::inRange<size_t>(0, toks.size()));
      size_t j = size_t(*rc::gen::inRange<size_t>(0, toks.size()));
      switch (*rc::gen::inRange(0, 5)) {
      case 0: toks.erase(toks.begin() + std::ptrdiff_t(i)); break;
      case 1: toks.insert(toks.begin() + std::ptrdiff_t(i), toks[j]); break;
      case 2: std::swap(toks[i], toks[j]); break;
      case 3: toks[i] = toks[j]; break;
      default: toks[i] = strange[*rc::gen::inRange<size_t>(0, std::size(strange))];
      }
    }
    std::string text;
    for (const std::string& t : toks)
      text += t + " ";
    try {
      Program p = parse_program(text, "mutated.strata");
      check_program(p); // may still be a valid program
    } catch (const Error& e) {
      RC_ASSERT(e.kind() == ErrorKind::Syntax || e.kind() == ErrorKind::Type);
    }
  });
}

TEST(TypeChecker, RejectsWrongLambdaParameterTypes) {
  prop::check(500, [](const GeneratedCase& c) {
    // checked first, so that every parameter has its type (written or inferred)
    Program p = c.checked();
    std::vector<Param*> params; // parameters of the functions of collective operations
    auto collect = [&](Lambda& f) {
      for (Param& q : f.params)
        params.push_back(&q);
    };
    walk_nodes(
        *p.body, [](Exp&) {},
        [&](Acc& a) {
          std::visit(
              [&](auto& n) {
                using N = std::decay_t<decltype(n)>;
                if constexpr (requires { n.f.params; }) collect(n.f);
                if constexpr (std::is_same_v<N, ac::Permute>) {
                  collect(n.combine);
                  collect(n.target);
                }
                if constexpr (std::is_same_v<N, ac::Backpermute>) collect(n.source_index);
              },
              a.node);
        });
    if (params.empty()) return;
    Param* victim = params[*rc::gen::inRange<size_t>(0, params.size())];
    Type wrong = victim->type == Type::scalar(ScalarKind::I16) ? Type::scalar(ScalarKind::U16)
                                                               : Type::scalar(ScalarKind::I16);
    victim->type = wrong;
    victim->typed = true; // written, so never inferred
    try {
      check_program(p);
      RC_FAIL("a program with a mistyped lambda parameter was accepted");
    } catch (const Error& e) {
      RC_ASSERT(e.kind() == ErrorKind::Type);
    }
  });
}

} // namespace
} // namespace strata
