// The sliced XSpace path (xplane_sliced.h): cut points, a later slice's start, the merge.
#include "core/formats/xplane/xplane_sliced.h"

#include <chrono>
#include <cstdlib>

#include "core/formats/xplane/xplane_importer_impl.h"
#include "core/formats/xplane/xplane_layout.h"

namespace strata::xplane_impl {

namespace {

// A problem counted with the position of its first occurrence: the earlier part's first wins.
void merge_first(uint64_t* count, uint64_t* at, std::string* why, uint64_t later_count,
                 uint64_t later_at, const std::string& later_why) {
  if (*count == 0 && later_count) *at = later_at, *why = later_why;
  *count += later_count;
}

}  // namespace

void XPlaneImporter::begin_slice(uint64_t base, uint32_t planes_before) {
  pos_ = field_start_ = slice_begin_ = base;  // so offsets in records and messages are the file's
  ctx_.plane_base = planes_before;
}

void XPlaneImporter::add_context(const uint8_t* data, size_t n, uint64_t base) {
  read_xplane_symbols(&ctx_, data, n, base);
}

bool XPlaneImporter::at_field_boundary() const {
  return !stopped_ && !finished_ && state_ == State::kHeader && !head_.pending();
}

bool XPlaneImporter::can_absorb(const XPlaneImporter& later) const {
  if (!at_field_boundary() || later.slice_begin_ != pos_) return false;
  if (later.ctx_.plane_base != ctx_.plane_base + store_->planes.size()) return false;
  for (const auto& kv : later.ctx_.process_plane)
    if (ctx_.process_plane.count(kv.first)) return false;
  return true;
}

void XPlaneImporter::absorb(XPlaneImporter& later) {
  TraceStore& src = *later.store_;
  TraceStore& dst = *store_;
  const uint32_t hosts = ctx_.host_planes, pools = ctx_.pool_pid_offset;
  builder_.absorb(later.builder_);
  // The part's strings are all in this store now: look its ids up.
  auto str = [&](StrId s) { return s == kNone ? s : dst.strings.intern(src.strings.get(s)); };

  XSpaceImport& lc = later.ctx_;
  for (XSpaceImport::Section s : lc.sections) {
    const Process& p = src.processes[s.process];
    s.process = builder_.process(p.key, p.pid);
    if (s.host != kNone) s.host += hosts;
    if (s.pool != kNone) s.pool += pools;
    // The part numbered its host sections from 0: renumber by the host planes before it.
    if ((s.host != kNone || s.pool != kNone) && (hosts || pools)) {
      const int64_t pid = xprof_pid(PlaneKind::kHost, 0, s.pool, s.host, 0);
      dst.processes[s.process].pid = pid;
      s.sort = section_sort_index(PlaneKind::kHost, pid);
      builder_.set_process_sort_index(s.process, s.sort);
    }
    ctx_.sections.push_back(std::move(s));
  }
  ctx_.events += lc.events;
  ctx_.host_planes += lc.host_planes;
  ctx_.pool_pid_offset += lc.pool_pid_offset;
  for (auto& kv : lc.process_plane) ctx_.process_plane.insert(kv);
  ctx_.derived.insert(ctx_.derived.end(), lc.derived.begin(), lc.derived.end());
  ctx_.aggregated += lc.aggregated;
  ctx_.missing_meta += lc.missing_meta;
  merge_first(&ctx_.malformed, &ctx_.malformed_at, &ctx_.malformed_why, lc.malformed,
              lc.malformed_at, lc.malformed_why);
  // Later definitions win, as add_hlo_symbols has them (the symbols of a context plane are the
  // ones this importer read from that plane).
  for (const auto& [program, table] : lc.hlo_symbols.by_program) {
    auto& to = ctx_.hlo_symbols.by_program[program];
    for (const auto& [instr, sym] : table)
      to[str(instr)] = HloSymbol{str(sym.tf_op), str(sym.source)};
  }
  for (const auto& [module, program] : lc.hlo_symbols.program_of_module)
    ctx_.hlo_symbols.program_of_module[str(module)] = program;

  XSpaceTables& dt = *tables_;
  XSpaceTables& st = *later.tables_;
  for (XPlaneTables& p : st.planes) {
    for (auto& item : p.stat_names.items) item.second = str(item.second);
    for (auto& item : p.event_meta.items) {
      item.second.name = str(item.second.name);
      if (item.second.display) item.second.display = str(item.second.display);
    }
    dt.planes.push_back(std::move(p));
  }
  for (std::string& h : st.hostnames) dt.hostnames.push_back(std::move(h));
  for (HloProtoSpan& h : st.hlo_protos) dt.hlo_protos.push_back(std::move(h));
  for (auto& [program, texts] : st.hlo_ops.by_program) {
    auto& to = dt.hlo_ops.by_program[program];
    for (auto& [instr, text] : texts) to[instr] = std::move(text);
  }
  for (const auto& [module, program] : st.hlo_ops.program_of_module)
    dt.hlo_ops.program_of_module[module] = program;
  for (const auto& [offset, name] : st.full_names) dt.full_names.emplace_back(offset, str(name));
  for (SourcePlane& p : src.planes) dst.planes.push_back(std::move(p));
  later.tables_ = std::make_shared<XSpaceTables>();
  src.planes.clear();

  // later's framing goes on here: a file cut off inside its last field is finished here.
  state_ = later.state_;
  pos_ = later.pos_;
  field_start_ = later.field_start_;
  head_ = later.head_;
  number_ = later.number_;
  body_len_ = later.body_len_;
  body_start_ = later.body_start_;
  body_.swap(later.body_);
  stopped_ = later.stopped_;
}

}  // namespace strata::xplane_impl

