// What the tests over real xplanes' XLA Ops rows share, read from the store independently of
// the analyses.
#pragma once
#include <cstdint>
#include <string_view>

#include "core/formats/xplane/xplane_tables.h"
#include "core/store/trace_store.h"

namespace strata::testing {

// The program id a module run's name writes ("jit_f(5)" → 5), or -1 when it writes none.
inline int64_t program_in_module_name(std::string_view name) {
  const size_t open = name.rfind('(');
  if (open == std::string_view::npos || !name.ends_with(')') || open + 2 >= name.size()) return -1;
  int64_t id = 0;
  for (char c : name.substr(open + 1, name.size() - open - 2)) {
    if (c < '0' || c > '9') return -1;
    id = id * 10 + (c - '0');
  }
  return id;
}

// The program of an XLA op event: the run on the XLA Modules row beside it, by the id its name
// writes ("jit_f(5)"; several modules may share the name "jit_f"), else by the HloProto of the
// module it names ("jit_f"); -1 when neither.
inline int64_t program_of_event(const TraceStore& s, size_t e) {
  const Track& tr = s.tracks[s.events.track[e]];
  for (uint32_t t : s.processes[tr.process].tracks) {
    if (s.strings.get(s.tracks[t].name) != "XLA Modules") continue;
    const Track& m = s.tracks[t];
    for (uint32_t k = m.first_event; k < m.first_event + m.event_count; ++k) {
      if (s.events.start[k] > s.events.start[e] ||
          s.events.start[k] + s.events.dur[k] <= s.events.start[e])
        continue;
      const std::string_view module = s.strings.get(s.events.name[k]);
      int64_t program = program_in_module_name(module);
      if (program >= 0 || s.xspace->hlo_ops.program_of(module, &program)) return program;
    }
  }
  return -1;
}

}  // namespace strata::testing
