// Chrome JSON importer: the less common phases and the side containers. Records here are
// staged in the TraceBuilder (async / object / flow marks) or small tables; the pairing,
// layout and binding rules are in core/store/async_layout.cc and flow_binding.cc.
//
// Grouping keys (what pairs a begin with its end, or chains flow steps):
//   async b/e/n and S/T/p/F  process (unless id2.global) + kind + cat + id (id2 when given);
//                            a plain "id" is process-scoped, as the format says for async ids
//   objects N/O/D            process + name + id
//   flows s/t/f              cat + name + id, across processes (flows cross process borders)
#include <cstdio>
#include <string>

#include "core/formats/chrome_json/chrome_json_importer_impl.h"

namespace strata::chrome_json {

namespace {

bool is_legacy_async(char ph) { return ph == 'S' || ph == 'T' || ph == 'p' || ph == 'F'; }

}  // namespace

void ChromeJsonImporter::handle_other_phase(const EventRecord& r, uint64_t offset, uint32_t len) {
  switch (r.ph) {
    case 'b':
    case 'e':
    case 'n':
    case 'S':
    case 'T':
    case 'p':
    case 'F':
    case 'N':
    case 'O':
    case 'D':
    case 's':
    case 't':
    case 'f':
    case 'P':
    case 'R':
    case 'c':
    case 'V':
    case 'v':
      if (r.ts_state != FieldState::kOk) {
        if (bad_ts_++ == 0) bad_ts_at_ = offset;
        return;
      }
      builder_.note_time(r.ts_ns);
      break;
    case '(':
    case ')':
      // Context enter/leave: counted (phase_counts) and spanning the trace, not drawn yet.
      if (r.ts_state == FieldState::kOk) builder_.note_time(r.ts_ns);
      return;
    default: {
      // Unknown phases are counted and reported once, never fatal.
      if (unknown_phase_++ == 0) unknown_phase_at_ = offset;
      char buf[8];
      auto u = static_cast<unsigned char>(r.ph);
      if (u == 0)
        std::snprintf(buf, sizeof(buf), "none");
      else if (u >= 0x21 && u < 0x7F)
        std::snprintf(buf, sizeof(buf), "'%c'", r.ph);
      else
        std::snprintf(buf, sizeof(buf), "0x%02X", u);
      if (unknown_phases_.find(buf) == std::string::npos && unknown_phases_.size() < 64)
        unknown_phases_ += (unknown_phases_.empty() ? "" : ", ") + std::string(buf);
      if (r.ts_state == FieldState::kOk) builder_.note_time(r.ts_ns);
      return;
    }
  }
  switch (r.ph) {
    case 'b':
    case 'e':
    case 'n':
    case 'S':
    case 'T':
    case 'p':
    case 'F':
      return handle_async(r, offset, len);
    case 'N':
    case 'O':
    case 'D':
      return handle_object(r, offset, len);
    case 's':
    case 't':
    case 'f':
      return handle_flow(r, offset);
    case 'P':
      return handle_sample(r, offset, len);
    case 'R':
      // Marks (navigationStart, firstContentfulPaint, ...) belong to the whole trace.
      builder_.add_marker(builder_.global_track(), 'R', r.ts_ns, name_of(r, offset),
                          cat_of(r, offset), offset, len);
      return;
    case 'c':
      return handle_clock_sync(r);
    case 'V':
    case 'v':
      builder_.add_memory_dump(r.ts_ns);
      return;
    default:
      return;
  }
}

void ChromeJsonImporter::handle_async(const EventRecord& r, uint64_t offset, uint32_t len) {
  uint32_t proc = process_of(r);
  uint32_t scope = r.id2_scope == 'g' ? kNone : proc;
  scratch_.assign(reinterpret_cast<const char*>(&scope), sizeof(scope));
  scratch_.push_back(is_legacy_async(r.ph) ? 'l' : 'a');
  scratch_.append(r.cat);
  scratch_.push_back('\0');
  scratch_.append(r.id2_scope ? r.id2 : r.id);
  if (scope == kNone && file_ > 0)  // global ids are global to their file
    scratch_.append(reinterpret_cast<const char*>(&file_), sizeof(file_));
  uint32_t group = builder_.async_group(scratch_, false);
  builder_.add_async(group, proc, r.ph, r.ts_ns, name_of(r, offset), cat_of(r, offset), offset,
                     len);
}

void ChromeJsonImporter::handle_object(const EventRecord& r, uint64_t offset, uint32_t len) {
  uint32_t proc = process_of(r);
  scratch_.assign(reinterpret_cast<const char*>(&proc), sizeof(proc));
  scratch_.push_back('o');
  scratch_.append(r.name);
  scratch_.push_back('\0');
  scratch_.append(r.id2_scope ? r.id2 : r.id);
  uint32_t group = builder_.async_group(scratch_, true);
  builder_.add_async(group, proc, r.ph, r.ts_ns, name_of(r, offset), cat_of(r, offset), offset,
                     len);
}

void ChromeJsonImporter::handle_flow(const EventRecord& r, uint64_t offset) {
  scratch_.assign(r.cat);
  scratch_.push_back('\0');
  scratch_.append(r.name);
  scratch_.push_back('\0');
  scratch_.append(r.id2_scope ? r.id2 : r.id);
  if (file_ > 0) {  // flow ids of different files never join
    scratch_.push_back('\0');
    scratch_.append(reinterpret_cast<const char*>(&file_), sizeof(file_));
  }
  // Only an f without bp="e" binds to the next slice; s, t and f with bp="e" to the enclosing.
  bool next_slice = r.ph == 'f' && r.bp != 'e';
  builder_.add_flow(TraceBuilder::flow_key(scratch_), thread_of(r), r.ph, next_slice, r.ts_ns,
                    name_of(r, offset), cat_of(r, offset));
}

// A P record or a `samples` entry: a marker on its thread's sample track, named after its
// leaf stack frame at finish() (the record's own name, e.g. "cycles:HG", is in its args span).
void ChromeJsonImporter::handle_sample(const EventRecord& r, uint64_t offset, uint32_t len) {
  int64_t tid = 0;
  json::parse_int64(r.tid, &tid);
  uint32_t track = builder_.sample_track(process_of(r), r.tid, tid);
  StrId name = name_of(r, offset);
  if (name == 0) name = builder_.strings().intern("Sample");
  uint32_t ev = builder_.add_marker(track, 'P', r.ts_ns, name, cat_of(r, offset), offset, len);
  if (r.has_sf) {
    if (file_ == 0) {
      builder_.set_sample_frame(ev, intern(r.sf, false, offset));
    } else {  // frame ids are per file
      scratch_.assign(std::to_string(file_) + ":");
      scratch_.append(r.sf);
      builder_.set_sample_frame(ev, intern(scratch_, false, offset));
    }
  }
}

// An entry of the top-level `samples` array ({"cpu", "tid", "ts", "name", "sf", "weight"}):
// not a trace event (records() and phase_counts leave it out) but drawn like a P sample.
void ChromeJsonImporter::handle_sample_entry(const EventRecord& r, uint64_t offset, uint32_t len) {
  if (r.ts_state != FieldState::kOk) {
    if (bad_ts_++ == 0) bad_ts_at_ = offset;
    return;
  }
  builder_.note_time(r.ts_ns);
  handle_sample(r, offset, len);
}

// A stackFrames member: frame_key_ is its id, rec_ its {"name", "parent", "category"} object.
void ChromeJsonImporter::handle_frame(const EventRecord& r, uint64_t offset) {
  if (file_ > 0) {  // frame ids are per file
    const std::string tag = std::to_string(file_) + ":";
    StrId key = intern(tag + frame_key_, false, offset);
    StrId parent = r.has_parent ? intern(tag + std::string(r.parent), false, offset) : 0;
    builder_.add_frame(key, name_of(r, offset), parent);
    return;
  }
  StrId key = intern(frame_key_, false, offset);
  StrId parent = r.has_parent ? intern(r.parent, false, offset) : 0;
  builder_.add_frame(key, name_of(r, offset), parent);
}

void ChromeJsonImporter::handle_clock_sync(const EventRecord& r) {
  ClockSync c;
  c.ts = r.ts_ns;
  if (!r.args.empty()) {
    args_.reset(r.args);
    while (args_.next()) {
      if (args_.key() == "sync_id" && args_.kind() == ObjectReader::Kind::kString) {
        c.sync_id = intern(args_.value(), false, 0);
      } else if (args_.key() == "issue_ts" && args_.kind() != ObjectReader::Kind::kOther) {
        int64_t ns;
        if (json::us_text_to_ns(args_.value(), &ns) == json::Scan::kOk) {
          c.issue_ts = ns;
          c.has_issue_ts = true;
        }
      }
    }
  }
  builder_.add_clock_sync(c);
}

}  // namespace strata::chrome_json