namespace strata {

namespace {

// A plane's name: its field 2, written after the id and before the lines.
std::string_view plane_name(const uint8_t* p, size_t n) {
  wire::Reader r(p, n);
  wire::Field f;
  while (r.next(&f) == wire::Status::kOk && f.number < 3)
    if (f.number == 2 && f.type == wire::kLen) return f.text();
  return {};
}

// The top-level fields, up to the first that is corrupt or runs past the end.
std::vector<XSpaceField> top_fields(std::string_view data) {
  std::vector<XSpaceField> out;
  XSpaceField f;
  for (uint64_t at = 0; at < data.size(); at = f.end) {
    if (!xspace_field_at(data.substr(at), at, data.size(), &f)) break;
    out.push_back(f);
  }
  return out;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

xplane_impl::XPlaneImporter& imp(Importer& i) {
  return static_cast<xplane_impl::XPlaneImporter&>(i);
}
const xplane_impl::XPlaneImporter& imp(const Importer& i) {
  return static_cast<const xplane_impl::XPlaneImporter&>(i);
}

}  // namespace

bool xspace_field_at(std::string_view window, uint64_t at, uint64_t file_size, XSpaceField* out) {
  auto* bytes = reinterpret_cast<const uint8_t*>(window.data());
  const uint8_t* p = bytes;
  const uint8_t* end = bytes + window.size();
  uint64_t tag, len = 0;
  if (!wire::read_varint(p, end, &tag)) return false;
  const uint64_t number = tag >> 3;
  const uint8_t type = tag & 7;
  if (number == 0 || number > 0x1fffffff) return false;
  switch (type) {
    case wire::kVarint:
      if (!wire::read_varint(p, end, &len)) return false;
      len = 0;
      break;
    case wire::kLen:
      if (!wire::read_varint(p, end, &len)) return false;
      break;
    case wire::kFixed64:
      len = 8;
      break;
    case wire::kFixed32:
      len = 4;
      break;
    default:
      return false;
  }
  const uint64_t body = at + static_cast<uint64_t>(p - bytes);
  if (body > file_size || len > file_size - body) return false;
  *out = XSpaceField{};
  out->at = at, out->end = body + len;
  out->plane = number == 1 && type == wire::kLen;
  if (out->plane) {
    out->body = body, out->len = len;
    const size_t have = std::min<uint64_t>(len, static_cast<uint64_t>(end - p));
    // Planes of no device or host (the metadata plane): later planes may use their HLO symbols.
    out->context = plane_kind(plane_name(p, have)) == PlaneKind::kOther;
  }
  return true;
}

std::vector<uint64_t> xspace_cut_points(std::string_view data, size_t slices) {
  return xspace_cuts_of(top_fields(data), data.size(), slices);
}

std::vector<uint64_t> xspace_cuts_of(const std::vector<XSpaceField>& fields, uint64_t size,
                                     size_t slices) {
  std::vector<uint64_t> cuts;
  if (slices < 2) return cuts;
  for (size_t k = 1; k < slices; ++k) {
    const uint64_t target = size / slices * k;
    uint64_t best = 0;
    for (const XSpaceField& t : fields) {
      if (t.at == 0 || (!cuts.empty() && t.at <= cuts.back())) continue;
      if (best == 0 || std::llabs(static_cast<long long>(t.at - target)) <
                           std::llabs(static_cast<long long>(best - target)))
        best = t.at;
    }
    if (best != 0) cuts.push_back(best);
  }
  return cuts;
}

std::vector<XSpaceSliceSpec> xspace_slice_specs(std::string_view data,
                                                const std::vector<uint64_t>& cuts) {
  return xspace_specs_of(top_fields(data), data.size(), cuts);
}

std::vector<XSpaceSliceSpec> xspace_specs_of(const std::vector<XSpaceField>& fields, uint64_t size,
                                             const std::vector<uint64_t>& cuts) {
  std::vector<uint64_t> bounds = {0};
  bounds.insert(bounds.end(), cuts.begin(), cuts.end());
  bounds.push_back(size);
  std::vector<XSpaceSliceSpec> specs;
  for (size_t i = 0; i + 1 < bounds.size(); ++i) {
    XSpaceSliceSpec s;
    s.begin = bounds[i], s.end = bounds[i + 1];
    for (const XSpaceField& t : fields) {
      if (t.at >= s.begin) break;
      if (!t.plane) continue;
      ++s.planes_before;
      if (t.context) s.context.emplace_back(t.body, t.len);
    }
    specs.push_back(std::move(s));
  }
  return specs;
}

std::unique_ptr<XSpaceSlice> XSpaceSlice::first(TraceStore* store) {
  std::unique_ptr<XSpaceSlice> s(new XSpaceSlice);
  s->importer_ = std::make_unique<xplane_impl::XPlaneImporter>(store);
  return s;
}

std::unique_ptr<XSpaceSlice> XSpaceSlice::later(const XSpaceSliceSpec& spec) {
  std::unique_ptr<XSpaceSlice> s(new XSpaceSlice);
  s->own_store_ = std::make_unique<TraceStore>();
  auto i = std::make_unique<xplane_impl::XPlaneImporter>(s->own_store_.get());
  i->begin_slice(spec.begin, spec.planes_before);
  s->importer_ = std::move(i);
  return s;
}

XSpaceSlice::~XSpaceSlice() = default;

void XSpaceSlice::context(const uint8_t* plane, size_t n, uint64_t offset) {
  imp(*importer_).add_context(plane, n, offset);
}

void XSpaceSlice::feed(const uint8_t* data, size_t n) { importer_->feed(data, n); }

bool XSpaceSlice::can_absorb(const XSpaceSlice& next) const {
  return imp(*importer_).can_absorb(imp(*next.importer_));
}

void XSpaceSlice::absorb(XSpaceSlice& next) { imp(*importer_).absorb(imp(*next.importer_)); }

std::unique_ptr<Importer> make_xspace_slice_head(TraceStore* store) {
  return std::make_unique<xplane_impl::XPlaneImporter>(store);
}

bool xspace_head_at_boundary(const Importer& head) { return imp(head).at_field_boundary(); }

bool xspace_head_can_absorb(const Importer& head, const XSpaceSlice& later) {
  return imp(head).can_absorb(imp(*later.importer_));
}

void xspace_head_absorb(Importer& head, XSpaceSlice& later) {
  imp(head).absorb(imp(*later.importer_));
}

SlicedImportResult import_xspace_sliced(TraceStore* store, std::string_view data, size_t slices,
                                        SlicedImportStats* stats, const SliceRunner& run) {
  return import_xspace_at(store, data, xspace_cut_points(data, slices), stats, run);
}

SlicedImportResult import_xspace_at(TraceStore* store, std::string_view data,
                                    const std::vector<uint64_t>& cuts, SlicedImportStats* stats,
                                    const SliceRunner& run) {
  SlicedImportStats local;
  SlicedImportStats& st = stats ? *stats : local;
  st = SlicedImportStats{};
  st.cuts = cuts;
  auto* bytes = reinterpret_cast<const uint8_t*>(data.data());
  const std::vector<XSpaceSliceSpec> specs = xspace_slice_specs(data, cuts);
  const size_t n = specs.size();
  std::vector<std::unique_ptr<XSpaceSlice>> parts(n);
  st.slice_seconds.assign(n, 0);
  auto job = [&](size_t i) {
    const auto t0 = std::chrono::steady_clock::now();
    const XSpaceSliceSpec& s = specs[i];
    auto part = i == 0 ? XSpaceSlice::first(store) : XSpaceSlice::later(s);
    for (const auto& [at, len] : s.context) part->context(bytes + at, len, at);
    part->feed(bytes + s.begin, s.end - s.begin);
    st.slice_seconds[i] = seconds_since(t0);
    parts[i] = std::move(part);
  };
  if (run) {
    run(n, job);
  } else {
    for (size_t i = 0; i < n; ++i) job(i);
  }

  const auto t0 = std::chrono::steady_clock::now();
  XSpaceSlice& head = *parts[0];
  for (size_t i = 1; i < n; ++i) {
    if (head.can_absorb(*parts[i])) {
      head.absorb(*parts[i]);
    } else {
      ++st.refused;  // not at a field boundary, or a name repeats across the cut: read in line
      head.feed(bytes + specs[i].begin, specs[i].end - specs[i].begin);
    }
    parts[i].reset();
  }
  st.merge_seconds = seconds_since(t0);
  const auto t1 = std::chrono::steady_clock::now();
  Importer& i = head.importer();
  i.finish();
  st.finish_seconds = seconds_since(t1);
  return SlicedImportResult{i.failed(), i.failure(), i.records()};
}

}  // namespace strata
