// The text parser: every form of docs/language.md (Exp and Acc), literals,
// types, source positions and syntax errors with their positions.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

#include "core/parser.h"

namespace strata {
namespace {

const ExpPtr& e_ok(const ExpPtr& e) {
  EXPECT_NE(e, nullptr);
  return e;
}

ExpPtr exp(std::string_view text) {
  return parse_exp(text, "test.strata");
}
AccPtr acc(std::string_view text) {
  return parse_acc(text, "test.strata");
}

// A copy of the node (it shares the children), so that a temporary pointer may be passed.
template <class T> T node(const ExpPtr& e) {
  EXPECT_TRUE(std::holds_alternative<T>(e_ok(e)->node)) << "form: " << form_name(e->node);
  return std::get<T>(e->node);
}
template <class T> T node(const AccPtr& a) {
  EXPECT_NE(a, nullptr);
  EXPECT_TRUE(std::holds_alternative<T>(a->node)) << "form: " << form_name(a->node);
  return std::get<T>(a->node);
}

std::string var_name(const ExpPtr& e) {
  return node<ex::Var>(e).name;
}
std::string var_name(const AccPtr& a) {
  return node<ac::Var>(a).name;
}

Scalar literal(std::string_view text) {
  return node<ex::Const>(exp(text)).value;
}

template <class T> T literal_as(std::string_view text) {
  Scalar s = literal(text);
  EXPECT_EQ(s.kind(), kind_of<T>) << text;
  return s.get<T>();
}

Type f32() {
  return Type::scalar(ScalarKind::F32);
}
Type i32() {
  return Type::scalar(ScalarKind::I32);
}

// Runs `parse`, which must throw a syntax error at line:col whose message contains `part`.
void expect_syntax_error(const std::function<void()>& parse, int line, int col,
                         const std::string& part) {
  try {
    parse();
    ADD_FAILURE() << "no error; expected one containing: " << part;
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Syntax) << e.what();
    EXPECT_EQ(e.loc().line, line) << e.what();
    EXPECT_EQ(e.loc().col, col) << e.what();
    EXPECT_NE(e.message().find(part), std::string::npos) << e.what();
    ASSERT_NE(e.loc().file, nullptr);
    EXPECT_EQ(*e.loc().file, "bad.strata");
  }
}

void program_error(std::string_view text, int line, int col, const std::string& part) {
  SCOPED_TRACE(std::string(text.substr(0, 200)));
  expect_syntax_error([&] { parse_program(text, "bad.strata"); }, line, col, part);
}
void exp_error(std::string_view text, int line, int col, const std::string& part) {
  SCOPED_TRACE(std::string(text));
  expect_syntax_error([&] { parse_exp(text, "bad.strata"); }, line, col, part);
}
void acc_error(std::string_view text, int line, int col, const std::string& part) {
  SCOPED_TRACE(std::string(text));
  expect_syntax_error([&] { parse_acc(text, "bad.strata"); }, line, col, part);
}

// ------------------------------------------------------------------ literals

TEST(ParserLiterals, BoolsAndUnsuffixedNumbers) {
  EXPECT_TRUE(literal_as<bool>("true"));
  EXPECT_FALSE(literal_as<bool>("false"));
  EXPECT_EQ(literal_as<int64_t>("42"), 42);
  EXPECT_EQ(literal_as<int64_t>("-7"), -7);
  EXPECT_EQ(literal_as<double>("1.5"), 1.5);
  EXPECT_EQ(literal_as<double>("1e-3"), 1e-3);
  EXPECT_EQ(literal_as<double>("2.5E+2"), 250.0);
}

TEST(ParserLiterals, Suffixes) {
  EXPECT_EQ(literal_as<int32_t>("42i32"), 42);
  EXPECT_EQ(literal_as<uint8_t>("7u8"), 7);
  EXPECT_EQ(literal_as<int16_t>("-3i16"), -3);
  EXPECT_EQ(literal_as<int8_t>("-128i8"), -128);
  EXPECT_EQ(literal_as<int8_t>("127i8"), 127);
  EXPECT_EQ(literal_as<uint16_t>("65535u16"), 65535);
  EXPECT_EQ(literal_as<uint32_t>("4294967295u32"), 4294967295u);
  EXPECT_EQ(literal_as<int64_t>("5i64"), 5);
  EXPECT_EQ(literal_as<float>("1.5f32"), 1.5f);
  EXPECT_EQ(literal_as<float>("2f32"), 2.0f);
  EXPECT_EQ(literal_as<float>("1.5e10f32"), 1.5e10f);
  EXPECT_EQ(literal_as<double>("3f64"), 3.0);
  EXPECT_EQ(literal_as<float>("0.1f32"), 0.1f); // read as a float, not rounded via double
}

TEST(ParserLiterals, IntegerExtremes) {
  EXPECT_EQ(literal_as<int64_t>("-9223372036854775808"), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(literal_as<int64_t>("9223372036854775807"), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(literal_as<uint64_t>("18446744073709551615u64"), std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(literal_as<int32_t>("-2147483648i32"), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(literal_as<uint8_t>("-0u8"), 0);
}

TEST(ParserLiterals, SpecialFloats) {
  EXPECT_TRUE(std::isinf(literal_as<double>("inf")));
  EXPECT_GT(literal_as<double>("inf"), 0);
  EXPECT_LT(literal_as<double>("-inf"), 0);
  EXPECT_TRUE(std::isnan(literal_as<double>("nan")));
  EXPECT_TRUE(std::isnan(literal_as<float>("nanf32")));
  EXPECT_TRUE(std::isnan(literal_as<double>("nanf64")));
  EXPECT_EQ(literal_as<float>("inff32"), std::numeric_limits<float>::infinity());
  EXPECT_EQ(literal_as<double>("-inff64"), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(literal_as<float>("-inff32"), -std::numeric_limits<float>::infinity());
}

TEST(ParserLiterals, NegativeZeroKeepsItsSign) {
  double d = literal_as<double>("-0.0");
  EXPECT_EQ(d, 0.0);
  EXPECT_TRUE(std::signbit(d));
  EXPECT_TRUE(std::signbit(literal_as<float>("-0.0f32")));
  EXPECT_TRUE(std::signbit(literal_as<float>("-0f32")));
  EXPECT_FALSE(std::signbit(literal_as<double>("0.0")));
}

TEST(ParserLiterals, SubnormalsAndExtremes) {
  EXPECT_EQ(literal_as<double>("5e-324"), std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(literal_as<float>("1e-45f32"), std::numeric_limits<float>::denorm_min());
  EXPECT_EQ(literal_as<double>("1.7976931348623157e+308"), std::numeric_limits<double>::max());
  EXPECT_EQ(literal_as<float>("3.4028235e+38f32"), std::numeric_limits<float>::max());
}

TEST(ParserLiterals, NamesThatLookLikeLiteralsAreVariables) {
  EXPECT_EQ(var_name(exp("info")), "info");
  EXPECT_EQ(var_name(exp("nano")), "nano");
  EXPECT_EQ(var_name(exp("x'")), "x'");
  EXPECT_EQ(var_name(exp("_tmp-1")), "_tmp-1");
}

// --------------------------------------------------------------------- types

TEST(ParserTypes, AllTypeForms) {
  EXPECT_EQ(parse_type("bool"), Type::scalar(ScalarKind::Bool));
  for (int k = 0; k < kNumScalarKinds; ++k) {
    auto kind = ScalarKind(k);
    EXPECT_EQ(parse_type(scalar_name(kind)), Type::scalar(kind));
  }
  EXPECT_EQ(parse_type("(tuple)"), Type::tuple({}));
  EXPECT_EQ(parse_type("(tuple i32 (tuple f32 f64))"),
            Type::tuple({i32(), Type::tuple({f32(), Type::scalar(ScalarKind::F64)})}));
  EXPECT_EQ(parse_type("(ix 3)"), Type::index(3));
  EXPECT_EQ(parse_type("(ix 0)"), Type::tuple({}));
  EXPECT_EQ(parse_type("(array f32 2)"), Type::array(f32(), 2));
  EXPECT_EQ(parse_type("(array (tuple i32 f32) 0)"), Type::array(Type::tuple({i32(), f32()}), 0));
  EXPECT_EQ(parse_type("(window f32 2)"), Type::window(f32(), 2));
  EXPECT_EQ(parse_type("(tuple (array f32 1) (array i32 2))"),
            Type::tuple({Type::array(f32(), 1), Type::array(i32(), 2)}));
}

// ------------------------------------------------------------- scalar forms

TEST(ParserExp, VariablesAndLet) {
  auto e = exp("(let ((x 1) (y (+ x 2))) (* x y))");
  const auto& let = node<ex::Let>(e);
  ASSERT_EQ(let.bindings.size(), 2u);
  EXPECT_EQ(let.bindings[0].name, "x");
  EXPECT_EQ(literal_as<int64_t>("1"), node<ex::Const>(let.bindings[0].value).value.get<int64_t>());
  EXPECT_EQ(let.bindings[1].name, "y");
  EXPECT_EQ(node<ex::PrimApp>(let.bindings[1].value).op, Prim::Add);
  const auto& body = node<ex::PrimApp>(let.body);
  EXPECT_EQ(body.op, Prim::Mul);
  EXPECT_EQ(var_name(body.args[0]), "x");
  EXPECT_EQ(var_name(body.args[1]), "y");
  EXPECT_TRUE(node<ex::Let>(exp("(let () 1)")).bindings.empty());
}

TEST(ParserExp, IfTupleProjIndexCast) {
  const auto& i = node<ex::If>(exp("(if c 1 2)"));
  EXPECT_EQ(var_name(i.cond), "c");
  EXPECT_EQ(node<ex::Const>(i.else_branch).value.get<int64_t>(), 2);

  EXPECT_EQ(node<ex::Tuple>(exp("(tuple 1 2.0 true)")).elems.size(), 3u);
  EXPECT_TRUE(node<ex::Tuple>(exp("(tuple)")).elems.empty());

  const auto& p = node<ex::Proj>(exp("(proj 1 t)"));
  EXPECT_EQ(p.index, 1);
  EXPECT_EQ(var_name(p.tuple), "t");

  EXPECT_EQ(node<ex::Index>(exp("(ix 1 2 3)")).components.size(), 3u);
  EXPECT_TRUE(node<ex::Index>(exp("(ix)")).components.empty());

  const auto& c = node<ex::Cast>(exp("(cast f32 x)"));
  EXPECT_EQ(c.target, ScalarKind::F32);
  EXPECT_EQ(var_name(c.arg), "x");
}

TEST(ParserExp, While) {
  const auto& w =
      node<ex::While>(exp("(while (lambda ((s i64)) (< s 10)) (lambda ((s i64)) (+ s 1)) 0)"));
  ASSERT_EQ(w.cond.params.size(), 1u);
  EXPECT_EQ(w.cond.params[0].name, "s");
  EXPECT_EQ(w.cond.params[0].type, Type::scalar(ScalarKind::I64));
  EXPECT_EQ(node<ex::PrimApp>(w.cond.body).op, Prim::Lt);
  EXPECT_EQ(node<ex::PrimApp>(w.step.body).op, Prim::Add);
  EXPECT_EQ(node<ex::Const>(w.init).value.get<int64_t>(), 0);
}

TEST(ParserExp, ArrayReadsTakeArrayOperands) {
  EXPECT_EQ(var_name(node<ex::ShapeOf>(exp("(shape xs)")).array), "xs");
  EXPECT_EQ(var_name(node<ex::SizeOf>(exp("(size xs)")).array), "xs");
  EXPECT_EQ(var_name(node<ex::The>(exp("(the r)")).array), "r");
  const auto& r = node<ex::Read>(exp("(! xs (ix 1 2))"));
  EXPECT_EQ(var_name(r.array), "xs");
  EXPECT_EQ(node<ex::Index>(r.index).components.size(), 2u);
  const auto& lr = node<ex::LinearRead>(exp("(!! xs 5)"));
  EXPECT_EQ(var_name(lr.array), "xs");
  EXPECT_EQ(node<ex::Const>(lr.index).value.get<int64_t>(), 5);
  // Not a variable: parsed as an array expression, left for the checker to reject.
  const auto& nested = node<ex::ShapeOf>(exp("(shape (map (lambda ((x f32)) x) xs))"));
  EXPECT_TRUE(std::holds_alternative<ac::Map>(nested.array->node));
}

TEST(ParserExp, IndexConversionsIgnoreTraceAt) {
  const auto& t = node<ex::ToIndex>(exp("(to-index sh ix)"));
  EXPECT_EQ(var_name(t.shape), "sh");
  EXPECT_EQ(var_name(t.index), "ix");
  const auto& f = node<ex::FromIndex>(exp("(from-index sh 3)"));
  EXPECT_EQ(var_name(f.shape), "sh");
  EXPECT_EQ(node<ex::Ignore>(exp("(ignore 2)")).rank, 2);
  const auto& tr = node<ex::Trace>(exp(R"((trace "a \"q\" \\ b" x))"));
  EXPECT_EQ(tr.label, "a \"q\" \\ b");
  EXPECT_EQ(var_name(tr.arg), "x");
  EXPECT_EQ(node<ex::Trace>(exp(R"((trace "line\n\ttab" x))")).label, "line\n\ttab");
  const auto& at = node<ex::At>(exp("(at nb -1 0 2)"));
  EXPECT_EQ(at.window, "nb");
  EXPECT_EQ(at.offsets, (std::vector<int64_t>{-1, 0, 2}));
}

TEST(ParserExp, EveryPrimitiveByName) {
  for (int i = 0; i < kNumPrims; ++i) {
    auto p = Prim(i);
    std::string text = "(" + std::string(prim_name(p)) + (prim_arity(p) == 1 ? " a)" : " a b)");
    SCOPED_TRACE(text);
    const auto& app = node<ex::PrimApp>(exp(text));
    EXPECT_EQ(app.op, p);
    ASSERT_EQ(app.args.size(), size_t(prim_arity(p)));
    EXPECT_EQ(var_name(app.args[0]), "a");
  }
  EXPECT_EQ(node<ex::PrimApp>(exp("(div 7 2)")).op, Prim::IDiv);
  EXPECT_EQ(node<ex::PrimApp>(exp("(/= a b)")).op, Prim::Ne);
  EXPECT_EQ(node<ex::PrimApp>(exp("(popcount a)")).op, Prim::Popcount);
}

TEST(ParserExp, LambdaParameters) {
  const auto& m = node<ac::Map>(acc("(map (lambda ((p (tuple i32 f32)) (q (ix 2))) p) xs)"));
  ASSERT_EQ(m.f.params.size(), 2u);
  EXPECT_EQ(m.f.params[0].name, "p");
  EXPECT_EQ(m.f.params[0].type, Type::tuple({i32(), f32()}));
  EXPECT_EQ(m.f.params[1].type, Type::index(2));
}

// -------------------------------------------------------------- array forms

TEST(ParserAcc, BindingsAndTuples) {
  const auto& l = node<ac::Alet>(acc("(alet ((a xs) (b (map (lambda ((x f32)) x) a))) b)"));
  ASSERT_EQ(l.bindings.size(), 2u);
  EXPECT_EQ(l.bindings[0].name, "a");
  EXPECT_EQ(var_name(l.bindings[0].value), "xs");
  EXPECT_TRUE(std::holds_alternative<ac::Map>(l.bindings[1].value->node));
  EXPECT_EQ(var_name(l.body), "b");

  const auto& t = node<ac::ATuple>(acc("(atuple xs ys)"));
  ASSERT_EQ(t.elems.size(), 2u);
  EXPECT_EQ(var_name(t.elems[1]), "ys");
  const auto& p = node<ac::AProj>(acc("(aproj 1 r)"));
  EXPECT_EQ(p.index, 1);
  EXPECT_EQ(var_name(p.tuple), "r");
}

TEST(ParserAcc, UnitGenerateFill) {
  EXPECT_EQ(node<ex::Const>(node<ac::Unit>(acc("(unit 3)")).value).value.get<int64_t>(), 3);
  const auto& g = node<ac::Generate>(acc("(generate (ix 2 3) (lambda ((i (ix 2))) (proj 0 i)))"));
  EXPECT_EQ(node<ex::Index>(g.shape).components.size(), 2u);
  EXPECT_EQ(g.f.params[0].type, Type::index(2));
  const auto& f = node<ac::Fill>(acc("(fill (ix 8) 0)"));
  EXPECT_EQ(node<ex::Const>(f.value).value.get<int64_t>(), 0);
}

TEST(ParserAcc, MapZipWithFolds) {
  const auto& m = node<ac::Map>(acc("(map (lambda ((x f32)) (neg x)) xs)"));
  EXPECT_EQ(var_name(m.a), "xs");
  const auto& z = node<ac::ZipWith>(acc("(zipwith (lambda ((x f32) (y f32)) (* x y)) xs ys)"));
  EXPECT_EQ(var_name(z.a), "xs");
  EXPECT_EQ(var_name(z.b), "ys");
  const auto& fold = node<ac::Fold>(acc("(fold (lambda ((a f32) (b f32)) (+ a b)) 0f32 xs)"));
  ASSERT_NE(fold.seed, nullptr);
  EXPECT_EQ(node<ex::Const>(fold.seed).value.get<float>(), 0.0f);
  const auto& fold1 = node<ac::Fold>(acc("(fold1 (lambda ((a f32) (b f32)) (+ a b)) xs)"));
  EXPECT_EQ(fold1.seed, nullptr);
  EXPECT_EQ(var_name(fold1.a), "xs");
  const auto& seg = node<ac::FoldSeg>(acc("(foldseg (lambda ((a i64) (b i64)) (+ a b)) 0 xs ss)"));
  EXPECT_EQ(var_name(seg.a), "xs");
  EXPECT_EQ(var_name(seg.segs), "ss");
}

TEST(ParserAcc, AllScanKinds) {
  struct Case {
    std::string text;
    ac::ScanKind kind;
    bool seeded;
  };
  std::string f = "(lambda ((a i32) (b i32)) (+ a b))";
  for (const Case& c : {Case{"(scanl " + f + " 0i32 xs)", ac::ScanKind::Scanl, true},
                        Case{"(scanl1 " + f + " xs)", ac::ScanKind::Scanl1, false},
                        Case{"(scanr " + f + " 0i32 xs)", ac::ScanKind::Scanr, true},
                        Case{"(scanr1 " + f + " xs)", ac::ScanKind::Scanr1, false},
                        Case{"(scanl' " + f + " 0i32 xs)", ac::ScanKind::ScanlPrime, true}}) {
    SCOPED_TRACE(c.text);
    const auto& s = node<ac::Scan>(acc(c.text));
    EXPECT_EQ(s.kind, c.kind);
    EXPECT_EQ(s.seed != nullptr, c.seeded);
    EXPECT_EQ(var_name(s.a), "xs");
    EXPECT_EQ(s.f.params.size(), 2u);
  }
}

TEST(ParserAcc, PermuteBackpermuteReshape) {
  const auto& p = node<ac::Permute>(acc("(permute (lambda ((n i64) (o i64)) (+ n o)) defs "
                                        "(lambda ((i (ix 1))) (ignore 1)) src)"));
  EXPECT_EQ(p.combine.params.size(), 2u);
  EXPECT_EQ(var_name(p.defaults), "defs");
  EXPECT_EQ(node<ex::Ignore>(p.target.body).rank, 1);
  EXPECT_EQ(var_name(p.source), "src");
  const auto& b = node<ac::Backpermute>(acc("(backpermute (ix 3) (lambda ((i (ix 1))) i) xs)"));
  EXPECT_EQ(var_name(b.source_index.body), "i");
  EXPECT_EQ(var_name(b.a), "xs");
  const auto& r = node<ac::Reshape>(acc("(reshape (ix 2 2) xs)"));
  EXPECT_EQ(node<ex::Index>(r.shape).components.size(), 2u);
}

TEST(ParserAcc, ReplicateAndSliceSpecs) {
  const auto& r = node<ac::Replicate>(acc("(replicate (spec (proj 0 (shape m)) all) v)"));
  ASSERT_EQ(r.spec.size(), 2u);
  EXPECT_FALSE(r.spec[0].is_all());
  EXPECT_TRUE(std::holds_alternative<ex::Proj>(r.spec[0].extent->node));
  EXPECT_TRUE(r.spec[1].is_all());
  EXPECT_EQ(var_name(r.a), "v");
  const auto& s = node<ac::Slice>(acc("(slice m (spec all 3))"));
  EXPECT_EQ(var_name(s.a), "m");
  ASSERT_EQ(s.spec.size(), 2u);
  EXPECT_TRUE(s.spec[0].is_all());
  EXPECT_EQ(node<ex::Const>(s.spec[1].extent).value.get<int64_t>(), 3);
  EXPECT_TRUE(node<ac::Slice>(acc("(slice r (spec))")).spec.empty());
}

TEST(ParserAcc, StencilWithEveryBoundary) {
  std::string f = "(lambda ((nb (window f32 2))) (at nb -1 1))";
  using K = ac::BoundaryKind;
  for (auto [text, kind] :
       {std::pair{"clamp", K::Clamp}, std::pair{"mirror", K::Mirror}, std::pair{"wrap", K::Wrap},
        std::pair{"(constant 0f32)", K::Constant}}) {
    SCOPED_TRACE(text);
    const auto& s =
        node<ac::Stencil>(acc("(stencil (3 5) " + std::string(text) + " " + f + " img)"));
    EXPECT_EQ(s.window, (std::vector<int64_t>{3, 5}));
    EXPECT_EQ(s.boundary.kind, kind);
    EXPECT_EQ(s.boundary.constant != nullptr, kind == K::Constant);
    EXPECT_EQ(s.f.params[0].type, Type::window(f32(), 2));
    EXPECT_EQ(node<ex::At>(s.f.body).offsets, (std::vector<int64_t>{-1, 1}));
    EXPECT_EQ(var_name(s.a), "img");
  }
}

TEST(ParserAcc, AwhileATraceACond) {
  const auto& w = node<ac::Awhile>(acc("(awhile (lambda ((s (array f64 1))) (unit true)) "
                                       "(lambda ((s (array f64 1))) s) xs)"));
  EXPECT_EQ(w.cond.params[0].type, Type::array(Type::scalar(ScalarKind::F64), 1));
  EXPECT_TRUE(std::holds_alternative<ac::Unit>(w.cond.body->node));
  EXPECT_EQ(var_name(w.body.body), "s");
  EXPECT_EQ(var_name(w.init), "xs");
  const auto& t = node<ac::ATrace>(acc(R"((atrace "after step" xs))"));
  EXPECT_EQ(t.label, "after step");
  EXPECT_EQ(var_name(t.a), "xs");
  const auto& c = node<ac::ACond>(acc("(acond (> (size xs) 0) xs ys)"));
  EXPECT_EQ(node<ex::PrimApp>(c.cond).op, Prim::Gt);
  EXPECT_EQ(var_name(c.then_branch), "xs");
  EXPECT_EQ(var_name(c.else_branch), "ys");
}

// ---------------------------------------------------------------------- use

TEST(ParserUse, ScalarElements) {
  Array a = node<ac::Use>(acc("(use (array i32 (2 3) 1 2 3 4 5 -6i32))")).value;
  EXPECT_EQ(a.elem_type(), i32());
  EXPECT_EQ(a.shape(), (Shape{2, 3}));
  EXPECT_EQ(a.read(0, 0).get<int32_t>(), 1);
  EXPECT_EQ(a.read(0, 5).get<int32_t>(), -6);
}

TEST(ParserUse, UnsuffixedNumbersTakeTheElementType) {
  AccPtr p = acc("(use (array f32 (4) 2 0.5 -0 nan))");
  const Array& a = node<ac::Use>(p).value;
  EXPECT_EQ(a.read(0, 0).kind(), ScalarKind::F32);
  EXPECT_EQ(a.read(0, 0).get<float>(), 2.0f);
  EXPECT_EQ(a.read(0, 1).get<float>(), 0.5f);
  EXPECT_TRUE(std::signbit(a.read(0, 2).get<float>()));
  EXPECT_TRUE(std::isnan(a.read(0, 3).get<float>()));
  AccPtr q = acc("(use (array u64 (2) 18446744073709551615 0))");
  EXPECT_EQ(node<ac::Use>(q).value.read(0, 0).get<uint64_t>(),
            std::numeric_limits<uint64_t>::max());
  AccPtr b = acc("(use (array bool (2) true false))");
  EXPECT_TRUE(node<ac::Use>(b).value.read(0, 0).get<bool>());
}

TEST(ParserUse, TupleElements) {
  AccPtr p = acc("(use (array (tuple i32 f32) (3) (1 0.5) (2 1.5) (3 2.5)))");
  const Array& a = node<ac::Use>(p).value;
  EXPECT_EQ(a.elem_type(), Type::tuple({i32(), f32()}));
  ASSERT_EQ(a.num_leaves(), 2u);
  EXPECT_EQ(a.read(0, 2).get<int32_t>(), 3);
  EXPECT_EQ(a.read(1, 2).get<float>(), 2.5f);
  AccPtr n = acc("(use (array (tuple i8 (tuple bool f64)) (1) (-1 (true 2.5))))");
  const Array& b = node<ac::Use>(n).value;
  ASSERT_EQ(b.num_leaves(), 3u);
  EXPECT_EQ(b.read(0, 0).get<int8_t>(), -1);
  EXPECT_TRUE(b.read(1, 0).get<bool>());
  EXPECT_EQ(b.read(2, 0).get<double>(), 2.5);
}

TEST(ParserUse, RankZeroAndEmpty) {
  AccPtr p = acc("(use (array f32 () 5))");
  const Array& a = node<ac::Use>(p).value;
  EXPECT_EQ(a.rank(), 0);
  EXPECT_EQ(a.size(), 1);
  EXPECT_EQ(a.read(0, 0).get<float>(), 5.0f);
  AccPtr e = acc("(use (array i64 (0 4)))");
  EXPECT_EQ(node<ac::Use>(e).value.size(), 0);
  EXPECT_EQ(node<ac::Use>(e).value.shape(), (Shape{0, 4}));
}

// ----------------------------------------------------------------- programs

TEST(ParserProgram, ParametersAndBody) {
  Program p = parse_program("(program ((xs (array f32 1)) (ys (array f32 1)))\n"
                            "  (zipwith (lambda ((x f32) (y f32)) (* x y)) xs ys))",
                            "dot.strata");
  ASSERT_EQ(p.params.size(), 2u);
  EXPECT_EQ(p.params[0].name, "xs");
  EXPECT_EQ(p.params[0].type, Type::array(f32(), 1));
  EXPECT_EQ(p.params[1].name, "ys");
  EXPECT_TRUE(std::holds_alternative<ac::ZipWith>(p.body->node));
  EXPECT_TRUE(parse_program("(program () (use (array f32 () 5)))", "x").params.empty());
}

TEST(ParserProgram, CommentsAndWhitespace) {
  Program p = parse_program("; leading comment\n(program ; after the keyword\n"
                            "  ((xs (array f32 1)))\t; params\r\n  xs) ; trailing\n; end",
                            "c.strata");
  EXPECT_EQ(var_name(p.body), "xs");
}

TEST(ParserProgram, SourcePositions) {
  const char* text = "(program ((xs (array f32 1)))\n"
                     "  (map (lambda ((x f32))\n"
                     "         (+ x 1f32))\n"
                     "       xs))\n";
  Program p = parse_program(text, "pos.strata");
  EXPECT_EQ(p.loc.line, 1);
  EXPECT_EQ(p.loc.col, 1);
  EXPECT_EQ(p.params[0].loc.line, 1);
  EXPECT_EQ(p.params[0].loc.col, 11);
  EXPECT_EQ(p.body->loc.line, 2);
  EXPECT_EQ(p.body->loc.col, 3);
  const auto& m = node<ac::Map>(p.body);
  EXPECT_EQ(m.f.loc.line, 2);
  EXPECT_EQ(m.f.loc.col, 8);
  EXPECT_EQ(m.f.params[0].loc.col, 17);
  EXPECT_EQ(m.f.body->loc.line, 3);
  EXPECT_EQ(m.f.body->loc.col, 10);
  const auto& add = node<ex::PrimApp>(m.f.body);
  EXPECT_EQ(add.args[0]->loc.col, 13);
  EXPECT_EQ(add.args[1]->loc.col, 15);
  EXPECT_EQ(m.a->loc.line, 4);
  EXPECT_EQ(m.a->loc.col, 8);
  // One shared file name for every node of the text.
  ASSERT_NE(p.loc.file, nullptr);
  EXPECT_EQ(*p.loc.file, "pos.strata");
  EXPECT_EQ(p.body->loc.file.get(), p.loc.file.get());
  EXPECT_EQ(add.args[1]->loc.file.get(), p.loc.file.get());
  EXPECT_EQ(p.body->loc.str(), "pos.strata:2:3");
}

TEST(ParserProgram, BindingPositions) {
  auto e = exp("(let ((a 1)\n      (b 2))\n  a)");
  const auto& let = node<ex::Let>(e);
  EXPECT_EQ(let.bindings[1].loc.line, 2);
  EXPECT_EQ(let.bindings[1].loc.col, 7);
  EXPECT_EQ(let.body->loc.line, 3);
}

// ------------------------------------------------------------ syntax errors

TEST(ParserErrors, UnbalancedParentheses) {
  program_error("(program ((xs (array f32 1)))\n  (map (lambda ((x f32)) x) xs)", 2, 32,
                "unexpected end of input: missing `)` for `(program` opened at 1:1");
  program_error("(program ((xs (array f32 1)))\n  (map (lambda ((x f32)) x) xs", 2, 31,
                "missing `)` for `(map` opened at 2:3");
  program_error("(program () xs))", 1, 16, "unexpected `)` without a matching `(`");
  exp_error(")", 1, 1, "unexpected `)`");
}

TEST(ParserErrors, EmptyInputAndTrailingGarbage) {
  program_error("", 1, 1, "expected a program `(program ...)`, found end of input");
  program_error("  ; only a comment\n", 2, 1, "found end of input");
  program_error("(program () xs)\n(program () ys)", 2, 1,
                "expected end of input after the program, found `(program ...)`");
  program_error("(program () xs) garbage", 1, 17, "found `garbage`");
}

TEST(ParserErrors, UnknownForms) {
  program_error("(program ((xs (array f32 1)))\n  (mapp f xs))", 2, 3, "unknown form `mapp`");
  exp_error("(frobnicate 1)", 1, 1, "unknown form `frobnicate`");
  exp_error("((lambda ((x f32)) x) 1)", 1, 2, "expected a form name after `(`");
  exp_error("()", 1, 1, "expected a scalar expression, found `()`");
  program_error("(prog () xs)", 1, 1, "expected a program `(program ((x T) ...) body)`");
}

TEST(ParserErrors, WrongOperandCounts) {
  acc_error("(fold (lambda ((a f32) (b f32)) (+ a b)) xs)", 1, 1,
            "`fold` takes 3 operands (f z a), found 2");
  acc_error("(map f)", 1, 1, "`map` takes 2 operands (f a), found 1");
  exp_error("(neg 1 2)", 1, 1, "`neg` takes 1 operand (a), found 2");
  exp_error("(+ 1)", 1, 1, "`+` takes 2 operands (a b), found 1");
  exp_error("(if c 1)", 1, 1, "`if` takes 3 operands (c t e), found 2");
  acc_error("  (scanl1 f z xs)", 1, 3, "`scanl1` takes 2 operands (f a), found 3");
  exp_error("(at)", 1, 1, "`at` takes a window and offsets");
}

TEST(ParserErrors, BadLiterals) {
  exp_error("(+ 1 12abc)", 1, 6, "bad literal `12abc`: unknown type suffix `abc`");
  exp_error("1.5i32", 1, 1, "integer type cannot have a fraction");
  exp_error("1.", 1, 1, "expected digits after `.`");
  exp_error("1e+", 1, 1, "expected digits in the exponent");
  exp_error("nani32", 1, 1, "bad literal `nani32`");
  exp_error("1e400", 1, 1, "literal `1e400` is out of range for f64");
}

TEST(ParserErrors, OutOfRangeLiterals) {
  exp_error("(+ x 300u8)", 1, 6, "integer literal `300u8` is out of range for u8");
  exp_error("-1u32", 1, 1, "integer literal `-1u32` is out of range for u32");
  exp_error("128i8", 1, 1, "out of range for i8");
  exp_error("-9223372036854775809", 1, 1, "out of range for i64");
  exp_error("18446744073709551616u64", 1, 1, "out of range for u64");
  acc_error("(use (array u8 (2) 1 256))", 1, 22, "integer literal `256` is out of range for u8");
}

TEST(ParserErrors, BadTypes) {
  program_error("(program ((xs (array foo 1))) xs)", 1, 22, "expected a type, found `foo`");
  program_error("(program ((xs (arr f32 1))) xs)", 1, 15, "expected a type, found `(arr ...)`");
  program_error("(program ((xs (array f32))) xs)", 1, 15,
                "`array` takes 2 operands (E R), found 1");
  exp_error("(cast (tuple i32) x)", 1, 7, "`cast` converts to a scalar type");
  program_error("(program ((xs (array f32 x))) xs)", 1, 26, "expected a rank");
  expect_syntax_error([] { parse_type("(ix 100)", "bad.strata"); }, 1, 5,
                      "`100` is too large for a rank (at most 64)");
}

TEST(ParserErrors, LambdaParameters) {
  acc_error("(map (lambda ((x)) x) xs)", 1, 15, "parameter `x` has no type: expected `(x T)`");
  acc_error("(map (lambda ((x f32 i32)) x) xs)", 1, 15, "expected a parameter `(x T)`, found");
  acc_error("(map (lambda ((1 f32)) 1) xs)", 1, 16, "expected a variable name, found `1`");
  acc_error("(map f xs)", 1, 6,
            "expected a function `(lambda (x ...) body)`, a primitive or a scalar function's name, "
            "found `f`");
  acc_error("(map (lambda ((x f32)) x y) xs)", 1, 6, "`lambda` takes 2 operands (params body)");
}

TEST(ParserErrors, WrongSyntacticClass) {
  exp_error("(+ (map (lambda ((x f32)) x) xs) 1)", 1, 4,
            "found the array operation `map` (nested data parallelism)");
  acc_error("(map (lambda ((x f32)) x) (+ 1 2))", 1, 27,
            "expected an array expression, found the scalar form `+`");
  acc_error("(map (lambda ((x f32)) x) 42)", 1, 27, "expected an array expression, found `42`");
  exp_error("\"text\"", 1, 1, "expected a scalar expression, found string \"text\"");
}

TEST(ParserErrors, BadUseLiterals) {
  acc_error("(use (array f32 (2 2) 1 2 3))", 1, 6,
            "array literal of shape (2,2) needs 4 values, found 3");
  acc_error("(use (array f32 (1) 1.5f64))", 1, 21,
            "literal `1.5f64` has type f64, but the element type is f32");
  acc_error("(use (array i32 (1) 1.5))", 1, 21, "does not fit the element type i32");
  acc_error("(use (array (tuple i32 f32) (1) 1))", 1, 33,
            "expected a value of type (tuple i32 f32)");
  acc_error("(use (array bool (1) 1))", 1, 22, "does not fit the element type bool");
  acc_error("(use (array (array f32 1) (1) 1))", 1, 13, "element type must be a scalar or a tuple");
}

TEST(ParserErrors, StencilsAndSpecs) {
  acc_error("(stencil (3 3) clampp (lambda ((nb (window f32 2))) (at nb 0 0)) img)", 1, 16,
            "expected a stencil boundary");
  acc_error("(stencil (3 x) clamp (lambda ((nb (window f32 2))) (at nb 0 0)) img)", 1, 13,
            "expected a window size");
  exp_error("(at nb 1.5)", 1, 8, "expected an offset");
  acc_error("(replicate (all) v)", 1, 12, "expected a specification `(spec s ...)`");
}

TEST(ParserErrors, Strings) {
  exp_error("(trace \"abc x)", 1, 8, "unterminated string literal");
  exp_error("(trace \"a\\qb\" x)", 1, 10, "unknown escape `\\q`");
  exp_error("(trace label x)", 1, 8, "expected a label string");
}

TEST(ParserErrors, DeepNestingIsAnErrorNotACrash) {
  std::string deep(100000, '(');
  program_error(deep, 1, kMaxNesting + 1, "nesting too deep");
  std::string balanced = std::string(100000, '(') + std::string(100000, ')');
  exp_error(balanced, 1, kMaxNesting + 1, "nesting too deep");
  // Just inside the limit parses.
  int n = kMaxNesting - 1;
  std::string ok;
  for (int i = 0; i < n; ++i)
    ok += "(neg ";
  ok += "x" + std::string(size_t(n), ')');
  EXPECT_NO_THROW(parse_exp(ok));
}

TEST(ParserErrors, ArbitraryBytesAreTolerated) {
  std::string bytes("(program () \xff\xfe\0x)", 17);
  program_error(bytes, 1, 13, "expected an array expression, found `\\xff\\xfe\\x00x`");
  std::string nul("\0", 1);
  program_error(nul, 1, 1, "expected a program");
  // Every byte value, alone and in a form: an error or a result, never a crash.
  for (int b = 0; b < 256; ++b) {
    std::string text = "(map (lambda ((x f32)) x) " + std::string(1, char(b)) + ")";
    try {
      parse_acc(text);
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Syntax);
    }
  }
}

} // namespace
} // namespace strata
