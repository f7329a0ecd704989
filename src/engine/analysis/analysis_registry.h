// The analyses the engine answers through the `analysis` query (strata.analysis(name, args)):
// each a function of the loaded trace. Adding one is a file under src/engine/analysis/ and a
// line in analysis_registry.cc.
#pragma once
#include <string>
#include <string_view>

#include "engine/analysis/analysis_table.h"

namespace strata {

class Engine;
struct QueryArgs;

struct AnalysisInfo {
  std::string_view name;   // strata.analysis(name)
  std::string_view title;  // the Analysis tab's name for it
  // Whether the loaded trace has what it needs; else *why says what is missing.
  bool (*available)(const Engine& engine, std::string* why);
  AnalysisTable (*run)(const Engine& engine, const QueryArgs& args);
};

// Every analysis, in the order the Analysis tab lists them.
const AnalysisInfo* analyses(size_t* count);

// args {"name": ...} and the analysis' own → its table's JSON; with no name, the list:
// {"analyses": [{"name", "title", "available", "why"}]}. An unknown name → {"error"}.
std::string analysis_json(const Engine& engine, const QueryArgs& args);

}  // namespace strata
