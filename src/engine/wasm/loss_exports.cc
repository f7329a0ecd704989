// C exports for the loss view's logs (web/engine-worker.js): the text-log sniff, the default
// tags, and one streaming scan at a time (the worker runs loads one after another). A log
// never touches the Engine or its TraceStore, so the loaded trace stays as it is. The worker
// keeps each log's File/Blob and streams it again when its tags change.
#include <emscripten/emscripten.h>

#include <memory>
#include <string>
#include <vector>

#include "core/base/json_writer.h"
#include "core/formats/detect_format.h"
#include "core/formats/loss_log/default_tags.h"
#include "core/formats/loss_log/log_scanner.h"

namespace {
std::unique_ptr<strata::LossScanner> g_scan;
std::vector<uint8_t> g_buf;    // the chunk JS copies in
std::vector<double> g_points;  // [iteration, loss] pairs of the last scan
std::string g_json;
}  // namespace

extern "C" {

// A plain text log, unless it is one of the Ascend memory CSVs (text too), which the engine
// reads. HLO text is text too: the page asks the graph viewer first. (engine_detect_format
// answers for every kind at once.)
EMSCRIPTEN_KEEPALIVE int loss_sniff(const uint8_t* p, uint32_t n) {
  const strata::DetectedFormat f = strata::detect_format({}, p, n);
  return f.compression == strata::Compression::kNone &&
                 (f.kind == strata::FileKind::kTrainingLog || f.kind == strata::FileKind::kHloText)
             ? 1
             : 0;
}

// {"lossTag": ..., "iterationTag": ...} guessed from the file's first bytes.
EMSCRIPTEN_KEEPALIVE const char* loss_guess_tags(const char* head, uint32_t n) {
  strata::LossTags t = strata::guess_loss_tags(std::string_view(head, n));
  g_json = "{\"lossTag\":";
  strata::json_append_string(&g_json, t.loss);
  g_json += ",\"iterationTag\":";
  strata::json_append_string(&g_json, t.iteration);
  g_json += "}";
  return g_json.c_str();
}

EMSCRIPTEN_KEEPALIVE void loss_scan_begin(const char* loss_tag, const char* iteration_tag) {
  g_scan = std::make_unique<strata::LossScanner>(strata::LossTags{loss_tag, iteration_tag});
}
EMSCRIPTEN_KEEPALIVE uint8_t* loss_scan_buffer(uint32_t n) {
  if (g_buf.size() < n) g_buf.resize(n);
  return g_buf.data();
}
EMSCRIPTEN_KEEPALIVE void loss_scan_commit(uint32_t n) {
  if (g_scan) g_scan->feed(g_buf.data(), n);
}
// Ends the scan; returns the number of points, readable as doubles at loss_scan_points().
EMSCRIPTEN_KEEPALIVE uint32_t loss_scan_end() {
  g_points.clear();
  if (!g_scan) return 0;
  g_scan->finish();
  const strata::LossSeries s = g_scan->take_points();
  g_scan.reset();
  g_points.resize(s.size() * 2);
  for (size_t i = 0; i < s.size(); ++i) {
    g_points[2 * i] = static_cast<double>(s.iteration[i]);
    g_points[2 * i + 1] = s.loss[i];
  }
  return static_cast<uint32_t>(s.size());
}
EMSCRIPTEN_KEEPALIVE const double* loss_scan_points() { return g_points.data(); }
// Frees the chunk buffer and points between scans (a 4 MB buffer per log would add up).
EMSCRIPTEN_KEEPALIVE void loss_scan_release() {
  std::vector<uint8_t>().swap(g_buf);
  std::vector<double>().swap(g_points);
}

}  // extern "C"
