// Reads test-vector text (format: tests/data/README.md; golden.txt and reference_vectors.txt)
// into GoldenCase structs, so that any suite can run the cases. Header-only because every test
// source builds into one binary without a helper library; free of Catch2 so that non-test tools
// can use it too.
#ifndef GRIDSAMPLE_TESTS_GOLDEN_FILE_H_
#define GRIDSAMPLE_TESTS_GOLDEN_FILE_H_

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <istream>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "gridsample/gridsample.h"
#include "tests/any_tensor.h"

namespace gridsample {
namespace test {

// One GridSample call and its expected output. The tensors hold every element exactly as the
// text spells it, in its own dtype (any dtype of the registry).
struct GoldenCase {
  std::string name;
  std::string where;    // "file:line" of the `case` line, for failure messages
  std::string mode;     // as spelled in the file, for ParseMode (linear, bicubic, ...)
  std::string padding;  // as spelled in the file, for ParsePadding
  bool align_corners = false;
  AnyTensor x{DType::kFloat32, {0}};
  AnyTensor grid{DType::kFloat32, {0}};
  AnyTensor y{DType::kFloat32, {0}};
};

namespace golden_internal {

inline std::vector<std::string> SplitTokens(const std::string& line) {
  std::istringstream stream(line);
  std::vector<std::string> tokens;
  for (std::string token; stream >> token;) tokens.push_back(token);
  return tokens;
}

// A real number of one float dtype (single: float32 and complex64 parts); float32 goes through
// strtof so that the shortest round-trip decimal maps to the float32 it came from (via strtod
// it could round twice).
inline bool ParseReal(const std::string& token, bool single, double* value) {
  const char* begin = token.c_str();
  char* end = nullptr;
  *value = single ? static_cast<double>(std::strtof(begin, &end)) : std::strtod(begin, &end);
  return !token.empty() && end == begin + token.size();
}

// A decimal integer within [min, max], exactly (int64 and uint64 whole ranges included).
inline bool ParseInteger(const std::string& token, bool is_signed, int64_t min, uint64_t max,
                         uint64_t* bits) {
  if (token.empty() || token[0] == '+' || (!is_signed && token[0] == '-')) return false;
  const char* begin = token.c_str();
  char* end = nullptr;
  errno = 0;
  if (is_signed) {
    const long long v = std::strtoll(begin, &end, 10);
    if (v < min || (v > 0 && static_cast<uint64_t>(v) > max)) return false;
    *bits = static_cast<uint64_t>(v);
  } else {
    const unsigned long long v = std::strtoull(begin, &end, 10);
    if (v > max) return false;
    *bits = v;
  }
  return errno == 0 && end == begin + token.size();
}

inline void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    *out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    *out += static_cast<char>(0xC0 | (cp >> 6));
    *out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    *out += static_cast<char>(0xE0 | (cp >> 12));
    *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    *out += static_cast<char>(0xF0 | (cp >> 18));
    *out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Four hex digits (either case) of `s` at `at` as a UTF-16 code unit.
inline bool ParseHex4(const std::string& s, size_t at, uint32_t* unit) {
  if (at + 4 > s.size()) return false;
  *unit = 0;
  for (size_t i = at; i < at + 4; ++i) {
    const char c = s[i];
    const int digit = c >= '0' && c <= '9'   ? c - '0'
                      : c >= 'a' && c <= 'f' ? c - 'a' + 10
                      : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                             : -1;
    if (digit < 0) return false;
    *unit = *unit * 16 + static_cast<uint32_t>(digit);
  }
  return true;
}

// `0x` and exactly four lowercase hex digits (float16 and bfloat16 bits).
inline bool ParseBits16(const std::string& token, uint64_t* bits) {
  uint32_t unit = 0;
  if (token.size() != 6 || token.compare(0, 2, "0x") != 0 ||
      token.find_first_of("ABCDEF") != std::string::npos || !ParseHex4(token, 2, &unit)) {
    return false;
  }
  *bits = unit;
  return true;
}

// A JSON string literal into UTF-8: the escapes of RFC 8259, surrogate pairs joined; a lone
// surrogate, an unknown escape or an unescaped quote or control character is an error.
inline bool ParseJsonString(const std::string& token, std::string* out) {
  if (token.size() < 2 || token.front() != '"' || token.back() != '"') return false;
  const std::string body = token.substr(1, token.size() - 2);
  out->clear();
  for (size_t i = 0; i < body.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(body[i]);
    if (c == '"' || c < 0x20) return false;
    if (c != '\\') {
      *out += static_cast<char>(c);
      continue;
    }
    if (++i == body.size()) return false;
    switch (body[i]) {
      case '"':
      case '\\':
      case '/':
        *out += body[i];
        break;
      case 'b':
        *out += '\b';
        break;
      case 'f':
        *out += '\f';
        break;
      case 'n':
        *out += '\n';
        break;
      case 'r':
        *out += '\r';
        break;
      case 't':
        *out += '\t';
        break;
      case 'u': {
        uint32_t cp = 0, low = 0;
        if (!ParseHex4(body, i + 1, &cp)) return false;
        i += 4;
        if (cp >= 0xDC00 && cp < 0xE000) return false;
        if (cp >= 0xD800 && cp < 0xDC00) {  // a high surrogate: its low half must follow
          if (body.compare(i + 1, 2, "\\u") != 0 || !ParseHex4(body, i + 3, &low) || low < 0xDC00 ||
              low >= 0xE000) {
            return false;
          }
          i += 6;
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        }
        AppendUtf8(cp, out);
        break;
      }
      default:
        return false;
    }
  }
  return true;
}

// Element i of *tensor from its token, spelled as tests/data/README.md gives it per dtype.
inline bool ParseElement(const std::string& token, AnyTensor* tensor, size_t i) {
  const DTypeInfo& info = tensor->info();
  switch (info.kind) {
    case Conversion::kFloat: {
      double v = 0;
      if (!ParseReal(token, info.size == 4, &v)) return false;
      tensor->Set(i, v);
      return true;
    }
    case Conversion::kHalf:
    case Conversion::kBFloat16: {
      uint64_t bits = 0;
      if (!ParseBits16(token, &bits)) return false;
      tensor->SetBits(i, bits);
      return true;
    }
    case Conversion::kInt:
    case Conversion::kBool: {
      const bool is_int = info.kind == Conversion::kInt;
      uint64_t bits = 0;
      if (!ParseInteger(token, is_int && info.is_signed, is_int ? IntMin(info) : 0,
                        is_int ? IntMax(info) : 255, &bits)) {
        return false;
      }
      tensor->SetBits(i, bits);
      return true;
    }
    case Conversion::kComplex: {
      const size_t comma = token.find(',');
      double re = 0, im = 0;
      const bool single = info.size == 8;  // complex64: two float32 parts
      if (comma == std::string::npos || !ParseReal(token.substr(0, comma), single, &re) ||
          !ParseReal(token.substr(comma + 1), single, &im)) {
        return false;
      }
      tensor->SetComplex(i, {re, im});
      return true;
    }
    case Conversion::kString: {
      std::string s;
      if (!ParseJsonString(token, &s)) return false;
      tensor->SetString(i, std::move(s));
      return true;
    }
  }
  return false;
}

inline bool ParseInt64(const std::string& token, int64_t* value) {
  uint64_t bits = 0;
  if (!ParseInteger(token, true, std::numeric_limits<int64_t>::min(),
                    std::numeric_limits<int64_t>::max(), &bits)) {
    return false;
  }
  *value = static_cast<int64_t>(bits);
  return true;
}

// The tokens of a tensor line, `<name> <dtype> <rank> <dims...> : <values...>`, into *tensor; on
// malformed input false, with *what saying why.
inline bool ParseTensorLine(const std::vector<std::string>& tokens, AnyTensor* tensor,
                            std::string* what) {
  constexpr int64_t kMaxRank = 32;  // far above any GridSample tensor
  const std::string name = tokens.empty() ? std::string() : tokens[0];
  auto fail = [&](const std::string& message) {
    *what = message;
    return false;
  };
  if (tokens.size() < 4) {
    return fail(name + ": expected `" + name + " <dtype> <rank> <dims...> : <values...>`");
  }
  DType dtype = DType::kFloat32;
  if (!ParseDType(tokens[1], &dtype).ok()) return fail(name + ": unknown dtype " + tokens[1]);
  int64_t rank = 0;
  if (!ParseInt64(tokens[2], &rank) || rank < 0 || rank > kMaxRank) {
    return fail(name + ": bad rank " + tokens[2]);
  }
  const size_t colon = 3 + static_cast<size_t>(rank);
  if (colon >= tokens.size() || tokens[colon] != ":") {
    return fail(name + ": expected `:` after " + tokens[2] + " dimensions");
  }
  std::vector<int64_t> shape;
  size_t count = 1;
  for (size_t i = 3; i < colon; ++i) {
    int64_t extent = 0;
    // The bound keeps the product from overflowing; test tensors are tiny.
    if (!ParseInt64(tokens[i], &extent) || extent < 0 || extent > (int64_t{1} << 20)) {
      return fail(name + ": bad dimension " + tokens[i]);
    }
    shape.push_back(extent);
    count *= static_cast<size_t>(extent);
    if (count > (size_t{1} << 24)) return fail(name + ": too many elements");
  }
  if (tokens.size() - colon - 1 != count) {
    return fail(name + ": " + std::to_string(tokens.size() - colon - 1) +
                " values for a shape of " + std::to_string(count) + " elements");
  }
  *tensor = AnyTensor(dtype, std::move(shape));
  for (size_t i = 0; i < count; ++i) {
    if (!ParseElement(tokens[colon + 1 + i], tensor, i)) {
      return fail(name + ": bad value " + tokens[colon + 1 + i] + " for " + tokens[1]);
    }
  }
  return true;
}

// The lines of a text that are neither empty nor comments, as tokens, and where the last one
// read stands (for messages): what the golden files' parsers share.
class Lines {
 public:
  Lines(std::istream& in, std::string source) : in_(in), source_(std::move(source)) {}

