#include "ui/analysis/analysis_link.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "protocol/analysis_keys.h"

namespace strata {

namespace {

// The hash's keys (the page's URL, not the worker protocol); the peaks are named as the
// analyses' args.
constexpr std::string_view kTabKey = "tab", kAnalysisTab = "analysis";
constexpr std::string_view kAnalysisKey = "analysis", kOpKey = "op", kStepKey = "step";
constexpr std::string_view kPeakTflopsKey = protocol::keys::analysis_args::kPeakTflops;
constexpr std::string_view kPeakGBpsKey = protocol::keys::analysis_args::kPeakGBps;

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string url_decode(std::string_view s) {
  std::string o;
  o.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      o += ' ';
    } else if (s[i] == '%' && i + 2 < s.size() && hex_digit(s[i + 1]) >= 0 &&
               hex_digit(s[i + 2]) >= 0) {
      o += static_cast<char>(hex_digit(s[i + 1]) * 16 + hex_digit(s[i + 2]));
      i += 2;
    } else {
      o += s[i];
    }
  }
  return o;
}

// As encodeURIComponent: letters, digits and -_.!~*'() stay, every other byte is %XX.
std::string url_encode(const std::string& s) {
  static const char* const kHex = "0123456789ABCDEF";
  std::string o;
  for (unsigned char c : s) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '-' || c == '_' || c == '.' || c == '!' || c == '~' || c == '*' ||
                       c == '\'' || c == '(' || c == ')';
    if (plain) {
      o += static_cast<char>(c);
    } else {
      o += '%';
      o += kHex[c >> 4];
      o += kHex[c & 15];
    }
  }
  return o;
}

double peak_of(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  return end != text.c_str() && *end == 0 && std::isfinite(v) && v > 0 ? v : 0;
}

}  // namespace

AnalysisDeepLink parse_analysis_link(std::string_view hash) {
  AnalysisDeepLink link;
  if (!hash.empty() && hash[0] == '#') hash.remove_prefix(1);
  while (!hash.empty()) {
    const size_t amp = hash.find('&');
    const std::string_view part = hash.substr(0, amp);
    hash = amp == std::string_view::npos ? std::string_view() : hash.substr(amp + 1);
    const size_t eq = part.find('=');
    const std::string key = url_decode(part.substr(0, eq));
    const std::string value =
        eq == std::string_view::npos ? std::string() : url_decode(part.substr(eq + 1));
    if (key == kTabKey) link.analysis_tab = value == kAnalysisTab;
    if (key == kAnalysisKey) link.analysis = value;
    if (key == kOpKey) link.op = value;
    if (key == kStepKey) link.step = value;
    if (key == kPeakTflopsKey) link.peak_tflops = peak_of(value);
    if (key == kPeakGBpsKey) link.peak_gbps = peak_of(value);
  }
  return link;
}

std::string peak_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string analysis_link_hash(const AnalysisDeepLink& link) {
  std::string o;
  auto add = [&](std::string_view key, const std::string& value) {
    if (!o.empty()) o += '&';
    o.append(key);
    o += '=' + url_encode(value);
  };
  add(kTabKey, std::string(kAnalysisTab));
  if (!link.analysis.empty()) add(kAnalysisKey, link.analysis);
  if (!link.op.empty()) add(kOpKey, link.op);
  if (!link.step.empty()) add(kStepKey, link.step);
  if (link.peak_tflops > 0) add(kPeakTflopsKey, peak_text(link.peak_tflops));
  if (link.peak_gbps > 0) add(kPeakGBpsKey, peak_text(link.peak_gbps));
  return o;
}

}  // namespace strata
