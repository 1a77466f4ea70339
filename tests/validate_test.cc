// Argument validation (docs/semantics.md, "Errors"; the header's contract): every bad argument
// gives a non-ok Status with the right code and a message naming the argument and the bad value,
// never an abort, and leaves y untouched; empty tensors are fine, null pointers included;
// channels-last shapes, whose errors name the layout. Also ParseMode, ParsePadding,
// ParseLayout and OutputShape.
#include <catch2/catch.hpp>

#include <climits>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "any_tensor.h"
#include "gridsample/gridsample.h"
#include "reference.h"

namespace gridsample {
namespace {

using test::AllDTypes;
using test::AnyTensor;
using test::DTypeInfo;

// Matches a string containing `word` with no letter, digit or '_' right before or after it,
// so that "x" matches "x: rank 2" or "x's" but not "max".
class HasWordMatcher : public Catch::MatcherBase<std::string> {
 public:
  explicit HasWordMatcher(std::string word) : word_(std::move(word)) {}
  bool match(const std::string& s) const override {
    auto is_word = [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    };
    for (size_t at = s.find(word_); at != std::string::npos; at = s.find(word_, at + 1)) {
      const bool starts = at == 0 || !is_word(s[at - 1]) || !is_word(word_.front());
      const size_t end = at + word_.size();
      const bool ends = end == s.size() || !is_word(s[end]) || !is_word(word_.back());
      if (starts && ends) return true;
    }
    return false;
  }
  std::string describe() const override { return "names \"" + word_ + "\""; }

