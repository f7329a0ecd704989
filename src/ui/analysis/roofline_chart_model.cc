#include "ui/analysis/roofline_chart_model.h"

#include <algorithm>
#include <cmath>

#include "core/formats/json/json_flat.h"
#include "protocol/analysis_keys.h"
#include "protocol/reply_keys.h"

namespace strata {

namespace {

constexpr float kDotMinR = 3.0f;        // an op with next to no time
constexpr float kDotMaxR = 14.0f;       // an op (or program) with all of it
constexpr float kProgramMinR = 5.0f;    // a program's marker is never smaller than this
constexpr double kRateHeadroom = 2.0;   // the rate axis reaches this far above the top
constexpr double kRidgeDecades = 10.0;  // intensity shown either side of the ridge

int column_of(const AnalysisTableModel& m, const char* key) {
  for (size_t c = 0; c < m.columns.size(); ++c)
    if (m.columns[c].key == key) return static_cast<int>(c);
  return -1;
}

double number_at(const TableRow& r, int c) {
  if (c < 0 || static_cast<size_t>(c) >= r.cells.size()) return 0;
  const TableCell& cell = r.cells[static_cast<size_t>(c)];
  return cell.kind == TableCell::Kind::kNumber && std::isfinite(cell.number) ? cell.number : 0;
}

bool positive(double v) { return v > 0 && std::isfinite(v); }

}  // namespace

bool read_roofline_peaks(const char* json, RooflinePeaks* out) {
  *out = RooflinePeaks{};
  std::vector<JsonLine> lines;
  std::string error;
  if (!json_flatten(json ? json : "", &lines, &error)) return false;
  namespace x = protocol::keys::analysis_extra;
  namespace p = protocol::keys::analysis_peaks;
  bool seen = false;
  json_walk(lines, [&](const std::vector<std::string>& path, const JsonLine& l) {
    if (path[0] != protocol::keys::analysis::kExtra || l.depth < 1) return;
    if (l.depth == 1 && l.key == x::kRidge)
      out->ridge = positive(json_number(l)) ? json_number(l) : 0;
    if (l.depth != 2 || path[1] != x::kPeaks) return;
    seen = true;
    const double v = json_number(l);
    if (l.key == p::kFlopsPerSec) out->flops_per_sec = positive(v) ? v : 0;
    if (l.key == p::kBytesPerSec) out->bytes_per_sec = positive(v) ? v : 0;
    if (l.key == p::kSource) out->source = l.value;
    if (l.key == p::kWhy) out->why = l.value;
  });
  if (!out->known()) out->ridge = 0;
  return seen;
}

std::vector<RooflinePoint> roofline_points(const AnalysisTableModel& m) {
  const int kind = column_of(m, "kind"), oi = column_of(m, "intensity"),
            rate = column_of(m, "flop_rate"), time = column_of(m, "time");
  std::vector<RooflinePoint> ops, programs;
  double total = 0;
  for (int32_t root : m.roots) total += std::max(0.0, number_at(m.rows[root], time));
  for (size_t i = 0; i < m.rows.size(); ++i) {
    const TableRow& r = m.rows[i];
    RooflinePoint p;
    p.row = static_cast<int32_t>(i);
    p.intensity = number_at(r, oi);
    p.flop_rate = number_at(r, rate);
    if (!positive(p.intensity) || !positive(p.flop_rate)) continue;
    p.time_ns = std::max(0.0, number_at(r, time));
    p.share = total > 0 ? std::min(1.0, p.time_ns / total) : 0;
    const TableCell* k =
        kind >= 0 && static_cast<size_t>(kind) < r.cells.size() ? &r.cells[kind] : nullptr;
    p.program = k ? k->kind == TableCell::Kind::kText && k->text == "program" : r.parent < 0;
    (p.program ? programs : ops).push_back(p);
  }
  ops.insert(ops.end(), programs.begin(), programs.end());
  return ops;
}

size_t roofline_keep_top_ops(std::vector<RooflinePoint>* points, size_t max_ops) {
  std::vector<size_t> ops;
  for (size_t i = 0; i < points->size(); ++i)
    if (!(*points)[i].program) ops.push_back(i);
  if (ops.size() <= max_ops) return 0;
  std::stable_sort(ops.begin(), ops.end(),
                   [&](size_t a, size_t b) { return (*points)[a].time_ns > (*points)[b].time_ns; });
  std::vector<uint8_t> keep(points->size(), 1);
  for (size_t k = max_ops; k < ops.size(); ++k) keep[ops[k]] = 0;
  std::vector<RooflinePoint> kept;
  for (size_t i = 0; i < points->size(); ++i)
    if (keep[i]) kept.push_back((*points)[i]);
  points->swap(kept);
  return ops.size() - max_ops;
}

LogAxis log_axis_covering(double min, double max) {
  if (!positive(min) && !positive(max)) return {};
  if (!positive(min)) min = max;
  if (!positive(max)) max = min;
  if (min > max) std::swap(min, max);
  LogAxis a;
  a.lo = std::pow(10.0, std::floor(std::log10(min)));
  a.hi = std::pow(10.0, std::ceil(std::log10(max)));
  if (a.hi <= a.lo) a.hi = a.lo * 10;
  return a;
}

float log_axis_px(const LogAxis& a, double v, float px_lo, float px_hi) {
  const double span = std::log10(a.hi) - std::log10(a.lo);
  const double t = positive(v) && span > 0 ? (std::log10(v) - std::log10(a.lo)) / span : 0;
  return static_cast<float>(px_lo + t * (px_hi - px_lo));
}

double log_axis_value(const LogAxis& a, float px, float px_lo, float px_hi) {
  if (px_hi == px_lo) return a.lo;
  const double t = (px - px_lo) / static_cast<double>(px_hi - px_lo);
  return std::pow(10.0, std::log10(a.lo) + t * (std::log10(a.hi) - std::log10(a.lo)));
}

std::vector<double> log_axis_decades(const LogAxis& a) {
  std::vector<double> out;
  const int lo = static_cast<int>(std::lround(std::log10(a.lo)));
  const int hi = static_cast<int>(std::lround(std::log10(a.hi)));
  for (int k = lo; k <= hi; ++k) out.push_back(std::pow(10.0, k));
  return out;
}

void roofline_axes(const std::vector<RooflinePoint>& points, const RooflinePeaks& peaks, LogAxis* x,
                   LogAxis* y) {
  double x_min = 0, x_max = 0, y_min = 0, y_max = 0;
  auto widen = [](double* lo, double* hi, double v) {
    if (!positive(v)) return;
    *lo = positive(*lo) ? std::min(*lo, v) : v;
    *hi = positive(*hi) ? std::max(*hi, v) : v;
  };
  for (const RooflinePoint& p : points) {
    widen(&x_min, &x_max, p.intensity);
    widen(&y_min, &y_max, p.flop_rate);
  }
  if (peaks.known()) {
    const double ridge = peaks.flops_per_sec / peaks.bytes_per_sec;
    widen(&x_min, &x_max, ridge / kRidgeDecades);
    widen(&x_min, &x_max, ridge * kRidgeDecades);
    widen(&y_min, &y_max, peaks.flops_per_sec * kRateHeadroom);
  } else if (positive(y_max)) {
    y_max *= kRateHeadroom;
  }
  *x = log_axis_covering(x_min, x_max);
  // The memory roof enters the plot at the left edge: show where it starts.
  if (peaks.known()) widen(&y_min, &y_max, roof_at(peaks, x->lo));
  *y = log_axis_covering(y_min, y_max);
}

double roof_at(const RooflinePeaks& peaks, double intensity) {
  if (!peaks.known() || !positive(intensity)) return 0;
  return std::min(intensity * peaks.bytes_per_sec, peaks.flops_per_sec);
}

float roofline_dot_radius(double share, bool program) {
  const double s = std::clamp(std::isfinite(share) ? share : 0.0, 0.0, 1.0);
  const float r = kDotMinR + static_cast<float>(std::sqrt(s)) * (kDotMaxR - kDotMinR);
  return program ? std::max(r, kProgramMinR) : r;
}

std::vector<RooflineDot> roofline_dots(const std::vector<RooflinePoint>& points,
                                       const RooflineFrame& f) {
  std::vector<RooflineDot> out;
  out.reserve(points.size());
  for (const RooflinePoint& p : points)
    out.push_back(
        {f.px_x(p.intensity), f.px_y(p.flop_rate), roofline_dot_radius(p.share, p.program)});
  return out;
}

int roofline_hit(const std::vector<RooflineDot>& dots, float mx, float my, float slop) {
  int best = -1;
  float best_d2 = 0;
  for (size_t i = 0; i < dots.size(); ++i) {
    const float dx = dots[i].x - mx, dy = dots[i].y - my, reach = dots[i].r + slop;
    const float d2 = dx * dx + dy * dy;
    if (d2 > reach * reach) continue;
    if (best < 0 || d2 <= best_d2) best = static_cast<int>(i), best_d2 = d2;
  }
  return best;
}

}  // namespace strata
