#include "engine/analysis/analysis_registry.h"

#include <iterator>

#include "core/base/json_writer.h"
#include "engine/advisor/advisor.h"
#include "engine/analysis/framework_op_stats.h"
#include "engine/analysis/gpu_breakdown.h"
#include "engine/analysis/hlo_stats.h"
#include "engine/analysis/kernel_launches.h"
#include "engine/analysis/kernel_stats.h"
#include "engine/analysis/memory_viewer.h"
#include "engine/analysis/op_profile.h"
#include "engine/analysis/overview.h"
#include "engine/analysis/queue_length.h"
#include "engine/analysis/ranks.h"
#include "engine/analysis/roofline.h"
#include "engine/analysis/steps_table.h"
#include "engine/query_args.h"
#include "protocol/reply_keys.h"

namespace strata {

namespace {

// One entry per analysis (each in its own file under src/engine/analysis/), in tab order.
constexpr AnalysisInfo kAnalyses[] = {
    {"overview", "Overview", overview_available, overview_table},
    {"steps", "Steps", steps_available, steps_table},
    {"op_profile", "Op Profile", op_profile_available, op_profile_table},
    {"hlo_stats", "HLO Stats", hlo_stats_available, hlo_stats_table},
    {"roofline", "Roofline", roofline_available, roofline_table},
    {"gpu_breakdown", "GPU breakdown", gpu_breakdown_available, gpu_breakdown_table},
    {"ranks", "Ranks", ranks_available, ranks_table},
    {"kernel_stats", "Kernel Stats", kernel_stats_available, kernel_stats_run},
    {"framework_op_stats", "Framework Op Stats", framework_op_stats_available,
     framework_op_stats_run},
    {"kernel_launches", "Kernel launches", kernel_launches_available, kernel_launches_table},
    {"queue_length", "Queue length", queue_length_available, queue_length_table},
    {"memory_viewer", "Memory Viewer", memory_viewer_available, memory_viewer_table},
    {"advisor", "Report", advisor_available, advisor_table},
};

}  // namespace

const AnalysisInfo* analyses(size_t* count) {
  *count = std::size(kAnalyses);
  return kAnalyses;
}

std::string analysis_json(const Engine& engine, const QueryArgs& args) {
  const std::string name = args.text(protocol::keys::analysis::kName);
  size_t n = 0;
  const AnalysisInfo* list = analyses(&n);
  std::string o;
  if (name.empty()) {
    namespace k = protocol::keys::analysis_list;
    protocol::append_key(&o, k::kAnalyses, '{');
    o += '[';
    for (size_t i = 0; i < n; ++i) {
      std::string why;
      const bool ok = list[i].available(engine, &why);
      if (i) o += ',';
      protocol::append_key(&o, k::kName, '{');
      json_append_string(&o, list[i].name);
      protocol::append_key(&o, k::kTitle);
      json_append_string(&o, list[i].title);
      protocol::append_key(&o, k::kAvailable);
      o += ok ? "true" : "false";
      protocol::append_key(&o, k::kWhy);
      json_append_string(&o, ok ? std::string() : why);
      o += '}';
    }
    return o + "]}";
  }
  for (size_t i = 0; i < n; ++i) {
    if (list[i].name != name) continue;
    std::string why;
    if (!list[i].available(engine, &why)) {
      AnalysisTable t;
      t.name = name;
      t.title = std::string(list[i].title);
      t.errors.push_back(why);
      return analysis_table_json(t);
    }
    AnalysisTable t = list[i].run(engine, args);
    t.name = name;
    if (t.title.empty()) t.title = std::string(list[i].title);
    return analysis_table_json(t);
  }
  protocol::append_key(&o, protocol::keys::failure::kError, '{');
  json_append_string(&o, "unknown analysis \"" + name + "\"");
  return o + '}';
}

}  // namespace strata
