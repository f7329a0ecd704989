// An event of the store as JSON, written by this one function for every reply that names
// events (find, select, details and its parent / children / flows, the script API's find).
// Each reply picks its fields and their order; the keys and the values' forms are fixed here:
//   "event" index · "name" · "cat" · "phase" (one letter) · "tsNs" / "startNs" absolute start ns
//   · "durNs" · "start" / "end" ns relative to the trace start (numbers) · "depth" · "pid" /
//   "tid" the process / thread keys (a number when numeric, else a string) · "process" /
//   "thread" their names · "track" the display track index.
#pragma once
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "core/base/types.h"

namespace strata {

struct TraceStore;

enum class EventField : uint8_t {
  kEvent,
  kName,
  kCat,
  kPhase,
  kTsNs,
  kStartNs,
  kDurNs,
  kStart,
  kEnd,
  kDepth,
  kPid,
  kTid,
  kProcess,
  kThread,
  kTrack,
};

struct EventJsonContext {
  TimeNs origin = 0;                                  // for kStart / kEnd
  const std::vector<uint32_t>* display_of = nullptr;  // store track → display track, for kTrack
  // For kEvent: the store's index → the index named (a store of some of a trace's events, as a
  // lazy bundle's tiles make, names each by the whole trace's index); null: the store's index.
  const std::function<uint32_t(uint32_t)>* event_id = nullptr;
};

// Appends `"key":value` for each field, comma-separated, without braces (a reply may add its
// own keys after them).
void append_event_fields(std::string* out, const TraceStore& s, uint32_t event,
                         std::initializer_list<EventField> fields, const EventJsonContext& ctx);
// The same in braces: {"key":value,...}.
void append_event_json(std::string* out, const TraceStore& s, uint32_t event,
                       std::initializer_list<EventField> fields, const EventJsonContext& ctx);

// A process or thread key: a number when it reads as one (JSON pid/tid), else a string.
void append_id_json(std::string* out, const std::string& key);

}  // namespace strata
