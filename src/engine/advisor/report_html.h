// The advisor's report as one self-contained HTML file: inline styles, charts as inline SVG, no
// script and no reference to anything outside the file, so it can be attached to a bug or a
// chat. It holds the figures and names the report cites, never the trace itself.
#pragma once
#include <string>
#include <string_view>

namespace strata {

struct AdvisorReport;
struct AdvisorFigureSet;

std::string advisor_report_html(const AdvisorReport& r, const AdvisorFigureSet& figures);

// `s` with & < > " ' escaped for HTML text and attribute values.
std::string html_escape(std::string_view s);

}  // namespace strata
