// Readers of an XLine's and an XEvent's fields for the plane import (xplane_plane.cc): the
// line's header fields, and one event's fields with a fast path for the encoding every profiler
// writes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/base/types.h"
#include "core/formats/protobuf/wire.h"

namespace strata {

// An XLine's header fields and where its fields are.
struct LineInfo {
  int64_t id = 0, display_id = 0;
  bool has_display_id = false;
  std::string_view name, display_name;
  int64_t ts_ns = 0;
  uint64_t events = 0;
  const uint8_t* begin = nullptr;  // the fields of the line that can be read
  const uint8_t* end = nullptr;
  bool partial = false;  // cut by the end of a truncated file
  uint32_t pool = kNone;
  uint32_t track = kNone;

  std::string_view shown_name() const { return display_name.empty() ? name : display_name; }
  int64_t shown_id() const { return has_display_id ? display_id : id; }
};

// Applies one field of an XLine to `line` (the header fields; events are counted).
inline void apply_line_field(LineInfo* line, const wire::Field& f) {
  switch (f.number) {
    case 1:
      if (f.type == wire::kVarint) line->id = wire::as_int64(f.value);
      break;
    case 2:
      if (f.type == wire::kLen) line->name = f.text();
      break;
    case 3:
      if (f.type == wire::kVarint) line->ts_ns = wire::as_int64(f.value);
      break;
    case 4:
      if (f.type == wire::kLen) ++line->events;
      break;
    case 10:
      if (f.type == wire::kVarint)
        line->display_id = wire::as_int64(f.value), line->has_display_id = true;
      break;
    case 11:
      if (f.type == wire::kLen) line->display_name = f.text();
      break;
    default:
      break;
  }
}

// The fields of one XEvent other than its stats.
struct EventFields {
  int64_t metadata_id = 0, offset_ps = 0, duration_ps = 0;
  bool occurrences = false;
};

// Reads one XEvent's fields from `r`, calling on_stat(p, n) for each stat; false from on_stat
// stops the walk. Returns kEnd when the event was read whole, else the failing status (kOk:
// on_stat said no). Fast path for the fields every event has, behind one-byte tags: stats (4),
// metadata id (1), offset (2), duration (3); anything else, and anything malformed, takes
// r.next(), which reads it the same way or says what is wrong.
template <class OnStat>
[[gnu::always_inline]] inline wire::Status walk_event(wire::Reader& r, EventFields* e,
                                                      OnStat&& on_stat) {
  wire::Field f;
  wire::Status st;
  for (;;) {
    if (r.p < r.end) {
      const uint8_t tag = *r.p;
      const uint8_t* q = r.p + 1;
      uint64_t v;
      if (tag == (4 << 3 | wire::kLen)) {
        if (wire::read_varint(q, r.end, &v) && v <= static_cast<uint64_t>(r.end - q)) {
          if (!on_stat(q, static_cast<size_t>(v))) return wire::Status::kOk;
          r.p = q + v;
          continue;
        }
      } else if (tag == (1 << 3 | wire::kVarint)) {
        if (wire::read_varint(q, r.end, &v)) {
          e->metadata_id = wire::as_int64(v), r.p = q;
          continue;
        }
      } else if (tag == (2 << 3 | wire::kVarint)) {
        if (wire::read_varint(q, r.end, &v)) {
          e->offset_ps = wire::as_int64(v), e->occurrences = false, r.p = q;
          continue;
        }
      } else if (tag == (3 << 3 | wire::kVarint)) {
        if (wire::read_varint(q, r.end, &v)) {
          e->duration_ps = wire::as_int64(v), r.p = q;
          continue;
        }
      }
    }
    if ((st = r.next(&f)) != wire::Status::kOk) return st;
    switch (f.number) {
      case 1:
        e->metadata_id = wire::as_int64(f.value);
        break;
      case 2:
        e->offset_ps = wire::as_int64(f.value), e->occurrences = false;
        break;
      case 5:
        e->occurrences = true;
        break;
      case 3:
        e->duration_ps = wire::as_int64(f.value);
        break;
      case 4:
        if (f.type == wire::kLen && !on_stat(f.data, f.size)) return wire::Status::kOk;
        break;
      default:
        break;
    }
  }
}

}  // namespace strata
