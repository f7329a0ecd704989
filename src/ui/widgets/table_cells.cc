#include "ui/widgets/table_cells.h"

#include <cmath>

#include "core/base/json_writer.h"
#include "imgui.h"
#include "ui/widgets/number_format.h"

namespace strata {

namespace {

constexpr const char* kEllipsis = "...";
// Cut cells of one frame: at most this many are kept (a long table cuts thousands of rows,
// but a test reads the first few).
constexpr size_t kMaxRecorded = 512;

std::vector<CutCell> g_cut;
int g_cut_frame = -1;

void record(const std::string& text, const std::string& shown) {
  const int frame = ImGui::GetFrameCount();
  if (frame != g_cut_frame) {
    g_cut.clear();
    g_cut_frame = frame;
  }
  if (g_cut.size() < kMaxRecorded) g_cut.push_back({text, shown});
}

float width_of(const std::string& s) { return ImGui::CalcTextSize(s.c_str()).x; }

// Whole UTF-8 characters: a cut never splits a multi-byte sequence.
size_t char_start(const std::string& s, size_t i) {
  while (i > 0 && i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) --i;
  return i;
}

void tooltip_when_hovered(const std::string& text) {
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text.c_str());
}

}  // namespace

std::string ellipsize(const std::string& text, float width) {
  if (width_of(text) <= width) return text;
  const float room = width - width_of(kEllipsis);
  size_t lo = 0, hi = text.size();  // the longest prefix [0, lo) that fits
  while (lo < hi) {
    const size_t mid = char_start(text, (lo + hi + 1) / 2);
    if (mid <= lo) break;
    if (width_of(text.substr(0, mid)) <= room)
      lo = mid;
    else
      hi = mid - 1;
  }
  return text.substr(0, char_start(text, lo)) + kEllipsis;
}

void note_cut(const std::string& text, const std::string& shown) {
  record(text, shown);
  tooltip_when_hovered(text);
}

void cell_text(const std::string& text, uint32_t colour) {
  const float room = ImGui::GetContentRegionAvail().x;
  const std::string shown = ellipsize(text, room);
  if (colour) ImGui::PushStyleColor(ImGuiCol_Text, colour);
  ImGui::TextUnformatted(shown.c_str());
  if (colour) ImGui::PopStyleColor();
  if (shown != text) {
    record(text, shown);
    tooltip_when_hovered(text);
  }
}

void cell_number(const std::string& exact, const std::vector<std::string>& shorter) {
  const float room = ImGui::GetContentRegionAvail().x;
  std::string shown = exact;
  for (size_t i = 0; width_of(shown) > room && i < shorter.size(); ++i) shown = shorter[i];
  if (width_of(shown) > room) shown = ellipsize(shown, room);
  const float pad = room - width_of(shown);
  if (pad > 0) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + pad);
  ImGui::TextUnformatted(shown.c_str());
  if (shown != exact) {
    record(exact, shown);
    tooltip_when_hovered(exact);
  }
}

void cell_us(double us) {
  if (std::isnan(us)) {
    cell_number("-");
    return;
  }
  cell_number(format_thousands(us, 2), {format_thousands(us, 0), format_compact(us)});
}

const std::vector<CutCell>& table_cells_cut(int* frame) {
  if (frame) *frame = g_cut_frame;
  return g_cut;
}

std::string table_cells_json() {
  std::string o = "{\"frame\":" + std::to_string(g_cut_frame) +
                  ",\"now\":" + std::to_string(ImGui::GetFrameCount()) + ",\"cells\":[";
  for (size_t i = 0; i < g_cut.size(); ++i) {
    o += i ? ",{\"text\":" : "{\"text\":";
    json_append_string(&o, g_cut[i].text);
    o += ",\"shown\":";
    json_append_string(&o, g_cut[i].shown);
    o += '}';
  }
  return o + "]}";
}

}  // namespace strata
