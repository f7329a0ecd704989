#include "ui/memory/memory_view.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "core/base/json_writer.h"
#include "imgui.h"
#include "protocol/reply_keys.h"
#include "protocol/worker_messages.h"
#include "ui/timeline/colors.h"

namespace strata {

namespace {

constexpr float kHeaderH = 34;
constexpr float kAxisW = 84;  // y-axis labels left of the plot
constexpr float kRulerH = 20;
constexpr float kReadoutPad = 3;
constexpr double kMicrosecondNs = 1000;  // around the hover readout's text
constexpr double kFocusPad = 0.05;       // a shown XLA run's margin, a share of its span

// W/S/A/D (held or pressed) and the wheel, as on the timeline, on the shared view.
void navigate(Timeline* t, const ViewLimits& lim, NavKeys* keys, bool hovered, double anchor,
              double dt_ms) {
  ImGuiIO& io = ImGui::GetIO();
  const double span = t->view.span();
  const double dt = std::min(dt_ms, 100.0) / 1000.0;
  const double speed = io.KeyShift ? 3.0 : 1.0;
  for (int i = 0; i < keys->zoom_in_presses; ++i) t->view = zoom_about(t->view, anchor, 0.8, lim);
  for (int i = 0; i < keys->zoom_out_presses; ++i) t->view = zoom_about(t->view, anchor, 1.25, lim);
  for (int i = 0; i < keys->pan_left_presses; ++i)
    t->view = pan_by(t->view, -0.1 * span * speed, lim);
  for (int i = 0; i < keys->pan_right_presses; ++i)
    t->view = pan_by(t->view, 0.1 * span * speed, lim);
  keys->zoom_in_presses = keys->zoom_out_presses = keys->pan_left_presses =
      keys->pan_right_presses = 0;
  if (keys->zoom_in) t->view = zoom_about(t->view, anchor, std::pow(0.25, dt * speed), lim);
  if (keys->zoom_out) t->view = zoom_about(t->view, anchor, std::pow(4.0, dt * speed), lim);
  if (keys->pan_left) t->view = pan_by(t->view, -t->view.span() * dt * speed, lim);
  if (keys->pan_right) t->view = pan_by(t->view, t->view.span() * dt * speed, lim);
  if (hovered && io.MouseWheel != 0)
    t->view = zoom_about(t->view, anchor, std::pow(0.85, io.MouseWheel), lim);
  if (hovered && io.MouseWheelH != 0) t->view = pan_by(t->view, -io.MouseWheelH * 0.1 * span, lim);
  keys->commands.clear();  // timeline tools and search do not apply here
}

void request_range(MemoryView* m, const Timeline& t, int px, MemorySendQuery send) {
  if (m->devices.empty()) return;
  namespace arg = protocol::memory_args;
  std::string args;
  protocol::append_key(&args, arg::kDevice, '{');
  json_append_string(&args, m->devices[m->device].name);
  protocol::append_key(&args, arg::kGroup);
  json_append_string(&args, m->by_component ? "component" : "total");
  protocol::append_key(&args, arg::kT0);
  json_append_number(&args, t.view.start);
  protocol::append_key(&args, arg::kT1);
  json_append_number(&args, t.view.end);
  protocol::append_key(&args, arg::kPx);
  args += std::to_string(px) + '}';
  if (args == m->range_key) return;
  m->range_key = args;
  m->range_query = send(protocol::memory_query::kRange.data(), args);
}

void header(MemoryView* m, float x, float y, float w) {
  ImGui::SetNextWindowPos(ImVec2(x, y));
  ImGui::SetNextWindowSize(ImVec2(w, kHeaderH));
  ImGui::Begin("##memhdr", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoScrollWithMouse);
  ImGui::TextUnformatted("Device");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(180);
  const char* current = m->devices.empty() ? "(none)" : m->devices[m->device].name.c_str();
  if (ImGui::BeginCombo("##device", current)) {
    for (int i = 0; i < static_cast<int>(m->devices.size()); ++i)
      if (ImGui::Selectable(m->devices[i].name.c_str(), i == m->device)) {
        m->device = i;
        m->live_asked_for_peak = false;
        m->fit_checked = false;
      }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  if (ImGui::Button("Fit")) m->fit_request = true;
  ImGui::SameLine();
  ImGui::TextUnformatted("Group by");
  ImGui::SameLine();
  if (ImGui::RadioButton("Total", !m->by_component)) m->by_component = false;
  ImGui::SameLine();
  if (ImGui::RadioButton("Component", m->by_component)) m->by_component = true;
  if (!m->devices.empty()) {
    const MemoryView::Device& d = m->devices[m->device];
    ImGui::SameLine();
    const std::string share = memory_capacity_label(d);
    ImGui::TextDisabled(
        "|  peak %s%s%s%s%s at %s  |  %d samples  |  %d allocations (%d unreleased)",
        byte_label(d.peak, ByteUnits::kBinary).c_str(), d.peak_reserved ? " reserved" : "",
        share.empty() ? "" : " (", share.c_str(), share.empty() ? "" : ")",
        memory_time_label(d.peak_t).c_str(), d.samples, d.allocations, d.unreleased);
    if (!share.empty() && ImGui::IsItemHovered())
      ImGui::SetTooltip("Device memory: %s", d.capacity_source.c_str());
    m->capacity_shown = share;
    if (share.empty()) {  // said, not left out: no share without the device's memory
      m->capacity_shown = kMemoryNoCapacity;
      ImGui::SameLine();
      ImGui::TextDisabled("|  %s", kMemoryNoCapacity);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", memory_capacity_note(d).c_str());
    }
  }
  ImGui::SameLine();
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kMemoryAllocated), "  allocated");
  ImGui::SameLine();
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kMemoryReserved), "reserved");
  ImGui::End();
}

