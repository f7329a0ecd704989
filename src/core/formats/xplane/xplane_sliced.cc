// The sliced XSpace path (xplane_sliced.h): cut points, a later slice's start, the merge.
#include "core/formats/xplane/xplane_sliced.h"

#include <algorithm>
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

void XPlaneImporter::plane_part(const uint8_t* plane, size_t n, uint64_t body, uint32_t lo,
                                uint32_t hi, uint64_t end) {
  if (stopped_ || finished_ || state_ != State::kHeader || head_.pending()) return;
  import_xplane_part(&ctx_, plane, n, body, lo, hi);
  pos_ = field_start_ = end;
}

bool XPlaneImporter::at_field_boundary() const {
  return !stopped_ && !finished_ && state_ == State::kHeader && !head_.pending() &&
         !ctx_.pending.active;
}

bool XPlaneImporter::can_absorb(const XPlaneImporter& later) const {
  if (stopped_ || finished_ || state_ != State::kHeader || head_.pending()) return false;
  if (later.slice_begin_ != pos_) return false;
  const PendingPlane& mine = ctx_.pending;
  const PendingPlane& next = later.ctx_.pending;
  const bool continues = next.active && next.first_line > 0;
  if (mine.active != continues) return false;
  if (!continues) {
    if (later.ctx_.plane_base != ctx_.plane_base + store_->planes.size()) return false;
    for (const auto& kv : later.ctx_.process_plane)
      if (ctx_.process_plane.count(kv.first)) return false;
    return true;
  }
  if (next.first_line != mine.next_line || next.lines != mine.lines || next.pools != mine.pools ||
      later.ctx_.plane_base != mine.file_plane)
    return false;
  // A section the later part made first is keyed as one pass would key it here: by its name,
  // unless an earlier section has that name.
  for (size_t k = 0; k < next.process.size(); ++k) {
    if (next.process[k] == kNone) continue;
    if (mine.process[k] != kNone) {
      if (next.key[k] != mine.key[k]) return false;
    } else if (next.key[k] != next.base[k] || ctx_.process_plane.count(next.key[k])) {
      return false;
    }
  }
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
    // A cut plane's section made before the cut: its sort index (which the part's builder set
    // by its own numbering) is set again below, and it is listed once.
    const bool made = ctx_.process_plane.count(p.key) > 0;
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
    if (!made) ctx_.sections.push_back(std::move(s));
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
  absorb_pending(lc.pending, src, str);

  // later's framing goes on here: a file cut off inside its last field is finished here.
  state_ = later.state_;
  pos_ = later.pos_;
  field_start_ = later.field_start_;
  head_ = later.head_;
  number_ = later.number_;
  body_.swap(later.body_);
  stopped_ = later.stopped_;
}

