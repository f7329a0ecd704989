// TrackDescriptors and the store tracks they become (see perfetto_decoder.h).
//   process track  → the process (pid) itself; events on it go to a track named after it;
//   thread track   → the thread (pid, tid) of its process;
//   counter track  → a counter track of the process it hangs under (parent_uuid), one series;
//   other tracks   → a track of the process it hangs under, or of a "Tracks" process when it
//                    hangs under none (Perfetto's global tracks).
#include <string>

#include "core/formats/perfetto/perfetto_decoder.h"
#include "core/formats/perfetto/perfetto_fields.h"

namespace strata::perfetto {

namespace {

std::string uuid_text(uint64_t uuid) { return "track " + std::to_string(uuid); }

const char* chrome_process_type(uint64_t t) {
  switch (t) {
    case 1:
      return "Browser";
    case 2:
      return "Renderer";
    case 3:
      return "Utility";
    case 4:
      return "Zygote";
    case 5:
      return "Sandbox helper";
    case 6:
      return "GPU";
    case 7:
      return "PPAPI plugin";
    case 8:
      return "PPAPI broker";
    default:
      return "";
  }
}

}  // namespace

uint32_t PacketDecoder::process_of(int64_t pid) { return b_->process(std::to_string(pid), pid); }

uint32_t PacketDecoder::thread_of(int64_t pid, int64_t tid) {
  return b_->thread_track(process_of(pid), std::to_string(tid), tid);
}

uint32_t PacketDecoder::tracks_process() {
  if (tracks_process_ == kNone) {
    tracks_process_ = b_->process("tracks", 0);
    b_->set_process_name(tracks_process_, b_->strings().intern("Tracks"));
    b_->set_process_sort_index(tracks_process_, -1);
  }
  return tracks_process_;
}

void PacketDecoder::track_descriptor(const uint8_t* p, size_t n) {
  wire::Reader r(p, n);
  wire::Field f;
  uint64_t uuid = 0, parent = 0;
  std::string_view name;
  wire::Field process{}, thread{}, counter{}, chrome{};
  bool has_process = false, has_thread = false, has_counter = false;
  while (r.next(&f) == wire::Status::kOk) {
    switch (f.number) {
      case descriptor::kUuid:
        uuid = f.value;
        break;
      case descriptor::kParentUuid:
        parent = f.value;
        break;
      case descriptor::kName:
      case descriptor::kStaticName:
        if (f.type == wire::kLen) name = f.text();
        break;
      case descriptor::kProcess:
        has_process = f.type == wire::kLen, process = f;
        break;
      case descriptor::kThread:
        has_thread = f.type == wire::kLen, thread = f;
        break;
      case descriptor::kCounter:
        has_counter = f.type == wire::kLen, counter = f;
        break;
      case descriptor::kChromeProcess:
        if (f.type == wire::kLen) chrome = f;
        break;
      default:
        break;
    }
  }
  TrackInfo& t = tracks_[uuid];
  if (t.described) return;  // re-sent after each incremental-state clear
  t.described = true;
  t.parent = parent;
  t.name.assign(name);
  if (has_thread) {
    t.kind = TrackKind::kThread;
    wire::Reader d(thread.data, thread.size);
    wire::Field x;
    std::string_view thread_name;
    while (d.next(&x) == wire::Status::kOk) {
      if (x.number == descriptor::kPid && x.type == wire::kVarint) t.pid = wire::as_int64(x.value);
      if (x.number == descriptor::kTid && x.type == wire::kVarint) t.tid = wire::as_int64(x.value);
      if (x.number == descriptor::kThreadName && x.type == wire::kLen) thread_name = x.text();
    }
    if (t.name.empty()) t.name.assign(thread_name);
    t.track = thread_of(t.pid, t.tid);
    if (!t.name.empty()) b_->set_thread_name(t.track, b_->strings().intern(t.name));
  } else if (has_process) {
    t.kind = TrackKind::kProcess;
    wire::Reader d(process.data, process.size);
    wire::Field x;
    std::string_view process_name, cmdline;
    while (d.next(&x) == wire::Status::kOk) {
      if (x.number == descriptor::kPid && x.type == wire::kVarint) t.pid = wire::as_int64(x.value);
      if (x.number == descriptor::kProcessName && x.type == wire::kLen) process_name = x.text();
      if (x.number == descriptor::kCmdline && x.type == wire::kLen && cmdline.empty())
        cmdline = x.text();
    }
    std::string shown(process_name.empty() ? cmdline : process_name);
    if (shown.empty() && chrome.data) {
      wire::Reader c(chrome.data, chrome.size);
      while (c.next(&x) == wire::Status::kOk)
        if (x.number == 1 && x.type == wire::kVarint) shown = chrome_process_type(x.value);
    }
    if (shown.empty()) shown = t.name;
    if (t.name.empty()) t.name = shown;
    if (!shown.empty()) b_->set_process_name(process_of(t.pid), b_->strings().intern(shown));
  } else if (has_counter) {
    t.kind = TrackKind::kCounter;
    wire::Reader d(counter.data, counter.size);
    wire::Field x;
    while (d.next(&x) == wire::Status::kOk) {
      if (x.number == descriptor::kCounterUnitMultiplier && x.type == wire::kVarint && x.value)
        t.unit_multiplier = x.value;
      if (x.number == descriptor::kCounterIsIncremental && x.type == wire::kVarint)
        t.incremental = x.value != 0;
    }
  } else {
    t.kind = TrackKind::kCustom;
  }
}

uint32_t PacketDecoder::track_of(uint64_t uuid, bool at_end) {
  if (last_track_ != kNone && uuid == last_uuid_) return last_track_;
  const uint32_t track = make_track_of(uuid, at_end);
  if (track != kNone) last_uuid_ = uuid, last_track_ = track;
  return track;
}

uint32_t PacketDecoder::make_track_of(uint64_t uuid, bool at_end) {
  auto it = tracks_.find(uuid);
  if (it == tracks_.end() || !it->second.described) {
    if (!at_end && uuid != 0) return kNone;
    // Never described (or uuid 0, the trace-global track): a track of the Tracks process.
    TrackInfo& t = tracks_[uuid];
    if (t.track == kNone) {
      t.track = b_->thread_track(tracks_process(), uuid_text(uuid), 0);
      b_->set_thread_name(t.track, b_->strings().intern(uuid == 0 ? "Global" : uuid_text(uuid)));
    }
    return t.track;
  }
  TrackInfo& t = it->second;
  if (t.track != kNone) return t.track;
  const uint32_t process = parent_process(t);
  const std::string key = uuid_text(uuid);
  // Slices on a counter track (no writer means them, but a file may have them) go on a track
  // of its own beside the counter.
  const uint32_t owner = t.kind == TrackKind::kProcess ? process_of(t.pid)
                         : process == kNone            ? tracks_process()
                                                       : process;
  t.track = b_->thread_track(owner, key, 0);
  const std::string_view shown = !t.name.empty()                 ? std::string_view(t.name)
                                 : t.kind == TrackKind::kProcess ? std::string_view("process")
                                                                 : std::string_view(key);
  b_->set_thread_name(t.track, b_->strings().intern(shown));
  return t.track;
}

uint32_t PacketDecoder::parent_process(const TrackInfo& t) {
  uint64_t up = t.parent;
  for (int hops = 0; up != 0 && hops < 64; ++hops) {
    auto p = tracks_.find(up);
    if (p == tracks_.end()) break;
    if (p->second.kind == TrackKind::kProcess || p->second.kind == TrackKind::kThread)
      return process_of(p->second.pid);
    up = p->second.parent;
  }
  return kNone;
}

void PacketDecoder::add(uint32_t track, const Pending& e) {
  switch (e.what) {
    case 'B':
      b_->add_begin(track, e.ts, e.name, e.cat, e.src_offset, e.src_len);
      break;
    case 'E':
      b_->add_end(track, e.ts);
      break;
    case 'X':
      b_->add_complete(track, e.ts, e.dur, e.name, e.cat, e.src_offset, e.src_len);
      break;
    default:
      b_->add_instant(track, e.ts, e.name, e.cat, e.src_offset, e.src_len);
      break;
  }
}

void PacketDecoder::add_counter_value(uint64_t uuid, TimeNs ts, double value, bool at_end) {
  auto it = tracks_.find(uuid);
  if ((it == tracks_.end() || !it->second.described) && !at_end) {
    pending_.push_back({uuid, ts, 0, 0, 0, 0, 0, 'C', value});
    return;
  }
  TrackInfo& t = tracks_[uuid];
  if (t.counter == kNone) {
    const uint32_t process = parent_process(t);
    const std::string name = t.name.empty() ? uuid_text(uuid) : t.name;
    t.counter = b_->counter_track(t.kind == TrackKind::kProcess || t.kind == TrackKind::kThread
                                      ? process_of(t.pid)
                                  : process == kNone ? tracks_process()
                                                     : process,
                                  name);
  }
  value *= static_cast<double>(t.unit_multiplier);
  if (t.incremental) value = t.last_value += value;
  const std::string_view series = t.name.empty() ? std::string_view("value") : t.name;
  b_->add_counter(t.counter, b_->strings().intern(series), ts, value);
}

void PacketDecoder::finish() {
  // Events whose track was never described, or described after them.
  for (const Pending& e : pending_) {
    if (e.what == 'C')
      add_counter_value(e.uuid, e.ts, e.value, true);
    else
      add(track_of(e.uuid, true), e);
  }
  for (const PendingFlow& f : pending_flows_)
    b_->add_flow(f.key, track_of(f.uuid, true), f.ph, false, f.ts, flow_name_, flow_cat_);
  std::vector<Pending>().swap(pending_);
  std::vector<PendingFlow>().swap(pending_flows_);
  auto plural = [](uint64_t k, const char* one, const char* many) {
    return std::to_string(k) + " " + (k == 1 ? one : many);
  };
  if (skipped_no_state_)
    b_->warning(plural(skipped_no_state_, "packet was", "packets were") +
                " skipped: they need their sequence's interned data, which the trace lost "
                "before them (the ring buffer wrapped, or the trace starts mid-sequence)");
  if (unmapped_clock_)
    b_->warning(plural(unmapped_clock_, "timestamp is", "timestamps are") +
                " on a clock no ClockSnapshot maps onto the trace clock: shown as they are");
  if (unknown_type_)
    b_->warning(plural(unknown_type_, "TrackEvent has", "TrackEvents have") +
                " a type Strata does not know; skipped");
}

}  // namespace strata::perfetto
