#include "core/query/event_json.h"

#include "core/base/json_writer.h"
#include "core/store/trace_store.h"
#include "protocol/reply_keys.h"

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

std::string_view key_of(EventField f) {
  namespace key = protocol::keys::event;
  switch (f) {
    case EventField::kEvent:
      return key::kEvent;
    case EventField::kName:
      return key::kName;
    case EventField::kCat:
      return key::kCat;
    case EventField::kPhase:
      return key::kPhase;
    case EventField::kTsNs:
      return key::kTsNs;
    case EventField::kStartNs:
      return key::kStartNs;
    case EventField::kDurNs:
      return key::kDurNs;
    case EventField::kStart:
      return key::kStart;
    case EventField::kEnd:
      return key::kEnd;
    case EventField::kDepth:
      return key::kDepth;
    case EventField::kPid:
      return key::kPid;
    case EventField::kTid:
      return key::kTid;
    case EventField::kProcess:
      return key::kProcess;
    case EventField::kThread:
      return key::kThread;
    case EventField::kTrack:
      return key::kTrack;
  }
  return "?";
}

void append_value(std::string* o, const TraceStore& s, uint32_t e, EventField f,
                  const EventJsonContext& ctx) {
  const Track& t = s.tracks[s.events.track[e]];
  switch (f) {
    case EventField::kEvent:
      *o += std::to_string(ctx.event_id ? (*ctx.event_id)(e) : e);
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
    protocol::append_key(out, key_of(f), first ? '\0' : ',');
    first = false;
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
