#include "core/formats/perfetto/perfetto_details.h"

#include <cstdio>

#include "core/base/json_writer.h"
#include "core/formats/perfetto/perfetto_fields.h"
#include "core/formats/perfetto/perfetto_tables.h"

namespace strata {

namespace {

namespace ann = perfetto::annotation;

constexpr int kMaxDepth = 32;  // nested annotations deeper than this are cut

std::string error_json(const std::string& why) {
  std::string o = "{\"error\":";
  json_append_string(&o, why);
  return o + "}";
}

std::string interned(
    const PerfettoTables::Generation* g,
    const std::unordered_map<uint64_t, std::string> PerfettoTables::Generation::*table,
    uint64_t iid) {
  if (g) {
    auto it = (g->*table).find(iid);
    if (it != (g->*table).end()) return it->second;
  }
  return "#" + std::to_string(iid);
}

void append_text(std::string* o, std::string_view s) { json_append_string(o, sanitize_utf8(s)); }

bool append_nested(std::string* o, const uint8_t* p, size_t n, int depth);

// NestedValue (the older form of nested annotations).
bool append_nested(std::string* o, const uint8_t* p, size_t n, int depth) {
  if (depth > kMaxDepth) {
    *o += "\"...\"";
    return true;
  }
  wire::Reader r(p, n);
  wire::Field f;
  uint64_t type = 0;
  std::vector<std::string_view> keys;
  std::vector<wire::Field> values, items;
  std::string scalar;
  while (r.next(&f) == wire::Status::kOk) {
    switch (f.number) {
      case ann::kNestedType:
        type = f.value;
        break;
      case ann::kDictKeys:
        if (f.type == wire::kLen) keys.push_back(f.text());
        break;
      case ann::kDictValues:
        if (f.type == wire::kLen) values.push_back(f);
        break;
      case ann::kNestedArray:
        if (f.type == wire::kLen) items.push_back(f);
        break;
      case ann::kNestedInt:
        scalar.clear(), json_append_int(&scalar, wire::as_int64(f.value));
        break;
      case ann::kNestedDouble:
        scalar.clear(), json_append_number(&scalar, wire::as_double(f.value));
        break;
      case ann::kNestedBool:
        scalar = f.value ? "true" : "false";
        break;
      case ann::kNestedString:
        scalar.clear(), append_text(&scalar, f.text());
        break;
      default:
        break;
    }
  }
  if (type == 1) {  // DICT
    *o += '{';
    for (size_t i = 0; i < keys.size() && i < values.size(); ++i) {
      if (i) *o += ',';
      append_text(o, keys[i]);
      *o += ':';
      append_nested(o, values[i].data, values[i].size, depth + 1);
    }
    *o += '}';
  } else if (type == 2) {  // ARRAY
    *o += '[';
    for (size_t i = 0; i < items.size(); ++i) {
      if (i) *o += ',';
      append_nested(o, items[i].data, items[i].size, depth + 1);
    }
    *o += ']';
  } else {
    *o += scalar.empty() ? "null" : scalar;
  }
  return true;
}

// One DebugAnnotation: its name (into *name) and its value as JSON (onto *o).
bool append_annotation(std::string* o, std::string* name, const uint8_t* p, size_t n,
                       const PerfettoTables::Generation* g, int depth) {
  wire::Reader r(p, n);
  wire::Field f;
  wire::Status st;
  std::string value = "null";
  std::vector<wire::Field> entries, items;
  bool dict = false, array = false;
  std::string proto_type;
  while ((st = r.next(&f)) == wire::Status::kOk) {
    switch (f.number) {
      case ann::kNameIid:
        *name = interned(g, &PerfettoTables::Generation::annotation_names, f.value);
        break;
      case ann::kName:
        *name = sanitize_utf8(f.text());
        break;
      case ann::kBoolValue:
        value = f.value ? "true" : "false";
        break;
      case ann::kUintValue:
        value = std::to_string(f.value);
        break;
      case ann::kIntValue:
        value.clear(), json_append_int(&value, wire::as_int64(f.value));
        break;
      case ann::kDoubleValue:
        value.clear(), json_append_number(&value, wire::as_double(f.value));
        break;
      case ann::kStringValue:
      case ann::kLegacyJsonValue:
        value.clear(), append_text(&value, f.text());
        break;
      case ann::kStringValueIid:
        value.clear();
        append_text(&value, interned(g, &PerfettoTables::Generation::string_values, f.value));
        break;
      case ann::kPointerValue: {
        char buf[24];
        std::snprintf(buf, sizeof buf, "\"0x%llx\"", static_cast<unsigned long long>(f.value));
        value = buf;
        break;
      }
      case ann::kNestedValue:
        if (f.type == wire::kLen) {
          value.clear();
          append_nested(&value, f.data, f.size, depth + 1);
        }
        break;
      case ann::kDictEntries:
        if (f.type == wire::kLen) dict = true, entries.push_back(f);
        break;
      case ann::kArrayValues:
        if (f.type == wire::kLen) array = true, items.push_back(f);
        break;
      case ann::kProtoTypeName:
        proto_type = sanitize_utf8(f.text());
        break;
      case ann::kProtoValue:
        value = "\"(" + std::to_string(f.size) + " bytes of protobuf)\"";
        break;
      default:
        break;
    }
  }
  if (st != wire::Status::kEnd) return false;
  if (depth > kMaxDepth) {
    *o += "\"...\"";
    return true;
  }
  if (dict) {
    *o += '{';
    for (size_t i = 0; i < entries.size(); ++i) {
      if (i) *o += ',';
      std::string key, v;
      if (!append_annotation(&v, &key, entries[i].data, entries[i].size, g, depth + 1))
        return false;
      append_text(o, key);
      *o += ':';
      *o += v;
    }
    *o += '}';
  } else if (array) {
    *o += '[';
    for (size_t i = 0; i < items.size(); ++i) {
      if (i) *o += ',';
      std::string key;
      if (!append_annotation(o, &key, items[i].data, items[i].size, g, depth + 1)) return false;
    }
    *o += ']';
  } else {
    *o += value;
  }
  return true;
}

const char* type_name(uint64_t t) {
  switch (t) {
    case perfetto::event::kSliceBegin:
      return "slice";
    case perfetto::event::kInstant:
      return "instant";
    case perfetto::event::kCounter:
      return "counter";
    case perfetto::event::kSliceEnd:
      return "slice end";
    default:
      return "legacy";
  }
}

}  // namespace

std::string perfetto_record_json(const TraceStore& s, uint32_t event, std::string_view bytes) {
  if (event >= s.events.size() || !s.perfetto) return "null";
  const PerfettoTables::Generation* g = s.perfetto->generation_of(s.events.src_offset[event]);
  wire::Reader r(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  wire::Field f;
  wire::Status st;
  std::string args, flows, location;
  uint64_t type = 0, uuid = 0;
  bool has_uuid = false;
  size_t n_args = 0;
  while ((st = r.next(&f)) == wire::Status::kOk) {
    if (f.number == perfetto::event::kType) type = f.value;
    if (f.number == perfetto::event::kTrackUuid) has_uuid = true, uuid = f.value;
    if (f.number == perfetto::event::kSourceLocationIid)
      location = interned(g, &PerfettoTables::Generation::source_locations, f.value);
    if (f.number == perfetto::event::kFlowIds || f.number == perfetto::event::kFlowIdsOld)
      perfetto::for_each_scalar(f, f.number == perfetto::event::kFlowIds, [&](uint64_t v) {
        flows += (flows.empty() ? "" : ",") + std::to_string(v);
      });
    if (f.number == perfetto::event::kDebugAnnotations && f.type == wire::kLen) {
      std::string name, value;
      if (!append_annotation(&value, &name, f.data, f.size, g, 0))
        return error_json("a debug annotation does not decode (has the file changed?)");
      if (n_args++) args += ',';
      append_text(&args, name.empty() ? "arg" : name);
      args += ':';
      args += value;
    }
  }
  if (st != wire::Status::kEnd)
    return error_json(std::string("the TrackEvent does not decode (has the file changed?): ") +
                      r.why);
  std::string o = "{\"name\":";
  append_text(&o, s.strings.get(s.events.name[event]));
  if (s.events.cat[event]) {
    o += ",\"categories\":";
    append_text(&o, s.strings.get(s.events.cat[event]));
  }
  o += ",\"type\":\"";
  o += type_name(type);
  o += '"';
  if (has_uuid) o += ",\"track_uuid\":\"" + std::to_string(uuid) + "\"";
  if (!location.empty()) {
    o += ",\"source_location\":";
    append_text(&o, location);
  }
  if (!flows.empty()) o += ",\"flow_ids\":[" + flows + "]";
  o += ",\"args\":{" + args + "}}";
  return o;
}

}  // namespace strata
