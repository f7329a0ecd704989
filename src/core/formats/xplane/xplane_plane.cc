// import_xplane: one XPlane's bytes → processes, tracks, events, counters and flows.
//
// Mapping (as XProf's trace viewer shows an XSpace, xprof/convert/xplane_to_trace_container.cc):
//  * a section (process) per plane: device planes with pid 1 + plane id, /device:CUSTOM:
//    planes 501 + id, host planes 701, and on a host plane one extra section per thread pool
//    ("tf_pjrt_thread_pool/123" → "tf_pjrt_thread_pool") of two or more threads, pids 702+;
//    TPU planes sort before GPU planes, then other devices, custom planes, hosts, the rest;
//  * a track per XLine with events, named by display_name (else name), ordered by the uint32
//    of its display id (else id), so GPU streams come before the derived rows (0xdeadbeef+k);
//  * lines named "_counters_" become counter tracks (one per event name, a series per numeric
//    stat); lines starting with "counters_" are skipped, as XProf does;
//  * an event starts at line.timestamp_ns + offset_ps / 1000 and ends at that + duration_ps /
//    1000. Both ends are rounded to the nearest ns (ties up) from the exact picoseconds, so
//    nesting in ps stays nesting in ns and a row never gains overlaps; sub-ns events can become
//    0 ns long. XEvents with num_occurrences (aggregates, no start) are counted and skipped;
//  * names: event metadata display_name, else name; a `step_name` stat renames the event;
//  * flows: a `flow` stat (XFlow: out starts, in ends, in-out continues a flow); otherwise a
//    `correlation_id` links a host event (launch) to the device events (kernel, memcpy) with
//    the same id.
// Each event keeps the byte span of its XEvent message: the details pane re-reads and decodes it.
#include "core/formats/xplane/xplane_plane.h"

#include <algorithm>
#include <cstring>

#include "core/formats/protobuf/wire.h"
#include "core/formats/xplane/xplane_derived.h"
#include "core/formats/xplane/xplane_event.h"
#include "core/formats/xplane/xplane_kernel_details.h"
#include "core/formats/xplane/xplane_layout.h"
#include "core/formats/xplane/xplane_stats.h"
#include "core/store/blocks.h"

namespace strata {

namespace {

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

class PlaneImporter {
 public:
  PlaneImporter(XSpaceImport* ctx, const uint8_t* data, size_t n, uint64_t base, bool truncated)
      : ctx_(ctx),
        b_(*ctx->builder),
        data_(data),
        end_(data + n),
        base_(base),
        truncated_(truncated),
        plane_number_(ctx->summary->size() + 1) {}

  std::string run() {
    scan();
    ctx_->tables->planes.emplace_back();
    plane_index_ = static_cast<uint32_t>(ctx_->tables->planes.size() - 1);
    XPlaneTables& pt = tables();
    pt.name = sanitize_utf8(name_);
    pt.id = plane_id_;
    kind_ = plane_kind(name_);
    read_stat_metadata();
    read_event_metadata();
    read_plane_stats();
    SourcePlane summary;
    summary.name = sanitize_utf8(name_);
    lines_.reserve(line_spans_.size());
    for (const Span& s : line_spans_) {
      lines_.push_back(scan_line(s));
      summary.lines.push_back({sanitize_utf8(lines_.back().name), lines_.back().events});
    }
    ctx_->summary->push_back(std::move(summary));
    if (kind_ == PlaneKind::kHost) group_thread_pools();
    choose_derive_source();
    reserve();
    for (LineInfo& line : lines_) read_events(line);
    derive();
    return std::string(name_);
  }

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
  void scan() {
    wire::Reader r(data_, end_);
    wire::Field f;
    for (;;) {
      wire::Status st = r.next(&f);
      if (st == wire::Status::kEnd) break;
      if (st != wire::Status::kOk) {
        uint32_t number;
        Span part;
        if (truncated_ && st == wire::Status::kTruncated) {
          // Keep the events of a line the cut went through.
          if (partial_field(r.field_start, &number, &part) && number == 3) {
            line_spans_.push_back(part);
            partial_line_ = part.p;
          }
        } else {
          damage(r.field_start, r.why, "the XPlane",
                 "the rest of this plane (its metadata when the damage is in its lines) is lost");
        }
        break;
      }
      switch (f.number) {
        case 1:
          if (f.type == wire::kVarint) plane_id_ = wire::as_int64(f.value);
          break;
        case 2:
          if (f.type == wire::kLen) name_ = f.text();
          break;
        case 3:
          if (f.type == wire::kLen) line_spans_.push_back({f.data, f.size});
          break;
        case 4:
          if (f.type == wire::kLen) event_meta_.push_back({f.data, f.size});
          break;
        case 5:
          if (f.type == wire::kLen) stat_meta_.push_back({f.data, f.size});
          break;
        case 6:
          if (f.type == wire::kLen) plane_stats_.push_back({f.data, f.size});
          break;
        default:
          break;  // unknown fields
      }
    }
  }

