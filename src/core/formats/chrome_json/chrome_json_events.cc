// Chrome JSON importer: per-record dispatch and the common phases (X, B/E, i/I, C, M), plus
// the string and track lookups every phase uses. These run once per record, so they avoid
// allocation and hashing where a small cache can answer (see intern() and thread_of()).
#include <cstring>

#include "core/formats/chrome_json/chrome_json_importer_impl.h"

namespace strata::chrome_json {

namespace {

// a == b without libc's memcmp (a byte loop in wasm): see json::equal_bytes.
inline bool same_text(std::string_view a, std::string_view b) {
  return a.size() == b.size() && json::equal_bytes(a.data(), b.data(), a.size());
}

}  // namespace

StrId ChromeJsonImporter::intern(std::string_view s, bool raw, uint64_t pos) {
  // Direct-mapped cache in front of the string table: names and categories repeat constantly,
  // and a hit costs a few loads and one comparison instead of a full hash + UTF-8 scan. A slot is
  // only filled when the stored text equals the input, so a hit also implies valid UTF-8.
  if (s.empty()) return 0;  // id 0 is always ""
  InternSlot* slot = nullptr;
  const size_t n = s.size();
  if (n <= 256) {
    // Hash of the first and last bytes, with fixed-size loads only (a variable-size memcpy is
    // a call in wasm).
    const char* p = s.data();
    uint64_t head, tail;
    if (n >= 8) {
      std::memcpy(&head, p, 8);
      std::memcpy(&tail, p + n - 8, 8);
    } else if (n >= 4) {
      uint32_t a, b;
      std::memcpy(&a, p, 4);
      std::memcpy(&b, p + n - 4, 4);
      head = a, tail = b;
    } else {
      head = static_cast<unsigned char>(p[0]) | static_cast<unsigned char>(p[n / 2]) << 8 |
             static_cast<unsigned char>(p[n - 1]) << 16;
      tail = 0;
    }
    uint64_t h = (head * 0x9E3779B97F4A7C15ull) ^ (tail * 0xC2B2AE3D27D4EB4Full) ^ n;
    slot = &intern_cache_[(h ^ (h >> 29)) % kInternSlots];
    if (slot->id != kNone && same_text(slot->text, s)) return slot->id;
  }
  bool bad = false;
  StrId id = builder_.strings().intern(s, &bad);
  if (bad && bad_utf8_++ == 0) bad_utf8_at_ = raw ? pos + utf8_valid_prefix(s) : pos;
  if (slot && !bad) {
    slot->id = id;
    slot->text = builder_.strings().get(id);  // the table's copy: stable while it grows
  }
  return id;
}

uint32_t ChromeJsonImporter::process_of(const EventRecord& r) {
  int64_t pid = 0;
  json::parse_int64(r.pid, &pid);
  if (file_ == 0) return builder_.process(r.pid, pid);
  // A later file's pid is its own: keyed by (file, pid), named by the pid as written.
  pid_key_.assign(reinterpret_cast<const char*>(&file_), sizeof(file_));
  pid_key_.push_back('\0');
  pid_key_.append(r.pid);
  const size_t before = store_->processes.size();
  const uint32_t id = builder_.process(pid_key_, pid);
  if (store_->processes.size() > before) {
    store_->processes[id].key.assign(r.pid);
    store_->processes[id].file = file_;
  }
  return id;
}

uint32_t ChromeJsonImporter::thread_of(const EventRecord& r) {
  for (TrackSlot& c : track_cache_)
    if (c.track != kNone && same_text(r.pid, c.pid) && same_text(r.tid, c.tid)) return c.track;
  uint32_t proc = process_of(r);
  int64_t tid = 0;
  json::parse_int64(r.tid, &tid);
  TrackSlot& c = track_cache_[track_cache_next_++ % kTrackSlots];
  c.track = builder_.thread_track(proc, r.tid, tid);
  c.pid.assign(r.pid);
  c.tid.assign(r.tid);
  return c.track;
}

void ChromeJsonImporter::handle_record(const char* b, const char* e, uint64_t offset) {
  const EventRecord& r = rec_;
  ++records_;
  builder_.count_phase(static_cast<uint8_t>(r.ph));
  if (r.ph) saw_ph_ = true;
  switch (r.ph) {
    case 'X':
    case 'B':
    case 'E':
    case 'i':
    case 'I':
    case 'C':
      if (r.ts_state != FieldState::kOk) {
        if (bad_ts_++ == 0) bad_ts_at_ = offset;
        return;
      }
      break;
    case 'M':
      return handle_metadata(r, offset);
    default:
      return handle_other_phase(r, offset, static_cast<uint32_t>(e - b));
  }
  builder_.note_time(r.ts_ns);  // E records and the like count even when nothing is drawn
  auto len = static_cast<uint32_t>(e - b);
  switch (r.ph) {
    case 'X': {
      TimeNs dur = r.dur_ns;
      if (r.dur_state != FieldState::kOk) {
        // Missing, "nan", NaN or out of range: drawn as a zero-length slice, counted.
        dur = 0;
        if (bad_dur_++ == 0) bad_dur_at_ = offset;
      }
      builder_.add_complete(thread_of(r), r.ts_ns, dur, name_of(r, offset), cat_of(r, offset),
                            offset, len);
      note_kernel_launch(r, offset);
      note_collective(r, offset);
      note_ascend_task(r, offset);
      break;
    }
    case 'B':
      builder_.add_begin(thread_of(r), r.ts_ns, name_of(r, offset), cat_of(r, offset), offset, len);
      break;
    case 'E':
      builder_.add_end(thread_of(r), r.ts_ns);
      break;
    case 'i':
    case 'I': {
      // Scope "g": the whole trace (the Global track); "p": the process; else the thread.
      uint32_t track = r.scope == 'g'   ? builder_.global_track()
                       : r.scope == 'p' ? builder_.process_instant_track(process_of(r))
                                        : thread_of(r);
      builder_.add_instant(track, r.ts_ns, name_of(r, offset), cat_of(r, offset), offset, len);
      break;
    }
    case 'C':
      handle_counter(r, offset);
      break;
  }
}

// One counter track per (pid, name[, id]); one series per numeric arg.
void ChromeJsonImporter::handle_counter(const EventRecord& r, uint64_t offset) {
  if (r.args.empty()) return;
  uint32_t track = kNone;
  args_.reset(r.args);
  while (args_.next()) {
    double v;
    if (args_.kind() == ObjectReader::Kind::kOther || !json::parse_double(args_.value(), &v))
      continue;
    StrId series = intern(args_.key(), false, offset);
    if (track == kNone) {
      scratch_.assign(r.name);
      if (r.has_id) {
        scratch_ += ' ';
        scratch_.append(r.id);
      }
      intern(scratch_, r.name_raw, offset + r.name_pos);  // reports bad UTF-8 in the name
      track = builder_.counter_track(process_of(r), scratch_);
    }
    builder_.add_counter(track, series, r.ts_ns, v);
  }
}

void ChromeJsonImporter::handle_metadata(const EventRecord& r, uint64_t offset) {
  if (r.args.empty()) return;
  std::string_view n = r.name;
  bool is_name = n == "process_name" || n == "thread_name";
  bool is_sort = n == "process_sort_index" || n == "thread_sort_index";
  bool is_labels = n == "process_labels";
  if (!is_name && !is_sort && !is_labels) return;
  std::string_view want = is_name ? "name" : is_sort ? "sort_index" : "labels";
  bool thread = n[0] == 't';
  args_.reset(r.args);
  while (args_.next()) {
    if (args_.key() != want || args_.kind() == ObjectReader::Kind::kOther) continue;
    std::string_view v = args_.value();
    if (is_name) {
      StrId id = intern(v, false, offset);
      if (thread)
        builder_.set_thread_name(thread_of(r), id);
      else
        builder_.set_process_name(process_of(r), id);
    } else if (is_sort) {
      int64_t index;
      if (!json::parse_int64(v, &index)) continue;
      if (thread)
        builder_.set_thread_sort_index(thread_of(r), index);
      else
        builder_.set_process_sort_index(process_of(r), index);
    } else {
      uint32_t proc = process_of(r);
      while (!v.empty()) {
        size_t comma = v.find(',');
        std::string_view label = v.substr(0, comma);
        v = comma == std::string_view::npos ? std::string_view() : v.substr(comma + 1);
        while (!label.empty() && json::is_ws(label.front())) label.remove_prefix(1);
        while (!label.empty() && json::is_ws(label.back())) label.remove_suffix(1);
        if (!label.empty()) builder_.add_process_label(proc, intern(label, false, offset));
      }
    }
  }
}

}  // namespace strata::chrome_json
