#include "ui/loss/loss_names.h"

#include <algorithm>

namespace strata {

namespace {

bool is_boundary(char c) {
  return c == '/' || c == '\\' || c == '_' || c == '-' || c == '.' || c == ' ' || c == ':';
}

}  // namespace

std::vector<std::string> loss_short_names(const std::vector<std::string>& names) {
  if (names.size() < 2) return names;
  size_t common = names[0].size();
  for (size_t i = 1; i < names.size(); ++i) {
    const std::string &a = names[0], &b = names[i];
    size_t k = 0;
    while (k < common && k < b.size() && a[k] == b[k]) ++k;
    common = k;
  }
  // Keep the word the names start to differ in: back up to the boundary before it.
  size_t cut = common;
  while (cut > 0 && !is_boundary(names[0][cut - 1])) --cut;
  if (cut < kLossSharedPrefixMin) return names;
  std::vector<std::string> out;
  out.reserve(names.size());
  for (const std::string& n : names) out.push_back("..." + n.substr(cut));
  return out;
}

}  // namespace strata
