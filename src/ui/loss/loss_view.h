// The Loss tab (issue 8; the seed's ACCURACY tab): a side list of imported training logs
// (checkbox, configure tags, export CSV, remove with confirmation), the loss data board
// (chart + full table of every iteration of the checked files, NA where a file has none) and,
// with two or more files checked, the comparison board (first/second file, Normal / Absolute /
// Relative, chart + table, mean and max). Smoothing (EMA) and a log-scale axis apply to the
// charts; a cursor line is shared by every chart. Points come from the worker (web/worker/loss.js);
// the comparison math is core/loss.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/formats/loss_log/log_scanner.h"
#include "core/loss/loss_compare.h"

namespace strata {

struct LossFile {
  uint32_t id = 0;
  std::string name, loss_tag, iteration_tag;
  std::string label;  // the name as lists, legends and headers show it (loss_short_names)
  // What the engine read it as: "text", "jsonl", "json", "csv", "tfevents"; for the structured
  // ones the series and steps the tag dialog lists, and why points are missing.
  std::string format = "text";
  std::vector<std::string> series_keys, step_keys;
  std::string note;
  LossSeries points;             // file order, as extracted
  LossSeries sorted;             // one value per iteration, ascending (charts, tables, comparison)
  std::vector<double> smoothed;  // EMA of sorted.loss for the current weight
  float smoothed_weight = -1;
  double bytes = 0, scan_mbps = 0;
  bool checked = true;
  bool pending = false;  // new tags sent, points not back yet
  uint32_t version = 0;  // bumped when the points change (cache keys)
};

struct LossView {
  std::vector<LossFile> files;
  uint32_t first = 0, second = 0;  // the comparison's files (ids; 0 = choose the first checked)
  CompareMode mode = CompareMode::kNormal;
  bool smooth = false;
  float smooth_weight = 0.6f;
  bool log_y = false;
  double cursor_iter = 0;  // shared by every chart; NaN = none (set in loss_view_init)
  // Popups.
  uint32_t config_id = 0, remove_id = 0;
  bool open_config = false, open_remove = false;
  char loss_buf[256] = {}, iteration_buf[256] = {};
  char key_filter[128] = {};  // the tag dialog's filter over a structured log's series
  // Caches: the full table and the comparison are rebuilt only when their inputs change (the
  // cursor redraws every mouse move, and a log may have millions of points).
  std::string table_key, compare_key;
  // The axis titles the charts drew last frame (data chart, comparison chart), for the API.
  std::string data_x_title, data_y_title, compare_y_title;
  FullTable table;
  Comparison comparison;
};

void loss_view_init(LossView* v);
void loss_view_frame(LossView* v, float x, float y, float w, float h);
// Points from the worker (new file, or re-extracted with new tags). `pairs`: [it, loss] × n.
void loss_view_points(LossView* v, uint32_t id, const char* name, const char* loss_tag,
                      const char* iteration_tag, double bytes, double mbps, const double* pairs,
                      uint32_t n);
// The engine's detail of log `id` ({format, seriesKeys, stepKeys, note}), after its points.
void loss_view_detail(LossView* v, uint32_t id, const char* json);
// For the script API.
LossFile* loss_view_find(LossView* v, const std::string& name);
bool loss_view_set_comparison(LossView* v, const std::string& a, const std::string& b,
                              const std::string& mode);
std::string loss_view_json(LossView* v, bool with_points = true);
// The comparison's two files (nullptr when fewer than two are checked).
bool loss_view_pair(LossView* v, LossFile** a, LossFile** b);

}  // namespace strata
