// UI module entry: WebGL2 context, Dear ImGui, the frame loop, and the exports web/strata.js
// calls (engine messages in, load progress, view get/set for the script API).
#include <GLES3/gl3.h>
#include <emscripten/emscripten.h>
#include <emscripten/html5.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "imgui.h"
#include "imgui_impl_opengl3.h"
#include "platform/browser/host.h"
#include "platform/browser/input.h"
#include "platform/browser/redraw.h"
#include "platform/gl/rect_renderer.h"
#include "platform/gl/world_renderer.h"
#include "ui/app.h"
#include "ui/theme.h"
#include "ui/timeline/colors.h"

namespace {

constexpr const char* kCanvas = "#canvas";
strata::App* g_app = nullptr;
strata::RectRenderer g_rects;
strata::WorldRenderer g_world;  // the Graph tab's boxes and edges
float g_font_scale = 0;         // device pixel ratio the font atlas was built for

// Rebuilds the font atlas at the device pixel ratio so text stays crisp on HiDPI screens.
void ensure_fonts(float dpr) {
  if (dpr == g_font_scale) return;
  g_font_scale = dpr;
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  ImFontConfig cfg;
  cfg.SizePixels = std::round(13.0f * dpr);
  cfg.OversampleH = cfg.OversampleV = 1;
  cfg.PixelSnapH = true;
  io.Fonts->AddFontDefault(&cfg);
  io.FontGlobalScale = 1.0f / dpr;
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
}

// What the user holds down or is typing: drawn every display frame.
bool user_animating() {
  const strata::App& a = *g_app;
  const strata::NavKeys& k = a.keys;
  return k.zoom_in || k.zoom_out || k.pan_left || k.pan_right || !k.commands.empty() ||
         (a.search.sent != std::string(a.search.regex ? "r:" : "s:") + a.search.text);
}

// Replies the UI waits for: their arrival asks for a frame (ui_receive); these frames only
// retry requests that went unanswered.
bool waiting_on_engine() {
  const strata::App& a = *g_app;
  return !a.timeline.tiles.in_flight.empty() || a.details.waiting || a.search.pending_id != 0;
}

// While a file loads, the engine's frames (progress, tiles of the preview) come at most this
// often: a progress bar needs no more, and the cores go to the parse. Without a GPU, Chromium
// draws each frame in software at 40-140 ms of CPU (measured on the 2-core bench machine during
// a load), which a 1 GB load paid ~15 times at 250 ms. Input is never held back.
constexpr double kLoadingFrameMs = 500;

void frame() {
  if (user_animating()) strata::request_redraw();
  if (waiting_on_engine()) strata::request_redraw_frames(1);
  int css_now_w = 0, css_now_h = 0;
  {
    double w = 0, h = 0;
    emscripten_get_element_css_size(kCanvas, &w, &h);
    css_now_w = static_cast<int>(w), css_now_h = static_cast<int>(h);
    static int last_w = -1, last_h = -1;
    if (css_now_w != last_w || css_now_h != last_h) strata::request_redraw();  // resized
    last_w = css_now_w, last_h = css_now_h;
  }
  double t0 = emscripten_get_now();
  if (!strata::take_redraw(t0, g_app->progress.active ? kLoadingFrameMs : 0)) return;
  double css_w = 0, css_h = 0;
  emscripten_get_element_css_size(kCanvas, &css_w, &css_h);
  float dpr = static_cast<float>(emscripten_get_device_pixel_ratio());
  if (dpr <= 0) dpr = 1;
  int fb_w = static_cast<int>(std::lround(css_w * dpr)),
      fb_h = static_cast<int>(std::lround(css_h * dpr));
  int cur_w = 0, cur_h = 0;
  emscripten_get_canvas_element_size(kCanvas, &cur_w, &cur_h);
  if (cur_w != fb_w || cur_h != fb_h) emscripten_set_canvas_element_size(kCanvas, fb_w, fb_h);
  ensure_fonts(dpr);

  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(static_cast<float>(css_w), static_cast<float>(css_h));
  io.DisplayFramebufferScale = ImVec2(dpr, dpr);
  double now = emscripten_get_now();
  io.DeltaTime = g_app->last_frame_ms > 0
                     ? static_cast<float>((now - g_app->last_frame_ms) / 1000.0)
                     : 1.0f / 60;
  if (io.DeltaTime <= 0) io.DeltaTime = 1e-4f;
  g_app->last_frame_ms = now;

  ImGui_ImplOpenGL3_NewFrame();
  ImGui::NewFrame();
  strata::app_frame(g_app, static_cast<float>(css_w), static_cast<float>(css_h), now);
  ImGui::Render();
  {
    strata::FrameStats& fs = g_app->frame_stats;
    fs.ms[fs.frames % strata::FrameStats::kRing] = static_cast<float>(emscripten_get_now() - t0);
    ++fs.frames;
  }

  glViewport(0, 0, fb_w, fb_h);
  const uint32_t bg = strata::theme::kBackground;
  glClearColor((bg & 0xFF) / 255.0f, ((bg >> 8) & 0xFF) / 255.0f, ((bg >> 16) & 0xFF) / 255.0f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  g_rects.draw(g_app->batch, static_cast<float>(css_w), static_cast<float>(css_h), dpr);
  g_world.draw(g_app->graph.gpu, static_cast<float>(css_w), static_cast<float>(css_h), dpr);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  strata::input_frame_done();
}

}  // namespace

extern "C" {

// A protocol message from the engine worker (copied into wasm memory by strata.js).
EMSCRIPTEN_KEEPALIVE void ui_receive(const uint8_t* data, uint32_t n) {
  strata::app_receive(g_app, data, n);
  strata::request_redraw_frames(2);  // one to draw it, one for any layout it changes
}

EMSCRIPTEN_KEEPALIVE void ui_set_progress(const char* name, double loaded, double total,
                                          double mbps, double records, int active) {
  strata::LoadProgress& p = g_app->progress;
  p.active = active != 0;
  p.name = name;
  p.loaded = loaded;
  p.total = total;
  p.mb_per_s = mbps;
  p.records = records;
  strata::request_redraw_frames(1);
}

// The engine's news, not input: during a load (a big file's preview) these frames wait their
// turn like the progress bar's instead of drawing four at once.
EMSCRIPTEN_KEEPALIVE void ui_set_file_label(const char* text) {
  g_app->file_label = text;
  strata::request_redraw_frames(1);
}
// embed=1 (web/embed.js): the host page opens files, so the UI hides its own file chrome.
EMSCRIPTEN_KEEPALIVE void ui_set_embedded(int on) {
  g_app->embedded = on != 0;
  strata::request_redraw();
}
// Light (1) or dark (0) palette; web/theme.js decides which.
EMSCRIPTEN_KEEPALIVE void ui_set_theme(int light) {
  strata::set_theme(light != 0);
  strata::request_redraw();
}
EMSCRIPTEN_KEEPALIVE void ui_show_error(const char* text) {
  g_app->error_banner = text;
  strata::request_redraw();
}

EMSCRIPTEN_KEEPALIVE void ui_set_details(double event, const char* json) {
  strata::app_details(g_app, static_cast<int64_t>(event), json);
  strata::request_redraw();
}

// View as absolute ns (doubles: exact to ~256 ns at epoch-scale timestamps).
EMSCRIPTEN_KEEPALIVE double ui_view_start_ns() {
  return static_cast<double>(g_app->data.origin_ns) + g_app->timeline.view.start;
}
EMSCRIPTEN_KEEPALIVE double ui_view_end_ns() {
  return static_cast<double>(g_app->data.origin_ns) + g_app->timeline.view.end;
}
EMSCRIPTEN_KEEPALIVE void ui_set_view_ns(double start_ns, double end_ns) {
  double origin = static_cast<double>(g_app->data.origin_ns);
  strata::timeline_set_view(&g_app->timeline, start_ns - origin, end_ns - origin);
  strata::request_redraw();
}
EMSCRIPTEN_KEEPALIVE int ui_settled() {
  return g_app->data.loaded && strata::timeline_settled(g_app->timeline, g_app->data) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE double ui_selected_event() {
  const auto& sel = g_app->timeline.selection;
  return sel.empty() ? -1 : static_cast<double>(sel[0].event);
}
// Frame CPU time statistics over the last frames drawn (up to FrameStats::kRing):
// ui_frame_stats(p) writes frames, median ms, p99 ms to p[0..2]. `reset` starts a new window.
EMSCRIPTEN_KEEPALIVE void ui_frame_stats(double* out, int reset) {
  strata::FrameStats& fs = g_app->frame_stats;
  uint64_t n = std::min<uint64_t>(fs.frames, strata::FrameStats::kRing);
  std::vector<float> v(fs.ms, fs.ms + n);
  std::sort(v.begin(), v.end());
  out[0] = static_cast<double>(fs.frames);
  out[1] = n ? v[n / 2] : 0;
  out[2] = n ? v[std::min<uint64_t>(n - 1, (n * 99) / 100)] : 0;
  if (reset) fs.frames = 0;
}

// New memory data for the trace shown (an Ascend memory CSV opened on top of it).
EMSCRIPTEN_KEEPALIVE void ui_memory_reload() {
  strata::memory_view_reset(&g_app->memory);
  strata::request_redraw();
}

// Tile cache statistics for strata.tileStats(): writes tiles, bytes, hits, misses, requests,
// pending (in flight), evictions, the view's tile level and the byte budget to p[0..8].
EMSCRIPTEN_KEEPALIVE void ui_tile_stats(double* out) {
  const strata::TileCache& c = g_app->timeline.tiles;
  const double v[9] = {static_cast<double>(c.tiles.size()),
                       static_cast<double>(c.bytes),
                       static_cast<double>(c.hits),
                       static_cast<double>(c.misses),
                       static_cast<double>(c.requests),
                       static_cast<double>(c.in_flight.size()),
                       static_cast<double>(c.evictions),
                       static_cast<double>(strata::timeline_tile_level(g_app->timeline)),
                       static_cast<double>(c.budget_bytes)};
  std::copy(v, v + 9, out);
}

EMSCRIPTEN_KEEPALIVE void ui_query_result(uint32_t id, const char* json) {
  strata::app_query_result(g_app, id, json);
  strata::request_redraw();
}

// Selection for the script API: count, and the i-th selected event index.
EMSCRIPTEN_KEEPALIVE int ui_selection_count() {
  return static_cast<int>(g_app->timeline.selection.size());
}
EMSCRIPTEN_KEEPALIVE double ui_selection_event(int i) {
  const auto& sel = g_app->timeline.selection;
  return i >= 0 && i < static_cast<int>(sel.size()) ? sel[i].event : -1;
}
// Selects one event (start/end in ns relative to the trace start) and brings it into view.
EMSCRIPTEN_KEEPALIVE void ui_select_event(uint32_t event, double start_rel, double end_rel,
                                          int reveal) {
  strata::timeline_select(&g_app->timeline, {event, start_rel, end_rel}, reveal != 0);
  strata::request_redraw();
}
// UI state for scripts and tests: tool, toggles, marks, timing interval, collapsed sections,
// hidden tracks (ns absolute as doubles). Valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* ui_state_json() {
  static std::string out;
  const strata::Timeline& t = g_app->timeline;
  const double o = static_cast<double>(g_app->data.origin_ns);
  static const char* kTools[] = {"", "select", "pan", "zoom", "timing"};
  char buf[160];
  out = std::string("{\"tool\":\"") + kTools[static_cast<int>(t.tool)] + "\"";
  out += std::string(",\"tab\":\"") +
         (g_app->tab == strata::ViewTab::kMemory ? "memory" : "timeline") + "\"";
  out += std::string(",\"grid\":") + (t.show_grid ? "true" : "false");
  out += std::string(",\"help\":") + (t.show_help ? "true" : "false");
  out += std::string(",\"flows\":") + (t.show_flows ? "true" : "false");
  out += ",\"marks\":[";
  for (size_t i = 0; i < t.marks.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%s[%.17g,%.17g]", i ? "," : "", o + t.marks[i].first,
                  o + t.marks[i].second);
    out += buf;
  }
  out += "],\"timing\":";
  if (t.has_timing) {
    std::snprintf(buf, sizeof buf, "[%.17g,%.17g]", o + std::min(t.timing_t0, t.timing_t1),
                  o + std::max(t.timing_t0, t.timing_t1));
    out += buf;
  } else {
    out += "null";
  }
  int collapsed = 0, hidden = 0;
  for (uint8_t c : t.collapsed) collapsed += c;
  for (uint8_t h : t.hidden) hidden += h;
  std::snprintf(
      buf, sizeof buf,
      ",\"collapsedSections\":%d,\"hiddenTracks\":%d,\"searchActive\":%s,\"searchPending\":%s,"
      "\"searchCount\":%llu,\"typing\":%s,\"scrollY\":%.1f}",
      collapsed, hidden, t.search_active ? "true" : "false",
      g_app->search.pending_id != 0 ? "true" : "false",
      static_cast<unsigned long long>(g_app->search.count),
      ImGui::GetIO().WantTextInput ? "true" : "false", t.scroll_y);
  out += buf;
  return out.c_str();
}

EMSCRIPTEN_KEEPALIVE void ui_clear_selection() {
  g_app->timeline.selection.clear();
  g_app->timeline.selection_changed = true;
  strata::request_redraw();
}

// Screen position (CSS px in the canvas) of an event's centre; x < 0 when it is not visible.
static float g_locate_x = -1, g_locate_y = -1;
EMSCRIPTEN_KEEPALIVE int ui_reveal(uint32_t event) {
  strata::request_redraw();
  return strata::timeline_reveal(&g_app->timeline, g_app->data, event) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE int ui_locate(uint32_t event) {
  g_locate_x = g_locate_y = -1;
  return strata::timeline_locate(g_app->timeline, g_app->data, event, &g_locate_x, &g_locate_y) ? 1
                                                                                                : 0;
}
EMSCRIPTEN_KEEPALIVE float ui_locate_x() { return g_locate_x; }
EMSCRIPTEN_KEEPALIVE float ui_locate_y() { return g_locate_y; }

// ---- view tabs and the loss view ---------------------------------------------------------
// 'timeline' | 'memory' | 'loss'; returns 0 for an unknown (or not yet available) tab.
EMSCRIPTEN_KEEPALIVE int ui_set_tab(const char* name) {
  const std::string n = name;
  if (n == "timeline")
    g_app->tab = strata::ViewTab::kTimeline;
  else if (n == "memory")
    g_app->tab = strata::ViewTab::kMemory;
  else if (n == "loss")
    g_app->tab = strata::ViewTab::kLoss;
  else if (n == "runs")
    g_app->tab = strata::ViewTab::kRuns;
  else if (n == "graph")
    g_app->tab = strata::ViewTab::kGraph;
  else
    return 0;
  strata::request_redraw();
  return 1;
}
// A log's points from the worker (new, or re-extracted): pairs = [iteration, loss] × n.
EMSCRIPTEN_KEEPALIVE void ui_loss_points(uint32_t id, const char* name, const char* loss_tag,
                                         const char* iteration_tag, double bytes, double mbps,
                                         const double* pairs, uint32_t n, int is_new) {
  strata::loss_view_points(&g_app->loss, id, name, loss_tag, iteration_tag, bytes, mbps, pairs, n);
  if (is_new) g_app->tab = strata::ViewTab::kLoss;
  strata::request_redraw();
}
// The log's id for a name, or 0.
EMSCRIPTEN_KEEPALIVE uint32_t ui_loss_id(const char* name) {
  strata::LossFile* f = strata::loss_view_find(&g_app->loss, name);
  return f ? f->id : 0;
}
EMSCRIPTEN_KEEPALIVE int ui_loss_set_comparison(const char* a, const char* b, const char* mode) {
  strata::request_redraw();
  return strata::loss_view_set_comparison(&g_app->loss, a, b, mode) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE int ui_loss_set_checked(const char* name, int checked) {
  strata::LossFile* f = strata::loss_view_find(&g_app->loss, name);
  if (!f) return 0;
  f->checked = checked != 0;
  strata::request_redraw();
  return 1;
}
// {files:[{name, lossTag, iterationTag, checked, bytes, points}], comparison}; valid until the next
// call.
EMSCRIPTEN_KEEPALIVE const char* ui_loss_json(int with_points) {
  static std::string out;
  out = strata::loss_view_json(&g_app->loss, with_points != 0);
  return out.c_str();
}
EMSCRIPTEN_KEEPALIVE const char* ui_tab() {
  switch (g_app->tab) {
    case strata::ViewTab::kLoss:
      return "loss";
    case strata::ViewTab::kMemory:
      return "memory";
    case strata::ViewTab::kRuns:
      return "runs";
    case strata::ViewTab::kGraph:
      return "graph";
    default:
      return "timeline";
  }
}

// ---- the Runs tab (web/runs.js) ------------------------------------------------------------
// A profiler folder's relative paths, one per line: discovery runs here; returns its JSON.
EMSCRIPTEN_KEEPALIVE const char* ui_runs_folder(const char* paths) {
  static std::string out;
  out = strata::runs_view_set_folder(&g_app->runs, paths);
  strata::request_redraw();
  return out.c_str();
}
EMSCRIPTEN_KEEPALIVE void ui_runs_select(int run, int profile, int view) {
  strata::runs_view_select(&g_app->runs, run, profile, view);
  g_app->runs.status.clear();
  strata::request_redraw();
}
// part: "operators" | "kernels" | "distributed" | "diff"; json: engine/runs_json.h's.
EMSCRIPTEN_KEEPALIVE void ui_runs_stats(const char* part, const char* json) {
  strata::runs_view_stats(&g_app->runs, part, json);
  strata::request_redraw();
}
// The operator table's grouping as set by the script API (the UI's own combo sets it too).
EMSCRIPTEN_KEEPALIVE void ui_runs_group_by_shape(int on) {
  g_app->runs.group_by_shape = on != 0;
  strata::request_redraw();
}
EMSCRIPTEN_KEEPALIVE void ui_runs_status(const char* text) {
  g_app->runs.status = text;
  strata::request_redraw();
}
// ---- the Graph tab (src/ui/graph; web/graph.js calls these) -------------------------------
EMSCRIPTEN_KEEPALIVE void ui_graph_modules(const char* json) {
  strata::graph_view_set_modules(&g_app->graph, json);
}
EMSCRIPTEN_KEEPALIVE void ui_graph_receive(const uint8_t* data, uint32_t n, uint32_t seq) {
  strata::graph_view_receive(&g_app->graph, data, n, seq);
}
EMSCRIPTEN_KEEPALIVE void ui_graph_details(uint32_t module, uint32_t instr, const char* json) {
  strata::graph_view_details(&g_app->graph, module, instr, json);
}
// Opens a module (index) at a computation (-1: entry) centred on an instruction (-1: none).
EMSCRIPTEN_KEEPALIVE void ui_graph_open(int module, int computation, int instr) {
  g_app->tab = strata::ViewTab::kGraph;
  strata::graph_view_open(&g_app->graph, module, computation, instr);
  strata::request_redraw();
}
EMSCRIPTEN_KEEPALIVE int ui_graph_select(const char* name) {
  return strata::graph_view_select_name(&g_app->graph, name) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE int ui_graph_expand(const char* name, int expand) {
  return strata::graph_view_expand_name(&g_app->graph, name, expand != 0) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE void ui_graph_hops(int hops) {
  strata::graph_view_set_hops(&g_app->graph, hops);
}
EMSCRIPTEN_KEEPALIVE void ui_graph_timeline_stats(double count, double total_ns) {
  strata::graph_view_timeline_stats(&g_app->graph, static_cast<int64_t>(count), total_ns);
}
// FLOPs and bytes of the selected node's occurrences (graph-worker.js, core/graph/op_costs.h).
EMSCRIPTEN_KEEPALIVE void ui_graph_trace_costs(const char* json) {
  strata::graph_view_trace_costs(&g_app->graph, json);
}
EMSCRIPTEN_KEEPALIVE const char* ui_graph_json() {
  static std::string out;
  out = strata::graph_view_json(&g_app->graph);
  return out.c_str();
}
EMSCRIPTEN_KEEPALIVE const char* ui_graph_export(int svg) {
  static std::string out;
  out = strata::graph_view_export(&g_app->graph, svg != 0);
  return out.c_str();
}
// "Show in timeline": the op's events (from strata.find) selected, its name searched.
EMSCRIPTEN_KEEPALIVE void ui_graph_show_events(const uint32_t* events, uint32_t n,
                                               const char* name) {
  strata::app_select_events(g_app, std::vector<uint32_t>(events, events + n), name);
  strata::request_redraw();
}

}  // extern "C"

int main() {
  EmscriptenWebGLContextAttributes attrs;
  emscripten_webgl_init_context_attributes(&attrs);
  attrs.majorVersion = 2;
  attrs.minorVersion = 0;
  attrs.alpha = EM_FALSE;
  attrs.antialias = EM_FALSE;
  attrs.depth = EM_FALSE;
  attrs.stencil = EM_FALSE;
  attrs.preserveDrawingBuffer = EM_FALSE;
  EMSCRIPTEN_WEBGL_CONTEXT_HANDLE ctx = emscripten_webgl_create_context(kCanvas, &attrs);
  if (ctx <= 0) {
    EM_ASM({ Module.strataHost.fatal("WebGL2 is not available in this browser."); });
    return 1;
  }
  emscripten_webgl_make_context_current(ctx);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // no file system; layout is code
  io.BackendPlatformName = "strata_html5";
  strata::set_theme(strata::g_palette.light);  // ImGui colours for the palette in use
  ImGuiStyle& st = ImGui::GetStyle();
  st.WindowRounding = 0;
  st.WindowBorderSize = 0;
  st.FramePadding = ImVec2(6, 4);
  if (!ImGui_ImplOpenGL3_Init("#version 300 es")) {
    EM_ASM({ Module.strataHost.fatal("Could not initialise the renderer."); });
    return 1;
  }
  if (!g_rects.init() || !g_world.init()) {
    EM_ASM({ Module.strataHost.fatal("Could not compile Strata's shaders."); });
    return 1;
  }
  g_app = new strata::App();
  strata::loss_view_init(&g_app->loss);
  strata::input_install(kCanvas, &g_app->keys);
  EM_ASM({ Module.strataHost.uiReady(); });
  emscripten_set_main_loop(frame, 0, false);
  return 0;
}