 private:
  std::string word_;
};

HasWordMatcher HasWord(std::string word) { return HasWordMatcher(std::move(word)); }

constexpr int64_t k2e40 = int64_t{1} << 40;

// The shape as the messages print it.
std::string ShapeText(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

// Element count of a shape for allocating test storage: small real tensors get their size,
// anything huge, negative or overflowing gets a small dummy buffer (validation must reject
// such a call before it touches memory).
size_t StorageCount(const std::vector<int64_t>& shape) {
  size_t count = 1;
  for (int64_t extent : shape) {
    if (extent < 0 || extent > 4096) return 64;
    count *= static_cast<size_t>(extent);
    if (count > 4096) return 64;
  }
  return count;
}

// Storage of a dtype that may be invalid (a stand-in of 16-byte elements for those).
AnyTensor Storage(DType dtype, const std::vector<int64_t>& shape) {
  const DType storage = test::InfoOf(dtype).size == 0 ? DType::kComplex128 : dtype;
  return AnyTensor(storage, {static_cast<int64_t>(StorageCount(shape))});
}

// One call's arguments, owning their storage: x holds ones, grid zeros and y a sentinel.
// Tests break one argument through the public views, then expect an error or success.
class Call {
 public:
  Call(DType x_dtype, std::vector<int64_t> x_shape, DType grid_dtype,
       std::vector<int64_t> grid_shape, DType y_dtype, std::vector<int64_t> y_shape)
      : x_shape_(std::move(x_shape)),
        grid_shape_(std::move(grid_shape)),
        y_shape_(std::move(y_shape)),
        x_store_(Storage(x_dtype, x_shape_)),
        grid_store_(Storage(grid_dtype, grid_shape_)),
        y_store_(Storage(y_dtype, y_shape_)) {
    for (size_t i = 0; i < x_store_.size(); ++i) {
      if (x_store_.dtype() == DType::kString) {
        x_store_.SetString(i, "x");
      } else {
        x_store_.Set(i, 1.0);
      }
    }
    y_store_.FillBytes(0xA5);
    for (size_t i = 0; i < y_store_.size() && y_store_.dtype() == DType::kString; ++i) {
      y_store_.SetString(i, "sentinel");
    }
    x = TensorView{x_dtype, x_store_.data(), x_shape_.data(), x_shape_.size()};
    grid = TensorView{grid_dtype, grid_store_.data(), grid_shape_.data(), grid_shape_.size()};
    y = MutableTensorView{y_dtype, y_store_.data(), y_shape_.data(), y_shape_.size()};
  }
  // The common case: float32 everywhere.
  Call(std::vector<int64_t> x_shape, std::vector<int64_t> grid_shape, std::vector<int64_t> y_shape)
      : Call(DType::kFloat32, std::move(x_shape), DType::kFloat32, std::move(grid_shape),
             DType::kFloat32, std::move(y_shape)) {}
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;

  // Both implementations fail with `code`, a message naming every one of `words` and holding
  // every one of `parts`, and leave y as it was.
  void ExpectError(StatusCode code, const std::vector<std::string>& words,
                   const std::vector<std::string>& parts = {}) {
    const AnyTensor before = y_store_;
    const Status fast = GridSample(x, grid, y, options);
    INFO("GridSample: \"" << fast.message() << "\"");
    CHECK_FALSE(fast.ok());
    CHECK(fast.code() == code);
    for (const std::string& word : words) CHECK_THAT(fast.message(), HasWord(word));
    for (const std::string& part : parts) CHECK_THAT(fast.message(), Catch::Contains(part));
    CHECK(y_store_.Identical(before));
    const Status ref = ReferenceGridSample(x, grid, y, options);
    CHECK(ref.code() == fast.code());
    CHECK(ref.message() == fast.message());
    CHECK(y_store_.Identical(before));
  }

  // Both implementations succeed.
  void ExpectOk() {
    const Status fast = GridSample(x, grid, y, options);
    INFO("GridSample: \"" << fast.message() << "\"");
    CHECK(fast.ok());
    CHECK(fast.message().empty());
    const Status ref = ReferenceGridSample(x, grid, y, options);
    INFO("ReferenceGridSample: \"" << ref.message() << "\"");
    CHECK(ref.ok());
  }

 private:
  std::vector<int64_t> x_shape_, grid_shape_, y_shape_;
  AnyTensor x_store_, grid_store_, y_store_;

 public:
  TensorView x;
  TensorView grid;
  MutableTensorView y;
  Options options;
};

// ---------------------------------------------------------------------------------------------
// Ranks and shapes.

TEST_CASE("x of rank below 3 is an error naming x and its rank", "[validate]") {
  struct Case {
    std::vector<int64_t> x, grid;
  };
  const Case cases[] = {{{}, {1, 1, 1}}, {{4}, {1, 1, 1}}, {{1, 4}, {1, 4}}, {{1, 4}, {1, 4, 1}}};
  for (const Case& c : cases) {
    CAPTURE(ShapeText(c.x));
    Call call(c.x, c.grid, {1, 1, 1});
    call.ExpectError(StatusCode::kInvalidArgument, {"x", "rank", std::to_string(c.x.size())});
  }
  // A null shape is fine for rank 0 (nothing to read): still the rank error, no crash.
  Call call({}, {1, 1, 1}, {1, 1, 1});
  call.x.shape = nullptr;
  call.ExpectError(StatusCode::kInvalidArgument, {"x", "rank", "0"});
}

TEST_CASE("grid rank other than x's is an error naming grid and both ranks", "[validate]") {
  struct Case {
    std::vector<int64_t> x, grid;
  };
  const Case cases[] = {{{1, 1, 4}, {1, 4}},
                        {{1, 1, 4}, {1, 1, 4, 1}},
                        {{1, 1, 4, 4}, {1, 4, 2}},
                        {{1, 1, 2, 2, 2}, {1, 2, 2, 3}},
                        {{1, 1, 4}, {}}};
  for (const Case& c : cases) {
    CAPTURE(ShapeText(c.x), ShapeText(c.grid));
    Call call(c.x, c.grid, {1, 1, 1});
    call.ExpectError(StatusCode::kInvalidArgument,
                     {"grid", std::to_string(c.grid.size()), std::to_string(c.x.size())});
  }
}

TEST_CASE("grid's last extent other than r is an error naming grid and both values", "[validate]") {
  struct Case {
    std::vector<int64_t> x, grid, y;
    int64_t r;
  };
  const Case cases[] = {
      {{1, 1, 4}, {1, 3, 2}, {1, 1, 3}, 1},
      {{1, 1, 4}, {1, 3, 0}, {1, 1, 3}, 1},
      {{1, 1, 4, 4}, {1, 3, 3, 1}, {1, 1, 3, 3}, 2},
      {{1, 1, 4, 4}, {1, 3, 3, 3}, {1, 1, 3, 3}, 2},
      {{1, 1, 2, 2, 2}, {1, 2, 2, 2, 2}, {1, 1, 2, 2, 2}, 3},
      {{1, 1, 2, 2, 2}, {1, 2, 2, 2, 5}, {1, 1, 2, 2, 2}, 3},
  };
  for (const Case& c : cases) {
    CAPTURE(ShapeText(c.grid));
    Call call(c.x, c.grid, c.y);
    call.ExpectError(StatusCode::kInvalidArgument,
                     {"grid", std::to_string(c.grid.back()), std::to_string(c.r)});
  }
}

TEST_CASE("N of grid other than x's is an error naming grid and both values", "[validate]") {
  {
    Call call({2, 1, 4}, {3, 5, 1}, {2, 1, 5});
    call.ExpectError(StatusCode::kInvalidArgument, {"grid", "3", "2"});
  }
  {
    Call call({0, 1, 4}, {1, 5, 1}, {0, 1, 5});
    call.ExpectError(StatusCode::kInvalidArgument, {"grid", "1", "0"});
  }
  {
    Call call({1, 1, 4, 4}, {0, 5, 5, 2}, {1, 1, 5, 5});
    call.ExpectError(StatusCode::kInvalidArgument, {"grid", "0", "1"});
  }
}

TEST_CASE("a negative extent is an error naming the tensor and the extent", "[validate]") {
  struct Case {
    std::vector<int64_t> x, grid, y;
    const char* name;
    int64_t bad;
  };
  const Case cases[] = {
      {{1, 1, -4}, {1, 2, 1}, {1, 1, 2}, "x", -4},
      {{-1, 1, 4}, {-1, 2, 1}, {-1, 1, 2}, "x", -1},
      {{1, -2, 4}, {1, 2, 1}, {1, -2, 2}, "x", -2},
      {{1, 1, 4, -3}, {1, 2, 2, 2}, {1, 1, 2, 2}, "x", -3},
      {{1, 1, 4}, {1, -2, 1}, {1, 1, -2}, "grid", -2},
      {{1, 1, 4}, {1, 2, -1}, {1, 1, 2}, "grid", -1},
      {{1, 1, 4}, {1, 2, 1}, {1, 1, -2}, "y", -2},
      {{1, 1, 4}, {1, 2, 1}, {-1, 1, 2}, "y", -1},
      {{1, 1, 4, 4}, {1, 2, 2, 2}, {1, 1, 2, INT64_MIN}, "y", INT64_MIN},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name, c.bad);
    Call call(c.x, c.grid, c.y);
    call.ExpectError(StatusCode::kInvalidArgument, {c.name, std::to_string(c.bad)});
  }
}

TEST_CASE("a y shape other than OutputShape's is an error naming y and both shapes", "[validate]") {
  const std::vector<std::vector<int64_t>> bad = {{1, 1, 2}, {1, 2, 3}, {2, 1, 3}, {1, 1, 3, 1},
                                                 {1, 3},    {1, 1, 0}, {3, 1, 1}, {}};
  for (const std::vector<int64_t>& y_shape : bad) {
    CAPTURE(ShapeText(y_shape));
    Call call({1, 1, 4}, {1, 3, 1}, y_shape);
    call.ExpectError(StatusCode::kInvalidArgument, {"y"},
                     {ShapeText(y_shape), ShapeText({1, 1, 3})});
  }
  // 2-D: the spatial extents in order.
  Call call({2, 3, 4, 5}, {2, 6, 7, 2}, {2, 3, 7, 6});
  call.ExpectError(StatusCode::kInvalidArgument, {"y"},
                   {ShapeText({2, 3, 7, 6}), ShapeText({2, 3, 6, 7})});
}

TEST_CASE("a null shape pointer with rank > 0 is an error naming the tensor", "[validate]") {
  for (const char* name : {"x", "grid", "y"}) {
    CAPTURE(name);
    Call call({1, 1, 4}, {1, 2, 1}, {1, 1, 2});
    const std::string which = name;
    if (which == "x") call.x.shape = nullptr;
    if (which == "grid") call.grid.shape = nullptr;
    if (which == "y") call.y.shape = nullptr;
    call.ExpectError(StatusCode::kInvalidArgument, {name, "null", "3"});
  }
}

// ---------------------------------------------------------------------------------------------
// Types and options.

TEST_CASE("a y dtype other than x's is a type mismatch naming y and both dtypes", "[validate]") {
  for (DType x_dtype : {DType::kFloat32, DType::kInt8, DType::kString, DType::kBool}) {
    for (const DTypeInfo& yi : AllDTypes()) {
      if (yi.dtype == x_dtype) continue;
      CAPTURE(DTypeName(x_dtype), yi.name);
      Call call(x_dtype, {1, 1, 4}, DType::kFloat32, {1, 2, 1}, yi.dtype, {1, 1, 2});
      call.options.mode = Mode::kNearest;
      call.ExpectError(StatusCode::kTypeMismatch, {"y", yi.name, DTypeName(x_dtype)});
    }
  }
}

TEST_CASE("a grid dtype that is not a float type is a type mismatch naming grid and it",
          "[validate]") {
  int rejected = 0;
  for (const DTypeInfo& gi : AllDTypes()) {
    if (gi.kind == Conversion::kFloat || gi.kind == Conversion::kHalf ||
        gi.kind == Conversion::kBFloat16) {
      continue;
    }
    CAPTURE(gi.name);
    Call call(DType::kFloat32, {1, 1, 4}, gi.dtype, {1, 2, 1}, DType::kFloat32, {1, 1, 2});
    call.ExpectError(StatusCode::kTypeMismatch, {"grid", gi.name});
    ++rejected;
  }
  CHECK(rejected == static_cast<int>(AllDTypes().size()) - 4);
}

TEST_CASE("a dtype value outside the enum is a type mismatch naming the tensor and value",
          "[validate]") {
  for (int v : {99, -1, 255, static_cast<int>(AllDTypes().size())}) {
    const DType bad = static_cast<DType>(v);
    CAPTURE(v);
    {
      Call call(bad, {1, 1, 4}, DType::kFloat32, {1, 2, 1}, bad, {1, 1, 2});
      call.ExpectError(StatusCode::kTypeMismatch, {"x", std::to_string(v)});
    }
    {
      Call call(DType::kFloat32, {1, 1, 4}, bad, {1, 2, 1}, DType::kFloat32, {1, 1, 2});
      call.ExpectError(StatusCode::kTypeMismatch, {"grid", std::to_string(v)});
    }
    {
      Call call(DType::kFloat32, {1, 1, 4}, DType::kFloat32, {1, 2, 1}, bad, {1, 1, 2});
      call.ExpectError(StatusCode::kTypeMismatch, {"y", std::to_string(v)});
    }
  }
}

TEST_CASE("mode and padding values outside their enums are errors naming them", "[validate]") {
  for (int v : {3, -1, 100}) {
    CAPTURE(v);
    {
      Call call({1, 1, 4}, {1, 2, 1}, {1, 1, 2});
      call.options.mode = static_cast<Mode>(v);
      call.ExpectError(StatusCode::kInvalidArgument, {"mode", std::to_string(v)});
    }
    {
      Call call({1, 1, 4}, {1, 2, 1}, {1, 1, 2});
      call.options.padding = static_cast<Padding>(v);
      call.ExpectError(StatusCode::kInvalidArgument, {"padding", std::to_string(v)});
    }
  }
}

TEST_CASE("a layout value outside its enum is an error naming it", "[validate]") {
  for (int v : {2, -1, 100}) {
    CAPTURE(v);
    Call call({1, 1, 4}, {1, 2, 1}, {1, 1, 2});
    call.options.layout = static_cast<Layout>(v);
    call.ExpectError(StatusCode::kInvalidArgument, {"options.layout", std::to_string(v)});
    const std::vector<int64_t> x = {1, 1, 4}, grid = {1, 2, 1};
    std::vector<int64_t> y_shape;
    const Status s =
        OutputShape(x.data(), x.size(), grid.data(), grid.size(), &y_shape, static_cast<Layout>(v));
    CHECK(s.code() == StatusCode::kInvalidArgument);
    CHECK_THAT(s.message(), HasWord("options.layout") && HasWord(std::to_string(v)));
  }
}

TEST_CASE("channels-last shape errors name the layout and its form", "[validate]") {
  const auto last = [](Call& call) -> Call& {
    call.options.layout = Layout::kChannelsLast;
    return call;
  };
  {  // rank below 3
    Call call({1, 4}, {1, 4}, {1, 4});
    last(call).ExpectError(StatusCode::kInvalidArgument, {"x", "2", "channels-last"},
                           {"(N, D1, ..., Dr, C)"});
  }
  {  // Y in the channels-first form
    Call call({1, 5, 4, 3}, {1, 6, 7, 2}, {1, 3, 6, 7});
    last(call).ExpectError(
        StatusCode::kInvalidArgument, {"y", "channels-last"},
        {ShapeText({1, 3, 6, 7}), ShapeText({1, 6, 7, 3}), "(N, D1_out, ..., Dr_out, C)"});
  }
  {  // an empty spatial axis: the first of X's middle extents
    Call call({1, 0, 4, 3}, {1, 6, 7, 2}, {1, 6, 7, 3});
    last(call).ExpectError(StatusCode::kInvalidArgument, {"x", "channels-last"},
                           {"spatial axis 0", ShapeText({1, 0, 4, 3})});
  }
  {  // channels-first counts a channels-last Y's last extent as a spatial one
    Call call({1, 5, 4, 3}, {1, 6, 7, 2}, {1, 6, 7, 3});
    call.ExpectError(StatusCode::kInvalidArgument, {"y"}, {"(N, C, D1_out, ..., Dr_out)"});
    last(call).ExpectOk();
  }
}

TEST_CASE("ParseLayout and LayoutName spell channels-first and channels-last", "[validate]") {
  for (Layout layout : {Layout::kChannelsFirst, Layout::kChannelsLast}) {
    Layout parsed =
        layout == Layout::kChannelsFirst ? Layout::kChannelsLast : Layout::kChannelsFirst;
    REQUIRE(ParseLayout(LayoutName(layout), &parsed).ok());
    CHECK(parsed == layout);
  }
  CHECK(std::string(LayoutName(Layout::kChannelsLast)) == "channels-last");
  CHECK(std::string(LayoutName(static_cast<Layout>(7))) == "unknown");
  for (const char* bad : {"NHWC", "channels_last", "Channels-last", ""}) {
    CAPTURE(bad);
    Layout parsed = Layout::kChannelsFirst;
    const Status s = ParseLayout(bad, &parsed);
    CHECK(s.code() == StatusCode::kInvalidArgument);
    CHECK_THAT(s.message(), HasWord("layout") && Catch::Contains(std::string("\"") + bad + "\"") &&
                                Catch::Contains("channels-first or channels-last"));
    CHECK(parsed == Layout::kChannelsFirst);
  }
}

TEST_CASE("a negative num_threads is an error naming it and the value", "[validate]") {
  for (int v : {-1, -8, INT_MIN}) {
    CAPTURE(v);
    Call call({1, 1, 4}, {1, 2, 1}, {1, 1, 2});
    call.options.num_threads = v;
    call.ExpectError(StatusCode::kInvalidArgument, {"num_threads", std::to_string(v)});
  }
  // Any positive count is fine, more than the machine has included.
  for (int v : {0, 1, 3, 1000}) {
    CAPTURE(v);
    Call call({1, 1, 4}, {1, 2, 1}, {1, 1, 2});
    call.options.num_threads = v;
    call.ExpectOk();
  }
}

// ---------------------------------------------------------------------------------------------
// Pointers and empty tensors.

TEST_CASE("null data for a non-empty tensor is an error naming the tensor", "[validate]") {
  for (const char* name : {"x", "grid", "y"}) {
    CAPTURE(name);
    Call call({1, 1, 4}, {1, 2, 1}, {1, 1, 2});
    const std::string which = name;
    if (which == "x") call.x.data = nullptr;
    if (which == "grid") call.grid.data = nullptr;
    if (which == "y") call.y.data = nullptr;
    call.ExpectError(StatusCode::kInvalidArgument, {name, "null"});
  }
}

TEST_CASE("null data is fine for empty tensors", "[validate]") {
  SECTION("N = 0: all three empty") {
    Call call({0, 1, 4}, {0, 3, 1}, {0, 1, 3});
    call.x.data = call.grid.data = nullptr;
    call.y.data = nullptr;
    call.ExpectOk();
  }
  SECTION("C = 0: x and y empty, grid not") {
    Call call({1, 0, 4}, {1, 3, 1}, {1, 0, 3});
    call.x.data = nullptr;
    call.y.data = nullptr;
    call.ExpectOk();
  }
  SECTION("no output locations: grid and y empty, x not") {
    Call call({1, 1, 4, 4}, {1, 0, 3, 2}, {1, 1, 0, 3});
    call.grid.data = nullptr;
    call.y.data = nullptr;
    call.ExpectOk();
  }
  SECTION("an empty input axis and no output locations") {
    Call call({1, 1, 0}, {1, 0, 1}, {1, 1, 0});
    call.x.data = call.grid.data = nullptr;
    call.y.data = nullptr;
    call.ExpectOk();
  }
}

TEST_CASE("an empty input axis with a non-empty output is an error naming x and its shape",
          "[validate]") {
  struct Case {
    std::vector<int64_t> x, grid, y;
  };
  const Case cases[] = {
      {{1, 1, 0}, {1, 2, 1}, {1, 1, 2}},
      {{1, 1, 3, 0}, {1, 2, 2, 2}, {1, 1, 2, 2}},
      {{2, 3, 0, 4}, {2, 1, 1, 2}, {2, 3, 1, 1}},
      {{1, 1, 2, 0, 2}, {1, 1, 1, 1, 3}, {1, 1, 1, 1, 1}},
  };
  for (const Case& c : cases) {
    CAPTURE(ShapeText(c.x));
    Call call(c.x, c.grid, c.y);
    for (Mode mode : {Mode::kLinear, Mode::kNearest, Mode::kCubic}) {
      call.options.mode = mode;
      call.ExpectError(StatusCode::kInvalidArgument, {"x"}, {ShapeText(c.x), "empty"});
    }
  }
}

// Zero-sized outputs of every kind, for every dtype, mode, padding and alignment: no error and
// nothing written, not even past the end.
TEST_CASE("zero-sized outputs are fine and write nothing", "[validate]") {
  struct Case {
    std::vector<int64_t> x, grid;
  };
  const Case cases[] = {
      {{0, 1, 4}, {0, 3, 1}},              // N = 0
      {{1, 0, 4}, {1, 3, 1}},              // C = 0
      {{1, 1, 4}, {1, 0, 1}},              // no output locations
      {{1, 1, 0}, {1, 0, 1}},              // ... from an empty input
      {{0, 0, 0}, {0, 0, 1}},              // everything empty
      {{2, 3, 4, 5}, {2, 0, 6, 2}},        // 2-D, first output axis empty
      {{2, 3, 4, 5}, {2, 6, 0, 2}},        // 2-D, last output axis empty
      {{2, 0, 0, 5}, {2, 6, 7, 2}},        // 2-D, C = 0 with an empty input axis
      {{1, 2, 3, 4, 5}, {1, 2, 0, 4, 3}},  // 3-D, middle output axis empty
      {{1, 2, 0, 0, 0}, {1, 0, 0, 0, 3}},  // 3-D, all empty
      {{0, 2, k2e40, 1}, {0, 1, 1, 2}},    // N = 0 beside a big (but fitting) plane
      {{k2e40, 0, 4}, {k2e40, 0, 1}},      // big N, nothing to compute
  };
  for (const Case& c : cases) {
    std::vector<int64_t> y_shape;
    const Status shape_status =
        OutputShape(c.x.data(), c.x.size(), c.grid.data(), c.grid.size(), &y_shape);
    CAPTURE(ShapeText(c.x), ShapeText(c.grid));
    REQUIRE(shape_status.ok());
    for (const DTypeInfo& xi : AllDTypes()) {
      for (Mode mode : {Mode::kLinear, Mode::kNearest, Mode::kCubic}) {
        if (xi.kind == Conversion::kString && mode != Mode::kNearest) continue;
        for (Padding padding : {Padding::kZeros, Padding::kBorder, Padding::kReflection}) {
          for (bool align : {false, true}) {
            Call call(xi.dtype, c.x, DType::kFloat32, c.grid, xi.dtype, y_shape);
            // y points at a sentinel buffer: nothing may be written there.
            AnyTensor canary(xi.dtype, {8});
            canary.FillBytes(0x5A);
            for (size_t i = 0; i < canary.size() && xi.kind == Conversion::kString; ++i) {
              canary.SetString(i, "canary");
            }
            const AnyTensor before = canary;
            call.y.data = canary.data();
            call.options.mode = mode;
            call.options.padding = padding;
            call.options.align_corners = align;
            CAPTURE(xi.name, static_cast<int>(mode), static_cast<int>(padding), align);
            call.ExpectOk();
            CHECK(canary.Identical(before));
          }
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Sizes that overflow.

TEST_CASE("element counts that overflow are kOutOfRange errors naming the tensor", "[validate]") {
  constexpr int64_t k2e31 = int64_t{1} << 31, k2e32 = int64_t{1} << 32;
  constexpr int64_t k2e62 = int64_t{1} << 62;
  struct Case {
    std::vector<int64_t> x, grid, y;
    const char* name;
    std::string value;  // text the message must hold
    bool shape_error;   // OutputShape sees it too (a count, not a byte size, overflows)
  };
  const Case cases[] = {
      // 2^80 elements in x; the product wraps to exactly 0 in uint64.
      {{1, 1, k2e40, k2e40}, {1, 2, 2, 2}, {1, 1, 2, 2}, "x", std::to_string(k2e40), true},
      // 2^64 elements in x: wraps to 0 too.
      {{1, 1, k2e32, k2e32}, {1, 2, 2, 2}, {1, 1, 2, 2}, "x", std::to_string(k2e32), true},
      // 2^81 elements in x, wrapping to 0 before the last extent.
      {{k2e40, k2e40, 2}, {k2e40, 2, 1}, {k2e40, k2e40, 2}, "x", std::to_string(k2e40), true},
      // N = 0, so x holds nothing, but its planes of 2^80 elements cannot be indexed.
      {{0, 1, k2e40, k2e40}, {0, 1, 1, 2}, {0, 1, 1, 1}, "x", std::to_string(k2e40), true},
      // 3 * 2^80 in x: wraps to a nonzero value.
      {{1, 3, k2e40, k2e40}, {1, 2, 2, 2}, {1, 3, 2, 2}, "x", std::to_string(k2e40), true},
      // 2^81 elements in grid.
      {{1, 1, 2, 2},
       {1, k2e40, k2e40, 2},
       {1, 1, k2e40, k2e40},
       "grid",
       std::to_string(k2e40),
       true},
      // x (2^42) and grid (2^41) fit, y = N * C * out = 2^80 does not.
      {{1, k2e40, 2, 2}, {1, k2e40, 1, 2}, {1, k2e40, k2e40, 1}, "y", std::to_string(k2e40), true},
      // 3 * 2^62 fits in uint64 but not in int64 / ptrdiff_t.
      {{1, 1, 3, k2e62}, {1, 1, 1, 2}, {1, 1, 1, 1}, "x", std::to_string(k2e62), true},
      // An empty spatial axis makes x and y empty, but the strides of the axes after it
      // (2^80, and 3 * 2^62 beyond int64) would still overflow.
      {{1, 1, 0, k2e40, k2e40}, {1, 0, 1, 1, 3}, {1, 1, 0, 1, 1}, "x", std::to_string(k2e40), true},
      {{0, 1, 0, 3, k2e62}, {0, 1, 1, 1, 3}, {0, 1, 1, 1, 1}, "x", std::to_string(k2e62), true},
      // 2^62 float32 elements fit as a count, not as bytes.
      {{1, 1, k2e31, k2e31}, {1, 1, 1, 2}, {1, 1, 1, 1}, "x", std::to_string(k2e62), false},
      {{1, 1, 2, 2},
       {1, k2e31, k2e31 / 2, 2},
       {1, 1, k2e31, k2e31 / 2},
       "grid",
       std::to_string(k2e62),
       false},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name, ShapeText(c.x), ShapeText(c.grid), ShapeText(c.y));
    std::vector<int64_t> y_shape;
    const Status shape =
        OutputShape(c.x.data(), c.x.size(), c.grid.data(), c.grid.size(), &y_shape);
    if (c.shape_error) {
      INFO("OutputShape: \"" << shape.message() << "\"");
      CHECK(shape.code() == StatusCode::kOutOfRange);
      CHECK_THAT(shape.message(), HasWord(c.name) && Catch::Contains(c.value));
      if (shape.ok()) {
        // GridSample would accept it too and read far out of bounds: do not crash the suite.
        FAIL_CHECK("the shape overflow went undetected; GridSample not called");
        continue;
      }
    }
    Call call(c.x, c.grid, c.y);
    call.ExpectError(StatusCode::kOutOfRange, {c.name}, {c.value});
  }
}

// ---------------------------------------------------------------------------------------------
// OutputShape.

TEST_CASE("OutputShape for ranks 1 to 5", "[validate]") {
  for (size_t r = 1; r <= 5; ++r) {
    std::vector<int64_t> x = {2, 3}, grid = {2}, expected = {2, 3};
    for (size_t a = 0; a < r; ++a) {
      x.push_back(static_cast<int64_t>(a + 2));
      grid.push_back(static_cast<int64_t>(7 - a));
      expected.push_back(static_cast<int64_t>(7 - a));
    }
    grid.push_back(static_cast<int64_t>(r));
    CAPTURE(r);
    std::vector<int64_t> y_shape = {42};
    const Status s = OutputShape(x.data(), x.size(), grid.data(), grid.size(), &y_shape);
    REQUIRE(s.ok());
    CHECK(s.message().empty());
    CHECK(y_shape == expected);
    // And GridSample takes that shape.
    if (r <= 3) {
      Call call(x, grid, y_shape);
      call.ExpectOk();
    }
  }
}

TEST_CASE("OutputShape for channels-last X, ranks 1 to 4", "[validate]") {
  for (size_t r = 1; r <= 4; ++r) {
    std::vector<int64_t> x = {2}, grid = {2}, expected = {2};
    for (size_t a = 0; a < r; ++a) {
      x.push_back(static_cast<int64_t>(a + 2));
      grid.push_back(static_cast<int64_t>(7 - a));
      expected.push_back(static_cast<int64_t>(7 - a));
    }
    x.push_back(3);
    expected.push_back(3);
    grid.push_back(static_cast<int64_t>(r));
    CAPTURE(r);
    std::vector<int64_t> y_shape;
    const Status s =
        OutputShape(x.data(), x.size(), grid.data(), grid.size(), &y_shape, Layout::kChannelsLast);
    REQUIRE(s.ok());
    CHECK(y_shape == expected);
    if (r <= 3) {
      Call call(x, grid, y_shape);
      call.options.layout = Layout::kChannelsLast;
      call.ExpectOk();
    }
  }
}

TEST_CASE("OutputShape reports the shape errors GridSample reports", "[validate]") {
  struct Case {
    std::vector<int64_t> x, grid;
    StatusCode code;
    std::vector<std::string> words;
  };
  const Case cases[] = {
      {{1, 4}, {1, 4}, StatusCode::kInvalidArgument, {"x", "2"}},
      {{1, 1, 4}, {1, 4}, StatusCode::kInvalidArgument, {"grid", "2", "3"}},
      {{1, 1, 4}, {1, 3, 2}, StatusCode::kInvalidArgument, {"grid", "2", "1"}},
      {{2, 1, 4}, {3, 3, 1}, StatusCode::kInvalidArgument, {"grid", "3", "2"}},
      {{1, 1, -4}, {1, 3, 1}, StatusCode::kInvalidArgument, {"x", "-4"}},
      {{1, 1, 4}, {1, -3, 1}, StatusCode::kInvalidArgument, {"grid", "-3"}},
      {{1, 1, 0}, {1, 3, 1}, StatusCode::kInvalidArgument, {"x"}},
      {{1, 1, k2e40, k2e40}, {1, 1, 1, 2}, StatusCode::kOutOfRange, {"x"}},
  };
  for (const Case& c : cases) {
    CAPTURE(ShapeText(c.x), ShapeText(c.grid));
    std::vector<int64_t> y_shape;
    const Status s = OutputShape(c.x.data(), c.x.size(), c.grid.data(), c.grid.size(), &y_shape);
    INFO("OutputShape: \"" << s.message() << "\"");
    CHECK(s.code() == c.code);
    for (const std::string& word : c.words) CHECK_THAT(s.message(), HasWord(word));
    Call call(c.x, c.grid, {1, 1, 3});
    const Status g = GridSample(call.x, call.grid, call.y, call.options);
    CHECK(g.code() == s.code());
    CHECK(g.message() == s.message());
  }
  // Null pointers.
  const std::vector<int64_t> x = {1, 1, 4}, grid = {1, 3, 1};
  Status s = OutputShape(x.data(), x.size(), grid.data(), grid.size(), nullptr);
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK_THAT(s.message(), HasWord("y_shape") && HasWord("null"));
  std::vector<int64_t> y_shape;
  s = OutputShape(nullptr, 3, grid.data(), grid.size(), &y_shape);
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK_THAT(s.message(), HasWord("x") && HasWord("null"));
  s = OutputShape(x.data(), x.size(), nullptr, 3, &y_shape);
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK_THAT(s.message(), HasWord("grid") && HasWord("null"));
}

// ---------------------------------------------------------------------------------------------
// Attribute parsing.

TEST_CASE("ParseMode accepts the five ONNX names", "[validate]") {
  struct Case {
    const char* name;
    Mode mode;
  };
  const Case cases[] = {{"linear", Mode::kLinear},
                        {"bilinear", Mode::kLinear},
                        {"nearest", Mode::kNearest},
                        {"cubic", Mode::kCubic},
                        {"bicubic", Mode::kCubic}};
  for (const Case& c : cases) {
    CAPTURE(c.name);
    for (Mode start : {Mode::kLinear, Mode::kNearest, Mode::kCubic}) {
      Mode mode = start;
      const Status s = ParseMode(c.name, &mode);
      CHECK(s.ok());
      CHECK(s.message().empty());
      CHECK(mode == c.mode);
    }
  }
}

TEST_CASE("ParseMode rejects other names naming mode and the value", "[validate]") {
  const std::string_view bad[] = {"Linear",
                                  "",
                                  "bilinear ",
                                  " linear",
                                  "LINEAR",
                                  "trilinear",
                                  "near",
                                  "bicubic\n",
                                  "zeros",
                                  "cubic ",
                                  std::string_view("nearest\0", 8)};
  for (std::string_view name : bad) {
    CAPTURE(std::string(name));
    Mode mode = Mode::kCubic;
    const Status s = ParseMode(name, &mode);
    CHECK_FALSE(s.ok());
    CHECK(s.code() == StatusCode::kInvalidArgument);
    CHECK_THAT(s.message(), HasWord("mode") && Catch::Contains("\"" + std::string(name) + "\""));
  }
}

TEST_CASE("ParsePadding accepts the three ONNX names", "[validate]") {
  struct Case {
    const char* name;
    Padding padding;
  };
  const Case cases[] = {{"zeros", Padding::kZeros},
                        {"border", Padding::kBorder},
                        {"reflection", Padding::kReflection}};
  for (const Case& c : cases) {
    CAPTURE(c.name);
    for (Padding start : {Padding::kZeros, Padding::kBorder, Padding::kReflection}) {
      Padding padding = start;
      const Status s = ParsePadding(c.name, &padding);
      CHECK(s.ok());
      CHECK(s.message().empty());
      CHECK(padding == c.padding);
    }
  }
}

TEST_CASE("ParsePadding rejects other names naming the padding and the value", "[validate]") {
  const std::string_view bad[] = {"Zeros",
                                  "",
                                  "zeros ",
                                  " border",
                                  "BORDER",
                                  "zero",
                                  "reflect",
                                  "mirror",
                                  "linear",
                                  "reflection\t",
                                  std::string_view("border\0", 7)};
  for (std::string_view name : bad) {
    CAPTURE(std::string(name));
    Padding padding = Padding::kBorder;
    const Status s = ParsePadding(name, &padding);
    CHECK_FALSE(s.ok());
    CHECK(s.code() == StatusCode::kInvalidArgument);
    CHECK_THAT(s.message(),
               Catch::Contains("padding") && Catch::Contains("\"" + std::string(name) + "\""));
  }
}

}  // namespace
}  // namespace gridsample
