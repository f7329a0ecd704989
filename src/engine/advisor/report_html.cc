#include "engine/advisor/report_html.h"

#include <algorithm>
#include <cstdio>

#include "engine/advisor/advisor.h"

namespace strata {

namespace {

// Chart geometry (px) and colours: the HTML file has no theme of its own to read.
constexpr int kChartW = 640, kBarH = 22, kLabelW = 220, kRowGap = 6;
constexpr const char* kPriorityColour[] = {"#c62828", "#ef6c00", "#1565c0"};
constexpr const char* kPartColour[] = {"#2e7d32", "#6a1b9a", "#ef6c00",
                                       "#0277bd", "#9e9e9e", "#c62828"};

std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", v);
  return b;
}

// The step time as one stacked bar of the parts the advisor reads.
std::string step_chart(const AdvisorFigureSet& f) {
  const AdvisorFigure* total = f.find("step.time_ns");
  if (!total || total->value <= 0) return "";
  const char* parts[] = {"device_compute", "collectives",  "input",
                         "launch",         "host_compute", "idle"};
  const char* labels[] = {"device compute", "collectives",  "input",
                          "kernel launch",  "host compute", "idle"};
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(kChartW) +
                    "\" height=\"" + std::to_string(kBarH * 3) +
                    "\" role=\"img\" aria-label=\"step time breakdown\">";
  std::string legend;
  double x = 0;
  for (size_t i = 0; i < std::size(parts); ++i) {
    const AdvisorFigure* p = f.find(std::string("step.") + parts[i] + "_ns");
    if (!p || p->value <= 0) continue;
    const double w = kChartW * p->value / total->value;
    svg += "<rect x=\"" + num(x) + "\" y=\"0\" width=\"" + num(w) + "\" height=\"" +
           std::to_string(kBarH) + "\" fill=\"" + kPartColour[i] + "\"><title>" +
           html_escape(labels[i]) + ": " + html_escape(format_figure(p->value, AnalysisUnit::kNs)) +
           "</title></rect>";
    legend +=
        "<span style=\"margin-right:12px\"><span style=\"display:inline-block;width:10px;"
        "height:10px;background:" +
        std::string(kPartColour[i]) + "\"></span> " + html_escape(labels[i]) + " " +
        html_escape(format_figure(100.0 * p->value / total->value, AnalysisUnit::kPercent)) +
        "</span>";
    x += w;
  }
  svg += "</svg>";
  return "<h2>Step time</h2>" + svg + "<p style=\"font-size:12px\">" + legend + "</p>";
}

// One bar per finding with a time at stake, longest first.
std::string stake_chart(const AdvisorReport& r) {
  double top = 0;
  size_t n = 0;
  for (const AdvisorFinding& f : r.findings)
    if (f.stake_ns > 0) top = std::max(top, f.stake_ns), ++n;
  if (!n) return "";
  const int h = static_cast<int>(n) * (kBarH + kRowGap);
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(kChartW) +
                    "\" height=\"" + std::to_string(h) +
                    "\" role=\"img\" aria-label=\"time at stake\">";
  int y = 0;
  for (const AdvisorFinding& f : r.findings) {
    if (f.stake_ns <= 0) continue;
    const double w = (kChartW - kLabelW - 80) * f.stake_ns / top;
    svg += "<text x=\"0\" y=\"" + std::to_string(y + kBarH - 6) +
           "\" font-size=\"12\" font-family=\"sans-serif\">" + html_escape(f.title) + "</text>";
    svg += "<rect x=\"" + std::to_string(kLabelW) + "\" y=\"" + std::to_string(y) + "\" width=\"" +
           num(w) + "\" height=\"" + std::to_string(kBarH) + "\" fill=\"" +
           kPriorityColour[std::clamp(f.priority, 0, 2)] + "\"></rect>";
    svg += "<text x=\"" + num(kLabelW + w + 4) + "\" y=\"" + std::to_string(y + kBarH - 6) +
           "\" font-size=\"12\" font-family=\"sans-serif\">" +
           html_escape(format_figure(f.stake_ns, AnalysisUnit::kNs)) + "</text>";
    y += kBarH + kRowGap;
  }
  return "<h2>Time at stake</h2>" + svg + "</svg>";
}

// The tables below the findings: name, time and figures per row; what the file lacks otherwise.
std::string support_tables(const AdvisorReport& r) {
  std::string h;
  for (const AdvisorSupportTable& t : r.support) {
    h += "<h2 class=\"support\">" + html_escape(t.title) + "</h2>";
    if (!t.missing.empty()) {
      h += "<p style=\"color:#777\">Not available: " + html_escape(t.missing) + "</p>";
      continue;
    }
    h += "<table style=\"border-collapse:collapse;font-size:13px\">";
    for (const AdvisorSupportRow& row : t.rows)
      h += "<tr><td style=\"padding:2px 8px;white-space:pre\">" + html_escape(row.name) +
           "</td><td style=\"padding:2px 8px;text-align:right\">" +
           (row.ns >= 0 ? html_escape(format_figure(row.ns, AnalysisUnit::kNs)) : "") +
           "</td><td style=\"padding:2px 8px\">" + html_escape(row.text) + "</td></tr>";
    h += "</table>";
  }
  return h;
}

}  // namespace

