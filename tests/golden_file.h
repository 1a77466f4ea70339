// Reads golden-vector text (format: tests/data/README.md) into GoldenCase structs, so that any
// suite can run the cases. Header-only because every test source builds into one binary without
// a helper library; free of Catch2 so that non-test tools can use it too.
#ifndef GRIDSAMPLE_TESTS_GOLDEN_FILE_H_
#define GRIDSAMPLE_TESTS_GOLDEN_FILE_H_

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <istream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "gridsample/gridsample.h"

namespace gridsample {
namespace test {

// One tensor of a case.
struct GoldenTensor {
  DType dtype = DType::kFloat32;
  std::vector<int64_t> shape;
  // Widened to double, which holds every float32 and float64 value exactly (the only dtypes the
  // reader accepts so far).
  std::vector<double> values;
};

// One GridSample call and its expected output.
struct GoldenCase {
  std::string name;
  std::string where;    // "file:line" of the `case` line, for failure messages
  std::string mode;     // as spelled in the file, for ParseMode (linear, bicubic, ...)
  std::string padding;  // as spelled in the file, for ParsePadding
  bool align_corners = false;
  GoldenTensor x;
  GoldenTensor grid;
  GoldenTensor y;
};

namespace golden_internal {

inline std::vector<std::string> SplitTokens(const std::string& line) {
  std::istringstream stream(line);
  std::vector<std::string> tokens;
  for (std::string token; stream >> token;) tokens.push_back(token);
  return tokens;
}

// Parses one value of `dtype` into *value; float32 goes through strtof so that the shortest
// round-trip decimal maps to the float32 it came from (via strtod it could round twice).
inline bool ParseValue(const std::string& token, DType dtype, double* value) {
  const char* begin = token.c_str();
  char* end = nullptr;
  *value = dtype == DType::kFloat32 ? static_cast<double>(std::strtof(begin, &end))
                                    : std::strtod(begin, &end);
  return !token.empty() && end == begin + token.size();
}

inline bool ParseInt64(const std::string& token, int64_t* value) {
  const char* begin = token.c_str();
  char* end = nullptr;
  *value = std::strtoll(begin, &end, 10);
  return !token.empty() && end == begin + token.size() && token[0] != '+';
}

// Line-by-line state machine over the text; the first error stops it.
class Parser {
 public:
  Parser(std::istream& in, std::string source) : in_(in), source_(std::move(source)) {}

  bool Parse(std::vector<GoldenCase>* cases) {
    std::set<std::string> names;
    std::vector<std::string> tokens;
    while (NextLine(&tokens)) {
      GoldenCase c;
      if (tokens.size() != 2 || tokens[0] != "case") return Fail("expected `case <name>`");
      c.name = tokens[1];
      c.where = source_ + ":" + std::to_string(line_number_);
      if (!names.insert(c.name).second) return Fail("duplicate case name " + c.name);
      if (!ExpectLine(&tokens, "attrs") || !ParseAttrs(tokens, &c)) return false;
      if (!ExpectLine(&tokens, "x") || !ParseTensor(tokens, &c.x)) return false;
      if (!ExpectLine(&tokens, "grid") || !ParseTensor(tokens, &c.grid)) return false;
      if (!ExpectLine(&tokens, "y") || !ParseTensor(tokens, &c.y)) return false;
      if (c.y.dtype != c.x.dtype) return Fail("y's dtype differs from x's");
      if (!ExpectLine(&tokens, "end") || tokens.size() != 1) return Fail("expected `end`");
      cases->push_back(std::move(c));
    }
    return error_.empty();
  }

  const std::string& error() const { return error_; }

 private:
  // The tokens of the next line that is neither empty nor a comment; false at end of input.
  bool NextLine(std::vector<std::string>* tokens) {
    for (std::string line; std::getline(in_, line);) {
      ++line_number_;
      if (line.empty() || line[0] == '#') continue;
      *tokens = SplitTokens(line);
      if (!tokens->empty()) return true;
    }
    return false;
  }

  bool ExpectLine(std::vector<std::string>* tokens, const std::string& keyword) {
    if (!NextLine(tokens)) return Fail("file ends inside a case; expected `" + keyword + "`");
    if ((*tokens)[0] != keyword) {
      return Fail("expected `" + keyword + "`, got `" + (*tokens)[0] + "`");
    }
    return true;
  }