  // A map<int64, M> entry: key (1) and value (2). False when malformed.
  bool map_entry(const Span& s, int64_t* key, Span* value) {
    wire::Reader r(s.p, s.n);
    wire::Field f;
    bool has_key = false;
    *value = Span{s.p, 0};
    for (;;) {
      wire::Status st = r.next(&f);
      if (st == wire::Status::kEnd) break;
      if (st != wire::Status::kOk) {
        damage(r.field_start, r.why, "a metadata map entry", "that entry is skipped");
        return false;
      }
      if (f.number == 1 && f.type == wire::kVarint) *key = wire::as_int64(f.value), has_key = true;
      if (f.number == 2 && f.type == wire::kLen) *value = Span{f.data, f.size};
    }
    if (!has_key) *key = 0;
    return true;
  }

  void read_stat_metadata() {
    XPlaneTables& pt = tables();
    pt.stat_names.items.reserve(stat_meta_.size());
    for (const Span& e : stat_meta_) {
      int64_t key;
      Span v;
      if (!map_entry(e, &key, &v)) continue;
      std::string_view name;
      wire::Reader r(v.p, v.n);
      wire::Field f;
      wire::Status st;
      while ((st = r.next(&f)) == wire::Status::kOk)
        if (f.number == 2 && f.type == wire::kLen) name = f.text();
      if (st != wire::Status::kEnd)
        damage(r.field_start, r.why, "an XStatMetadata", "its name may be missing");
      pt.stat_names.items.emplace_back(key, b_.strings().intern(name));
    }
    pt.stat_names.sort_unique();
    // Dense id → name for the hot loop when ids are small (they count from 1 in practice).
    const auto& items = pt.stat_names.items;
    if (!items.empty() && items.front().first >= 0 &&
        items.back().first < static_cast<int64_t>(4 * items.size() + 1024)) {
      stat_dense_.assign(static_cast<size_t>(items.back().first) + 1, kNone);
      for (const auto& [id, s] : items) stat_dense_[static_cast<size_t>(id)] = s;
    }
    for (const auto& [id, s] : items) {
      StatRole r = stat_role(b_.strings().get(s));
      if (r == StatRole::kOther) continue;
      if (id >= 0 && id < (1 << 20)) {
        if (role_.size() <= static_cast<size_t>(id)) role_.resize(static_cast<size_t>(id) + 1, 0);
        role_[static_cast<size_t>(id)] = static_cast<uint8_t>(r);
      } else {
        role_sparse_.emplace_back(id, r);
      }
    }
  }

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

