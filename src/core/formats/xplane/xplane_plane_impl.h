// The PlaneImporter class of import_xplane (xplane_plane.h), shared by its two files:
// xplane_plane.cc reads a plane's header, metadata and line headers (pass 1) and places its
// sections and rows; xplane_plane_events.cc reads the events into the store (pass 2), their
// flows and the rows derived from them. Internal to those two files.
#pragma once
#include <algorithm>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/base/text.h"
#include "core/formats/protobuf/wire.h"
#include "core/formats/xplane/xplane_derived.h"
#include "core/formats/xplane/xplane_event.h"
#include "core/formats/xplane/xplane_layout.h"
#include "core/formats/xplane/xplane_plane.h"
#include "core/formats/xplane/xplane_stats.h"

namespace strata {

namespace xplane_impl {

struct Span {
  const uint8_t* p;
  size_t n;
};

// What the hot loop needs of an XEventMetadata.
struct MetaHot {
  StrId name = 0;  // display_name, else name
  StrId full = 0;  // on host planes, name when display_name stands for it (else 0)
  StrId tf_op = 0, source = 0;
  bool is_async = false;
};

// Stats of one event that the importer acts on.
struct EventStats {
  bool has_flow = false, has_corr = false, has_group = false, kernel = false, memcpy = false,
       is_async = false, has_program = false;
  uint64_t flow = 0, corr = 0;
  int64_t group = 0, program = 0;
  StrId step_name = kNone, hlo_op = 0, hlo_module = 0, tf_op = 0, source = 0;
  std::string_view kernel_details;  // its text (in the file's bytes or the strings)
};

// The rows derived from a plane's events (Steps, XLA and framework ops), made in its section.
void derive_plane(XSpaceImport* ctx, const std::function<uint32_t()>& plane_process,
                  const std::string& plane_key, const DeriveRows& rows,
                  std::vector<DeriveInput>* derive_in, std::vector<DeriveInput>* steps_in);

class PlaneImporter {
 public:
  PlaneImporter(XSpaceImport* ctx, const uint8_t* data, size_t n, uint64_t base, bool truncated)
      : ctx_(ctx),
        b_(*ctx->builder),
        data_(data),
        end_(data + n),
        base_(base),
        truncated_(truncated),
        plane_number_(ctx->plane_base + ctx->summary->size() + 1) {}

  std::string run();
  // Lines [lo, hi) of the plane, one part of it (import_xplane_part): ctx->pending holds
  // what the parts hand each other.
  void run_part(uint32_t lo, uint32_t hi);
  // Only the metadata, for its HLO symbols (read_xplane_symbols), without a message.
  void run_symbols();

 private:
  XPlaneTables& tables() { return ctx_->tables->planes[plane_index_]; }
  uint64_t at(const uint8_t* p) const { return base_ + static_cast<uint64_t>(p - data_); }

  std::string where() const {
    std::string s = "plane " + std::to_string(plane_number_);
    if (!name_.empty()) s += " (" + sanitize_utf8(name_) + ")";
    return s;
  }

  // Damage inside the plane, with what it costs; what was read before it is kept.
  void damage(const uint8_t* p, const char* why, const char* in_what, const char* lost) {
    if (quiet_) return;
    b_.error(where() + " is corrupt at byte " + std::to_string(at(p)) + ": " + why + " in " +
             in_what + "; " + lost);
  }

  // A kLen field cut by the end of a truncated file: its tag and length are complete but the
  // payload is not. Returns the field number and the bytes that are there.
  bool partial_field(const uint8_t* p, uint32_t* number, Span* payload) {
    uint64_t tag, len;
    if (!wire::read_varint(p, end_, &tag) || (tag & 7) != wire::kLen) return false;
    if (!wire::read_varint(p, end_, &len)) return false;
    *number = static_cast<uint32_t>(tag >> 3);
    *payload = Span{p, static_cast<size_t>(end_ - p)};
    return true;
  }

  // Pass 1 over the plane's fields: where its lines and metadata maps are.
  void scan();

  // A map<int64, M> entry: key (1) and value (2). False when malformed.
  bool map_entry(const Span& s, int64_t* key, Span* value);

  void read_stat_metadata();

  StatRole role(int64_t id) const {
    if (static_cast<uint64_t>(id) < role_.size()) return static_cast<StatRole>(role_[id]);
    for (const auto& [i, r] : role_sparse_)
      if (i == id) return r;
    return StatRole::kOther;
  }

  StrId stat_name(int64_t id) const {
    if (static_cast<uint64_t>(id) < stat_dense_.size()) return stat_dense_[id];
    if (!stat_dense_.empty()) return kNone;
    const StrId* s = ctx_->tables->planes[plane_index_].stat_names.find(id);
    return s ? *s : kNone;
  }

  // The text of a str/ref stat as an interned string (refs are already interned).
  StrId text_id(const StatValue& v) {
    if (v.kind == StatValue::kRef) {
      StrId s = stat_name(static_cast<int64_t>(v.bits));
      return s == kNone ? 0 : s;
    }
    if (v.kind == StatValue::kStr) return b_.strings().intern(v.s);
    return 0;
  }

