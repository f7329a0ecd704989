#include "ui/analysis/analysis_link.h"

#include <cstdio>

namespace strata {

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string decode(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] == '%' && i + 2 < s.size() && hex_digit(s[i + 1]) >= 0 &&
               hex_digit(s[i + 2]) >= 0) {
      out += static_cast<char>(hex_digit(s[i + 1]) * 16 + hex_digit(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::string encode(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '-' || c == '_' || c == '.' || c == '*';
    if (plain) {
      out += static_cast<char>(c);
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    }
  }
  return out;
}

}  // namespace

AnalysisLinkParams parse_analysis_link(const std::string& hash) {
  AnalysisLinkParams p;
  size_t at = !hash.empty() && hash[0] == '#' ? 1 : 0;
  while (at <= hash.size()) {
    size_t amp = hash.find('&', at);
    if (amp == std::string::npos) amp = hash.size();
    const std::string pair = hash.substr(at, amp - at);
    const size_t eq = pair.find('=');
    const std::string key = decode(pair.substr(0, eq));
    const std::string value = eq == std::string::npos ? std::string() : decode(pair.substr(eq + 1));
    if (key == "tab") p.analysis_tab = value == "analysis";
    if (key == "analysis") p.analysis = value;
    if (key == "op") p.op = value;
    if (key == "step") p.step = value;
    at = amp + 1;
  }
  return p;
}

std::string analysis_link(const std::string& analysis, const std::string& op,
                          const std::string& step) {
  if (analysis.empty()) return {};
  std::string o = "tab=analysis&analysis=" + encode(analysis);
  if (!op.empty()) o += "&op=" + encode(op);
  if (!step.empty()) o += "&step=" + encode(step);
  return o;
}

}  // namespace strata