  void read_event_metadata() {
    XPlaneTables& pt = tables();
    std::vector<std::pair<int64_t, MetaHot>> hot;
    hot.reserve(event_meta_.size());
    pt.event_meta.items.reserve(event_meta_.size());
    for (const Span& e : event_meta_) {
      int64_t key;
      Span v;
      if (!map_entry(e, &key, &v)) continue;
      std::string_view name, display;
      XPlaneTables::EventMeta em;
      MetaHot mh;
      em.stats_at = static_cast<uint32_t>(pt.stats.size());
      int64_t program_id = key;
      const uint8_t* hlo = nullptr;
      size_t hlo_len = 0;
      wire::Reader r(v.p, v.n);
      wire::Field f;
      wire::Status st;
      while ((st = r.next(&f)) == wire::Status::kOk) {
        if (f.type != wire::kLen) continue;
        if (f.number == 2) name = f.text();
        if (f.number == 4) display = f.text();
        if (f.number != 5) continue;
        StatValue sv;
        const char* why = "";
        if (!decode_stat(f.data, f.size, &sv, &why)) {
          damage(f.data, why, "an XStat of an XEventMetadata", "that stat is skipped");
          continue;
        }
        switch (role(sv.metadata_id)) {
          case StatRole::kTfOp:
            mh.tf_op = text_id(sv);
            break;
          case StatRole::kSource:
            mh.source = text_id(sv);
            break;
          case StatRole::kIsAsync:
            mh.is_async = sv.is_integer() && sv.bits != 0;
            break;
          case StatRole::kProgramId:
            if (sv.is_integer()) program_id = sv.as_int();
            break;
          case StatRole::kHloProto:
            if (sv.kind == StatValue::kBytes) {
              hlo = reinterpret_cast<const uint8_t*>(sv.s.data());
              hlo_len = sv.s.size();
            }
            break;
          default:
            break;
        }
        append_stat_field(&pt.stats, f.data, f.size, sv, XPlaneTables::kKeepBytes);
      }
      if (st != wire::Status::kEnd)
        damage(r.field_start, r.why, "an XEventMetadata", "its later fields are skipped");
      em.stats_len = static_cast<uint32_t>(pt.stats.size() - em.stats_at);
      em.name = b_.strings().intern(name);
      em.display = display.empty() ? 0 : b_.strings().intern(display);
      mh.name = em.display ? em.display : em.name;
      if (kind_ == PlaneKind::kHost && em.display && em.display != em.name) mh.full = em.name;
      if (hlo) {
        ctx_->tables->hlo_protos.push_back(HloProtoSpan{
            program_id, std::string(b_.strings().get(em.name)), ctx_->src_base + at(hlo), hlo_len});
        std::string why;
        if (!add_hlo_symbols(hlo, hlo_len, program_id, &b_.strings(), &ctx_->hlo_symbols, &why,
                             &ctx_->tables->hlo_ops))
          b_.warning("the HLO module " + sanitize_utf8(b_.strings().get(em.name)) + " in " +
                     where() + " does not parse (" + why +
                     "): its GPU framework ops are not shown");
      }
      pt.event_meta.items.emplace_back(key, em);
      hot.emplace_back(key, mh);
    }
    pt.event_meta.sort_unique();
    std::stable_sort(hot.begin(), hot.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    // Last definition of an id wins (protobuf map semantics), as in sort_unique.
    for (auto& [id, mh] : hot) {
      if (!meta_sparse_.empty() && meta_sparse_.back().first == id)
        meta_sparse_.back().second = mh;
      else
        meta_sparse_.emplace_back(id, mh);
    }
    if (!meta_sparse_.empty() && meta_sparse_.front().first >= 0 &&
        meta_sparse_.back().first < static_cast<int64_t>(4 * meta_sparse_.size() + 1024)) {
      meta_dense_.assign(static_cast<size_t>(meta_sparse_.back().first) + 1, kNone);
      for (uint32_t i = 0; i < meta_sparse_.size(); ++i)
        meta_dense_[static_cast<size_t>(meta_sparse_[i].first)] = i;
    }
  }

  // Kept for the analyses (the roofline's peaks), in the wire form of the metadata stats.
  void read_plane_stats() {
    XPlaneTables& pt = tables();
    pt.plane_stats_at = static_cast<uint32_t>(pt.stats.size());
    for (const Span& s : plane_stats_) {
      StatValue sv;
      const char* why = "";
      if (decode_stat(s.p, s.n, &sv, &why))
        append_stat_field(&pt.stats, s.p, s.n, sv, XPlaneTables::kKeepBytes);
    }
    pt.plane_stats_len = static_cast<uint32_t>(pt.stats.size() - pt.plane_stats_at);
  }

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
  LineInfo scan_line(const Span& s) {
    LineInfo line;
    line.begin = s.p;
    line.end = s.p + s.n;
    line.partial = s.p == partial_line_;
    // In blocks of fields (core/store/blocks.h), as the events are read later: a host line
    // holds up to millions of events.
    wire::Reader r(s.p, s.n);
    while_blocks([&] {
      wire::Field f;
      for (size_t k = 0; k < kLoopBlock; ++k) {
        wire::Status st = r.next(&f);
        if (st == wire::Status::kEnd) return false;
        if (st != wire::Status::kOk) {
          line.end = r.field_start;
          if (!(line.partial && st == wire::Status::kTruncated)) {
            damage(r.field_start, r.why, "an XLine", "the rest of this line is lost");
            line.partial = true;  // its events before the damage are still read
          }
          return false;
        }
        apply_line_field(&line, f);
      }
      return true;
    });
    return line;
  }

  // XProf's ThreadPoolGrouper: pools of two or more threads get their own section, in name
  // order; other threads stay in the plane's section.
  void group_thread_pools() {
    std::vector<std::pair<std::string_view, uint32_t>> names;  // (pool, line)
    for (uint32_t i = 0; i < lines_.size(); ++i) {
      std::string_view pool = thread_pool_name(lines_[i].shown_name());
      if (!pool.empty()) names.emplace_back(pool, i);
    }
    std::stable_sort(names.begin(), names.end());
    for (size_t k = 0; k < names.size();) {
      size_t e = k;
      while (e < names.size() && names[e].first == names[k].first) ++e;
      if (e - k > 1) {
        auto pool = static_cast<uint32_t>(pools_.size());
        pools_.push_back(names[k].first);
        for (size_t q = k; q < e; ++q) lines_[names[q].second].pool = pool;
      }
      k = e;
    }
  }

  // GPU: XProf derives XLA/framework rows from the stream with the most events (ties: the
  // smaller line id), skipping rows that are themselves derived.
  void choose_derive_source() {
    if (kind_ == PlaneKind::kGpu) {
      int64_t best = -1;
      uint64_t most = 0;
      for (uint32_t i = 0; i < lines_.size(); ++i) {
        const LineInfo& l = lines_[i];
        if (is_derived_line_id(l.id) || l.events == 0) continue;
        if (best < 0 || l.events > most || (l.events == most && l.id < lines_[best].id))
          best = i, most = l.events;
      }
      derive_line_ = best < 0 ? kNone : static_cast<uint32_t>(best);
    }
    auto has = [&](int64_t id, std::initializer_list<std::string_view> names) {
      for (const LineInfo& l : lines_) {
        if (l.id == id) return true;
        for (std::string_view n : names)
          if (l.name == n) return true;
      }
      return false;
    };
    const bool tf_ops = !has(kLineTfOps, {"Framework Ops", "TensorFlow Ops"});
    const bool scope = !has(kLineNameScope, {"Framework Name Scope", "TensorFlow Name Scope"});
    steps_ = kind_ == PlaneKind::kGpu && !has(kLineSteps, {"Steps"});
    if (kind_ == PlaneKind::kGpu && derive_line_ != kNone) {
      rows_.xla_modules = !has(kLineXlaModules, {"XLA Modules"});
      rows_.xla_ops = !has(kLineXlaOps, {"XLA Ops"});
      rows_.tf_ops = tf_ops;
      rows_.name_scope = scope;
      rows_.source = !ctx_->hlo_symbols.empty() && !has(kLineSource, {"Source code"});
    } else if (kind_ == PlaneKind::kTpu && is_tensor_core(name_)) {
      rows_.tf_ops = tf_ops;
      rows_.name_scope = scope;
      rows_.source = !has(kLineSource, {"Source code"});
    }
  }

  // Room for the plane's events (and a little for derived rows) in the store's columns, so
  // they do not regrow (a copy of every column) while the plane streams in.
  void reserve() {
    uint64_t n = 0;
    for (const LineInfo& l : lines_) n += l.events;
    const EventColumns& ev = b_.store().events;
    const size_t need = ev.size() + static_cast<size_t>(n + n / 16);
    const size_t cap = ev.start.capacity();
    if (need > cap) b_.reserve_events(std::max(need, cap + cap / 2));
  }

  uint32_t process_of(uint32_t pool) {
    uint32_t& slot = pool == kNone ? plane_process_ : pool_process_[pool];
    if (slot != kNone) return slot;
    std::string base = sanitize_utf8(pool == kNone ? name_ : pools_[pool]);
    if (base.empty()) base = "(unnamed plane)";
    std::string key = base;
    for (int k = 2; ctx_->process_plane.count(key); ++k) key = base + " #" + std::to_string(k);
    ctx_->process_plane.emplace(key, plane_index_);
    if (pool == kNone) plane_key_ = key;
    const int64_t pid = xprof_pid(kind_, plane_id_, pool == kNone ? kNone : pool_base_ + pool,
                                  host_index_, plane_index_);
    slot = b_.process(key, pid);
    b_.store().processes[slot].file = ctx_->file;
    b_.set_process_name(slot, b_.strings().intern(key));
    b_.set_process_sort_index(slot, section_sort_index(kind_, pid));
    ctx_->sections.push_back({slot, ctx_->file, base, section_sort_index(kind_, pid)});
    return slot;
  }

  uint32_t track_of(LineInfo& line) {
    if (line.track != kNone) return line.track;
    if (!pools_.empty() && pool_process_.size() != pools_.size())
      pool_process_.assign(pools_.size(), kNone);
    uint32_t p = process_of(line.pool);
    const int64_t id = line.shown_id();
    line.track = b_.thread_track(p, std::to_string(id), id);
    Track& t = b_.store().tracks[line.track];
    if (t.name == 0) {
      b_.set_thread_name(line.track, b_.strings().intern(line.shown_name()));
      b_.set_thread_sort_index(line.track, static_cast<uint32_t>(id));
    }
    return line.track;
  }

  void read_events(LineInfo& line) {
    if (line.events == 0 || starts_with(line.name, "counters_")) return;
    counters_ = line.name == "_counters_";
    collect_ = derive_line_ != kNone ? &line == &lines_[derive_line_]
                                     : (rows_.tf_ops || rows_.name_scope || rows_.source) &&
                                           !is_derived_line_id(line.id);
    // A GPU stream named without its kind of work ("Stream #2") gets it from its events.
    stream_kinds_ = kind_ == PlaneKind::kGpu && starts_with(line.shown_name(), "Stream #") &&
                            line.shown_name().find('(') == std::string_view::npos
                        ? 0
                        : -1;
    // Blocks of events (core/store/blocks.h): V8 runs a wasm function's optimized code only
    // from its next call on (no on-stack replacement), so a host line of a million events read
    // in one call would run baseline code to its end.
    wire::Reader r(line.begin, line.end);
    bool more = true;
    for_blocks(0, line.events, [&](size_t lo, size_t hi) {
      wire::Field f;
      for (size_t k = lo; k < hi && more;) {
        if (r.next(&f) != wire::Status::kOk) {
          more = false;
        } else if (f.number == 4 && f.type == wire::kLen) {
          read_event(line, f.data, f.size);
          ++k;
        }
      }
    });
    if (stream_kinds_ > 0 && line.track != kNone) {
      std::string name(line.shown_name());
      const char* sep = "(";
      for (auto [bit, kind] : {std::pair{1, "Kernel"}, {2, "Memcpy"}, {4, "Memset"}}) {
        if (!(stream_kinds_ & bit)) continue;
        name += sep, name += kind, sep = ",";
      }
      b_.set_thread_name(line.track, b_.strings().intern(name + ")"));
    }
  }

  void malformed(const uint8_t* p, const char* why) {
    if (ctx_->malformed++ == 0) {
      ctx_->malformed_at = at(p);
      ctx_->malformed_why = std::string(why) + " in " + where();
    }
  }

  void read_event(LineInfo& line, const uint8_t* p, size_t n) {
    EventFields e;
    EventStats es;
    series_.clear();
    wire::Reader r(p, n);
    bool stat_ok = true;
    const wire::Status st = walk_event(
        r, &e, [&](const uint8_t* sp, size_t sn) { return stat_ok = read_stat(sp, sn, &es); });
    if (!stat_ok) return;  // read_stat counted it as malformed
    if (st != wire::Status::kEnd) {
      malformed(r.field_start, r.why);
      return;
    }
    if (e.occurrences) {
      ++ctx_->aggregated;
      return;
    }
    TimeNs start, end;
    int64_t end_ps;
    if (__builtin_add_overflow(e.offset_ps, e.duration_ps > 0 ? e.duration_ps : 0, &end_ps) ||
        !ps_to_ns(line.ts_ns, e.offset_ps, &start) || !ps_to_ns(line.ts_ns, end_ps, &end)) {
      malformed(p, "time out of range");
      return;
    }
    const int64_t metadata_id = e.metadata_id;
    const MetaHot* m = meta(metadata_id);
    StrId name;
    if (es.step_name != kNone) {
      name = es.step_name;
    } else if (m) {
      name = m->name;
    } else {
      ++ctx_->missing_meta;
      name = b_.strings().intern("(event metadata #" + std::to_string(metadata_id) + ")");
    }
    ++ctx_->events;
    if (counters_) {
      uint32_t track = b_.counter_track(process_of(kNone), b_.strings().get(name));
      for (const auto& [series, value] : series_) b_.add_counter(track, series, start, value);
      b_.count_phase('C');
      return;
    }
    const uint32_t track = track_of(line);
    const uint64_t src = ctx_->src_base + at(p);  // a record locator: see XSpaceImport
    const uint32_t len = n <= UINT32_MAX ? static_cast<uint32_t>(n) : 0;
    b_.add_complete(track, start, end - start, name, 0, src, len);
    b_.count_phase('X');
    if (m && m->full && name == m->name) ctx_->tables->full_names.emplace_back(src, m->full);
    if (!es.kernel_details.empty()) add_kernel_launch(es.kernel_details, src);
    add_flows(es, track, start);
    if (stream_kinds_ >= 0)
      stream_kinds_ |= (es.kernel ? 1 : 0) | (es.memcpy ? 2 : 0) |
                       (starts_with(b_.strings().get(name), "Memset") ? 4 : 0);
    if (collect_) collect(es, m, start, end, src, len);
    if (steps_ && es.has_group && !is_derived_line_id(line.id)) {
      DeriveInput d;
      d.start = start, d.end = end, d.has_group = true, d.group = es.group;
      d.src_offset = src, d.src_len = len;
      steps_in_.push_back(d);
    }
  }

  // Decodes one XStat of an event and keeps what the importer acts on. False: malformed.
  [[gnu::always_inline]] bool read_stat(const uint8_t* p, size_t n, EventStats* es) {
    StatValue sv;
    const char* why = "";
    if (!decode_stat(p, n, &sv, &why)) {
      malformed(p, why);
      return false;
    }
    if (counters_) {
      if (sv.kind == StatValue::kDouble || sv.is_integer()) {
        StrId s = stat_name(sv.metadata_id);
        if (s == kNone) s = b_.strings().intern("stat #" + std::to_string(sv.metadata_id));
        series_.emplace_back(s, sv.as_number());
      }
      return true;
    }
    switch (role(sv.metadata_id)) {
      case StatRole::kFlow:
        if (sv.is_integer()) es->has_flow = true, es->flow = sv.bits;
        break;
      case StatRole::kCorrelationId:
        if (sv.is_integer()) es->has_corr = true, es->corr = sv.bits;
        break;
      case StatRole::kStepName:
        if (sv.kind == StatValue::kStr || sv.kind == StatValue::kRef) es->step_name = text_id(sv);
        break;
      case StatRole::kGroupId:
        if (sv.is_integer()) es->has_group = true, es->group = sv.as_int();
        break;
      case StatRole::kHloOp:
        if (collect_) es->hlo_op = text_id(sv);
        break;
      case StatRole::kHloModule:
        if (collect_) es->hlo_module = text_id(sv);
        break;
      case StatRole::kProgramId:
        if (sv.is_integer()) es->has_program = true, es->program = sv.as_int();
        break;
      case StatRole::kKernelDetails:
        es->kernel = true;
        if (sv.kind == StatValue::kStr) es->kernel_details = sv.s;
        if (sv.kind == StatValue::kRef) es->kernel_details = b_.strings().get(text_id(sv));
        break;
      case StatRole::kMemcpyDetails:
        es->memcpy = true;
        break;
      case StatRole::kTfOp:
        if (collect_) es->tf_op = text_id(sv);
        break;
      case StatRole::kSource:
        if (collect_) es->source = text_id(sv);
        break;
      case StatRole::kIsAsync:
        es->is_async = sv.is_integer() && sv.bits != 0;
        break;
      default:
        break;
    }
    return true;
  }

  // The kernel's launch parameters, for the kernel statistics (rows sorted by record offset:
  // one file's offsets grow; a later file's start past the earlier ones').
  void add_kernel_launch(std::string_view details, uint64_t src) {
    KernelLaunch k;
    if (!parse_kernel_details(details, &k)) return;
    k.src_offset = src;
    std::vector<KernelLaunch>& rows = b_.store().kernel_launches.rows;
    if (rows.empty() || rows.back().src_offset < src) {
      rows.push_back(k);
    } else {
      auto at =
          std::lower_bound(rows.begin(), rows.end(), src,
                           [](const KernelLaunch& a, uint64_t o) { return a.src_offset < o; });
      if (at == rows.end() || at->src_offset != src) rows.insert(at, k);
    }
  }

  void add_flows(const EventStats& es, uint32_t track, TimeNs start) {
    char key[9];
    if (es.has_flow) {
      XFlow xf = XFlow::decode(es.flow);
      if (xf.direction == 0) return;
      key[0] = 'f';
      std::memcpy(key + 1, &xf.id, 8);
      const char ph = xf.direction == 2 ? 's' : xf.direction == 1 ? 'f' : 't';
      StrId& kind = flow_names_[xf.category & 63];
      if (kind == 0) kind = b_.strings().intern(flow_category_name(xf.category));
      if (xflow_ == kNone) xflow_ = b_.strings().intern("xflow");
      b_.add_flow(TraceBuilder::flow_key(std::string_view(key, 9)), track, ph, false, start, kind,
                  xflow_);
    } else if (es.has_corr && (kind_ == PlaneKind::kHost || kind_ == PlaneKind::kGpu ||
                               kind_ == PlaneKind::kDevice)) {
      // Host launch → device kernel/memcpy with the same correlation id.
      key[0] = 'c';
      std::memcpy(key + 1, &es.corr, 8);
      if (launch_ == kNone) {
        launch_ = b_.strings().intern("launch");
        corr_ = b_.strings().intern("correlation_id");
      }
      b_.add_flow(TraceBuilder::flow_key(std::string_view(key, 9)), track,
                  kind_ == PlaneKind::kHost ? 's' : 'f', false, start, launch_, corr_);
    }
  }

  void collect(const EventStats& es, const MetaHot* m, TimeNs start, TimeNs end, uint64_t src,
               uint32_t len) {
    DeriveInput d;
    d.start = start, d.end = end;
    d.has_group = es.has_group, d.group = es.group;
    d.src_offset = src, d.src_len = len;
    if (kind_ == PlaneKind::kGpu) {
      if (!es.kernel) return;  // XProf derives from kernels only (not memcpy)
      if (es.hlo_module) {
        std::string mod(b_.strings().get(es.hlo_module));
        if (es.has_program) mod += "(" + std::to_string(es.program) + ")";
        d.module = b_.strings().intern(mod);
      }
      d.hlo_op = es.hlo_op;
      if (!es.hlo_op) {
        d.tf_op = es.tf_op;
      } else if (const HloSymbol* s =
                     ctx_->hlo_symbols.find(es.has_program, es.program, es.hlo_module, es.hlo_op)) {
        d.tf_op = s->tf_op;  // XLA ops get framework ops from the HLO proto
        d.source = s->source;
      }
    } else {
      if (es.is_async || (m && m->is_async)) return;
      d.tf_op = es.tf_op ? es.tf_op : m ? m->tf_op : 0;
      d.source = es.source ? es.source : m ? m->source : 0;
      if (!d.tf_op && !d.source) return;
    }
    derive_in_.push_back(d);
  }

  void derive() {
    if (derive_in_.empty() && steps_in_.empty()) return;
    auto track = [&](int64_t line_id, std::string_view name) {
      uint32_t p = process_of(kNone);
      std::string key = std::to_string(line_id);
      uint32_t t = b_.thread_track(p, key, line_id);
      if (b_.store().tracks[t].name == 0) {
        b_.set_thread_name(t, b_.strings().intern(name));
        b_.set_thread_sort_index(t, static_cast<uint32_t>(line_id));
        ctx_->derived.emplace_back(plane_key_, key);
      }
      return t;
    };
    if (!steps_in_.empty()) derive_steps(&steps_in_, &b_, track(kLineSteps, "Steps"));
    std::vector<DeriveInput>().swap(steps_in_);
    if (!derive_in_.empty()) derive_rows(&derive_in_, rows_, &b_, track);
    std::vector<DeriveInput>().swap(derive_in_);
  }

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
  uint32_t plane_index_ = 0;
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

}  // namespace

std::string import_xplane(XSpaceImport* ctx, const uint8_t* data, size_t n, uint64_t base,
                          bool truncated) {
  PlaneImporter p(ctx, data, n, base, truncated);
  p.set_host_numbering(ctx->host_planes, ctx->pool_pid_offset);
  std::string name = p.run();
  if (plane_kind(name) == PlaneKind::kHost) {
    ++ctx->host_planes;
    ctx->pool_pid_offset += p.pools();
  }
  return name;
}

}  // namespace strata