  // The tokens of the next line; false at end of input.
  bool Next(std::vector<std::string>* tokens) {
    for (std::string line; std::getline(in_, line);) {
      ++line_number_;
      if (line.empty() || line[0] == '#') continue;
      *tokens = SplitTokens(line);
      if (!tokens->empty()) return true;
    }
    return false;
  }

  // The next line, which must start with `keyword`; else false with *error saying why.
  bool Expect(std::vector<std::string>* tokens, const std::string& keyword, std::string* error) {
    if (!Next(tokens)) {
      *error = "file ends inside a case; expected `" + keyword + "`";
      return false;
    }
    if ((*tokens)[0] != keyword) {
      *error = "expected `" + keyword + "`, got `" + (*tokens)[0] + "`";
      return false;
    }
    return true;
  }

  // "source:line" of the last line read.
  std::string Where() const { return source_ + ":" + std::to_string(line_number_); }

 private:
  std::istream& in_;
  const std::string source_;
  int line_number_ = 0;
};

// Line-by-line state machine over the text; the first error stops it.
class Parser {
 public:
  Parser(std::istream& in, std::string source) : lines_(in, std::move(source)) {}

  bool Parse(std::vector<GoldenCase>* cases) {
    std::set<std::string> names;
    std::vector<std::string> tokens;
    while (lines_.Next(&tokens)) {
      GoldenCase c;
      if (tokens.size() != 2 || tokens[0] != "case") return Fail("expected `case <name>`");
      c.name = tokens[1];
      c.where = lines_.Where();
      if (!names.insert(c.name).second) return Fail("duplicate case name " + c.name);
      if (!ExpectLine(&tokens, "attrs") || !ParseAttrs(tokens, &c)) return false;
      if (!ExpectLine(&tokens, "x") || !ParseTensor(tokens, &c.x)) return false;
      if (!ExpectLine(&tokens, "grid") || !ParseTensor(tokens, &c.grid)) return false;
      if (!ExpectLine(&tokens, "y") || !ParseTensor(tokens, &c.y)) return false;
      if (c.y.dtype() != c.x.dtype()) return Fail("y's dtype differs from x's");
      if (!ExpectLine(&tokens, "end") || tokens.size() != 1) return Fail("expected `end`");
      cases->push_back(std::move(c));
    }
    return error_.empty();
  }

