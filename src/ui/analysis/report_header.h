// The Report view's head, above the advisor analysis' table (the findings, their evidence, the
// rules not checked): the status (OPTIMAL / NEEDS_ATTENTION), the summary the engine wrote from
// the figures, and "Export HTML", which downloads the engine's self-contained HTML report.
#pragma once
#include <string>
#include <vector>

namespace strata {

struct ReportHeader {
  std::string status;  // "" until a report is in
  std::vector<std::string> summary;
  std::string html;  // the export, as the engine wrote it
  size_t findings = 0;
  // What the last frame drew (CSS px) and did, for the script API.
  float export_box[4] = {};
  size_t exported_bytes = 0;  // the size of the last HTML downloaded, 0: none yet
};

// A new advisor table's reply.
void report_header_set_table(ReportHeader* h, const char* json);
// Draws the status, the summary and the export button at the cursor, `w` wide.
void report_header_frame(ReportHeader* h, float w);
// {status, summary:[text], findings, exportButton:[x,y,w,h], exportedBytes, htmlBytes}
std::string report_header_json(const ReportHeader& h);

}  // namespace strata
