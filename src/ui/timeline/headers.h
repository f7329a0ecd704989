// What the timeline's name column says: process headers as chrome://tracing writes them
// ("python3 (pid 19392): GPU 0", Kineto's process_labels after the colon), headers that would
// read the same told apart, thread names with their tid when a process has two of one name, and
// text cut to a width with an ellipsis. Pure text: no ImGui, so tests/core checks it natively.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "ui/trace_data.h"

namespace strata {

// One process's header: its name, the pid as the file wrote it, and its labels.
std::string process_header_text(const UiProcess& p);
// Every process's header; where two read the same, the later ones end in " #2", " #3", ...
std::vector<std::string> process_header_texts(const TraceData& d);
// Every track's label: its name, plus " (tid N)" where its process has another track of that
// name; an unnamed thread is "thread N".
std::vector<std::string> track_label_texts(const TraceData& d);

// The longest prefix of `text` that fits `max_w` with "..." after it (the whole text when it
// fits; "" when not even the ellipsis does). `width(s)` measures a string; *elided tells
// whether it was cut. Cuts fall between UTF-8 characters.
template <typename Width>
std::string elide_to_width(std::string_view text, float max_w, Width width, bool* elided) {
  *elided = false;
  if (width(text) <= max_w) return std::string(text);
  *elided = true;
  static constexpr std::string_view kEllipsis = "...";
  size_t lo = 0, hi = text.size();  // the answer's prefix length is in [lo, hi)
  while (lo + 1 < hi) {
    size_t mid = (lo + hi) / 2;
    while (mid > lo && (static_cast<unsigned char>(text[mid]) & 0xC0) == 0x80) --mid;
    if (mid == lo) break;
    std::string s(text.substr(0, mid));
    s += kEllipsis;
    if (width(s) <= max_w)
      lo = mid;
    else
      hi = mid;
  }
  if (lo == 0) return width(kEllipsis) <= max_w ? std::string(kEllipsis) : std::string();
  std::string s(text.substr(0, lo));
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s + std::string(kEllipsis);
}

}  // namespace strata
