#include "engine/memory_devices.h"

#include <cmath>
#include <string>

#include "core/formats/json/json_flat.h"
#include "core/memory/kineto_memory.h"

namespace strata {

namespace {

// The text of the JSON array starting at head[open] ('['), brackets matched outside strings;
// empty when the head ends first.
std::string_view json_array_at(std::string_view head, size_t open) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = open; i < head.size(); ++i) {
    const char c = head[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if ((c == ']' || c == '}') && --depth == 0) {
      return head.substr(open, i + 1 - open);
    }
  }
  return {};
}

}  // namespace

std::vector<MemoryCapacity> kineto_device_memory(std::string_view head) {
  std::vector<MemoryCapacity> out;
  constexpr std::string_view kKey = "\"deviceProperties\"";
  const size_t key = head.find(kKey);
  if (key == std::string_view::npos) return out;
  const size_t open = head.find_first_not_of(" \t\r\n:", key + kKey.size());
  if (open == std::string_view::npos || head[open] != '[') return out;
  const std::string_view array = json_array_at(head, open);
  if (array.empty()) return out;
  std::vector<JsonLine> lines;
  std::string err;
  if (!json_flatten("{\"d\":" + std::string(array) + "}", &lines, &err)) return out;
  double id = NAN, bytes = NAN;
  auto flush = [&] {
    if (std::isfinite(id) && id >= 0 && std::isfinite(bytes) && bytes > 0)
      out.push_back({kineto_device_name(1, static_cast<int>(id)), bytes,
                     "the totalGlobalMem of the trace's deviceProperties"});
    id = bytes = NAN;
  };
  for (const JsonLine& l : lines) {
    if (l.depth == 1) flush();
    if (l.depth != 2) continue;
    if (l.key == "id") id = json_number(l);
    if (l.key == "totalGlobalMem") bytes = json_number(l);
  }
  flush();
  return out;
}

}  // namespace strata
