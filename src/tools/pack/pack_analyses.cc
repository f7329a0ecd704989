#include "tools/pack/pack_analyses.h"

#include <string>

#include "core/base/json_writer.h"
#include "engine/analysis/analysis_registry.h"
#include "engine/query_args.h"
#include "protocol/reply_keys.h"

namespace strata::bundle {

void pack_analyses(const Engine& engine, PackOptions* o) {
  QueryArgs none;
  std::string error;
  none.parse("{}", &error);
  o->analysis_list = analysis_json(engine, none);
  o->analyses.clear();
  size_t n = 0;
  const AnalysisInfo* list = analyses(&n);
  for (size_t i = 0; i < n; ++i) {
    // An analysis that does not apply is packed too: its table says why, as on the trace.
    std::string args;
    protocol::append_key(&args, protocol::keys::analysis::kName, '{');
    json_append_string(&args, list[i].name);
    QueryArgs named;
    named.parse(args + "}", &error);
    o->analyses.emplace_back(std::string(list[i].name), analysis_json(engine, named));
  }
}

}  // namespace strata::bundle
