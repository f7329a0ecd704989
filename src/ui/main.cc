// UI module entry: WebGL2 context, Dear ImGui and the frame loop. The exports the page calls
// are in src/ui/exports/, one file per feature.
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
#include "ui/exports/ui_app.h"
#include "ui/graph/graph_fonts.h"
#include "ui/input/keymap.h"
#include "ui/theme.h"
#include "ui/timeline/colors.h"

namespace {

constexpr const char* kCanvas = "#canvas";
strata::App* g_app = nullptr;  // ui_app(), kept at hand for the frame loop
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
  strata::graph_fonts_add(io.Fonts, dpr);  // after the UI font, which stays the default
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
  strata::input_frame_started();
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
  if (!g_app->batch_b.rects.empty())
    g_rects.draw(g_app->batch_b, static_cast<float>(css_w), static_cast<float>(css_h), dpr);
  g_world.draw(g_app->graph.gpu, static_cast<float>(css_w), static_cast<float>(css_h), dpr);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  strata::input_frame_done();
}

}  // namespace

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
  g_app = strata::ui_app_create();
  strata::loss_view_init(&g_app->loss);
  strata::input_install(kCanvas, strata::keymap_sink(&g_app->keys));
  EM_ASM({ Module.strataHost.uiReady(); });
  emscripten_set_main_loop(frame, 0, false);
  return 0;
}
