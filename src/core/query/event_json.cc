#include "core/query/event_json.h"

#include "core/base/json_writer.h"
#include "core/store/trace_store.h"

namespace strata {

void append_id_json(std::string* out, const std::string& key) {
  bool numeric = !key.empty() && key.size() < 19;
  for (size_t i = 0; i < key.size() && numeric; ++i)
    numeric = (key[i] >= '0' && key[i] <= '9') || (i == 0 && key[i] == '-' && key.size() > 1);
  if (numeric)
    out->append(key);
  else
    json_append_string(out, key);
}

namespace {

const char* key_of(EventField f) {
  switch (f) {
    case EventField::kEvent:
      return "\"event\":";
    case EventField::kName:
      return "\"name\":";
    case EventField::kCat:
      return "\"cat\":";
    case EventField::kPhase:
      return "\"phase\":";
    case EventField::kTsNs:
      return "\"tsNs\":";
    case EventField::kStartNs:
      return "\"startNs\":";
    case EventField::kDurNs:
      return "\"durNs\":";
    case EventField::kStart:
      return "\"start\":";
    case EventField::kEnd:
      return "\"end\":";
    case EventField::kDepth:
      return "\"depth\":";
    case EventField::kPid:
      return "\"pid\":";
    case EventField::kTid:
      return "\"tid\":";
    case EventField::kProcess:
      return "\"process\":";
    case EventField::kThread:
      return "\"thread\":";
    case EventField::kTrack:
      return "\"track\":";
  }
  return "\"?\":";
}

void append_value(std::string* o, const TraceStore& s, uint32_t e, EventField f,
                  const EventJsonContext& ctx) {
  const Track& t = s.tracks[s.events.track[e]];
  switch (f) {
    case EventField::kEvent:
      *o += std::to_string(e);
      break;
    case EventField::kName:
      json_append_string(o, s.strings.get(s.events.name[e]));
      break;
    case EventField::kCat:
      json_append_string(o, s.strings.get(s.events.cat[e]));
      break;
    case EventField::kPhase:
      json_append_string(o, std::string(1, s.events.phase[e]));
      break;
    case EventField::kTsNs:
    case EventField::kStartNs:
      json_append_int(o, s.events.start[e]);
      break;
    case EventField::kDurNs:
      json_append_int(o, s.events.dur[e]);
      break;
    case EventField::kStart:
      json_append_number(o, static_cast<double>(s.events.start[e] - ctx.origin));
      break;
    case EventField::kEnd:
      json_append_number(o, static_cast<double>(s.events.start[e] + s.events.dur[e] - ctx.origin));
      break;
    case EventField::kDepth:
      *o += std::to_string(s.events.depth[e]);
      break;
    case EventField::kPid:
      append_id_json(o, s.processes[t.process].key);
      break;
    case EventField::kTid:
      append_id_json(o, t.key);
      break;
    case EventField::kProcess:
      json_append_string(o, s.strings.get(s.processes[t.process].name));
      break;
    case EventField::kThread:
      json_append_string(o, s.strings.get(t.name));
      break;
    case EventField::kTrack:
      *o += std::to_string(ctx.display_of ? (*ctx.display_of)[s.events.track[e]] : 0);
      break;
  }
}

}  // namespace

void append_event_fields(std::string* out, const TraceStore& s, uint32_t event,
                         std::initializer_list<EventField> fields, const EventJsonContext& ctx) {
  bool first = true;
  for (EventField f : fields) {
    if (!first) *out += ',';
    first = false;
    *out += key_of(f);
    append_value(out, s, event, f, ctx);
  }
}

void append_event_json(std::string* out, const TraceStore& s, uint32_t event,
                       std::initializer_list<EventField> fields, const EventJsonContext& ctx) {
  *out += '{';
  append_event_fields(out, s, event, fields, ctx);
  *out += '}';
}

}  // namespace strata
