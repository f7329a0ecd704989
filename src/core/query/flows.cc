// flows_of: two binary searches over the flow edges (sorted by `from`, and by `to` via by_to).
#include "core/query/flows.h"

#include <algorithm>

namespace strata {

std::vector<FlowNeighbour> flows_of(const TraceStore& store, uint32_t event) {
  const FlowColumns& f = store.flows;
  std::vector<FlowNeighbour> out;
  auto in = std::lower_bound(f.by_to.begin(), f.by_to.end(), event,
                             [&](uint32_t edge, uint32_t ev) { return f.to[edge] < ev; });
  for (; in != f.by_to.end() && f.to[*in] == event; ++in)
    out.push_back(FlowNeighbour{f.from[*in], *in, true});
  auto first = std::lower_bound(f.from.begin(), f.from.end(), event);
  for (auto it = first; it != f.from.end() && *it == event; ++it) {
    auto edge = static_cast<uint32_t>(it - f.from.begin());
    out.push_back(FlowNeighbour{f.to[edge], edge, false});
  }
  return out;
}

}  // namespace strata
