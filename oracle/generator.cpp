#include "oracle/generator.h"

#include <algorithm>

#include "core/array_format.h"
#include "core/check.h"
#include "core/parser.h"
#include "oracle/gen/builder.h"
#include "oracle/gen/values.h"

namespace strata {

Program GeneratedCase::parse() const {
  return parse_program(text, "generated.strata");
}

Program GeneratedCase::checked() const {
  Program p = parse();
  check_program(p);
  return p;
}

GeneratedCase generate_case(gen::Choices& c, int size) {
  size = std::clamp(size, 0, 100);
  gen::Limits limits;
  limits.acc_depth = 1 + size / 25; // 1..5 nested collectives below the result
  limits.exp_depth = 1 + size / 40; // 1..3 nested scalar operations per function
  gen::Builder b(c, limits);

  GeneratedCase out;
  out.size = size;
  std::string header = "(program (";
  int nparams = c.range(0, 3);
  for (int i = 0; i < nparams; ++i) {
    std::string name = "p" + std::to_string(i);
    Type t = Type::array(b.elem_type(), b.rank());
    gen::ValueOptions values;
    values.non_finite = c.chance(25);
    out.inputs.push_back(gen::random_array(c, t.elem(), gen::random_shape(c, t.rank(), 5), values));
    out.params.push_back(name);
    b.arrays().push_back({name, t});
    header += (i ? " (" : "(") + name + " " + t.str() + ")";
  }
  header += ") ";
  std::string body;
  if (c.chance(15)) {
    int n = c.range(2, 3);
    body = "(atuple";
    for (int k = 0; k < n; ++k)
      body += " " + b.acc(b.elem_type(), b.rank(), limits.acc_depth);
    body += ")";
  } else {
    body = b.acc(b.elem_type(), b.rank(), limits.acc_depth);
  }
  std::string defines;
  for (const std::string& d : b.defines())
    defines += d + "\n";
  out.text = defines + header + body + ")\n";
  return out;
}

GeneratedCase generate_case(uint64_t seed, int size) {
  gen::Choices c(seed);
  return generate_case(c, size);
}

void show_case(const GeneratedCase& c, std::ostream& out) {
  out << c.text;
  for (size_t i = 0; i < c.inputs.size(); ++i)
    out << c.params[i] << " " << shape_str(c.inputs[i].shape()) << " = "
        << format_array(c.inputs[i]) << "\n";
}

} // namespace strata
