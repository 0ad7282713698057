// f-strings in kernels (ct.static_assert and print messages): each field a compile-time value
// (int, float, bool, str, None, dtype), converted and formatted as Python does for the format
// spec subset [[fill]align][sign][0][width][,][.precision][type].

#include "compiler/frontend/ASTPrinter.h"
#include "compiler/frontend/IRGen.h"

#include "dialect/TileDialect.h"

#include <cmath>
#include <cstdio>
#include <optional>

namespace tile::frontend {

namespace {

std::string quotedRepr(const std::string &s) {
  std::string out = "'";
  for (char c : s)
    out += c == '\''   ? std::string("\\'")
           : c == '\\' ? std::string("\\\\")
           : c == '\n' ? std::string("\\n")
                       : std::string(1, c);
  return out + "'";
}

// The format spec, parsed.
struct Spec {
  char fill = ' ', align = 0, sign = '-', type = 0;
  bool zero = false, comma = false;
  int width = 0, precision = -1;
};

std::optional<Spec> parseSpec(const std::string &text) {
  Spec s;
  size_t i = 0;
  auto isAlign = [](char c) { return c == '<' || c == '>' || c == '^' || c == '='; };
  if (text.size() >= 2 && isAlign(text[1]))
    s.fill = text[0], s.align = text[1], i = 2;
  else if (!text.empty() && isAlign(text[0]))
    s.align = text[0], i = 1;
  if (i < text.size() && (text[i] == '+' || text[i] == '-' || text[i] == ' '))
    s.sign = text[i++];
  if (i < text.size() && text[i] == '0')
    s.zero = true, ++i;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) && s.width < 10000)
    s.width = s.width * 10 + (text[i++] - '0');
  if (i < text.size() && text[i] == ',')
    s.comma = true, ++i;
  if (i < text.size() && text[i] == '.') {
    s.precision = 0;
    if (++i >= text.size() || !std::isdigit(static_cast<unsigned char>(text[i])))
      return std::nullopt;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) && s.precision < 1000)
      s.precision = s.precision * 10 + (text[i++] - '0');
  }
  if (i < text.size())
    s.type = text[i++];
  if (i != text.size() || (s.type && std::string("bdoxXeEfFgGs%").find(s.type) == std::string::npos))
    return std::nullopt;
  return s;
}

// Digits grouped by thousands: "1234567" -> "1,234,567".
std::string groupThousands(const std::string &digits) {
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0)
      out += ',';
    out += digits[i];
  }
  return out;
}

std::string pad(std::string body, const Spec &s, bool numeric) {
  int missing = s.width - static_cast<int>(body.size());
  if (missing <= 0)
    return body;
  char align = s.align ? s.align : numeric ? '>' : '<';
  char fill = s.fill;
  if (s.zero && !s.align)
    align = '=', fill = '0';
  if (align == '=') { // after the sign
    size_t signLength = !body.empty() && (body[0] == '-' || body[0] == '+' || body[0] == ' ') ? 1 : 0;
    return body.substr(0, signLength) + std::string(missing, fill) + body.substr(signLength);
  }
  if (align == '<')
    return body + std::string(missing, fill);
  if (align == '>')
    return std::string(missing, fill) + body;
  return std::string(missing / 2, fill) + body + std::string(missing - missing / 2, fill);
}

std::string withSign(std::string body, bool negative, char sign) {
  return (negative ? "-" : sign == '+' ? "+" : sign == ' ' ? " " : "") + body;
}

// `value` formatted by `spec`, or nullopt when the spec does not apply to it.
std::optional<std::string> formatValue(const KValue &value, const std::string &plain, const Spec &s) {
  if (value.isInt() && (s.type == 0 || std::string("bdoxX").find(s.type) != std::string::npos) && s.precision < 0) {
    int64_t v = value.intValue();
    uint64_t magnitude = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
    std::string digits;
    int base = s.type == 'b' ? 2 : s.type == 'o' ? 8 : (s.type == 'x' || s.type == 'X') ? 16 : 10;
    const char *alphabet = s.type == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
    do {
      digits.insert(digits.begin(), alphabet[magnitude % base]);
      magnitude /= base;
    } while (magnitude);
    if (s.comma && base == 10)
      digits = groupThousands(digits);
    return pad(withSign(digits, v < 0, s.sign), s, true);
  }
  if ((value.isInt() || value.isFloat()) && (s.type == 0 || std::string("eEfFgG%").find(s.type) != std::string::npos)) {
    double v = value.isInt() ? double(value.intValue()) : value.floatValue();
    std::string body;
    if (s.type == 0 && s.precision < 0) {
      body = value.isInt() ? std::to_string(value.intValue()) : formatFloat(v);
      body = body[0] == '-' ? body.substr(1) : body;
    } else {
      char type = s.type ? s.type : 'g';
      double shown = std::fabs(type == '%' ? v * 100 : v);
      char conversion = type == '%' ? 'f' : type;
      int precision = s.precision < 0 ? 6 : s.precision;
      char buf[512];
      std::snprintf(buf, sizeof buf, std::string("%.*").append(1, conversion).c_str(), precision, shown);
      body = buf;
      if (type == '%')
        body += '%';
    }
    if (s.comma) {
      size_t dot = body.find_first_not_of("0123456789");
      body = groupThousands(body.substr(0, dot)) + (dot == std::string::npos ? "" : body.substr(dot));
    }
    return pad(withSign(body, std::signbit(v) && !std::isnan(v), s.sign), s, true);
  }
  if (s.type == 0 || s.type == 's') {
    if (s.sign != '-' || s.comma || s.zero)
      return std::nullopt;
    std::string body = s.precision >= 0 ? plain.substr(0, size_t(s.precision)) : plain;
    return pad(body, s, false);
  }
  return std::nullopt;
}

} // namespace

KValue KernelIRGen::evalFString(const FStringExpr &e) {
  std::string out = e.text[0];
  for (size_t i = 0; i < e.fields.size(); ++i) {
    const FStringExpr::Field &field = e.fields[i];
    KValue v = eval(*field.value);
    if (v.isError())
      return v;
    std::string plain;
    if (v.isInt())
      plain = std::to_string(v.intValue());
    else if (v.isFloat())
      plain = formatFloat(v.floatValue());
    else if (v.isBool())
      plain = v.boolValue() ? "True" : "False";
    else if (v.isNone())
      plain = "None";
    else if (v.isStr())
      plain = field.conversion == 'r' || field.conversion == 'a' ? quotedRepr(v.name()) : v.name();
    else if (v.isDType())
      plain = mlir::tile::dtypeName(v.dtypeValue());
    else {
      error(field.value->range, "f-string fields must be known at compile time, got " + describe(v) +
                                    " (print run-time values as print() arguments)");
      return KValue::error();
    }
    std::optional<Spec> spec = parseSpec(field.spec);
    std::optional<std::string> formatted = spec ? formatValue(v, plain, *spec) : std::nullopt;
    if (!formatted) {
      error(field.value->range, "f-string: format spec '" + field.spec + "' does not apply to " + describe(v));
      return KValue::error();
    }
    out += field.conversion && !v.isStr() && field.spec.empty() ? plain : *formatted;
    out += e.text[i + 1];
  }
  return KValue::string(out);
}

} // namespace tile::frontend