  void read_event_metadata();

  // Kept for the analyses (the roofline's peaks), in the wire form of the metadata stats.
  void read_plane_stats();

  const MetaHot* meta(int64_t id) const {
    if (static_cast<uint64_t>(id) < meta_dense_.size()) {
      uint32_t i = meta_dense_[id];
      return i == kNone ? nullptr : &meta_sparse_[i].second;
    }
    if (!meta_dense_.empty()) return nullptr;
    auto it = std::lower_bound(meta_sparse_.begin(), meta_sparse_.end(), id,
                               [](const auto& a, int64_t v) { return a.first < v; });
    return it != meta_sparse_.end() && it->first == id ? &it->second : nullptr;
  }

  // Pass 1 over a line: its header fields (display_name and display_id come after the events
  // in the file) and how many events it has.
  LineInfo scan_line(const Span& s);
  LineInfo line_head(const Span& s);

  // XProf's ThreadPoolGrouper: pools of two or more threads get their own section, in name
  // order; other threads stay in the plane's section.
  void group_thread_pools();

  // GPU: XProf derives XLA/framework rows from the stream with the most events (ties: the
  // smaller line id), skipping rows that are themselves derived.
  void choose_derive_source();

  // Room for the plane's events (and a little for derived rows) in the store's columns, so
  // they do not regrow (a copy of every column) while the plane streams in.
  void reserve();

  uint32_t process_of(uint32_t pool);

  uint32_t track_of(LineInfo& line);

  void read_events(LineInfo& line);

  void malformed(const uint8_t* p, const char* why) {
    if (ctx_->malformed++ == 0) {
      ctx_->malformed_at = at(p);
      ctx_->malformed_why = std::string(why) + " in " + where();
    }
  }

  void read_event(LineInfo& line, const uint8_t* p, size_t n);

  // Decodes one XStat of an event and keeps what the importer acts on. False: malformed.
  bool read_stat(const uint8_t* p, size_t n, EventStats* es);

  // The kernel's launch parameters, for the kernel statistics (rows sorted by record offset:
  // one file's offsets grow; a later file's start past the earlier ones').
  void add_kernel_launch(std::string_view details, uint64_t src);

  void add_flows(const EventStats& es, uint32_t track, TimeNs start);

  void collect(const EventStats& es, const MetaHot* m, TimeNs start, TimeNs end, uint64_t src,
               uint32_t len);

  void derive();

  XSpaceImport* ctx_;
  TraceBuilder& b_;
  const uint8_t* data_;
  const uint8_t* end_;
  uint64_t base_;
  bool truncated_;
  size_t plane_number_;  // 1-based, for messages

  int64_t plane_id_ = 0;
  std::string_view name_;
  PlaneKind kind_ = PlaneKind::kOther;
  uint32_t plane_index_ = 0;  // in ctx_->tables->planes
  bool quiet_ = false;        // run_symbols: no message
  // The plane's index in the file (pids of unknown planes, the process → plane table).
  uint32_t file_plane() const {
    return file_plane_ != kNone ? file_plane_ : ctx_->plane_base + plane_index_;
  }
  uint32_t file_plane_ = kNone;  // set for a later part read where the plane's first was
  void load_pending();
  void save_pending(uint32_t lo, uint32_t hi);
  uint32_t host_index_ = 0, pool_base_ = 0;
  std::vector<Span> line_spans_, event_meta_, stat_meta_, plane_stats_;
  const uint8_t* partial_line_ = nullptr;

  std::vector<StrId> stat_dense_;
  std::vector<uint8_t> role_;
  std::vector<std::pair<int64_t, StatRole>> role_sparse_;
  std::vector<uint32_t> meta_dense_;
  std::vector<std::pair<int64_t, MetaHot>> meta_sparse_;

  std::vector<LineInfo> lines_;
  std::vector<std::string_view> pools_;
  std::vector<uint32_t> pool_process_;
  uint32_t plane_process_ = kNone;
  std::string plane_key_;
  StrId flow_names_[64] = {};
  StrId xflow_ = kNone, launch_ = kNone, corr_ = kNone;

  bool counters_ = false, collect_ = false;
  int stream_kinds_ = -1;  // bits: 1 kernel, 2 memcpy, 4 memset; -1: not a stream to name
  std::vector<std::pair<StrId, double>> series_;
  uint32_t derive_line_ = kNone;
  DeriveRows rows_;
  bool steps_ = false;                 // a GPU plane without Steps: derive them from group_id
  std::vector<DeriveInput> steps_in_;  // its events that carry a group_id
  std::vector<DeriveInput> derive_in_;

 public:
  void set_host_numbering(uint32_t host_index, uint32_t pool_base) {
    host_index_ = host_index, pool_base_ = pool_base;
  }
  uint32_t pools() const { return static_cast<uint32_t>(pools_.size()); }
};

}  // namespace xplane_impl

}  // namespace strata