  bool ParseAttrs(const std::vector<std::string>& tokens, GoldenCase* c) {
    const std::string kMode = "mode=", kPadding = "padding=", kAlign = "align_corners=";
    if (tokens.size() != 4 || tokens[1].rfind(kMode, 0) != 0 ||
        tokens[2].rfind(kPadding, 0) != 0 || tokens[3].rfind(kAlign, 0) != 0) {
      return Fail("expected `attrs mode=<m> padding=<p> align_corners=<0|1>`");
    }
    c->mode = tokens[1].substr(kMode.size());
    c->padding = tokens[2].substr(kPadding.size());
    const std::string align = tokens[3].substr(kAlign.size());
    if (align != "0" && align != "1") return Fail("align_corners must be 0 or 1, got " + align);
    c->align_corners = align == "1";
    return true;
  }

  // `<name> <dtype> <rank> <dims...> : <values...>`
  bool ParseTensor(const std::vector<std::string>& tokens, GoldenTensor* tensor) {
    const std::string& name = tokens[0];
    if (tokens.size() < 4) {
      return Fail(name + ": expected `" + name + " <dtype> <rank> <dims...> : <values...>`");
    }
    if (!ParseDType(tokens[1], &tensor->dtype).ok()) {
      return Fail(name + ": unknown dtype " + tokens[1]);
    }
    if (tensor->dtype != DType::kFloat32 && tensor->dtype != DType::kFloat64) {
      return Fail(name + ": dtype " + tokens[1] + " is not supported by this reader yet");
    }
    int64_t rank = 0;
    if (!ParseInt64(tokens[2], &rank) || rank < 0 || rank > kMaxRank) {
      return Fail(name + ": bad rank " + tokens[2]);
    }
    const size_t colon = 3 + static_cast<size_t>(rank);
    if (colon >= tokens.size() || tokens[colon] != ":") {
      return Fail(name + ": expected `:` after " + tokens[2] + " dimensions");
    }
    tensor->shape.clear();
    size_t count = 1;
    for (size_t i = 3; i < colon; ++i) {
      int64_t extent = 0;
      // The bound keeps the product from overflowing; golden tensors are tiny.
      if (!ParseInt64(tokens[i], &extent) || extent < 0 || extent > (int64_t{1} << 20)) {
        return Fail(name + ": bad dimension " + tokens[i]);
      }
      tensor->shape.push_back(extent);
      count *= static_cast<size_t>(extent);
      if (count > (size_t{1} << 24)) return Fail(name + ": too many elements");
    }
    if (tokens.size() - colon - 1 != count) {
      return Fail(name + ": " + std::to_string(tokens.size() - colon - 1) +
                  " values for a shape of " + std::to_string(count) + " elements");
    }
    tensor->values.resize(count);
    for (size_t i = 0; i < count; ++i) {
      if (!ParseValue(tokens[colon + 1 + i], tensor->dtype, &tensor->values[i])) {
        return Fail(name + ": bad value " + tokens[colon + 1 + i]);
      }
    }
    return true;
  }

  bool Fail(const std::string& what) {
    error_ = source_ + ":" + std::to_string(line_number_) + ": " + what;
    return false;
  }

  static constexpr int64_t kMaxRank = 32;  // far above any GridSample tensor

  std::istream& in_;
  const std::string source_;
  int line_number_ = 0;
  std::string error_;
};

}  // namespace golden_internal

// Parses golden text, appending its cases to *cases. `source` names the text in messages. On
// malformed input returns false with *error = "source:line: what is wrong" (cases parsed before
// the error stay in *cases).
inline bool ParseGolden(std::istream& in, const std::string& source,
                        std::vector<GoldenCase>* cases, std::string* error) {
  golden_internal::Parser parser(in, source);
  const bool ok = parser.Parse(cases);
  *error = parser.error();
  return ok;
}

// ParseGolden on a file; a missing or unreadable file is an error too.
inline bool LoadGoldenFile(const std::string& path, std::vector<GoldenCase>* cases,
                           std::string* error) {
  std::ifstream in(path);
  if (!in) {
    *error = path + ": cannot open";
    return false;
  }
  return ParseGolden(in, path, cases, error);
}

}  // namespace test
}  // namespace gridsample

#endif  // GRIDSAMPLE_TESTS_GOLDEN_FILE_H_