void XPlaneImporter::absorb_pending(PendingPlane& next, const TraceStore& src,
                                    const std::function<StrId(StrId)>& str) {
  if (!next.active) return;
  PendingPlane& mine = ctx_.pending;
  if (next.first_line == 0) mine = PendingPlane{}, mine = next;  // the later slice's last plane
  mine.active = true;
  mine.process.resize(next.process.size(), kNone);
  mine.key.resize(next.process.size()), mine.base.resize(next.process.size());
  for (size_t k = 0; k < next.process.size(); ++k) {
    if (next.process[k] == kNone || (next.first_line > 0 && mine.process[k] != kNone)) continue;
    const Process& p = src.processes[next.process[k]];
    mine.process[k] = builder_.process(p.key, p.pid);
    mine.key[k] = next.key[k], mine.base[k] = next.base[k];
  }
  auto remap = [&](std::vector<DeriveInput>* to, const std::vector<DeriveInput>& from) {
    if (next.first_line == 0) to->clear();
    for (DeriveInput d : from) {
      d.module = str(d.module), d.hlo_op = str(d.hlo_op);
      d.tf_op = str(d.tf_op), d.source = str(d.source);
      to->push_back(d);
    }
  };
  remap(&mine.derive_in, next.derive_in);
  remap(&mine.steps_in, next.steps_in);
  mine.next_line = next.next_line;
  mine.rows = next.rows;
  next = PendingPlane{};
  if (mine.first_line == 0 && mine.next_line >= mine.lines) finish_pending_plane(&ctx_);
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

// The file offsets of the lines of plane `f` when it may be cut at them: a plane of a device or
// host whose fields all read cleanly, with two lines or more; else none.
std::vector<uint64_t> line_starts(std::string_view data, const XSpaceField& f) {
  std::vector<uint64_t> out;
  if (!f.plane || f.context) return out;
  auto* base = reinterpret_cast<const uint8_t*>(data.data());
  wire::Reader r(base + f.body, static_cast<size_t>(f.len));
  wire::Field fl;
  wire::Status st;
  while ((st = r.next(&fl)) == wire::Status::kOk)
    if (fl.number == 3 && fl.type == wire::kLen)
      out.push_back(static_cast<uint64_t>(r.field_start - base));
  if (st != wire::Status::kEnd || out.size() < 2) out.clear();
  return out;
}

// The line cut `at` is in: the plane (an index in `fields`) and the line's index, when `at`
// starts one of a cuttable plane's lines after its first.
struct LineCut {
  size_t field = 0;
  uint32_t line = 0;
};
bool line_cut_at(const std::vector<XSpaceField>& fields,
                 const std::vector<std::vector<uint64_t>>& lines, uint64_t at, LineCut* out) {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (at <= fields[i].at || at >= fields[i].end) continue;
    const auto& l = lines[i];
    auto it = std::lower_bound(l.begin(), l.end(), at);
    if (it == l.end() || *it != at || it == l.begin()) return false;
    *out = LineCut{i, static_cast<uint32_t>(it - l.begin())};
    return true;
  }
  return false;
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

std::vector<uint64_t> xspace_cut_points(std::string_view data, size_t slices, bool lines) {
  const std::vector<XSpaceField> fields = top_fields(data);
  if (!lines || slices < 2) return xspace_cuts_of(fields, data.size(), slices);
  // The candidates: every top-level field, and the lines (after the first) of a plane bigger
  // than a share.
  std::vector<XSpaceField> at = fields;
  for (const XSpaceField& f : fields) {
    if (f.len <= data.size() / slices) continue;
    const std::vector<uint64_t> l = line_starts(data, f);
    for (size_t k = 1; k < l.size(); ++k) {
      XSpaceField c;
      c.at = l[k];
      at.push_back(c);
    }
  }
  std::sort(at.begin(), at.end(),
            [](const XSpaceField& a, const XSpaceField& b) { return a.at < b.at; });
  std::vector<uint64_t> cuts = xspace_cuts_of(at, data.size(), slices);
  // A slice that holds a plane's last lines ends with the plane: its derived rows come before
  // the next plane's sections.
  for (size_t i = 0, n = cuts.size(); i < n; ++i)
    for (const XSpaceField& f : fields)
      if (cuts[i] > f.at && cuts[i] < f.end && f.end < data.size()) cuts.push_back(f.end);
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  return cuts;
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
  const std::vector<XSpaceField> fields = top_fields(data);
  std::vector<std::vector<uint64_t>> lines(fields.size());
  std::vector<bool> cut(fields.size(), false);  // a plane cut at its lines
  std::vector<uint64_t> bounds, inside;
  // A cut at a line of a plane makes that plane's end a bound too.
  for (uint64_t c : cuts) {
    size_t i = 0;
    while (i < fields.size() && !(c > fields[i].at && c < fields[i].end)) ++i;
    if (i == fields.size() || !fields[i].plane) {
      bounds.push_back(c);
      continue;
    }
    if (lines[i].empty()) lines[i] = line_starts(data, fields[i]);
    LineCut lc;
    if (!line_cut_at(fields, lines, c, &lc)) {
      inside.push_back(c);
      continue;
    }
    cut[i] = true;
    bounds.push_back(c);
    if (fields[i].end < data.size()) bounds.push_back(fields[i].end);
  }
  // A cut inside a plane at no line start is kept (the merge refuses it), unless that plane is
  // cut at its lines.
  for (uint64_t c : inside) {
    bool in_cut_plane = false;
    for (size_t i = 0; i < fields.size(); ++i)
      if (cut[i] && c > fields[i].at && c < fields[i].end) in_cut_plane = true;
    if (!in_cut_plane) bounds.push_back(c);
  }
  for (size_t i = 0; i < fields.size(); ++i)
    if (!cut[i]) lines[i].clear();
  std::sort(bounds.begin(), bounds.end());
  bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());
  std::vector<XSpaceSliceSpec> specs = xspace_specs_of(fields, data.size(), bounds);
  for (XSpaceSliceSpec& s : specs) {
    LineCut from, to;
    const bool starts_in = line_cut_at(fields, lines, s.begin, &from);
    const bool ends_in = s.end < data.size() && line_cut_at(fields, lines, s.end, &to);
    if (!starts_in && !ends_in) continue;
    const XSpaceField& f = fields[starts_in ? from.field : to.field];
    s.has_part = true;
    s.part.at = f.at, s.part.body = f.body, s.part.len = f.len;
    s.part.lo = starts_in ? from.line : 0;
    s.part.hi = ends_in ? to.line : static_cast<uint32_t>(lines[from.field].size());
    s.fields_end = starts_in ? s.begin : f.at;
    if (starts_in) --s.planes_before;  // the cut plane, counted as one before the slice
  }
  return specs;
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
    s.fields_end = s.end;
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

void XSpaceSlice::plane_part(const uint8_t* plane, const XPlanePart& part, uint64_t end) {
  imp(*importer_)
      .plane_part(plane, static_cast<size_t>(part.len), part.body, part.lo, part.hi, end);
}

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
                                        SlicedImportStats* stats, const SliceRunner& run,
                                        bool lines) {
  return import_xspace_at(store, data, xspace_cut_points(data, slices, lines), stats, run);
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
  // A slice's whole fields, then the part of a cut plane it ends with.
  auto read = [&](XSpaceSlice& to, const XSpaceSliceSpec& s) {
    to.feed(bytes + s.begin, s.fields_end - s.begin);
    if (s.has_part) to.plane_part(bytes + s.part.body, s.part, s.end);
  };
  return run_slices<XSpaceSlice>(
      specs.size(),
      [&](size_t i) {
        const XSpaceSliceSpec& s = specs[i];
        auto part = i == 0 ? XSpaceSlice::first(store) : XSpaceSlice::later(s);
        for (const auto& [at, len] : s.context) part->context(bytes + at, len, at);
        read(*part, s);
        return part;
      },
      // Not at a field boundary, or a name repeats across the cut: read in line.
      [](const XSpaceSlice& head, const XSpaceSlice& part) { return head.can_absorb(part); },
      [&](XSpaceSlice& head, size_t i) { read(head, specs[i]); }, run, &st);
}

}  // namespace strata
