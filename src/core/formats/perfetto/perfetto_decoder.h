// Turns Perfetto TracePackets into store events. The importer (perfetto_importer.cc) cuts the
// file at packet boundaries and hands each packet here with its file offset; this class keeps
// what a Perfetto trace carries across packets:
//   - per packet sequence (trusted_packet_sequence_id): interned names and categories, the
//     TracePacketDefaults (default clock and track), the legacy ThreadDescriptor's thread and
//     reference timestamps, and sequence-scoped clocks; all cleared when a packet says the
//     sequence's incremental state was cleared, and packets that need that state before it
//     was ever set are skipped (counted);
//   - clocks: every ClockSnapshot maps the clocks it lists onto the trace clock (BOOTTIME
//     unless primary_trace_clock says otherwise); incremental clocks add deltas;
//   - tracks: TrackDescriptors by uuid (process, thread, custom tracks under parent_uuid,
//     counter tracks), made into store tracks when the first event uses them; events on a
//     uuid not yet described wait until the end of the file.
// Debug annotations are not decoded here: the details pane re-reads the event's TrackEvent
// bytes (perfetto_details.cc), with the interned names kept in PerfettoTables.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/formats/perfetto/perfetto_tables.h"
#include "core/store/trace_builder.h"

namespace strata::perfetto {

class PacketDecoder {
 public:
  PacketDecoder(TraceBuilder* builder, PerfettoTables* tables);

  // One TracePacket's bytes, which start at `offset` of the (decompressed) file. False when
  // the packet does not decode (its damage is counted and described by malformed_why()).
  bool packet(const uint8_t* p, size_t n, uint64_t offset);
  // End of the file: events waiting for their track, warnings.
  void finish();

  uint64_t events() const { return events_; }
  uint64_t packets() const { return packets_; }
  // Packets of kinds Strata does not draw, by their TracePacket field number.
  const std::map<uint32_t, uint64_t>& undrawn() const { return undrawn_; }
  uint64_t malformed() const { return malformed_; }
  uint64_t malformed_at() const { return malformed_at_; }
  const std::string& malformed_why() const { return malformed_why_; }

 private:
  struct Clock {
    uint64_t multiplier = 1;
    bool incremental = false;
    bool mapped = false;
    int64_t last = 0;      // incremental: the last value, in the clock's units
    int64_t clock_at = 0;  // ns on this clock at the latest snapshot
    int64_t trace_at = 0;  // ns on the trace clock at that snapshot
  };
  struct Sequence {
    bool valid = false;  // incremental state was cleared at least once
    uint32_t generation = kNone;
    std::unordered_map<uint64_t, StrId> names, categories;
    bool has_default_clock = false, has_default_track = false;
    uint32_t default_clock = 0;
    uint64_t default_track = 0;
    std::vector<uint64_t> default_extra_counters, default_extra_double_counters;
    bool has_thread = false;  // a legacy ThreadDescriptor packet
    int64_t pid = 0, tid = 0;
    int64_t reference_us = 0;  // ThreadDescriptor.reference_timestamp_us + deltas so far
    std::unordered_map<uint32_t, Clock> clocks;  // sequence-scoped clocks (ids 64..127)
  };
  enum class TrackKind : uint8_t { kUnknown, kProcess, kThread, kCustom, kCounter };
  struct TrackInfo {
    TrackKind kind = TrackKind::kUnknown;
    bool described = false;
    uint64_t parent = 0;
    int64_t pid = 0, tid = 0;
    std::string name;
    uint64_t unit_multiplier = 1;
    bool incremental = false;
    double last_value = 0;
    uint32_t track = kNone;    // the store's track for slices and instants, once made
    uint32_t counter = kNone;  // the store's counter track for its values, once made
  };
  // An event on a track whose descriptor has not come yet.
  struct Pending {
    uint64_t uuid;
    TimeNs ts, dur;
    uint64_t src_offset;
    StrId name, cat;
    uint32_t src_len;
    char what;  // 'B', 'E', 'X', 'i', 'C' (counter: value in `value`)
    double value;
  };
  struct PendingFlow {
    uint64_t uuid, key;
    TimeNs ts;
    char ph;
  };