  const std::string& error() const { return error_; }

 private:
  bool ExpectLine(std::vector<std::string>* tokens, const std::string& keyword) {
    std::string what;
    return lines_.Expect(tokens, keyword, &what) || Fail(what);
  }

  bool ParseAttrs(const std::vector<std::string>& tokens, GoldenCase* c) {
    const std::string kMode = "mode=", kPadding = "padding=", kAlign = "align_corners=";
    if (tokens.size() != 4 || tokens[1].rfind(kMode, 0) != 0 || tokens[2].rfind(kPadding, 0) != 0 ||
        tokens[3].rfind(kAlign, 0) != 0) {
      return Fail("expected `attrs mode=<m> padding=<p> align_corners=<0|1>`");
    }
    c->mode = tokens[1].substr(kMode.size());
    c->padding = tokens[2].substr(kPadding.size());
    const std::string align = tokens[3].substr(kAlign.size());
    if (align != "0" && align != "1") return Fail("align_corners must be 0 or 1, got " + align);
    c->align_corners = align == "1";
    return true;
  }

  bool ParseTensor(const std::vector<std::string>& tokens, AnyTensor* tensor) {
    std::string what;
    return ParseTensorLine(tokens, tensor, &what) || Fail(what);
  }

  bool Fail(const std::string& what) {
    error_ = lines_.Where() + ": " + what;
    return false;
  }

  Lines lines_;
  std::string error_;
};

}  // namespace golden_internal

// Parses test-vector text, appending its cases to *cases. `source` names the text in messages. On
// malformed input returns false with *error = "source:line: what is wrong" (cases parsed before
// the error stay in *cases).
inline bool ParseGolden(std::istream& in, const std::string& source, std::vector<GoldenCase>* cases,
                        std::string* error) {
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