// The plot: per reply column a vertical min..max stroke joined to the previous column, so a
// spike one sample wide still reaches its true height at any zoom.
void plot(MemoryView* m, const Timeline& t, ImDrawList* dl, float px0, float py0, float pw,
          float ph, double ymax) {
  const double rt0 = m->reply_t0, rt1 = m->reply_t1;
  auto y_of = [&](double v) { return py0 + ph - static_cast<float>(v / ymax) * ph; };
  for (size_t li = 0; li < m->lines.size(); ++li) {
    const MemoryView::Line& l = m->lines[li];
    for (int which = 0; which < 2; ++which) {  // reserved under allocated
      const std::vector<float>& lo = which == 0 ? l.rmin : l.amin;
      const std::vector<float>& hi = which == 0 ? l.rmax : l.amax;
      ImU32 col = which == 0 ? theme::kMemoryReserved : theme::kMemoryAllocated;
      if (m->by_component && m->lines.size() > 1) {
        col = theme::kMemoryComponents[li % std::size(theme::kMemoryComponents)];
        if (which == 0) col = (col & 0x00FFFFFF) | 0x90000000;
      }
      const size_t n = std::min(lo.size(), hi.size());
      if (!n) continue;
      const double colw = (rt1 - rt0) / static_cast<double>(n);
      float prev_x = 0, prev_y = 0;
      bool has_prev = false;
      for (size_t i = 0; i < n; ++i) {
        if (std::isnan(lo[i]) || std::isnan(hi[i])) {
          has_prev = false;
          continue;
        }
        const double tc = rt0 + colw * (static_cast<double>(i) + 0.5);
        const float x = px0 + static_cast<float>(time_to_px(t.view, tc, pw));
        if (x < px0 - 2 || x > px0 + pw + 2) continue;
        const float ylo = y_of(lo[i]), yhi = y_of(hi[i]);
        if (has_prev) dl->AddLine(ImVec2(prev_x, prev_y), ImVec2(x, yhi), col, 1.5f);
        dl->AddLine(ImVec2(x, ylo + 0.5f), ImVec2(x, yhi - 0.5f), col, 1.5f);
        prev_x = x, prev_y = ylo, has_prev = true;
      }
    }
  }
}

// The Memory Viewer's module asked for: its runs once the devices are known, then its run
// with the most memory shown (the run and the gap before it, where its buffers are allocated)
// with what was live at that peak.
void focus_module(MemoryView* m, Timeline* t, const ViewLimits& lim, MemorySendQuery send) {
  if (m->focus_pending && m->summary_ready) {
    m->focus_pending = false;
    namespace arg = protocol::memory_args;
    std::string args;
    protocol::append_key(&args, arg::kModule, '{');
    json_append_string(&args, m->focus_module);
    protocol::append_key(&args, arg::kProgramId);
    json_append_string(&args, m->focus_program);
    m->focus_query = send(protocol::memory_query::kModule.data(), args + '}');
  }
  if (!m->focus_answered) return;
  m->focus_answered = false;
  const MemoryView::XlaRun& r = m->focus_run;
  if (!r.valid) return;
  for (int i = 0; i < static_cast<int>(m->devices.size()); ++i)
    if (m->devices[i].name == r.device) m->device = i;
  const double from = std::min(r.start, r.peak_t), span = std::max(1.0, r.end - from);
  const double pad = span * kFocusPad;
  t->view = clamp_view(TimeView{t->view.origin, from - pad, r.end + pad}, lim);
  m->fit_checked = true;
  m->live_asked_for_peak = true;
  memory_request_live(m, r.peak_t, send);
}

}  // namespace

void memory_view_reset(MemoryView* m) { *m = MemoryView{}; }

