// Pass 2 of import_xplane (xplane_plane_impl.h): a plane's events into the store, with their
// flows (XFlow stats, or correlation ids from host launches to device work), kernel launch
// parameters, and the inputs of the rows derived from them (Steps, XLA and framework ops).
#include "core/formats/xplane/xplane_kernel_details.h"
#include "core/formats/xplane/xplane_plane_impl.h"
#include "core/store/blocks.h"

namespace strata::xplane_impl {

// Decodes one XStat of an event and keeps what the importer acts on. False: malformed.
[[gnu::always_inline]] inline bool PlaneImporter::read_stat(const uint8_t* p, size_t n,
                                                            EventStats* es) {
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

void PlaneImporter::read_events(LineInfo& line) {
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

void PlaneImporter::read_event(LineInfo& line, const uint8_t* p, size_t n) {
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

// The kernel's launch parameters, for the kernel statistics (rows sorted by record offset:
// one file's offsets grow; a later file's start past the earlier ones').
void PlaneImporter::add_kernel_launch(std::string_view details, uint64_t src) {
  KernelLaunch k;
  if (!parse_kernel_details(details, &k)) return;
  k.src_offset = src;
  std::vector<KernelLaunch>& rows = b_.store().kernel_launches.rows;
  if (rows.empty() || rows.back().src_offset < src) {
    rows.push_back(k);
  } else {
    auto at = std::lower_bound(rows.begin(), rows.end(), src,
                               [](const KernelLaunch& a, uint64_t o) { return a.src_offset < o; });
    if (at == rows.end() || at->src_offset != src) rows.insert(at, k);
  }
}

void PlaneImporter::add_flows(const EventStats& es, uint32_t track, TimeNs start) {
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

void PlaneImporter::collect(const EventStats& es, const MetaHot* m, TimeNs start, TimeNs end,
                            uint64_t src, uint32_t len) {
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

void PlaneImporter::derive() {
  derive_plane(
      ctx_, [&] { return process_of(kNone); }, plane_key_, rows_, &derive_in_, &steps_in_);
}

void derive_plane(XSpaceImport* ctx, const std::function<uint32_t()>& plane_process,
                  const std::string& plane_key, const DeriveRows& rows,
                  std::vector<DeriveInput>* derive_in, std::vector<DeriveInput>* steps_in) {
  if (derive_in->empty() && steps_in->empty()) return;
  TraceBuilder& b = *ctx->builder;
  auto track = [&](int64_t line_id, std::string_view name) {
    uint32_t p = plane_process();
    std::string key = std::to_string(line_id);
    uint32_t t = b.thread_track(p, key, line_id);
    if (b.store().tracks[t].name == 0) {
      b.set_thread_name(t, b.strings().intern(name));
      b.set_thread_sort_index(t, static_cast<uint32_t>(line_id));
      ctx->derived.emplace_back(plane_key, key);
    }
    return t;
  };
  if (!steps_in->empty()) derive_steps(steps_in, &b, track(kLineSteps, "Steps"));
  std::vector<DeriveInput>().swap(*steps_in);
  if (!derive_in->empty()) derive_rows(derive_in, rows, &b, track);
  std::vector<DeriveInput>().swap(*derive_in);
}

}  // namespace strata::xplane_impl

namespace strata {

void finish_pending_plane(XSpaceImport* ctx) {
  PendingPlane& pp = ctx->pending;
  if (!pp.active) return;
  if (pp.process[0] != kNone)
    xplane_impl::derive_plane(
        ctx, [&] { return pp.process[0]; }, pp.key[0], pp.rows, &pp.derive_in, &pp.steps_in);
  if (pp.host) {
    ++ctx->host_planes;
    ctx->pool_pid_offset += pp.pools;
  }
  pp = PendingPlane{};
}

}  // namespace strata