std::string html_escape(std::string_view s) {
  std::string o;
  o.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&':
        o += "&amp;";
        break;
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '"':
        o += "&quot;";
        break;
      case '\'':
        o += "&#39;";
        break;
      default:
        o += c;
    }
  }
  return o;
}

std::string advisor_report_html(const AdvisorReport& r, const AdvisorFigureSet& figures) {
  const char* status = r.needs_attention ? "NEEDS_ATTENTION" : "OPTIMAL";
  std::string h =
      "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'\"><title>Strata report</title></head>"
      "<body style=\"font-family:sans-serif;max-width:900px;margin:24px auto;color:#222\">";
  h += "<h1>Strata profile report</h1>";
  h += std::string("<p id=\"status\" style=\"font-weight:bold;color:") +
       (r.needs_attention ? "#c62828" : "#2e7d32") + "\">Status: " + status + "</p>";
  h += "<div id=\"summary\">";
  for (const std::string& s : r.summary) h += "<p>" + html_escape(s) + "</p>";
  h += "</div>";
  h += step_chart(figures);
  h += stake_chart(r);
  h += "<h2>Findings</h2>";
  if (r.findings.empty()) h += "<p>No findings.</p>";
  for (const AdvisorFinding& f : r.findings) {
    h += std::string("<div class=\"finding\" style=\"border-left:4px solid ") +
         kPriorityColour[std::clamp(f.priority, 0, 2)] + ";padding:4px 12px;margin:12px 0\">";
    h += "<h3>P" + std::to_string(f.priority) + " " + html_escape(f.title);
    if (f.stake_ns >= 0)
      h += " (" + html_escape(format_figure(f.stake_ns, AnalysisUnit::kNs)) + ")";
    h += "</h3><p><b>What is happening:</b> " + html_escape(f.text) + "</p>";
    if (!f.fix.empty()) h += "<p><b>Fix:</b> " + html_escape(f.fix) + "</p>";
    h += "<table style=\"border-collapse:collapse;font-size:13px\">";
    for (const AdvisorFigure* g : f.figures)
      h += "<tr><td style=\"padding:2px 8px\">" + html_escape(g->label) +
           "</td><td style=\"padding:2px 8px\">" + html_escape(format_figure(g->value, g->unit)) +
           "</td><td style=\"padding:2px 8px;color:#777\">" + html_escape(g->analysis) +
           "</td></tr>";
    h += "</table>";
    if (!f.evidence.empty()) {
      h += "<p style=\"margin-bottom:2px\"><b>Evidence:</b></p><ul style=\"margin-top:0\">";
      for (const AdvisorEvidence& e : f.evidence) h += "<li>" + html_escape(e.label) + "</li>";
      h += "</ul>";
    }
    h += "</div>";
  }
  h += support_tables(r);
  if (!r.not_checked.empty()) {
    h += "<h2>Not checked</h2><ul>";
    for (const AdvisorUnchecked& u : r.not_checked)
      h += "<li>" + html_escape(u.title.empty() ? u.id : u.title) + ": " +
           html_escape(unchecked_text(u)) + "</li>";
    h += "</ul>";
  }
  if (!r.passed.empty()) {
    h += "<h2>Passed</h2><p>";
    for (size_t i = 0; i < r.passed.size(); ++i) h += (i ? ", " : "") + html_escape(r.passed[i]);
    h += "</p>";
  }
  h += "<p style=\"color:#777;font-size:12px\">Written by Strata in the browser from the "
       "profile's figures; the trace itself is not included.</p></body></html>";
  return h;
}

}  // namespace strata