  Sequence& sequence(uint32_t id);
  void clear_state(Sequence* seq);
  void interned(Sequence* seq, const uint8_t* p, size_t n);
  void defaults(Sequence* seq, const uint8_t* p, size_t n);
  void clock_snapshot(Sequence* seq, const uint8_t* p, size_t n);
  void thread_descriptor(Sequence* seq, const uint8_t* p, size_t n);
  void process_descriptor(const uint8_t* p, size_t n);
  Clock* clock(Sequence* seq, uint32_t id);
  TimeNs to_trace(Sequence* seq, uint32_t clock_id, uint64_t raw);
  bool track_event(Sequence* seq, const uint8_t* p, size_t n, uint64_t offset, bool has_ts,
                   TimeNs ts);
  void note_generation(const Sequence& seq, uint64_t offset);
  // TracePacket.compressed_packets: zlib-deflated Trace bytes (repeated TracePacket), as
  // Perfetto's compressing writer bundles them; each inner packet is decoded as if it stood in
  // the file at the bundle's offset. Their events have no record to re-read (the bytes are not
  // in the file), so the details pane shows them without their debug annotations.
  void bundle(const uint8_t* p, size_t n, uint64_t offset);
  // A legacy async event (LegacyEvent phase b/e/S/F with an id): paired by (category, scope,
  // id) as the Chrome JSON importer pairs them; unscoped and local ids within their process.
  void legacy_async(const Sequence& seq, uint64_t uuid, int64_t pid_override, char id_kind,
                    uint64_t id, std::string_view scope, const Pending& e);

  // perfetto_tracks.cc
  void track_descriptor(const uint8_t* p, size_t n);
  // The store track of `uuid` (kNone: not described yet, the caller makes the event wait).
  uint32_t track_of(uint64_t uuid, bool at_end);
  uint32_t make_track_of(uint64_t uuid, bool at_end);
  uint32_t thread_of(int64_t pid, int64_t tid);
  uint32_t process_of(int64_t pid);
  // The process a track hangs under (parent_uuid chain), else kNone.
  uint32_t parent_process(const TrackInfo& t);
  uint32_t tracks_process();
  void add(uint32_t track, const Pending& e);
  void add_counter_value(uint64_t uuid, TimeNs ts, double value, bool at_end);
  void add_flow(uint64_t uuid, uint64_t key, TimeNs ts, char ph, bool at_end);

  TraceBuilder* b_;
  PerfettoTables* tables_;
  std::unordered_map<uint32_t, Sequence> sequences_;  // node-based: pointers stay valid
  uint32_t last_seq_id_ = 0;
  Sequence* last_seq_ = nullptr;  // packets of one sequence come in runs
  uint64_t last_uuid_ = 0;
  uint32_t last_track_ = kNone;                 // track_of(last_uuid_), once made
  std::unordered_map<uint32_t, Clock> clocks_;  // global clocks
  uint32_t trace_clock_ = 6;                    // BOOTTIME
  bool trace_clock_fixed_ = false;
  std::unordered_map<uint64_t, TrackInfo> tracks_;
  std::unordered_map<int64_t, std::string> process_names_;  // from process descriptors
  std::unordered_set<uint64_t> open_flows_;
  std::vector<Pending> pending_;
  std::vector<PendingFlow> pending_flows_;
  uint32_t tracks_process_ = kNone;
  StrId flow_name_ = 0, flow_cat_ = 0;
  std::string scratch_;

  bool in_bundle_ = false;         // decoding the packets of a compressed bundle
  std::vector<uint8_t> inflated_;  // the bundle being decoded
  uint64_t events_ = 0, packets_ = 0;
  uint64_t skipped_no_state_ = 0, unmapped_clock_ = 0, unknown_type_ = 0;
  std::map<uint32_t, uint64_t> undrawn_;
  uint64_t malformed_ = 0, malformed_at_ = 0;
  std::string malformed_why_;
};

}  // namespace strata::perfetto