void memory_view_show_module(MemoryView* m, const std::string& module, const std::string& program) {
  m->focus_module = module;
  m->focus_program = program;
  m->focus_pending = true;
  m->focus_answered = false;
  m->focus_run = MemoryView::XlaRun{};
  m->focus_runs = 0;
  m->focus_why.clear();
}

void memory_view_frame(MemoryView* m, Timeline* t, const TraceData& d, NavKeys* keys, float x,
                       float y, float w, float h, double now_ms, MemorySendQuery send) {
  static double last_ms = now_ms;
  const double dt_ms = now_ms - last_ms;
  last_ms = now_ms;
  if (!m->summary_asked) {
    m->summary_asked = true;
    m->summary_query = send(protocol::memory_query::kSummary.data(), "{}");
  }
  header(m, x, y, w);
  // The view may also cover the device's data: an Ascend CSV opened on top of a trace can sit
  // on another clock. Such data is zoomed to at once; the Fit button does it on demand.
  ViewLimits lim = t->limits;
  if (!m->devices.empty()) {
    const MemoryView::Device& dev = m->devices[m->device];
    const double pad = std::max(1000.0, (dev.end - dev.start) * 0.02);
    if (!m->fit_checked) {
      m->fit_checked = true;
      if (dev.end < t->limits.min_time || dev.start > t->limits.max_time) m->fit_request = true;
    }
    lim.min_time = std::min(lim.min_time, dev.start - pad);
    lim.max_time = std::max(lim.max_time, dev.end + pad);
    if (m->fit_request) {
      m->fit_request = false;
      t->view = clamp_view(TimeView{t->view.origin, dev.start - pad, dev.end + pad}, lim);
    }
  }
  focus_module(m, t, lim, send);
  const float chart_h = std::max(160.0f, (h - kHeaderH) * 0.55f);
  ImGui::SetNextWindowPos(ImVec2(x, y + kHeaderH));
  ImGui::SetNextWindowSize(ImVec2(w, chart_h));
  ImGui::Begin("##memchart", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoScrollWithMouse |
                   ImGuiWindowFlags_NoScrollbar);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float px0 = x + kAxisW, py0 = y + kHeaderH + 8, pw = std::max(10.0f, w - kAxisW - 12),
              ph = std::max(10.0f, chart_h - 16 - kRulerH);
  dl->AddRectFilled(ImVec2(px0, py0), ImVec2(px0 + pw, py0 + ph), theme::kChartBg);
  dl->AddRect(ImVec2(px0, py0), ImVec2(px0 + pw, py0 + ph), theme::kChartAxis);
  m->plot_x = px0, m->plot_y = py0, m->plot_w = pw, m->plot_h = ph;
  ImGui::SetCursorScreenPos(ImVec2(px0, py0));
  ImGui::InvisibleButton("##plot", ImVec2(pw, ph));
  const bool hovered = ImGui::IsItemHovered();
  const float mx = ImGui::GetIO().MousePos.x;
  const double anchor =
      hovered ? px_to_time(t->view, mx - px0, pw) : (t->view.start + t->view.end) / 2;
  navigate(t, lim, keys, hovered, anchor, dt_ms);
  static float press_x = 0;
  if (ImGui::IsItemActivated()) press_x = mx;
  if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 4)) {
    t->view = pan_by(t->view, -ImGui::GetIO().MouseDelta.x * t->view.span() / pw,
                     lim);  // drag: pan
  } else if (ImGui::IsItemDeactivated() && std::fabs(mx - press_x) < 4) {
    memory_request_live(m, px_to_time(t->view, mx - px0, pw), send);  // a click: what was live then
  }
  m->hover_t = hovered ? px_to_time(t->view, mx - px0, pw) : NAN;
  m->shown_t0 = t->view.start, m->shown_t1 = t->view.end;
  m->hover_text.clear();

  if (!m->summary_ready) {
    dl->AddText(ImVec2(px0 + 12, py0 + 12), theme::kTextDim, "reading memory data...");
  } else if (m->devices.empty()) {
    dl->AddText(
        ImVec2(px0 + 12, py0 + 12), theme::kTextDim,
        "No memory data in this trace. Strata reads PyTorch [memory] events, memory counters, and "
        "Ascend memory_record.csv / operator_memory.csv (open them here).");
  } else {
    request_range(m, *t, static_cast<int>(pw), send);
    if (!m->live_asked_for_peak) {  // the peak's breakdown first: what an OOM hunt wants
      m->live_asked_for_peak = true;
      memory_request_live(m, m->devices[m->device].peak_t, send);
    }
    // y scale: the device's largest value, so it stays put while zooming.
    const MemoryView::Device& dev = m->devices[m->device];
    double ymax = dev.peak;
    for (const MemoryView::Series& s : dev.series) {
      if (!std::isnan(s.peak_alloc)) ymax = std::max(ymax, s.peak_alloc);
      if (!std::isnan(s.peak_resv)) ymax = std::max(ymax, s.peak_resv);
    }
    ymax = ymax > 0 ? ymax * 1.08 : 1;
    memory_y_ticks(ymax, &m->y_ticks, &m->y_labels);
    for (size_t i = 0; i < m->y_ticks.size(); ++i) {
      const float gy = py0 + ph - static_cast<float>(m->y_ticks[i] / ymax) * ph;
      dl->AddLine(ImVec2(px0, gy), ImVec2(px0 + pw, gy), theme::kGrid);
      const char* label = m->y_labels[i].c_str();
      dl->AddText(ImVec2(px0 - 6 - ImGui::CalcTextSize(label).x, gy - 7), theme::kTextDim, label);
    }
    dl->PushClipRect(ImVec2(px0, py0), ImVec2(px0 + pw, py0 + ph), true);
    plot(m, *t, dl, px0, py0, pw, ph, ymax);
    // Peak marker with its value and time.
    m->peak_label =
        "peak " + byte_label(dev.peak, ByteUnits::kBinary) + " at " + memory_time_label(dev.peak_t);
    const float peak_x = px0 + static_cast<float>(time_to_px(t->view, dev.peak_t, pw));
    const float peak_y = py0 + ph - static_cast<float>(dev.peak / ymax) * ph;
    if (peak_x >= px0 && peak_x <= px0 + pw) {
      dl->AddCircleFilled(ImVec2(peak_x, peak_y), 4.5f, theme::kMemoryPeak);
      const std::string& label = m->peak_label;
      const float lw = ImGui::CalcTextSize(label.c_str()).x;
      dl->AddText(ImVec2(std::min(peak_x + 7, px0 + pw - lw - 4), std::max(peak_y - 18, py0 + 2)),
                  theme::kMemoryPeak, label.c_str());
    }
    if (!std::isnan(m->live_t)) {
      const float lx = px0 + static_cast<float>(time_to_px(t->view, m->live_t, pw));
      dl->AddLine(ImVec2(lx, py0), ImVec2(lx, py0 + ph), theme::kMemoryInstant);
    }
    if (hovered) {
      dl->AddLine(ImVec2(mx, py0), ImVec2(mx, py0 + ph), theme::kCursorLine);
      // The cursor's time to the microsecond at least (finer when zoomed in that far).
      std::string text =
          format_tick(m->hover_t, std::min(kMicrosecondNs, tick_step(t->view.span(), pw, 1)));
      // The value under the cursor, from the reply column there.
      if (!m->lines.empty() && !m->lines[0].amax.empty()) {
        const MemoryView::Line& l = m->lines[0];
        const double f = (m->hover_t - m->reply_t0) / (m->reply_t1 - m->reply_t0);
        const auto i = static_cast<long>(f * static_cast<double>(l.amax.size()));
        if (i >= 0 && i < static_cast<long>(l.amax.size())) {
          if (!std::isnan(l.amax[i]))
            text += "  allocated " + byte_label(l.amax[i], ByteUnits::kBinary);
          if (i < static_cast<long>(l.rmax.size()) && !std::isnan(l.rmax[i]))
            text += "  reserved " + byte_label(l.rmax[i], ByteUnits::kBinary);
        }
      }
      // On the theme's label background: readable over the lines and grid in either theme.
      const ImVec2 size = ImGui::CalcTextSize(text.c_str());
      const ImVec2 at(std::max(px0 + kReadoutPad, std::min(mx + 6, px0 + pw - size.x - 4)),
                      py0 + 4);
      dl->AddRectFilled(ImVec2(at.x - kReadoutPad, at.y - kReadoutPad),
                        ImVec2(at.x + size.x + kReadoutPad, at.y + size.y + kReadoutPad),
                        theme::kLabelBg, 3);
      dl->AddText(at, theme::kText, text.c_str());
      m->hover_text = text;
      m->hover_x = at.x - kReadoutPad, m->hover_y = at.y - kReadoutPad;
      m->hover_w = size.x + 2 * kReadoutPad, m->hover_h = size.y + 2 * kReadoutPad;
    }
    dl->PopClipRect();
  }
  // Ruler: the timeline's time axis.
  const double step = tick_step(t->view.span(), pw, 90);
  for (double tk : ticks(t->view, step)) {
    const float tx = px0 + static_cast<float>(time_to_px(t->view, tk, pw));
    dl->AddLine(ImVec2(tx, py0 + ph), ImVec2(tx, py0 + ph + 4), theme::kTextDim);
    dl->AddText(ImVec2(tx + 2, py0 + ph + 3), theme::kTextDim, format_tick(tk, step).c_str());
  }
  ImGui::End();
  (void)d;
  memory_tables_draw(m, x, y + kHeaderH + chart_h, w, h - kHeaderH - chart_h, send);
}

}  // namespace strata
