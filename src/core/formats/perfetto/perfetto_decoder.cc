// Packets, sequences, clocks and TrackEvents (see perfetto_decoder.h); tracks are in
// perfetto_tracks.cc.
#include "core/formats/perfetto/perfetto_decoder.h"

#include "core/formats/perfetto/perfetto_fields.h"

namespace strata::perfetto {

namespace {

std::string_view as_text(const wire::Field& f) { return f.text(); }

}  // namespace

PacketDecoder::PacketDecoder(TraceBuilder* builder, PerfettoTables* tables)
    : b_(builder), tables_(tables) {
  flow_name_ = b_->strings().intern("flow");
  flow_cat_ = b_->strings().intern("perfetto");
}

PacketDecoder::Sequence& PacketDecoder::sequence(uint32_t id) {
  if (last_seq_ && last_seq_id_ == id) return *last_seq_;
  Sequence& s = sequences_[id];
  last_seq_id_ = id;
  last_seq_ = &s;
  if (s.generation == kNone) {
    s.generation = static_cast<uint32_t>(tables_->generations.size());
    tables_->generations.emplace_back();
  }
  return s;
}

void PacketDecoder::clear_state(Sequence* seq) {
  seq->valid = true;
  seq->names.clear();
  seq->categories.clear();
  seq->has_default_clock = seq->has_default_track = false;
  seq->default_extra_counters.clear();
  seq->default_extra_double_counters.clear();
  seq->clocks.clear();
  // A fresh generation only when the old one was used: Chrome clears often.
  const PerfettoTables::Generation& g = tables_->generations[seq->generation];
  if (!g.annotation_names.empty() || !g.string_values.empty() || !g.source_locations.empty()) {
    seq->generation = static_cast<uint32_t>(tables_->generations.size());
    tables_->generations.emplace_back();
  }
}

bool PacketDecoder::packet(const uint8_t* p, size_t n, uint64_t offset) {
  ++packets_;
  wire::Reader r(p, n);
  wire::Field f;
  wire::Status st;
  bool has_ts = false, has_clock = false, cleared = false;
  uint64_t ts_raw = 0, flags = 0, dropped = 0;
  uint32_t clock_id = 0, seq_id = 0;
  wire::Field event{}, descriptor{}, interned_data{}, defaults{}, snapshot{}, thread{}, process{},
      compressed{};
  uint64_t event_offset = 0;
  while ((st = r.next(&f)) == wire::Status::kOk) {
    switch (f.number) {
      case packet::kTimestamp:
        has_ts = f.type == wire::kVarint;
        ts_raw = f.value;
        break;
      case packet::kTimestampClockId:
        has_clock = true;
        clock_id = static_cast<uint32_t>(f.value);
        break;
      case packet::kSequenceId:
        seq_id = static_cast<uint32_t>(f.value);
        break;
      case packet::kSequenceFlags:
        flags = f.value;
        break;
      case packet::kIncrementalStateCleared:
        cleared = f.value != 0;
        break;
      case packet::kPreviousPacketDropped:
        dropped = f.value;
        break;
      case packet::kTrackEvent:
        event = f;
        event_offset = in_bundle_ ? offset : offset + static_cast<uint64_t>(f.data - p);
        break;
      case packet::kTrackDescriptor:
        descriptor = f;
        break;
      case packet::kInternedData:
        interned_data = f;
        break;
      case packet::kDefaults:
        defaults = f;
        break;
      case packet::kClockSnapshot:
        snapshot = f;
        break;
      case packet::kThreadDescriptor:
        thread = f;
        break;
      case packet::kProcessDescriptor:
        process = f;
        break;
      case packet::kCompressedPackets:
        if (f.type == wire::kLen && !in_bundle_) {
          compressed = f;
          break;
        }
        ++undrawn_[f.number];  // a bundle inside a bundle: no writer nests them
        break;
      default:
        if (f.type == wire::kLen) ++undrawn_[f.number];
        break;
    }
  }
  if (st != wire::Status::kEnd) {
    if (malformed_++ == 0) {
      malformed_at_ = offset + static_cast<uint64_t>(r.field_start - p);
      malformed_why_ = r.why;
    }
    return false;
  }
  if (compressed.data) bundle(compressed.data, compressed.size, offset);
  Sequence& seq = sequence(seq_id);
  if (dropped) seq.valid = false;
  if (cleared || (flags & packet::kSeqIncrementalStateCleared)) clear_state(&seq);
  if ((flags & packet::kSeqNeedsIncrementalState) && !seq.valid) {
    ++skipped_no_state_;
    return true;
  }
  if (defaults.data) this->defaults(&seq, defaults.data, defaults.size);
  if (interned_data.data) interned(&seq, interned_data.data, interned_data.size);
  if (snapshot.data) clock_snapshot(&seq, snapshot.data, snapshot.size);
  if (process.data) process_descriptor(process.data, process.size);
  if (thread.data) thread_descriptor(&seq, thread.data, thread.size);
  if (descriptor.data) track_descriptor(descriptor.data, descriptor.size);
  if (event.data || event.type == wire::kLen) {
    TimeNs ts = 0;
    if (has_ts) {
      const uint32_t id = has_clock               ? clock_id
                          : seq.has_default_clock ? seq.default_clock
                                                  : trace_clock_;
      ts = to_trace(&seq, id, ts_raw);
    }
    if (!track_event(&seq, event.data, event.size, event_offset, has_ts, ts)) {
      if (malformed_++ == 0) {
        malformed_at_ = event_offset;
        malformed_why_ = "a TrackEvent that does not decode";
      }
      return false;
    }
  }
  return true;
}

void PacketDecoder::interned(Sequence* seq, const uint8_t* p, size_t n) {
  PerfettoTables::Generation& g = tables_->generations[seq->generation];
  wire::Reader r(p, n);
  wire::Field f;
  while (r.next(&f) == wire::Status::kOk) {
    if (f.type != wire::kLen) continue;
    wire::Reader e(f.data, f.size);
    wire::Field x;
    uint64_t iid = 0;
    std::string_view name, file, function;
    uint64_t line = 0;
    while (e.next(&x) == wire::Status::kOk) {
      if (x.number == interned::kIid && x.type == wire::kVarint) iid = x.value;
      if (x.type == wire::kLen && x.number == interned::kName) name = as_text(x);
      if (x.type == wire::kLen && x.number == interned::kFunctionName) function = as_text(x);
      if (x.type == wire::kVarint && x.number == interned::kLineNumber) line = x.value;
    }
    switch (f.number) {
      case interned::kEventNames:
        seq->names[iid] = b_->strings().intern(name);
        break;
      case interned::kEventCategories:
        seq->categories[iid] = b_->strings().intern(name);
        break;
      case interned::kDebugAnnotationNames:
        g.annotation_names[iid] = sanitize_utf8(name);
        break;
      case interned::kDebugAnnotationStringValues:
        g.string_values[iid] = sanitize_utf8(name);
        break;
      case interned::kSourceLocations: {
        file = name;  // SourceLocation.file_name is field 2, like the others' name
        std::string s = sanitize_utf8(function);
        if (!file.empty()) {
          s += s.empty() ? "" : " (";
          s += sanitize_utf8(file);
          if (line) s += ":" + std::to_string(line);
          if (!function.empty()) s += ")";
        }
        g.source_locations[iid] = std::move(s);
        break;
      }
      default:
        break;
    }
  }
}

void PacketDecoder::defaults(Sequence* seq, const uint8_t* p, size_t n) {
  wire::Reader r(p, n);
  wire::Field f;
  while (r.next(&f) == wire::Status::kOk) {
    if (f.number == defaults::kTimestampClockId && f.type == wire::kVarint) {
      seq->has_default_clock = true;
      seq->default_clock = static_cast<uint32_t>(f.value);
    } else if (f.number == defaults::kTrackEventDefaults && f.type == wire::kLen) {
      seq->default_extra_counters.clear();
      seq->default_extra_double_counters.clear();
      wire::Reader d(f.data, f.size);
      wire::Field x;
      while (d.next(&x) == wire::Status::kOk) {
        if (x.number == event::kTrackUuid && x.type == wire::kVarint) {
          seq->has_default_track = true;
          seq->default_track = x.value;
        } else if (x.number == event::kExtraCounterTrackUuids) {
          for_each_scalar(x, false, [&](uint64_t v) { seq->default_extra_counters.push_back(v); });
        } else if (x.number == event::kExtraDoubleCounterTrackUuids) {
          for_each_scalar(x, false,
                          [&](uint64_t v) { seq->default_extra_double_counters.push_back(v); });
        }
      }
    }
  }
}

PacketDecoder::Clock* PacketDecoder::clock(Sequence* seq, uint32_t id) {
  auto& map = (id >= clock::kFirstSequenceScoped && id <= clock::kLastSequenceScoped) ? seq->clocks
                                                                                      : clocks_;
  return &map[id];
}

void PacketDecoder::clock_snapshot(Sequence* seq, const uint8_t* p, size_t n) {
  struct Entry {
    uint32_t id;
    uint64_t ts, multiplier;
    bool incremental;
  };
  std::vector<Entry> entries;
  wire::Reader r(p, n);
  wire::Field f;
  while (r.next(&f) == wire::Status::kOk) {
    if (f.number == clock::kPrimaryTraceClock && f.type == wire::kVarint && !trace_clock_fixed_) {
      trace_clock_ = static_cast<uint32_t>(f.value);
    } else if (f.number == clock::kClocks && f.type == wire::kLen) {
      Entry e{0, 0, 1, false};
      wire::Reader c(f.data, f.size);
      wire::Field x;
      while (c.next(&x) == wire::Status::kOk) {
        if (x.type != wire::kVarint) continue;
        if (x.number == clock::kClockId) e.id = static_cast<uint32_t>(x.value);
        if (x.number == clock::kTimestamp) e.ts = x.value;
        if (x.number == clock::kIsIncremental) e.incremental = x.value != 0;
        if (x.number == clock::kUnitMultiplierNs && x.value) e.multiplier = x.value;
      }
      entries.push_back(e);
    }
  }
  trace_clock_fixed_ = true;  // the first snapshot decides the trace clock
  // The instant of the snapshot on the trace clock: the trace clock itself, else a clock an
  // earlier snapshot mapped.
  bool found = false;
  int64_t trace_now = 0;
  for (const Entry& e : entries) {
    if (e.id == trace_clock_) {
      trace_now = static_cast<int64_t>(e.ts * e.multiplier);
      found = true;
      break;
    }
  }
  if (!found) {
    for (const Entry& e : entries) {
      Clock* c = clock(seq, e.id);
      if (c->mapped && !e.incremental) {
        trace_now = static_cast<int64_t>(e.ts * e.multiplier) - c->clock_at + c->trace_at;
        found = true;
        break;
      }
    }
  }
  if (!found) return;
  for (const Entry& e : entries) {
    if (e.id == trace_clock_) continue;
    Clock* c = clock(seq, e.id);
    c->multiplier = e.multiplier;
    c->incremental = e.incremental;
    c->mapped = true;
    c->last = static_cast<int64_t>(e.ts);
    c->clock_at = static_cast<int64_t>(e.ts * e.multiplier);
    c->trace_at = trace_now;
  }
}

TimeNs PacketDecoder::to_trace(Sequence* seq, uint32_t clock_id, uint64_t raw) {
  if (clock_id == trace_clock_) return static_cast<TimeNs>(raw);
  Clock* c = clock(seq, clock_id);
  int64_t value = static_cast<int64_t>(raw);
  if (c->incremental) {
    c->last += value;
    value = c->last;
  }
  const int64_t ns = value * static_cast<int64_t>(c->multiplier);
  if (!c->mapped) {
    ++unmapped_clock_;
    return ns;
  }
  return ns - c->clock_at + c->trace_at;
}

void PacketDecoder::thread_descriptor(Sequence* seq, const uint8_t* p, size_t n) {
  wire::Reader r(p, n);
  wire::Field f;
  std::string_view name;
  seq->has_thread = true;
  while (r.next(&f) == wire::Status::kOk) {
    if (f.number == descriptor::kPid && f.type == wire::kVarint) seq->pid = wire::as_int64(f.value);
    if (f.number == descriptor::kTid && f.type == wire::kVarint) seq->tid = wire::as_int64(f.value);
    if (f.number == descriptor::kThreadName && f.type == wire::kLen) name = as_text(f);
    if (f.number == descriptor::kReferenceTimestampUs && f.type == wire::kVarint)
      seq->reference_us = wire::as_int64(f.value);
  }
  if (!name.empty()) b_->set_thread_name(thread_of(seq->pid, seq->tid), b_->strings().intern(name));
}

void PacketDecoder::process_descriptor(const uint8_t* p, size_t n) {
  wire::Reader r(p, n);
  wire::Field f;
  int64_t pid = 0;
  std::string_view name, cmdline;
  while (r.next(&f) == wire::Status::kOk) {
    if (f.number == descriptor::kPid && f.type == wire::kVarint) pid = wire::as_int64(f.value);
    if (f.number == descriptor::kProcessName && f.type == wire::kLen) name = as_text(f);
    if (f.number == descriptor::kCmdline && f.type == wire::kLen && cmdline.empty())
      cmdline = as_text(f);
  }
  if (name.empty()) name = cmdline;
  if (!name.empty()) b_->set_process_name(process_of(pid), b_->strings().intern(name));
}

void PacketDecoder::note_generation(const Sequence& seq, uint64_t offset) {
  auto& at = tables_->generation_at;
  if (at.empty() || at.back().second != seq.generation) at.emplace_back(offset, seq.generation);
}

bool PacketDecoder::track_event(Sequence* seq, const uint8_t* p, size_t n, uint64_t offset,
                                bool has_ts, TimeNs ts) {
  wire::Reader r(p, n);
  wire::Field f;
  wire::Status st;
  uint64_t type = 0, uuid = 0, name_iid = 0;
  bool has_uuid = false, has_name_iid = false, has_counter = false, has_debug = false;
  std::string_view name;
  double counter = 0;
  int64_t delta_us = 0, absolute_us = 0;
  bool has_delta = false, has_absolute = false;
  wire::Field legacy{};
  std::vector<uint64_t> extra_uuids, extra_values, extra_double_uuids, extra_double_values;
  std::vector<uint64_t> flows, terminating;
  scratch_.clear();
  uint32_t n_categories = 0;
  StrId cat = 0;
  auto add_category = [&](StrId c) {
    if (n_categories++ == 0) {
      cat = c;
      return;
    }
    if (n_categories == 2) scratch_.assign(b_->strings().get(cat));
    scratch_ += ',';
    scratch_ += b_->strings().get(c);
  };
  while ((st = r.next(&f)) == wire::Status::kOk) {
    switch (f.number) {
      case event::kType:
        type = f.value;
        break;
      case event::kTrackUuid:
        has_uuid = true;
        uuid = f.value;
        break;
      case event::kNameIid:
        has_name_iid = true;
        name_iid = f.value;
        break;
      case event::kName:
        if (f.type == wire::kLen) name = f.text();
        break;
      case event::kCategoryIids:
        for_each_scalar(f, false, [&](uint64_t v) {
          auto it = seq->categories.find(v);
          add_category(it == seq->categories.end() ? 0 : it->second);
        });
        break;
      case event::kCategories:
        if (f.type == wire::kLen) add_category(b_->strings().intern(f.text()));
        break;
      case event::kCounterValue:
        has_counter = true;
        counter = static_cast<double>(wire::as_int64(f.value));
        break;
      case event::kDoubleCounterValue:
        has_counter = true;
        counter = wire::as_double(f.value);
        break;
      case event::kExtraCounterTrackUuids:
        for_each_scalar(f, false, [&](uint64_t v) { extra_uuids.push_back(v); });
        break;
      case event::kExtraCounterValues:
        for_each_scalar(f, false, [&](uint64_t v) { extra_values.push_back(v); });
        break;
      case event::kExtraDoubleCounterTrackUuids:
        for_each_scalar(f, false, [&](uint64_t v) { extra_double_uuids.push_back(v); });
        break;
      case event::kExtraDoubleCounterValues:
        for_each_scalar(f, true, [&](uint64_t v) { extra_double_values.push_back(v); });
        break;
      case event::kFlowIds:
        for_each_scalar(f, true, [&](uint64_t v) { flows.push_back(v); });
        break;
      case event::kFlowIdsOld:
        for_each_scalar(f, false, [&](uint64_t v) { flows.push_back(v); });
        break;
      case event::kTerminatingFlowIds:
        for_each_scalar(f, true, [&](uint64_t v) { terminating.push_back(v); });
        break;
      case event::kTerminatingFlowIdsOld:
        for_each_scalar(f, false, [&](uint64_t v) { terminating.push_back(v); });
        break;
      case event::kLegacyEvent:
        if (f.type == wire::kLen) legacy = f;
        break;
      case event::kTimestampDeltaUs:
        has_delta = true;
        delta_us = wire::as_int64(f.value);
        break;
      case event::kTimestampAbsoluteUs:
        has_absolute = true;
        absolute_us = wire::as_int64(f.value);
        break;
      case event::kDebugAnnotations:
      case event::kSourceLocationIid:
      case event::kSourceLocation:
        has_debug = true;
        break;
      default:
        break;
    }
  }
  if (st != wire::Status::kEnd) return false;
  if (n_categories > 1) cat = b_->strings().intern(scratch_);
  // Legacy (Chrome JSON-style) fields.
  int64_t phase = 0, duration_us = -1, pid_override = -1, tid_override = -1;
  uint64_t bind_id = 0, flow_direction = 0, async_id = 0;
  char async_id_kind = 0;  // 'u' unscoped, 'l' local (process-scoped), 'g' global; 0: none
  std::string_view id_scope;
  if (legacy.data) {
    wire::Reader l(legacy.data, legacy.size);
    wire::Field x;
    while (l.next(&x) == wire::Status::kOk) {
      if (x.number == legacy::kIdScope && x.type == wire::kLen) id_scope = x.text();
      if (x.type != wire::kVarint) continue;
      switch (x.number) {
        case legacy::kUnscopedId:
          async_id = x.value, async_id_kind = 'u';
          break;
        case legacy::kLocalId:
          async_id = x.value, async_id_kind = 'l';
          break;
        case legacy::kGlobalId:
          async_id = x.value, async_id_kind = 'g';
          break;
        case legacy::kNameIid:
          if (!has_name_iid && name.empty()) has_name_iid = true, name_iid = x.value;
          break;
        case legacy::kPhase:
          phase = wire::as_int64(x.value);
          break;
        case legacy::kDurationUs:
          duration_us = wire::as_int64(x.value);
          break;
        case legacy::kBindId:
          bind_id = x.value;
          break;
        case legacy::kFlowDirection:
          flow_direction = x.value;
          break;
        case legacy::kPidOverride:
          pid_override = static_cast<int32_t>(x.value);
          break;
        case legacy::kTidOverride:
          tid_override = static_cast<int32_t>(x.value);
          break;
        default:
          break;
      }
    }
  }
  // Timestamps: the packet's; else the legacy ThreadDescriptor's reference plus deltas.
  if (!has_ts) {
    if (has_absolute) {
      ts = absolute_us * 1000;
    } else if (has_delta) {
      seq->reference_us += delta_us;
      ts = seq->reference_us * 1000;
    } else {
      ts = seq->reference_us * 1000;
    }
  }
  StrId name_id = 0;
  if (!name.empty()) {
    name_id = b_->strings().intern(name);
  } else if (has_name_iid) {
    auto it = seq->names.find(name_iid);
    if (it != seq->names.end()) name_id = it->second;
  }
  // The event's track.
  uint32_t track = kNone;
  if (pid_override >= 0 || tid_override >= 0) {
    track = thread_of(pid_override >= 0 ? pid_override : seq->pid,
                      tid_override >= 0 ? tid_override : seq->tid);
    uuid = 0, has_uuid = true;  // not used further: track is set
  } else {
    if (!has_uuid && seq->has_default_track) uuid = seq->default_track, has_uuid = true;
    if (!has_uuid && seq->has_thread) track = thread_of(seq->pid, seq->tid);
  }
  if (track == kNone && type != event::kCounter) track = track_of(uuid, false);
  if (has_debug && !in_bundle_) note_generation(*seq, offset);

  char what = 0;
  if (type == event::kSliceBegin)
    what = 'B';
  else if (type == event::kSliceEnd)
    what = 'E';
  else if (type == event::kInstant)
    what = 'i';
  else if (type == event::kCounter)
    what = 'C';
  else if (type == 0 && phase) {
    switch (static_cast<char>(phase)) {
      case 'B':
        what = 'B';
        break;
      case 'E':
        what = 'E';
        break;
      case 'X':
        what = 'X';
        break;
      case 'I':
      case 'i':
      case 'R':
      case 'n':
        what = 'i';
        break;
      case 'b':
      case 'e':
      case 'S':
      case 'F':
        if (async_id_kind) what = static_cast<char>(phase);
        break;
      default:
        break;  // metadata and counter phases of legacy events are not drawn
    }
  }
  if (what == 0 && type != 0) ++unknown_type_;
  const uint32_t src_len = in_bundle_ ? 0 : static_cast<uint32_t>(n);
  if (what) {
    Pending e{uuid, ts,     duration_us > 0 ? duration_us * 1000 : 0, offset, name_id, cat, src_len,
              what, counter};
    if (what == 'C' && !has_counter) what = 0;
    if (what == 'b' || what == 'e' || what == 'S' || what == 'F') {
      legacy_async(*seq, uuid, pid_override, async_id_kind, async_id, id_scope, e);
    } else if (what == 'C') {
      add_counter_value(uuid, ts, counter, false);
    } else if (track != kNone) {
      add(track, e);
    } else {
      pending_.push_back(e);
    }
    ++events_;
  }
  // Counter values carried by any event.
  const std::vector<uint64_t>& cu = extra_uuids.empty() ? seq->default_extra_counters : extra_uuids;
  for (size_t i = 0; i < extra_values.size() && i < cu.size(); ++i)
    add_counter_value(cu[i], ts, static_cast<double>(wire::as_int64(extra_values[i])), false);
  const std::vector<uint64_t>& du =
      extra_double_uuids.empty() ? seq->default_extra_double_counters : extra_double_uuids;
  for (size_t i = 0; i < extra_double_values.size() && i < du.size(); ++i)
    add_counter_value(du[i], ts, wire::as_double(extra_double_values[i]), false);
  // Flows: the first event of an id starts it, later ones are steps, a terminating id ends it.
  auto flow = [&](uint64_t key, char ph) {
    if (track != kNone)
      b_->add_flow(key, track, ph, false, ts, flow_name_, flow_cat_);
    else
      pending_flows_.push_back({uuid, key, ts, ph});
  };
  for (uint64_t id : flows) {
    const bool first = open_flows_.insert(id).second;
    flow(TraceBuilder::flow_key(std::string_view(reinterpret_cast<const char*>(&id), 8)),
         first ? 's' : 't');
  }
  for (uint64_t id : terminating) {
    open_flows_.erase(id);  // the id may start another flow later
    flow(TraceBuilder::flow_key(std::string_view(reinterpret_cast<const char*>(&id), 8)), 'f');
  }
  if (bind_id && flow_direction) {
    scratch_.assign("legacy ");
    scratch_.append(reinterpret_cast<const char*>(&bind_id), 8);
    const uint64_t key = TraceBuilder::flow_key(scratch_);
    flow(key, flow_direction == legacy::kFlowIn    ? 'f'
              : flow_direction == legacy::kFlowOut ? 's'
                                                   : 't');
  }
  if (!what) b_->note_time(ts);
  return true;
}

}  // namespace strata::perfetto
