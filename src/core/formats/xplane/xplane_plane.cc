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

#include "core/formats/xplane/xplane_plane_impl.h"
#include "core/store/blocks.h"

namespace strata {

namespace xplane_impl {

void PlaneImporter::run_symbols() {
  quiet_ = true;
  scan();
  ctx_->tables->planes.emplace_back();
  plane_index_ = static_cast<uint32_t>(ctx_->tables->planes.size() - 1);
  kind_ = plane_kind(name_);
  read_stat_metadata();
  read_event_metadata();
}

std::string PlaneImporter::run() {
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

void PlaneImporter::run_part(uint32_t lo, uint32_t hi) {
  const bool later = lo > 0;  // the plane's tables, summary and metadata messages are the first's
  PendingPlane& pp = ctx_->pending;
  XSpaceTables& xt = *ctx_->tables;
  const size_t protos = xt.hlo_protos.size();
  if (later && pp.active) file_plane_ = pp.file_plane;
  if (file_plane_ != kNone) plane_number_ = file_plane_ + 1;
  scan();
  xt.planes.emplace_back();
  plane_index_ = static_cast<uint32_t>(xt.planes.size() - 1);
  XPlaneTables& pt = tables();
  pt.name = sanitize_utf8(name_);
  pt.id = plane_id_;
  kind_ = plane_kind(name_);
  quiet_ = later;
  read_stat_metadata();
  read_event_metadata();
  read_plane_stats();
  hi = std::min<uint32_t>(hi, static_cast<uint32_t>(line_spans_.size()));
  SourcePlane summary;
  summary.name = sanitize_utf8(name_);
  lines_.reserve(line_spans_.size());
  // A later part of a plane whose sections and derived rows do not depend on the other lines'
  // events (not a host's pools, not a GPU's busiest stream) reads only their headers.
  const bool heads_only = later && kind_ != PlaneKind::kHost && kind_ != PlaneKind::kGpu;
  for (uint32_t i = 0; i < line_spans_.size(); ++i) {
    quiet_ = i < lo || i >= hi;  // each part reports the damage of its own lines
    lines_.push_back(quiet_ && heads_only ? line_head(line_spans_[i]) : scan_line(line_spans_[i]));
    summary.lines.push_back({sanitize_utf8(lines_.back().name), lines_.back().events});
  }
  quiet_ = false;
  if (!later) ctx_->summary->push_back(std::move(summary));
  if (kind_ == PlaneKind::kHost) group_thread_pools();
  choose_derive_source();
  load_pending();
  uint64_t n = 0;
  for (uint32_t i = lo; i < hi; ++i) n += lines_[i].events;
  const EventColumns& ev = b_.store().events;
  if (ev.size() + n > ev.start.capacity()) b_.reserve_events(ev.size() + n + n / 16);
  for (uint32_t i = lo; i < hi; ++i) read_events(lines_[i]);
  save_pending(lo, hi);
  if (later) {
    // The first part keeps the plane's tables and HLO modules: this part's copy goes.
    xt.planes.pop_back();
    xt.hlo_protos.resize(protos);
  }
}

// The sections earlier parts made (read where the first part was), so their keys are kept.
void PlaneImporter::load_pending() {
  const PendingPlane& pp = ctx_->pending;
  if (!pp.active) return;
  plane_process_ = pp.process.empty() ? kNone : pp.process[0];
  if (!pp.key.empty()) plane_key_ = pp.key[0];
  pool_process_.assign(pools_.size(), kNone);
  for (size_t k = 0; k < pools_.size() && k + 1 < pp.process.size(); ++k)
    pool_process_[k] = pp.process[k + 1];
}

void PlaneImporter::save_pending(uint32_t lo, uint32_t hi) {
  PendingPlane& pp = ctx_->pending;
  if (!pp.active) {
    pp = PendingPlane{};
    pp.active = true;
    pp.file_plane = file_plane();
    pp.first_line = lo;
    pp.lines = static_cast<uint32_t>(lines_.size());
    pp.host = kind_ == PlaneKind::kHost;
    pp.pools = static_cast<uint32_t>(pools_.size());
    pp.process.assign(1 + pools_.size(), kNone);
    pp.key.assign(1 + pools_.size(), std::string());
    pp.base.assign(1 + pools_.size(), std::string());
  }
  pp.next_line = hi;
  pp.rows = rows_;
  auto slot = [&](size_t s, uint32_t process, std::string_view name) {
    if (process == kNone || pp.process[s] != kNone) return;
    pp.process[s] = process;
    pp.key[s] = b_.store().processes[process].key;
    pp.base[s] = sanitize_utf8(name);
    if (pp.base[s].empty()) pp.base[s] = "(unnamed plane)";
  };
  slot(0, plane_process_, name_);
  for (size_t k = 0; k < pool_process_.size(); ++k) slot(k + 1, pool_process_[k], pools_[k]);
  pp.derive_in.insert(pp.derive_in.end(), derive_in_.begin(), derive_in_.end());
  pp.steps_in.insert(pp.steps_in.end(), steps_in_.begin(), steps_in_.end());
}

// Pass 1 over the plane's fields: where its lines and metadata maps are.
void PlaneImporter::scan() {
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
bool PlaneImporter::map_entry(const Span& s, int64_t* key, Span* value) {
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

void PlaneImporter::read_stat_metadata() {
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

void PlaneImporter::read_event_metadata() {
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
                           &ctx_->tables->hlo_ops) &&
          !quiet_)
        b_.warning("the HLO module " + sanitize_utf8(b_.strings().get(em.name)) + " in " + where() +
                   " does not parse (" + why + "): its GPU framework ops are not shown");
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
void PlaneImporter::read_plane_stats() {
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

// Pass 1 over a line: its header fields (display_name and display_id come after the events
// in the file) and how many events it has.
LineInfo PlaneImporter::scan_line(const Span& s) {
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

// A line's id, name and timestamp, written before its events: what choose_derive_source asks
// of a TPU or other device plane's lines.
LineInfo PlaneImporter::line_head(const Span& s) {
  LineInfo line;
  line.begin = s.p;
  line.end = s.p + s.n;
  wire::Reader r(s.p, s.n);
  wire::Field f;
  while (r.next(&f) == wire::Status::kOk && f.number != 4) apply_line_field(&line, f);
  line.events = 0;
  return line;
}

// XProf's ThreadPoolGrouper: pools of two or more threads get their own section, in name
// order; other threads stay in the plane's section.
void PlaneImporter::group_thread_pools() {
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
void PlaneImporter::choose_derive_source() {
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
void PlaneImporter::reserve() {
  uint64_t n = 0;
  for (const LineInfo& l : lines_) n += l.events;
  const EventColumns& ev = b_.store().events;
  const size_t need = ev.size() + static_cast<size_t>(n + n / 16);
  const size_t cap = ev.start.capacity();
  if (need > cap) b_.reserve_events(std::max(need, cap + cap / 2));
}

uint32_t PlaneImporter::process_of(uint32_t pool) {
  uint32_t& slot = pool == kNone ? plane_process_ : pool_process_[pool];
  if (slot != kNone) return slot;
  std::string base = sanitize_utf8(pool == kNone ? name_ : pools_[pool]);
  if (base.empty()) base = "(unnamed plane)";
  std::string key = base;
  for (int k = 2; ctx_->process_plane.count(key); ++k) key = base + " #" + std::to_string(k);
  ctx_->process_plane.emplace(key, file_plane());
  if (pool == kNone) plane_key_ = key;
  const int64_t pid = xprof_pid(kind_, plane_id_, pool == kNone ? kNone : pool_base_ + pool,
                                host_index_, file_plane());
  slot = b_.process(key, pid);
  b_.store().processes[slot].file = ctx_->file;
  b_.set_process_name(slot, b_.strings().intern(key));
  b_.set_process_sort_index(slot, section_sort_index(kind_, pid));
  XSpaceImport::Section section{slot, ctx_->file, base, section_sort_index(kind_, pid)};
  if (kind_ == PlaneKind::kHost) {
    if (pool == kNone)
      section.host = host_index_;
    else
      section.pool = pool_base_ + pool;
  }
  ctx_->sections.push_back(std::move(section));
  return slot;
}

uint32_t PlaneImporter::track_of(LineInfo& line) {
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

}  // namespace xplane_impl

std::string import_xplane(XSpaceImport* ctx, const uint8_t* data, size_t n, uint64_t base,
                          bool truncated) {
  xplane_impl::PlaneImporter p(ctx, data, n, base, truncated);
  p.set_host_numbering(ctx->host_planes, ctx->pool_pid_offset);
  std::string name = p.run();
  if (plane_kind(name) == PlaneKind::kHost) {
    ++ctx->host_planes;
    ctx->pool_pid_offset += p.pools();
  }
  return name;
}

void import_xplane_part(XSpaceImport* ctx, const uint8_t* data, size_t n, uint64_t base,
                        uint32_t lo, uint32_t hi) {
  xplane_impl::PlaneImporter p(ctx, data, n, base, false);
  p.set_host_numbering(ctx->host_planes, ctx->pool_pid_offset);
  p.run_part(lo, hi);
  const PendingPlane& pp = ctx->pending;
  if (pp.first_line == 0 && pp.next_line >= pp.lines) finish_pending_plane(ctx);
}

void read_xplane_symbols(XSpaceImport* ctx, const uint8_t* data, size_t n, uint64_t base) {
  XSpaceTables scratch;  // the plane's tables are the slice that imports it's
  std::vector<SourcePlane> summary;
  XSpaceTables* tables = ctx->tables;
  std::vector<SourcePlane>* planes = ctx->summary;
  ctx->tables = &scratch, ctx->summary = &summary;
  xplane_impl::PlaneImporter(ctx, data, n, base, false).run_symbols();
  ctx->tables = tables, ctx->summary = planes;
}

}  // namespace strata
